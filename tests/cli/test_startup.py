"""Start-up: a command loads only the kernels it uses, a one-puzzle rating
never imports numba, and a first run (an empty numba cache) says once that
it compiles, with the expected time, and only then."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n"


@pytest.fixture(autouse=True)
def _no_kernel_store(monkeypatch) -> None:
    """These tests are of the first run without a kernel store (an empty
    ``NUMBA_CACHE_DIR`` means cold), even where one has been built
    (``sudoku warm-up --store``); the store has its own tests
    (tests/engine/test_kernel_store.py)."""
    monkeypatch.setenv("SUDOKIT_KERNEL_STORE", "off")


@contextlib.contextmanager
def _compiling_elsewhere(cache: str | None = None):
    """Hold the lock of the numba cache ``cache`` (None: this run's own), as a compiling
    child process holds it."""
    import fcntl
    import importlib

    compiling = importlib.import_module("sudokit.engine.compiling")  # the module, not the function
    before = os.environ.get("NUMBA_CACHE_DIR")
    if cache is not None:
        os.environ["NUMBA_CACHE_DIR"] = cache
    try:
        path = compiling.lock_path()
    finally:
        if before is None:
            os.environ.pop("NUMBA_CACHE_DIR", None)
        else:
            os.environ["NUMBA_CACHE_DIR"] = before
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
        os.unlink(path)


#: The start of a script that lists, in ``compiled``, every function numba compiles in it.
LISTEN = (
    "from numba.core import event\n"
    "from sudokit.engine.compiling import load_numba\n"
    "load_numba()\n"
    "compiled = []\n"
    "class Listen(event.Listener):\n"
    "    def on_start(self, ev):\n"
    "        compiled.append(ev.data['dispatcher'].py_func.__name__)\n"
    "    def on_end(self, ev):\n"
    "        pass\n"
    "event.register('numba:compile', Listen())\n"
)


def _python(code: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env=None if env is None else dict(os.environ, **env))
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_solving_one_puzzle_loads_the_solver_and_nothing_else() -> None:
    out = _python(
        "import sys\n"
        "from sudokit import solve, engine\n"
        "from sudokit.examples import example\n"
        "assert solve(example('diabolical')).solution.is_solution_of(example('diabolical'))\n"
        "from sudokit.engine import kernel9\n"
        "print(sorted(n for n in ('resume9', 'count9', 'batch9_serial', 'batch9_parallel')"
        " if getattr(kernel9, n).overloads))\n"
        "print('scipy.linalg' in sys.modules, 'sudokit.engine.generate' in sys.modules,"
        " 'sudokit.engine.logic_kernels' in sys.modules)\n"
    )
    assert out.split("\n")[:2] == ["['resume9']", "False False False"]


@pytest.fixture
def kernels_in_the_cache() -> None:
    """The solver's and the easy ladder's kernels in this run's numba cache (``sudoku warm-up``;
    nothing to do when an earlier test compiled them), as a second run finds them."""
    done = subprocess.run(["sudoku", "warm-up", "count", "logic"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr


def test_rating_one_puzzle_imports_no_numba_and_rates_as_the_kernels_do(kernels_in_the_cache) -> None:
    code = (
        "import sys\n"
        "import sudokit\n"
        f"grid = sudokit.Grid({PUZZLE.strip()!r})\n"
        "first = sudokit.rate(grid)\n"
        "print('numba' in sys.modules)\n"
        "for _ in range(3):\n"
        "    again = sudokit.rate(grid)\n"
        "print('numba' in sys.modules, (first.er, first.ep, first.ed) == (again.er, again.ep, again.ed))\n"
    )
    assert _python(code).split("\n")[:2] == ["False", "True True"]
    # a compilation of other kernels running elsewhere (it holds this cache's lock)
    # does not keep the cached ones from loading
    with _compiling_elsewhere():
        assert _python(code).split("\n")[:2] == ["False", "True True"]


@pytest.mark.parametrize("args", [["solve", "--example", "diabolical"], ["solve", "--count", "--example", "minimal"],
                                  ["rate", "--example", "diabolical"], ["hint", "--example", "diabolical"],
                                  ["solve", "--format", "line", "-"], []])
def test_a_command_on_one_puzzle_loads_neither_numba_nor_numpy(args: list[str]) -> None:
    """One puzzle is done in pure Python (Crook's method proves the solution
    unique; the logic finders rate): the command starts in a fraction of the
    time numba alone takes to import, and its output is the engine's."""
    code = (
        "import contextlib, io, sys\n"
        "from sudokit.cli import main\n"
        f"sys.stdin = io.StringIO({PUZZLE!r})\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main({args!r})\n"
        "print(code, 'numba' in sys.modules, 'numpy' in sys.modules)\n"
        "print(out.getvalue())\n"
    )
    lines = _python(code).split("\n")
    assert lines[0] == "0 False False"
    assert lines[1].strip()  # the answer itself is held to the engine's in test_pipeline


