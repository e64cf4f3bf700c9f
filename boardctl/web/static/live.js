// The live page: follows /api/events (Server-Sent Events; the browser
// reconnects by itself and every message is a full snapshot, so a
// reconnect is a full resync) and draws each snapshot.
"use strict";
const $ = (id) => document.getElementById(id);
let latest = null;

function evalFraction(score) {
  // White's share of the bar: 50% at 0.00, most of it at +5 pawns.
  if (score === null || score === undefined) return 0.5;
  return 1 / (1 + Math.exp(-score / 2.5));
}

function drawGraph(svg, evals) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svgEl("line", {x1: 0, y1: 30, x2: 200, y2: 30, class: "axis"}, svg);
  const points = [];
  const n = Math.max(evals.length - 1, 1);
  evals.forEach((value, ply) => {
    if (value === null) return;
    points.push(`${(ply / n) * 200},${60 * (1 - evalFraction(value))}`);
  });
  if (points.length) svgEl("polyline", {points: points.join(" "), class: "curve"}, svg);
}

function render(s) {
  latest = s;
  drawBoard($("board"), s);
  document.body.dataset.shape = s.board.shape;
  $("white-name").textContent = s.white;
  $("black-name").textContent = s.black;
  $("white-clock").textContent = formatClock(s.white_clock);
  $("black-clock").textContent = formatClock(s.black_clock);
  $("white-row").classList.toggle("to-move", s.turn === "white" && s.result === "*");
  $("black-row").classList.toggle("to-move", s.turn === "black" && s.result === "*");
  $("turn").textContent = s.result === "*" ? `${s.turn === "white" ? "White" : "Black"} to move` : "";
  $("result").textContent = s.result === "*" ? "" : `${s.result} (${s.reason})`;
  $("prompt").textContent = s.prompt || s.status || "";
  const depth = s.score ? ` · ${s.score}` : "";
  $("engine").textContent = s.engine && s.engine !== "off" ? `Engine: ${s.engine}${depth}` : "";
  let score = null;
  for (let i = s.evals.length - 1; i >= 0 && score === null; i--) score = s.evals[i];
  $("evalfill").style.height = `${(1 - evalFraction(score)) * 100}%`;
  $("evalbar").hidden = !s.evals.some((v) => v !== null);
  drawGraph($("evalgraph"), s.evals);
  $("evalgraph").style.display = s.evals.some((v) => v !== null) ? "" : "none";
  const list = $("moves");
  fillMoves(list, s.sans, s.first_ply);
  list.scrollTop = list.scrollHeight;
  if ($("level") && s.level !== null && document.activeElement !== $("level")) {
    $("level").value = s.level;
  }
  hearSaid(s);
  document.body.dataset.seq = String(s.seq);
  document.body.dataset.plies = String(s.moves.length);
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { $("link").textContent = "live"; $("link").className = "link ok"; });
  source.addEventListener("state", (event) => render(JSON.parse(event.data)));
  source.addEventListener("error", () => {
    $("link").textContent = "reconnecting…";
    $("link").className = "link lost";
  });
}

async function post(url, body) {
  const response = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return [response.status, data];
}

async function setupControls() {
  const response = await fetch("/api/session", {credentials: "same-origin"});
  const session = await response.json();
  if (!session.actions || document.body.classList.contains("view-projector")) return;
  $("controls").hidden = false;
  const unlocked = (yes) => { $("actions").hidden = !yes; $("pin-form").hidden = yes; };
  unlocked(session.authorised);
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const [status, data] = await post("/api/login", {pin: $("pin").value});
    $("pin").value = "";
    if (status === 200) unlocked(true);
    $("pin-status").textContent = status === 200 ? "" : (data.error || `refused (${status})`);
  });
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.addEventListener("click", async () => {
      const kind = button.dataset.action;
      const body = {kind};
      if (kind === "level") body.value = parseInt($("level").value, 10);
      const [status, data] = await post("/api/action", body);
      if (status === 401) unlocked(false);
      $("action-status").textContent = status === 202 ? `${kind}: sent` : (data.error || `refused (${status})`);
    });
  }
}

setupSpeech();
connect();
setupControls();
