"""A resident checker keeps the base revision the last run judged from git's objects
(``Resident.base``, keyed by ``engine._base_key``): the next attempt at a commit against the same
HEAD takes it as it is, and any input its key covers that changes makes the base be read again.
Each test changes one such input and asserts the kept base is not taken and the gate is what a
run with no cache says; the test fails if the key forgot that input."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_diff_base import git

from conftest import write_files
from speclint.run import engine
from speclint.run.engine import Options, lint
from speclint.run.resident import Resident

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# A schema with a key written twice (duplicate-key), and one of the same size without: a blob
# replaced by the other is listed by git with the same size (``git ls-tree -l``).
TWICE = '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "title": "A",\n  "title": "B"\n}\n'
ONCE = TWICE.replace('"title": "B"', '"xitle": "B"')


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A corpus whose HEAD holds a schema written once; the commit being made writes it twice
    (a new duplicate-key), and a page is staged."""
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SPECLINT_TODAY", raising=False)
    root = write_files(
        tmp_path / "repo", {"a.schema.json": ONCE, "b.schema.json": ONCE, "page.md": "# Page\n"}
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    stage(root, 0)
    return root


def stage(root: Path, number: int) -> None:
    write_files(root, {"a.schema.json": TWICE, "page.md": f"# Page\n\nEdit {number}.\n"})
    git(root, "add", "-A")


def gate(root: Path, resident: Resident | None) -> tuple[object, ...]:
    """What the hook reports of the staged commit against HEAD: its new findings, what HEAD
    already had, what it fixes."""
    outcome = lint(
        root,
        Options(
            diff_base=git(root, "rev-parse", "HEAD"),
            staged=True,
            resident=resident,
            cache=resident is not None,
        ),
    )
    assert outcome.gate is not None
    return (
        [(f.rule, f.location.path, f.message) for f in outcome.findings],
        [(f.rule, f.location.path) for f in outcome.gate.known],
        [(e.rule, e.path) for e in outcome.gate.fixed],
    )


def judged_again(root: Path, resident: Resident) -> tuple[object, ...]:
    """The gate through ``resident``, asserted to be a cold run's, its base read again."""
    reused = resident.base.reused
    found = gate(root, resident)
    assert resident.base.reused == reused, "the kept base was taken"
    assert found == gate(root, None)
    return found


def warmed(root: Path) -> Resident:
    """A resident that judged the commit twice: the second time, from the kept base."""
    resident = Resident(root)
    first = gate(root, resident)
    assert [rule for rule, _, _ in first[0]] == ["duplicate-key"]
    stage(root, 1)
    assert gate(root, resident) == first
    assert resident.base.reused == 1
    return resident


def test_the_next_attempt_at_the_same_commit_takes_the_kept_base(repo: Path) -> None:
    resident = warmed(repo)
    stage(repo, 2)
    assert gate(repo, resident) == gate(repo, None)
    assert resident.base.reused == 2


def test_a_new_base_commit_is_read_again(repo: Path) -> None:
    resident = warmed(repo)
    git(repo, "commit", "-q", "-m", "the schema written twice")
    stage(repo, 3)
    found = judged_again(repo, resident)
    assert found[0] == [] and [rule for rule, _ in found[1]] == ["duplicate-key"]


def test_a_blob_replaced_is_read_again(repo: Path) -> None:
    """``git replace`` makes git give another object's bytes for a file's object id: the same
    listing, other bytes; HEAD then holds the defect, which is no longer new."""
    resident = warmed(repo)
    once = git(repo, "rev-parse", "HEAD:a.schema.json")
    twice = git(repo, "hash-object", "-w", "a.schema.json")
    git(repo, "replace", once, twice)
    found = judged_again(repo, resident)
    assert found[0] == [] and [rule for rule, _ in found[1]] == ["duplicate-key"]
    # And taken again once nothing is replaced.
    git(repo, "replace", "-d", once)
    gate(repo, resident)
    gate(repo, resident)
    assert resident.base.reused == 2


def test_attributes_of_the_repository_that_convert_on_checkout_are_read_again(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$GIT_DIR/info/attributes`` and the user's attributes file (``core.attributesFile``)
    are no file of the commit: a checkout would now write CRLF line endings, the base is
    checked out."""
    resident = warmed(repo)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.json eol=crlf\n")
    judged_again(repo, resident)
    (repo / ".git" / "info" / "attributes").unlink()
    gate(repo, resident)  # read from the objects again, and kept
    users = tmp_path / "attributes"
    users.write_text("*.json eol=crlf\n")
    git(repo, "config", "core.attributesFile", str(users))
    judged_again(repo, resident)


def test_the_configuration_the_date_and_the_rules_are_in_the_key(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    resident = warmed(repo)
    # A waiver of the schema's finding that expired yesterday: judged by the date.
    write_files(
        repo,
        {
            "speclint.toml": '[[waivers]]\nrule = "duplicate-key"\npath = "a.schema.json"\n'
            'reason = "r"\nexpires = "2030-01-02"\n'
        },
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a waiver")
    stage(repo, 4)
    gate(repo, resident)
    monkeypatch.setenv("SPECLINT_TODAY", "2030-01-01")
    first = judged_again(repo, resident)
    monkeypatch.setenv("SPECLINT_TODAY", "2030-01-03")
    assert judged_again(repo, resident) != first
    write_files(repo, {"speclint.toml": "[rules]\n"})
    git(repo, "add", "-A")
    judged_again(repo, resident)


def test_the_key_names_each_input(repo: Path) -> None:
    """The key itself: the listing and the rules change it."""
    config = engine.load(repo).config
    revision = engine.revision_files(repo, "HEAD", engine.SKIPPED_FOLDERS)
    key = engine._base_key(repo, config, ("duplicate-key",), revision)
    assert key is not None
    assert engine._base_key(repo, config, ("duplicate-key", "parse-error"), revision) != key
    git(repo, "commit", "-q", "-m", "next")
    moved = engine.revision_files(repo, "HEAD", engine.SKIPPED_FOLDERS)
    assert engine._base_key(repo, config, ("duplicate-key",), moved) != key
    assert engine._base_key(repo, config, None, revision) is None
