"""The game store: moves kept through crashes, corrupt files kept aside, PGN out."""

from __future__ import annotations

import io
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardctl.errors import BoardctlError
from boardctl.rules import VARIANTS, FenError, Game, UnknownVariantError
from boardctl.rules.pgn import read_games
from boardctl.storage.command import pgn_command
from boardctl.storage.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from boardctl.storage.store import (
    DISK_REASONS,
    DamagedGameError,
    GameStore,
    ReplayError,
    StoreConflictError,
    StoredGame,
    StoreError,
    StoreValueError,
    UnknownGameError,
    default_db_path,
    default_state_dir,
)

from ..mounts import read_only_view

START = VARIANTS["falcon"].start_fen
T0 = 1_700_000_000.0  # 2023-11-14 22:13:20 UTC
# A real short game: white develops the king's side and castles king-takes-rook
# (f1j1, O-O:g1) while black's a-pawn runs through and promotes on a1.
SHORT_GAME = [
    "i1h3",
    "a7a6",
    "i2i3",
    "a6a5",
    "h1i2",
    "a5a4",
    "g2g3",
    "a4a3",
    "g1f4",
    "a3b2",
    "f1j1",
    "b2a1q",
]
CHILD = Path(__file__).with_name("store_child.py")
CYCLE = ("b1c3", "b8c6", "c3b1", "c6b8")  # what store_child.py plays


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "state" / "games.sqlite3", clock=lambda: T0) as opened:
        yield opened


def play(
    store: GameStore,
    moves: list[str],
    *,
    fen: str = START,
    variant: str = "falcon",
    white: str = "Player",
    black: str = "boardctl",
) -> int:
    game_id = store.new_game(variant, fen, white, black, "engine", T0)
    for ply, uci in enumerate(moves, start=1):
        store.add_move(game_id, ply, uci, T0 + ply)
    return game_id


def replayed(moves: list[str], fen: str | None = None) -> Game:
    game = Game(fen=fen)
    for uci in moves:
        game.push_text(uci)
    return game


# ------------------------------------------------------------------ schema
def test_a_new_store_creates_its_directory_and_schema_in_wal_mode(tmp_path):
    path = tmp_path / "var" / "lib" / "boardctl" / "games.sqlite3"
    with GameStore(path) as store:
        assert store.recovered_from is None and store.notice is None
        # The connection's own settings: synchronous is not stored in the file.
        assert store._connection().execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        games = {row[1] for row in raw.execute("PRAGMA table_info(games)")}
        moves = {row[1] for row in raw.execute("PRAGMA table_info(moves)")}
    finally:
        raw.close()
    assert games == {
        "id",
        "variant",
        "start_fen",
        "started_at",
        "ended_at",
        "result",
        "termination",
        "white",
        "black",
        "mode",
        "wall_clock",
    }
    assert moves == {"game_id", "ply", "uci", "san", "created_at", "clock"}


def test_reopening_keeps_the_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = play(store, SHORT_GAME[:4])
    with GameStore(path) as store:
        assert store.load(game_id).moves == tuple(SHORT_GAME[:4])


# ------------------------------------------------------------- round trip
def test_a_short_game_with_free_castling_and_a_promotion_replays(store):
    game_id = play(store, SHORT_GAME)
    stored = store.load(game_id)
    assert stored.moves == tuple(SHORT_GAME) and stored.plies == 12
    assert (stored.variant, stored.start_fen, stored.started_at) == ("falcon", START, T0)
    assert (stored.white, stored.black, stored.mode) == ("Player", "boardctl", "engine")
    game = store.to_game(stored)
    expected = replayed(SHORT_GAME)
    assert game.moves == expected.moves
    assert game.position.fen() == expected.position.fen()
    assert game.sans()[-2:] == ["O-O:g1", "bxa1=Q"]


def test_a_set_up_position_and_a_falcon_promotion_round_trip(store):
    fen = "9k/1P8/10/10/10/10/10/K9 w - - 0 1"
    game_id = play(store, ["b7b8f"], fen=fen)
    game = store.to_game(store.load(game_id))
    assert game.start_fen == fen
    assert game.sans() == ["b8=F"]


def test_a_move_that_no_longer_replays_names_the_game_and_the_ply(store):
    game_id = play(store, ["e2e4", "e7e5", "e4e5"])  # the e-pawn is blocked
    with pytest.raises(ReplayError, match=rf"game {game_id}: ply 3 \(e4e5\)"):
        store.to_game(store.load(game_id))


@pytest.mark.parametrize(
    ("variant", "fen", "error"),
    [
        ("capablanca", START, UnknownVariantError),
        ("falcon", "nonsense", FenError),
    ],
)
def test_a_game_needs_a_known_variant_and_a_valid_start(store, variant, fen, error):
    with pytest.raises(error):
        store.new_game(variant, fen, "a", "b", "human", T0)
    assert store.games() == []


