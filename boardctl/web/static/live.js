// The live page: draws the snapshot the page came with at once, then follows
// /api/events (Server-Sent Events; the browser reconnects by itself and every
// message is a full snapshot, so a reconnect is a full resync).
"use strict";
const $ = (id) => document.getElementById(id);
let latest = null;

function evalFraction(score) {
  // White's share of the bar: 50% at 0.00, most of it at +5 pawns.
  if (score === null || score === undefined) return 0.5;
  return 1 / (1 + Math.exp(-score / 2.5));
}

// Python's int() and float() of a text, for the texts score_words reads;
// null where Python raises ValueError.  Python strips its own whitespace,
// which is not JavaScript's, and reads any script's decimal digits.
const PY_SPACE = "[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*";
const PY_DIGITS = "\\d(?:_?\\d)*";
const PY_INT = new RegExp(`^${PY_SPACE}([+-]?)(${PY_DIGITS})${PY_SPACE}$`);
const PY_FLOAT = new RegExp(`^${PY_SPACE}([+-]?(?:(?:${PY_DIGITS}(?:\\.(?:${PY_DIGITS})?)?|` +
  `\\.${PY_DIGITS})(?:[eE][+-]?${PY_DIGITS})?|inf|infinity|nan))${PY_SPACE}$`, "i");
const DIGIT = /\p{Nd}/u;

// Unicode's decimal digits come in runs of ten, zero first, some runs
// back to back: a digit's value is its place from where its run of runs starts.
function asciiDigits(text) {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const at = digit.codePointAt(0);
    let start = at;
    while (DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
    return String((at - start) % 10);
  });
}

// A whole number as a BigInt: a mate is counted exactly however long it is.
function pyInt(text) {
  const match = PY_INT.exec(asciiDigits(text));
  if (!match) return null;
  const value = BigInt(match[2].replace(/_/g, ""));
  return match[1] === "-" ? -value : value;
}

function pyFloat(text) {
  const match = PY_FLOAT.exec(asciiDigits(text));
  if (!match) return null;
  const plain = match[1].replace(/_/g, "").toLowerCase();
  const bare = plain.replace(/^[+-]/, "");
  if (bare === "nan") return NaN;
  if (bare.startsWith("inf")) return plain.startsWith("-") ? -Infinity : Infinity;
  return Number(plain);
}

// Python's f"{x:.2f}" of a number not below 0: exact halves go to the even
// hundredth as Python's do (0.125 → "0.12"), where toFixed would go up.
function pyFixed2(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x >= 2 ** 53) return `${BigInt(x)}.00`;  // an integer, and toFixed would write 1e+21
  const eighths = x * 8;  // exact: the halves are the odd eighths
  if (!Number.isInteger(eighths) || eighths % 2 === 0) return x.toFixed(2);
  const whole = Math.floor(x);
  let cents = Math.floor((x - whole) * 100);  // exact; the half lies above it
  if (cents % 2 === 1) cents += 1;  // never to 100: an eighth's cents are at most 87.5
  return `${BigInt(whole)}.${String(cents).padStart(2, "0")}`;
}

// The engine's score ("+0.35", "M-2", from White's side) in words that say
// whose side it favours, exactly as the board's screen says them
// (boardctl.scores.score_words; a browser test holds the two together).
function scoreWords(score) {
  if (!score) return "";
  if (score.startsWith("M")) {
    const moves = pyInt(score.slice(1));
    if (moves === null) return score;
    return `${moves > 0n ? "White" : "Black"} mates in ${moves < 0n ? -moves : moves}`;
  }
  const pawns = pyFloat(score);
  if (pawns === null) return score;
  if (Math.abs(pawns) < 0.005) return "Even";
  return `${pawns > 0 ? "White" : "Black"} +${pyFixed2(Math.abs(pawns))}`;
}

// The engine's move the player must carry out, as the screen's banner says it,
// or by its squares when the snapshot has no SAN for it: [before, the squares,
// after], the squares kept on one line.
function engineMoveWords(s) {
  if (!s.engine_move) return null;
  const [from, to] = s.engine_move.map((sq) => s.board.cells[sq][0]);
  const squares = `${from} to ${to}`;
  const who = s.opponent || "Engine";
  if (s.engine_san) return [`${who}: ${s.engine_san} \u2013 `, squares, ""];
  return [`${who}'s move: `, squares, ", waiting to be played on the board"];
}

