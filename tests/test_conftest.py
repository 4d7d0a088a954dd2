"""The suite's own rules (tests/conftest.py): a skip is decided by a file's or a browser's
presence, and under CI=true a missing browser fails."""

from __future__ import annotations

import pytest

import conftest


def test_missing_shared_file_skips_and_a_present_one_is_returned(tmp_path) -> None:
    present = tmp_path / "here.tsv"
    present.write_text("x\n")
    assert conftest.require_shared(present) == present
    with pytest.raises(pytest.skip.Exception, match="from the shared data"):
        conftest.require_shared(tmp_path / "nosuch.tsv")


def test_a_missing_browser_skips_but_fails_under_ci(tmp_path, monkeypatch) -> None:
    nowhere = str(tmp_path / "chromium")
    monkeypatch.setattr(conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no browser at"):
        conftest.require_browser(nowhere)
    monkeypatch.setattr(conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI=true: no browser at"):
        conftest.require_browser(nowhere)

