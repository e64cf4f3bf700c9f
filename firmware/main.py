# Entry point on the Pico: MicroPython runs main.py at boot.
#
# Builds the hardware objects from pins.py, turns off Ctrl-C (the USB
# serial port is the REPL and the protocol's port at once) and runs the
# scan loop until the host sends byte 0x03, which the protocol never uses:
# then it leaves the LEDs dark, turns Ctrl-C back on and returns to the
# REPL, so that `mpremote` and a serial terminal can take over.

import app
import hal
import link
import pins
import protocol
import scanner
import ws2812


def build(now, serial=None, epoch=0):
    """The Firmware for the board pins.py describes (serial: the USB port,
    or a stand-in), in boot number `epoch`."""
    if pins.BOARD is not None:
        return build_named(now, serial, epoch)
    shape = protocol.Shape(pins.FILES, pins.RANKS, pins.LED_COUNT)
    if pins.SENSOR == "matrix":
        port = hal.MatrixPort(pins.MATRIX_RANK_PINS, pins.MATRIX_FILE_PINS, pins.MATRIX_SETTLE_US)
        reader = scanner.MatrixReader(port, pins.RANKS)
    elif pins.SENSOR == "shiftreg":
        port = shiftreg_port(pins, (shape.squares + 7) // 8)
        reader = scanner.ShiftRegReader(port, pins.FILES, pins.RANKS)
    else:
        raise ValueError("pins.SENSOR must be 'matrix' or 'shiftreg'")
    scan = scanner.Scanner(
        reader, pins.FILES, pins.RANKS, app.DEBOUNCE_READS, pins.SENSOR_ACTIVE_LOW
    )
    strip = ws2812.LedStrip(
        hal.Ws2812Pio(pins.LED_PIN, pins.LED_PIO_SM),
        pins.LED_COUNT,
        pins.LED_WIDTH,
        pins.LED_SERPENTINE,
        pins.LED_MAX_LEVEL,
        pins.LED_ALONG,
        pins.LED_FIRST,
        pins.LED_COLOUR_ORDER,
    )
    return assemble(shape, scan, strip, now, serial, epoch)


def build_named(now, serial=None, epoch=0):
    """The Firmware for a board that is not files x ranks (pins.BOARD),
    from the module generated from its pinout (hexboard.py)."""
    import hexboard as board

    if board.BOARD != pins.BOARD:
        raise ValueError("pins.BOARD names a board hexboard.py does not describe")
    shape = protocol.Shape(leds=board.LED_COUNT, board=board.BOARD)
    _port, reader, files, ranks, cells = sensors_named(board, shape)
    scan = scanner.Scanner(reader, files, ranks, app.DEBOUNCE_READS, board.SENSOR_ACTIVE_LOW, cells)
    strip = ws2812.LedStrip(
        hal.Ws2812Pio(board.LED_PIN, pins.LED_PIO_SM),
        board.LED_COUNT,
        board.LED_COUNT,
        max_level=board.LED_MAX_LEVEL,
        order=board.LED_COLOUR_ORDER,
        positions=board.LED_CHAIN,
    )
    return assemble(shape, scan, strip, now, serial, epoch)


def assemble(shape, scan, strip, now, serial=None, epoch=0):
    """The Firmware around a board's scanner and LED strip, on the USB port
    (serial: or a stand-in)."""
    info = [("FW", app.FIRMWARE_VERSION), ("ID", hal.unique_id())]
    device = link.DeviceLink(shape, info, now, epoch)
    if serial is None:
        serial = hal.UsbSerial()
    return app.Firmware(
        scan,
        strip,
        serial,
        device,
        hal.StatusLed(pins.STATUS_LED_PIN),
        hal.heap_free,
        hal.collect,
    )


def shiftreg_port(source, chips):
    """The 74HC165 chain of `chips` chips on the pins that `source` (pins.py,
    or a generated board module) names."""
    return hal.ShiftRegPort(
        source.SR_SPI,
        source.SR_SCK_PIN,
        source.SR_MOSI_PIN,
        source.SR_MISO_PIN,
        source.SR_LOAD_PIN,
        source.SR_BAUDRATE,
        chips,
    )


def sensors_named(board, shape, port=None):
    """(port, reader, row width, rows, cells) for a generated board module;
    `port` replaces the hardware (tests)."""
    if board.SENSOR == "matrix":
        width = len(board.MATRIX_COLUMN_PINS)
        rows = len(board.MATRIX_ROW_PINS)
        if port is None:
            port = hal.MatrixPort(
                board.MATRIX_ROW_PINS, board.MATRIX_COLUMN_PINS, board.MATRIX_SETTLE_US
            )
        return port, scanner.MatrixReader(port, rows), width, rows, board.MATRIX_CELLS
    if board.SENSOR == "shiftreg":
        # One row per chip; the chain's bit c is cell c, the inputs past the last cell unused.
        if port is None:
            port = shiftreg_port(board, board.SR_CHIPS)
        inputs = 8 * board.SR_CHIPS
        cells = tuple(range(shape.squares)) + (-1,) * (inputs - shape.squares)
        return port, scanner.ShiftRegReader(port, 8, board.SR_CHIPS), 8, board.SR_CHIPS, cells
    raise ValueError("SENSOR must be 'matrix' or 'shiftreg'")


def loop(firmware, clock, steps=None, watchdog=None):
    """Step every SCAN_PERIOD_US until the REPL escape (or `steps` steps),
    feeding the watchdog at every step.  The firmware sees milliseconds
    going on from its last step, counting round at link.TIME_WRAP (6.2
    days: a small int, unlike MicroPython's ticks_ms, which wraps at 2**30
    and must be diffed)."""
    now = firmware.now
    last_ms = clock.ticks_ms()
    due = clock.ticks_us()
    firmware.clock = clock
    while steps is None or steps > 0:
        if steps is not None:
            steps -= 1
        ms = clock.ticks_ms()
        now = (now + clock.ticks_diff(ms, last_ms)) & (link.TIME_WRAP - 1)
        last_ms = ms
        if watchdog is not None:
            watchdog.feed()
        # The next scan: a long read in the step makes it itself, on time.
        firmware.due = clock.ticks_add(due, app.SCAN_PERIOD_US)
        if not firmware.step(now):
            return False
        done = clock.ticks_us()
        spent = clock.ticks_diff(done, due)  # from when the scan was due to the step's end
        if spent > firmware.step_max:
            firmware.step_max = spent
        due = firmware.due
        wait = clock.ticks_diff(due, done)
        if wait > 0:
            # Sleeps, or reads the host's bytes as they come (scanning on time
            # if a line runs past the next scan).
            due = firmware.idle(clock, due)
        else:
            firmware.overruns += 1  # late: count it and do not try to catch up
            due = clock.ticks_us()
    return True


RESTART_DELAY_MS = 3000


def run(serial=None):
    clock = hal.Clock()
    resets = hal.watchdog_resets()  # before the watchdog runs again
    firmware = build(0, serial, hal.next_epoch())
    firmware.watchdog_resets = resets
    # Play allocates nothing, so the garbage of the imports and of building
    # would stay until some rare line filled the heap, and the free heap
    # reported after start (67-96 KB) said nothing of what play has (some
    # 160 KB): collected now, before the first scan, it says.
    hal.collect()
    hal.disable_ctrl_c()
    # From here a loop that stops stepping (a hang in MicroPython, a driver
    # that never returns) resets the chip, and the next boot counts it.
    watchdog = hal.Watchdog(app.WATCHDOG_MS)
    try:
        loop(firmware, clock, watchdog=watchdog)
    except Exception as error:  # a bug: show it, then start afresh
        watchdog.stop()  # the pause below is no hang, nor is the REPL after it
        firmware.stop()
        hal.enable_ctrl_c()  # Ctrl-C in the delay keeps the REPL
        hal.print_exception(error)
        print(f"boardctl firmware crashed: reset in {RESTART_DELAY_MS} ms")
        clock.sleep_ms(RESTART_DELAY_MS)
        hal.reset()
    watchdog.stop()  # the REPL may sit idle for as long as the developer likes
    firmware.stop()
    hal.enable_ctrl_c()
    print("boardctl firmware stopped: REPL")


if __name__ == "__main__":
    run()
