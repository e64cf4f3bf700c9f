// Draws a board as SVG from a snapshot-like object; used by every page.
// No chess logic and no board shape here: the server sends FENs, cell
// numbers and the board's layout (`board`: each cell's name, centre and
// shade, a cell's outline, the FEN's ranks, the names along the edges).
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const PIECES = "/static/pieces.svg";

// The sprite sheet is put into the page once: a <use> of a symbol in the same
// document draws at once and needs no same-origin file (the hall shows other
// hosts' boards).  The live page comes with it, so its first drawing has pieces.
const piecesLoaded = document.getElementById("wP") ? Promise.resolve() :
  fetch(PIECES).then((r) => r.text()).then((text) => {
    const holder = document.createElement("div");
    holder.hidden = true;
    holder.innerHTML = text;   // our own static file, not data
    document.body.prepend(holder);
  });

// An LED colour "#rrggbb" as its hue at full strength and an opacity for its
// brightness.
function glow(colour) {
  const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const peak = Math.max(...rgb, 1);
  const hue = "#" + rgb.map((c) => Math.round(c * 255 / peak).toString(16).padStart(2, "0"))
    .join("");
  return [hue, (0.35 + 0.65 * peak / 255).toFixed(2)];
}

function svgEl(name, attrs, parent) {
  const el = document.createElementNS(SVGNS, name);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
  if (parent) parent.appendChild(el);
  return el;
}

// The placement field of a FEN as {cell: "P"|"f"|...}: `rows` lists the cells
// of each FEN rank, first one first; digits count empty cells and may run to 10.
function placement(fen, rows) {
  const out = {};
  (fen || "").split(" ")[0].split("/").forEach((text, index) => {
    const cells = rows[index] || [];
    let at = 0;
    for (const match of text.matchAll(/(\d+)|([a-zA-Z])/g)) {
      if (match[1]) at += parseInt(match[1], 10);
      else { if (at < cells.length) out[cells[at]] = match[2]; at += 1; }
    }
  });
  return out;
}

function drawBoard(svg, s) {
  const b = s.board, cell = b.cell;
  svg.setAttribute("viewBox", `0 0 ${b.width} ${b.height}`);
  svg.dataset.shape = b.shape;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const centre = (sq) => [b.cells[sq][1], b.cells[sq][2]];
  const xs = b.corners.map(([x]) => x), ys = b.corners.map(([, y]) => y);
  const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs),
               Math.max(...ys) - Math.min(...ys)];
  const last = s.last_move || [];
  b.cells.forEach(([name, cx, cy, shade], sq) => {
    let cls = "sq " + shade;
    if (last.includes(sq)) cls += " last";
    if (s.check === sq) cls += " check";
    const attrs = {class: cls, "data-name": name};
    if (b.shape === "square") {
      svgEl("rect", {x: cx + box[0], y: cy + box[1], width: box[2], height: box[3], ...attrs}, svg);
    } else {
      const points = b.corners.map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ");
      svgEl("polygon", {points, ...attrs}, svg);
    }
  });
  for (const [text, x, y] of b.labels) {
    svgEl("text", {x, y, class: "coord", "font-size": b.font}, svg).textContent = text;
  }
  for (const ring of s.rings || []) {
    const [cx, cy] = centre(ring.square);
    const cls = "ring role-" + ring.role + (ring.blink ? " blink" : "");
    // A dim LED is a fainter ring of the same hue, not a darker one.
    const [hue, opacity] = glow(ring.colour);
    svgEl("circle", {cx, cy, r: cell * 0.44, stroke: hue, "stroke-opacity": opacity,
                     class: cls, "data-square": ring.square}, svg);
    if (ring.role === "falcon-path") {
      svgEl("circle", {cx, cy, r: cell * 0.12, fill: hue, "fill-opacity": opacity,
                       class: "path-dot"}, svg);
    }
  }
  const pieces = placement(s.fen, b.rows);
  // A piece in the player's hand is drawn faint on the cell it left.
  const lifted = new Set((s.rings || []).filter((r) => r.role === "lifted").map((r) => r.square));
  for (const [sq, letter] of Object.entries(pieces)) {
    const [cx, cy] = centre(Number(sq));
    const colour = letter === letter.toUpperCase() ? "w" : "b";
    svgEl("use", {href: `#${colour}${letter.toUpperCase()}`,
                  x: cx - cell / 2 + 4, y: cy - cell / 2 + 4, width: cell - 8, height: cell - 8,
                  class: lifted.has(Number(sq)) ? "piece lifted" : "piece",
                  "data-square": sq, "data-piece": letter}, svg);
  }
  if (s.engine_move) drawArrow(svg, b, s.engine_move[0], s.engine_move[1], "engine");
  // Other arrows (a review's better move and the move played): {from, to, kind}.
  for (const arrow of s.arrows || []) drawArrow(svg, b, arrow.from, arrow.to, arrow.kind);
}

