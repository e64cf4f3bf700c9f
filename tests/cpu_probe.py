"""Where a run's CPU goes, test by test: opt in with BOARDCTL_CPU_PROBE=FOLDER.

Wall time alone misleads on a shared machine (a test that waits looks as long
as one that computes), so each test appends a line to FOLDER/<pid>.tsv: wall
seconds, CPU seconds of its process (threads included) and CPU seconds of the
child processes it waited for (a boardctl started, a compiler, a browser's
driver at its module's end), then the test's id.  The biggest::

    awk -F'\\t' '{print $2 + $3, $4}' FOLDER/*.tsv | sort -g | tail
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

FOLDER = os.environ.get("BOARDCTL_CPU_PROBE", "")


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    wall, own, children = (
        time.perf_counter(),
        _cpu(resource.RUSAGE_SELF),
        _cpu(resource.RUSAGE_CHILDREN),
    )
    yield
    wall = time.perf_counter() - wall
    own = _cpu(resource.RUSAGE_SELF) - own
    children = _cpu(resource.RUSAGE_CHILDREN) - children
    Path(FOLDER).mkdir(parents=True, exist_ok=True)
    with (Path(FOLDER) / f"{os.getpid()}.tsv").open("a") as out:
        out.write(f"{wall:.3f}\t{own:.3f}\t{children:.3f}\t{item.nodeid}\n")
