// Small helpers shared by the pages: JSON requests and the server's colours.

export async function getJson(path, options = {}) {
  const reply = await fetch(path, options);
  const data = await reply.json().catch(() => ({ detail: reply.statusText }));
  if (!reply.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
  return data;
}

export async function postJson(path, body) {
  return getJson(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

let rulesetsCache = null;

export async function rulesets() {
  rulesetsCache ??= await getJson("/api/rulesets");
  return rulesetsCache;
}

export async function colours() {
  const data = await rulesets();
  return { terrain: data.terrain_colours, sides: data.side_colours };
}

export function text(parent, tag, content, cls = "") {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  parent.appendChild(node);
  return node;
}

// One event of the log: its words, and for a roll its dice, the number needed and modifiers.
export function eventNode(event) {
  const node = document.createElement("div");
  node.className = `event ${event.kind}`;
  node.textContent = event.text;
  if (event.roll) {
    const dice = document.createElement("span");
    dice.className = "dice";
    for (const face of event.roll.faces) text(dice, "span", String(face), "die");
    node.prepend(dice);
  }
  return node;
}

export function logEntryNode(entry) {
  const node = document.createElement("div");
  node.className = "entry";
  node.dataset.step = entry.step;
  const head = entry.step === 0 ? "set-up" : `${entry.step}. ${entry.player}: ${entry.action ?? "(hidden)"}`;
  text(node, "div", head, `head ${entry.player ?? ""}`);
  for (const event of entry.events) node.appendChild(eventNode(event));
  return node;
}
