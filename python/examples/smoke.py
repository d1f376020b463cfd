"""A first script with the package: rules, a search and the endgame tables.

Usage: python smoke.py EGDB_DIR   (a directory of `tempo egdb build`,
International tables of up to 3 pieces at least)

Plays a short engine game from the start, then probes and searches a
won ending; prints what it finds, and fails (an AssertionError) if the
engine's move is not legal or the tables disagree with the search.
"""

import sys

import tempo

egdb = sys.argv[1]
print("tempo", tempo.__version__, "variants:", ", ".join(tempo.VARIANTS))

board = tempo.Board("international")
engine = tempo.Engine(threads=1, hash=32, egdb=egdb, egdb_pieces=3)
for _ in range(6):
    result = engine.search(board, depth=6)
    assert result.best in board.legal_moves()
    board.play(result.best)
    print(f"{result.best.hub:>12}  score {result.score:+.2f}  depth {result.depth}  nodes {result.nodes}")
print(board)
print("perft 6 from here:", board.perft(6))

ending = tempo.Board("international", "W:WK46,K47:B5")
tables = tempo.EndgameTables(egdb, "international", pieces=3)
probe = tables.probe(ending)
search = engine.search(ending, depth=10)
print("tables:", probe, " search:", search.best, "mate in", search.mate, "plies")
assert probe.value == "win" and search.mate is not None and search.mate > 0
print("ok")
