// The lobby: create a game (ruleset, scenario, who plays each side) and list the games.
import { getJson, postJson, rulesets, text } from "./api.js";

const form = document.getElementById("create");
const rulesetSelect = document.getElementById("ruleset");
const scenarioSelect = document.getElementById("scenario");
const seats = document.getElementById("seats");
const error = document.getElementById("error");

function chosen() {
  return rulesetsData.rulesets.find((r) => r.id === rulesetSelect.value);
}

let rulesetsData = null;

function fillRuleset() {
  const rs = chosen();
  document.getElementById("scenario-word").textContent = rs.scenario_word[0].toUpperCase() + rs.scenario_word.slice(1);
  scenarioSelect.replaceChildren();
  for (const s of rs.scenarios) {
    const option = text(scenarioSelect, "option", `${s.name} (${s.id})`);
    option.value = s.id;
  }
  fillSummary();
  const upload = document.getElementById("upload");
  upload.hidden = !rs.army_upload;
  document.getElementById("upload-kind").textContent = rs.army_upload ?? "";
  const side = document.getElementById("upload-side");
  side.replaceChildren();
  for (const player of rs.players) text(side, "option", player).value = player;
  document.getElementById("army-file").value = "";
  seats.replaceChildren();
  rs.players.forEach((player, index) => {
    const label = text(seats, "label", `${player} `);
    const select = document.createElement("select");
    select.name = `seat-${player}`;
    select.id = `seat-${player}`;
    for (const kind of rs.seat_kinds) text(select, "option", kind).value = kind;
    select.value = index === 0 ? "human" : (rs.seat_kinds.includes("ai") ? "ai" : rs.seat_kinds[1]);
    label.appendChild(select);
  });
}

function fillSummary() {
  const s = chosen().scenarios.find((x) => x.id === scenarioSelect.value);
  document.getElementById("scenario-summary").textContent = s ? s.summary : "";
}

async function create(event) {
  event.preventDefault();
  error.replaceChildren();
  document.getElementById("created").hidden = true;
  const rs = chosen();
  const body = { ruleset: rs.id, scenario: scenarioSelect.value, seats: {} };
  for (const p of rs.players) body.seats[p] = document.getElementById(`seat-${p}`).value;
  const file = document.getElementById("army-file").files[0];
  try {
    if (rs.army_upload && file) {
      const side = document.getElementById("upload-side").value;
      body.army_list = { side, name: file.name, text: await file.text() };
    }
    const game = await postJson("/api/games", body);
    document.getElementById("created").hidden = false;
    document.getElementById("created-hash").textContent = game.seed_sha256;
    const links = document.getElementById("links");
    links.replaceChildren();
    for (const [seat, info] of Object.entries(game.seats)) {
      if (!info.link) continue;
      const li = text(links, "li", "");
      const a = text(li, "a", `Play ${seat}`, "play-link");
      a.href = info.link;
      a.dataset.seat = seat;
      text(li, "code", ` ${new URL(info.link, location.href)}`);
    }
    const li = text(links, "li", "");
    const watch = text(li, "a", "Watch (spectator)");
    watch.href = game.spectator_link;
    await refresh();
  } catch (err) {
    showError(err.message);
  }
}

// An error from the server, each problem it lists (as "- " lines, or with "; " between
// them) on a line of its own.
function showError(message) {
  error.replaceChildren();
  let [head, ...problems] = message.split("\n- ");
  if (!problems.length) {
    const at = message.indexOf(": ");
    problems = at < 0 ? [] : message.slice(at + 2).split("; ");
    head = message.slice(0, at);
  }
  if (problems.length < 2) {
    error.textContent = message;
    return;
  }
  text(error, "p", head);
  const list = text(error, "ul", "", "problems");
  for (const problem of problems) text(list, "li", problem);
}

async function refresh() {
  const body = document.querySelector("#games tbody");
  const { games } = await getJson("/api/games");
  body.replaceChildren();
  for (const g of games) {
    const row = document.createElement("tr");
    text(row, "td", g.id);
    text(row, "td", g.ruleset);
    text(row, "td", g.scenario);
    text(row, "td", Object.entries(g.seats).map(([s, k]) => `${s}: ${k}`).join(", "));
    text(row, "td", g.status, g.over ? "over" : "");
    const links = text(row, "td", "");
    const watch = text(links, "a", "watch");
    watch.href = `play.html?game=${g.id}`;
    links.append(" · ");
    const replay = text(links, "a", "replay");
    replay.href = `replay.html?game=${g.id}`;
    body.appendChild(row);
  }
}

async function start() {
  rulesetsData = await rulesets();
  for (const rs of rulesetsData.rulesets) text(rulesetSelect, "option", `${rs.name} (${rs.id})`).value = rs.id;
  rulesetSelect.value = "ttt";
  fillRuleset();
  rulesetSelect.addEventListener("change", fillRuleset);
  scenarioSelect.addEventListener("change", fillSummary);
  form.addEventListener("submit", create);
  await refresh();
  setInterval(refresh, 5000);
}

start().catch((err) => { error.textContent = err.message; });
