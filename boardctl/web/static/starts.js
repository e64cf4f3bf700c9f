// The owner's starts on the board, behind the PIN as the other actions: a
// position set up from a FEN, a puzzle from the library, a stored game
// stepped through (on its page), and back to a normal game.  The board
// then guides the player from the pieces as they stand, as the command
// line's --setup, --puzzle and --replay do.
"use strict";

// Ask the board for `body`; says in `note` what came of it.  Returns the status.
async function startOnBoard(body, note) {
  note.textContent = "Asking the board…";
  const [status, data] = await post("/api/action", body);
  note.textContent = status === 202 ? "The board is guiding the set-up: follow its lights" :
    (data.error || `refused (${status})`);
  return status;
}

// The puzzles the board can set up (its own preset's), as the list's options.
async function fillPuzzles(select) {
  let puzzles = [];
  try {
    const response = await fetch("/api/puzzles");
    puzzles = response.ok ? (await response.json()).puzzles : [];
  } catch (e) { puzzles = []; }
  while (select.firstChild) select.removeChild(select.firstChild);
  for (const p of puzzles) {
    const option = document.createElement("option");
    option.value = p.id;
    option.textContent = `${p.name}: ${p.goal} (${p.difficulty})`;
    select.append(option);
  }
  select.disabled = puzzles.length === 0;
  if (!puzzles.length) {
    const none = document.createElement("option");
    none.textContent = "No puzzles for this board's variant";
    select.append(none);
  }
}

// The live page's controls; `unlocked(false)` when the session has lapsed.
function setupStarts(unlocked) {
  const $ = (id) => document.getElementById(id);
  const note = $("start-status");
  const send = async (body) => { if (await startOnBoard(body, note) === 401) unlocked(false); };
  fillPuzzles($("puzzle-list"));
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({kind: "setup", value: $("setup-fen").value});
  });
  $("puzzle-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({kind: "puzzle", value: $("puzzle-list").value});
  });
  $("normal-game").addEventListener("click", () => send({kind: "normal"}));
}

// What the board does now (the snapshot's mode): a way back to a normal game
// while it sets up, plays a puzzle or steps through a stored game.
function showStartMode(s) {
  const button = document.getElementById("normal-game");
  if (button) button.hidden = s.mode === "game";
}

// A stored game's page: the button that steps through it on the board, once
// the page is unlocked (replay.js tells it with an "owner" event).
function setupStepping(game) {
  const $ = (id) => document.getElementById(id);
  if (game.sans.length === 0) return;  // no move to step through
  document.addEventListener("owner", (event) => { $("step-button").hidden = !event.detail; });
  $("step-button").addEventListener("click", async () => {
    const status = await startOnBoard({kind: "replay", value: game.id}, $("step-status"));
    if (status === 401) document.dispatchEvent(new CustomEvent("owner", {detail: false}));
  });
}
