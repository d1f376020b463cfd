"""EndgameTables: probing the tables of `tempo egdb build`, and an Engine
that uses them."""

from __future__ import annotations

import pytest

import tempo
from conftest import run_cli

# Brazilian endings of 2 and 3 pieces, either side to move.
ENDINGS = [
    "W:WK29:B1",
    "B:WK29:B1",
    "W:W22:B5",
    "W:WK22,K29:B1",
    "B:WK22,K29:B1",
    "W:W21,22:BK3",
    "B:WK32:B13,14",
    "W:WK28:BK5",
]


def _cli_value(cli, tables, fen):
    out = run_cli(cli, "egdb", "probe", "--variant", "brazilian", "--pieces", "3",
                  "--dir", str(tables), "--fen", fen)
    return out.splitlines()[0].strip()


def _text(probe):
    if probe.value == "draw":
        return "draw"
    return f"{probe.value} in {probe.plies} plies"


def test_probes_agree_with_the_cli(tempo_cli, brazilian_tables):
    tables = tempo.EndgameTables(brazilian_tables, variant="brazilian", pieces=3)
    assert tables.loaded_pieces == 3 and tables.variant == "brazilian"
    assert "EndgameTables(" in repr(tables)
    for fen in ENDINGS:
        probe = tables.probe(tempo.Board("brazilian", fen))
        assert probe is not None
        assert _text(probe) == _cli_value(tempo_cli, brazilian_tables, fen), fen
        assert probe.value in ("win", "loss", "draw")
        assert (probe.plies is None) == (probe.value == "draw")
        assert repr(probe).startswith("Probe(")


def test_beyond_the_tables(brazilian_tables):
    tables = tempo.EndgameTables(brazilian_tables, variant="brazilian", pieces=4)
    assert tables.loaded_pieces == 3
    assert tables.probe(tempo.Board("brazilian")) is None
    with pytest.raises(ValueError, match="brazilian tables"):
        tables.probe(tempo.Board("international"))


def test_table_errors(tmp_path, brazilian_tables):
    with pytest.raises(FileNotFoundError):
        tempo.EndgameTables(tmp_path / "none", variant="brazilian")
    with pytest.raises(FileNotFoundError):
        tempo.EndgameTables(tmp_path, variant="brazilian")
    with pytest.raises(ValueError, match="no endgame databases"):
        tempo.EndgameTables(brazilian_tables, variant="losing")


def test_an_engine_with_tables_scores_the_win(brazilian_tables):
    engine = tempo.Engine(hash=8, variant="brazilian", egdb=brazilian_tables, egdb_pieces=3)
    board = tempo.Board("brazilian", "W:WK22,K29:B1")
    probe = tempo.EndgameTables(brazilian_tables, "brazilian", 3).probe(board)
    result = engine.search(board, depth=4)
    assert any("egdb" in note for note in result.notes)
    assert probe.value == "win"
    assert result.mate is not None and result.mate > 0
