"""A long answer read out in parts: where the pieces stand, square by square
(a rank a part) or side by side (a side a part).

Said whole, the squares of the start position took 61 s at the default rate
and were cut at the speech engine's 60 s limit; at the slowest rate half of
them were lost.  In parts, each is said as a text of its own and the next
follows once it has been said; the player steps on by asking the same
question again, hears the part again with *repeat*, and stops the readout
with anything else (another question, mute), as anything the board says
does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Readout:
    """The answer to ``question`` in ``parts``, the one being said at ``at``."""

    question: str
    parts: tuple[str, ...]
    at: int = 0

    @property
    def part(self) -> str:
        return self.parts[self.at]

    def on(self) -> Readout | None:
        """The readout at its next part; None after the last."""
        return replace(self, at=self.at + 1) if self.at + 1 < len(self.parts) else None

    def asked_again(self, question: str, parts: tuple[str, ...]) -> Readout:
        """``question`` asked while this readout is said: the same answer
        steps on to its next part (from the last, back to the first); any
        other starts afresh."""
        if question == self.question and parts == self.parts:
            return self.on() or replace(self, at=0)
        return Readout(question, parts)
