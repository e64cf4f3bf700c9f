"""boardctl.queues: what a worker thread handed over, taken without waiting."""

from __future__ import annotations

import queue

from boardctl.queues import drain


def test_drain_takes_everything_waiting_oldest_first_and_leaves_the_queue_empty():
    for waiting in (queue.Queue(), queue.SimpleQueue()):
        for item in ("a", "b", "c"):
            waiting.put(item)
        assert drain(waiting) == ["a", "b", "c"]
        assert drain(waiting) == []
        waiting.put("d")
        assert drain(waiting) == ["d"]
