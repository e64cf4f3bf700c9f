# The protocol's bytes, worked on in place: checking a line, reading its
# hex fields and writing a line's number and checksum, inside buffers made
# once.  The link reads and writes its frequent lines (ACK, SNAP, LED, LEDS,
# PAL, STAT) with these, so that a step allocates nothing: on the Pico every
# allocation brings the next garbage collection closer, and a collection
# stops the scan for milliseconds.  protocol.py stays the reference codec;
# the link falls back on it for every other line.
#
# On MicroPython (the Pico and the unix port) the loops are viper functions,
# machine code working on the buffers' bytes; under CPython (the host's
# tests) the same functions in plain Python.  check_logic.py and
# check_vectors.py run under both, so both are checked.

import array
import sys

from protocol_constants import HEX_DIGITS

_HEX = HEX_DIGITS.encode()
# What cut() found: a frame, a frame cut short by "$", one too long, junk.
CUT_FRAME = 1
CUT_TRUNC = 2
CUT_LONG = 3
CUT_NOISE = 4


def _crc_table():
    """CRC-32's byte table (zlib's polynomial), one 32-bit word per entry:
    made once at import, in an array so that no entry is a heap integer."""
    table = array.array("I", [0] * 256)
    for byte in range(256):
        high = 0  # 16-bit halves: on the Pico an int of 31 bits is a heap object
        low = byte
        for _ in range(8):
            if low & 1:
                low = ((low >> 1) | ((high & 1) << 15)) ^ 0x8320
                high = (high >> 1) ^ 0xEDB8
            else:
                low = (low >> 1) | ((high & 1) << 15)
                high >>= 1
        table[byte] = (high << 16) | low
    return table


CRC_TABLE = _crc_table()


