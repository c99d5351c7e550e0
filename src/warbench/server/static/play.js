// A seat (or a spectator) at one game: the table, the options of the pending decision,
// the log with every roll, pushed over a websocket; actions go back with the version
// they were decided at and an idempotency key.
import { colours, logEntryNode, postJson, text } from "./api.js";
import { drawPath, drawPreview, drawScene, highlight, legend, parsePoint, parseSquare, squareName } from "./table.js";

const params = new URLSearchParams(location.search);
const gameId = params.get("game");
const seat = params.get("seat");
const token = new URLSearchParams(location.hash.slice(1)).get("token");

const svg = document.getElementById("table");
const input = document.getElementById("action");
const errorLine = document.getElementById("error");
let palette = null;
let current = null; // the latest state or update message
let log = []; // log entries by step
let drawn = null;
let subject = null; // the selected piece id or action group
let socket = null;
let retry = 0;
let overShown = false;
let preview = null; // the selected piece's reach, ranges and sight lines (from the server)
let proposed = null; // the action waiting for the player to confirm it
const costs = { busy: false, next: { hover: null, chosen: null } }; // move costs asked, one at a time

const isPoint = (t) => parsePoint(t) !== null;

function tokensOf(action) {
  return action.split(" ");
}

function figureIds() {
  const ids = new Set();
  for (const f of current.scene.figures) {
    if (f.id) ids.add(f.id);
    if (f.unit) ids.add(f.unit);
  }
  return ids;
}

// Legal actions grouped by what they act with: a piece on the table, or verb (+ first word).
function groups() {
  const ids = figureIds();
  const out = new Map();
  for (const action of current.legal) {
    const t = tokensOf(action);
    let key;
    if (t.length >= 2 && ids.has(t[1])) key = t[1];
    else if (t.length >= 3) key = `${t[0]} ${t[1]}`;
    else key = t[0];
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(action);
  }
  return out;
}

function targetOf(action) {
  const t = tokensOf(action);
  const ids = figureIds();
  for (let i = t.length - 1; i >= 2; i--) {
    const word = t[i];
    if (ids.has(word)) return { piece: word, text: action };
    const sq = parseSquare(word);
    if (sq && current.scene.grid) return { square: sq, text: action };
    const pt = parsePoint(word);
    if (pt) return { point: pt, text: action };
  }
  if (t.length === 2) {
    const pt = parsePoint(t[1]);
    if (pt) return { point: pt, text: action };
    const sq = parseSquare(t[1]);
    if (sq && current.scene.grid) return { square: sq, text: action };
  }
  return null;
}

function mine() {
  return current && current.pending && seat && current.pending.player === seat;
}

function render() {
  if (proposed && !mine()) closeConfirm();
  const title = `${current.ruleset} · ${current.scenario} · version ${current.version}`;
  document.getElementById("title").textContent = title;
  document.getElementById("who").textContent = seat ? `you play ${seat}` : "spectator";
  document.getElementById("seed-hash").textContent = current.seed_sha256;
  const banner = document.getElementById("banner");
  if (current.result) {
    banner.textContent = current.result.line;
    banner.className = "banner over";
  } else if (mine()) {
    banner.textContent = `Your decision: ${current.pending.prompt}`;
    banner.className = `banner mine ${seat}`;
  } else {
    banner.textContent = `Waiting for ${current.pending.player}: ${current.pending.prompt}`;
    banner.className = "banner waiting";
  }
  drawn = drawScene(svg, current.scene, palette);
  legend(document.getElementById("legend"), current.scene, palette);
  renderOptions();
  if (preview && preview.version === current.version && preview.piece === subject) drawPreview(drawn, current.scene, preview);
  else preview = null;
  if (current.result && !overShown) showOver();
}

