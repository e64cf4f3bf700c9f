// The hall: every tile follows its own board's /api/events (each board is
// its own Pi; the hall only reads their feeds).
"use strict";
for (const tile of document.querySelectorAll(".tile")) {
  let base = tile.dataset.url;
  if (!base.endsWith("/")) base += "/";
  const link = tile.querySelector(".link");
  const source = new EventSource(base + "api/events");
  source.addEventListener("open", () => { link.textContent = "live"; link.className = "link ok"; });
  source.addEventListener("error", () => { link.textContent = "reconnecting…"; link.className = "link lost"; });
  source.addEventListener("state", (event) => {
    const s = JSON.parse(event.data);
    // Pieces come from the hall's own copy of the sprites: <use> must be same-origin.
    drawBoard(tile.querySelector(".board"), s);
    const clocks = s.white_clock === null ? "" :
      ` (${formatClock(s.white_clock)} – ${formatClock(s.black_clock)})`;
    tile.querySelector(".players").textContent = `${s.white} – ${s.black}${clocks}`;
    const last = lastMove(s.sans, s.first_ply);
    tile.querySelector(".status").textContent = s.result === "*" ?
      `${s.turn === "white" ? "White" : "Black"} to move${last ? " · last " + last : ""}` :
      `${s.result} (${s.reason})`;
    tile.dataset.plies = String(s.moves.length);
  });
}