if sys.implementation.name == "micropython":
    import micropython

    @micropython.viper
    def _crc_hex(buf, start: int, end: int, at: int, write: int) -> bool:
        # One function for both, as a viper function returning the CRC to
        # another would hand it over as a heap integer.  The register is
        # kept to 32 bits by masks, so that a 64-bit machine word (the unix
        # port) computes what the Pico's 32 bits do.
        p = ptr8(buf)  # noqa: F821
        table = ptr32(CRC_TABLE)  # noqa: F821
        digits = ptr8(_HEX)  # noqa: F821
        crc = 0xFFFF  # all ones, built at run time: as a constant,
        crc = (crc << 16) | crc  # 0xFFFFFFFF would be a heap integer on the Pico
        i = start
        while i < end:
            crc = ((crc >> 8) & 0xFFFFFF) ^ table[(crc ^ p[i]) & 0xFF]
            i += 1
        crc = crc ^ -1
        shift = 28
        i = at
        while shift >= 0:
            digit = digits[(crc >> shift) & 15]
            if write:
                p[i] = digit
            elif p[i] != digit:
                return False
            shift -= 4
            i += 1
        return True

    def crc_matches(buf, start, end, at):
        """True if the CRC-32 of buf[start:end] is the 8 upper-case hex
        digits at buf[at:at + 8]."""
        return _crc_hex(buf, start, end, at, 0)

    def put_crc(buf, start, end, at):
        """Write the CRC-32 of buf[start:end] as 8 upper-case hex digits at buf[at]."""
        _crc_hex(buf, start, end, at, 1)

    @micropython.viper
    def frame_seq(buf, size: int) -> int:
        """The number of the frame in buf[0:size] ("$" HH " " ... "*" and 8
        hex digits, all printable) if its checksum holds, else -1: the
        checks of a line in one call, as each call costs the Pico some
        10 us."""
        p = ptr8(buf)  # noqa: F821
        star = size - 9
        if size < 13 or p[0] != 0x24 or p[3] != 0x20 or p[star] != 0x2A:
            return -1
        i = 0
        while i < size:
            c = p[i]
            if c < 0x20 or c > 0x7E:
                return -1
            i += 1
        if not _crc_hex(buf, 1, star, star + 1, 0):
            return -1
        return int(hex_value(buf, 1, 2))

    @micropython.viper
    def colours(buf, at: int, count: int, out, size: int) -> bool:
        """`count` colours " RRGGBB" from buf[at] into out[0:count] as
        words 0xRRGGBB, and 0 in out[count:size]; False if one is not."""
        p = ptr8(buf)  # noqa: F821
        o = ptr32(out)  # noqa: F821
        i = 0
        while i < size:
            o[i] = 0
            if i < count:
                if p[at] != 0x20:
                    return False
                value = int(hex_value(buf, at + 1, 6))
                if value < 0:
                    return False
                o[i] = value
                at += 7
            i += 1
        return True

    @micropython.viper
    def renumber(line, size: int, seq: int):
        """Give the line in line[0:size] ("$" seq ... "*" checksum CR LF)
        the number seq and its checksum again, in place."""
        p = ptr8(line)  # noqa: F821
        digits = ptr8(_HEX)  # noqa: F821
        p[1] = digits[(seq >> 4) & 15]
        p[2] = digits[seq & 15]
        star = size - 11
        _crc_hex(line, 1, star, star + 1, 1)

    @micropython.viper
    def put_bits(out, base: int, bits: int, mask: int):
        """Bits base, base + 1, ... of the bit string out (bit n is bit n % 8
        of byte n // 8) set to bits 0, 1, ... of `bits`, as far as `mask`
        (some low bits set) reaches."""
        o = ptr8(out)  # noqa: F821
        j = 0
        while (mask >> j) & 1:
            n = base + j
            if (bits >> j) & 1:
                o[n >> 3] = o[n >> 3] | (1 << (n & 7))
            else:
                o[n >> 3] = o[n >> 3] & (0xFF ^ (1 << (n & 7)))
            j += 1

    @micropython.viper
    def put_bits_hex(bits, digits: int, line, at: int):
        """The bit string `bits` (as put_bits writes it) as `digits` upper-case
        hex digits at line[at], the most significant first: a SNAP's board."""
        b = ptr8(bits)  # noqa: F821
        p = ptr8(line)  # noqa: F821
        hexdigits = ptr8(_HEX)  # noqa: F821
        k = 0
        while k < digits:
            p[at + digits - 1 - k] = hexdigits[(b[k >> 1] >> ((k & 1) << 2)) & 15]
            k += 1

    @micropython.viper
    def cut(data, start: int, count: int, line, state) -> int:
        """Cut data[start:count] into frames, up to the first thing to
        report.  The frame so far is in line; state (array "i") holds its
        size plus one (0 outside a frame), whether it overflowed line,
        whether junk came outside a frame.  Returns the bytes gone through
        (at most 0xFFFF: count - start may be no more), plus CUT_* << 16
        and, for CUT_FRAME, the frame's size << 19 (line[0:size])."""
        d = ptr8(data)  # noqa: F821
        p = ptr8(line)  # noqa: F821
        st = ptr32(state)  # noqa: F821
        size = int(st[0]) - 1  # kept plus one: ptr32 reads unsigned
        room = int(len(line))
        i = start
        while i < count:
            c = d[i]
            i += 1
            if c == 0x24 or c == 0x0A:
                event = 0
                framed = 0
                if size >= 0:
                    if c == 0x0A and size > 0 and p[size - 1] == 0x0D:
                        size -= 1
                    if st[1] or size >= room:
                        event = 3  # CUT_LONG
                    elif c == 0x24:
                        event = 2  # CUT_TRUNC
                    else:
                        event = 1  # CUT_FRAME
                        framed = size
                elif st[2]:
                    event = 4  # CUT_NOISE
                if c == 0x24:
                    p[0] = 0x24
                    size = 1
                else:
                    size = -1
                st[1] = 0
                st[2] = 0
                if event:
                    st[0] = size + 1
                    return (i - start) | (event << 16) | (framed << 19)
            elif size >= 0:
                if size < room:
                    p[size] = c
                    size += 1
                else:
                    st[1] = 1
            elif c != 0x20 and c != 0x09 and c != 0x0D:
                st[2] = 1
        st[0] = size + 1
        return i - start

    @micropython.viper
    def hex_value(buf, at: int, digits: int) -> int:
        """The value of `digits` (at most 7) upper-case hex digits at buf[at], or -1."""
        p = ptr8(buf)  # noqa: F821
        value = 0
        i = at
        while i < at + digits:
            c = p[i]
            if c >= 0x30 and c <= 0x39:
                value = (value << 4) | (c - 0x30)
            elif c >= 0x41 and c <= 0x46:
                value = (value << 4) | (c - 0x37)
            else:
                return -1
            i += 1
        return value

    @micropython.viper
    def put_hex(buf, at: int, value: int, digits: int):
        """Write `value` as `digits` upper-case hex digits at buf[at]."""
        p = ptr8(buf)  # noqa: F821
        hexdigits = ptr8(_HEX)  # noqa: F821
        i = at + digits - 1
        while i >= at:
            p[i] = hexdigits[value & 15]
            value >>= 4
            i -= 1

    @micropython.viper
    def nibbles(buf, at: int, count: int, out) -> bool:
        """The values of `count` upper-case hex digits at buf[at], one a
        byte, into out[0:count]; False (out part written) if one is not."""
        p = ptr8(buf)  # noqa: F821
        o = ptr8(out)  # noqa: F821
        i = 0
        while i < count:
            c = p[at + i]
            if c >= 0x30 and c <= 0x39:
                o[i] = c - 0x30
            elif c >= 0x41 and c <= 0x46:
                o[i] = c - 0x37
            else:
                return False
            i += 1
        return True

    @micropython.viper
    def sparse(buf, at: int, count: int, out, size: int) -> bool:
        """A LEDS line's `count` lit LEDs, three hex digits each from
        buf[at] (two of the LED's index, one of its palette index), into
        out[0:size], 0 for the LEDs not given; False (out part written)
        unless each index is above the last and below size and each
        palette index is not 0."""
        p = ptr8(buf)  # noqa: F821
        o = ptr8(out)  # noqa: F821
        i = 0
        while i < size:
            o[i] = 0
            i += 1
        last = -1
        end = at + 3 * count
        while at < end:
            # The three digits read here: a call to hex_value would cost
            # the Pico some 10 us a lit LED.
            value = 0
            i = at
            while i < at + 3:
                c = p[i]
                if c >= 0x30 and c <= 0x39:
                    value = (value << 4) | (c - 0x30)
                elif c >= 0x41 and c <= 0x46:
                    value = (value << 4) | (c - 0x37)
                else:
                    return False
                i += 1
            led = value >> 4
            if led <= last or led >= size or not (value & 15):
                return False
            o[led] = value & 15
            last = led
            at += 3
        return True

    @micropython.viper
    def same(buf, at: int, pattern, size: int) -> bool:
        """True if buf[at:at + size] equals pattern[0:size]."""
        p = ptr8(buf)  # noqa: F821
        q = ptr8(pattern)  # noqa: F821
        i = 0
        while i < size:
            if p[at + i] != q[i]:
                return False
            i += 1
        return True

    @micropython.viper
    def copy(src, start: int, size: int, dst, at: int):
        """dst[at:at + size] = src[start:start + size], without a slice."""
        s = ptr8(src)  # noqa: F821
        d = ptr8(dst)  # noqa: F821
        i = 0
        while i < size:
            d[at + i] = s[start + i]
            i += 1