function renderOptions() {
  const box = document.getElementById("groups");
  const choices = document.getElementById("choices");
  box.replaceChildren();
  choices.replaceChildren();
  const hint = document.getElementById("hint");
  document.getElementById("controls").hidden = !seat;
  if (!mine()) {
    hint.textContent = current.result ? "" : "Not your decision: waiting.";
    highlight(drawn, current.scene, []);
    return;
  }
  const all = groups();
  if (subject && !all.has(subject)) subject = null;
  hint.textContent = subject
    ? `${subject}: pick an action or click a highlighted place on the table.`
    : "Select one of your pieces on the table, or an option below.";
  for (const [key, actions] of all) {
    const b = text(box, "button", actions.length > 1 ? `${key} (${actions.length})` : actions[0], "group");
    b.type = "button";
    b.dataset.key = key;
    if (key === subject) b.classList.add("selected");
    b.addEventListener("click", () => {
      if (actions.length === 1) fill(actions[0]);
      else select(key);
    });
  }
  for (const fig of svg.querySelectorAll(".piece")) {
    if (all.has(fig.dataset.id) || all.has(fig.dataset.unit)) fig.classList.add("can-act");
    if (subject && (fig.dataset.id === subject || fig.dataset.unit === subject)) fig.classList.add("selected");
  }
  const actions = subject ? all.get(subject) : [];
  for (const action of actions.slice(0, 80)) {
    const b = text(choices, "button", action, "choice");
    b.type = "button";
    b.addEventListener("click", () => fill(action));
  }
  if (actions.length > 80) text(choices, "span", `… and ${actions.length - 80} more (type them)`);
  highlight(drawn, current.scene, actions.map(targetOf).filter((t) => t));
}

function select(key) {
  subject = key;
  preview = null;
  delete svg.dataset.preview;
  clearCosts();
  drawPreview(drawn, current.scene, null);
  renderOptions();
  if (figureIds().has(key)) loadPreview(key);
}

// Ask the server where the selected piece may move, its range bands and sight lines.
async function loadPreview(piece) {
  const version = current.version;
  try {
    const data = await postJson(`/api/games/${gameId}/preview`, { seat, token, version, piece });
    if (current.version !== version || subject !== piece) return;
    preview = { ...data, version };
    drawPreview(drawn, current.scene, preview);
    svg.dataset.preview = piece;
  } catch (err) {
    document.getElementById("measure").textContent = err.message;
  }
}

// The selected piece's action that a click at table point `p` fills: of the kind of move
// whose drawn region holds `p` (a plain move before a rush), else its first taking a point.
function pointTemplateAt(p) {
  if (!current || !mine() || !subject || current.scene.grid) return null;
  const withPoint = (groups().get(subject) ?? []).filter((a) => tokensOf(a).some(isPoint));
  const at = svg.createSVGPoint();
  at.x = p.x;
  at.y = drawn.H - p.y;
  for (const area of svg.querySelectorAll("path.reach-area")) {
    if (!area.isPointInFill(at)) continue;
    const match = withPoint.find((a) => tokensOf(a)[0] === area.dataset.verb);
    if (match) return match;
  }
  return withPoint[0] ?? null;
}

// Moving the pointer over the table asks what a move there costs (hover), and a click
// that fills a point asks it too (chosen); the server answers from the rules' own code.
function onTableMove(event) {
  if (!preview || preview.version !== current.version) return;
  const p = drawn.toTable(event);
  const template = pointTemplateAt(p);
  if (template) askCost(pointAction(template, p), false);
}

function costLine(chosen) {
  return document.getElementById(chosen ? "path-cost" : "measure");
}

// One request at a time; while one is out only the latest hover and the latest click
// wait. Each line keeps the move it was last asked (`data-asked`) and the one it shows
// (`data-answered`).
async function askCost(action, chosen) {
  costLine(chosen).dataset.asked = action;
  costs.next[chosen ? "chosen" : "hover"] = action;
  if (costs.busy) return;
  costs.busy = true;
  while (costs.next.chosen || costs.next.hover) {
    const isChosen = Boolean(costs.next.chosen);
    const asked = isChosen ? costs.next.chosen : costs.next.hover;
    costs.next[isChosen ? "chosen" : "hover"] = null;
    const version = current.version;
    const piece = subject;
    try {
      const data = await postJson(`/api/games/${gameId}/preview`, { seat, token, version, path: asked });
      if (current.version === version && subject === piece && preview) showCost(data, isChosen, asked);
    } catch (err) {
      if (current.version === version) costLine(isChosen).textContent = err.message;
    }
  }
  costs.busy = false;
}

function clearCosts() {
  costs.next = { hover: null, chosen: null };
  for (const line of [costLine(false), costLine(true)]) {
    line.textContent = "";
    delete line.dataset.asked;
    delete line.dataset.answered;
  }
}