# -------------------------------------------------------- writes and plies
def test_storing_the_same_move_again_changes_nothing(store):
    game_id = play(store, SHORT_GAME[:2])
    store.add_move(game_id, 2, SHORT_GAME[1], T0 + 99)
    store.add_move(game_id, 1, SHORT_GAME[0], T0 + 99)
    assert store.load(game_id).moves == tuple(SHORT_GAME[:2])


@pytest.mark.parametrize(
    ("ply", "uci", "message"),
    [
        (2, "a7a5", "ply 2 is stored as a7a6, not a7a5"),
        (4, "a6a5", "the next is ply 3, not 4"),
    ],
)
def test_a_different_move_at_a_stored_ply_or_a_gap_is_refused(store, ply, uci, message):
    game_id = play(store, SHORT_GAME[:2])
    with pytest.raises(StoreConflictError, match=message):
        store.add_move(game_id, ply, uci, T0)
    assert store.load(game_id).moves == tuple(SHORT_GAME[:2])


def test_a_takeback_then_another_move(store):
    """The player takes back Nh3... a6 and plays a7a5 instead."""
    game_id = play(store, SHORT_GAME[:3])
    store.remove_last_move(game_id)
    store.remove_last_move(game_id)
    assert store.load(game_id).moves == ("i1h3",)
    store.add_move(game_id, 2, "a7a5", T0)
    assert store.load(game_id).moves == ("i1h3", "a7a5")
    store.to_game(store.load(game_id))


def test_an_amendment_replaces_the_last_move(store):
    """The board read a6, the player meant a5: remove + add, or one amend."""
    game_id = play(store, SHORT_GAME[:2])
    store.remove_last_move(game_id)
    store.add_move(game_id, 2, "a7a5", T0)
    assert store.load(game_id).moves == ("i1h3", "a7a5")
    store.amend_last_move(game_id, "b7b6", T0)
    assert store.load(game_id).moves == ("i1h3", "b7b6")


def test_nothing_to_take_back_is_an_error(store):
    game_id = play(store, [])
    with pytest.raises(StoreConflictError, match="no move to take back"):
        store.remove_last_move(game_id)


def test_an_unknown_game_is_named(store):
    play(store, [])
    with pytest.raises(UnknownGameError, match=r"no game 7 in .*\(games 1-1\)"):
        store.add_move(7, 1, "e2e4", T0)
    with pytest.raises(UnknownGameError):
        store.load(7)


def test_malformed_move_text_and_results_are_refused(store):
    game_id = play(store, [])
    with pytest.raises(StoreValueError, match="coordinate notation"):
        store.add_move(game_id, 1, "Nh3", T0)
    with pytest.raises(StoreValueError, match="result"):
        store.finish(game_id, "white wins", "checkmate", T0)


def test_the_first_result_stands_and_an_ended_game_takes_no_moves(store):
    game_id = play(store, SHORT_GAME[:2])
    store.finish(game_id, "1-0", "resignation", T0 + 10)
    store.finish(game_id, "*", "abandoned", T0 + 20)  # the daemon starting a new game
    stored = store.load(game_id)
    assert (stored.result, stored.termination, stored.ended_at) == ("1-0", "resignation", T0 + 10)
    store.add_move(game_id, 2, SHORT_GAME[1], T0)  # a repeat of a stored move is fine
    with pytest.raises(StoreConflictError, match="has ended"):
        store.add_move(game_id, 3, SHORT_GAME[2], T0)


def test_taking_back_the_move_that_ended_the_game_reopens_it(store):
    game_id = play(store, SHORT_GAME)
    store.finish(game_id, "0-1", "checkmate", T0)
    store.remove_last_move(game_id)
    stored = store.load(game_id)
    assert stored.result is None and stored.ended_at is None and stored.plies == 11
    assert store.unfinished() == stored


# ------------------------------------------------------------------ resume
def test_the_latest_unfinished_game_is_resumed_after_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        first = play(store, SHORT_GAME[:2])
        store.finish(first, "1/2-1/2", "agreement", T0)
        older = play(store, SHORT_GAME[:1])
        second = play(store, SHORT_GAME[:5])
        assert older < second
    with GameStore(path) as store:  # the power came back
        stored = store.unfinished()
        assert isinstance(stored, StoredGame) and stored.id == second
        resumed = store.resume()
        assert resumed is not None
        game_id, game = resumed
        assert game_id == second
        assert game.position.fen() == replayed(SHORT_GAME[:5]).position.fen()
        store.finish(second, "*", "abandoned", T0)
        assert store.unfinished() is not None and store.unfinished().id == older
        store.finish(older, "*", "abandoned", T0)
        assert store.unfinished() is None and store.resume() is None