def test_the_compile_notice_imports_nothing_for_a_command_without_kernels() -> None:
    out = _python(
        "import sys\n"
        "from sudokit.engine import compiling\n"
        "with compiling(print, ('count',)):\n"
        "    pass\n"
        "print('numba' in sys.modules)\n"
    )
    assert out.strip() == "False"


@pytest.mark.slow
def test_a_first_run_says_once_that_it_compiles_and_a_second_run_says_nothing() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        check = ("from sudokit.engine.compiling import is_cached; "
                 "print(is_cached('kernel9.resume9'), is_cached('kernel9.batch9_serial'))")
        assert _python(check, {"NUMBA_CACHE_DIR": cache}).strip() == "False False"
        # jsonl reports the engine's nodes, so even one puzzle is solved by the engine
        first = subprocess.run(["sudoku", "solve", "--format", "jsonl", "--example", "easy"], capture_output=True,
                               text=True, env=env, timeout=600)
        assert first.returncode == 0, first.stderr
        notices = [line for line in first.stderr.splitlines() if "compiling" in line]
        assert len(notices) == 1, first.stderr
        assert re.search(r"about \d+ s", notices[0])
        assert _python(check, {"NUMBA_CACHE_DIR": cache}).strip() == "True False"
        second = subprocess.run(["sudoku", "solve", "--format", "jsonl", "--example", "easy"], capture_output=True,
                                text=True, env=env, timeout=600)
        assert second.returncode == 0
        assert "compiling" not in second.stderr
        assert second.stdout == first.stdout


def test_while_a_compilation_runs_elsewhere_a_batch_rates_without_the_kernels(kernels_in_the_cache) -> None:
    """A background compilation holds the lock of its numba cache; meanwhile a
    batch rates with the Python finders (no kernel group is loaded), and the
    ratings are those of the compiled path."""
    puzzles = [PUZZLE.strip()] * 6
    code = (
        "import sys\n"
        "import sudokit\n"
        f"ratings = [str(sudokit.rate(sudokit.Grid(p))) for p in {puzzles!r}]\n"
        "print(' | '.join(ratings))\n"
        "from sudokit.engine import _loaded\n"
        "print('logic' in _loaded, 'count' in _loaded)\n"
    )
    with tempfile.TemporaryDirectory() as cache, _compiling_elsewhere(cache):
        held = _python(code, {"NUMBA_CACHE_DIR": cache}).split("\n")
    compiled = _python(code).split("\n")  # the shared cache: the kernels from the third puzzle on
    assert held[1] == "False False"
    assert compiled[1] == "True True"
    assert held[0] == compiled[0]


def _wait_for_the_helpers(cache: str, groups: tuple[str, ...], seconds: float) -> None:
    """Wait until no background compilation holds the lock of the numba cache ``cache`` and
    every kernel of ``groups`` is in it."""
    check = ("import importlib, sudokit.logic; c = importlib.import_module('sudokit.engine.compiling'); "
             f"print(c._compiling_elsewhere(), all(c.is_cached(e) for g in {groups!r} for e in c.KERNELS[g][1]))")
    deadline = time.monotonic() + seconds
    while _python(check, {"NUMBA_CACHE_DIR": cache}).strip() != "False True":
        assert time.monotonic() < deadline, "the background compilation did not finish"
        time.sleep(2)


