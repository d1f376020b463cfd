"""Board, Move and DrawClocks: the rules of every variant from Python."""

from __future__ import annotations

import copy
import random

import pytest

import tempo
from conftest import ROOT

START_MOVES = {
    "international": 9,
    "brazilian": 7,
    "losing": 9,
    "losing-brazilian": 7,
    "russian": 7,
    "english": 7,
    "italian": 7,
    "killer": 9,
    "breakthrough": 9,
    "frisian": 9,
    "frysk": 9,
    "turkish": 8,
}


def test_every_variant_starts_with_its_moves():
    assert sorted(tempo.VARIANTS) == sorted(START_MOVES)
    for variant, count in START_MOVES.items():
        board = tempo.Board(variant)
        assert board.variant == variant
        assert len(board.legal_moves()) == count, variant
        assert board.result == "*" and not board.is_over()
        assert tempo.Board(variant, board.fen).fen == board.fen
        assert tempo.Board(variant, board.hub).fen == board.fen


def test_variant_aliases_and_default():
    assert tempo.Board().variant == "international"
    assert tempo.Board("normal").variant == "international"
    assert tempo.Board("antidraughts").variant == "losing"


def test_move_fields():
    board = tempo.Board("international", "W:W32:B28,19")
    (move,) = board.legal_moves()
    assert move.notation == "32x14" and move.is_capture
    assert (move.from_square, move.to_square, move.captured) == (32, 14, [19, 28])
    assert move.hub == f"{move.from_square}x{move.to_square}x" + "x".join(map(str, move.captured))
    assert str(move) == move.notation
    assert repr(move) == f"Move('{move.hub}')"
    assert move.variant == "international"
    quiet = tempo.Board().legal_moves()[0]
    assert not quiet.is_capture and quiet.captured == [] and "-" in quiet.notation


def test_play_undo_and_history():
    board = tempo.Board()
    first = board.play("32-28")
    assert isinstance(first, tempo.Move) and first.notation == "32-28"
    assert board.turn == "black" and board.ply == 1
    reply = board.legal_moves()[0]
    assert board.play(reply) == reply
    assert [m.notation for m in board.moves] == ["32-28", reply.notation]
    assert board.undo() == reply
    assert board.undo() == first
    assert board.undo() is None
    assert board.fen == tempo.Board().fen and board.turn == "white"


def test_moves_in_the_constructor_and_notations():
    board = tempo.Board("international", moves=["32-28", "19-23", "28x19x23"])
    assert board.ply == 3
    assert board.moves[-1].hub == "28x19x23"
    assert board.start_fen == tempo.Board().fen
    coordinates = tempo.Board("brazilian")
    coordinates.play("c3-d4")
    assert coordinates.ply == 1


def test_errors_are_value_errors():
    with pytest.raises(ValueError, match="unknown variant"):
        tempo.Board("chess")
    with pytest.raises(ValueError, match="FEN"):
        tempo.Board("international", "W:X1")
    with pytest.raises(ValueError):
        tempo.Board("international", "not a position")
    board = tempo.Board()
    with pytest.raises(ValueError, match="not a legal move"):
        board.play("46-41")
    with pytest.raises(ValueError):
        board.play("hello")
    with pytest.raises(ValueError):
        board.play(42)
    with pytest.raises(ValueError, match="brazilian move"):
        board.play(tempo.Board("brazilian").legal_moves()[0])
    with pytest.raises(ValueError, match="move 2"):
        tempo.Board(moves=["32-28", "32-28"])
    with pytest.raises(ValueError, match="not on this board"):
        board.piece_at(51)
    with pytest.raises(ValueError):
        board.perft(3, threads=0)
    assert board.ply == 0


def test_a_short_capture_that_fits_several_needs_the_long_form():
    # The king on 1 takes 7, 18 and 29 and may land on 34, 40 or 45; a
    # short form names the landing square, the long form the men taken.
    board = tempo.Board("international", "W:WK1:B7,18,29,17")
    assert sorted(m.hub for m in board.legal_moves()) == [
        "1x34x7x18x29", "1x40x7x18x29", "1x45x7x18x29"]
    for move in board.legal_moves():
        assert board.copy().play(move.hub) == move
        assert board.copy().play(move.notation) == move
    # Two captures from 28 to 19... over different men: 28x19 is ambiguous?
    twice = tempo.Board("international", "W:WK50:B44,33,39,28")
    notations = [m.notation for m in twice.legal_moves()]
    for short in {n for n in notations if notations.count(n) > 1}:
        with pytest.raises(ValueError, match="ambiguous"):
            twice.copy().play(short)