def test_games_lists_summaries_oldest_first(store):
    first = play(store, SHORT_GAME[:3], white="Ada")
    second = play(store, [], black="Bob")
    store.finish(first, "1-0", "resignation", T0 + 5)
    summaries = store.games()
    assert [(g.id, g.plies, g.finished) for g in summaries] == [
        (first, 3, True),
        (second, 0, False),
    ]
    assert summaries[0].white == "Ada" and summaries[1].black == "Bob"
    assert not hasattr(summaries[0], "moves")


# --------------------------------------------------------------------- PGN
def test_pgn_has_the_variant_the_roster_and_the_moves(store):
    game_id = play(store, SHORT_GAME, white="Ada", black="boardctl")
    store.finish(game_id, "0-1", "resignation", T0 + 60)
    text = store.pgn(game_id)
    for tag in (
        '[Event "boardctl game"]',
        '[Date "2023.11.14"]',
        '[White "Ada"]',
        '[Black "boardctl"]',
        '[Result "0-1"]',
        '[Termination "resignation"]',
        '[Variant "Falcon"]',
    ):
        assert tag in text
    assert "1. Nh3 a6 2. i3 a5" in text and "6. O-O:g1 bxa1=Q 0-1" in text
    [(tags, game)] = read_games(text)
    assert game.moves == replayed(SHORT_GAME).moves
    assert tags["Result"] == "0-1"


def test_pgn_of_a_game_in_progress_is_unterminated(store):
    game_id = play(store, SHORT_GAME[:2])
    text = store.pgn(game_id)
    assert '[Result "*"]' in text and '[Termination "unterminated"]' in text
    assert text.rstrip().endswith("1. Nh3 a6 *")


def test_pgn_all_reads_back_as_every_game(store):
    play(store, SHORT_GAME[:2])
    play(store, ["b7b8f"], fen="9k/1P8/10/10/10/10/10/K9 w - - 0 1")
    games = read_games(store.pgn_all())
    assert len(games) == 2
    assert games[1][0]["FEN"] == "9k/1P8/10/10/10/10/10/K9 w - - 0 1"
    assert [tags["Variant"] for tags, _ in games] == ["Falcon", "Falcon"]


# ------------------------------------------------------------- dates, clocks
def test_pgn_dates_the_game_in_utc_from_its_start(store):
    game_id = play(store, SHORT_GAME[:2])
    text = store.pgn(game_id)
    for tag in ('[Date "2023.11.14"]', '[UTCDate "2023.11.14"]', '[UTCTime "22:13:20"]'):
        assert tag in text


def test_each_move_keeps_its_time_and_clock_and_pgn_shows_the_clocks(store):
    game_id = store.new_game("falcon", START, "a", "b", "two-players", T0)
    store.add_move(game_id, 1, "e2e4", T0 + 5, clock=298.5)
    store.add_move(game_id, 2, "e7e6", T0 + 9, clock=296.0)
    store.amend_last_move(game_id, "e7e5", T0 + 10)  # the slide went on: same clock
    store.finish(game_id, "*", "abandoned", T0 + 60)
    rows = (
        store._connection()
        .execute("SELECT ply, created_at, clock FROM moves ORDER BY ply")
        .fetchall()
    )
    assert rows == [(1, T0 + 5, 298.5), (2, T0 + 10, 296.0)]
    stored = store.load(game_id)
    assert (stored.started_at, stored.ended_at, stored.clocks) == (T0, T0 + 60, (298.5, 296.0))
    assert "1. e4 {[%clk 0:04:58]} 1... e5 {[%clk 0:04:56]} *" in store.pgn(game_id)


def test_clocks_and_players_known_later_are_set_on_the_stored_game(store):
    # A remote game: stored before the other player's name is known, and the
    # board player's move before its log has its clock.
    game_id = store.new_game("falcon", START, "Player", "Remote player", "remote", T0)
    store.add_move(game_id, 1, "e2e4", T0 + 5)
    store.add_move(game_id, 2, "e7e5", T0 + 9, clock=301.0)
    store.set_clocks(game_id, 1, (302.5, 301.0, 299.0))  # ply 3 is not stored: left alone
    store.set_players(game_id, "Player", "Anna")
    stored = store.load(game_id)
    assert (stored.clocks, stored.moves, stored.black) == ((302.5, 301.0), ("e2e4", "e7e5"), "Anna")
    with pytest.raises(UnknownGameError):
        store.set_players(game_id + 1, "a", "b")


def test_a_game_without_clocks_has_no_clock_comments(store):
    assert "%clk" not in store.pgn(play(store, SHORT_GAME[:4]))


