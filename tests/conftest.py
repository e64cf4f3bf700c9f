import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# The naive reference generator lives beside the tests, not in the package.
sys.path.insert(0, str(Path(__file__).parent))

# No time limit on one example: a loaded machine (a CI runner sharing its two
# cores) must not turn a slow example into a failure.  Speed is measured in
# bench/, never asserted by a test.
settings.register_profile("boardctl", deadline=None)
settings.load_profile("boardctl")

EXAMPLE_CONFIG = Path(__file__).parent.parent / "systemd" / "config.example.toml"


@pytest.fixture
def example_config(tmp_path: Path) -> Path:
    """A copy of the shipped example configuration, to read and edit."""
    path = tmp_path / "config.toml"
    path.write_text(EXAMPLE_CONFIG.read_text())
    return path


@pytest.fixture(scope="session")
def shared_chromium():
    """One headless Chromium per xdist worker for every browser module
    (tests/web, tests/hall), each of which takes it as a fresh one through
    tests/web/test_browser.py's ``browser``: a start and a quit cost some
    0.5 s of CPU, paid once rather than once a module."""
    from selenium.common.exceptions import WebDriverException

    from .web import chromium

    try:
        driver = chromium.start()
    except WebDriverException as exc:
        pytest.skip(f"chromium does not start here: {exc.msg}")
    yield driver
    driver.quit()


# The run keeps its bytecode even where PYTHONDONTWRITEBYTECODE is set (the
# shells of this project's machines set it): without it every xdist worker
# compiles and assert-rewrites all the test modules again (13.5 s of CPU to
# collect, 4.8 s with the caches), and each of the hundreds of boardctl child
# processes the tests start compiles the package again (0.55 s of CPU to
# import the command line, 0.33 s with them).  Popped here, before xdist starts
# its workers, so that they and every child inherit it; __pycache__ is ignored.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# `-n auto` (make test): two workers more than the machine has cores.  Some
# tests mostly wait in real time (a remote game through a faulty network, a
# killed daemon's restart, a browser): on 2 cores, 2 workers left the CPU idle
# for 42 % of a run, and 4 took the run from 314 to 276 s (3 workers: 285 s).
# PYTEST_XDIST_AUTO_NUM_WORKERS, if set, still decides: None leaves the
# answer to xdist's own hook, which reads it.
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return (os.cpu_count() or 1) + 2


# BOARDCTL_CPU_PROBE=FOLDER: each test's wall and CPU seconds into FOLDER.
if os.environ.get("BOARDCTL_CPU_PROBE"):
    from cpu_probe import pytest_runtest_protocol  # noqa: F401


# The fast tier (`make check`) leaves out what is marked slow: whole modules
# below, which need a browser, MicroPython, an emulated Pico, a C compiler,
# real processes killed and restarted, or real serial timing; and single tests
# marked @pytest.mark.slow beside their reason.  `make test` runs everything.
SLOW_MODULES = {
    "tests/pico/test_emulated_pico.py": "an emulated RP2040 (rp2040js), some 10 s a boot",
    "tests/pico/test_emulated_game.py": "a game on the emulated Pico",
    "tests/pico/test_emulated_heap.py": "an emulated RP2040 boots to count what hal.py allocates",
    "tests/web/test_browser.py": "headless Chromium",
    "tests/web/test_browser_remote.py": "headless Chromium against a board in real time",
    "tests/web/test_settings_browser.py": "headless Chromium",
    "tests/web/test_starts_browser.py": "headless Chromium",
    "tests/hw/test_firmware.py": "the firmware under MicroPython's unix port",
    "tests/engine/test_build.py": "builds the C core with a compiler",
    "tests/engine/test_xboard_gui.py": "XBoard under Xvfb plays two games against Fairy-Max",
    "tests/e2e/test_kill9.py": "kills and restarts the daemon's process",
    "tests/e2e/test_restart_process.py": "a real boardctl run restarted from its page",
    "tests/e2e/test_remote_faults.py": "remote games through a fault proxy, sides killed",
    "tests/e2e/test_remote_boards.py": "two boards play each other in real time",
    "tests/e2e/test_serial_game.py": "a game over a pseudo-terminal in real time",
    "tests/hw/test_serial_soak.py": "thousands of damaged serial lines",
    "tests/test_hostile_files.py": "a child process per hostile file",
    "tests/remote/test_transport.py": "a real mosquitto, killed and started again",
    "tests/remote/test_links.py": "two links through a lossy broker, a property over restarts",
    "tests/hall/test_mqtt.py": "a round through a real mosquitto, a board's network cut",
}


