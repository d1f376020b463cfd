"""tempo from Python, measured side by side in one run (benches/tools.md, "Python package").

Usage: python python/benches/speed.py PATH_TO_TEMPO_CLI [PERFT_DEPTH]

1. Legal-move generation from Python: `tempo.Board.legal_moves()` against
   pydraughts' `Board.legal_moves()` on the same 200 International
   positions (from random games), each call returning move objects; calls
   a second for each and the ratio.
2. Perft of the International start position from Python
   (`Board.perft(depth)`) against the command line's time for the same
   depth (`tempo perft --depth D`, its line for depth D); best of ten
   runs each,
   alternating.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time

import draughts

import tempo


RUNS = 10


def positions(count: int, seed: int = 1) -> list[str]:
    """FENs met in random International games (the game's ply 4 to 60)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = tempo.Board()
        for ply in range(60):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            board.play(rng.choice(moves))
            if ply >= 4 and rng.random() < 0.2:
                fens.append(board.fen)
    return fens[:count]


def calls_per_second(boards: list, seconds: float) -> float:
    calls = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for board in boards:
            board.legal_moves()
        calls += len(boards)
    return calls / (time.perf_counter() - started)


def cli_perft(cli: str, depth: int) -> tuple[int, float]:
    out = subprocess.run([cli, "perft", "--depth", str(depth)], capture_output=True, text=True,
                         check=True).stdout
    match = re.search(rf"^depth {depth} nodes (\d+) time ([\d.]+)", out, re.M)
    assert match, out
    return int(match.group(1)), float(match.group(2))


def main() -> None:
    cli = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    fens = positions(200)
    ours = [tempo.Board("international", fen) for fen in fens]
    theirs = [draughts.Board("standard", fen=fen) for fen in fens]
    for a, b in zip(ours, theirs):
        assert len(a.legal_moves()) == len(b.legal_moves())
    pd_rate = calls_per_second(theirs, 5.0)
    core_rate = calls_per_second([b._game for b in theirs], 5.0)
    tempo_rate = calls_per_second(ours, 2.0)
    print(f"legal_moves, 200 International positions: pydraughts Board {pd_rate:,.0f} calls/s, "
          f"pydraughts core (Board._game) {core_rate:,.0f} calls/s, tempo {tempo_rate:,.0f} calls/s; "
          f"ratio {tempo_rate / pd_rate:,.0f}x and {tempo_rate / core_rate:,.0f}x")

    start = tempo.Board()
    python_times, cli_times = [], []
    for _ in range(RUNS):
        for shallower in range(1, depth):  # as the CLI does before its line
            start.perft(shallower)
        began = time.perf_counter()
        nodes = start.perft(depth)
        python_times.append(time.perf_counter() - began)
        cli_nodes, secs = cli_perft(cli, depth)
        assert cli_nodes == nodes
        cli_times.append(secs)
    py_best, cli_best = min(python_times), min(cli_times)
    print(f"perft {depth}, International start, {nodes:,} nodes: Python {py_best:.3f} s, "
          f"CLI {cli_best:.3f} s, ratio {py_best / cli_best:.3f}")


if __name__ == "__main__":
    main()