@pytest.mark.parametrize("started_at", [0.0, 1234.5, 9_876_543.25])  # sim; monotonic clocks
def test_games_from_before_real_dates_migrate_to_an_unknown_date(tmp_path, started_at):
    """Version 2 stored the simulator's 0.0 or the Pi's time since boot: PGN
    said 1970.01.01.  Migrated in place, the games stay and say "not known"."""
    path = tmp_path / "games.sqlite3"
    old = old_store(path, 2, started_at)
    with GameStore(path) as store:
        assert user_version(path) == SCHEMA_VERSION == 5
        stored = store.load(old)
        assert stored.moves == ("e2e4",) and stored.started_at is None
        text = store.pgn(old)
        assert '[Date "????.??.??"]' in text and '[UTCDate "????.??.??"]' in text
        assert "UTCTime" not in text and "1970" not in text
        store.finish(old, "*", "abandoned", T0)
        assert store.load(old).ended_at is None  # still no date, though the end is known
        new = store.new_game("falcon", START, "a", "b", "two-players", T0)
        assert store.load(new).started_at == T0
        assert '[Date "2023.11.14"]' in store.pgn(new)


def test_a_reader_of_a_version_2_file_gives_no_false_date(tmp_path):
    path = tmp_path / "games.sqlite3"
    old_store(path, 2, 4321.0)
    out = io.StringIO()
    assert pgn_command(path, None, False, out, io.StringIO()) == 0
    assert '[Date "????.??.??"]' in out.getvalue() and "1970" not in out.getvalue()


# ------------------------------------------------------------ pgn command
def test_pgn_command_prints_the_latest_game_one_game_or_all(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        first = play(store, SHORT_GAME[:2], white="Ada")
        play(store, SHORT_GAME[:4], white="Bob")
    out = io.StringIO()
    assert pgn_command(path, None, False, out, io.StringIO()) == 0
    assert '[White "Bob"]' in out.getvalue() and "Ada" not in out.getvalue()
    out = io.StringIO()
    assert pgn_command(path, first, False, out, io.StringIO()) == 0
    assert '[White "Ada"]' in out.getvalue() and "Bob" not in out.getvalue()
    out = io.StringIO()
    assert pgn_command(path, None, True, out, io.StringIO()) == 0
    assert len(read_games(out.getvalue())) == 2


@pytest.mark.parametrize(
    ("game", "all_games", "error", "message"),
    [
        (9, False, UnknownGameError, r"no game 9 in .* \(games 1-1\)"),
        (1, True, StoreValueError, "not both"),
    ],
)
def test_pgn_command_errors_are_one_clear_line(tmp_path, game, all_games, error, message):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        play(store, [])
    with pytest.raises(error, match=message) as info:
        pgn_command(path, game, all_games, io.StringIO(), io.StringIO())
    assert "\n" not in str(info.value) and isinstance(info.value, ValueError)


def test_pgn_command_without_a_database_or_games_says_so(tmp_path):
    path = tmp_path / "games.sqlite3"
    with pytest.raises(StoreError, match="no game database at"):
        pgn_command(path, None, False, io.StringIO(), io.StringIO())
    assert not path.exists()  # reading never creates it
    GameStore(path).close()
    with pytest.raises(UnknownGameError, match="no games in"):
        pgn_command(path, None, False, io.StringIO(), io.StringIO())
    out = io.StringIO()
    assert pgn_command(path, None, True, out, io.StringIO()) == 0 and out.getvalue() == ""


def test_pgn_command_never_moves_a_corrupt_file(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"not a database " * 200)
    with pytest.raises(StoreError, match="unreadable"):
        pgn_command(path, None, True, io.StringIO(), io.StringIO())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]


# ------------------------------------------------------ values edited in
# Each edit leaves a database that passes quick_check but holds a value
# boardctl never writes in game 2: (SQL on the raw file, what the error names).
EDITS = [
    ("UPDATE games SET start_fen = 'nonsense' WHERE id = 2", "FEN"),
    ("UPDATE games SET variant = 'capablanca' WHERE id = 2", "capablanca"),
    ("UPDATE games SET variant = x'00ff' WHERE id = 2", "variant"),
    ("UPDATE games SET white = x'41' WHERE id = 2", "white"),
    ("UPDATE games SET started_at = 'yesterday' WHERE id = 2", "started_at"),
    ("UPDATE games SET started_at = 1e300 WHERE id = 2", "started_at"),
    ("UPDATE games SET started_at = 9223372036854775807 WHERE id = 2", "started_at"),
    ("UPDATE games SET started_at = -1 WHERE id = 2", "started_at"),
    ("UPDATE games SET started_at = x'00' WHERE id = 2", "started_at"),
    ("UPDATE games SET result = '1-0', ended_at = 'soon' WHERE id = 2", "ended_at"),
    ("UPDATE games SET termination = x'01' WHERE id = 2", "termination"),
    ("UPDATE games SET wall_clock = 'yes' WHERE id = 2", "wall_clock"),
    ("UPDATE moves SET uci = x'6532653400' WHERE game_id = 2 AND ply = 1", "ply 1"),
    ("UPDATE moves SET uci = 'e2e5' WHERE game_id = 2 AND ply = 1", "ply 1"),
    ("UPDATE moves SET uci = 12 WHERE game_id = 2 AND ply = 1", "ply 1"),
    ("UPDATE moves SET ply = 7 WHERE game_id = 2 AND ply = 2", "ply 2 is missing"),
    ("UPDATE moves SET ply = 'two' WHERE game_id = 2 AND ply = 2", "at ply 'two'"),
    ("UPDATE moves SET created_at = 'noon' WHERE game_id = 2 AND ply = 2", "ply 2's time"),
    ("UPDATE moves SET clock = x'ff' WHERE game_id = 2 AND ply = 2", "ply 2's clock"),
    ("UPDATE moves SET clock = -5 WHERE game_id = 2 AND ply = 2", "ply 2's clock"),
]


