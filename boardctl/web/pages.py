"""The HTML of the pages.  Every text that comes from outside (player names,
stored results, a hall's board names and URLs) goes through :func:`html.escape`;
live values are filled in by the page's script with ``textContent``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from html import escape
from importlib import resources

from ..storage.store import GameSummary
from .remote_page import OWNER_CONTROLS, PLAYER_PANEL

VIEWS = ("", "projector")
# Every page names its icon, so that no browser asks for a /favicon.ico that
# is not there (the server answers that too, for those that ask anyway).
ICON = "/static/favicon.svg"


def _page(
    title: str, body: str, *, view: str = "", scripts: Sequence[str] = (), attrs: str = ""
) -> str:
    # Deferred, the scripts run once the page is parsed, as at the end of the
    # body; render-blocking, nothing is painted before they have run, so the
    # first frame already shows the board they draw (browsers that do not know
    # the attribute paint the page bare for a moment).
    tags = "".join(
        f'<script src="/static/{name}" defer blocking="render"></script>' for name in scripts
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{escape(title)}</title>"
        f'<link rel="icon" href="{ICON}" type="image/svg+xml">'
        f'<link rel="stylesheet" href="/static/style.css">{tags}</head>'
        f'<body class="view-{escape(view or "normal")}"{attrs}>{body}</body></html>\n'
    )


_NAV = (
    '<nav><a href="/">Live</a> <a href="/games">Games</a> '
    '<a href="/live.pgn">live.pgn</a> <a href="/games.pgn">games.pgn</a> '
    '<a href="/settings">Settings</a></nav>'
)


# A checkbox shown as a switch: keyboard and screen readers know it as one; the
# note says why it is disabled, or that the browser waits for a tap (speak.js).
_SPEAK = (
    '<div class="speak"><label><input type="checkbox" role="switch" id="speak" '
    'aria-describedby="speak-note"> Speak</label> '
    '<span id="speak-note" class="speak-note" role="status" hidden></span></div>'
)


@cache
def _sprites() -> str:
    """The piece sprites, read once when a page first needs them."""
    return (resources.files("boardctl.web") / "static" / "pieces.svg").read_text("utf-8")


# A JSON text made safe inside a <script> element: "<", ">" and "&" only ever
# occur inside its strings, where their \u escapes read back the same, so no
# player's name can close the element.
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def _initial_state(state_json: str) -> str:
    """The snapshot as the page's first state and the sprites its pieces use:
    the page draws the position as soon as its script runs, before the event
    stream opens or any other file arrives (a projector never shows an
    empty board).  A data block is never run, so the page's policy allows it."""
    state = (
        f'<script type="application/json" id="initial-state">'
        f"{state_json.translate(_SCRIPT_SAFE)}</script>"
        if state_json
        else ""
    )
    return f'<div id="sprites" hidden>{_sprites()}</div>{state}'


# The owner's starts on the board (starts.js): a position, a puzzle, a normal game again.
_ON_THE_BOARD = """<div id="on-board" class="on-board"><h2>On the board</h2>
<form id="setup-form" class="start-form"><label for="setup-fen">Set up a position (FEN)</label>
<input id="setup-fen" autocomplete="off" spellcheck="false" maxlength="300"
placeholder="e.g. 4k5/10/10/10/10/10/10/4K4F w - - 0 1"> <button type="submit">Set up</button>
</form>
<form id="puzzle-form" class="start-form"><label for="puzzle-list">Puzzle</label>
<select id="puzzle-list"></select> <button type="submit">Start the puzzle</button></form>
<button id="normal-game" type="button" hidden>Back to a normal game</button>
<p id="start-status" class="start-status" role="status"></p></div>"""


