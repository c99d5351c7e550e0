// The replay viewer: every state of a record (verified by the server), on a step slider.
import { colours, eventNode, getJson, postJson } from "./api.js";
import { legend, drawScene } from "./table.js";

const slider = document.getElementById("slider");
const svg = document.getElementById("table");
let frames = [];
let palette = null;

function show(step) {
  const frame = frames[step];
  if (!frame) return;
  slider.value = step;
  document.getElementById("step-number").textContent = step;
  drawScene(svg, frame.scene, palette);
  legend(document.getElementById("legend"), frame.scene, palette);
  const who = frame.player ? `${frame.player}: ` : "";
  const after = frame.result ? frame.result.line : frame.pending ? `next: ${frame.pending.prompt}` : "";
  document.getElementById("step-action").textContent = `${who}${frame.action ?? "(hidden)"} — ${after}`;
  const box = document.getElementById("step-events");
  box.replaceChildren(...frame.events.map(eventNode));
}

function load(data) {
  frames = data.frames;
  slider.max = frames.length - 1;
  document.getElementById("step-count").textContent = frames.length - 1;
  show(0);
}

async function start() {
  palette = await colours();
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.getElementById("prev").addEventListener("click", () => show(Math.max(0, Number(slider.value) - 1)));
  document.getElementById("next").addEventListener("click", () => show(Math.min(frames.length - 1, Number(slider.value) + 1)));
  document.getElementById("file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      load(await postJson("/api/replay", await file.text()));
    } catch (err) {
      document.getElementById("error").textContent = err.message;
    }
  });
  const game = new URLSearchParams(location.search).get("game");
  if (game) load(await getJson(`/api/games/${game}/frames`));
}

start().catch((err) => { document.getElementById("error").textContent = err.message; });
