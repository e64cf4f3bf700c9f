// The replay page: one stored game, stepped through move by move.
"use strict";
(async () => {
  const $ = (id) => document.getElementById(id);
  const id = document.body.dataset.game;
  const response = await fetch(`/api/games/${id}`);
  if (!response.ok) {
    $("result").textContent = (await response.json()).error || `error ${response.status}`;
    return;
  }
  const game = await response.json();
  let ply = game.fens.length - 1;
  $("players").textContent = `${game.white} – ${game.black}`;
  $("result").textContent = game.result === "*" ? "unfinished" :
    `${game.result}${game.termination ? " (" + game.termination + ")" : ""}`;
  const firstPly = (() => {
    const parts = game.fens[0].split(" ");
    return (parseInt(parts[5] || "1", 10) - 1) * 2 + (parts[1] === "b" ? 1 : 0);
  })();
  document.body.dataset.shape = game.board.shape;
  function show() {
    drawBoard($("board"), {board: game.board, fen: game.fens[ply],
      orientation: "white", last_move: ply ? game.moves[ply - 1] : null, rings: []});
    $("ply").textContent = `${ply} / ${game.fens.length - 1}`;
    fillMoves($("moves"), game.sans, firstPly, ply);
    document.body.dataset.ply = String(ply);
  }
  const go = (to) => { ply = Math.max(0, Math.min(game.fens.length - 1, to)); show(); };
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(ply - 1);
  $("next").onclick = () => go(ply + 1);
  $("last").onclick = () => go(game.fens.length - 1);
  $("moves").addEventListener("click", (event) => {
    const target = event.target;
    if (target.dataset && target.dataset.ply !== undefined) go(Number(target.dataset.ply) + 1);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(ply - 1);
    if (event.key === "ArrowRight") go(ply + 1);
  });
  show();
})();
