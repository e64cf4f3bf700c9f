"""The parts of the live page that remote play adds (filled in by
``static/remote.js``): the player's panel (the code, then the game's
buttons and what the other side asks) and the owner's controls (offer a
game and show its invitation, join another board's, answer for the board,
free the player's seat, claim a game the opponent has left)."""

from __future__ import annotations

PLAYER_PANEL = """<section id="remote" class="remote" hidden>
<p id="remote-status" class="remote-status" role="status"></p>
<form id="code-form" class="code-form" hidden><label>Player code <input id="code"
autocomplete="off" autocapitalize="characters" maxlength="16"></label>
<label>Your name <input id="player-name" autocomplete="nickname" maxlength="40"></label>
<button type="submit">Play</button> <span id="code-status" role="status"></span></form>
<div id="play" class="play" hidden>
<p id="you" class="you"></p>
<div id="promotion" class="promotion" role="group" aria-label="promote to" hidden></div>
<div id="remote-asks" class="remote-asks" hidden><span id="remote-ask-text"></span>
<button id="accept">Accept</button> <button id="refuse">Refuse</button></div>
<div class="remote-buttons"><button id="ask-takeback">Ask to take back</button>
<button id="ask-draw">Offer a draw</button> <button id="resign">Resign</button></div>
<p id="play-status" class="play-status" role="status"></p>
</div></section>"""

OWNER_CONTROLS = """<div id="remote-owner" class="remote-owner" hidden>
<button id="offer">Offer a new remote game</button>
<p id="offer-info" class="offer-info"></p>
<p id="invite-info" class="offer-info" hidden><span id="invite-lead"></span>
<input id="invite" readonly size="40"></p>
<button id="release" hidden>Let another browser take the player's seat</button>
<button id="claim" hidden>Claim the game: the opponent has gone</button>
<form id="join-form"><label>Join another board's game <input id="join-link"
autocomplete="off" placeholder="mqtt://…?code=…&amp;host=…" maxlength="400"></label>
<button type="submit">Join</button></form>
<div id="board-asks" hidden><span id="board-ask-text"></span>
<button id="board-accept">Accept for the board</button>
<button id="board-refuse">Refuse</button></div>
<span id="owner-status" role="status"></span></div>"""
