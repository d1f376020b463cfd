"""Type stubs of tempo's native module (re-exported by `tempo`)."""

import os
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, Union

__version__: str
#: Every variant tempo plays, by the name `Board` and `Engine` take.
VARIANTS: List[str]

class Move:
    """A legal move of a board; `str(move)` is its PDN notation."""

    @property
    def notation(self) -> str:
        """PDN notation: `"32-28"`, a capture `"28x19"`."""
    @property
    def hub(self) -> str:
        """Hub long form: a capture `"28x19x23"` names every captured square."""
    @property
    def from_square(self) -> int:
        """The square the piece leaves."""
    @property
    def to_square(self) -> int:
        """The square the piece ends on."""
    @property
    def captured(self) -> List[int]:
        """The captured squares, in increasing order."""
    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
    @property
    def variant(self) -> str:
        """The variant whose move this is."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class DrawClocks:
    """The draw-rule counters of a position and the thresholds in force
    (a threshold of 0: the rule is off)."""

    reversible_plies: int
    short_endgame_plies: Optional[int]
    long_endgame_plies: Optional[int]
    occurrences: int
    plies_until_draw: Optional[int]
    repetitions: int
    king_moves: int
    short_endgame_moves: int
    long_endgame_moves: int

class Board:
    """A game of one of tempo's variants under its draw rules."""

    def __init__(
        self,
        variant: str = "international",
        fen: Optional[str] = None,
        moves: Optional[Sequence[str]] = None,
    ) -> None:
        """The start position, or `fen` (PDN FEN or Hub position string),
        then `moves`. A bad variant, position or move is a `ValueError`."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def turn(self) -> str:
        """The side to move: `"white"` or `"black"`."""
    def legal_moves(self) -> List[Move]:
        """The legal moves of the current position."""
    def play(self, move: Union[Move, str]) -> Move:
        """Plays a `Move` or a move in any notation tempo reads; a move
        that is not legal is a `ValueError`."""
    def undo(self) -> Optional[Move]:
        """Takes back the last move; `None` at the start."""
    @property
    def moves(self) -> List[Move]:
        """The moves played since the start position."""
    @property
    def ply(self) -> int:
        """How many moves have been played."""
    def is_over(self) -> bool:
        """Whether the game is over: a win, or a draw by rule."""
    @property
    def result(self) -> str:
        """`"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`."""
    @property
    def winner(self) -> Optional[str]:
        """`"white"`, `"black"`, or `None` (a draw, or no result yet)."""
    @property
    def reason(self) -> str:
        """Why the game ended (`"no-moves"`, `"repetition"`, ...; `"none"`)."""
    @property
    def result_text(self) -> str:
        """The result in words."""
    @property
    def clocks(self) -> DrawClocks:
        """The draw-rule counters of the current position."""
    @property
    def fen(self) -> str:
        """The current position as a PDN FEN."""
    @property
    def hub(self) -> str:
        """The current position as a Hub position string."""
    @property
    def start_fen(self) -> str:
        """The start position as a FEN."""
    def piece_at(self, square: int) -> Optional[str]:
        """`"w"`, `"b"`, `"W"`, `"B"` or `None`; a square off the board is a
        `ValueError`."""
    def perft(self, depth: int, threads: int = 1) -> int:
        """Leaf nodes of the legal-move tree `depth` plies deep."""
    def divide(self, depth: int, threads: int = 1) -> List[Tuple[Move, int]]:
        """Perft `depth` below each legal move."""
    def copy(self) -> "Board":
        """An independent copy."""
    def __copy__(self) -> "Board": ...
    def __deepcopy__(self, memo: Any) -> "Board": ...

class SearchInfo:
    """One completed depth of a search (one line of it in multi-PV)."""

    depth: int
    seldepth: int
    score: float
    mate: Optional[int]
    nodes: int
    time: float
    pv: List[Move]
    multipv: int
    hashfull: int
    book: bool
    @property
    def nps(self) -> float:
        """Nodes a second."""

class SearchResult:
    """What a search found."""

    best: Optional[Move]
    ponder: Optional[Move]
    lines: List[SearchInfo]
    book: bool
    notes: List[str]
    @property
    def score(self) -> float:
        """The best line's score for the side to move, in men."""
    @property
    def mate(self) -> Optional[int]:
        """Plies to a forced win (positive) or loss (negative)."""
    @property
    def pv(self) -> List[Move]:
        """The principal variation."""
    @property
    def depth(self) -> int:
        """The deepest completed depth."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def time(self) -> float:
        """Seconds the search took."""

class Engine:
    """tempo's engine: table, threads, book, weights and endgame tables."""

    def __init__(
        self,
        threads: int = 1,
        hash: int = 64,
        book: bool = False,
        book_file: Optional[Union[str, os.PathLike]] = None,
        weights: Optional[Union[str, os.PathLike]] = None,
        egdb: Optional[Union[str, os.PathLike]] = None,
        egdb_pieces: int = 4,
        variant: str = "international",
        contempt: int = 0,
    ) -> None: ...
    def search(
        self,
        board: Board,
        *,
        movetime: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        multipv: int = 1,
        infinite: bool = False,
        on_info: Optional[Callable[[SearchInfo], Any]] = None,
    ) -> SearchResult:
        """Searches the current position of `board`; releases the GIL."""
    def stop(self) -> None:
        """Stops the running search (from any thread)."""
    def new_game(self) -> None:
        """Clears the transposition table."""
    def set_option(self, name: str, value: Union[str, int, bool]) -> None:
        """Sets an engine parameter by its Hub name."""
    @property
    def options(self) -> List[Tuple[str, str]]:
        """Every engine parameter and its value."""
    @property
    def variant(self) -> str:
        """The variant the engine is set to."""