def live_page(view: str, state_json: str = "", *, remote: bool = False) -> str:
    """The live board (filled in and kept up to date by live.js); ``state_json``:
    the latest snapshot as ``/api/state`` has it ("": none published yet);
    ``remote``: with remote play's panel and controls (remote.js)."""
    player = PLAYER_PANEL if remote else ""
    # A remote game is played as it comes: nothing is set up on its board.
    owner = OWNER_CONTROLS if remote else _ON_THE_BOARD
    scripts = (
        "board.js",
        "speak.js",
        "pin.js",
        "starts.js",
        "live.js",
        *(("remote.js",) if remote else ()),
    )
    body = f"""{_initial_state(state_json)}
<header><h1>boardctl <span id="link" class="link">connecting…</span></h1>
{_NAV}{_SPEAK}</header>
<main class="live">
<section class="board-area"><div id="evalbar" class="evalbar" role="img"
aria-label="evaluation" title="evaluation"><div id="evalfill"></div></div><svg id="board"
class="board" role="img" aria-label="board"></svg></section>
<aside class="panel">
<div class="player" id="black-row"><span class="swatch black"></span><span class="name"
id="black-name"></span>
<span class="clock" id="black-clock"></span></div>
<div class="player" id="white-row"><span class="swatch white"></span><span class="name"
id="white-name"></span>
<span class="clock" id="white-clock"></span></div>
<p id="engine-move" class="engine-move" role="status" hidden></p>
{player}
<p id="turn" class="turn"></p>
<p id="result" class="result"></p>
<p id="review-note" class="review-note" role="status"></p>
<p id="prompt" class="prompt"></p>
<p id="engine" class="engine"></p>
<p id="score-line" class="score-line" hidden>Evaluation <b id="score" class="score"></b></p>
<svg id="evalgraph" class="evalgraph" viewBox="0 0 200 60" preserveAspectRatio="none"
role="img" aria-label="evaluation over the game"></svg>
<ol id="moves" class="moves"></ol>
<section id="controls" class="controls" hidden>
<form id="pin-form"><label>PIN <input id="pin" type="password" autocomplete="off"
maxlength="64"></label> <button type="submit">Unlock</button>
<span id="pin-status" role="status"></span></form>
<div id="actions" hidden>
<button data-action="takeback">Take back</button>
<button data-action="draw">Draw</button>
<button data-action="resign">Resign</button>
<button data-action="newgame">New game</button>
<span id="action-status" role="status"></span>
<div id="level-control" class="level-control"><label>Engine level <input id="level"
type="number" min="0" max="20" step="1"></label> <button data-action="level">Set</button>
<span id="level-status" class="level-status" role="status"></span></div>{owner}</div>
</section>
</aside></main>"""
    return _page("boardctl: live board", body, view=view, scripts=scripts)


def _when(epoch: float | None) -> str:
    if epoch is None:
        return "?"  # a store may not know when a game began
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d %H:%M UTC")