def three_games_with_the_second_edited(path: Path, edit: str) -> None:
    with GameStore(path) as store:
        for white in ("Ada", "Bob", "Cy"):
            play(store, SHORT_GAME[:4], white=white)
    raw = sqlite3.connect(path)
    try:
        raw.execute("PRAGMA ignore_check_constraints = ON")  # an editor need not respect them
        raw.execute(edit)
        raw.commit()
        assert raw.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        raw.close()


@pytest.mark.parametrize(("edit", "named"), EDITS)
def test_pgn_all_leaves_out_a_game_with_an_edited_value_in_one_line(tmp_path, edit, named):
    path = tmp_path / "games.sqlite3"
    three_games_with_the_second_edited(path, edit)
    out, err = io.StringIO(), io.StringIO()
    assert pgn_command(path, None, True, out, err) == 1
    tags = [tags for tags, _ in read_games(out.getvalue())]
    assert [t["White"] for t in tags] == ["Ada", "Cy"]
    [line] = err.getvalue().splitlines()
    assert line.startswith("boardctl pgn: game 2: ") and line.endswith("; left out")
    assert named in line and len(line) < 300


@pytest.mark.parametrize(("edit", "named"), EDITS)
def test_every_reader_names_the_edited_game(tmp_path, edit, named):
    path = tmp_path / "games.sqlite3"
    three_games_with_the_second_edited(path, edit)
    err = io.StringIO()
    assert pgn_command(path, 2, False, io.StringIO(), err) == 1
    assert err.getvalue().count("\n") == 1 and named in err.getvalue()
    out = io.StringIO()
    assert pgn_command(path, 3, False, out, io.StringIO()) == 0 and "Cy" in out.getvalue()
    with GameStore(path, create=False) as store:
        with pytest.raises(DamagedGameError, match=r"^game 2: "):
            store.pgn(2)
        with pytest.raises(DamagedGameError):
            store.pgn_all()
        summaries_ok = not any(word in named for word in ("ply", "FEN", "capablanca"))
        if summaries_ok:  # the summaries hold no moves and replay nothing
            with pytest.raises(DamagedGameError):
                store.games()
        else:
            assert [g.id for g in store.games()] == [1, 2, 3]


def test_the_latest_game_edited_is_reported_alone(tmp_path):
    path = tmp_path / "games.sqlite3"
    three_games_with_the_second_edited(path, "UPDATE games SET started_at = 'x' WHERE id = 3")
    out, err = io.StringIO(), io.StringIO()
    assert pgn_command(path, None, False, out, err) == 1
    assert out.getvalue() == "" and err.getvalue().startswith("boardctl pgn: game 3: ")


# ------------------------------------------------ a read-only directory
def crashed(db: Path, moves: list[str]) -> None:
    """``db`` as a writer leaves it when the power goes: its moves (one game)
    in the WAL, beside the -shm index."""
    live = db.with_name("live.sqlite3")
    with GameStore(live) as store:
        play(store, moves)
        for suffix in ("", "-wal", "-shm"):  # copied while open: not checkpointed
            Path(f"{db}{suffix}").write_bytes(Path(f"{live}{suffix}").read_bytes())
    for suffix in ("", "-wal", "-shm"):
        Path(f"{live}{suffix}").unlink(missing_ok=True)


