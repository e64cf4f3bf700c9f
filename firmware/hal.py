# The thin hardware layer: the only module that imports machine, rp2 and
# micropython, and the only one that touches the USB serial port and the
# clock.  Everything else gets these objects passed in, so the logic runs
# under CPython with fakes (tests/hw/fakes/) and under the unix port.

import array
import gc
import select
import sys
import time

import machine
import micropython
import rp2

_SIO_GPIO_IN = 0xD0000004  # RP2040 SIO register: the level of every GPIO, one bit each


# The free heap in bytes, for the firmware's counters: MicroPython's
# gc.mem_free; None where there is none (CPython with the tests' fakes).
heap_free = getattr(gc, "mem_free", None)


def collect():
    """Collect the garbage now (what building the firmware left: some 70-100 KB)."""
    gc.collect()


def disable_ctrl_c():
    """Byte 0x03 from the host becomes data instead of KeyboardInterrupt."""
    micropython.kbd_intr(-1)


def enable_ctrl_c():
    micropython.kbd_intr(3)


def print_exception(error):
    sys.print_exception(error)


def reset():
    machine.mem32[_WATCHDOG_MARK] = _KEPT  # a reset on purpose, not a hang
    machine.reset()


# The RP2040's watchdog (datasheet 4.7): its control register (through the
# atomic-clear alias, +0x3000), and two of its scratch registers, which keep
# their value through every reset but power-on: the count of resets the
# watchdog made, and a mark that says whether this firmware had it running
# (_ARMED) or the count is ours (_KEPT); 0 after power-on.
_WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000
_WATCHDOG_ENABLE = 1 << 30
_WATCHDOG_COUNT = 0x4005800C  # SCRATCH0
_WATCHDOG_MARK = 0x40058010  # SCRATCH1
_ARMED = 0x0B0A
_KEPT = 0x0B0B
_WDT_RESET = getattr(machine, "WDT_RESET", 3)


class Watchdog:
    """The chip's watchdog, running from construction: feed() at least every
    timeout_ms, or the chip resets.  stop() hands the chip back (the REPL,
    a crash's pause) where MicroPython's WDT has no way to."""

    def __init__(self, timeout_ms):
        machine.mem32[_WATCHDOG_MARK] = _ARMED
        self._wdt = machine.WDT(timeout=timeout_ms)
        self.feed = self._wdt.feed  # made once: a bound method is an allocation

    def stop(self):
        machine.mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE
        machine.mem32[_WATCHDOG_MARK] = _KEPT


def watchdog_resets():
    """How many times the watchdog reset the chip since power-on, this boot
    included.  machine.reset() also resets through the watchdog, and a soft
    reset keeps the last reset's cause: only a reset while this firmware had
    the watchdog running counts, and once."""
    mem32 = machine.mem32
    mark = mem32[_WATCHDOG_MARK]
    count = mem32[_WATCHDOG_COUNT] & 0xFFFF if mark in (_ARMED, _KEPT) else 0
    if mark == _ARMED and machine.reset_cause() == _WDT_RESET:
        count += 1
    mem32[_WATCHDOG_COUNT] = count
    mem32[_WATCHDOG_MARK] = _KEPT
    return count


EPOCH_FILE = "epoch"  # this board's boots, counted in its flash (a decimal)
_EPOCH_WRAP = 1 << 16  # as the protocol carries them: 4 hex digits


def next_epoch(path=EPOCH_FILE):
    """This boot's number: one more than the last boot's, kept in the flash
    so that it goes on counting through every reset and power cut.  The host
    orders the board's snapshots by it across restarts.  A flash that
    cannot be written (full, worn) keeps the last number: the host then
    takes the board's word only when it answers the host's own HELLO."""
    try:
        with open(path) as file:
            epoch = (int(file.read()) + 1) % _EPOCH_WRAP
    except (OSError, ValueError):  # the first boot, or a file gone bad
        epoch = 1
    try:
        with open(path, "w") as file:
            file.write(str(epoch))
    except OSError:
        pass
    return epoch


def unique_id():
    """The flash chip's unique id as upper-case hex (a HELLO value)."""
    return "".join([f"{b:02X}" for b in machine.unique_id()])


class Clock:
    """MicroPython's wrapping tick counters."""

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_add(self, ticks, delta):
        return time.ticks_add(ticks, delta)

    def ticks_diff(self, end, start):
        return time.ticks_diff(end, start)

    def sleep_us(self, us):
        time.sleep_us(us)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


