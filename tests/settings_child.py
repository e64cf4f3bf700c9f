"""The settings saver that tests/test_settings.py kills: saves the settings
page's form until it is stopped.

Usage: ``python settings_child.py CONFIG``.  Prints ``ready`` once the board's
side of the page is made (a start: stale copies are removed then), then
``saved <n>`` after each save, flushed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from boardctl.settings import SettingsFile
from boardctl.web.owner import Saved

MAX_SAVES = 100_000  # a bound, in case nobody kills us


def main(path: Path) -> int:
    settings = SettingsFile(path)
    print("ready", flush=True)
    for n in range(1, MAX_SAVES + 1):
        answer = settings.save({"engine.skill": n % 21, "game.white_name": f"Ann {n}"})
        assert isinstance(answer, Saved), answer
        print(f"saved {n}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
