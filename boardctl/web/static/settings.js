// The settings page: unlocks with the PIN, fills the form from /api/settings,
// sends it back, and shows each refusal next to its field and, once saved,
// when the board takes each change.  The server checks every value as the
// configuration file's are checked: the page only helps to fill the form in.
"use strict";
const $ = (id) => document.getElementById(id);
const WHEN = {
  "now": "now",
  "next game": "when a new game starts (at once while no move has been made)",
  "restart": "when the board is restarted",
};
const ACTION_WORDS = {
  newgame: "The game is ended: set the pieces up for a new game.",
  takeback: "Asked the board to take the last move back: put it back on the board.",
  resign: "The side to move has resigned.",
};
const OTHER = "other";  // the clock list's entry for a control typed in
// After a restart, how long the page waits for the board to answer again,
// and how often it asks.
const RESTART_WAIT_MS = 60000;
const RESTART_POLL_MS = 1000;
let current = null;  // the form as the server last sent it

function ident(name) { return name.replace(".", "-"); }

async function send(url, body) {
  const init = {credentials: "same-origin", cache: "no-store"};
  if (body !== undefined) {
    Object.assign(init, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body)});
  }
  const response = await fetch(url, init);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return [response.status, data];
}

function fillSelect(select, choices, value) {
  while (select.firstChild) select.removeChild(select.firstChild);
  for (const [key, words] of choices) {
    const option = document.createElement("option");
    option.value = key;
    option.textContent = words;
    select.append(option);
  }
  select.value = value;
}

function showBrightness() {
  $("leds-brightness-shown").textContent = `${$("leds-brightness").value}%`;
}

// The level's approximate rating beside it, for the variant chosen (none
// where the levels were not measured, or for another engine).
function showAbout() {
  const table = current && current.ratings[$("game-variant").value];
  const typed = $("engine-skill").value.trim();
  const level = Number(typed);
  const known = table && typed !== "" && Number.isInteger(level) && level >= 0 && level < table.length;
  $("engine-skill-about").textContent = known ? `about ${table[level]}` : "";
}

function showClock() {
  const other = $("clock-preset").value === OTHER;
  if (!other) $("game-clock").value = $("clock-preset").value;
  $("game-clock").closest(".field").hidden = !other;
}

// What the mode chosen is: its own words, not the list's first or last.
function showMode() {
  const hints = (current && current.hints["game.mode"]) || {};
  $("game-mode-hint").textContent = hints[$("game-mode").value] || "";
}

function fill(form) {
  current = form;
  const v = form.values;
  fillSelect($("game-mode"), form.choices["game.mode"], v["game.mode"]);
  showMode();
  fillSelect($("game-human"), form.choices["game.human"], v["game.human"]);
  fillSelect($("game-variant"), form.choices["game.variant"], v["game.variant"]);
  const presets = form.choices["game.clock"];
  const preset = presets.some(([key]) => key === v["game.clock"]) ? v["game.clock"] : OTHER;
  fillSelect($("clock-preset"), [...presets, [OTHER, "Other…"]], preset);
  $("game-clock").value = v["game.clock"];
  showClock();
  for (const [name, [low, high]] of Object.entries(form.ranges)) {
    const input = $(ident(name));
    if (input.type === "number") { input.min = low; input.max = high; }
  }
  for (const name of ["engine.skill", "speech.rate", "game.white_name", "game.black_name"]) {
    $(ident(name)).value = v[name];
  }
  showAbout();
  $("speech-enabled").checked = v["speech.enabled"];
  $("leds-brightness").value = Math.round(v["leds.brightness"] * 100);
  showBrightness();
  // No LEDs, no brightness to set: the field is neither shown nor sent.
  $("leds-brightness").closest(".field").hidden = !form.leds;
  $("leds-brightness").disabled = !form.leds;
  showWaiting(form.waiting || []);
  $("form-error").textContent = form.problem || "";
  $("file-note").textContent = `Kept in ${form.path}, which a text editor may change too.`;
}

function collect() {
  const out = {};
  for (const input of $("settings-form").elements) {
    if (!input.name || input.disabled) continue;
    if (input.type === "checkbox") out[input.name] = input.checked;
    else if (input.type === "range") out[input.name] = Number(input.value) / 100;
    else out[input.name] = input.value.trim();
  }
  return out;
}

function clearErrors() {
  for (const note of document.querySelectorAll("#settings-form .error")) note.textContent = "";
  for (const input of document.querySelectorAll("#settings-form [aria-invalid]")) {
    input.removeAttribute("aria-invalid");
  }
  $("taken").hidden = true;
}

function showErrors(errors) {
  let first = null;
  for (const [name, message] of Object.entries(errors)) {
    const input = name ? $(ident(name)) : null;
    const note = input ? $(`${ident(name)}-error`) : $("form-error");
    note.textContent = input ? message : `${name ? `${name}: ` : ""}${message}`;
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-errormessage", note.id);
      first = first || input;
    }
  }
  if (first) first.focus();
  $("save-status").textContent = "Not saved: see what is wrong above.";
}

// The clock is chosen in its list of time controls (the field under it is for
// one typed in): a change of it is named by the list's label.
const NAMED_BY = {"game.clock": "clock-preset"};

function label(name) {
  const text = document.querySelector(`label[for="${NAMED_BY[name] || ident(name)}"]`);
  return text ? text.textContent : name;
}

