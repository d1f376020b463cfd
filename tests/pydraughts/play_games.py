"""Complete games of tempo through a real Hub client: pydraughts' HubEngine.

Usage: python play_games.py PATH_TO_TEMPO [SEED [VARIANT GAMES PLIES]]

With VARIANT (pydraughts' name), GAMES and PLIES it plays only GAMES games
of that variant, the engine against itself, each from PLIES random plies
(picked among pydraughts' legal moves from the start): a longer check of
one variant, with the same checks as below.

pydraughts starts `tempo hub`, reads its `id`/`param` lines, sends `init`,
then plays games of every variant pydraughts and tempo share (International
as "standard", Brazilian, Russian, English, Italian, antidraughts,
breakthrough, Frisian, Frysk! as "frysk!" and Turkish; pydraughts has no
Killer): in each, the engine against itself
and against a random mover that picks among pydraughts' legal moves. The
variant is set with `HubEngine.setoption("variant", NAME)` under pydraughts'
own name; pydraughts sends it only because tempo lists its variants in its
`param name=variant` line, and tempo must take pydraughts' spellings
(`standard`, `antidraughts`, `breakthrough`, `frysk!`).

pydraughts keeps the board: every engine move (and every ponder move) is
checked against its legal moves, and a game ends when pydraughts' rules say
so (win, or its draw rules). What each game must end in:
- against the random mover: a win for the engine under pydraughts' rules,
  within the variant's ply cap (a draw or the cap fails the test);
- engine against itself: any end, or the ply cap, with every move legal.
Every game pydraughts ends with a win is also replayed with `tempo game`,
whose result must be the same win, at the same ply: the two programs agree
on when and how a game is won (in Turkish tempo may end it earlier, by the
lone-piece rule that pydraughts does not apply).

Every engine move goes through `HubEngine.play`, pydraughts' own path, as
a user or a lidraughts bot calls it, with no translation here: in
Brazilian, Russian and Turkish pydraughts numbers its moves from White's
side (rows mirrored: its 9-13 is the PDN 21-17), and in English it sends
its start position turned half a turn (`W` for the side that moves first);
tempo speaks that numbering on the Hub wire by default (its `numbering`
parameter, protocol.md). Only the replay with `tempo game`, which reads the
PDN numbering of the command line, translates the moves (`translate`).

Fails (exit 1) on any illegal move, any `error` from the engine, any line
pydraughts did not expect (it logs a warning for each), an engine that does
not answer within WATCHDOG seconds, a game against the random mover that the
engine does not win, or a disagreement with `tempo game` about a win.
Prints one line per game.
"""

import logging
import random
import subprocess
import sys
import threading
import time

from draughts import BLACK, WHITE, Board, Move
from draughts.engine import HubEngine, Limit

WATCHDOG = 30.0

# pydraughts' variant name -> (tempo's command-line name, seconds a move,
# ply cap). The variants added after the first two think less, so that the
# whole run stays short.
VARIANTS = {
    "standard": ("international", 0.05, 300),
    "brazilian": ("brazilian", 0.05, 300),
    "russian": ("russian", 0.02, 200),
    "english": ("english", 0.02, 200),
    "italian": ("italian", 0.02, 200),
    "antidraughts": ("losing", 0.02, 200),
    "breakthrough": ("breakthrough", 0.02, 200),
    "frisian": ("frisian", 0.02, 200),
    "frysk!": ("frysk", 0.02, 200),
    "turkish": ("turkish", 0.02, 300),
}

