# Timing for the firmware's benches in this directory, the same on
# MicroPython (ticks_us) and CPython.  Not flashed with the firmware: to
# `mpremote run` a bench on the Pico, copy this file to it first.

import time

ROUNDS = 2000


def _ticks():
    if hasattr(time, "ticks_us"):
        return time.ticks_us()
    return int(time.perf_counter() * 1000000)


def _elapsed(start):
    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(time.ticks_us(), start)
    return _ticks() - start


def per_call_us(function, *args):
    """Microseconds one call of function(*args) takes, over ROUNDS calls."""
    start = _ticks()
    for _ in range(ROUNDS):
        function(*args)
    return _elapsed(start) / ROUNDS
