"""Many spectators' event streams, written together: one batch, encoded
once, handed to every stream's socket in turn without waiting on any.

A spectator's stream is an HTTP response already begun (its headers and the
whole round sent the ordinary way); from then on :meth:`Fanout.send` writes
each batch as the next piece of that response straight to its transport,
which never blocks: what a phone has not yet read waits in its transport's
buffer, and a phone that leaves more than :data:`MAX_UNSENT` bytes there (it
stopped reading: a tunnel, a sleeping screen) is dropped.  Its browser
reconnects by itself and gets the whole round again, so a slow phone costs
itself a reconnection and nobody else a wait.  One task per batch, not one
per spectator: thousands of streams cost thousands of buffer writes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Protocol

MAX_UNSENT = 64 * 1024  # bytes a spectator may leave unread: a minute of a busy round


class Stream(Protocol):
    """What a fan-out needs of a connection (an asyncio transport)."""

    def write(self, data: bytes) -> None: ...
    def get_write_buffer_size(self) -> int: ...
    def is_closing(self) -> bool: ...
    def close(self) -> None: ...


def event(name: str, data: bytes, ident: int | None = None) -> bytes:
    """One Server-Sent Event (``data`` holds no newline: it is compact JSON)."""
    head = b"" if ident is None else b"id: %d\n" % ident
    return head + b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"


def chunk(data: bytes) -> bytes:
    """``data`` as one piece of an HTTP/1.1 response sent in chunks."""
    return b"%x\r\n%s\r\n" % (len(data), data)


@dataclass
class _Seat:
    chunked: bool  # HTTP/1.1: each write is a chunk; HTTP/1.0: bytes as they are
    done: asyncio.Future[None]


class Fanout:
    """See the module docstring.  Runs in one event loop: every call from it."""

    def __init__(self, max_unsent: int = MAX_UNSENT) -> None:
        self.max_unsent = max_unsent
        self._streams: dict[Stream, _Seat] = {}
        self.dropped = 0  # streams dropped for not reading
        self.writes = 0

    def __len__(self) -> int:
        return len(self._streams)

    def join(self, stream: Stream, chunked: bool) -> asyncio.Future[None]:
        """Add ``stream``; the future is done when it leaves (dropped, gone,
        or the hall stops): its handler then ends the response."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._streams[stream] = _Seat(chunked, done)
        return done

    def leave(self, stream: Stream) -> None:
        seat = self._streams.pop(stream, None)
        if seat is not None and not seat.done.done():
            seat.done.set_result(None)

    def send(self, data: bytes) -> None:
        """Write ``data`` (whole events) to every stream that keeps up."""
        framed = chunk(data)
        for stream, seat in list(self._streams.items()):
            if stream.is_closing():
                self.leave(stream)
                continue
            if stream.get_write_buffer_size() > self.max_unsent:
                self.dropped += 1
                stream.close()
                self.leave(stream)
                continue
            stream.write(framed if seat.chunked else data)
            self.writes += 1

    def close(self) -> None:
        for stream in list(self._streams):
            self.leave(stream)
