"""tempo: a draughts engine in-process.

The rules of twelve draughts variants (`Board`, `Move`), tempo's engine
(`Engine`), the analysis of PDN games (`analyse_pdn`, `analyse_pdn_file`)
and the endgame tables (`EndgameTables`), all in Rust, released from the
GIL while they think.

>>> import tempo
>>> board = tempo.Board("international")
>>> len(board.legal_moves())
9
>>> board.play("32-28").notation
'32-28'

`to_pydraughts` and `from_pydraughts` convert to and from a pydraughts
`Board` (by FEN and move strings).
"""

from __future__ import annotations

import os
from typing import Any, Optional, Union

from tempo._tempo import (
    VARIANTS,
    Analysis,
    AnalysisLine,
    AnalysisRecord,
    Board,
    DrawClocks,
    EndgameTables,
    Engine,
    Move,
    Probe,
    SearchInfo,
    SearchResult,
    __version__,
    analyse_pdn,
)

__all__ = [
    "VARIANTS",
    "Analysis",
    "AnalysisLine",
    "AnalysisRecord",
    "Board",
    "DrawClocks",
    "EndgameTables",
    "Engine",
    "Move",
    "Probe",
    "SearchInfo",
    "SearchResult",
    "__version__",
    "analyse_pdn",
    "analyse_pdn_file",
    "from_pydraughts",
    "to_pydraughts",
    "PYDRAUGHTS_VARIANTS",
]


def analyse_pdn_file(path: Union[str, os.PathLike], **options: Any) -> Analysis:
    """Analyses every game of the PDN file at `path`: `analyse_pdn` over
    the file's text, with the same keyword options. A file that cannot be
    read is an `OSError`."""
    with open(path, encoding="utf-8", errors="replace") as pdn:
        text = pdn.read()
    return analyse_pdn(text, **options)


#: tempo's variant name -> pydraughts' name, for the variants both play.
PYDRAUGHTS_VARIANTS = {
    "international": "standard",
    "brazilian": "brazilian",
    "russian": "russian",
    "english": "english",
    "italian": "italian",
    "losing": "antidraughts",
    "breakthrough": "breakthrough",
    "frisian": "frisian",
    "frysk": "frysk!",
    "turkish": "turkish",
}

_FROM_PYDRAUGHTS = {pd: name for name, pd in PYDRAUGHTS_VARIANTS.items()}


def _mirror(square: int, width: int) -> int:
    """A square number counted from the other side's rows (pydraughts
    numbers Brazilian and Russian squares, and Turkish moves, from White's
    side; tempo, like the Hub protocol, from Black's)."""
    row, index = divmod(square - 1, width)
    return (7 - row) * width + index + 1


def _mirror_width(variant: str) -> Optional[int]:
    """Squares a row where the numbering of pydraughts and tempo differ."""
    return {"brazilian": 4, "russian": 4, "turkish": 8}.get(variant)


def _translate_move(hub: str, variant: str) -> str:
    """A Hub long-form move between tempo's and pydraughts' numbering
    (the same map both ways). pydraughts' FENs need no such map: tempo
    reads the coordinates of its Brazilian, Russian and Turkish FENs."""
    width = _mirror_width(variant)
    if width is None or not hub.replace("-", "x").replace("x", "").isdigit():
        return hub  # coordinates (pydraughts' Turkish move stack): tempo reads them
    separator = "-" if "-" in hub else "x"
    return separator.join(str(_mirror(int(s), width)) for s in hub.split(separator))


def _pydraughts_hub(move: Move) -> str:
    """A move in pydraughts' Hub form: square numbers (coordinates in
    tempo's Turkish notation), in pydraughts' numbering."""
    if move.is_capture:
        hub = "x".join(str(s) for s in [move.from_square, move.to_square, *move.captured])
    else:
        hub = f"{move.from_square}-{move.to_square}"
    return _translate_move(hub, move.variant)


def _pydraughts_name(variant: str) -> str:
    try:
        return PYDRAUGHTS_VARIANTS[variant]
    except KeyError:
        raise ValueError(f"pydraughts has no {variant} draughts") from None


def to_pydraughts(board: Board) -> Any:
    """A pydraughts `Board` of the same game: the start position by FEN,
    then every move played, by its Hub move string. Needs pydraughts
    (`pip install pydraughts`); a variant pydraughts does not play
    (killer, losing-brazilian) is a `ValueError`."""
    import draughts

    name = _pydraughts_name(board.variant)
    start = Board(board.variant, board.start_fen)
    pd = draughts.Board(name, fen=_pydraughts_fen(start))
    for move in board.moves:
        pd.push(draughts.Move(pd, hub_move=_pydraughts_hub(move)))
    return pd


def from_pydraughts(pd: Any) -> Board:
    """A tempo `Board` of the game of a pydraughts `Board`: its start
    position, then every move of its move stack (so repetitions and the
    draw counters carry over). A variant tempo does not know is a
    `ValueError`."""
    try:
        variant = _FROM_PYDRAUGHTS[pd.variant]
    except KeyError:
        raise ValueError(f"pydraughts variant {pd.variant!r} is not one tempo plays") from None
    board = Board(variant, pd.initial_fen)
    for move in pd.move_stack:
        board.play(_translate_move(move.hub_move, variant))
    return board


def _pydraughts_fen(board: Board) -> str:
    """The FEN of `board` as pydraughts reads it: squares as coordinates
    in Brazilian and Russian (tempo writes numbers there; Turkish FENs are
    in coordinates in both), numbers elsewhere."""
    if board.variant not in ("brazilian", "russian"):
        return board.fen
    side, *sections = board.fen.split(":")
    out = [side]
    for section in sections:
        colour, body = section[:1], section[1:]
        items = []
        for item in filter(None, body.split(",")):
            king = "K" if item.startswith("K") else ""
            row, index = divmod(int(item.lstrip("K")) - 1, 4)
            file = 2 * index + (1 if row % 2 == 0 else 0)
            items.append(f"{king}{'abcdefgh'[file]}{8 - row}")
        out.append(colour + ",".join(items))
    return ":".join(out)
