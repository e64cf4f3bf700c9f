"""The coach of a teaching board, in the daemon on simulated hardware
(virtual time, an engine whose opinions the test gives)."""

from __future__ import annotations

from boardctl.board import MoveTakenBack, Role
from boardctl.config import parse_config
from boardctl.daemon.coach import COACH_SECONDS, Coach
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.engine.interface import WorkerError
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.rules import Game
from boardctl.voice.words import banner_words

from .. import hand
from ..daemon_fakes import EvaluatingOpponent, MemoryStore, ScriptedOpponent, view_of

TEACHING = parse_config({"game": {"mode": "teaching"}})
# White's knight on c3 may go to d5, where Black's pawn on e6 takes it.
KNIGHT_HANGS = "9k/10/4p5/10/10/2N7/10/K9 w - - 0 1"
OPINIONS = {
    (): (250, None, ["c3e4", "j8i8"]),
    ("c3d5",): (90, None, ["e6d5"]),
    ("c3e4",): (-240, None, ["j8i8"]),
}
WARNING = "That move loses a knight: Ne4 was better. Take it back?"


class Table(hand.Table):
    """A daemon at the simulated board, from ``fen``, played by hand."""

    def __init__(self, config=TEACHING, fen=KNIGHT_HANGS, engine=None, opponent=None) -> None:
        self.engines: list[EvaluatingOpponent] = []
        self.store = MemoryStore()
        game = Game(fen=fen)
        self.store.new_game("falcon", game.start_fen, "a", "b", "teaching", 0)
        pos = game.position
        self.geo = pos.geometry
        self.board = SimBoard(self.geo.squares(pos.colors[0] | pos.colors[1]))
        self.buttons = SimButtons()

        def adviser() -> EvaluatingOpponent:
            self.engines.append(engine() if engine else EvaluatingOpponent(OPINIONS))
            return self.engines[-1]

        self.daemon = Daemon(
            config,
            Hardware(self.board, buttons=self.buttons),
            self.store,
            Services(opponent=opponent, adviser=adviser),
            Start(resume=(1, game)),
        )
        self.run(0.2)

    def lit(self) -> dict[str, Role]:
        return {self.geo.name(sq): role for sq, role in self.daemon.scene().squares.items()}

    def rings(self) -> dict[str, Role]:
        """The LEDs as the page mirrors them."""
        return {self.geo.name(r.square): Role(r.role) for r in self.daemon.snapshot().rings}


def test_a_hanging_knight_is_warned_about_lit_and_taken_back():
    table = Table()
    table.move("c3", "d5")
    state = table.daemon.status()
    assert (state.prompt, state.prompt_kind) == (WARNING, "coach")
    # The knight to lift, and the square it goes back to (blinking), in the hint's
    # colours: on the board and on the page alike.
    assert table.lit() == table.rings() == {"d5": Role.HINT_FROM, "c3": Role.HINT_TO}
    # The position before the move was searched, and the one after it, each once.
    assert table.engines[0].asked == [[], ["c3d5"]]
    assert table.engines[0].limits[0].movetime == COACH_SECONDS
    table.move("d5", "c3")
    assert any(isinstance(e, MoveTakenBack) for e in table.daemon.events)
    assert table.daemon.game.moves == [] and table.store.moves(1) == []
    assert table.daemon.status().prompt == ""
    assert table.lit() == {}
    assert table.engines[0].asked == [[], ["c3d5"]]  # the first position was known already


def test_a_good_move_gets_no_word():
    table = Table()
    table.move("c3", "e4")
    assert table.daemon.game.moves and table.daemon.status().prompt == ""
    assert table.engines[0].asked == [[], ["c3e4"]]


def test_playing_on_dismisses_the_warning():
    table = Table()
    table.move("c3", "d5")
    assert table.daemon.status().prompt == WARNING
    table.move("j8", "i8")
    assert table.daemon.status().prompt == "" and table.lit() == {}


def test_the_voice_says_the_warning():
    table = Table()
    table.move("c3", "d5")
    from boardctl.voice.words import banner_words

    assert banner_words(table.daemon.status()) == (
        "That move loses a knight: knight to e4 was better. Take it back?"
    )


def test_without_takebacks_the_move_is_not_offered_back():
    config = parse_config({"game": {"mode": "teaching", "takeback": False}})
    table = Table(config)
    table.move("c3", "d5")
    assert table.daemon.status().prompt == "That move loses a knight: Ne4 was better."
    assert table.lit() == {}


def test_the_engine_and_two_player_modes_never_coach():
    for config in (
        parse_config({"game": {"mode": "engine", "human": "white"}}),
        parse_config({"game": {"mode": "two-players"}}),
    ):
        opponent = ScriptedOpponent(["j8i8"]) if config.game.mode == "engine" else None
        table = Table(config, opponent=opponent)
        table.move("c3", "d5")
        assert table.daemon.game.moves
        assert table.engines == []  # no engine started for a coach
        assert table.daemon.top.players.coach.remark is None
        assert table.daemon.status().prompt_kind != "coach"


def test_a_hint_names_the_good_moves_ranked():
    ranked = [("c3e4", 60), ("c3b5", 40), ("c3d5", -250)]
    table = Table(engine=lambda: EvaluatingOpponent(OPINIONS, ranked))
    table.buttons.press("hint", table.now)
    table.run(0.2)
    # The other good move is an alternative, not the reply to the best one:
    # so the screen, the page and the voice say, in the same words.
    words = "Best: Ne4 \N{EN DASH} c3 to e4; also good: Nb5"
    assert table.daemon.status().prompt == words
    assert table.daemon.snapshot().prompt == words
    assert banner_words(table.daemon.status()) == "Best: knight c3 to e4; also good: knight to b5."
    assert table.lit() == table.rings() == {"c3": Role.HINT_FROM, "e4": Role.HINT_TO}


def test_a_falcon_lesson_without_a_warning():
    # The knight goes to f6, where only Black's falcon on c5 can take it.
    table = Table(fen="9k/10/10/2f7/4N5/10/10/K9 w - - 0 1", engine=lambda: EvaluatingOpponent({}))
    table.move("e4", "f6")
    state = table.daemon.status()
    assert state.prompt == "The falcon on c5 can take the knight on f6 by c5-d5-e5-f6."
    assert state.prompt_kind == "coach"
    assert table.lit() == {}  # nothing offered back


class DeadEngine:
    """An engine process that dies at once, every time."""

    def go(self, *args, **kwargs):
        raise WorkerError("engine process exited with code -9")

    def set_skill(self, skill: int) -> None:
        pass

    def rating(self, skill: int, variant: str) -> int | None:
        return None

    def stop(self) -> None:
        pass

    def poll(self, timeout: float = 0.0):
        return []

    def close(self) -> None:
        pass


def test_a_dead_engine_leaves_the_falcon_lessons():
    coach = Coach(DeadEngine, offer=True)
    game = Game(fen="9k/10/10/2f7/4N5/10/10/K9 w - - 0 1")
    for _ in range(10):
        coach.step(0.0, view_of(game))
    game.push_text("Nf6")
    for _ in range(10):
        coach.step(0.0, view_of(game))
    assert coach.remark is not None and coach.remark.text.startswith("The falcon on c5")
    assert coach.takeback is None