class AnalysisLine:
    """One line of multi-PV analysis."""

    move: Optional[str]
    score: float
    mate: Optional[int]
    pv: List[str]

class AnalysisRecord:
    """The analysis of one position: a `tempo analyse` JSON record."""

    @property
    def variant(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def line(self) -> Optional[int]: ...
    @property
    def game(self) -> Optional[int]: ...
    @property
    def ply(self) -> int: ...
    @property
    def fen(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def depth(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def mate(self) -> Optional[int]: ...
    @property
    def best(self) -> Optional[str]: ...
    @property
    def pv(self) -> List[str]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def time(self) -> float: ...
    @property
    def lines(self) -> List[AnalysisLine]: ...
    @property
    def played(self) -> Optional[str]: ...
    @property
    def played_score(self) -> Optional[float]: ...
    @property
    def played_mate(self) -> Optional[int]: ...
    @property
    def loss(self) -> Optional[float]: ...
    def to_json(self) -> str:
        """The JSON line `tempo analyse` writes for this position."""
    def to_dict(self) -> dict:
        """The JSON line read back as a dict."""

class Analysis(Iterator[AnalysisRecord]):
    """The records of `analyse_pdn`, one per position."""

    skipped: int
    def __iter__(self) -> "Analysis": ...
    def __next__(self) -> AnalysisRecord: ...

def analyse_pdn(
    pdn: str,
    *,
    variant: str = "international",
    movetime: Optional[float] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    multipv: int = 1,
    threads: int = 1,
    hash: int = 64,
    weights: Optional[Union[str, os.PathLike]] = None,
    egdb: Optional[Union[str, os.PathLike]] = None,
    egdb_pieces: int = 4,
    skip_invalid: bool = False,
) -> Analysis:
    """Analyses every position of the games of a PDN text."""

class Probe:
    """The value of a position in the endgame tables."""

    value: str
    plies: Optional[int]

class EndgameTables:
    """The endgame tables of one variant from a `tempo egdb build` directory."""

    def __init__(
        self, path: Union[str, os.PathLike], variant: str = "international", pieces: int = 4
    ) -> None: ...
    @property
    def loaded_pieces(self) -> int: ...
    @property
    def variant(self) -> str: ...
    def probe(self, board: Board) -> Optional[Probe]:
        """The value for the side to move, or `None` beyond the tables."""
