"""Commands that used to differ from the rest now behave as the rest do (docs/cli.md): an endless
line names the file in ``print`` too, duplicate givens are named by ``explain`` too, ``print``
takes ``--jobs 0``, ``serve`` says a busy port before announcing anything, and Ctrl-C on a local
cluster leaves no worker's traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import pytest

from cli_helpers import GOOD, SUDOKU, run

#: GOOD with a second 5 in row 1 (and box 1).
DUPLICATE = "55" + GOOD[2:]


def test_print_names_a_file_with_an_endless_line(tmp_path) -> None:
    big = tmp_path / "big.txt"
    big.write_text(GOOD + "\n" + "x" * (2 << 20))  # one good puzzle, then 2 MB without a line break
    out = tmp_path / "book.pdf"
    done = subprocess.run([*SUDOKU, "print", str(big), "--no-rate", "-o", str(out)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert f"{big}: line 2: too long" in done.stderr and "Traceback" not in done.stderr
    assert out.read_bytes().startswith(b"%PDF")  # the puzzle before it is printed
    solved = subprocess.run([*SUDOKU, "solve", str(big)], capture_output=True, text=True, timeout=120)
    assert solved.returncode == done.returncode and f"{big}: line 2: too long" in solved.stderr


@pytest.mark.parametrize("command", ["solve", "rate", "explain", "hint"])
def test_duplicate_givens_are_named_by_every_command(command: str) -> None:
    done = run(command, "-", input=DUPLICATE + "\n")
    assert done.exit_code == 1
    assert "5 appears 2 times in row 1: r1c1, r1c2" in done.output, done.output
    assert "no solution completes" not in done.output


def test_explain_html_names_duplicate_givens_too() -> None:
    done = run("explain", "-", "--format", "html", input=DUPLICATE + "\n")
    assert done.exit_code == 1 and "5 appears 2 times in row 1" in done.output


def test_print_takes_jobs_0_as_every_command_does(tmp_path) -> None:
    out = tmp_path / "two.pdf"
    done = run("print", "--generate", "2", "--box", "2x2", "--jobs", "0", "--seed", "1", "--no-rate", "-o", str(out))
    assert done.exit_code == 0, done.output
    assert out.read_bytes().startswith(b"%PDF")
    for args in (["print", "--generate", "2", "--jobs", "-1"], ["generate", "--jobs", "-1"]):
        refused = run(*args)
        assert refused.exit_code == 2 and "--jobs" in refused.output


def test_serve_says_a_busy_port_before_announcing_it() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([*SUDOKU, "serve", "--port", str(port)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert f"port {port} is in use" in done.stderr
    assert done.stdout == ""  # no address announced
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("delay", [1.0, 2.0, pytest.param(3.0, marks=pytest.mark.slow),
                                   pytest.param(6.0, marks=pytest.mark.slow), pytest.param(15.0, marks=pytest.mark.slow)])
def test_ctrl_c_on_a_local_cluster_leaves_no_traceback(tmp_path, delay: float) -> None:
    """Ctrl-C from a terminal reaches the whole process group: the workers (starting, or at
    work) print nothing; the run ends with 130. One Ctrl-C is enough, also while the cluster
    starts (the first delays)."""
    pytest.importorskip("distributed")
    from sudokit import generate_many

    path = tmp_path / "many.txt"
    path.write_text("\n".join(p.puzzle.line() for p in generate_many(20, seed=1)) * 200 + "\n")
    proc = subprocess.Popen([*SUDOKU, "rate", str(path), "--cluster", "local:2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(delay)
    assert proc.poll() is None, "the run ended before Ctrl-C"
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode(errors="replace")
