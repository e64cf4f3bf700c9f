// The replay page: one stored game, stepped through move by move; with its
// review, a marked move is shown in the position it was played in, with the
// move played and the better one as arrows (review.js draws the rest).
"use strict";
(async () => {
  const $ = (id) => document.getElementById(id);
  const id = document.body.dataset.game;
  async function load() {
    const response = await fetch(`/api/games/${id}`);
    if (!response.ok) {
      $("result").textContent = (await response.json()).error || `error ${response.status}`;
      return null;
    }
    return response.json();
  }
  let game = await load();
  if (game === null) return;
  let ply = game.fens.length - 1;
  let focus = null;  // the marked move (its ply) shown with its better move
  let marks = {};  // by the move's index in the list (ply - 1)
  $("players").textContent = `${game.white} – ${game.black}`;
  $("result").textContent = game.result === "*" ? "unfinished" :
    `${game.result}${game.termination ? " (" + game.termination + ")" : ""}`;
  const firstPly = (() => {
    const parts = game.fens[0].split(" ");
    return (parseInt(parts[5] || "1", 10) - 1) * 2 + (parts[1] === "b" ? 1 : 0);
  })();
  document.body.dataset.shape = game.board.shape;
  function show() {
    const mark = focus === null ? null : marks[focus - 1];
    // The better move first: the move played, thinner, stays in sight on top.
    const arrows = mark ? [
      {from: mark.better_move[0], to: mark.better_move[1], kind: "better"},
      {from: game.moves[focus - 1][0], to: game.moves[focus - 1][1], kind: "played"}] : [];
    drawBoard($("board"), {board: game.board, fen: game.fens[ply], orientation: "white",
      last_move: ply && !mark ? game.moves[ply - 1] : null, rings: [], arrows});
    $("ply").textContent = `${ply} / ${game.fens.length - 1}`;
    fillMoves($("moves"), game.sans, firstPly, mark ? focus : ply, marks);
    $("advice").hidden = !mark;
    $("advice").textContent = mark ? adviceWords(mark, game.sans, firstPly) : "";
    if (game.review) {
      drawReviewGraph($("reviewgraph"), game.review.win, game.review.marks, ply, showMark);
    }
    document.body.dataset.ply = String(ply);
    document.body.dataset.focus = focus === null ? "" : String(focus);
  }
  function showReview() {
    marks = {};
    for (const mark of game.review ? game.review.marks : []) marks[mark.ply - 1] = mark;
    $("reviewgraph").toggleAttribute("hidden", !game.review);  // an SVG has no .hidden
  }
  const go = (to) => {
    focus = null;
    ply = Math.max(0, Math.min(game.fens.length - 1, to));
    show();
  };
  // A marked move: the position it was played in, with both arrows; a
  // phone scrolled down to the list is taken back up to the board.
  const showMark = (markPly) => {
    focus = markPly;
    ply = markPly - 1;
    show();
    if ($("board").getBoundingClientRect().top < 0) $("board").scrollIntoView({block: "start"});
  };
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(ply - 1);
  $("next").onclick = () => go(ply + 1);
  $("last").onclick = () => go(game.fens.length - 1);
  $("moves").addEventListener("click", (event) => {
    const target = event.target;
    if (!target.dataset || target.dataset.ply === undefined) return;
    const index = Number(target.dataset.ply);
    if (marks[index] && focus !== index + 1) showMark(index + 1);
    else go(index + 1);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(ply - 1);
    if (event.key === "ArrowRight") go(ply + 1);
  });
  showReview();
  show();
  setupStepping(game);
  setupReview(game, async () => {
    const again = await load();
    if (again === null) return;
    game = again;
    showReview();
    show();
    setupReview(game, () => {});
  });
  if (game.sans.length) ownerPin($("review-pin"), $("pin"), $("pin-status"));
})();
