from collections.abc import Callable, Sequence

CHAR_UNSIGNED: int  # 1 where this build's plain char is unsigned (setup.py asks for it)

class Core:
    def __init__(
        self,
        files: int,
        ranks: int,
        king_file: int,
        castle_min: int,
        castle_max: int,
        judged_after: bool,
        grid: bool,
        nsq: int,
        cells: Sequence[int],
        files_of: Sequence[int],
        ranks_of: Sequence[int],
        king_steps: Sequence[int],
        knight_steps: Sequence[int],
        rook_lines: Sequence[int],
        bishop_lines: Sequence[int],
        falcon: Sequence[int],
        pawn_steps: Sequence[int],
        promotes: Sequence[int],
        double_steps: Sequence[int],
        promotions: Sequence[int],
        zobrist_piece: Sequence[Sequence[int]],
        zobrist_black: int,
        zobrist_castle: Sequence[int],
        zobrist_ep: Sequence[int],
        mg_table: Sequence[Sequence[int]],
        eg_table: Sequence[Sequence[int]],
        weights: Sequence[int],
        passed: Sequence[int],
        search: Sequence[int],
        tt_bits: int,
    ) -> None: ...
    def set_position(
        self,
        squares: Sequence[int],
        turn: int,
        castling_rooks: Sequence[int],
        ep: int,
        halfmove: int,
        history: Sequence[int],
    ) -> None: ...
    def legal_codes(self) -> list[int]: ...
    def push(self, code: int) -> None: ...
    def pop(self) -> None: ...
    def perft(self, depth: int) -> int: ...
    def evaluate(self) -> int: ...
    def see(self, code: int) -> int: ...
    def hash(self) -> int: ...
    def new_game(self) -> None: ...
    def root(
        self,
        depth: int,
        alpha: int,
        beta: int,
        moves: Sequence[int],
        noise: Sequence[int],
        seconds: float,
        nodes: int,
        stop: Callable[[], bool] | None,
        contempt: int = 0,
    ) -> tuple[int, int, int, int, int, int]: ...
    def reset_best(self) -> None: ...
    def pv(self, limit: int) -> list[int]: ...
    def numbers(self) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
