"""``bank export`` and ``bank import`` (jsonl and Parquet), and a Parquet bank
built on a real Dask LocalCluster that one machine then imports and queries."""

from __future__ import annotations

import json

import pytest

from sudokit.bank import Bank, add
from sudokit.bank.schema import ROW

from bank_helpers import rating_record, se_rows, sudoku, table, write_jsonl

COLUMNS = "key, puzzle, solution, er, ep, ed, level, hardest, families, seen, source, clues, symmetry"


@pytest.fixture(scope="module")
def source_bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exchange")
    rows = se_rows()[:80]
    write_jsonl(folder / "se.jsonl", [rating_record(r["puzzle"], float(r["er"]), r["er_technique"],
                                                    techniques=["Hidden Single", r["er_technique"]]) for r in rows])
    path = folder / "bank.sqlite"
    with Bank(path) as bank:
        add(bank, [str(folder / "se.jsonl")])
        add(bank, [], texts=[("again", "\n".join(r["puzzle"] for r in rows[:5]))])  # five repeats
    return path


def _content(path) -> list[tuple]:
    names = dict(table(path, "SELECT bit, name FROM family"))
    out = []
    for row in table(path, f"SELECT {COLUMNS} FROM ({ROW}) ORDER BY key"):
        row = list(row)
        row[8] = sorted(names[b] for b in names if row[8] >> b & 1)
        out.append(tuple(row))
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_export_then_import_gives_the_same_bank(source_bank, tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"bank.{fmt}"
    result = sudoku("bank", "export", "--bank", str(source_bank), "-o", str(out))
    assert result.returncode == 0, result.stderr
    if fmt == "jsonl":
        records = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(records) == 80 and sum(r["seen"] for r in records) == 85
    result = sudoku("bank", "import", "--bank", str(tmp_path / "copy.sqlite"), str(out))
    assert result.returncode == 0, result.stderr
    assert _content(tmp_path / "copy.sqlite") == _content(source_bank)


def test_import_reports_bad_records_with_their_line(tmp_path):
    rows = se_rows()[:3]
    lines = [json.dumps(rating_record(rows[0]["puzzle"], 1.2)), "{broken", json.dumps({"puzzle": "12"}),
             json.dumps(rating_record(rows[1]["puzzle"], 1.5))]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    result = sudoku("bank", "import", "--bank", str(tmp_path / "b.sqlite"), str(tmp_path / "in.jsonl"))
    assert result.returncode == 1
    assert "line 2: bad JSON" in result.stderr and "line 3:" in result.stderr
    assert table(tmp_path / "b.sqlite", "SELECT count(*) FROM puzzle")[0][0] == 2


@pytest.mark.slow
def test_a_parquet_bank_built_on_a_local_cluster_is_imported_and_queried_on_one_machine(tmp_path):
    pytest.importorskip("pyarrow")
    distributed = pytest.importorskip("distributed")
    from sudokit.bank.cluster import build

    rows = se_rows()[:40]
    # unrated puzzles, some twice (a repeat inside the input), in two files: the cluster rates them
    (tmp_path / "a.txt").write_text("\n".join(r["puzzle"] for r in rows[:25]) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(r["puzzle"] for r in rows[20:]) + "\n")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        written, failed = build([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")], str(tmp_path / "pq"), client,
                                blocksize=1200)
    assert failed == 0
    parts = sorted((tmp_path / "pq").glob("part-*.parquet"))
    assert len(parts) >= 2 and written >= 40
    result = sudoku("bank", "import", "--bank", str(tmp_path / "one.sqlite"), str(tmp_path / "pq"))
    assert result.returncode == 0, result.stderr
    count, seen = table(tmp_path / "one.sqlite", f"SELECT count(*), sum(seen) FROM ({ROW})")[0]
    assert (count, seen) == (40, 45)
    query = sudoku("bank", "query", "--bank", str(tmp_path / "one.sqlite"), "--all", "--format", "jsonl")
    got = {r["puzzle"]: r for r in map(json.loads, query.stdout.splitlines())}
    for r in rows:  # rated on the cluster: SE's ratings
        assert got[r["puzzle"]]["er"] == pytest.approx(float(r["er"]))
        assert got[r["puzzle"]]["solution"] == r["solution"]