// An arrow from cell `from` to cell `to`: a shaft of class `${kind}-arrow` and a
// head of class `${kind}-head`, both naming the two cells (data-from, data-to).
function drawArrow(svg, b, from, to, kind) {
  const [x1, y1] = [b.cells[from][1], b.cells[from][2]];
  const [x2, y2] = [b.cells[to][1], b.cells[to][2]];
  const names = {"data-from": b.cells[from][0], "data-to": b.cells[to][0]};
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const tip = [x2 - ux * 20, y2 - uy * 20];
  svgEl("line", {x1, y1, x2: tip[0] - ux * 20, y2: tip[1] - uy * 20,
                 class: `${kind}-arrow`, ...names}, svg);
  const px = -uy * 22, py = ux * 22;
  svgEl("polygon", {points: `${tip[0] + ux * 18},${tip[1] + uy * 18} ` +
    `${tip[0] - ux * 22 + px},${tip[1] - uy * 22 + py} ` +
    `${tip[0] - ux * 22 - px},${tip[1] - uy * 22 - py}`, class: `${kind}-head`, ...names}, svg);
}

function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, sec = whole % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

// Move list rows: [[number, white SAN or "", black SAN or ""], ...]
function moveRows(sans, firstPly) {
  const rows = [];
  let ply = firstPly || 0;
  for (const text of sans) {
    const number = Math.floor(ply / 2) + 1;
    if (!rows.length || rows[rows.length - 1][0] !== number) rows.push([number, "", ""]);
    rows[rows.length - 1][1 + (ply % 2)] = text;
    ply += 1;
  }
  return rows;
}

// The last of `sans` with its number as a move list writes it: "2. Nh3" for
// White's, "1… d5" for Black's (whose number is the move White began).
function lastMove(sans, firstPly) {
  if (!sans.length) return "";
  const ply = (firstPly || 0) + sans.length - 1;
  return `${Math.floor(ply / 2) + 1}${ply % 2 ? "…" : "."} ${sans[sans.length - 1]}`;
}

// `current`: the number of plies shown (its last move is highlighted);
// `marks`: a review's marked moves by their index, {glyph, kind}, each
// written after its move and given the class `mark-${kind}`.
function fillMoves(list, sans, firstPly, current, marks) {
  while (list.firstChild) list.removeChild(list.firstChild);
  let ply = firstPly || 0;
  for (const [number, white, black] of moveRows(sans, firstPly)) {
    const li = document.createElement("li");
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = number + ".";
    li.appendChild(num);
    for (const text of [white, black]) {
      const span = document.createElement("span");
      span.className = "san";
      span.textContent = text || (text === "" && li.childNodes.length === 1 ? "…" : "");
      if (text) {
        const index = ply - (firstPly || 0);
        span.dataset.ply = String(index);
        if (current !== undefined && index === current - 1) span.classList.add("current");
        const mark = marks && marks[index];
        if (mark) {
          span.textContent = text + mark.glyph;
          span.classList.add("mark", `mark-${mark.kind}`);
        }
        ply += 1;
      }
      li.appendChild(span);
    }
    list.appendChild(li);
  }
}