@pytest.mark.parametrize(
    ("files", "mode"),
    [
        ("closed", "immutable"),  # a clean shutdown: no WAL, no index
        ("crashed", "ro"),  # WAL and index left by a writer that died
        ("crashed, no index", "copy"),  # the WAL alone (a copy made with cp *.sqlite3*-wal)
    ],
)
def test_pgn_reads_every_move_from_a_read_only_directory(tmp_path, files, mode):
    source = tmp_path / "state"
    source.mkdir()
    db = source / "games.sqlite3"
    if files == "closed":
        with GameStore(db) as store:
            play(store, list(CYCLE) * 5)
    else:
        crashed(db, list(CYCLE) * 5)
        assert Path(f"{db}-wal").stat().st_size > 0
        if files == "crashed, no index":
            Path(f"{db}-shm").unlink()
    before = sorted(p.name for p in source.iterdir())
    with read_only_view(source, tmp_path / "ro") as folder:
        out = io.StringIO()
        assert pgn_command(folder / db.name, None, False, out, io.StringIO()) == 0
        [(_, game)] = read_games(out.getvalue())
        assert len(game.moves) == 20
        with GameStore(folder / db.name, create=False) as store:
            assert store.read_mode == mode
            assert store.load(1).moves == tuple(CYCLE) * 5
        assert sorted(p.name for p in folder.iterdir()) == before  # nothing made or changed


def test_a_reader_in_a_writable_directory_reads_as_before(tmp_path):
    db = tmp_path / "games.sqlite3"
    crashed(db, list(CYCLE) * 2)
    with GameStore(db, create=False) as store:
        assert store.read_mode == "ro" and store.load(1).plies == 8
        with pytest.raises(StoreError, match="reading only"):
            store.add_move(1, 9, "b1c3", T0)


def test_the_daemon_finds_a_read_only_database_at_start_and_reads_it(tmp_path):
    source = tmp_path / "state"
    source.mkdir()
    db = source / "games.sqlite3"
    crashed(db, SHORT_GAME[:6])
    with read_only_view(source, tmp_path / "ro") as folder, GameStore(folder / db.name) as store:
        assert store.write_problem() == "folder read-only"
        resumed = store.resume()  # the game goes on from the file
        assert resumed is not None and len(resumed[1].moves) == 6
        with pytest.raises(StoreError) as info:
            store.add_move(resumed[0], 7, SHORT_GAME[6], T0)
        assert info.value.reason == "folder read-only"
        assert store.write_problem() == "folder read-only"  # asked again


def test_a_file_sqlite_opens_read_only_is_found_at_start_not_at_the_first_move(
    tmp_path, monkeypatch
):
    """A file mode or an ACL can make SQLite open the file read-only without a
    word, where os.access saw nothing wrong; the probe write at start finds it.
    (Root ignores file modes: SQLite's own read-only mode stands in.)"""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = play(store, SHORT_GAME[:2])
    connect = GameStore._connect
    monkeypatch.setattr(
        GameStore,
        "_connect",
        lambda self, mode, *args, **kw: connect(self, "ro" if mode == "rwc" else mode, *args, **kw),
    )
    with GameStore(path) as store:
        assert store.write_problem() == "database read-only"
        assert store.load(game_id).plies == 2
        with pytest.raises(StoreError, match="read-only"):
            store.add_move(game_id, 3, SHORT_GAME[2], T0)
    monkeypatch.undo()
    with GameStore(path) as store:  # writable again: the next write works
        assert store.write_problem() is None
        store.add_move(game_id, 3, SHORT_GAME[2], T0)


# -------------------------------------------------------------- corruption
def aside_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name)


def test_garbage_is_moved_aside_with_its_wal_and_a_fresh_store_works(tmp_path):
    path = tmp_path / "games.sqlite3"
    garbage = bytes(random.Random(1).randrange(256) for _ in range(8192))
    path.write_bytes(garbage)
    Path(f"{path}-wal").write_bytes(b"wal garbage")
    with GameStore(path, clock=lambda: T0) as store:
        aside = tmp_path / "games.sqlite3.corrupt-20231114T221320Z"
        assert store.recovered_from == aside
        assert aside.read_bytes() == garbage  # kept, not discarded
        assert Path(f"{aside}-wal").read_bytes() == b"wal garbage"
        assert store.notice is not None and "\n" not in store.notice
        assert aside.name in store.notice and "unreadable" in store.notice
        game_id = play(store, SHORT_GAME[:2])
        assert store.load(game_id).moves == tuple(SHORT_GAME[:2])
    assert not any(name.startswith("games.sqlite3-") for name in os.listdir(tmp_path))


