"""A fake of MicroPython's ``rp2`` module: PIO programs and state machines.

``asm_pio`` really runs the program function, with the PIO assembler's names
bound the way MicroPython binds them, and records the instructions; a
``StateMachine`` records the words put into it.  A fresh copy of this module
is loaded for every test; ``machines`` lists the state machines made.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    IN_LOW = 0
    IN_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class _Instruction:
    def __init__(self, program: Program, text: str) -> None:
        self.program = program
        self.text = text
        self.side_value: int | None = None
        self.delay = 0

    def side(self, value: int) -> _Instruction:
        self.side_value = value
        return self

    def __getitem__(self, delay: int) -> _Instruction:
        if not 0 <= delay <= 31:
            raise ValueError("PIO delay out of range")
        self.delay = delay
        return self


class Program:
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.instructions: list[_Instruction] = []
        self.labels: dict[str, int] = {}
        self.wrap_target: int | None = None
        self.wrap: int | None = None

    def emit(self, name: str) -> Callable[..., _Instruction]:
        def instruction(*args: object) -> _Instruction:
            ins = _Instruction(self, f"{name} {', '.join(map(str, args))}".strip())
            self.instructions.append(ins)
            return ins

        return instruction

    def namespace(self) -> dict[str, Any]:
        names: dict[str, Any] = {
            n: self.emit(n)
            for n in ("out", "jmp", "nop", "set", "in_", "mov", "pull", "push", "wait", "irq")
        }
        names.update(x="x", y="y", not_x="!x", not_y="!y", pins="pins", osr="osr", isr="isr")
        names["label"] = lambda name: self.labels.__setitem__(name, len(self.instructions))
        names["wrap_target"] = lambda: setattr(self, "wrap_target", len(self.instructions))
        names["wrap"] = lambda: setattr(self, "wrap", len(self.instructions))
        return names


def asm_pio(**options: Any) -> Callable[[Callable[[], None]], Program]:
    def assemble(function: Callable[[], None]) -> Program:
        program = Program(options)
        types.FunctionType(function.__code__, program.namespace())()
        if len(program.instructions) > 32:
            raise ValueError("a PIO program has at most 32 instructions")
        return program

    return assemble


machines: list[StateMachine] = []


class StateMachine:
    def __init__(self, id: int, program: Program, freq: int = -1, **kwargs: Any) -> None:
        self.id = id
        self.program = program
        self.freq = freq
        self.kwargs = kwargs
        self.running = False
        self.puts: list[tuple[list[int], int]] = []
        machines.append(self)

    def active(self, value: int | None = None) -> bool:
        if value is not None:
            self.running = bool(value)
        return self.running

    def put(self, value: Any, shift: int = 0) -> None:
        words = [value] if isinstance(value, int) else list(value)
        self.puts.append((words, shift))


# The PIO blocks' TX FIFO addresses, as DMA writes to them.
_TXF = {0x50200010 + 4 * i: i for i in range(4)} | {0x50300010 + 4 * i: 4 + i for i in range(4)}


class DMA:
    """A DMA channel: ``config(..., trigger=True)`` hands the words read to
    the state machine whose TX FIFO it writes (as ``put(words, 0)`` would);
    ``configs`` records every call."""

    def __init__(self) -> None:
        self.configs: list[dict[str, Any]] = []
        self.read: Any = None
        self.write: int | None = None
        self.count = 0
        self.ctrl: dict[str, Any] = {}

    def pack_ctrl(self, **fields: Any) -> dict[str, Any]:
        return dict(fields)

    def config(
        self,
        *,
        read: Any = None,
        write: int | None = None,
        count: int | None = None,
        ctrl: dict[str, Any] | None = None,
        trigger: bool = False,
    ) -> None:
        self.configs.append(dict(read=read, write=write, count=count, ctrl=ctrl, trigger=trigger))
        if read is not None:
            self.read = read
        if write is not None:
            self.write = write
        if count is not None:
            self.count = count
        if ctrl is not None:
            self.ctrl = ctrl
        if trigger:
            sm_id = _TXF[self.write] if self.write is not None else None
            machine = next(m for m in machines if m.id == sm_id)
            if self.ctrl.get("treq_sel") != sm_id or self.ctrl.get("inc_write", True):
                raise AssertionError(f"DMA paced by {self.ctrl} into machine {sm_id}'s FIFO")
            machine.puts.append((list(self.read)[: self.count], 0))
