"""Plays one game against a DXP server with pydraughts' DXP client.

Usage: pydraughts_client.py PORT SEED MAX_PLIES

pydraughts (an independent implementation) connects as client and
initiator: it sends GAMEREQ with start `B` and the full initial position,
asking the server to play White, then one MOVE per half-move. This side
plays random legal moves for Black (seeded). Every move received is checked
by pydraughts itself: its receiver only takes a move that is among its
legal moves, so an illegal one shows up here as a missing reply.

The game ends when the server sends GAMEEND (it keeps the rules), when
pydraughts' own board says it is over (its draw thresholds differ from the
server's), or at MAX_PLIES (pydraughts never ends a game by itself: a cap
keeps the test bounded). In the last two cases this side sends GAMEEND.

Prints `move <from><-|x><to>` per half-move, then `plies N`, `ended-by
WHO` and `gameend R` (the reason the server sent, or `-`), and exits 0; on
any failure prints `error: ...` and exits 1. It leaves with os._exit:
pydraughts' receiver thread never ends once the socket is closed.
"""

import os
import random
import sys
import time

import draughts
from draughts.engine import DXPEngine

REPLY_TIMEOUT = 30.0


def say(line):
    print(line, flush=True)


def fail(why):
    say(f"error: {why}")
    os._exit(1)


def text(move):
    steps = move.steps_move
    sep = "x" if move.captures else "-"
    return f"{steps[0]}{sep}{steps[-1]}"


def main():
    port, seed, max_plies = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    board = draughts.Board(variant="standard")
    engine = DXPEngine(
        None,
        {"engine-opened": True, "ip": "127.0.0.1", "port": port, "max-moves": 0},
        initial_time=60,
    )
    sender, receiver = engine.sender, engine.receiver

    def game_ended():
        return sender.current.result is not None

    def accept(move):
        legal = {tuple(map(tuple, m.board_move)): m for m in board.legal_moves()}
        key = tuple(map(tuple, move.board_move))
        if key not in legal:
            fail(f"the server's move {text(move)} is not legal for pydraughts")
        board.push(legal[key])
        say(f"move {text(move)}")

    def wait_reply():
        """The server's move, or None once it has ended the game."""
        deadline = time.monotonic() + REPLY_TIMEOUT
        while time.monotonic() < deadline:
            if receiver.last_move_changed:
                return receiver.last_move
            if game_ended():
                return None
            time.sleep(0.001)
        fail("no legal move and no GAMEEND from the server in time")

    # The first call connects, sends GAMEREQ and waits for the first move:
    # the server plays White, the side to move.
    first = engine.play(board).move
    if first is None:
        fail("no first move from the server")
    if not engine.receiver.accepted:
        fail("the server refused the game")
    say(f"opponent {engine.id.get('name', '')}")
    accept(first)
    ended_by = None
    while ended_by is None:
        if game_ended():
            ended_by = "server"
        elif board.is_over():
            ended_by = "pydraughts"
        elif len(board.move_stack) >= max_plies:
            ended_by = "cap"
        else:
            ours = rng.choice(board.legal_moves())
            board.push(ours)
            say(f"move {text(ours)}")
            sender.send_move(ours)
            reply = wait_reply()
            if reply is None:
                ended_by = "server"
            else:
                accept(reply)
    if ended_by == "server" or game_ended():
        reason = sender.current.result
    else:
        # The server may still send GAMEEND for the position reached.
        time.sleep(0.2)
        reason = sender.current.result
        if reason is None:
            sender.gameend()
            reason = "-"
            time.sleep(0.2)
    say(f"plies {len(board.move_stack)}")
    say(f"ended-by {ended_by}")
    say(f"gameend {reason}")
    os._exit(0)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # any failure of the client is the test's failure
        fail(repr(e))