def test_the_wal_of_a_corrupt_database_is_kept_byte_for_byte(tmp_path):
    """The last moves may live only in the WAL: opening must not fold it into
    the corrupt file or delete it, only carry it aside with its database."""
    live = tmp_path / "live.sqlite3"
    path = tmp_path / "games.sqlite3"
    with GameStore(live) as store:
        for _ in range(40):
            play(store, list(CYCLE) * 15)
    with GameStore(live) as store:
        play(store, SHORT_GAME[:1])
        # A copy while the store is open is what a power cut leaves behind.
        wal = Path(f"{live}-wal").read_bytes()
        database = live.read_bytes()
    assert wal
    Path(f"{path}-wal").write_bytes(wal)
    path.write_bytes(database[: len(database) // 2])  # and the card lost the rest
    with GameStore(path, clock=lambda: T0) as store:
        assert store.recovered_from is not None
        assert store.recovered_from.read_bytes() == database[: len(database) // 2]
        assert Path(f"{store.recovered_from}-wal").read_bytes() == wal


def test_a_database_cut_short_is_moved_aside(tmp_path):
    """A real store, truncated mid-file (a failing SD card, a bad copy)."""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        for _ in range(40):
            play(store, list(CYCLE) * 15)
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.truncate(size // 2)
    with GameStore(path, clock=lambda: T0) as store:
        assert store.recovered_from is not None
        assert store.recovered_from.stat().st_size == size // 2
        assert "unreadable" in (store.notice or "")
        assert store.games() == [] and store.unfinished() is None


def test_two_corrupt_files_in_one_second_are_both_kept(tmp_path):
    path = tmp_path / "games.sqlite3"
    for text in (b"first " * 300, b"second " * 300):
        path.write_bytes(text)
        GameStore(path, clock=lambda: T0).close()
    assert aside_files(tmp_path) == [
        "games.sqlite3.corrupt-20231114T221320Z",
        "games.sqlite3.corrupt-20231114T221320Z-2",
    ]


def test_an_empty_file_is_a_new_database_not_a_corrupt_one(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.touch()  # a crash right after the file was created
    with GameStore(path) as store:
        assert store.recovered_from is None
        play(store, [])


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("CREATE TABLE photos (id INTEGER)", "not boardctl's game store"),
        ("PRAGMA user_version = 99", "schema version 99"),
    ],
)
def test_someone_elses_or_a_newer_database_is_refused_and_left_alone(tmp_path, setup, message):
    path = tmp_path / "games.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute(setup)
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match=message):
        GameStore(path)
    assert path.read_bytes() == before and aside_files(tmp_path) == []


def test_a_state_directory_that_cannot_be_made_is_a_clear_error(tmp_path):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the directory should be")
    with pytest.raises(StoreError, match="cannot create the state directory") as info:
        GameStore(blocker / "games.sqlite3")
    assert isinstance(info.value, OSError) and isinstance(info.value, BoardctlError)


def _not_a_database(path: Path, kind: str) -> None:
    if kind == "a directory":
        path.mkdir()
    elif kind == "a FIFO":
        os.mkfifo(path)
    else:  # a file it may not read
        path.write_bytes(b"")
        path.chmod(0)


@pytest.mark.parametrize("create", [True, False])
@pytest.mark.parametrize("kind", ["a directory", "a FIFO", "unreadable"])
def test_a_path_that_can_never_be_the_database_is_refused_at_once(tmp_path, kind, create):
    # A directory was taken for a disk error: the daemon played on, saying
    # "disk error" for ever, where a mistake in the setup is one line.
    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads a file of mode 0")
    path = tmp_path / "games.sqlite3"
    _not_a_database(path, kind)
    with pytest.raises(StoreError) as info:
        GameStore(path, create=create)
    message = str(info.value)
    assert message.startswith(f"cannot use {path} as the game database: ")
    assert ("Permission denied" if kind == "unreadable" else f"{kind}, not a regular") in message
    assert info.value.reason not in DISK_REASONS  # not waited out as a full disk is
    assert "\n" not in message


def test_a_state_directory_with_no_database_that_cannot_be_written_is_read_as_empty(tmp_path):
    source = tmp_path / "state"
    source.mkdir()
    with (
        read_only_view(source, tmp_path / "ro") as folder,
        GameStore(Path(folder) / "games.sqlite3") as store,
    ):
        assert store.write_problem() == "folder read-only"
        assert (store.read_mode, store.games(), store.resume()) == ("none", [], None)
        with pytest.raises(StoreError, match="folder read-only") as info:
            store.new_game("falcon", Game().start_fen, "a", "b", "two-players", 1.7e9)
        assert info.value.reason == "folder read-only"
        assert not (Path(folder) / "games.sqlite3").exists()


def test_a_closed_store_says_so(store):
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.games()


# ---------------------------------------------------------- state directory
@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (
            {"STATE_DIRECTORY": "/var/lib/boardctl", "XDG_STATE_HOME": "/x", "HOME": "/home/pi"},
            "/var/lib/boardctl",
        ),
        ({"STATE_DIRECTORY": "/var/lib/boardctl:/var/lib/other"}, "/var/lib/boardctl"),
        ({"XDG_STATE_HOME": "/home/pi/.state", "HOME": "/home/pi"}, "/home/pi/.state/boardctl"),
        ({"XDG_STATE_HOME": "relative", "HOME": "/home/pi"}, "/home/pi/.local/state/boardctl"),
        ({"HOME": "/home/pi"}, "/home/pi/.local/state/boardctl"),
    ],
)
def test_the_default_state_directory(environ, expected):
    assert default_state_dir(environ) == Path(expected)
    assert default_db_path(environ) == Path(expected) / "games.sqlite3"