def games_page(games: Sequence[GameSummary]) -> str:
    """The stored games, newest first, each linking to its replay and PGN."""
    rows = "".join(
        f'<tr><td><a href="/games/{g.id}">{g.id}</a></td><td>{escape(_when(g.started_at))}</td>'
        f"<td>{escape(g.white)}</td><td>{escape(g.black)}</td>"
        f"<td>{escape(g.result or '*')}</td><td>{escape(g.termination or '')}</td>"
        f'<td>{g.plies}</td><td><a href="/games/{g.id}.pgn" download>PGN</a></td></tr>'
        for g in games
    )
    table = (
        (
            '<table class="games"><thead><tr><th>#</th><th>Started</th><th>White</th>'
            "<th>Black</th><th>Result</th><th>Ending</th><th>Plies</th><th></th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )
        if games
        else "<p>No stored games yet.</p>"
    )
    body = f'<header><h1>Stored games</h1>{_NAV}</header><main class="page">{table}</main>'
    return _page("boardctl: games", body)


def replay_page(game_id: int) -> str:
    """One stored game, replayed move by move by replay.js."""
    body = f"""<header><h1>Game {game_id}</h1>{_NAV}</header>
<main class="live">
<section class="board-area"><svg id="board" class="board" role="img" aria-label="board"></svg>
</section>
<aside class="panel">
<p id="players" class="players"></p>
<p id="result" class="result"></p>
<svg id="reviewgraph" class="reviewgraph" role="img" hidden
aria-label="White's winning chances over the game, with the marked moves"></svg>
<p id="advice" class="advice" role="status" hidden></p>
<div class="stepper"><button id="first" aria-label="first">«</button>
<button id="prev" aria-label="previous">‹</button><span id="ply"></span>
<button id="next" aria-label="next">›</button><button id="last" aria-label="last">»</button></div>
<ol id="moves" class="moves"></ol>
<section class="review-controls"><p id="review-status" class="review-status" role="status"></p>
<form id="review-pin" hidden><label>PIN <input id="pin" type="password" autocomplete="off"
maxlength="64"></label> <button type="submit">Unlock</button>
<span id="pin-status" role="status"></span></form>
<button id="review-button" type="button" hidden>Review this game</button>
<button id="step-button" type="button" hidden>Step through on the board</button>
<p id="step-status" class="start-status" role="status"></p></section>
<p><a href="/games/{game_id}.pgn" download>Download PGN</a></p>
</aside></main>"""
    return _page(
        f"boardctl: game {game_id}",
        body,
        scripts=("board.js", "pin.js", "review.js", "starts.js", "replay.js"),
        attrs=f' data-game="{game_id}"',
    )


def hall_page(boards: Sequence[tuple[str, str]]) -> str:
    """Several boards side by side; each tile follows its board's feed."""
    tiles = "".join(
        f'<article class="tile" data-url="{escape(url)}"><h2><a href="{escape(url)}">'
        f'{escape(name)}</a> <span class="link">connecting…</span></h2>'
        '<svg class="board" role="img" aria-label="board"></svg>'
        '<p class="players"></p><p class="status"></p></article>'
        for name, url in boards
    )
    body = f'<header><h1>The hall</h1></header><main class="hall">{tiles}</main>'
    return _page("boardctl: hall", body, scripts=("board.js", "hall.js"))


def round_page(
    title: str, number: int, seats: Sequence[tuple[int, str, str]], state_json: str = ""
) -> str:
    """A round of a tournament (boardctl.hall): a tile for each board, one
    board large (``#N``), and the results; ``seats``: (board number, White,
    Black) as the round file names them; ``state_json``: the round as
    ``/api/round`` has it, drawn at once (round.js keeps it up to date)."""
    tiles, rows = [], []
    for board, white, black in seats:
        names = (
            f'<span class="name white-name">{escape(white)}</span> – '
            f'<span class="name black-name">{escape(black)}</span>'
        )
        tiles.append(
            f'<article class="tile" id="board-{board}" data-number="{board}" '
            f'data-presence="waiting"><a class="open" href="#{board}"><h2><span class="no">'
            f"{board}</span> {names}</h2>"
            f'<svg class="board" role="img" aria-label="board {board}"></svg></a>'
            '<p class="clocks"><span class="clock white-clock"></span>'
            '<span class="clock black-clock"></span></p><p class="status"></p></article>'
        )
        rows.append(
            f'<tr data-number="{board}"><td>{board}</td><td class="name">{escape(white)}</td>'
            f'<td class="score">*</td><td class="name">{escape(black)}</td></tr>'
        )
    body = f"""{_initial_state(state_json)}
<header><h1>{escape(title)}</h1><span class="round-number">Round {number}</span>
<span id="link" class="link">connecting…</span>
<nav><a href="#">All boards</a> <a href="/round.pgn">round.pgn</a></nav></header>
<main class="round">
<section id="boards" class="boards">{"".join(tiles)}</section>
<section id="detail" class="detail panel" hidden><h2 id="detail-title"></h2>
<div class="detail-area"><svg id="detail-board" class="board" role="img" aria-label="board">
</svg><div class="detail-side">
<div class="player"><span class="swatch black"></span><span class="name" id="detail-black">
</span><span class="clock" id="detail-black-clock"></span></div>
<div class="player"><span class="swatch white"></span><span class="name" id="detail-white">
</span><span class="clock" id="detail-white-clock"></span></div>
<p id="detail-status" class="turn"></p><ol id="detail-moves" class="moves"></ol>
<p><a href="#">All boards</a></p></div></div></section>
<section class="results"><h2>Results</h2><table class="games results-table"><thead><tr>
<th>Board</th><th>White</th><th>Result</th><th>Black</th></tr></thead>
<tbody>{"".join(rows)}</tbody></table></section>
</main>"""
    return _page(f"{title}: round {number}", body, scripts=("board.js", "round.js"))


def _field(key: str, label: str, control: str, hint: str | None = None) -> str:
    """One row of the settings form: its label, control, a hint (an empty one
    for settings.js to fill) and the place where the server's error for it
    goes (the control names that place, so a screen reader reads the error
    with the field)."""
    ident = key.replace(".", "-")
    note = f'<span class="hint" id="{ident}-hint">{hint}</span>' if hint is not None else ""
    return (
        f'<div class="field" data-field="{key}"><label for="{ident}">{label}</label>'
        f'<span class="control">{control.format(id=ident, name=key)}</span>{note}'
        f'<span class="error" id="{ident}-error" role="alert"></span></div>'
    )


_SETTINGS_FORM = "".join(
    (
        '<form id="settings-form" class="settings-form" novalidate hidden>',
        "<fieldset><legend>Game</legend>",
        _field(
            "game.mode",
            "Mode",
            '<select id="{id}" name="{name}"></select>',
            "",  # the chosen mode's words (settings.MODE_HINTS), shown by settings.js
        ),
        _field(
            "engine.skill",
            "Engine level",
            '<input id="{id}" name="{name}" type="number" inputmode="numeric" step="1">'
            ' <span id="{id}-about" class="about" aria-live="polite"></span>',
            "0 is a beginner, 20 full strength; the rating is on our own scale (Fairy-Max = 1500).",
        ),
        _field(
            "game.human",
            "You play",
            '<select id="{id}" name="{name}"></select>',
            "Your colour against the engine.",
        ),
        _field("game.variant", "Variant", '<select id="{id}" name="{name}"></select>'),
        "</fieldset><fieldset><legend>Clock</legend>",
        _field("clock-preset", "Time control", '<select id="{id}"></select>'),
        _field(
            "game.clock",
            "Minutes + increment",
            '<input id="{id}" name="{name}" type="text" inputmode="decimal" '
            'autocomplete="off" placeholder="e.g. 20+5">',
            "Minutes each, then seconds added after every move.",
        ),
        "</fieldset><fieldset><legend>Players</legend>",
        _field(
            "game.white_name",
            "White",
            '<input id="{id}" name="{name}" type="text" maxlength="40" '
            'autocomplete="off" placeholder="Player">',
        ),
        _field(
            "game.black_name",
            "Black",
            '<input id="{id}" name="{name}" type="text" maxlength="40" '
            'autocomplete="off" placeholder="Player">',
            "Against the engine, its side is named boardctl.",
        ),
        "</fieldset><fieldset><legend>Voice and lights</legend>",
        _field(
            "speech.enabled",
            "Speech",
            '<input id="{id}" name="{name}" type="checkbox" role="switch" class="switch">',
            "The board says moves and fixes aloud.",
        ),
        _field(
            "speech.rate",
            "Speech rate",
            '<input id="{id}" name="{name}" type="number" inputmode="numeric" step="10">',
            "Words per minute.",
        ),
        _field(
            "leds.brightness",
            "LED brightness",
            '<input id="{id}" name="{name}" type="range" min="0" max="100" step="5">'
            '<output id="{id}-shown" for="{id}"></output>',
        ),
        "</fieldset>",
        '<div class="save"><button type="submit" id="save">Save</button>'
        '<span id="save-status" class="save-status" role="status"></span></div>',
        '<p id="form-error" class="error" role="alert"></p>',
        '<div id="taken" class="taken" hidden><p>When the board takes each change:</p>'
        '<ul id="taken-list"></ul></div>',
        "</form>",
    )
)


# The restart of the board's program (boardctl.daemon.restart): always there
# under the game's buttons, marked when a saved change waits for it; it asks
# once more before it restarts.
_RESTART = """<div id="restart" class="restart">
<h3>Restart the board's program</h3>
<p id="restart-waiting" class="restart-waiting" hidden></p>
<p class="hint">Some changes are taken only when the program starts again. The game in
progress is kept: the board is back, where the game stands, in some seconds.</p>
<button type="button" id="restart-ask">Restart the board's program…</button>
<div id="restart-confirm" class="restart-confirm" hidden>
<p id="restart-words">Restart now? The board stops for some seconds, then starts again with
the saved settings and the same game. No move is lost.</p>
<button type="button" id="restart-yes">Restart now</button>
<button type="button" id="restart-no">Cancel</button></div>
<span id="restart-status" role="status"></span></div>"""


def settings_page() -> str:
    """The owner's settings behind the PIN (filled in and sent by settings.js):
    the form, and the game's own buttons."""
    body = f"""<header><h1>Settings</h1>{_NAV}</header>
<main class="page settings">
<p id="settings-off" class="settings-off" role="status" hidden></p>
<p id="restart-note" class="restart-note" role="status" hidden></p>
<form id="pin-form" class="pin-form" hidden><label>PIN <input id="pin" type="password"
autocomplete="current-password" maxlength="64"></label> <button type="submit">Unlock</button>
<span id="pin-status" role="status"></span></form>
{_SETTINGS_FORM}
<section id="game-actions" class="game-actions" hidden><h2>This game</h2>
<button type="button" data-action="newgame">New game</button>
<button type="button" data-action="takeback">Take back</button>
<button type="button" data-action="resign">Resign</button>
<span id="action-status" role="status"></span>
{_RESTART}</section>
<p id="file-note" class="file-note"></p>
</main>"""
    return _page("boardctl: settings", body, scripts=("settings.js",))
