"""A resident checker's caches over the cache folder's (issue 51): a checker starts where the runs
in their own processes left the folder (no document parsed, no rule run for an unchanged
corpus), leaves there what its own runs add (a run in its own process after it is answered from
it), and trusts the folder exactly as those runs do (a damaged entry is a miss, a folder others
may write is not used). The daemon's side (the hook's checker, its output) is in
tests/frontends/test_daemon.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from conftest import copy_bundled_corpus
from speclint.run import engine
from speclint.run.cache import ParseCache
from speclint.run.engine import Options, lint
from speclint.run.resident import Resident


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own (made private by the first run)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(folder))
    return folder


def corpus(tmp_path: Path) -> Path:
    return copy_bundled_corpus(tmp_path / "corpus")


def entries(home: Path, pattern: str) -> list[Path]:
    return sorted(home.glob(f"corpora/*/{pattern}"))


def no_rule_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a rule ran")

    monkeypatch.setattr(engine, "run_rules", refused)


def edit_a_page(root: Path) -> Path:
    page = sorted(root.rglob("*.md"))[0]
    page.write_text(page.read_text() + "\nA sentence the checker added.\n")
    return page


def test_a_checker_over_a_warm_folder_parses_nothing_and_runs_no_rule(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = corpus(tmp_path)
    alone = lint(root, Options())  # a run in its own process: the folder's caches
    with monkeypatch.context() as patched:
        no_rule_runs(patched)
        resident = Resident(root, writes=True)
        served = lint(root, Options(resident=resident))
    assert resident.runs.reads == 1  # the run's result, from the folder
    assert resident.documents.misses == 0 and resident.results.misses == 0
    assert served.findings == alone.findings and sorted(served.result.rules) == sorted(
        alone.result.rules
    )
    assert not resident.pending()  # nothing to write: the folder holds it all
    # Without the run's record, the documents and the rules' entries are the folder's.
    for record in entries(home, "runs/*.msgpack"):
        record.unlink()
    fresh = Resident(root, writes=True)
    again = lint(root, Options(resident=fresh))
    assert fresh.documents.misses == 0
    assert fresh.documents.reads == len(alone.result.inventory) > 0
    assert fresh.results.reads > 0
    assert again.findings == alone.findings
    # Between runs, the pages' prose models (packed in the folder) are decoded once, here, not in
    # every rule's worker at every run.
    assert any(d.packed_model is not None for d in fresh.documents.kept.values())
    fresh.settle()
    assert all(d.packed_model is None for d in fresh.documents.kept.values())


def test_a_run_through_the_checker_leaves_its_result_in_the_folder(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = corpus(tmp_path)
    lint(root, Options())
    resident = Resident(root, writes=True)
    lint(root, Options(resident=resident))
    page = edit_a_page(root)
    served = lint(root, Options(resident=resident))
    assert resident.documents.misses == 1 and resident.pending()
    resident.write()
    resident.wait()
    assert not resident.pending()
    # The edited page's document is the folder's now, as a run in its own process leaves it.
    raw = page.read_bytes()
    path = page.relative_to(root).as_posix()
    [folder] = entries(home, "")
    assert ParseCache(folder).cached(path, raw) is not None
    # The checker is gone: a run in its own process is answered from the run cache.
    with monkeypatch.context() as patched:
        no_rule_runs(patched)
        alone = lint(root, Options())
    assert alone.findings == served.findings
    assert alone.findings == lint(root, Options(cache=False)).findings


def test_the_language_servers_resident_reads_the_folder_and_never_writes_it(
    tmp_path: Path, home: Path
) -> None:
    root = corpus(tmp_path)
    lint(root, Options())
    before = {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()}
    resident = Resident(root)  # the language server's
    lint(root, Options(resident=resident))
    assert resident.runs.reads == 1
    edit_a_page(root)
    lint(root, Options(resident=resident))
    assert resident.documents.misses == 1 and not resident.pending()
    resident.write()
    resident.wait()
    after = {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()}
    assert {p: t for p, t in after.items() if p.name != "root.txt"} == {
        p: t for p, t in before.items() if p.name != "root.txt"
    }


def test_a_damaged_folder_entry_is_a_miss_for_the_checker_as_for_the_folder(
    tmp_path: Path, home: Path
) -> None:
    root = corpus(tmp_path)
    alone = lint(root, Options())
    for record in entries(home, "runs/*.msgpack"):
        record.write_bytes(b"\xc1 not msgpack")
    [rules] = entries(home, "rules-*.msgpack")
    rules.write_bytes(b"\x93\x01\x02")  # msgpack, not the file's type: a list of three numbers
    damaged = entries(home, "parse-*/*.msgpack")[0]
    damaged.write_bytes(b"\x91\xa5forged")  # msgpack, not a document
    resident = Resident(root, writes=True)
    served = lint(root, Options(resident=resident))
    assert resident.runs.reads == 0 and resident.results.reads == 0
    assert resident.documents.misses == 1
    assert resident.documents.reads == len(alone.result.inventory) - 1
    assert served.findings == alone.findings == lint(root, Options(cache=False)).findings
    # What the checker computed again mends the folder.
    resident.write()
    resident.wait()
    fresh = Resident(root, writes=True)
    lint(root, Options(resident=fresh))
    assert fresh.runs.reads == 1


def test_a_folder_others_may_write_is_refused_by_the_checker_too(
    tmp_path: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = corpus(tmp_path)
    expected = lint(root, Options()).findings
    capsys.readouterr()
    os.chmod(home, 0o777)  # writable by others: a forger's entries could be there
    before = {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()}
    resident = Resident(root, writes=True)
    served = lint(root, Options(resident=resident))
    assert "is not a private folder of this user" in capsys.readouterr().err
    assert resident.home is None
    assert resident.runs.reads == resident.documents.reads == resident.results.reads == 0
    assert resident.documents.misses == len(served.result.inventory)
    assert served.findings == expected
    edit_a_page(root)
    lint(root, Options(resident=resident))
    resident.write()
    resident.wait()
    assert {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()} == before
