import sys
from pathlib import Path

from hypothesis import settings

# The naive reference generator lives beside the tests, not in the package.
sys.path.insert(0, str(Path(__file__).parent))

# No time limit on one example: a loaded machine (a CI runner sharing its two
# cores) must not turn a slow example into a failure.  Speed is measured in
# bench/, never asserted by a test.
settings.register_profile("boardctl", deadline=None)
settings.load_profile("boardctl")


# The fast tier (`make check`) leaves out what is marked slow: whole modules
# below, which need a browser, MicroPython, an emulated Pico, a C compiler,
# real processes killed and restarted, or real serial timing; and single tests
# marked @pytest.mark.slow beside their reason.  `make test` runs everything.
SLOW_MODULES = {
    "tests/pico/test_emulated_pico.py": "an emulated RP2040 (rp2040js), some 10 s a boot",
    "tests/pico/test_emulated_game.py": "a game on the emulated Pico",
    "tests/web/test_browser.py": "headless Chromium",
    "tests/hw/test_firmware.py": "the firmware under MicroPython's unix port",
    "tests/engine/test_build.py": "builds the C core with a compiler",
    "tests/e2e/test_kill9.py": "kills and restarts the daemon's process",
    "tests/e2e/test_serial_game.py": "a game over a pseudo-terminal in real time",
    "tests/hw/test_serial_soak.py": "thousands of damaged serial lines",
    "tests/test_hostile_files.py": "a child process per hostile file",
}


def pytest_collection_modifyitems(config, items):
    root = Path(__file__).parent.parent
    for item in items:
        where = Path(str(item.fspath)).relative_to(root).as_posix()
        if where in SLOW_MODULES:
            item.add_marker("slow")
