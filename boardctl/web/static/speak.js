// The Speak switch: the phone or projector says the board's words aloud with
// the browser's own voice.  Snapshots number the words (said_seq); only a
// number above the last one heard is news, so a snapshot sent again, a
// reconnect of the event stream or a reload never says old words again.
"use strict";
const SPEAK_KEY = "boardctl.speak";
const speech = {
  heard: null,     // the said_seq last said or passed over; null: no snapshot yet
  latest: null,    // the latest snapshot, for the words to say when switched on
  refused: null,   // words the browser would not say before the page was touched
};

function canSpeak() {
  return Boolean(window.speechSynthesis) && typeof window.SpeechSynthesisUtterance === "function";
}

// Storage may be refused (a private window, a locked-down phone): the switch
// then still works, it is just off again after a reload.
function rememberedOn() {
  try { return window.localStorage.getItem(SPEAK_KEY) === "on"; } catch (e) { return false; }
}

function remember(on) {
  try { window.localStorage.setItem(SPEAK_KEY, on ? "on" : "off"); } catch (e) { /* not kept */ }
}

function speakNote(text) {
  const note = document.getElementById("speak-note");
  note.textContent = text;
  note.hidden = !text;
}

function say(text) {
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.addEventListener("error", (event) => {
    // Chrome and Safari refuse to speak on a page nobody has touched since it
    // loaded (a reload with the switch on): the words wait for the first tap.
    if (event.error !== "not-allowed") return;
    speech.refused = text;
    speakNote("tap the page to let it speak");
  });
  window.speechSynthesis.cancel();  // new words replace stale ones still being said
  window.speechSynthesis.speak(utterance);
}

function hearSaid(s) {
  const seq = s.said_seq || 0;
  speech.latest = s;
  // The first snapshot after loading carries words said before (old news),
  // and a lower number means the daemon restarted and counts again: either
  // way the number is where to count from, not something to say.
  if (speech.heard === null || seq < speech.heard) {
    speech.heard = seq;
    return;
  }
  if (seq === speech.heard) return;
  speech.heard = seq;
  if (document.getElementById("speak").checked && s.said) say(s.said);
}

// A browser may have the speech API but no voice to speak with (Chromium on
// Linux without speech-dispatcher): the switch would be on and silent.  Its
// voices may also come a moment after the page loads ("voiceschanged"), so
// the switch waits disabled, saying why, and is enabled when one comes.
function hasVoice() {
  const voices = window.speechSynthesis.getVoices();
  return Boolean(voices && voices.length);
}

function setupSpeech() {
  const box = document.getElementById("speak");
  if (!canSpeak()) {
    box.disabled = true;
    speakNote("this browser cannot speak");
    return;
  }
  if (hasVoice()) {
    enableSpeech(box);
    return;
  }
  box.disabled = true;
  speakNote("this browser has no voice to speak with");
  const synth = window.speechSynthesis;
  const listen = typeof synth.addEventListener === "function"
    ? (handler) => synth.addEventListener("voiceschanged", handler)
    : (handler) => { synth.onvoiceschanged = handler; };
  let enabled = false;
  listen(() => {
    if (enabled || !hasVoice()) return;
    enabled = true;
    box.disabled = false;
    speakNote("");
    enableSpeech(box);
  });
}

function enableSpeech(box) {
  box.checked = rememberedOn();
  box.addEventListener("change", () => {
    remember(box.checked);
    speech.refused = null;
    speakNote("");
    // Switched on: the words on show now, so the listener hears that it works.
    if (box.checked) say((speech.latest && speech.latest.said) || "Speech on");
    else window.speechSynthesis.cancel();
  });
  for (const kind of ["click", "keydown"]) {
    document.addEventListener(kind, (event) => {
      // A click on the switch or its label is the switch's own change.
      if (event.target.closest(".speak") || speech.refused === null || !box.checked) return;
      const text = speech.refused;
      speech.refused = null;
      speakNote("");
      say(text);
    });
  }
}
