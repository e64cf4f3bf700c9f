"""Waiting for an engine's answer to one request, bounded so that a silent
engine fails the test instead of hanging it."""

from __future__ import annotations

from boardctl.engine.interface import Message, Opponent

POLLS = 600  # polls of up to POLL seconds each before a wait fails
POLL = 0.1


def wait_for(engine: Opponent, request: int, kind: type) -> list[Message]:
    """Messages from ``engine`` until one of ``kind`` for ``request``."""
    seen: list[Message] = []
    for _ in range(POLLS):
        for message in engine.poll(POLL):
            seen.append(message)
            if isinstance(message, kind) and message.request == request:
                return seen
    raise AssertionError(f"no {kind.__name__} for request {request}: {seen}")
