"""Fakes for daemon tests: a store in memory (which can be made to fail like a
full disk), an opponent that plays a script, and one whose process keeps dying."""

from __future__ import annotations

from boardctl.engine import Limits
from boardctl.engine.interface import BestMove, Message, WorkerError
from boardctl.storage.store import StoreError


class MemoryStore:
    """Keeps what the daemon stores; while ``failing`` names a reason, every
    write raises :class:`StoreError` with it, as a full disk makes SQLite do."""

    def __init__(self) -> None:
        self.games: dict[int, dict[str, object]] = {}
        self.calls: list[tuple[object, ...]] = []
        self.settings: dict[str, str] = {}
        self.times: list[tuple[str, float]] = []  # (what, the time stored with it)
        self.clocks: list[float | None] = []  # add_move's clock readings, in order
        self.failing: str | None = None
        self.refused = 0  # writes refused while failing

    def _can_write(self) -> None:
        if self.failing is not None:
            self.refused += 1
            raise StoreError(f"game database: {self.failing}", reason=self.failing)

    def write_problem(self) -> str | None:
        return None

    def new_game(
        self, variant: str, start_fen: str, white: str, black: str, mode: str, now: float
    ) -> int:
        self._can_write()
        game_id = len(self.games) + 1
        self.games[game_id] = {
            "variant": variant,
            "start_fen": start_fen,
            "moves": [],
            "result": None,
        }
        self.calls.append(("new_game", game_id))
        self.times.append(("new_game", now))
        return game_id

    def moves(self, game_id: int) -> list[str]:
        return self.games[game_id]["moves"]  # type: ignore[return-value]

    def add_move(
        self, game_id: int, ply: int, uci: str, now: float, *, clock: float | None = None
    ) -> None:
        self._can_write()
        assert len(self.moves(game_id)) == ply - 1, (ply, self.moves(game_id))
        self.moves(game_id).append(uci)
        self.calls.append(("add_move", game_id, ply, uci))
        self.times.append(("add_move", now))
        self.clocks.append(clock)

    def remove_last_move(self, game_id: int) -> None:
        self._can_write()
        self.moves(game_id).pop()
        self.calls.append(("remove_last_move", game_id))

    def amend_last_move(self, game_id: int, uci: str, now: float) -> None:
        self._can_write()
        self.moves(game_id)[-1] = uci
        self.calls.append(("amend_last_move", game_id, uci))

    def finish(self, game_id: int, result: str, termination: str, now: float) -> None:
        self._can_write()
        self.games[game_id]["result"] = (result, termination)
        self.calls.append(("finish", game_id, result))
        self.times.append(("finish", now))

    def setting(self, key: str) -> str | None:
        return self.settings.get(key)

    def set_setting(self, key: str, value: str) -> None:
        self.settings[key] = value


class ScriptedOpponent:
    """Answers each ``go`` with the next move of its script."""

    def __init__(self, moves: list[str]) -> None:
        self.script = list(moves)
        self.requests = 0
        self.outbox: list[Message] = []
        self.asked: list[list[str]] = []
        self.stops = 0
        self.skills: list[int] = []

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        self.requests += 1
        self.asked.append(list(moves))
        self.outbox.append(BestMove(self.requests, self.script.pop(0) if self.script else None))
        return self.requests

    def stop(self) -> None:
        self.stops += 1

    def new_game(self) -> None:
        pass

    def set_skill(self, skill: int) -> None:
        self.skills.append(skill)

    def poll(self, timeout: float = 0.0) -> list[Message]:
        out, self.outbox = self.outbox, []
        return out

    def close(self) -> None:
        pass


class FlakyOpponent(ScriptedOpponent):
    """A scripted engine whose process dies, instead of answering, on its
    first ``failures`` requests (as when it is killed or runs out of memory);
    dead, it raises on every poll until the next ``go`` starts it again."""

    def __init__(self, moves: list[str], failures: int) -> None:
        super().__init__(moves)
        self.failures = failures
        self.dead = False

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        self.dead = False
        return super().go(fen, moves, limits, variant)

    def poll(self, timeout: float = 0.0) -> list[Message]:
        if self.dead:
            raise WorkerError("engine process exited with code -9")
        if self.failures and self.outbox:
            self.dead = True
            self.failures -= 1
            # The lost answer's move is still the one to play next time.
            for message in reversed(self.outbox):
                if isinstance(message, BestMove) and message.move:
                    self.script.insert(0, message.move)
            self.outbox = []
            raise WorkerError("engine process exited with code -9")
        return super().poll(timeout)
