"""The steps of a ``boardctl diag`` session and the ``--steps`` option."""

from __future__ import annotations

from enum import Enum

from .squares import DiagError


class Phase(Enum):
    WALK = "walk"
    LIVE = "live"
    SWEEP = "sweep"
    ORDER = "order"
    DONE = "done"


STEPS = (Phase.WALK, Phase.LIVE, Phase.SWEEP, Phase.ORDER)
LED_STEPS = frozenset({Phase.WALK, Phase.ORDER})


def parse_steps(text: str) -> tuple[Phase, ...]:
    """``"walk,sweep"`` as steps, in the order they run.

    :raises DiagError: naming an unknown step.
    """
    names = [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]
    known = {step.value: step for step in STEPS}
    for name in names:
        if name not in known:
            raise DiagError(f"--steps: unknown step {name!r} (steps: {', '.join(known)})")
    if not names:
        raise DiagError(f"--steps: name at least one step ({', '.join(known)})")
    return tuple(step for step in STEPS if step.value in names)
