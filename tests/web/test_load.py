"""``sudoku serve`` under load, on 127.0.0.1 only: concurrent hard explains
and rates beside many light solves. No 5xx but the documented 503, light
requests answered promptly (they never wait behind heavy work), the memory
of the server and its workers bounded, and nothing left running after the
answers. The default run is small; ``slow`` runs a bigger one."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from conftest import load_counts
from test_limits import HARD, rss_kib, workers
from test_serve import Server

#: Generous bounds: a light solve answers within LIGHT_SECONDS even beside
#: the heavy work; the server and its workers together stay under RSS_MIB.
LIGHT_SECONDS = 3.0
RSS_MIB = 1500


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by ``pid`` and its live workers."""
    import os
    from pathlib import Path

    total = 0
    for p in [pid, *workers(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def _load(explains: int, rates: int, solves: int, clients: int, time_limit: float) -> None:
    s = Server("--time-limit", str(time_limit), "--workers", "2")
    try:
        pid = s.proc.pid
        puzzles = [row["puzzle"] for row in load_counts() if row["count"] == "1"][:50]
        rated = puzzles[:max(1, rates)]
        jobs: list[tuple[str, dict]] = [("/api/explain", {"puzzle": HARD})] * explains
        jobs += [("/api/rate", {"puzzle": rated[i % len(rated)]}) for i in range(rates)]
        light = [("/api/solve", {"puzzle": puzzles[i % len(puzzles)]}) for i in range(solves)]
        peak = [rss_kib(pid)]
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                peak.append(rss_kib(pid))
                time.sleep(0.1)

        def call(job: tuple[str, dict]) -> tuple[str, int, float, object]:
            started = time.monotonic()
            status, answer, _ = s.post(*job)
            return job[0], status, time.monotonic() - started, answer

        watcher = threading.Thread(target=watch)
        watcher.start()
        with ThreadPoolExecutor(clients) as pool:
            heavy = [pool.submit(call, job) for job in jobs]
            time.sleep(0.5)  # the heavy work has started
            answers = list(pool.map(call, light)) + [f.result() for f in heavy]
        done.set()
        watcher.join()
        light_times = sorted(seconds for path, _, seconds, _ in answers if path == "/api/solve")
        print(f"\nload: {len(answers)} answers, statuses {sorted({(p, st) for p, st, _, _ in answers})}, "
              f"light solve median {light_times[len(light_times) // 2]:.3f} s, max {light_times[-1]:.3f} s, "
              f"peak RSS {max(peak) // 1024} MiB (from {peak[0] // 1024} MiB)")
        for path, status, seconds, answer in answers:
            assert status in (200, 503), (path, status, answer)
            if status == 503:
                assert path != "/api/solve" and "time limit" in answer["error"]
        slow = [(status, round(seconds, 1)) for path, status, seconds, _ in answers
                if path == "/api/solve" and (status != 200 or seconds > LIGHT_SECONDS)]
        assert not slow, f"light solves waited or failed: {slow}"
        assert max(peak) < RSS_MIB * 1024, f"server and workers reached {max(peak) // 1024} MiB"
        deadline = time.monotonic() + 5
        while workers(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers(pid) == [], "work goes on after its answer"
        used = cpu_seconds(pid)
        time.sleep(2)
        assert cpu_seconds(pid) - used < 0.5, "the server goes on working after its answers"
        assert s.alive()
    finally:
        s.stop()


def test_light_requests_beside_hard_explains() -> None:
    _load(explains=4, rates=4, solves=120, clients=12, time_limit=4)


@pytest.mark.slow
def test_the_reported_load() -> None:
    """The load of the report: 24 clients, 400 solves, 100 rates, 4 explains of the ER 11.9 puzzle."""
    _load(explains=4, rates=100, solves=400, clients=24, time_limit=20)