# Single tests of some seconds each (measured with `pytest --durations`),
# by their node id without parameters, and why they take that long.
_RANDOM_GAMES = "plays random games through the rules core"
_PROPERTY = "a property over hundreds of generated examples"
_REVIEW_PROCESS = "a daemon in real time while a review's process starts Python and searches"
# Node ids are longer than a line; each reason stays beside its id.
# fmt: off
SLOW_TESTS = {
    "tests/remote/test_record.py::test_any_order_of_arrival_derives_the_same_game": _PROPERTY,
    "tests/daemon/test_headless.py::test_a_delay_clock_gives_each_move_its_seconds_before_it_charges_and_tells_the_engine":
        "five headless games of some 30 virtual seconds each, at 100 steps a second",
    "tests/board/test_game_properties.py::test_games_against_the_engine_are_read_back_exactly":
        _PROPERTY,
    "tests/board/test_game_properties.py::test_two_players_games_are_read_back_exactly": _PROPERTY,
    "tests/board/test_properties.py::test_a_capture_never_seen_is_never_taken": _PROPERTY,
    "tests/board/test_properties.py::test_any_quick_physical_handling_yields_exactly_the_move":
        _PROPERTY,
    "tests/board/test_properties.py::test_noise_never_raises_and_restoring_the_board_brings_it_back":
        _PROPERTY,
    "tests/board/test_properties.py::test_slow_handling_with_pauses_yields_exactly_the_move":
        _PROPERTY,
    "tests/e2e/test_hex_sim_game.py::test_a_whole_falcon_hex_game_against_the_engine":
        "a whole game against the engine",
    "tests/ui/test_sim_window.py::test_a_hexagon_position_is_set_up_as_guided_then_mated":
        "sets up a position in 46 steps, one by one in virtual time",
    "tests/engine/test_see.py::test_every_capture_in_random_games_agrees_with_a_minimax_over_the_rules_core":
        "a minimax over every capture of random games, per preset",
    "tests/engine/test_search.py::test_never_an_illegal_move_and_the_position_is_left_alone":
        _PROPERTY,
    "tests/engine/test_tablebase.py::test_every_value_follows_from_the_legal_moves_of_the_rules_core":
        "checks the whole K+F v K table",
    "tests/engine/test_tablebase.py::test_the_shipped_table_is_what_the_generator_builds":
        "builds the table again",
    "tests/engine/test_tablebase_scripts.py::test_the_builder_verifies_a_small_board":
        "runs the table builder",
    "tests/engine/test_tablebase_scripts.py::test_the_pawn_table_agrees_with_the_rules_core":
        "builds a pawn table",
    "tests/engine/test_texel.py::test_the_generator_writes_quiet_positions_labelled_with_their_games_result":
        "plays self-play games in worker processes",
    "tests/hw/test_serial_offline.py::test_a_damaged_stream_never_yields_a_board_that_was_not_sent":
        _PROPERTY,
    "tests/review/test_daemon_review.py::test_a_game_that_ends_is_reviewed_and_its_blunder_marked_at_its_ply":
        _REVIEW_PROCESS,
    "tests/review/test_daemon_review.py::test_a_new_game_against_the_engine_goes_on_while_the_last_one_is_reviewed":
        _REVIEW_PROCESS,
    "tests/rules/test_hex_agreement.py::test_legal_moves_agree_along_random_games": _RANDOM_GAMES,
    "tests/rules/test_hex_game.py::test_san_round_trips_over_random_games": _RANDOM_GAMES,
    "tests/rules/test_perft.py::test_legal_moves_match_the_naive_generator_in_random_positions":
        _PROPERTY,
    "tests/rules/test_properties.py::test_every_legal_move_round_trips_through_both_notations":
        _PROPERTY,
    "tests/rules/test_properties.py::test_make_unmake_and_the_incremental_hash": _PROPERTY,
    "tests/rules/test_properties.py::test_pgn_round_trip": _PROPERTY,
    "tests/test_config_properties.py::test_any_configuration_is_refused_in_one_line_or_plays":
        _PROPERTY,
    "tests/test_configfile.py::test_any_valid_settings_read_back_as_set_and_the_comments_stay":
        _PROPERTY,
    "tests/test_naive_falcon.py::test_8x8_without_falcons_matches_orthodox_chess_perft":
        "perft of the naive generator",
    "tests/storage/test_store.py::test_a_writer_killed_at_random_points_loses_no_committed_move":
        "kills a writer process at random points",
    "tests/test_atomic.py::test_a_saver_killed_at_random_points_leaves_no_copy_after_the_next_start":
        "kills a settings saver process at random points",
    "tests/test_naive_falcon.py::test_colour_flip_gives_the_same_perft":
        "perft of the naive generator to depth 3, 11 s in all",
    "tests/rules/test_legality.py::test_other_shortcuts": _PROPERTY,
    "tests/engine/test_core.py::test_random_games_agree_move_by_move": _RANDOM_GAMES,
    "tests/puzzles/test_library.py::test_every_first_move_that_mates_is_found_and_the_brute_force_checker_agrees":
        "a mate search after every first move of every puzzle, and an exhaustive checker",
    "tests/engine/test_core_legality.py::test_both_cores_agree": _PROPERTY,
    "tests/e2e/test_teaching_sim.py::test_a_knight_left_to_a_pawn_is_warned_about_and_taken_back":
        "the coach's engine searches five positions to depth 8",
    "tests/review/test_coach_depths.py::test_a_knight_left_to_a_pawn_is_the_same_words_at_every_depth":
        "four positions searched to each depth from 3 to 9",
    "tests/hall/test_command.py::test_hall_round_serves_from_the_configured_broker_until_stopped":
        "boardctl hall in a process of its own, through a real mosquitto",
    "tests/test_docs.py::test_the_readmes_commands_run_as_written":
        "the README's commands, each a new boardctl process, one a game against the engine",
}
# fmt: on