def test_piece_at_fen_hub_and_diagram():
    board = tempo.Board("international", "B:W31,K45:B5,K12")
    assert board.piece_at(31) == "w"
    assert board.piece_at(45) == "W"
    assert board.piece_at(5) == "b"
    assert board.piece_at(12) == "B"
    assert board.piece_at(1) is None
    assert board.turn == "black"
    assert board.hub[0] == "B" and len(board.hub) == 51
    diagram = str(board)
    assert diagram.endswith("black to move") and diagram.count("\n") == 10
    assert repr(board) == f"Board('international', '{board.fen}')"


def test_copy_is_independent():
    board = tempo.Board()
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        other.play("32-28")
        assert board.ply == 0 and other.ply == 1


def _published_perft():
    rows = []
    for name in ("perft.tsv", "perft_variants.tsv"):
        for line in (ROOT / "tests" / "data" / name).read_text().splitlines():
            if line.startswith("#") or line.startswith("variant\t"):
                continue
            variant, _, convention, depth, nodes, fen = line.split("\t")
            if convention == "U" and int(nodes) <= 300_000:
                rows.append((variant, int(depth), int(nodes), fen))
    return rows


@pytest.mark.parametrize("variant,depth,nodes,fen", _published_perft())
def test_perft_matches_the_published_counts(variant, depth, nodes, fen):
    assert tempo.Board(variant, fen).perft(depth) == nodes


def test_perft_threads_and_divide():
    board = tempo.Board()
    assert board.perft(0) == 1
    assert board.perft(5, threads=2) == 27117
    counts = board.divide(4)
    assert len(counts) == 9 and sum(n for _, n in counts) == 4265
    assert all(isinstance(m, tempo.Move) for m, _ in counts)


def test_a_win_ends_the_game():
    # White takes the last black man.
    board = tempo.Board("international", "W:W28:B23")
    board.play("28x19")
    assert board.is_over()
    assert board.result == "1-0" and board.winner == "white"
    assert board.reason == "no-moves"
    assert "Black" in board.result_text
    assert board.legal_moves() == []
    board.undo()
    assert board.result == "*" and board.winner is None and board.reason == "none"


def test_draw_by_repetition():
    board = tempo.Board("international", "W:WK47,K50:BK1,K4")
    for move in ["47-42", "1-6", "42-47", "6-1"] * 2:
        assert not board.is_over()
        board.play(move)
    assert board.clocks.occurrences == 3
    assert board.is_over() and board.result == "1/2-1/2"
    assert board.reason == "repetition" and board.winner is None
    assert board.result_text == "draw by rule: repetition"


def test_king_move_rule_and_clocks():
    """25 moves of each side with kings only draw (International); kings
    wander at random, never three times in one position, never capturing."""
    board = tempo.Board("international", "W:WK47,K50,36:BK1,K4,15")
    clocks = board.clocks
    assert clocks.king_moves == 25 and clocks.repetitions == 3
    assert clocks.short_endgame_moves == 5 and clocks.long_endgame_moves == 10
    assert clocks.reversible_plies == 0 and clocks.occurrences == 1
    assert clocks.short_endgame_plies is None and clocks.long_endgame_plies is None
    assert clocks.plies_until_draw == 50
    rng = random.Random(0)
    while not board.is_over():
        safe = []
        for move in board.legal_moves():
            if board.piece_at(move.from_square) not in ("W", "B"):
                continue
            after = board.copy()
            after.play(move)
            if after.clocks.occurrences < 3 and not any(m.is_capture for m in after.legal_moves()):
                safe.append(move)
        board.play(rng.choice(safe))
        assert board.clocks.plies_until_draw == 50 - board.ply
    assert board.reason == "king-moves" and board.ply == 50
    assert board.clocks.reversible_plies == 50
    board.undo()
    assert not board.is_over()
    man = next(m for m in board.legal_moves() if board.piece_at(m.from_square) in ("w", "b"))
    board.play(man)
    assert board.clocks.reversible_plies == 0
    assert "DrawClocks(" in repr(board.clocks)


def test_endgame_rule_counters():
    # Three kings against one: the long-endgame rule (10 moves each).
    long = tempo.Board("international", "W:WK47,K50,K30:BK1")
    assert long.clocks.long_endgame_plies == 0 and long.clocks.short_endgame_plies is None
    assert long.clocks.plies_until_draw == 20
    # A king against a king: the short-endgame rule (5 moves each).
    short = tempo.Board("international", "W:WK47:BK1")
    assert short.clocks.short_endgame_plies == 0 and short.clocks.plies_until_draw == 10
    for _ in range(10):
        short.play(short.legal_moves()[0])
    assert short.reason == "5-move" and short.result == "1/2-1/2"
    assert short.clocks.short_endgame_plies == 10
