"""Loading the firmware's modules (firmware/) and its checks (this directory)
into CPython on the host, for the tests and benches that drive the real
firmware code.  Not for the Pico.

The firmware's modules import each other by plain name (``import protocol``),
as on the Pico.  Loaded by path, those plain names stand in ``sys.modules``
only while they load and are put back afterwards, so the host's own modules
of the same name (``boardctl.hw.protocol``, and anything else called
``protocol``) are never shadowed.
"""

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"


def _path(name):
    path = FIRMWARE / (name + ".py")
    return path if path.exists() else HERE / (name + ".py")


def load(names, prefix="firmware_"):
    """The modules ``names`` of the firmware or of this directory, in that
    order (a module's imports first), as attributes of a namespace; each is
    known to Python as ``prefix + name``."""
    saved = {name: sys.modules.get(name) for name in names}
    modules = {}
    try:
        for name in names:
            spec = importlib.util.spec_from_file_location(prefix + name, _path(name))
            module = importlib.util.module_from_spec(spec)
            modules[name] = sys.modules[name] = module
            spec.loader.exec_module(module)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return SimpleNamespace(**modules)