# Modules whose tests share something expensive that the module makes once.
# `make test` runs with --dist worksteal, which hands each worker a run of
# tests in collection order, and an idle worker steals the back half of a busy
# one's: collected first, these head the first worker's run, the last tests
# to be stolen, so each seldom splits and what it shares is made once, not on
# every worker (one boot per emulated board).  (--dist loadgroup's xdist_group
# would say it per test, but with pytest 9.2 and xdist 3.8 it groups nothing:
# xdist names a grouped test by setting item._nodeid, which pytest no longer
# reads.)
SHARED_MODULES = {
    "tests/pico/test_emulated_pico.py": "one emulated Pico per board, some 10 s a boot",
    "tests/web/test_browser.py": "one Chromium",
    "tests/web/test_browser_remote.py": "one Chromium",
    "tests/web/test_settings_browser.py": "one Chromium",
    "tests/web/test_starts_browser.py": "one Chromium",
    "tests/engine/test_tablebase_scripts.py": "a pawn table, built once",
}


# tryfirst: the slow marker must be there before -m "not slow" deselects.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    root = Path(__file__).parent.parent
    slow_modules = set()
    for item in items:
        where = Path(str(item.fspath)).relative_to(root).as_posix()
        if where in SLOW_MODULES or item.nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker("slow")
            slow_modules.add(where)

    def order(item: pytest.Item) -> int:
        where = Path(str(item.fspath)).relative_to(root).as_posix()
        return 0 if where in SHARED_MODULES else 1 if where in slow_modules else 2

    # The shared first, then the modules with slow tests, each module kept
    # whole (its module-scoped fixtures made once): in a parallel run the long
    # tests start at once, and the short ones, last, even out the workers' ends.
    items.sort(key=order)
    items[:] = _waiters_first(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


# Tests that wait in real time for tens of seconds (a game through a faulty
# network, daemons killed and restarted) and use little CPU meanwhile.  Left
# in the order above, they sat behind the emulated Pico in the first worker's
# run until another worker stole them near the end, and the run waited
# 50 s for them on one worker with the others idle.  Each is put first in the
# run of a worker but the first, so that its waiting overlaps the others' work.
REAL_TIME_WAITERS = (
    "tests/e2e/test_remote_faults.py::test_a_game_through_a_bad_network_with_kills_loses_and_doubles_nothing[boards]",
    "tests/e2e/test_kill9.py::test_kill_9_at_random_points_loses_no_committed_move",
    "tests/e2e/test_remote_faults.py::test_a_game_through_a_bad_network_with_kills_loses_and_doubles_nothing[browser]",
)


def _waiters_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` with each of REAL_TIME_WAITERS at the head of one of the runs
    that --dist worksteal first hands the workers 2 to ``workers`` (equal
    shares in order), the rest in their order."""
    if workers < 2:
        return items
    waiters = [item for item in items if item.nodeid in REAL_TIME_WAITERS]
    rest = [item for item in items if item.nodeid not in REAL_TIME_WAITERS]
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for i, item in enumerate(waiters):
        heads[1 + i % (workers - 1)].append(item)
    out: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):
        share = left // (workers - worker)  # xdist's split (scheduler/worksteal.py)
        left -= share
        out += heads[worker]
        taken = max(0, share - len(heads[worker]))
        out += rest[:taken]
        rest = rest[taken:]
    return out + rest