function showTaken(changes) {
  const list = $("taken-list");
  while (list.firstChild) list.removeChild(list.firstChild);
  for (const change of changes) {
    const item = document.createElement("li");
    item.dataset.field = change.field;
    item.dataset.when = change.when;
    item.textContent = `${label(change.field)}: ${WHEN[change.when] || change.when}`;
    list.append(item);
  }
  $("taken").hidden = changes.length === 0;
  $("save-status").textContent = changes.length ? "Saved." : "Nothing changed.";
  document.body.dataset.saves = String(Number(document.body.dataset.saves || 0) + 1);
}

// The saved changes the board takes only at its next start, named above the
// restart button, which is marked while there are any.
function showWaiting(names) {
  const note = $("restart-waiting");
  note.textContent = names.length
    ? `Saved, waiting for a restart: ${names.map(label).join(", ")}.` : "";
  note.hidden = names.length === 0;
  $("restart").classList.toggle("due", names.length > 0);
  // A game of another variant is not resumed (the board is set for the new one).
  $("restart-words").textContent = names.includes("game.variant")
    ? "Restart now? The board stops for some seconds, then starts again with the saved " +
      "settings. The game in progress is kept in the games list, but a new game of the new " +
      "variant begins."
    : "Restart now? The board stops for some seconds, then starts again with the saved " +
      "settings and the same game. No move is lost.";
}

function askRestart(open) {
  $("restart-confirm").hidden = !open;
  $("restart-ask").hidden = open;
  $("restart-status").textContent = "";
  if (open) $("restart-yes").focus();
}

function note(message) {
  $("restart-note").textContent = message || "";
  $("restart-note").hidden = !message;
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// The board's answer to /api/session, or null while it does not answer.
async function session() {
  try {
    const [status, data] = await send("/api/session");
    return status === 200 ? data : null;
  } catch (e) {
    return null;
  }
}

// Asks until a new start of the program answers (another "run" than before),
// at most RESTART_WAIT_MS; then opens the settings again.
async function reconnect(before) {
  const deadline = Date.now() + RESTART_WAIT_MS;
  while (Date.now() < deadline) {
    await pause(RESTART_POLL_MS);
    const now = await session();
    if (now && now.run !== before) {
      document.body.dataset.restarted = "yes";
      note(now.authorised ? "The board's program has restarted: the game goes on."
        : "The board's program has restarted: the game goes on. Enter the PIN again to see the settings.");
      return load();
    }
  }
  note("The board has not come back after a minute. It may still be starting: reload this " +
    "page in a while. If it stays away, switch the board off and on again.");
}

async function restart() {
  const before = await session();
  const [status, data] = await send("/api/action", {kind: "restart"});
  if (status === 401) return locked(null);
  if (status !== 202) {
    askRestart(false);
    $("restart-status").textContent = data.error || `refused (${status})`;
    return;
  }
  $("settings-form").hidden = true;
  $("game-actions").hidden = true;
  askRestart(false);
  note("Restarting the board's program… This page comes back by itself when the board is " +
    "ready, in some seconds.");
  await reconnect(before && before.run);
}

function locked(message) {
  $("settings-form").hidden = true;
  $("game-actions").hidden = true;
  $("pin-form").hidden = message !== null;
  $("settings-off").hidden = message === null;
  $("settings-off").textContent = message || "";
}

async function load() {
  const [status, data] = await send("/api/settings");
  if (status === 401) return locked(null);
  if (status !== 200) return locked(data.error || `The settings cannot be opened (${status}).`);
  fill(data);
  $("pin-form").hidden = true;
  $("settings-off").hidden = true;
  $("settings-form").hidden = false;
  $("game-actions").hidden = false;
  document.body.dataset.ready = "yes";
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  $("save-status").textContent = "Saving…";
  const [status, data] = await send("/api/settings", collect());
  if (status === 200) {
    showTaken(data.saved);
    fill(data.form);  // what the file now holds
  } else if (status === 401) {
    locked(null);
  } else {
    showErrors(data.errors || {"": data.error || `refused (${status})`});
  }
}

async function unlock(event) {
  event.preventDefault();
  const [status, data] = await send("/api/login", {pin: $("pin").value});
  $("pin").value = "";
  $("pin-status").textContent = status === 200 ? "" : (data.error || `refused (${status})`);
  if (status === 200) await load();
}

async function act(button) {
  const kind = button.dataset.action;
  const [status, data] = await send("/api/action", {kind});
  if (status === 401) return locked(null);
  $("action-status").textContent = status === 202 ? ACTION_WORDS[kind] : (data.error || `refused (${status})`);
}

$("pin-form").addEventListener("submit", unlock);
$("settings-form").addEventListener("submit", save);
$("clock-preset").addEventListener("change", showClock);
$("game-mode").addEventListener("change", showMode);
$("engine-skill").addEventListener("input", showAbout);
$("game-variant").addEventListener("change", showAbout);
$("leds-brightness").addEventListener("input", showBrightness);
$("restart-ask").addEventListener("click", () => askRestart(true));
$("restart-no").addEventListener("click", () => askRestart(false));
$("restart-yes").addEventListener("click", restart);
for (const button of document.querySelectorAll("#game-actions button[data-action]")) {
  button.addEventListener("click", () => act(button));
}
load();