# -------------------------------------------------------------- crash test
def run_child(db: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    return subprocess.Popen(
        [sys.executable, str(CHILD), str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_a_writer_killed_at_random_points_loses_no_committed_move(tmp_path):
    """30 times: a child adds moves and is SIGKILLed somewhere — starting up,
    creating the schema, inside add_move, between moves.  Every move it had
    reported committed is there, in order, and nothing half-written is."""
    rng = random.Random(1977)
    db = tmp_path / "games.sqlite3"
    reported = stored_plies = 0
    for trial in range(30):
        child = run_child(db)
        assert child.stdout is not None and child.stderr is not None
        if trial % 3 == 0:
            time.sleep(rng.uniform(0.0, 0.3))  # anywhere, start-up included
        else:
            # The child goes on from the moves stored, reported or not.
            wanted = f"committed {stored_plies + rng.randint(1, 25)}\n"
            for line in child.stdout:
                if line == wanted:
                    break
            time.sleep(rng.uniform(0.0, 0.01))
        child.send_signal(signal.SIGKILL)
        rest, err = child.stdout.read(), child.stderr.read()
        child.wait()
        child.stdout.close()
        child.stderr.close()
        assert child.returncode == -signal.SIGKILL, f"trial {trial}: child failed: {err}"
        # The lines read above were all earlier; only whole lines count.
        for line in rest.split("\n")[:-1]:
            if line.startswith("committed "):
                reported = max(reported, int(line.split()[1]))
        if trial % 3:
            reported = max(reported, int(wanted.split()[1]))

        with GameStore(db) as store:
            assert store.recovered_from is None, f"trial {trial}: {store.notice}"
            stored = store.unfinished()
            assert len(store.games()) <= 1
            if stored is None:
                assert reported == 0, f"trial {trial}: the game is gone"
                continue
            assert stored.plies >= max(reported, stored_plies), f"trial {trial}: moves lost"
            assert stored.moves == tuple(CYCLE[i % 4] for i in range(stored.plies))
            store.to_game(stored)
            rows = (
                store._connection()
                .execute("SELECT ply, uci, created_at FROM moves ORDER BY ply")
                .fetchall()
            )
            assert [row[0] for row in rows] == list(range(1, stored.plies + 1))
            assert all(row[2] is not None for row in rows)
            stored_plies = stored.plies
    assert reported > 0


# ---------------------------------------------------------------- settings
def test_settings_are_kept_across_reopening(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        assert store.setting("engine.level") is None
        store.set_setting("engine.level", "12")
        store.set_setting("engine.level", "14")
    with GameStore(path) as store:
        assert store.setting("engine.level") == "14"


def old_store(path: Path, version: int, started_at: object = 1.0) -> int:
    """A database as boardctl wrote it at schema ``version`` (each version's
    statements never change), holding one game: 1. e4, unfinished."""
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        raw.execute("PRAGMA journal_mode=WAL")
        for step in MIGRATIONS[:version]:
            raw.executescript(step)
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        raw.execute(f"PRAGMA user_version = {version}")
        game_id = raw.execute(
            "INSERT INTO games (variant, start_fen, started_at, white, black, mode) "
            "VALUES ('falcon', ?, ?, 'a', 'b', 'two-players')",
            (START, started_at),
        ).lastrowid
        raw.execute(
            "INSERT INTO moves (game_id, ply, uci, created_at) VALUES (?, 1, 'e2e4', ?)",
            (game_id, started_at),
        )
    finally:
        raw.close()
    assert game_id is not None
    return game_id


def user_version(path: Path) -> int:
    raw = sqlite3.connect(path)
    try:
        return int(raw.execute("PRAGMA user_version").fetchone()[0])
    finally:
        raw.close()


def test_a_version_1_store_gains_settings_and_keeps_its_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    game_id = old_store(path, 1)
    with GameStore(path) as store:
        assert [m for m in store.load(game_id).moves] == ["e2e4"]
        store.set_setting("engine.level", "3")
        assert store.setting("engine.level") == "3"
    assert user_version(path) == SCHEMA_VERSION


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_store_is_read_before_the_daemon_migrates_it(tmp_path, version):
    # boardctl upgraded, `boardctl pgn` run before the daemon has started:
    # the reader must not mistake the older file for an empty one.
    path = tmp_path / "games.sqlite3"
    old_store(path, version)
    out = io.StringIO()
    assert pgn_command(path, None, False, out, io.StringIO()) == 0
    assert "1. e4" in out.getvalue()
    assert user_version(path) == version  # a reader migrates nothing