# (variant, white, black): "engine" or "random".
GAMES = [
    (variant, white, black)
    for variant in VARIANTS
    for white, black in [("engine", "engine"), ("engine", "random"), ("random", "engine")]
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


def mirror64(square):
    """pydraughts' Turkish move numbers (1 = a1, from White's side) <-> tempo's
    (1 = a8, from Black's side, as in both programs' Hub position strings)."""
    row, index = divmod(square - 1, 8)
    return (7 - row) * 8 + index + 1


def translate(move, variant):
    """A Hub move between pydraughts' numbering and the PDN numbering of
    `tempo game` (they differ for Brazilian, Russian and Turkish: mirrored
    rows)."""
    mirror = {"brazilian": mirror8, "russian": mirror8, "turkish": mirror64}.get(variant)
    if mirror is None:
        return move
    separator = "-" if "-" in move else "x"
    return separator.join(str(mirror(int(s))) for s in move.split(separator))


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
    """Asks the engine for a move through `HubEngine.play`; returns
    pydraughts' Move for it after checking it (and the ponder move) against
    the legal moves."""
    legal = legal_keys(board)
    move_time = VARIANTS[variant][1]
    with Watchdog(engine) as dog:
        try:
            result = engine.play(board, Limit(movetime=move_time), ponder=False)
            best, ponder_move = result.move.hub_move, result.ponder
            ponder = ponder_move.hub_move if ponder_move else None
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


def pieces(board):
    """Each side's pieces from pydraughts' FEN: {WHITE: (count, kings), ...}."""
    counts = {}
    for section in board.fen.split(":")[1:]:
        items = [p for p in section[1:].split(",") if p]
        side = WHITE if section[0] == "W" else BLACK
        counts[side] = (len(items), sum(p.startswith("K") for p in items))
    return counts


def lone_piece_winner(board):
    """Turkish, seed 003: a side left with one piece against a king has lost
    (a king against a king is no win). pydraughts does not apply the rule;
    this script does, so that tempo's verdict is checked against it."""
    counts = pieces(board)
    for side, other in ((WHITE, BLACK), (BLACK, WHITE)):
        (mine, my_kings), (theirs, their_kings) = counts[side], counts[other]
        if mine == 1 and their_kings and not (my_kings and theirs == 1):
            return other
    return None


def square_of(number):
    """(row from White's side, file) of one of pydraughts' Turkish move numbers."""
    return divmod(number - 1, 8)


def random_moves(board, variant):
    """pydraughts' legal moves for the random mover; in Turkish without the
    quiet king moves that pass over a piece (its own or the opponent's),
    which pydraughts allows and the rules (and tempo, and kish) do not."""
    moves = board.legal_moves()
    if variant != "turkish":
        return moves
    occupied = {}
    for section in board.fen.split(":")[1:]:
        for item in filter(None, section[1:].split(",")):
            name = item.lstrip("K")
            occupied[(int(name[1]) - 1, ord(name[0]) - ord("a"))] = section[0]

    def passes_a_piece(move):
        if "-" not in move.hub_move:
            return False
        (r0, f0), (r1, f1) = (square_of(int(n)) for n in move.hub_move.split("-"))
        steps = max(abs(r1 - r0), abs(f1 - f0))
        dr, df = (r1 > r0) - (r1 < r0), (f1 > f0) - (f1 < f0)
        return any((r0 + i * dr, f0 + i * df) in occupied for i in range(1, steps))

    return [m for m in moves if not passes_a_piece(m)]


def referee(tempo, variant, board):
    """`tempo game`'s verdict on the game: (result, end ply or None, reason)."""
    moves = " ".join(translate(m.hub_move, variant) for m in board.move_stack)
    out = subprocess.run(
        [tempo, "game", "--variant", VARIANTS[variant][0], "--moves", moves],
        capture_output=True,
        text=True,
        timeout=WATCHDOG,
    )
    if out.returncode != 0:
        raise SystemExit(f"{variant}: tempo game refused the game: {out.stderr}\n{moves}")
    lines = out.stdout.splitlines()
    fields = dict(f.split("=", 1) for line in lines[-2:] for f in line.split())
    end = None if fields["end-ply"] == "-" else int(fields["end-ply"])
    return fields["result"], end, fields["reason"]


def play(engine, tempo, variant, white, black, rng, opening=0):
    """Plays one game, the first `opening` plies at random; returns
    (plies, outcome text)."""
    engine.setoption("variant", variant)
    engine.send("new-game")
    board = Board(variant)
    cap = VARIANTS[variant][2]
    while not board.is_over() and len(board.move_stack) < cap:
        if variant == "turkish" and lone_piece_winner(board) is not None:
            break
        player = white if board.turn == WHITE else black
        if len(board.move_stack) < opening:
            move = rng.choice(board.legal_moves())
        elif player == "engine":
            move = engine_move(engine, board, variant)
        else:
            move = rng.choice(random_moves(board, variant))
        board.push(move)
    plies = len(board.move_stack)
    winner = board.winner()
    lone = variant == "turkish" and lone_piece_winner(board) is not None
    if lone:
        winner = lone_piece_winner(board)
    if winner is None:
        outcome = f"stopped at the {cap}-ply cap, every move legal"
    elif winner == 0:
        outcome = "draw by pydraughts' rules"
    else:
        outcome = "white wins" if winner == WHITE else "black wins"
        if lone:
            outcome += " (lone piece)"
        result, end, reason = referee(tempo, variant, board)
        wanted = "1-0" if winner == WHITE else "0-1"
        lone = reason == "lone-piece"
        if result == "1/2-1/2" and end is not None and end < plies:
            # pydraughts lacks some draw rules of the variant (Brazilian's
            # king-move and endgame counts, say): the game went on past
            # the draw tempo's rules call, which is no disagreement on the
            # moves.
            outcome += f" (a draw by tempo's rules at ply {end}: {reason})"
        elif (result, end) != (wanted, plies) or lone != (outcome.endswith("(lone piece)")):
            raise SystemExit(
                f"{variant} {white} vs {black}: pydraughts says {outcome} after {plies} plies, "
                f"tempo game says {result} at ply {end}"
            )
    if "random" in (white, black):
        engine_colour = WHITE if white == "engine" else BLACK
        if winner != engine_colour:
            raise SystemExit(
                f"{variant} {white} vs {black}: the engine did not beat the random mover: "
                f"{outcome} after {plies} plies\nmoves (pydraughts' numbering): "
                + " ".join(m.hub_move for m in board.move_stack)
            )
    return plies, outcome


def play_all(engine, tempo, rng, games, opening):
    """init, every game, then ping and quit; the engine must exit cleanly."""
    with Watchdog(engine):
        engine.init()
    for variant, white, black in games:
        game_started = time.time()
        plies, outcome = play(engine, tempo, variant, white, black, rng, opening)
        print(
            f"{variant:12} {white:6} vs {black:6}: {plies:3} plies, {outcome} "
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
    games, opening = GAMES, 0
    if len(sys.argv) > 3:
        if len(sys.argv) != 6 or sys.argv[3] not in VARIANTS:
            raise SystemExit(f"VARIANT GAMES PLIES: VARIANT one of {', '.join(VARIANTS)}\n{__doc__}")
        games = [(sys.argv[3], "engine", "engine")] * int(sys.argv[4])
        opening = int(sys.argv[5])
    problems = Problems()
    logging.getLogger("pydraughts").addHandler(problems)

    started = time.time()
    engine = HubEngine([sys.argv[1], "hub"])
    if engine.id.get("name") != "tempo":
        raise SystemExit(f"unexpected id: {engine.id}")
    missing = {"variant", "threads", "hash", "multipv"} - engine.options
    hub_names = {"normal", "brazilian", "losing", "losing-brazilian", "russian", "english",
                 "italian", "killer", "bt", "frisian", "frysk", "turkish"}
    if missing or engine.variants != hub_names:
        raise SystemExit(f"parameters: {engine.options}, variants: {engine.variants}")
    try:
        play_all(engine, sys.argv[1], rng, games, opening)
    finally:
        if engine.p.poll() is None:
            engine.p.kill()
            engine.p.wait()
    if problems.messages:
        raise SystemExit("protocol problems:\n" + "\n".join(problems.messages))
    print(f"{len(games)} games, no illegal move, no protocol error ({time.time() - started:.1f} s)")


if __name__ == "__main__":
    main()