@pytest.mark.slow
def test_a_first_batch_rating_compiles_in_the_background_and_the_next_run_loads_the_kernels() -> None:
    puzzles = PUZZLE * 20
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        first = subprocess.run(["sudoku", "rate", "-"], input=puzzles, capture_output=True, text=True, env=env,
                               timeout=600)
        assert first.returncode == 0, first.stderr
        notices = [line for line in first.stderr.splitlines() if "compiling" in line]
        assert len(notices) == 1 and "in the background" in notices[0], first.stderr
        _wait_for_the_helpers(cache, ("count", "logic"), 600)
        second = subprocess.run(["sudoku", "rate", "-"], input=puzzles, capture_output=True, text=True, env=env,
                                timeout=600)
        assert second.returncode == 0 and "compiling" not in second.stderr
        assert second.stdout == first.stdout


def _cold_and_warm(code: str) -> tuple[list[str], list[str]]:
    """The lines ``code`` prints in a fresh numba cache, and in the warm one."""
    with tempfile.TemporaryDirectory() as cache:
        cold = _python(code, {"NUMBA_CACHE_DIR": cache}).split("\n")
    return cold, _python(code).split("\n")


def test_a_first_generator_run_compiles_the_uniqueness_search_in_a_helper_process() -> None:
    """In a fresh numba cache, the generator for 6x6 puzzles hands its
    uniqueness verdict (kernelN's search) to a helper process and compiles the
    random grids (the fill, and the kernel that makes a grid per seed) and
    then the minimiser itself: this process never compiles that search (it
    loads the helper's machine code, so the types agree), and the puzzles are
    those of a warm run."""
    code = LISTEN + (
        "from sudokit.generation import generate_many\n"
        "print(' '.join(p.puzzle.line() for p in generate_many(3, shape='2x3', seed=11)))\n"
        "print(sorted(set(compiled) & {'find_other', 'fill', 'random_grid', 'grids_kernel', 'minimise_rows'}))\n"
    )
    cold, warm = _cold_and_warm(code)
    assert cold[1] == "['fill', 'grids_kernel', 'minimise_rows', 'random_grid']"
    assert cold[0] == warm[0]


def test_a_first_killer_compiles_the_killer_search_in_a_helper_process() -> None:
    """In a fresh numba cache, a first killer hands the killer search to a
    helper process: this process compiles the random grid and the sum rules
    (which the helper then loads) but never the search itself, and the
    killers are those of a warm run."""
    code = LISTEN + (
        "from sudokit.generation.killer import generate_killers\n"
        "print(' '.join(str(sorted((c.cells, c.total) for c in p.puzzle.geometry.cages)).replace(' ', '')\n"
        "               for p in generate_killers(2, seed=7)))\n"
        "print(sorted(set(compiled) & {'search_k', 'propagate_k', '_sum_pass', 'random_grid'}))\n"
    )
    cold, warm = _cold_and_warm(code)
    assert cold[1] == "['_sum_pass', 'random_grid']"
    assert cold[0] == warm[0]


def test_a_first_variant_solve_compiles_the_propagation_in_a_helper_process() -> None:
    """In a fresh numba cache, the 9x9 solver over any units hands its
    propagation to a helper process: this process compiles the search, which
    calls the propagation by address, but never the propagation itself, and
    the solutions and counts are those of a warm run."""
    x_puzzle = "......2..1.4............6...4.6.3.9.9...8.1..2.5...........5..9.9....7.....4....."
    code = LISTEN + (
        "from sudokit import variants\n"
        "from sudokit.budget import Budget\n"
        "from sudokit.engine import search\n"
        "from sudokit.grid import Grid\n"
        f"grid = Grid({x_puzzle!r}).with_geometry(variants.x())\n"
        "found, solution = search.count(grid, 2, Budget())[:2]\n"
        "more = search.count(Grid.empty().with_geometry(variants.hyper()), 5, Budget())[0]\n"
        "print(found, solution.line(), more)\n"
        "print(sorted(set(compiled) & {'propagate9u', '_search9u', 'resume9u'}))\n"
    )
    cold, warm = _cold_and_warm(code)
    assert cold[1] == "['_search9u', 'resume9u']"
    assert cold[0] == warm[0]
    found, solution, more = cold[0].split()
    assert (found, more) == ("1", "5")
    from sudokit import variants
    from sudokit.grid import Grid

    puzzle = Grid(x_puzzle).with_geometry(variants.x())
    assert Grid(solution).with_geometry(variants.x()).is_solution_of(puzzle)  # the diagonals' rules too