class MatrixPort:
    """Ranks driven high one at a time, files read with pull-downs.

    read_row(rank) returns bit f set when the square on file f is closed.
    When the file pins are consecutive GPIOs, all are read at once from the
    SIO input register."""

    def __init__(self, rank_pins, file_pins, settle_us):
        self._ranks = [machine.Pin(n, machine.Pin.OUT, value=0) for n in rank_pins]
        self._files = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_DOWN) for n in file_pins]
        self._settle_us = settle_us
        first = file_pins[0]
        consecutive = list(file_pins) == list(range(first, first + len(file_pins)))
        self._shift = first if consecutive else None
        self._mask = (1 << len(file_pins)) - 1
        if consecutive and _read_matrix is not None:
            # For _read_matrix: rank count, file shift, file mask, settle
            # time, then each rank's GPIO bit.  Only such a port offers
            # read_rows; scanner.MatrixReader reads the others rank by rank.
            self._plan = array.array(
                "I", [len(rank_pins), first, self._mask, settle_us] + [1 << n for n in rank_pins]
            )
            self.read_rows = self._read_rows

    def _read_rows(self, rows):
        """Every rank into rows (an array of "I"), at machine speed: a rank
        read through Pin objects costs some 170 us of Python on the Pico,
        which made a scan of the 8 x 10 board miss its 2.5 ms period."""
        _read_matrix(self._plan, rows)

    def read_row(self, rank):
        pin = self._ranks[rank]
        pin.value(1)
        time.sleep_us(self._settle_us)
        if self._shift is not None:
            bits = (machine.mem32[_SIO_GPIO_IN] >> self._shift) & self._mask
        else:
            bits = 0
            for f, file_pin in enumerate(self._files):
                if file_pin.value():
                    bits |= 1 << f
        pin.value(0)
        return bits


_SIO_GPIO_OUT_SET = 0xD0000014
_SIO_GPIO_OUT_CLR = 0xD0000018
_TIMERAWL = 0x40054028  # the microsecond timer's low word

if sys.platform == "rp2":  # the Pico: the compiler knows micropython.viper

    @micropython.viper
    def _read_matrix(plan, rows):
        # Drive each rank, wait for it to settle, read the files, release it.
        p = ptr32(plan)  # noqa: F821
        out = ptr32(rows)  # noqa: F821
        gpio_in = ptr32(_SIO_GPIO_IN)  # noqa: F821
        out_set = ptr32(_SIO_GPIO_OUT_SET)  # noqa: F821
        out_clr = ptr32(_SIO_GPIO_OUT_CLR)  # noqa: F821
        timer = ptr32(_TIMERAWL)  # noqa: F821
        shift = p[1]
        mask = p[2]
        settle = p[3]
        for rank in range(p[0]):
            bit = p[4 + rank]
            out_set[0] = bit
            start = timer[0]
            while timer[0] - start < settle:
                pass
            out[rank] = (gpio_in[0] >> shift) & mask
            out_clr[0] = bit
else:  # CPython with the tests' fakes: read_row, pin by pin
    _read_matrix = None


class ShiftRegPort:
    """A chain of 74HC165 on SPI: pulse SH/LD low to latch, then clock the
    bytes out (SPI mode 0: QH is sampled on the same rising edge that
    shifts the next bit, before the 74HC165's propagation delay)."""

    def __init__(self, spi_id, sck, mosi, miso, load, baudrate, nbytes):
        self._spi = machine.SPI(
            spi_id,
            baudrate=baudrate,
            polarity=0,
            phase=0,
            bits=8,
            firstbit=machine.SPI.MSB,
            sck=machine.Pin(sck),
            mosi=machine.Pin(mosi),
            miso=machine.Pin(miso),
        )
        self._load = machine.Pin(load, machine.Pin.OUT, value=1)
        self._buf = bytearray(nbytes)

    def read(self):
        self._load.value(0)
        self._load.value(1)
        self._spi.readinto(self._buf)
        return self._buf


# The standard WS2812 program: 800 kHz, one bit every 10 PIO cycles.  The
# names inside are the PIO assembler's; rp2.asm_pio provides them.
@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24
)
def _ws2812_program():
    wrap_target()  # noqa: F821
    label("bitloop")  # noqa: F821
    out(x, 1).side(0)[2]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[1]  # noqa: F821
    jmp("bitloop").side(1)[4]  # noqa: F821
    label("do_zero")  # noqa: F821
    nop().side(0)[4]  # noqa: F821
    wrap()  # noqa: F821


