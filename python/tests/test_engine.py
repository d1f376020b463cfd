"""Engine: searches, limits, callbacks, stop, threads and errors."""

from __future__ import annotations

import threading
import time

import pytest

import tempo
from conftest import ROOT


@pytest.fixture(scope="module")
def engine():
    return tempo.Engine(hash=16)


def test_search_to_a_depth(engine):
    board = tempo.Board()
    result = engine.search(board, depth=6)
    assert result.best in board.legal_moves()
    assert result.depth == 6
    assert result.nodes > 0 and result.time >= 0.0
    assert result.pv[0] == result.best
    assert isinstance(result.score, float) and result.mate is None
    assert not result.book
    assert result.ponder is None or result.ponder == result.pv[1]
    assert "SearchResult(best=" in repr(result)
    # The board is left as it was.
    assert board.ply == 0


def test_search_limits_by_nodes_and_time(engine):
    board = tempo.Board()
    by_nodes = engine.search(board, nodes=20_000)
    assert by_nodes.best is not None and by_nodes.nodes < 200_000
    started = time.monotonic()
    by_time = engine.search(board, movetime=0.2)
    assert 0.1 < time.monotonic() - started < 2.0
    assert by_time.best is not None


def test_info_callback_sees_every_depth(engine):
    seen: list[tempo.SearchInfo] = []
    result = engine.search(tempo.Board("brazilian"), depth=5, on_info=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4, 5]
    last = seen[-1]
    assert last.pv == result.pv and last.score == result.score
    assert last.multipv == 1 and last.seldepth >= last.depth
    assert last.nps >= 0 and 0 <= last.hashfull <= 1000
    assert "SearchInfo(depth=5" in repr(last)


def test_multipv_lines(engine):
    board = tempo.Board()
    result = engine.search(board, depth=4, multipv=3)
    assert len(result.lines) == 3
    assert [line.multipv for line in result.lines] == [1, 2, 3]
    firsts = {line.pv[0] for line in result.lines}
    assert len(firsts) == 3
    scores = [line.score for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    assert result.best == result.lines[0].pv[0]


def test_a_won_ending_has_a_mate_score(engine):
    # Two kings against a lone man that cannot escape: a forced win.
    board = tempo.Board("international", "W:WK46,K47,K48:B5")
    result = engine.search(board, depth=12)
    assert result.mate is not None and result.mate > 0
    assert result.score > 900


def test_an_exception_in_the_callback_stops_the_search(engine):
    calls = []

    def fail(info):
        calls.append(info)
        raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        engine.search(tempo.Board(), depth=30, on_info=fail)
    assert len(calls) == 1
    # The engine is usable again.
    assert engine.search(tempo.Board(), depth=2).best is not None


def test_stop_from_another_thread():
    engine = tempo.Engine(hash=8)
    timer = threading.Timer(0.3, engine.stop)
    started = time.monotonic()
    timer.start()
    result = engine.search(tempo.Board(), infinite=True)
    assert time.monotonic() - started < 5.0
    assert result.best is not None


def test_two_engines_search_at_once():
    """Each search releases the GIL: two half-second searches in two
    threads take about half a second together, not one."""
    engines = [tempo.Engine(hash=8), tempo.Engine(hash=8)]
    results: list = [None, None]
    infos = [0, 0]

    def run(i):
        def count(_info):
            infos[i] += 1

        results[i] = engines[i].search(tempo.Board(), movetime=0.5, on_info=count)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    started = time.monotonic()
    for t in threads:
        t.start()
    # The main thread stays responsive while both search.
    ticks = 0
    while any(t.is_alive() for t in threads):
        ticks += 1
        time.sleep(0.01)
    elapsed = time.monotonic() - started
    assert all(r is not None and r.best is not None for r in results)
    assert all(n > 0 for n in infos)
    assert elapsed < 0.9, elapsed
    assert ticks > 10


def test_one_engine_refuses_a_second_search_at_once():
    engine = tempo.Engine(hash=8)
    errors = []

    def second():
        time.sleep(0.1)
        try:
            engine.search(tempo.Board(), depth=1)
        except RuntimeError as e:
            errors.append(e)
        finally:
            engine.stop()

    helper = threading.Thread(target=second)
    helper.start()
    engine.search(tempo.Board(), infinite=True)
    helper.join()
    assert len(errors) == 1 and "searching" in str(errors[0])


def test_search_errors(engine):
    with pytest.raises(ValueError, match="movetime, depth or nodes"):
        engine.search(tempo.Board())
    with pytest.raises(ValueError, match="positive"):
        engine.search(tempo.Board(), movetime=-1)
    with pytest.raises(ValueError):
        engine.search(tempo.Board(), depth=0)
    with pytest.raises(ValueError):
        engine.search(tempo.Board(), depth=3, multipv=0)
    won = tempo.Board("international", "W:W28:B23")
    won.play("28x19")
    with pytest.raises(ValueError, match="over"):
        engine.search(won, depth=3)


def test_engine_options_and_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="weights"):
        tempo.Engine(weights=tmp_path / "missing.weights")
    with pytest.raises(FileNotFoundError, match="egdb"):
        tempo.Engine(egdb=tmp_path / "nothing-here")
    with pytest.raises(FileNotFoundError, match="book_file"):
        tempo.Engine(book_file=str(tmp_path / "missing.book"))
    with pytest.raises(ValueError, match="unknown variant"):
        tempo.Engine(variant="chess")
    with pytest.raises(ValueError, match="threads"):
        tempo.Engine(threads=0)
    bad = tmp_path / "bad.weights"
    bad.write_text("not weights")
    with pytest.raises(ValueError, match="eval-file"):
        tempo.Engine(weights=bad)
    engine = tempo.Engine(threads=2, hash=8, variant="brazilian")
    options = dict(engine.options)
    assert options["threads"] == "2" and options["hash"] == "8"
    assert options["variant"] == "brazilian" and engine.variant == "brazilian"
    engine.set_option("draw-repetitions", 4)
    engine.set_option("book", False)
    assert dict(engine.options)["draw-repetitions"] == "4"
    with pytest.raises(ValueError, match="unknown parameter"):
        engine.set_option("no-such-option", 1)
    engine.new_game()
    # A board of another variant switches the engine to it.
    assert engine.search(tempo.Board("russian"), depth=3).best is not None
    assert engine.variant == "russian"
    assert "Engine(threads=2" in repr(engine)