def test_printing_a_few_puzzles_loads_no_numba_and_prints_what_the_engine_solves(tmp_path) -> None:
    """A booklet of two puzzles is solved by Crook's method (no kernel to load
    or compile) and carries the engine's solutions."""
    import sudokit

    puzzles = [PUZZLE.strip(), "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"]
    code = (
        "import sys\n"
        "from sudokit.pictures.pdf import items\n"
        "from sudokit.grid import Grid\n"
        f"done = items([Grid(p) for p in {puzzles!r}], rate=False)\n"
        "print('numba' in sys.modules)\n"
        "print(' '.join(i.solution.line() for i in done))\n"
    )
    lines = _python(code).split("\n")
    assert lines[0] == "False"
    assert lines[1].split() == [sudokit.solve(p).solution.line() for p in puzzles]


def test_no_helper_starts_while_another_compilation_holds_the_lock() -> None:
    """With the lock of the numba cache taken (a compilation runs elsewhere),
    ``alongside`` starts no helper and the caller compiles for itself."""
    code = ("from sudokit.engine.compiling import alongside\n"
            "with alongside(('unique-other',)) as helped:\n"
            "    print(helped)\n")
    with tempfile.TemporaryDirectory() as cache, _compiling_elsewhere(cache):
        held = _python(code, {"NUMBA_CACHE_DIR": cache}).strip()
    assert held == "False"


@pytest.mark.slow
def test_warm_up_compiles_the_groups_asked_for_ahead_and_then_nothing() -> None:
    """``sudoku warm-up`` fills a fresh numba cache with the groups named (here
    two small verdicts, on two processes), so that numba's own index then has
    them; a second run finds nothing to do, and an unknown group is a usage
    error."""
    groups = ("preemptive", "logic-9x9")
    check = ("import importlib; c = importlib.import_module('sudokit.engine.compiling'); "
             f"print([all(c.is_cached(e) for e in c.KERNELS[g][1]) for g in {groups!r}])")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        assert _python(check, {"NUMBA_CACHE_DIR": cache}).strip() == "[False, False]"
        first = subprocess.run(["sudoku", "warm-up", "--jobs", "2", *groups], capture_output=True, text=True,
                               env=env, timeout=600)
        assert first.returncode == 0, first.stderr
        assert "2 kernel groups on 2 processes" in first.stderr
        assert _python(check, {"NUMBA_CACHE_DIR": cache}).strip() == "[True, True]"
        listed = subprocess.run(["sudoku", "warm-up", "--list"], capture_output=True, text=True, env=env,
                                timeout=600)
        states = {line.split()[0]: line.split()[1] for line in listed.stdout.splitlines()}
        assert states["preemptive"] == "compiled" and states["nested"] == "cold"
        again = subprocess.run(["sudoku", "warm-up", *groups], capture_output=True, text=True, env=env, timeout=600)
        assert again.returncode == 0 and "compiled already" in again.stderr
        wrong = subprocess.run(["sudoku", "warm-up", "nothing"], capture_output=True, text=True, env=env,
                               timeout=600)
        assert wrong.returncode == 2 and "no kernel group 'nothing'" in wrong.stderr