# The PIO blocks' TX FIFO of state machine 0 (each next machine's is 4 bytes on),
# and the DMA request line of PIO n's state machine m (8 n + m).
_PIO_TXF = (0x50200010, 0x50300010)
WS2812_LED_US = 30  # 24 bits of 1.25 us: one LED's word on the line
WS2812_LATCH_US = 300  # low this long ends a frame (WS2812B-V5: 280 us)


class Ws2812Pio:
    """write(words) starts one 24-bit GRB word per LED on its way to the PIO
    and returns: a DMA channel feeds the state machine's FIFO at the line's
    pace, so nothing the CPU does (serving USB, a collection) can starve the
    line in mid-frame, which made the LEDs latch half a frame and show its
    rest on the first LEDs.  ready() is False until that frame and its latch
    are over; the words must not change before."""

    def __init__(self, pin, sm_id):
        self._sm = rp2.StateMachine(
            sm_id, _ws2812_program, freq=8000000, sideset_base=machine.Pin(pin)
        )
        self._sm.active(1)
        pio, sm = divmod(sm_id, 4)
        self._dma = rp2.DMA()
        ctrl = self._dma.pack_ctrl(inc_write=False, treq_sel=8 * pio + sm)
        self._dma.config(write=_PIO_TXF[pio] + 4 * sm, ctrl=ctrl)
        self._free_at = time.ticks_us()

    def write(self, words):
        count = len(words)
        self._dma.config(read=words, count=count, trigger=True)
        self._free_at = time.ticks_add(time.ticks_us(), count * WS2812_LED_US + WS2812_LATCH_US)

    def ready(self):
        return time.ticks_diff(self._free_at, time.ticks_us()) <= 0


class StatusLed:
    def __init__(self, pin):
        self._pin = machine.Pin(pin, machine.Pin.OUT, value=0)

    def set(self, on):
        self._pin.value(1 if on else 0)


class UsbSerial:
    """The USB serial port (also the REPL), never blocking for long.

    readinto(buf, count, limit, stop, tick) reads the bytes waiting, wait(ms)
    waits for some; write(line)
    returns False, writing nothing, when the port has no room.  A write the
    port has some room for can still wait for MicroPython's USB TX timeout
    if a host holds the port open without reading."""

    def __init__(self, stdin=None, stdout=None):
        self._in = stdin if stdin is not None else sys.stdin.buffer
        self._out = stdout if stdout is not None else sys.stdout.buffer
        self._one = bytearray(1)
        # Bound methods made once: taking one off an object is an allocation.
        self._readinto = self._in.readinto
        readable = select.poll()
        readable.register(self._in, select.POLLIN)
        writable = select.poll()
        writable.register(self._out, select.POLLOUT)
        # MicroPython's ipoll reuses its result where poll makes a new list;
        # CPython (the tests) has only poll.
        self._readable = getattr(readable, "ipoll", readable.poll)
        self._writable = getattr(writable, "ipoll", writable.poll)

    @micropython.native  # some 25 us a byte instead of 34
    def readinto(self, buf, count, limit, stop, tick=None):
        """Read the bytes waiting into buf after its first `count` bytes,
        and return the count it holds then: at most len(buf), and once
        `limit` are there only up to the end of the line (LF); up to and
        including the byte `stop`, what follows it staying unread (for the
        REPL).  tick(), if given, is called every 16 bytes (the firmware
        scans there when a scan is due).  It allocates nothing."""
        # The port cannot say how many bytes wait, and a read of more than
        # are there blocks: byte by byte, asking before each (some 25 us a
        # byte on the Pico, most of it in the port's own calls).
        readable = self._readable
        readinto = self._readinto
        one = self._one
        size = len(buf)
        while count < size:
            for _ in readable(0):
                break
            else:
                break
            readinto(one)
            byte = one[0]
            buf[count] = byte
            count += 1
            if byte == stop or (byte == 0x0A and count >= limit):
                break
            if tick is not None and not count & 15:  # 0.4 ms of reading
                tick()
        return count

    def wait(self, ms):
        """True once bytes wait, False if none came within ms; the chip
        sleeps meanwhile."""
        for _ in self._readable(ms):
            return True
        return False

    def write(self, line):
        if not _ready(self._writable):
            return False
        self._out.write(line)
        return True


def _ready(poll):
    """True if the polled stream is ready now."""
    for _ in poll(0):
        return True
    return False
