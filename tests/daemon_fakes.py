"""Fakes for daemon tests: a store in memory (which can be made to fail like a
full disk), an opponent that plays a script, and one whose process keeps dying."""

from __future__ import annotations

from boardctl.board import Reconciler
from boardctl.config import Config
from boardctl.daemon.view import Phase, View
from boardctl.engine import Info, Limits
from boardctl.engine.interface import BestMove, Message, Ranked, RankedMove, Thinking, WorkerError
from boardctl.rules import Game, Position, get_variant, parse_uci
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

    def set_clocks(self, game_id: int, first: int, clocks: tuple[float | None, ...]) -> None:
        self._can_write()
        self.calls.append(("set_clocks", game_id, first, tuple(clocks)))

    def set_players(self, game_id: int, white: str, black: str) -> None:
        self._can_write()
        self.games[game_id]["names"] = (white, black)
        self.calls.append(("set_players", game_id, white, black))

    def setting(self, key: str) -> str | None:
        return self.settings.get(key)

    def set_setting(self, key: str, value: str) -> None:
        self.settings[key] = value


class ScriptedOpponent:
    """Answers each ``go`` with the next move of its script."""

    def __init__(self, moves: list[str]) -> None:
        self.script = list(moves)
        self.requests = 0
        self.closed = False
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

    def rating(self, skill: int, variant: str) -> int | None:
        return 600 + 50 * skill if variant == "falcon" else None

    def poll(self, timeout: float = 0.0) -> list[Message]:
        out, self.outbox = self.outbox, []
        return out

    def close(self) -> None:
        self.closed = True


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


Line = tuple[int | None, int | None, list[str]]  # (centipawns, mate, best line), side to move


class EvaluatingOpponent(ScriptedOpponent):
    """An engine with an opinion: each ``go`` is answered with one finished
    iteration, its score and line looked up by the moves to the position in
    ``scores`` (a position not listed scores 0 with its first legal move),
    and the line's first move.  ``rank`` answers from ``ranked``, a list of
    (move, centipawns) for any position."""

    def __init__(
        self, scores: dict[tuple[str, ...], Line], ranked: list[tuple[str, int]] = ()
    ) -> None:
        super().__init__([])
        self.scores = scores
        self.ranked = list(ranked)
        self.limits: list[Limits] = []

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        self.requests += 1
        self.asked.append(list(moves))
        self.limits.append(limits)
        pos = Position(fen, get_variant(variant))
        for text in moves:
            pos.push(parse_uci(pos, text))
        first = [pos.uci(pos.legal_moves()[0])] if pos.count_legal() else []
        cp, mate, line = self.scores.get(tuple(moves), (0, None, first))
        pv = []
        for text in line:
            pv.append(parse_uci(pos, text))
            pos.push(pv[-1])
        self.outbox.append(Thinking(self.requests, Info(5, cp, mate, 100, 0.1, pv)))
        self.outbox.append(BestMove(self.requests, line[0] if line else None))
        return self.requests

    def rank(
        self, fen: str, moves: list[str], limits: Limits, count: int, variant: str = "falcon"
    ) -> int:
        self.requests += 1
        self.asked.append(list(moves))
        answer = tuple(
            RankedMove(text, Info(5, cp, None, 100, 0.1)) for text, cp in self.ranked[:count]
        )
        self.outbox.append(Ranked(self.requests, answer))
        return self.requests


def view_of(game: Game, phase: Phase = Phase.PLAYING) -> View:
    """What a feature sees of a daemon playing ``game`` as two players."""
    return View(
        game, 1, Reconciler(game), phase, "game", None, False, Limits(movetime=1.0), Config()
    )
