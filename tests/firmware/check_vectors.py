# Checks the firmware's protocol module against the shared vectors
# (vectors.txt beside the firmware's protocol.py, unless another file is
# named); from the repository's root:
#
#     MICROPYPATH=firmware .venv/bin/micropython tests/firmware/check_vectors.py [VECTORS]
#     PYTHONPATH=firmware python3 tests/firmware/check_vectors.py [VECTORS]
#
# Prints one line per failure and a summary; exits with status 1 on any
# failure.  A check beside the firmware, never flashed with it
# (tests/hw/test_firmware.py runs it under both).

import json
import sys

import hexboard
import protocol

_FILES = "abcdefghijklmnop"
# The names of each named board's cells, in cell order (generated from its pinout).
_CELL_NAMES = {hexboard.BOARD: hexboard.CELL_NAMES}


def unescape(text):
    """The bytes a FRAME or BYTES field stands for (\\n \\r \\xHH \\\\)."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            nxt = text[i + 1]
            if nxt == "n":
                out.append(10)
            elif nxt == "r":
                out.append(13)
            elif nxt == "\\":
                out.append(92)
            elif nxt == "x":
                out.append(int(text[i + 2 : i + 4], 16))
                i += 2
            else:
                raise ValueError("bad escape in " + text)
            i += 2
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)


def square_name(square, shape):
    if shape.board is not None:
        return _CELL_NAMES[shape.board][square]
    return _FILES[square % shape.files] + str(square // shape.files + 1)


def square_of(name, shape):
    if shape.board is not None:
        return _CELL_NAMES[shape.board].index(name)
    return _FILES.index(name[0]) + (int(name[1:]) - 1) * shape.files


def meaning(seq, command, value, shape):
    """The decoded message as the JSON meaning the vectors give."""
    result = {"seq": seq, "cmd": command}
    if command == "HELLO":
        result["version"] = value[0]
        result["files"] = value[1]
        result["ranks"] = value[2]
        result["leds"] = value[3]
        result["info"] = [[k, t] for k, t in value[4]]
    elif command == "SNAP":
        occupancy, epoch, count = value
        result["occupied"] = [
            square_name(sq, shape) for sq in range(shape.squares) if occupancy >> sq & 1
        ]
        result["stamp"] = [epoch, count]
    elif command == "LED" or command == "LEDS":
        result["lit"] = [[i, value[i]] for i in range(len(value)) if value[i]]
    elif command == "PAL":
        result["colours"] = [[r, g, b] for r, g, b in value]
    elif command == "COUNTERS":
        result["counters"] = [[k, n] for k, n in value]
    elif command == "ACK":
        result["ack"] = value
    elif command == "NAK":
        result["nak"] = value[0]
        result["reason"] = value[1]
    return result


def value_of(m, shape):
    """The message value for a JSON meaning (the inverse of meaning())."""
    command = m["cmd"]
    if command == "HELLO":
        return (m["version"], m["files"], m["ranks"], m["leds"], [(k, t) for k, t in m["info"]])
    if command == "SNAP":
        occupancy = 0
        for name in m["occupied"]:
            occupancy |= 1 << square_of(name, shape)
        return (occupancy, m["stamp"][0], m["stamp"][1])
    if command == "LED" or command == "LEDS":
        frame = bytearray(shape.leds)
        for i, index in m["lit"]:
            frame[i] = index
        return bytes(frame)
    if command == "PAL":
        return [(r, g, b) for r, g, b in m["colours"]]
    if command == "COUNTERS":
        return [(k, n) for k, n in m["counters"]]
    if command == "ACK":
        return m["ack"]
    if command == "NAK":
        return (m["nak"], m["reason"])
    return None


def outcomes(data, shape):
    """What a fresh assembler and decoder make of a byte stream: meanings and
    lower-case reasons, as (outcome, nak) pairs."""
    results = []
    for item in protocol.LineAssembler().frames(data):
        if isinstance(item, str):
            results.append((item.lower(), None))
            continue
        try:
            seq, command, value = protocol.decode(item, shape)
        except protocol.ProtocolError as error:
            results.append((error.reason.lower(), error.nak))
        else:
            results.append((meaning(seq, command, value, shape), None))
    return results


def check_record(line, shape):
    """None if the record holds, else what went wrong."""
    kind, _, rest = line.partition(" ")
    if kind == "ok":
        text, _, expected = rest.partition(" => ")
        frame = unescape(text)
        want = json.loads(expected)
        got = outcomes(frame + b"\n", shape)
        if got != [(want, None)]:
            return f"decodes to {got!r}"
        encoded = protocol.frame(want["seq"], want["cmd"], value_of(want, shape), shape)
        if encoded != frame:
            return f"encodes to {encoded!r}"
        return None
    if kind == "bad":
        reason, nak, text = rest.split(" ", 2)
        want_nak = None if nak == "-" else int(nak, 16)
        got = outcomes(unescape(text) + b"\n", shape)
        if got != [(reason, want_nak)]:
            return f"gives {got!r}"
        return None
    if kind == "stream":
        cut = rest.rfind(" => ")
        data = unescape(rest[:cut])
        want = json.loads(rest[cut + 4 :])
        got = [outcome for outcome, _ in outcomes(data, shape)]
        if got != want:
            return f"gives {got!r}"
        return None
    return "unknown record kind " + kind


def run(path):
    """Check every record in ``path``: (records checked, list of failures)."""
    shape = protocol.Shape()
    checked = 0
    failures = []
    with open(path) as f:
        number = 0
        for raw in f:
            number += 1
            line = raw.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            if line.startswith("shape "):
                fields = line.split(" ")[1:]
                if len(fields) == 2:
                    shape = protocol.Shape(leds=int(fields[1]), board=fields[0])
                else:
                    files, ranks, leds = [int(x) for x in fields]
                    shape = protocol.Shape(files, ranks, leds)
                continue
            checked += 1
            try:
                problem = check_record(line, shape)
            except Exception as error:  # a crash is a failure too, not the end
                problem = f"raised {error!r}"
            if problem is not None:
                failures.append(f"line {number}: {problem}: {line[:60]}")
    return checked, failures


def _beside(path, name):
    """The file `name` in the directory of `path` (MicroPython has no os.path)."""
    cut = path.rfind("/")
    return path[: cut + 1] + name


def main(argv):
    path = argv[1] if len(argv) > 1 else _beside(protocol.__file__, "vectors.txt")
    if protocol.checksum(b"123456789") != "CBF43926":
        print("FAIL checksum check value")
        return 1
    if protocol.crc32_halves(b"123456789") != (0xCBF4, 0x3926):
        print("FAIL the Python CRC-32 check value")
        return 1
    checked, failures = run(path)
    for failure in failures:
        print("FAIL " + failure)
    print(f"{checked} vectors, {len(failures)} failed ({sys.implementation.name})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
