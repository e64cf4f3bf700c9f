"""Fakes of MicroPython's ``machine``, ``rp2`` and ``micropython`` modules.

``tests/hw/test_firmware.py`` loads fresh copies of them into
``sys.modules`` for each test, so that ``firmware/hal.py`` (the only firmware
module that imports them) runs under CPython against a simulated board.
"""
