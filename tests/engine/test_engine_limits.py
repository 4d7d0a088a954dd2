"""The engine's limits: a count that runs out of time or nodes keeps what it
counted, limits beyond int64, searches that resume slice by slice, and Ctrl-C
during a count that would never end."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import sudokit
from sudokit import engine, solving
from sudokit.budget import Budget
from sudokit.errors import LimitReached
from sudokit.grid import Grid
from sudokit.result import Status

from reference import obeys_rules, reference_count

def _few_solutions(shape: tuple[int, int], seed: int, wanted: int) -> tuple[Grid, int]:
    """A puzzle of ``shape`` with more than one and fewer than ``wanted``
    solutions, and its count by the independent reference solver: a solved
    grid with random cells blanked until the count passes 1."""
    rng = np.random.default_rng(seed)
    _, solved = reference_count([0] * (shape[0] * shape[1]) ** 2, *shape, limit=1)
    cells = rng.permutation(len(solved))
    values = list(solved)
    best = None
    for cell in cells:
        values[cell] = 0
        n, _ = reference_count(values, *shape, limit=wanted)
        if n >= wanted:
            break
        if n > 1:
            best = (list(values), n)
    assert best is not None
    return Grid(best[0], shape), best[1]


@pytest.mark.parametrize("shape", [(3, 3), (2, 3)])
def test_a_search_resumed_one_node_at_a_time_counts_what_the_reference_counts(shape) -> None:
    grid, truth = _few_solutions(shape, seed=11, wanted=60)
    budget = Budget()
    found, first = engine.count(grid, None, budget)
    assert found == truth
    # the same count in slices of one node: every slice resumes the last
    from sudokit.engine import slicing

    values = engine.grid_values(grid)
    solution = np.zeros_like(values)
    stats = np.zeros(2, dtype=np.int64)
    calls = 0
    if shape == (3, 3):
        from sudokit.engine.kernel9 import NEW, T_FOUND, T_PHASE, TRAIL, resume9

        g, stack, trail = np.empty(64, np.int64), np.empty((81, 30), np.int64), np.empty(TRAIL, np.int64)
        trail[T_PHASE] = NEW

        def step(cap):
            nonlocal calls
            calls += 1
            stats[:] = 0
            return resume9(values, g, stack, trail, 0, cap, solution, stats) >= 0, int(stats[0])

        slicing.run_in_slices(step, first=1, seconds=0.0)
        counted = int(trail[T_FOUND])
    else:
        from sudokit.engine.kernelN import count_more_n, geometry, new_state

        units, peers = geometry(*shape)
        arrays = list(new_state(values, *shape))

        def step(cap):
            nonlocal calls
            calls += 1
            stats[:] = 0
            status, *grown = count_more_n(*arrays[:4], arrays[4], units, peers, shape[0] * shape[1], 0, cap,
                                          solution, stats)
            arrays[:4] = grown
            return status >= 0, int(stats[0])

        slicing.run_in_slices(step, first=1, seconds=0.0)
        counted = int(arrays[4][2])
    assert counted == truth
    assert calls > truth  # it really went one node at a time
    assert obeys_rules(solution.tolist(), grid.values, *shape)


@pytest.mark.parametrize("shape", ["3x3", "2x3"])
def test_a_count_out_of_time_reports_the_lower_bound_it_reached(shape) -> None:
    limit = 10**15
    result = solving.count(Grid.empty(shape), limit=limit, timeout=0.5)
    assert result.status is Status.TIMEOUT
    assert 0 < result.count < limit
    assert f"after {result.count} solution(s)" in result.message
    assert result.solution is not None and result.solution.is_solved


def test_a_count_out_of_nodes_reports_the_lower_bound_it_reached() -> None:
    grid = Grid.empty("2x3")
    result = solving.count(grid, limit=10**12, nodes=20_000)
    assert result.status is Status.TIMEOUT
    assert "node limit of 20000" in result.message
    assert 0 < result.count < 10**12
    assert result.nodes <= 20_000
    # a lower bound: the engine's own count, given room, passes it
    assert solving.count(grid, limit=result.count + 1).count == result.count + 1


def test_the_first_solution_of_a_partial_count_obeys_the_rules() -> None:
    with pytest.raises(LimitReached) as caught:
        engine.count(Grid.empty("3x3"), 10**12, Budget(nodes=5_000))
    assert caught.value.count > 0
    assert obeys_rules(caught.value.solution.tolist(), [0] * 81, 3, 3)


@pytest.mark.parametrize("limit", [2**63 - 1, 2**63, 2**70])
def test_limits_beyond_int64_mean_no_limit(limit) -> None:
    truth, _ = reference_count([0] * 16, 2, 2, limit=10**6)
    assert sudokit.count_solutions(Grid.empty("2x2"), limit=limit) == truth
    assert engine.count(Grid.empty("2x2"), limit, Budget())[0] == truth


def test_cli_count_out_of_time_keeps_its_count() -> None:
    run = subprocess.run(["sudoku", "solve", "--example", "blank", "--count", "--limit", "100000000",
                          "--timeout", "1", "--format", "jsonl"], capture_output=True, text=True, timeout=120)
    record = json.loads(run.stdout.splitlines()[0])
    assert record["status"] == "timeout"
    assert 0 < record["count"] < 100_000_000
    assert f"after {record['count']} solution(s)" in record["message"]


def _default_sigint() -> None:
    """In the child: Ctrl-C as an interactive shell leaves it. A background job of a
    non-interactive shell starts with SIGINT ignored, and Python would keep ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_cpu(proc: subprocess.Popen, seconds: float, most: float = 180.0) -> None:
    """Wait until the child has used ``seconds`` of CPU (from /proc; elsewhere, that many
    seconds of wall time), or ``most`` seconds of wall time."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    start = time.perf_counter()
    while time.perf_counter() - start < most and proc.poll() is None:
        try:
            fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            time.sleep(seconds)
            return
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:
            return
        time.sleep(0.2)


def test_ctrl_c_stops_a_count_that_would_never_end() -> None:
    proc = subprocess.Popen(["sudoku", "solve", "--example", "easy", "--example", "blank", "--count",
                             "--limit", "100000000", "--format", "jsonl"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint)
    try:
        _wait_for_cpu(proc, 4.0)  # past start-up (imports, cached kernels): counting the blank grid
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    took = time.perf_counter() - sent
    assert proc.returncode == 130, err
    assert took < 10.0, f"stopped {took:.2f} s after Ctrl-C"  # promptly; speed is the benchmarks' business
    assert out == "" or out.endswith("\n")
    for line in out.splitlines():
        json.loads(line)  # every line written is whole