def test_book_moves():
    engine = tempo.Engine(book=True, hash=8)
    result = engine.search(tempo.Board(), depth=8)
    assert result.book and result.best is not None
    assert result.nodes == 0
    # Several lines are an analysis: never from the book.
    assert not engine.search(tempo.Board(), depth=2, multipv=2).book


def test_a_fresh_engine_spends_its_movetime_searching():
    """What the first search of a variant needs (the solved draws, 0.4 s
    on 10x10) is built when the engine is made, not on the search's clock:
    Killer is searched nowhere else in this process."""
    engine = tempo.Engine(hash=8, variant="killer")
    seen: list[tempo.SearchInfo] = []
    engine.search(tempo.Board("killer"), movetime=0.5, on_info=seen.append)
    assert seen[0].time < 0.2, seen[0]
    assert seen[-1].depth >= 4


def test_a_weights_file():
    """The shipped files give the very search of the built-in evaluation
    (one thread, fresh tables: the node count is deterministic): the
    network file that of the default, the pattern file that of
    `eval-network` off; a file of another variant is refused."""
    weights = ROOT / "src" / "eval" / "weights"

    def searched(engine):
        result = engine.search(tempo.Board(), depth=7)
        return (result.nodes, result.best, result.score)

    builtin = searched(tempo.Engine(hash=8))
    assert searched(tempo.Engine(hash=8, weights=weights / "international.tnn")) == builtin
    patterns_only = tempo.Engine(hash=8)
    patterns_only.set_option("eval-network", False)
    plain = searched(patterns_only)
    assert plain[0] != builtin[0]
    engine = tempo.Engine(hash=8, weights=weights / "international.tpw")
    assert dict(engine.options)["eval-file"].endswith("international.tpw")
    assert searched(engine) == plain
    with pytest.raises(ValueError, match="eval-file"):
        tempo.Engine(weights=weights / "brazilian.tpw")
    records = tempo.analyse_pdn("1. 32-28 *", depth=3, weights=weights / "international.tpw")
    assert len(list(records)) == 2
