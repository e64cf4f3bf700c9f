"""The tuning scripts' worker pools shut down whatever signal handlers the
parent holds.  A test process that had initialised SDL held SDL's SIGTERM
handler; the pool's forked workers inherited it, ignored terminate(), and the
pool's shutdown waited for ever (a whole test run hung)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

CHILD = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {scripts!r})
    import texel_data

    def sigterm_handled(_):
        # Caught (SigCgt) or ignored (SigIgn) at the C level, where SDL sets it.
        masks = dict(line.split(":") for line in open("/proc/self/status"))
        bit = 1 << (signal.SIGTERM - 1)
        return bool((int(masks["SigCgt"], 16) | int(masks["SigIgn"], 16)) & bit)

    if __name__ == "__main__":
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        import pygame
        pygame.init()
        print("parent", sigterm_handled(None))
        with texel_data.worker_pool(2) as pool:
            print("workers", *pool.map(sigterm_handled, range(4)))
        print("shut down")
""")


def test_pool_workers_do_not_inherit_sdls_sigterm_handler(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(scripts=str(SCRIPTS)))
    # A pool whose workers ignore SIGTERM may never end: the timeout turns
    # that into a failure here instead of a stalled run.
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "parent True"  # SDL did install its handler: the case is real
    assert lines[1:] == ["workers False False False False", "shut down"]
