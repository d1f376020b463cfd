"""analyse_pdn: the records of `tempo analyse --pdn`, as Python objects."""

from __future__ import annotations

import json

import pytest

import tempo
from conftest import run_cli

TWO_GAMES = """[Event "International test"]
[GameType "20"]
[Result "*"]

1. 34-30 {the main line} 17-21 2. 40-34 (2. 30-25 21-26) 21-27 3. 31x22 18x27
4. 32x21 16x27 *

[Event "Brazilian test"]
[GameType "26"]
1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-0
"""

BLUNDER = '[FEN "W:W27,32,37:B8,12,17,18"]\n1. 27-22 *\n'


def test_records_of_two_games():
    records = list(tempo.analyse_pdn(TWO_GAMES, depth=3))
    assert [r.game for r in records] == [1] * 9 + [2] * 5
    assert [r.ply for r in records] == list(range(9)) + list(range(5))
    assert [r.variant for r in records] == ["international"] * 9 + ["brazilian"] * 5
    first = records[0]
    assert first.source == "game" and first.line == 1
    assert first.side == "white" and first.played == "34-30"
    assert first.depth == 3 and first.best == first.pv[0]
    assert first.nodes > 0 and first.time >= 0
    assert first.lines[0].move == first.best and first.lines[0].pv == first.pv
    assert first.lines[0].score == first.score
    last = records[8]
    assert last.played is None and last.loss is None and last.played_score is None
    assert "AnalysisRecord(game=1" in repr(first)
    assert "AnalysisLine(move=" in repr(first.lines[0])


def test_a_blunder_is_a_loss():
    (record, _) = list(tempo.analyse_pdn(BLUNDER, depth=6))
    assert record.played == "27-22" and record.best != "27-22"
    assert record.loss >= 1.0
    assert abs(record.score - record.played_score - record.loss) < 1e-9
    # The best move keeps the game going; the blunder loses a man at once
    # and, seen deep enough, the game (a mate score, negative: lost).
    assert record.mate is None
    assert record.played_mate is None or record.played_mate < 0


def test_to_dict_is_the_json_record():
    record = next(iter(tempo.analyse_pdn(BLUNDER, depth=2, multipv=2)))
    data = record.to_dict()
    assert data == json.loads(record.to_json())
    for key in ("variant", "source", "line", "fen", "side", "depth", "score", "mate", "best",
                "pv", "nodes", "game", "ply", "played", "played_score", "played_mate", "loss"):
        assert data[key] == getattr(record, key), key
    assert len(data["lines"]) == 2 == len(record.lines)
    for line, obj in zip(data["lines"], record.lines):
        assert (line["move"], line["score"], line["mate"], line["pv"]) == (
            obj.move, obj.score, obj.mate, obj.pv)


def test_the_same_records_as_the_cli(tempo_cli, tmp_path):
    path = tmp_path / "games.pdn"
    path.write_text(TWO_GAMES)
    out = run_cli(tempo_cli, "analyse", "--pdn", str(path), "--depth", "4", "--output", "json")
    cli = [json.loads(line) for line in out.splitlines()]
    ours = [r.to_dict() for r in tempo.analyse_pdn_file(path, depth=4)]
    assert len(cli) == len(ours) == 14
    for a, b in zip(cli, ours):
        a.pop("time"), b.pop("time")
        assert a == b


def test_bad_games_raise_or_are_skipped():
    bad = '[Event "illegal"]\n1. 32-28 18-22 2. 28-22 *\n[Event "good"]\n1. 32-28 *\n'
    with pytest.raises(ValueError, match="line 2: game 1"):
        tempo.analyse_pdn(bad, depth=1)
    analysis = tempo.analyse_pdn(bad, depth=1, skip_invalid=True)
    assert analysis.skipped == 1
    assert [r.game for r in analysis] == [2, 2]


def test_analysis_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        tempo.analyse_pdn_file(tmp_path / "missing.pdn")
    with pytest.raises(FileNotFoundError, match="weights"):
        tempo.analyse_pdn(BLUNDER, depth=1, weights=tmp_path / "missing")
    with pytest.raises(ValueError, match="unknown variant"):
        tempo.analyse_pdn(BLUNDER, variant="chess")
    with pytest.raises(ValueError, match="positive"):
        tempo.analyse_pdn(BLUNDER, movetime=0)
    with pytest.raises(ValueError):
        tempo.analyse_pdn(BLUNDER, depth=1, multipv=0)
    bad = tmp_path / "bad.weights"
    bad.write_text("nonsense")
    with pytest.raises(OSError):
        list(tempo.analyse_pdn(BLUNDER, depth=1, weights=bad))


def test_an_abandoned_analysis_stops():
    analysis = tempo.analyse_pdn(TWO_GAMES, movetime=0.05)
    first = next(analysis)
    assert first.ply == 0
    del analysis  # the analysis thread ends after the position it searches
