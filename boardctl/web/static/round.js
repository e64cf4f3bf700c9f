// A round of a tournament, live from the hall (boardctl hall --round): a tile
// per board, one board large (#N), the results table.  The page draws the
// round it came with at once, then follows /api/events: "round" is the whole
// round (at every connection, so a reconnect is a resync), "boards" the boards
// that changed, each setting its fields and its moves from sans_at on.
"use strict";
const boards = new Map();  // board number → its latest entry, with all its moves
let layouts = {};
let shown = 0;  // the board shown large (0: none)

function layoutOf(entry) {
  return layouts[entry.variant || "falcon"] || layouts.falcon;
}

// A clock as it stands now: the hall's reading, counted down since it came.
function clockNow(entry, colour) {
  const reading = entry[colour + "_clock"];
  if (reading === null || reading === undefined) return null;
  if (entry.running !== colour) return reading;
  return Math.max(0, reading - (performance.now() - entry.at) / 1000);
}

function statusText(entry) {
  if (entry.result !== "*") return `${entry.result}${entry.reason ? " (" + entry.reason + ")" : ""}`;
  if (entry.fen === null) return entry.presence === "offline" ? "offline" : "waiting for the board";
  const side = entry.turn === "white" ? "White" : "Black";
  const last = lastMove(entry.sans, 0);
  return `${side} to move${last ? " · last " + last : ""}`;
}

function drawClocks(entry, white, black) {
  const w = clockNow(entry, "white"), b = clockNow(entry, "black");
  white.textContent = w === null ? "" : formatClock(w);
  black.textContent = b === null ? "" : formatClock(b);
  white.classList.toggle("running", entry.running === "white");
  black.classList.toggle("running", entry.running === "black");
}

function drawTile(entry) {
  const tile = document.getElementById(`board-${entry.number}`);
  if (!tile) return;
  tile.dataset.presence = entry.presence;
  tile.dataset.plies = String(entry.ply);
  tile.dataset.result = entry.result;
  tile.querySelector(".white-name").textContent = entry.white;
  tile.querySelector(".black-name").textContent = entry.black;
  drawBoard(tile.querySelector(".board"), {...entry, board: layoutOf(entry)});
  drawClocks(entry, tile.querySelector(".white-clock"), tile.querySelector(".black-clock"));
  const offline = entry.presence === "offline" && entry.fen !== null ? " · board offline" : "";
  tile.querySelector(".status").textContent = statusText(entry) + offline;
  const row = document.querySelector(`.results-table tr[data-number="${entry.number}"]`);
  if (row) {
    row.children[1].textContent = entry.white;
    row.children[2].textContent = entry.result;
    row.children[3].textContent = entry.black;
    row.classList.toggle("over", entry.result !== "*");
  }
}

function drawDetail() {
  const detail = document.getElementById("detail");
  const entry = boards.get(shown);
  detail.hidden = !entry;
  document.getElementById("boards").hidden = Boolean(entry);
  if (!entry) return;
  document.getElementById("detail-title").textContent =
    `Board ${entry.number}: ${entry.white} – ${entry.black}`;
  document.getElementById("detail-white").textContent = entry.white;
  document.getElementById("detail-black").textContent = entry.black;
  drawBoard(document.getElementById("detail-board"), {...entry, board: layoutOf(entry)});
  drawClocks(entry, document.getElementById("detail-white-clock"),
             document.getElementById("detail-black-clock"));
  const offline = entry.presence === "offline" ? " · the board is offline" : "";
  document.getElementById("detail-status").textContent = statusText(entry) + offline;
  const list = document.getElementById("detail-moves");
  fillMoves(list, entry.sans, 0, entry.sans.length);
  list.scrollTop = list.scrollHeight;
}

function apply(entry) {
  const old = boards.get(entry.number);
  const sans = (old ? old.sans.slice(0, entry.sans_at) : []).concat(entry.sans);
  const merged = {...entry, sans, at: performance.now()};
  boards.set(entry.number, merged);
  drawTile(merged);
  if (entry.number === shown) drawDetail();
}

function whole(round) {
  layouts = round.layouts;
  boards.clear();
  for (const entry of round.boards) apply(entry);
  drawDetail();
}

function follow() {
  const link = document.getElementById("link");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { link.textContent = "live"; link.className = "link ok"; });
  source.addEventListener("error", () => {
    link.textContent = "reconnecting…"; link.className = "link lost";
  });
  source.addEventListener("round", (event) => whole(JSON.parse(event.data)));
  source.addEventListener("boards", (event) => {
    const batch = JSON.parse(event.data);
    Object.assign(layouts, batch.layouts || {});
    for (const entry of batch.boards) apply(entry);
  });
}

// On a wide screen every board is in sight at once: as few columns, and so
// as large tiles, as let them all fit the screen's height; when even the
// narrowest do not, as many as fit across, and the page scrolls.
function fitTiles() {
  const grid = document.getElementById("boards");
  grid.style.gridTemplateColumns = "";
  if (window.innerWidth < 900 || grid.hidden) return;
  const room = window.innerHeight - grid.getBoundingClientRect().top - 12;
  for (let columns = 1; columns <= grid.children.length; columns++) {
    grid.style.gridTemplateColumns = `repeat(${columns}, minmax(0, 1fr))`;
    if (grid.firstElementChild.offsetWidth < 200) break;
    if (grid.offsetHeight <= room) return;
  }
  grid.style.gridTemplateColumns = "";
}

function route() {
  const number = parseInt(location.hash.slice(1), 10);
  shown = boards.has(number) ? number : 0;
  drawDetail();
  if (!shown) {
    fitTiles();
    window.scrollTo(0, 0);
  }
}

const initial = document.getElementById("initial-state");
if (initial) whole(JSON.parse(initial.textContent));
window.addEventListener("hashchange", route);
window.addEventListener("resize", fitTiles);
route();
follow();
// The running clocks count down between the hall's messages.
setInterval(() => {
  for (const entry of boards.values()) {
    if (!entry.running) continue;
    const tile = document.getElementById(`board-${entry.number}`);
    if (tile) drawClocks(entry, tile.querySelector(".white-clock"), tile.querySelector(".black-clock"));
    if (entry.number === shown) {
      drawClocks(entry, document.getElementById("detail-white-clock"),
                 document.getElementById("detail-black-clock"));
    }
  }
}, 500);
