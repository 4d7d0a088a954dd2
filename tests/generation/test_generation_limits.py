"""Generation honours its time limit inside one big puzzle, with bounded memory.

Each case runs in a fresh process (the CLI, or the API through ``python -c``)
and reads the wall time and the peak RSS of the children (the SAT solver
processes included) from ``getrusage(RUSAGE_CHILDREN)``. The margins are
generous because the machines are shared: the rule is "within 10 % or 1 s",
start-up and exit of the interpreter come on top, and a loaded machine slows
everything.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import pytest

#: Seconds allowed past the limit: the rule's 1 s, interpreter start and exit, a loaded machine.
SLACK = 4.0
#: Peak RSS of any process of the run (the 7x7 solver processes were 3 GB before).
MEMORY_CEILING_MB = 1500


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    """Compile the generator's kernels first (a fresh checkout has no cache yet): a
    compiled kernel cannot stop for a deadline, and the limit is about the search."""
    code = "import sudokit; sudokit.generate(shape='4x4', seed=1, timeout=900); sudokit.generate(shape='3x3', seed=1)"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=900)


def _run(args: list[str], timeout: float) -> tuple[subprocess.CompletedProcess, float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout + 60)
    elapsed = time.perf_counter() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return done, elapsed, peak


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from sudokit.cli import main; sys.exit(main())", *args]


@pytest.mark.parametrize("box, limit", [("5x5", 2.0), pytest.param("7x7", 3.0, marks=pytest.mark.slow)])
def test_cli_generate_big_grid_stops_at_its_time_limit(box: str, limit: float) -> None:
    done, elapsed, peak = _run(_cli("generate", "--box", box, "--timeout", str(limit), "--seed", "1"), limit)
    assert done.returncode == 1, done.stderr
    assert f"time limit of {limit:g} s reached" in done.stderr
    assert "0 of 1 puzzles" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
    assert elapsed < limit + SLACK, elapsed
    assert peak < MEMORY_CEILING_MB, peak


def test_api_generate_4x6_raises_at_its_time_limit() -> None:
    code = (
        "import sudokit\n"
        "from sudokit.errors import LimitReached\n"
        "from sudokit.generation import GenerationError\n"
        "try:\n"
        "    sudokit.generate(shape='4x6', timeout=2, seed=1)\n"
        "except GenerationError as exc:\n"
        "    assert isinstance(exc, LimitReached), exc\n"
        "    print('stopped:', exc)\n"
    )
    done, elapsed, peak = _run([sys.executable, "-c", code], 2.0)
    assert done.returncode == 0, done.stderr
    assert "stopped: time limit of 2 s reached" in done.stdout
    assert elapsed < 2.0 + SLACK, elapsed
    assert peak < MEMORY_CEILING_MB, peak


def test_the_clauses_generator_honours_the_time_limit_inside_one_puzzle() -> None:
    import time

    from sudokit.generation import GenerationTimeout, generate_many

    start = time.perf_counter()
    with pytest.raises(GenerationTimeout, match="time limit of 0.5 s"):
        list(generate_many(1, shape="5x5", minimal="logic", method="clauses", timeout=0.5))
    assert time.perf_counter() - start < 3.0  # a 25x25 takes far longer than that without the limit