function showCost(data, chosen, asked) {
  const c = data.path;
  let words = `${data.action}: `;
  if (c) words += c.cost === null ? `no way there (${c.detail})` : `costs ${c.cost} of ${c.allowance} ${c.unit} (${c.detail})`;
  else words += "no cost to show";
  words += data.reason ? ` — refused: ${data.reason}` : " — allowed";
  const line = costLine(chosen);
  line.textContent = chosen ? `chosen: ${words}` : words;
  line.dataset.answered = asked;
  line.dataset.cost = c && c.cost !== null ? String(c.cost) : "";
  line.dataset.legal = data.reason ? "no" : "yes";
  const origin = preview.reach.find((r) => r.origin)?.origin;
  const at = parsePoint(tokensOf(data.action).find(isPoint) ?? "");
  if (origin && at) drawPath(drawn, origin, at, !data.reason);
}

// Before an action is sent: its exact odds from the server (for this seat's view). An
// action that rolls dice waits in a confirm box; one that rolls none is sent at once.
async function propose(action) {
  errorLine.textContent = "";
  const version = current.version;
  let data;
  try {
    data = await postJson(`/api/games/${gameId}/preview`, { seat, token, version, action });
  } catch (err) {
    errorLine.textContent = err.message;
    return;
  }
  if (!data.confirm) {
    if (data.reason) document.getElementById("measure").textContent = data.reason;
    send(action);
    return;
  }
  proposed = action;
  showOdds(data);
}

function showOdds(data) {
  const box = document.getElementById("odds");
  box.replaceChildren();
  document.getElementById("odds-title").textContent = `Odds: ${data.action}`;
  if (!data.odds) {
    text(box, "p", data.reason);
  } else {
    const table = document.createElement("table");
    table.className = "odds-table";
    for (const row of Object.values(data.odds.outcomes)[0]) {
      const tr = document.createElement("tr");
      text(tr, "td", `${row.percent.toFixed(1)} %`, "percent");
      text(tr, "td", row.outcome, "outcome");
      text(tr, "td", row.probability, "exact");
      table.appendChild(tr);
    }
    box.appendChild(table);
    const rolls = text(box, "div", "", "rolls");
    for (const roll of data.odds.rolls) {
      const mods = roll.modifiers.map((m) => `${m.reason} ${m.value > 0 ? "+" : ""}${m.value}`).join(", ");
      text(rolls, "div", `${roll.label}: needs ${roll.needs}${mods ? ` (${mods})` : ""}`);
    }
    const seen = Object.entries(data.odds.situation).filter(([k]) => k !== "action").map(([k, v]) => `${k}: ${v}`);
    text(box, "p", `Exact, from the rules code on your view of the table (${seen.join("; ")}).`, "rolls");
  }
  document.getElementById("confirm").hidden = false;
}

function closeConfirm() {
  proposed = null;
  document.getElementById("confirm").hidden = true;
}

function fill(action) {
  input.value = action;
  errorLine.textContent = "";
  input.focus();
}

// A click on the table: a highlighted target fills its action; a piece selects it; for a
// selected piece whose actions take a point, any spot fills that point (facing towards it).
function onTableClick(event) {
  if (!current || !mine()) return;
  const target = event.target.closest(".target");
  if (target) {
    fill(target.dataset.text);
    if (preview && tokensOf(target.dataset.text).some(isPoint)) askCost(target.dataset.text, true);
    return;
  }
  const all = groups();
  const actions = subject ? all.get(subject) ?? [] : [];
  const piece = event.target.closest(".piece");
  if (piece) {
    const id = piece.dataset.id;
    const aimed = actions.filter((a) => tokensOf(a).slice(2).includes(id) || tokensOf(a).slice(2).includes(piece.dataset.unit));
    if (aimed.length === 1) return fill(aimed[0]);
    if (aimed.length > 1) return showChoices(aimed);
    if (all.has(id)) return select(id);
    if (all.has(piece.dataset.unit)) return select(piece.dataset.unit);
  }
  const p = drawn.toTable(event);
  if (current.scene.grid) {
    const name = squareName(Math.floor(p.x), Math.floor(p.y));
    const onSquare = actions.filter((a) => tokensOf(a).at(-1) === name);
    if (onSquare.length === 1) return fill(onSquare[0]);
    if (onSquare.length > 1) return showChoices(onSquare);
    return;
  }
  const template = pointTemplateAt(p);
  if (template) {
    const action = pointAction(template, p);
    fill(action);
    if (preview) askCost(action, true);
  }
}

