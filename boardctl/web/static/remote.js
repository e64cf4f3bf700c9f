// Remote play on the live page (docs/remote.md): the player's code, moves made
// by clicking or dragging with the legal moves shown, promotion, takeback and
// draw offers, resigning; the owner's controls to offer a game or join another
// board's.  The server keeps the game: every request names the game and the
// log's length it was made on, so one that is repeated is applied once, and
// the page only ever shows what /api/remote/state says.
"use strict";
const POLL_MS = 500;  // also how the server knows the player is there
const RETRIES = 4;  // a request lost on the way is sent again, as it was
const PIECE_NAMES = {q: "Queen", f: "Falcon", r: "Rook", b: "Bishop", n: "Knight"};
const ASK_WORDS = {takeback: "asks to take back their last move", draw: "offers a draw",
                   abort: "offers to call the game off"};
const OFFER_WORDS = {takeback: "takeback", draw: "draw offer", abort: "offer to call the game off",
                     resign: "resignation"};
const remote = {state: null, shown: "", selected: null, dragging: false, armed: false};

function playing() {
  const r = remote.state;
  return Boolean(r && r.key && r.you !== null && r.you !== undefined);
}

// The board as the player sees it: the log's position, their side at the bottom.
function remoteBoard(s) {
  if (!playing()) return s;
  const r = remote.state;
  return {...s, fen: r.fen, board: r.board, last_move: r.last_move, check: r.check,
          rings: [], engine_move: null};
}

function movesFrom(sq) {
  return playing() ? remote.state.legal.filter((m) => m[0] === sq) : [];
}

// The chosen piece's square ringed and a dot on every square it may go to.
function remoteDrawn() {
  const svg = $("board");
  svg.classList.toggle("playable", playing() && remote.state.legal.length > 0);
  if (!playing() || remote.selected === null) return;
  const cells = remote.state.board.cells, cell = remote.state.board.cell;
  const at = (sq) => [cells[sq][1], cells[sq][2]];
  const [x, y] = at(remote.selected);
  svgEl("circle", {cx: x, cy: y, r: cell * 0.44, class: "pick"}, svg);
  const seen = new Set();
  for (const [, to] of movesFrom(remote.selected)) {
    if (seen.has(to)) continue;
    seen.add(to);
    const [tx, ty] = at(to);
    svgEl("circle", {cx: tx, cy: ty, r: cell * 0.13, class: "target", "data-target": to}, svg);
  }
}

function redraw() {
  if (latest) render(latest);
}

function cellAt(x, y) {
  const cells = remote.state.board.cells;
  for (const el of document.elementsFromPoint(x, y)) {
    const data = el.dataset || {};
    if (data.target !== undefined) return Number(data.target);
    if (data.square !== undefined) return Number(data.square);
    if (data.name) return cells.findIndex((c) => c[0] === data.name);
  }
  return null;
}

async function remotePost(url, body) {
  // Sent again as it was when it is lost on the way: the server applies it once.
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch(url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      let data = {};
      try { data = await response.json(); } catch (e) { data = {}; }
      return [response.status, data];
    } catch (e) {
      if (attempt >= RETRIES) return [0, {error: "the board cannot be reached"}];
      await new Promise((done) => setTimeout(done, 300 * (attempt + 1)));
    }
  }
}

function tellPlayer(text) {
  $("play-status").textContent = text;
}

async function act(url, body, done) {
  const [status, data] = await remotePost(url, {key: remote.state.key, seq: remote.state.seq,
                                                ...body});
  if (status === 200) tellPlayer(done || "");
  else if (status === 409) tellPlayer("The game had moved on: here it is as it stands");
  else if (status === 401) { tellPlayer(""); remote.state.you = null; }
  else tellPlayer(data.error || `refused (${status})`);
  await refresh();
}

function choose(from, to) {
  const ucis = movesFrom(from).filter((m) => m[1] === to).map((m) => m[2]);
  remote.selected = null;
  $("promotion").hidden = true;
  if (ucis.length === 1) { play(ucis[0]); return; }
  const box = $("promotion");
  box.replaceChildren();
  for (const uci of ucis) {
    const button = document.createElement("button");
    const letter = uci.slice(-1);
    button.textContent = PIECE_NAMES[letter] || letter;
    button.dataset.uci = uci;
    button.addEventListener("click", () => { box.hidden = true; play(uci); });
    box.append(button);
  }
  box.hidden = false;
  redraw();
}

function play(uci) {
  tellPlayer("Sending your move…");
  act("/api/remote/move", {uci}, "");
}

function pointerDown(event) {
  if (!playing()) return;
  const sq = cellAt(event.clientX, event.clientY);
  if (sq === null) return;
  if (remote.selected !== null && movesFrom(remote.selected).some((m) => m[1] === sq)) {
    choose(remote.selected, sq);
    return;
  }
  remote.selected = movesFrom(sq).length ? sq : null;
  remote.dragging = remote.selected !== null;
  redraw();
}

function pointerUp(event) {
  if (!remote.dragging) return;
  remote.dragging = false;
  const sq = cellAt(event.clientX, event.clientY);
  if (sq !== null && sq !== remote.selected &&
      movesFrom(remote.selected).some((m) => m[1] === sq)) choose(remote.selected, sq);
}

function sideName(colour) {
  return colour === 0 ? "White" : "Black";
}

function endingText(r) {
  if (!r.ending) return "";
  const winner = r.ending.winner === null ? "Draw" : `${sideName(r.ending.winner)} wins`;
  return `${winner}: ${r.ending.reason}`;
}