def test_a_group_loads_once_its_helper_marks_it_done(monkeypatch, tmp_path) -> None:
    """While a background compilation holds the cache's lock, a group it has
    marked done is ready (load it) and one it has not is not: the command
    takes each group as soon as it is there, not after the whole helper."""
    import importlib

    compiling = importlib.import_module("sudokit.engine.compiling")
    cache = str(tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", cache)
    monkeypatch.setattr(compiling, "_handed", {"count", "logic"})
    monkeypatch.setattr(compiling, "_looked", {})
    with _compiling_elsewhere(cache):
        monkeypatch.setenv("NUMBA_CACHE_DIR", cache)  # (the helper above unsets it)
        assert not compiling.background_ready(("count",))
        assert not compiling.background_ready(("logic",))
        with open(compiling._done_path("count"), "w"):
            pass
        try:
            monkeypatch.setattr(compiling, "_looked", {})  # look again at once
            assert compiling.background_ready(("count",))
            assert not compiling.background_ready(("logic",))
            assert compiling._handed == {"logic"}
        finally:
            os.unlink(compiling._done_path("count"))


def test_a_background_compilation_splits_the_rating_groups_over_two_processes() -> None:
    """The rating's kernel groups go to two helper processes, each with the
    groups whose kernels it calls or shares (the nested rules with the chain
    searches, the producers with the easy ladder), the largest set first, and
    each process takes its groups in the order asked (the solver first); on
    one process, all of them in that order. The notice's time is that of the
    longest helper beside the command."""
    import importlib

    import sudokit.logic  # noqa: F401  (registers its groups)

    compiling = importlib.import_module("sudokit.engine.compiling")
    rating = ("count", "logic", "producers", "chains", "nested")
    bins = compiling._bins(rating, 2)
    assert sorted(bins) == [("chains", "nested"), ("count", "logic", "producers")]
    assert compiling._bins(rating, 1) == [rating]
    assert sorted(g for b in compiling._bins(tuple(compiling.KERNELS), 2) for g in b) == sorted(compiling.KERNELS)
    seconds = {g: compiling.KERNELS[g][2] for g in rating}
    longest = max(seconds["chains"] + seconds["nested"], seconds["count"] + seconds["logic"] + seconds["producers"])
    assert compiling.background_seconds(bins) >= longest


@pytest.mark.slow
def test_the_easy_ladder_compiles_each_search_once() -> None:
    """In a fresh numba cache, the easy ladder and the producers compile each
    of their searches once (not once per literal size or flag a caller
    passes, nor for a literal 0 seen while numba infers a counter's type)."""
    code = LISTEN + (
        "import collections\n"
        "import sudokit.logic\n"
        "from sudokit.engine.compiling import warm_up\n"
        "warm_up(kernels=('logic', 'producers'))\n"
        "import sudokit.engine.logic_kernels as lk\n"
        "mine = {n for n in dir(lk) if callable(getattr(getattr(lk, n), 'py_func', None))}\n"
        "counts = collections.Counter(c for c in compiled if c in mine)\n"
        "print(sorted(n for n, k in counts.items() if k > 1), len(counts))\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        out = _python(code, {"NUMBA_CACHE_DIR": cache}).split("\n")[0]
    twice, compiled = out.rsplit(" ", 1)
    assert twice == "[]"
    assert int(compiled) >= 15  # the searches were compiled here, not loaded


@pytest.mark.slow
def test_a_first_batch_rating_of_every_band_rates_as_sukakuexplainer_and_as_a_warm_run() -> None:
    """A batch of se_dev puzzles from every band up to the forcing chains,
    rated with an empty numba cache (the work on the stand-ins while two
    helpers compile, the kernels taken group by group as they are ready):
    ER/EP/ED are Sudoku Explainer's, the output is the warm run's, the notice
    says once, with a time, that it compiles in the background, and the
    helpers leave every rating group in the cache."""

    from conftest import rated_reference

    rows = [r for r in rated_reference() if float(r["er"]) <= 8.5]
    rows.sort(key=lambda r: float(r["er"]))
    picked = rows[:: max(1, len(rows) // 30)][:30]
    assert max(float(r["er"]) for r in picked) > 7.0 and min(float(r["er"]) for r in picked) < 2.0
    puzzles = "".join(r["puzzle"] + "\n" for r in picked)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = subprocess.run(["sudoku", "rate", "-"], input=puzzles, capture_output=True, text=True, env=env,
                              timeout=900)
        assert cold.returncode == 0, cold.stderr
        notices = [line for line in cold.stderr.splitlines() if "compiling" in line]
        assert len(notices) == 1 and "in the background" in notices[0], cold.stderr
        assert re.search(r"about \d+ s", notices[0])
        for row, line in zip(picked, cold.stdout.splitlines(), strict=True):
            assert line.split()[1] == f"{float(row['er']):.1f}/{float(row['ep']):.1f}/{float(row['ed']):.1f}", row
        _wait_for_the_helpers(cache, ("count", "logic", "producers", "chains", "nested"), 900)
        warm = subprocess.run(["sudoku", "rate", "-"], input=puzzles, capture_output=True, text=True, env=env,
                              timeout=900)
        assert warm.returncode == 0 and "compiling" not in warm.stderr
        assert warm.stdout == cold.stdout