function showChoices(actions) {
  const choices = document.getElementById("choices");
  choices.replaceChildren();
  for (const action of actions) {
    const b = text(choices, "button", action, "choice");
    b.type = "button";
    b.addEventListener("click", () => fill(action));
  }
}

function pointAction(template, p) {
  const t = tokensOf(template);
  const form = current.forms.find((f) => f.split(" ")[0] === t[0]) ?? "";
  const names = form.split(" ");
  const at = t.findIndex(isPoint);
  const fmt = (v) => String(Math.round(v * 10) / 10);
  const out = [...t];
  out[at] = `${fmt(p.x)},${fmt(p.y)}`;
  const fig = current.scene.figures.find((f) => f.id === t[1] || f.unit === t[1]);
  names.forEach((name, i) => {
    if (name === "FACING" && i > at && fig) {
      const deg = (Math.atan2(p.x - fig.x, p.y - fig.y) * 180) / Math.PI;
      out[i] = String(Math.round((deg + 360) % 360));
    }
  });
  return out.join(" ");
}

function renderLog(entries, replace) {
  const box = document.getElementById("log");
  if (replace) box.replaceChildren();
  for (const entry of entries) box.appendChild(logEntryNode(entry));
  box.scrollTop = box.scrollHeight;
}

async function showOver() {
  overShown = true;
  const over = document.getElementById("over");
  over.hidden = false;
  document.getElementById("result").textContent = current.result.line;
  document.getElementById("seed").textContent = current.seed;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(current.seed));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  document.getElementById("seed-check").textContent = hex;
  document.getElementById("seed-verdict").textContent =
    hex === current.seed_sha256 ? "✓ matches the hash shown at the start" : "✗ does not match the hash shown at the start";
  document.getElementById("export").href = `/api/games/${gameId}/record`;
  document.getElementById("export").download = `warbench-${gameId}.json`;
  document.getElementById("replay").href = `replay.html?game=${gameId}`;
}

function send(action) {
  errorLine.textContent = "";
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    errorLine.textContent = "not connected; reconnecting…";
    return;
  }
  socket.send(JSON.stringify({ type: "action", version: current.version, action, key: crypto.randomUUID() }));
}

function onMessage(message) {
  const data = JSON.parse(message.data);
  if (data.type === "state") {
    current = data;
    log = data.log;
    renderLog(log, true);
    render();
  } else if (data.type === "update") {
    if (!current || data.version !== current.version + 1) {
      socket.send(JSON.stringify({ type: "resync" }));
      return;
    }
    if (data.scene.terrain === null) data.scene.terrain = current.scene.terrain;
    if (data.scene.figures === null) {
      const figures = current.scene.figures.slice(0, data.scene.figure_count);
      for (const [i, fig] of data.scene.figures_changed) figures[i] = fig;
      data.scene.figures = figures;
    }
    current = { ...current, ...data };
    log = log.concat(data.log);
    renderLog(data.log, false);
    render();
  } else if (data.type === "ack") {
    input.value = "";
    subject = null;
    preview = null;
    clearCosts();
  } else if (data.type === "error") {
    errorLine.textContent = data.detail;
    if (!current) document.getElementById("banner").textContent = data.detail;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
  socket.addEventListener("open", () => {
    retry = 0;
    socket.send(JSON.stringify({ type: "hello", seat, token }));
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) return; // refused: wrong token or no such game
    retry = Math.min(retry + 1, 5);
    document.getElementById("banner").textContent = "connection lost: reconnecting…";
    setTimeout(connect, 300 * retry);
  });
}

async function start() {
  palette = await colours();
  svg.addEventListener("click", onTableClick);
  document.getElementById("action-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) propose(input.value.trim());
  });
  document.getElementById("confirm-send").addEventListener("click", () => {
    const action = proposed;
    closeConfirm();
    if (action) send(action);
  });
  document.getElementById("confirm-cancel").addEventListener("click", closeConfirm);
  svg.addEventListener("mousemove", onTableMove);
  document.getElementById("close-over").addEventListener("click", () => {
    document.getElementById("over").hidden = true;
  });
  connect();
}

if (!gameId) document.getElementById("banner").textContent = "no game given: open a game from the lobby";
else start();
