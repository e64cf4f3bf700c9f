"""The engine's compiled search core; everything else is in pyproject.toml.

The extension is optional: without a C compiler and Python's headers the
install still succeeds and the engine runs its Python search instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "boardctl.engine._core",
            ["boardctl/engine/_core.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
            optional=True,
        )
    ]
)
