// A stored game's review on its page: White's chances over the game as a
// graph with the marked moves on it, what a marked move should have been,
// and the button that asks the board for a review, with its progress.
"use strict";

const GRAPH_W = 300, GRAPH_H = 90;  // the graph's viewBox: scaled as a whole, marks stay round
const GRAPH_PAD = 5;  // room round the curve for a mark at the very start, end, top or bottom

// `win[k]`: White's win% after k plies (0: the start), one point each;
// `marks`: the review's marked moves ({ply, glyph, kind, ...}); `current`:
// the plies shown, under a cursor; `onMark(ply)` when a mark is clicked.
function drawReviewGraph(svg, win, marks, current, onMark) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${GRAPH_W} ${GRAPH_H}`);
  const n = Math.max(win.length - 1, 1);
  const x = (ply) => GRAPH_PAD + (ply / n) * (GRAPH_W - 2 * GRAPH_PAD);
  const y = (value) => GRAPH_PAD + (GRAPH_H - 2 * GRAPH_PAD) * (1 - value / 100);
  const points = win.map((value, ply) => `${x(ply).toFixed(1)},${y(value).toFixed(1)}`);
  // White's share, out to both edges at the first and last values.
  const edges = `0,${GRAPH_H} 0,${y(win[0])} ${points.join(" ")} ` +
    `${GRAPH_W},${y(win[win.length - 1])} ${GRAPH_W},${GRAPH_H}`;
  svgEl("polygon", {points: edges, class: "white-share"}, svg);
  svgEl("line", {x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, class: "axis"}, svg);
  svgEl("line", {x1: x(current), y1: 0, x2: x(current), y2: GRAPH_H, class: "cursor"}, svg);
  svgEl("polyline", {points: points.join(" "), class: "curve"}, svg);
  for (const mark of marks) {
    const dot = svgEl("circle", {cx: x(mark.ply), cy: y(win[mark.ply]), r: 4.5,
      class: `mark mark-${mark.kind}`, "data-ply": mark.ply, tabindex: 0, role: "button"}, svg);
    svgEl("title", {}, dot).textContent = `${mark.glyph} ${mark.kind}: better ${mark.better}`;
    dot.addEventListener("click", () => onMark(mark.ply));
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onMark(mark.ply); }
    });
  }
}

// What a marked move should have been, in a sentence: "14. Qd2?? was a
// blunder: Qe2 was better (White +0.35). After Qd2: Black +9.00."
function adviceWords(mark, sans, firstPly) {
  const ply = firstPly + mark.ply - 1;
  const number = `${Math.floor(ply / 2) + 1}${ply % 2 ? "..." : "."}`;
  const san = sans[mark.ply - 1];
  const article = mark.kind === "inaccuracy" ? "an" : "a";
  return `${number} ${san}${mark.glyph} was ${article} ${mark.kind}: ${mark.better} was ` +
    `better (${mark.before}). After ${san}: ${mark.after}.`;
}

// Where the board's review of this game stands, for the status line.
function reviewProgressWords(status) {
  if (!status) return "";
  if (status.state === "waiting") return "Waiting for the review of another game to finish…";
  if (status.state === "running") {
    return status.total ? `Reviewing: ${status.done} of ${status.total} positions looked at…` :
      "Reviewing: the engine is starting…";
  }
  if (status.state === "failed") return `The review did not finish: ${status.note}`;
  return "Review ready.";
}

// A reviewed game's marks counted, and how to see them.
function reviewSummary(review) {
  const count = (kind, one, many) => {
    const n = review.marks.filter((m) => m.kind === kind).length;
    return `${n} ${n === 1 ? one : many}`;
  };
  const counts = [count("blunder", "blunder", "blunders"),
    count("mistake", "mistake", "mistakes"), count("inaccuracy", "inaccuracy", "inaccuracies")];
  const hint = review.marks.length ? " Click a marked move to see the better one." : "";
  const depth = review.depth ? `, depth ${review.depth} at most` : "";
  return `Reviewed by the engine at ${review.movetime} s a position${depth}: ` +
    `${counts.join(", ")}.${hint}`;
}

const REVIEW_POLL_MS = 1000;

// The review controls: the status line, and the button (behind the PIN,
// which ownerPin unlocks) when the game can be reviewed and is not yet.  `reload()` fetches the
// game again once its review is ready.
async function setupReview(game, reload) {
  const $ = (id) => document.getElementById(id);
  const status = $("review-status");
  const watching = {timer: 0};
  const follow = () => {
    clearTimeout(watching.timer);
    watching.timer = setTimeout(async () => {
      let state = null;
      try {
        const response = await fetch("/api/state");
        state = response.ok ? await response.json() : null;
      } catch (e) { state = null; }
      if (state === null) { follow(); return; }  // the board is out of reach: ask again
      const mine = (state.reviews || []).find((r) => r.game_id === game.id);
      status.textContent = reviewProgressWords(mine) || "The board is not reviewing this game.";
      if (mine && mine.state === "done") reload();
      else if (mine && mine.state !== "failed") follow();
      else $("review-button").hidden = false;
    }, REVIEW_POLL_MS);
  };
  const running = game.review_status && ["waiting", "running"].includes(game.review_status.state);
  if (game.review) { status.textContent = reviewSummary(game.review); return; }
  if (!game.reviewable) { status.textContent = "A game can be reviewed once it has ended."; return; }
  if (!game.reviews) { status.textContent = "Not reviewed."; return; }
  status.textContent = running ? reviewProgressWords(game.review_status) : "Not reviewed yet.";
  if (running) follow();
  const session = await pinSession();
  if (!session.actions) return;  // no PIN set: the page can only watch
  const unlocked = (yes) => { $("review-button").hidden = !yes || running; };
  unlocked(session.authorised);
  document.addEventListener("owner", (event) => unlocked(event.detail));
  $("review-button").addEventListener("click", async () => {
    const [code, data] = await post("/api/action", {kind: "review", value: game.id});
    if (code === 401) document.dispatchEvent(new CustomEvent("owner", {detail: false}));
    if (code !== 202) { status.textContent = data.error || `refused (${code})`; return; }
    $("review-button").hidden = true;
    status.textContent = "Review asked for…";
    follow();
  });
}
