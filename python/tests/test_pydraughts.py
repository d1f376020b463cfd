"""tempo against pydraughts: the same legal moves at every ply of random
games, and boards converted both ways.

The cross-check plays 100 random International and 100 random Brazilian
games (200 in all) to their end or 150 plies, comparing the move sets at
every ply. It drives pydraughts' rules core (`Board._game`: its move
generator, in the numbering tempo uses for both variants) rather than its
`Board`, whose move objects and FEN bookkeeping cost about ten times more
than the generation itself; the moves are pydraughts' all the same.
"""

from __future__ import annotations

import random

import pytest

import tempo

draughts = pytest.importorskip("draughts")

GAMES = 100
PLY_CAP = 150


def _key(hub: str):
    """A Hub move as (from, to, set of captured squares)."""
    if "-" in hub:
        start, end = hub.split("-")
        return int(start), int(end), frozenset()
    squares = [int(s) for s in hub.split("x")]
    return squares[0], squares[1], frozenset(squares[2:])


def _tempo_keys(board: tempo.Board):
    return {(m.from_square, m.to_square, frozenset(m.captured)) for m in board.legal_moves()}


def _pydraughts_keys(pd, variant: str):
    return {_key(tempo._translate_move(m.hub_move, variant)) for m in pd.legal_moves()}


def _core_moves(game):
    """pydraughts' core legal moves: key -> its steps."""
    moves, captures = game.legal_moves()
    return {
        (steps[0][0], steps[-1][1], frozenset(c for c in taken if c is not None)): steps
        for steps, taken in zip(moves, captures)
    }


def _random_game(variant: str, rng: random.Random) -> int:
    """Plays a random game on both; the plies compared."""
    board = tempo.Board(variant)
    game = draughts.Board(tempo.PYDRAUGHTS_VARIANTS[variant])._game
    for ply in range(PLY_CAP):
        theirs = _core_moves(game)
        ours = _tempo_keys(board)
        assert ours == set(theirs), f"{variant} ply {ply} {board.fen}: {ours ^ set(theirs)}"
        if not ours or board.is_over():
            return ply + 1
        move = rng.choice(sorted(board.legal_moves(), key=lambda m: m.hub))
        board.play(move)
        game.push(theirs[(move.from_square, move.to_square, frozenset(move.captured))])
    return PLY_CAP


@pytest.mark.parametrize("variant", ["international", "brazilian"])
def test_random_games_have_the_same_legal_moves(variant):
    rng = random.Random(48)
    plies = sum(_random_game(variant, rng) for _ in range(GAMES))
    assert plies > GAMES * 20


def test_the_public_boards_agree_too():
    """A few games through pydraughts' `Board` and its Hub move strings,
    the way a script uses it."""
    rng = random.Random(5)
    for variant in ("international", "brazilian"):
        for _ in range(3):
            board = tempo.Board(variant)
            pd = draughts.Board(tempo.PYDRAUGHTS_VARIANTS[variant])
            for _ in range(40):
                assert _pydraughts_keys(pd, variant) == _tempo_keys(board)
                if not board.legal_moves() or board.is_over():
                    break
                move = rng.choice(board.legal_moves())
                board.play(move)
                pd.push(draughts.Move(pd, hub_move=tempo._translate_move(move.hub, variant)))


@pytest.mark.parametrize("variant", sorted(tempo.PYDRAUGHTS_VARIANTS))
def test_boards_convert_both_ways(variant):
    rng = random.Random(7)
    board = tempo.Board(variant)
    for _ in range(30):
        moves = board.legal_moves()
        if not moves or board.is_over():
            break
        board.play(rng.choice(moves))
    pd = tempo.to_pydraughts(board)
    assert len(pd.move_stack) == board.ply
    assert _pydraughts_keys(pd, variant) == _tempo_keys(board)
    back = tempo.from_pydraughts(pd)
    assert back.fen == board.fen and back.variant == variant
    assert [m.hub for m in back.moves] == [m.hub for m in board.moves]
    # A pydraughts board from a FEN of its own.
    fresh = draughts.Board(tempo.PYDRAUGHTS_VARIANTS[variant], fen=pd.fen)
    assert tempo.from_pydraughts(fresh).fen == board.fen


def test_variants_pydraughts_lacks():
    with pytest.raises(ValueError, match="pydraughts has no killer"):
        tempo.to_pydraughts(tempo.Board("killer"))
