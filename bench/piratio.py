"""How many times faster one core of this machine is than one of a Raspberry Pi 4.

The yardstick is the n-body simulation of the Computer Language Benchmarks
Game (five bodies, 5,000,000 steps of 0.01), because a published run of it on
a Pi 4 gives both a compiled and a Python figure:

    "Performance Analysis of Languages on Raspberry Pi", Chaitanya Mehta
    (chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages):
    Raspberry Pi 4 Model B, 4 GB, Cortex-A72 at 1.5 GHz (performance governor,
    no throttling): C 1.743 s, Python 158.263 s.

This script runs the same algorithm here, in C (``cc -O2``) and in Python,
on one core, and divides.  The published programs are not given, so each
ratio carries the difference between their code and ours: their C may be a
hand-vectorised version (which flatters the Pi) and their Python an older
interpreter than ours (which flatters this machine).  The two ratios
bracket the truth; the figure used for the Pi budget is their geometric
mean.  Timings are CPU time, so a busy machine changes them little.

Run: ``.venv/bin/python bench/piratio.py``
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PI4_STEPS = 5_000_000
PI4_C_SECONDS = 1.743
PI4_PYTHON_SECONDS = 158.263
PYTHON_STEPS = 500_000  # a tenth: the Python run takes seconds, not minutes

C_SOURCE = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define PI 3.141592653589793
#define SOLAR_MASS (4 * PI * PI)
#define DPY 365.24
typedef struct { double x, y, z, vx, vy, vz, m; } Body;
static Body b[5] = {
  {0, 0, 0, 0, 0, 0, SOLAR_MASS},
  {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
   1.66007664274403694e-03 * DPY, 7.69901118419740425e-03 * DPY,
   -6.90460016972063023e-05 * DPY, 9.54791938424326609e-04 * SOLAR_MASS},
  {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
   -2.76742510726862411e-03 * DPY, 4.99852801234917238e-03 * DPY,
   2.30417297573763929e-05 * DPY, 2.85885980666130812e-04 * SOLAR_MASS},
  {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
   2.96460137564761618e-03 * DPY, 2.37847173959480950e-03 * DPY,
   -2.96589568540237556e-05 * DPY, 4.36624404335156298e-05 * SOLAR_MASS},
  {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
   2.68067772490389322e-03 * DPY, 1.62824170038242295e-03 * DPY,
   -9.51592254519715870e-05 * DPY, 5.15138902046611451e-05 * SOLAR_MASS}};
int main(int argc, char **argv) {
  long steps = atol(argv[1]);
  for (long s = 0; s < steps; s++) {
    for (int i = 0; i < 5; i++)
      for (int j = i + 1; j < 5; j++) {
        double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
        double d2 = dx * dx + dy * dy + dz * dz;
        double mag = 0.01 / (d2 * sqrt(d2));
        b[i].vx -= dx * b[j].m * mag; b[i].vy -= dy * b[j].m * mag;
        b[i].vz -= dz * b[j].m * mag;
        b[j].vx += dx * b[i].m * mag; b[j].vy += dy * b[i].m * mag;
        b[j].vz += dz * b[i].m * mag;
      }
    for (int i = 0; i < 5; i++) {
      b[i].x += 0.01 * b[i].vx; b[i].y += 0.01 * b[i].vy; b[i].z += 0.01 * b[i].vz;
    }
  }
  printf("%.9f\n", b[0].x);
  return 0;
}
"""

SOLAR_MASS = 4 * math.pi * math.pi
DPY = 365.24
BODIES = [
    ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], SOLAR_MASS),
    (
        [4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01],
        [
            1.66007664274403694e-03 * DPY,
            7.69901118419740425e-03 * DPY,
            -6.90460016972063023e-05 * DPY,
        ],
        9.54791938424326609e-04 * SOLAR_MASS,
    ),
    (
        [8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01],
        [
            -2.76742510726862411e-03 * DPY,
            4.99852801234917238e-03 * DPY,
            2.30417297573763929e-05 * DPY,
        ],
        2.85885980666130812e-04 * SOLAR_MASS,
    ),
    (
        [1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01],
        [
            2.96460137564761618e-03 * DPY,
            2.37847173959480950e-03 * DPY,
            -2.96589568540237556e-05 * DPY,
        ],
        4.36624404335156298e-05 * SOLAR_MASS,
    ),
    (
        [1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01],
        [
            2.68067772490389322e-03 * DPY,
            1.62824170038242295e-03 * DPY,
            -9.51592254519715870e-05 * DPY,
        ],
        5.15138902046611451e-05 * SOLAR_MASS,
    ),
]


def nbody_python(steps: int) -> float:
    """CPU seconds for ``steps`` steps in Python (the Benchmarks Game's program #1's loop)."""
    bodies = [([*r], [*v], m) for r, v, m in BODIES]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    start = time.process_time()
    for _ in range(steps):
        for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = 0.01 * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, (vx, vy, vz), _m in bodies:
            r[0] += 0.01 * vx
            r[1] += 0.01 * vy
            r[2] += 0.01 * vz
    return time.process_time() - start


def nbody_c(steps: int) -> float | None:
    """CPU seconds for ``steps`` steps in C, or None without a C compiler."""
    with tempfile.TemporaryDirectory() as tmp:
        source, binary = Path(tmp) / "nbody.c", Path(tmp) / "nbody"
        source.write_text(C_SOURCE)
        try:
            subprocess.run(
                ["cc", "-O2", "-o", str(binary), str(source), "-lm"],
                check=True,
                capture_output=True,
            )
        except (OSError, subprocess.CalledProcessError):
            return None
        before = os.times()
        subprocess.run([str(binary), str(steps)], check=True, capture_output=True)
        after = os.times()
    return (
        after.children_user - before.children_user + after.children_system - before.children_system
    )


def measure(verbose: bool = True) -> float:
    """This machine's speed over a Pi 4's, per core (see the module docstring)."""
    os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    python = nbody_python(PYTHON_STEPS) * PI4_STEPS / PYTHON_STEPS
    ratios = [PI4_PYTHON_SECONDS / python]
    compiled = nbody_c(PI4_STEPS)
    if compiled is not None:
        ratios.append(PI4_C_SECONDS / compiled)
    ratio = math.exp(sum(map(math.log, ratios)) / len(ratios))
    if verbose:
        print(f"n-body, {PI4_STEPS:,} steps, CPU seconds (Pi 4 figures published, see docstring):")
        if compiled is not None:
            print(
                f"  C       here {compiled:7.2f} s   Pi 4 {PI4_C_SECONDS:7.2f} s"
                f"   ratio {PI4_C_SECONDS / compiled:.2f}"
            )
        else:
            print("  C       no C compiler here: the Python ratio alone")
        print(
            f"  Python  here {python:7.2f} s   Pi 4 {PI4_PYTHON_SECONDS:7.2f} s"
            f"   ratio {PI4_PYTHON_SECONDS / python:.2f}   (Python {sys.version.split()[0]})"
        )
        print(f"  this core / a Pi 4 core: {ratio:.2f} (geometric mean)")
    return ratio


if __name__ == "__main__":
    measure()
