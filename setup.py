"""The engine's compiled search core; everything else is in pyproject.toml.

The extension is optional: without a C compiler and Python's headers the
install still succeeds and the engine runs its Python search instead.
Its sources are every .c file in boardctl/engine/csrc/ (core.h says which
holds what); the headers are named so that a change to one rebuilds it.
"""

from pathlib import Path

from setuptools import Extension, setup

CSRC = Path("boardctl/engine/csrc")

setup(
    ext_modules=[
        Extension(
            "boardctl.engine._core",
            sorted(str(path) for path in CSRC.glob("*.c")),
            depends=sorted(str(path) for path in CSRC.glob("*.h")),
            # Hidden: the functions its files share stay inside the module, as
            # they did when it was one file of static functions; only
            # PyInit__core is exported.
            # A plain char unsigned on every machine, as it is on the Pi (aarch64):
            # the tests that run here run the Pi's arithmetic.
            extra_compile_args=[
                "-O2",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-fvisibility=hidden",
                "-funsigned-char",
            ],
            optional=True,
        )
    ]
)
