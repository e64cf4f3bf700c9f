// The owner's PIN: the form that unlocks a page's actions, and the POST they
// send.  The session is an HttpOnly cookie, so the page asks /api/session
// whether it is unlocked.
"use strict";

async function post(url, body) {
  const response = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let data = {};
  try { data = await response.json(); } catch (e) { data = {}; }
  return [response.status, data];
}

// {actions: whether a PIN is set, authorised: whether this page is unlocked}
async function pinSession() {
  const response = await fetch("/api/session", {credentials: "same-origin"});
  return response.json();
}

// The PIN form's submit: `unlocked(true)` once the PIN is right, else why not
// in `note`.
function pinForm(form, input, note, unlocked) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [status, data] = await post("/api/login", {pin: input.value});
    input.value = "";
    if (status === 200) unlocked(true);
    note.textContent = status === 200 ? "" : (data.error || `refused (${status})`);
  });
}

// A page's one PIN form for all its owner's buttons: shown while the page
// is locked; each button follows the "owner" event (detail: unlocked or not).
async function ownerPin(form, input, note) {
  const session = await pinSession();
  if (!session.actions) return;  // no PIN set: the page can only watch
  const unlocked = (yes) => {
    form.hidden = yes;
    document.dispatchEvent(new CustomEvent("owner", {detail: yes}));
  };
  document.addEventListener("owner", (event) => { form.hidden = event.detail; });
  pinForm(form, input, note, unlocked);
  unlocked(session.authorised);
}
