// The table drawn to scale as SVG from the scene the server sends (warbench.core.scene).
// Table units (squares or inches) are SVG user units; y grows upwards on the table, so
// every point is flipped: svgY = height - y.

const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function columnLetters(col) {
  let letters = "";
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

export function squareName(col, row) {
  return `${columnLetters(col)}${row + 1}`;
}

export function parseSquare(text) {
  const m = /^([A-Z]+)(\d+)$/.exec(text);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col: col - 1, row: Number(m[2]) - 1 };
}

export function parsePoint(text) {
  const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

function pointsAttr(points, height) {
  return points.map(([x, y]) => `${x},${height - y}`).join(" ");
}

// Draws `scene` into `svg`; returns helpers to map clicks and to highlight targets.
export function drawScene(svg, scene, colours) {
  svg.replaceChildren();
  const { width: W, height: H } = scene;
  const font = Math.max(W, H) / 45;
  const margin = scene.grid ? 0.7 : font * 1.2;
  const top = scene.grid ? 0.1 : font * 0.8;
  svg.setAttribute("viewBox", `${-margin} ${-top} ${W + margin + font} ${H + margin + top}`);
  svg.dataset.unit = scene.unit;
  const plain = colours.terrain.plain || "#e8efd0";
  el("rect", { x: 0, y: 0, width: W, height: H, fill: plain, stroke: "#333", "stroke-width": font / 10 }, svg);
  const ground = el("g", { class: "terrain" }, svg);
  for (const area of scene.terrain) {
    const poly = el("polygon", {
      points: pointsAttr(area.points, H),
      fill: colours.terrain[area.kind] || "#bbbbbb",
      "fill-opacity": 0.85,
      "data-kind": area.kind,
    }, ground);
    el("title", {}, poly).textContent = area.label ? `${area.kind}: ${area.label}` : area.kind;
  }
  if (scene.grid) drawGrid(svg, W, H);
  else drawRuler(svg, W, H, font);
  const marks = el("g", { class: "objectives" }, svg);
  for (const area of scene.objectives) {
    el("polygon", {
      points: pointsAttr(area.points, H), fill: "none", stroke: "gold", "stroke-width": font / 4,
    }, marks);
    if (area.label) {
      const [cx, cy] = centre(area.points);
      label(marks, area.label, cx, H - cy + font * 0.9, font * 0.7, "#5a4500");
    }
  }
  for (const area of scene.templates) {
    el("polygon", { points: pointsAttr(area.points, H), fill: "orange", "fill-opacity": 0.3, stroke: "darkorange" }, marks);
  }
  const preview = el("g", { class: "preview" }, svg);
  const highlights = el("g", { class: "highlights" }, svg);
  const pieces = el("g", { class: "pieces" }, svg);
  for (const fig of scene.figures) drawFigure(pieces, fig, H, font, colours);
  const toTable = (event) => {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return { x: p.x, y: H - p.y };
  };
  return { toTable, highlights, preview, font, H, grid: scene.grid };
}

// The terrain kinds on the table with their colours, as a legend.
export function legend(box, scene, colours) {
  box.replaceChildren();
  const kinds = [...new Set(scene.terrain.map((a) => a.kind))].sort();
  for (const kind of kinds) {
    const item = document.createElement("span");
    item.className = "legend-item";
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colours.terrain[kind] || "#bbbbbb";
    item.append(swatch, kind);
    box.appendChild(item);
  }
}

function centre(points) {
  const n = points.length - 1 || 1;
  let x = 0;
  let y = 0;
  for (const [px, py] of points.slice(0, n)) {
    x += px;
    y += py;
  }
  return [x / n, y / n];
}

function label(parent, text, x, y, size, fill = "#111", extra = {}) {
  const t = el("text", { x, y, "font-size": size, "text-anchor": "middle", fill, ...extra }, parent);
  t.textContent = text;
  return t;
}

function drawGrid(svg, W, H) {
  const g = el("g", { class: "grid", stroke: "#0006", "stroke-width": 0.02 }, svg);
  for (let c = 0; c <= W; c++) el("line", { x1: c, y1: 0, x2: c, y2: H }, g);
  for (let r = 0; r <= H; r++) el("line", { x1: 0, y1: r, x2: W, y2: r }, g);
  for (let c = 0; c < W; c++) label(svg, columnLetters(c), c + 0.5, H + 0.45, 0.35, "#333");
  for (let r = 0; r < H; r++) label(svg, String(r + 1), -0.35, H - r - 0.4, 0.35, "#333");
}

function drawRuler(svg, W, H, font) {
  const g = el("g", { class: "ruler", stroke: "#0003", "stroke-width": font / 30 }, svg);
  const step = W > 60 ? 12 : 6;
  for (let x = step; x < W; x += step) el("line", { x1: x, y1: 0, x2: x, y2: H }, g);
  for (let y = step; y < H; y += step) el("line", { x1: 0, y1: H - y, x2: W, y2: H - y }, g);
  for (let x = 0; x <= W; x += step) label(svg, `${x}`, x, H + font, font * 0.7, "#333");
  for (let y = step; y <= H; y += step) label(svg, `${y}`, -font * 0.6, H - y + font * 0.25, font * 0.7, "#333");
}

function drawFigure(parent, fig, H, font, colours) {
  const g = el("g", { class: "piece", "data-id": fig.id || fig.unit, "data-unit": fig.unit, "data-side": fig.side }, parent);
  el("polygon", {
    points: pointsAttr(fig.points, H),
    fill: colours.sides[fig.side] || "#444",
    stroke: "#000",
    "stroke-width": font / 12,
  }, g);
  const [x, y] = [fig.x, H - fig.y];
  const xs = fig.points.map((p) => p[0]);
  const radius = (Math.max(...xs) - Math.min(...xs)) / 2;
  if (fig.facing !== null && fig.facing !== undefined) {
    const rad = (fig.facing * Math.PI) / 180;
    el("line", {
      x1: x, y1: y, x2: x + radius * 1.3 * Math.sin(rad), y2: y - radius * 1.3 * Math.cos(rad),
      stroke: "#fff", "stroke-width": font / 8, "stroke-linecap": "round",
    }, g);
  }
  if (fig.label) {
    const lines = fig.label.split("\n");
    const size = Math.min(font, Math.max(radius * 0.9, font * 0.55));
    label(g, lines[0], x, y + size * 0.35, size, "#fff", { "font-weight": "bold" });
    if (lines[1]) {
      const small = Math.min(size * 0.75, (2.2 * radius) / (0.6 * lines[1].length));
      label(g, lines[1], x, y + radius + small * 1.1, small, "#111");
    }
  }
  if (fig.marks.length) {
    label(g, fig.marks.join(" "), x, y - radius - font * 0.2, font * 0.65, "#8b0000", { "font-style": "italic" });
  }
  el("title", {}, g).textContent = [fig.label.replace("\n", " "), fig.side, ...fig.marks].join(" · ");
}

// Marks the places an action may go: squares, points and pieces, each clickable.
export function highlight(drawn, scene, targets) {
  const { highlights, font, H } = drawn;
  highlights.replaceChildren();
  for (const t of targets) {
    let node;
    if (t.square) {
      node = el("rect", { x: t.square.col + 0.06, y: H - t.square.row - 0.94, width: 0.88, height: 0.88, class: "target" }, highlights);
    } else if (t.point) {
      node = el("circle", { cx: t.point.x, cy: H - t.point.y, r: font * 0.35, class: "target" }, highlights);
    } else if (t.piece) {
      const fig = scene.figures.find((f) => f.id === t.piece || f.unit === t.piece);
      if (!fig) continue;
      const xs = fig.points.map((p) => p[0]);
      const r = (Math.max(...xs) - Math.min(...xs)) / 2 + font * 0.3;
      node = el("circle", { cx: fig.x, cy: H - fig.y, r, class: "target ring" }, highlights);
    }
    if (node) node.dataset.text = t.text;
  }
}

function radiusOf(fig) {
  const xs = fig.points.map((p) => p[0]);
  return (Math.max(...xs) - Math.min(...xs)) / 2;
}

// A selected piece's preview from the server: where it may move (squares with their cost,
// or the region of every legal end point, one per kind of move), its range bands (edge to
// edge: round its base; on a grid, squares counted orthogonally) and sight lines to the
// pieces its actions name, each with the distance base edge to base edge.
export function drawPreview(drawn, scene, preview) {
  const { font, H } = drawn;
  const g = drawn.preview;
  g.replaceChildren();
  if (!preview) return;
  const fig = scene.figures.find((f) => f.id === preview.piece || f.unit === preview.piece);
  for (const reach of preview.reach) {
    for (const [name, cost] of reach.squares) {
      const sq = parseSquare(name);
      el("rect", { x: sq.col + 0.1, y: H - sq.row - 0.9, width: 0.8, height: 0.8, class: "reach" }, g);
      if (cost !== null) label(g, String(cost), sq.col + 0.5, H - sq.row - 0.12, 0.3, "#064", { class: "cost" });
    }
    if (reach.area.length) {
      const d = reach.area.flat().map((ring) => `M${pointsAttr(ring, H).replaceAll(" ", " L")}Z`).join(" ");
      el("path", { d, class: `reach-area ${reach.verb}`, "data-verb": reach.verb, "fill-rule": "evenodd" }, g);
    }
  }
  el("g", { class: "probe" }, g);
  if (fig) {
    const r0 = drawn.grid ? 0 : radiusOf(fig);
    const cx = fig.x;
    const cy = H - fig.y;
    preview.ranges.forEach(([name, distance], i) => {
      const r = r0 + distance;
      if (drawn.grid) {
        const d = distance + 0.5;
        el("polygon", { points: `${cx - d},${cy} ${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d}`, class: "range-band" }, g);
      } else {
        el("circle", { cx, cy, r, class: "range-band" }, g);
      }
      label(g, `${name} ${distance}`, cx, cy - r - (drawn.grid ? 0.55 : font * 0.2) - i * 0.01, drawn.grid ? 0.3 : font * 0.55, "#7a3d00", { class: "range-label" });
    });
  }
  for (const line of preview.sight) {
    const [x1, y1] = line.from;
    const [x2, y2] = line.to;
    el("line", { x1, y1: H - y1, x2, y2: H - y2, class: "sight", "data-target": line.target }, g);
    label(g, `${line.distance}`, (x1 + x2) / 2, H - (y1 + y2) / 2, drawn.grid ? 0.35 : font * 0.6, "#5a0050", { class: "sight-distance" });
  }
}

// The straight path of a move from `origin` (where the reach was measured from) to `p`,
// ending in a mark that says whether the rules allow it (`legal`), over the reach.
export function drawPath(drawn, origin, p, legal) {
  const probe = drawn.preview.querySelector("g.probe");
  if (!probe) return;
  probe.replaceChildren();
  const { font, H } = drawn;
  const how = legal ? "legal" : "refused";
  el("line", { x1: origin[0], y1: H - origin[1], x2: p.x, y2: H - p.y, class: `path-line ${how}` }, probe);
  el("circle", { cx: p.x, cy: H - p.y, r: font * 0.25, class: `path-end ${how}` }, probe);
}
