"""Complete games of tempo through a real Hub client: pydraughts' HubEngine.

Usage: python play_games.py PATH_TO_TEMPO [SEED]

pydraughts starts `tempo hub`, reads its `id`/`param` lines, sends `init`,
then plays International ("standard") and Brazilian games: the engine
against itself, and against a random mover that picks among pydraughts'
legal moves. pydraughts keeps the board: every engine move (and every
ponder move) is checked against its legal moves, and a game ends when
pydraughts' rules say so (win, or its draw rules). A game that pydraughts
has not ended after MOVE_CAP plies is stopped there and still passes if
every move was legal (pydraughts' draw rules may never fire between two
cautious players).

International moves go through `HubEngine.play`, pydraughts' own path.
Brazilian moves go through `HubEngine.go`: pydraughts writes 8x8 moves with
squares numbered from White's side (rows mirrored; its 9-13 is the
standard 21-17), so this script translates the moves it sends and reads.

Fails (exit 1) on any illegal move, any `error` from the engine, any line
pydraughts did not expect (it logs a warning for each), or an engine that
does not answer within WATCHDOG seconds. Prints one line per game.
"""

import logging
import random
import subprocess
import sys
import threading
import time

from draughts import WHITE, Board, Move
from draughts.engine import HubEngine, Limit

MOVE_CAP = 300
MOVE_TIME = 0.05
WATCHDOG = 30.0

# (variant, white, black): "engine" or "random".
GAMES = [
    ("standard", "engine", "engine"),
    ("standard", "engine", "random"),
    ("standard", "random", "engine"),
    ("brazilian", "engine", "engine"),
    ("brazilian", "engine", "random"),
    ("brazilian", "random", "engine"),
]


class Problems(logging.Handler):
    """Collects pydraughts' warnings: each is a line it did not expect."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def mirror8(square):
    """pydraughts' 8x8 square number <-> the standard one (rows mirrored)."""
    row, index = divmod(square - 1, 4)
    return (7 - row) * 4 + index + 1


def translate(move, variant):
    """A Hub move between pydraughts' numbering and the standard one."""
    if variant != "brazilian":
        return move
    separator = "-" if "-" in move else "x"
    return separator.join(str(mirror8(int(s))) for s in move.split(separator))


def key(move):
    """A Hub move as (from, to, set of captured squares)."""
    if "-" in move:
        start, end = move.split("-")
        return int(start), int(end), frozenset()
    squares = [int(s) for s in move.split("x")]
    return squares[0], squares[1], frozenset(squares[2:])


def legal_keys(board):
    return {key(m.hub_move) for m in board.legal_moves()}


class Watchdog:
    """Kills the engine if one request takes longer than WATCHDOG seconds,
    so that a silent engine fails the test instead of hanging pydraughts."""

    def __init__(self, engine):
        self.engine = engine
        self.timer = None
        self.fired = False

    def __enter__(self):
        self.timer = threading.Timer(WATCHDOG, self.fire)
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        return False

    def fire(self):
        self.fired = True
        self.engine.p.kill()


def engine_move(engine, board, variant):
    """Asks the engine for a move; returns pydraughts' Move for it after
    checking it (and the ponder move) against the legal moves."""
    legal = legal_keys(board)
    with Watchdog(engine) as dog:
        try:
            if variant == "standard":
                result = engine.play(board, Limit(movetime=MOVE_TIME), ponder=False)
                best, ponder_move = result.move.hub_move, result.ponder
                ponder = ponder_move.hub_move if ponder_move else None
            else:
                history = " ".join(translate(m.hub_move, variant) for m in board.move_stack)
                best, ponder = engine.go(
                    board._game.initial_hub_fen, moves=history, movetime=MOVE_TIME
                )
                best = translate(best, variant)
                ponder = translate(ponder, variant) if ponder else None
        except KeyError as e:
            raise SystemExit(f"pydraughts found the engine's move illegal: {e}")
        except EOFError:
            why = "no answer within the watchdog" if dog.fired else "the engine exited"
            raise SystemExit(f"{variant}: {why} after {len(board.move_stack)} plies")
    if key(best) not in legal:
        raise SystemExit(f"{variant}: illegal move {best} after {len(board.move_stack)} plies")
    move = Move(board, hub_move=best)
    if ponder:
        after = board.copy()
        after.push(move)
        if key(ponder) not in legal_keys(after):
            raise SystemExit(f"{variant}: illegal ponder move {ponder} after {best}")
    return move


def play(engine, variant, white, black, rng):
    """Plays one game; returns (plies, outcome text)."""
    engine.setoption("variant", variant)
    engine.send("new-game")
    board = Board(variant)
    while not board.is_over() and len(board.move_stack) < MOVE_CAP:
        player = white if board.turn == WHITE else black
        if player == "engine":
            move = engine_move(engine, board, variant)
        else:
            move = rng.choice(board.legal_moves())
        board.push(move)
    winner = board.winner()
    if winner is None:
        outcome = f"stopped at the {MOVE_CAP}-ply cap, every move legal"
    elif winner == 0:
        outcome = "draw by pydraughts' rules"
    else:
        outcome = "white wins" if winner == WHITE else "black wins"
    return len(board.move_stack), outcome


def play_all(engine, rng):
    """init, every game, then ping and quit; the engine must exit cleanly."""
    with Watchdog(engine):
        engine.init()
    for variant, white, black in GAMES:
        game_started = time.time()
        plies, outcome = play(engine, variant, white, black, rng)
        print(
            f"{variant:9} {white:6} vs {black:6}: {plies:3} plies, {outcome} "
            f"({time.time() - game_started:.1f} s)",
            flush=True,
        )
    with Watchdog(engine):
        engine.ping()
    engine.quit()
    try:
        code = engine.p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        raise SystemExit("the engine did not exit after quit")
    engine.p.stdin.close()
    engine.p.stdout.close()
    if code != 0:
        raise SystemExit(f"the engine exited with {code}")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    problems = Problems()
    logging.getLogger("pydraughts").addHandler(problems)

    started = time.time()
    engine = HubEngine([sys.argv[1], "hub"])
    if engine.id.get("name") != "tempo":
        raise SystemExit(f"unexpected id: {engine.id}")
    missing = {"variant", "threads", "hash", "multipv"} - engine.options
    if missing or not {"normal", "brazilian"} <= engine.variants:
        raise SystemExit(f"parameters: {engine.options}, variants: {engine.variants}")
    try:
        play_all(engine, rng)
    finally:
        if engine.p.poll() is None:
            engine.p.kill()
            engine.p.wait()
    if problems.messages:
        raise SystemExit("protocol problems:\n" + "\n".join(problems.messages))
    print(f"{len(GAMES)} games, no illegal move, no protocol error ({time.time() - started:.1f} s)")


if __name__ == "__main__":
    main()
