"""The rating from several threads at once (as the server and users call
it): each call gets its own budget and the same answer as alone."""

from __future__ import annotations

import threading

from sudokit.logic import rate

#: Rated 10.4 by Sudoku Explainer (shared/data/rated/hard_dev.tsv): its path
#: runs through the dynamic and nested chains in a second or two.
NESTED = ".......12..3.145.6.516..34....16..5....2.5..45...43.2..7....4..1.54.6...489...26."
#: Rated 11.9: far beyond a short budget.
HARD = "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8."


def test_threads_keep_their_own_budgets_and_answers() -> None:
    alone = rate(NESTED, timeout=None)
    assert alone.er == 10.4 and not alone.lower_bound
    results: list[object] = []
    cut: list[object] = []
    stop = threading.Event()

    def full() -> None:
        try:
            results.append(rate(NESTED, timeout=None))
        except Exception as exc:  # reported below, with its type
            results.append(exc)

    def short() -> None:  # budgets that run out while the others work
        while not stop.is_set():
            try:
                cut.append(rate(HARD, timeout=0.2))
            except Exception as exc:
                cut.append(exc)

    threads = [threading.Thread(target=full) for _ in range(2)]
    cutter = threading.Thread(target=short)
    cutter.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    cutter.join()
    for got in results:
        assert not isinstance(got, Exception), repr(got)
        assert got == alone
    assert cut and all(not isinstance(r, Exception) and r.lower_bound for r in cut), cut