function showEngineMove(banner, words) {
  while (banner.firstChild) banner.removeChild(banner.firstChild);
  banner.hidden = words === null;
  if (words === null) return;
  const squares = document.createElement("span");
  squares.className = "squares";
  squares.textContent = words[1];
  banner.append(words[0], squares, words[2]);
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

// "level 12 · about 1275": the level with its approximate rating, when it has one.
function levelWords(s) {
  return s.rating === null ? `level ${s.level}` : `level ${s.level} · about ${s.rating}`;
}

function renderEngine(s) {
  const level = s.level === null ? "" : ` · ${levelWords(s)}`;
  $("engine").textContent = s.engine && s.engine !== "off" ? `Engine: ${s.engine}${level}` : "";
  const words = scoreWords(s.score);
  $("score").textContent = words;
  $("score-line").hidden = !words;
  const evaluated = s.evals.some((v) => v !== null);
  const label = words ? `evaluation: ${words}` : evaluated ? "evaluation" : "evaluation: none yet";
  $("evalbar").title = label;
  $("evalbar").setAttribute("aria-label", label);
  let score = null;
  for (let i = s.evals.length - 1; i >= 0 && score === null; i--) score = s.evals[i];
  $("evalfill").style.height = `${(1 - evalFraction(score)) * 100}%`;
  // Against the engine (it has a level) the bar is always there, even. After
  // a resume the scores of the moves before are gone: the bar had waited for
  // the engine's first search, and the projector's board moved when it came.
  $("evalbar").hidden = !evaluated && s.level === null;
  drawGraph($("evalgraph"), s.evals);
  $("evalgraph").style.display = evaluated ? "" : "none";
  showEngineMove($("engine-move"), engineMoveWords(s));
}

function render(s) {
  latest = s;
  // A remote game's player sees the game as the server keeps it (remote.js).
  const playable = typeof remoteBoard === "function";
  drawBoard($("board"), playable ? remoteBoard(s) : s);
  if (playable) remoteDrawn();
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
  renderEngine(s);
  showReviewNote($("review-note"), s);
  const list = $("moves");
  fillMoves(list, s.sans, s.first_ply);
  list.scrollTop = list.scrollHeight;  // the latest moves in sight
  renderLevel(s);
  showStartMode(s);
  hearSaid(s);
  document.body.dataset.seq = String(s.seq);
  document.body.dataset.plies = String(s.moves.length);
}

// Where the board's review of the game on show stands; a link to it once ready.
function showReviewNote(note, s) {
  while (note.firstChild) note.removeChild(note.firstChild);
  const mine = (s.reviews || []).find((r) => r.game_id === s.game_id);
  if (!mine) return;
  if (mine.state !== "done") {
    note.textContent = mine.state === "failed" ? `The review did not finish: ${mine.note}` :
      mine.state === "running" && mine.total ?
        `Reviewing the game: ${mine.done} of ${mine.total} positions looked at…` :
        "Reviewing the game…";
    return;
  }
  const link = document.createElement("a");
  link.href = `/games/${s.game_id}`;
  link.textContent = "see the marked moves";
  note.append("Review ready: ", link);
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

// The level sent from the page, until a snapshot shows the engine at it (a
// short confirmation then) or LEVEL_WAIT_MS pass without one.
const LEVEL_SHOWN_MS = 4000;
const LEVEL_WAIT_MS = 6000;
// `shown` is what a snapshot last put in the field: a field that holds
// something else holds the user's edit, which no snapshot overwrites until it
// is sent (WebDriver's clear() leaves the field unfocused, and a snapshot in
// the moment before the click once sent the board's own level back to it).
const level = {asked: null, timer: 0, shown: null};

function levelNote(text, kind, ms) {
  const note = $("level-status");
  note.textContent = text;
  note.className = `level-status ${kind}`;
  clearTimeout(level.timer);
  if (ms) level.timer = setTimeout(() => levelNote("", "", 0), ms);
}

function levelAsked(value) {
  level.asked = value;
  levelNote(`Setting the engine level to ${value}…`, "waiting", 0);
  clearTimeout(level.timer);
  level.timer = setTimeout(() => {
    if (level.asked === null) return;
    levelNote(`The board has not confirmed level ${level.asked}`, "bad", LEVEL_SHOWN_MS);
    level.asked = null;
  }, LEVEL_WAIT_MS);
  if (latest) renderLevel(latest);
}

function renderLevel(s) {
  // No engine, no level to set: the control would only be refused.
  $("level-control").hidden = s.level === null;
  const field = $("level");
  const edited = level.shown !== null && field.value !== level.shown;
  if (s.level !== null && document.activeElement !== field && !edited) {
    field.value = s.level;
    level.shown = field.value;
  }
  if (level.asked !== null && s.level === level.asked) {
    const about = s.rating === null ? "" : ` (about ${s.rating})`;
    levelNote(`Engine level set to ${s.level}${about}`, "ok", LEVEL_SHOWN_MS);
    level.asked = null;
  }
}

async function setupControls() {
  const session = await pinSession();
  if (!session.actions || document.body.classList.contains("view-projector")) return;
  $("controls").hidden = false;
  const unlocked = (yes) => { $("actions").hidden = !yes; $("pin-form").hidden = yes; };
  unlocked(session.authorised);
  pinForm($("pin-form"), $("pin"), $("pin-status"), unlocked);
  if ($("on-board")) setupStarts(unlocked);
  for (const button of document.querySelectorAll("#actions button[data-action]")) {
    button.addEventListener("click", async () => {
      const kind = button.dataset.action;
      const body = {kind};
      if (kind === "level") {
        body.value = parseInt($("level").value, 10);
        level.shown = null; // sent: the board's level may show in the field again
      }
      const [status, data] = await post("/api/action", body);
      if (status === 401) unlocked(false);
      const refused = data.error || `refused (${status})`;
      if (kind !== "level") $("action-status").textContent = status === 202 ? `${kind}: sent` : refused;
      else if (status === 202) levelAsked(body.value);
      else levelNote(refused, "bad", LEVEL_SHOWN_MS);
    });
  }
}

setupSpeech();
const initial = $("initial-state");
if (initial) render(JSON.parse(initial.textContent));
connect();
setupControls();