else:  # CPython: the same, in Python

    def _printable(buf, size):
        return all(0x20 <= c <= 0x7E for c in buf[:size])

    def _crc(buf, start, end):
        crc = 0xFFFFFFFF
        for c in buf[start:end]:
            crc = (crc >> 8) ^ CRC_TABLE[(crc ^ c) & 0xFF]
        return crc

    def crc_matches(buf, start, end, at):
        """True if the CRC-32 of buf[start:end] is the 8 upper-case hex
        digits at buf[at:at + 8]."""
        return bytes(buf[at : at + 8]) == b"%08X" % (_crc(buf, start, end) ^ 0xFFFFFFFF)

    def put_crc(buf, start, end, at):
        """Write the CRC-32 of buf[start:end] as 8 upper-case hex digits at buf[at]."""
        buf[at : at + 8] = b"%08X" % (_crc(buf, start, end) ^ 0xFFFFFFFF)

    def frame_seq(buf, size):
        """The number of the frame in buf[0:size] ("$" HH " " ... "*" and 8
        hex digits, all printable) if its checksum holds, else -1."""
        star = size - 9
        if (
            size < 13
            or buf[0] != 0x24
            or buf[3] != 0x20
            or buf[star] != 0x2A
            or not _printable(buf, size)
            or not crc_matches(buf, 1, star, star + 1)
        ):
            return -1
        return hex_value(buf, 1, 2)

    def colours(buf, at, count, out, size):
        """`count` colours " RRGGBB" from buf[at] into out[0:count] as
        words 0xRRGGBB, and 0 in out[count:size]; False if one is not."""
        for i in range(size):
            out[i] = 0
            if i < count:
                value = hex_value(buf, at + 1, 6)
                if buf[at] != 0x20 or value < 0:
                    return False
                out[i] = value
                at += 7
        return True

    def renumber(line, size, seq):
        """Give the line in line[0:size] ("$" seq ... "*" checksum CR LF)
        the number seq and its checksum again, in place."""
        put_hex(line, 1, seq, 2)
        star = size - 11
        put_crc(line, 1, star, star + 1)

    def put_bits(out, base, bits, mask):
        """Bits base, base + 1, ... of the bit string out (bit n is bit n % 8
        of byte n // 8) set to bits 0, 1, ... of `bits`, as far as `mask`
        (some low bits set) reaches."""
        j = 0
        while (mask >> j) & 1:
            n = base + j
            if (bits >> j) & 1:
                out[n >> 3] |= 1 << (n & 7)
            else:
                out[n >> 3] &= 0xFF ^ (1 << (n & 7))
            j += 1

    def put_bits_hex(bits, digits, line, at):
        """The bit string `bits` (as put_bits writes it) as `digits` upper-case
        hex digits at line[at], the most significant first: a SNAP's board."""
        for k in range(digits):
            line[at + digits - 1 - k] = _HEX[(bits[k >> 1] >> ((k & 1) << 2)) & 15]

    def cut(data, start, count, line, state):
        """Cut data[start:count] into frames, up to the first thing to
        report.  The frame so far is in line; state (array "i") holds its
        size plus one (0 outside a frame), whether it overflowed line,
        whether junk came outside a frame.  Returns the bytes gone through
        (at most 0xFFFF: count - start may be no more), plus CUT_* << 16
        and, for CUT_FRAME, the frame's size << 19 (line[0:size])."""
        size = state[0] - 1
        room = len(line)
        i = start
        while i < count:
            c = data[i]
            i += 1
            if c in (0x24, 0x0A):
                event = framed = 0
                if size >= 0:
                    if c == 0x0A and size > 0 and line[size - 1] == 0x0D:
                        size -= 1
                    if state[1] or size >= room:
                        event = CUT_LONG
                    elif c == 0x24:
                        event = CUT_TRUNC
                    else:
                        event, framed = CUT_FRAME, size
                elif state[2]:
                    event = CUT_NOISE
                if c == 0x24:
                    line[0] = 0x24
                    size = 1
                else:
                    size = -1
                state[1] = state[2] = 0
                if event:
                    state[0] = size + 1
                    return (i - start) | (event << 16) | (framed << 19)
            elif size >= 0:
                if size < room:
                    line[size] = c
                    size += 1
                else:
                    state[1] = 1
            elif c not in (0x20, 0x09, 0x0D):
                state[2] = 1
        state[0] = size + 1
        return i - start

    def hex_value(buf, at, digits):
        """The value of `digits` (at most 7) upper-case hex digits at buf[at], or -1."""
        value = 0
        for c in buf[at : at + digits]:
            if c not in _HEX:
                return -1
            value = (value << 4) | _HEX.index(c)
        return value

    def put_hex(buf, at, value, digits):
        """Write `value` as `digits` upper-case hex digits at buf[at]."""
        for i in range(at + digits - 1, at - 1, -1):
            buf[i] = _HEX[value & 15]
            value >>= 4

    def nibbles(buf, at, count, out):
        """The values of `count` upper-case hex digits at buf[at], one a
        byte, into out[0:count]; False (out part written) if one is not."""
        for i in range(count):
            c = buf[at + i]
            if c not in _HEX:
                return False
            out[i] = _HEX.index(c)
        return True

    def sparse(buf, at, count, out, size):
        """A LEDS line's `count` lit LEDs, three hex digits each from
        buf[at] (two of the LED's index, one of its palette index), into
        out[0:size], 0 for the LEDs not given; False (out part written)
        unless each index is above the last and below size and each
        palette index is not 0."""
        for i in range(size):
            out[i] = 0
        last = -1
        for k in range(count):
            value = hex_value(buf, at + 3 * k, 3)
            led = value >> 4
            if value < 0 or not last < led < size or not value & 15:
                return False
            out[led] = value & 15
            last = led
        return True

    def same(buf, at, pattern, size):
        """True if buf[at:at + size] equals pattern[0:size]."""
        return bytes(buf[at : at + size]) == bytes(pattern[:size])

    def copy(src, start, size, dst, at):
        """dst[at:at + size] = src[start:start + size], without a slice."""
        dst[at : at + size] = src[start : start + size]