function showPlayer(r) {
  $("you").textContent = `You play ${sideName(r.you)}. ` + (r.ending ? endingText(r)
    : r.turn === r.you ? "Your move." : "The board's move.");
  const asks = r.asks || [];
  $("remote-asks").hidden = asks.length === 0;
  if (asks.length) $("remote-ask-text").textContent = `The board ${ASK_WORDS[asks[0]]}. `;
  const over = Boolean(r.ending) || Boolean(r.problem);
  $("ask-takeback").disabled = over || r.asked.includes("takeback");
  $("ask-draw").disabled = over || r.asked.includes("draw");
  $("resign").disabled = over;
  $("resign").textContent = remote.armed ? "Really resign?" : "Resign";
  if (r.problem) tellPlayer(`The game is stopped: ${r.problem}`);
  else if (r.declined) tellPlayer(`The board said no to your ${OFFER_WORDS[r.declined]}`);
  else if (r.asked.length) tellPlayer(`Waiting for the board to answer your ${OFFER_WORDS[r.asked[0]]}`);
}

function showOwner(r) {
  const owner = $("remote-owner");
  if (!owner) return;
  owner.hidden = false;
  $("offer-info").textContent = r.code
    ? `Player code ${r.code}: whoever types it on this page plays the other side.` : "";
  const invite = r.invite || r.reinvite || "";
  $("invite-info").hidden = !invite;
  $("invite-lead").textContent = r.invite
    ? "To play from another board, send its owner this invitation (it works once):"
    : "If the other board has lost this one (a new address), send it this again:";
  if (invite && $("invite").value !== invite) $("invite").value = invite;
  if (r.code && !r.invite && r.invite_problem) {
    $("offer-info").textContent += ` No board can be invited: ${r.invite_problem}.`;
  }
  $("release").hidden = !r.held;
  $("claim").hidden = !r.claimable;
  const asks = r.board_asks || [];
  $("board-asks").hidden = asks.length === 0;
  if (asks.length) $("board-ask-text").textContent = `The other side ${ASK_WORDS[asks[0]]}. `;
}

function showRemote(r) {
  remote.state = r;
  $("remote").hidden = !r.key;
  const player = playing();
  $("play").hidden = !player;
  const open = r.key && !player && r.seat !== "board" && !r.problem;
  $("code-form").hidden = !open;
  $("remote-status").textContent = !r.key ? "" : r.seat === "board"
    ? "A game between two boards" : player ? "" : "A remote game: enter the player code to play";
  if (player) showPlayer(r);
  showOwner(r);
  document.body.dataset.remoteSeq = String(r.seq || 0);
  // The board is drawn again only when its position or moves change: a
  // piece may be in the middle of a drag.
  const shown = JSON.stringify([r.key, r.fen, r.seq, r.you, r.legal]);
  if (shown !== remote.shown) {
    remote.shown = shown;
    redraw();
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/remote/state", {credentials: "same-origin"});
    if (response.ok) showRemote(await response.json());
  } catch (e) { /* the next poll tries again */ }
}

async function login(event) {
  event.preventDefault();
  const [status, data] = await remotePost("/api/remote/login",
    {code: $("code").value.trim(), name: $("player-name").value.trim()});
  $("code-status").textContent = status === 200 ? "" : (data.error || `refused (${status})`);
  if (status === 200) $("code").value = "";
  await refresh();
}

function setupPlayer() {
  const joining = new URLSearchParams(location.search).get("join");
  if (joining) $("code").value = joining;
  $("code-form").addEventListener("submit", login);
  $("board").addEventListener("pointerdown", pointerDown);
  $("board").addEventListener("pointerup", pointerUp);
  $("accept").addEventListener("click", () =>
    act("/api/remote/answer", {kind: remote.state.asks[0], yes: true}, "Accepted"));
  $("refuse").addEventListener("click", () =>
    act("/api/remote/answer", {kind: remote.state.asks[0], yes: false}, "Refused"));
  $("ask-takeback").addEventListener("click", () =>
    act("/api/remote/ask", {kind: "takeback"}, "Takeback asked"));
  $("ask-draw").addEventListener("click", () =>
    act("/api/remote/ask", {kind: "draw"}, "Draw offered"));
  $("resign").addEventListener("click", () => {
    if (!remote.armed) { remote.armed = true; showPlayer(remote.state); return; }
    remote.armed = false;
    act("/api/remote/ask", {kind: "resign"}, "You resigned");
  });
}

function setupOwner() {
  if (!$("remote-owner")) return;
  const note = (text) => { $("owner-status").textContent = text; };
  $("offer").addEventListener("click", async () => {
    const [status, data] = await remotePost("/api/remote/offer", {});
    note(status === 200 ? "" : (data.error || `refused (${status})`));
    await refresh();
  });
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    note("Joining…");
    const [status, data] = await remotePost("/api/remote/join", {link: $("join-link").value});
    note(status === 200 ? `Joined: this board plays ${sideName(data.colour)}`
      : (data.error || `refused (${status})`));
    await refresh();
  });
  const answer = (yes) => remotePost("/api/remote/board",
    {kind: remote.state.board_asks[0], yes}).then(refresh);
  const owned = (url, done) => async () => {
    const [status, data] = await remotePost(url, {});
    note(status === 200 ? done : (data.error || `refused (${status})`));
    await refresh();
  };
  $("release").addEventListener("click", owned("/api/remote/release",
    "The seat is free: the player code lets the next browser in"));
  $("claim").addEventListener("click", owned("/api/remote/claim", "You claimed the game"));
  $("invite").addEventListener("focus", () => $("invite").select());
  $("board-accept").addEventListener("click", () => answer(true));
  $("board-refuse").addEventListener("click", () => answer(false));
}

setupPlayer();
setupOwner();
refresh();
setInterval(refresh, POLL_MS);
