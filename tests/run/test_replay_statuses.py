"""The replay cache takes a file as read by its status (``speclint.run.replay.read_again``): only
a status kept as the run read it, for a file last changed well before the run started, and only
when the file's status now is that one in every part. Every other file is read and hashed, and
every way a file can change is a miss.

A test that needs a file to look settled (last changed long before the run started) records it
with a margin of minus an hour (``SETTLED``): a test cannot set a change time back, which is the
point of it. A file system whose timestamps did not move (a coarse one, a second edit within its
resolution) is played by a status that stays what it was (``frozen``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import rewritten_in_place
from speclint.parsing.reading import LoadProblem, read_with_status
from speclint.run import replay
from speclint.run.replay import Inputs, Reads, inputs_of, read_again

HOUR = 3600 * 10**9
PAGE = "# Page\n\nThe value is `x`.\n"
SETTLED = -HOUR  # a margin by which every file of a test has settled


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs/page.md").write_text(PAGE, encoding="utf-8")
    (folder / "docs/other.md").write_text("# Other\n", encoding="utf-8")
    (folder / "go.mod").write_text("module example.com/x\n", encoding="utf-8")
    return folder


def recorded(
    root: Path, margin: int = SETTLED, paths: tuple[str, ...] = ("docs/other.md", "docs/page.md")
) -> Inputs:
    """The inputs of a run that read ``paths`` and, beside them, ``go.mod``, with its statuses
    kept by ``margin`` (``SETTLED_NANOSECONDS`` is the real one)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replay, "SETTLED_NANOSECONDS", margin)
        patch.setattr(replay, "read_with_status", read_with_status)  # the run's reads: not spied
        reads = Reads()
        files = [(path, reads.read(root, path)) for path in paths]
        module = reads.beside_reader(root)("go.mod")
        return inputs_of(
            [(path, raw, reads.corpus[path]) for path, raw in files],
            [("go.mod", module, reads.beside["go.mod"])],
            reads.started,
        )


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the replay reads (opens and hashes), by path."""
    seen: list[str] = []

    def spy(root: Path, path: str) -> tuple[bytes | LoadProblem, os.stat_result | None]:
        seen.append(path)
        return read_with_status(root, path)

    monkeypatch.setattr(replay, "read_with_status", spy)
    return seen


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> Callable[[Path, os.stat_result], None]:
    """Make ``lstat`` of a path say the given status, whatever the file holds now."""
    real = os.lstat

    def freeze(path: Path, status: os.stat_result) -> None:
        def lstat(name: object, *args: object, **kwargs: object) -> os.stat_result:
            if os.fspath(name) == str(path):  # type: ignore[call-overload]
                return status
            return real(name, *args, **kwargs)  # type: ignore[call-overload,no-any-return]

        monkeypatch.setattr(os, "lstat", lstat)

    return freeze


def test_a_settled_file_whose_status_is_unchanged_is_taken_as_read(
    root: Path, opened: list[str]
) -> None:
    inputs = recorded(root)
    assert all(status is not None for status in inputs.statuses)
    assert read_again(root, inputs) is inputs
    assert opened == []


def test_the_same_bytes_with_another_status_are_read_and_answer(
    root: Path, opened: list[str]
) -> None:
    inputs = recorded(root)
    rewritten_in_place(root / "docs/page.md", PAGE)
    assert read_again(root, inputs) is not None
    assert opened == ["docs/page.md"]


def test_content_edited_keeping_size_and_modification_time_is_read(
    root: Path, opened: list[str]
) -> None:
    inputs = recorded(root)
    rewritten_in_place(root / "docs/page.md", PAGE.replace("`x`", "`y`"))
    assert read_again(root, inputs) is None
    assert opened == ["docs/page.md"]


def test_a_file_read_beside_the_corpus_is_held_too(root: Path, opened: list[str]) -> None:
    inputs = recorded(root)
    rewritten_in_place(root / "go.mod", "module example.com/y\n")
    assert read_again(root, inputs) is None
    assert opened == ["go.mod"]


def test_a_file_replaced_by_a_rename_is_read(root: Path) -> None:
    replacement = root / "page.new"
    replacement.write_text(PAGE.replace("`x`", "`z`"), encoding="utf-8")
    os.utime(replacement, ns=(0, (root / "docs/page.md").stat().st_mtime_ns))
    inputs = recorded(root)
    os.replace(replacement, root / "docs/page.md")
    assert read_again(root, inputs) is None


def test_a_deleted_file_is_read(root: Path) -> None:
    inputs = recorded(root)
    (root / "docs/page.md").unlink()
    assert read_again(root, inputs) is None


@pytest.mark.parametrize(
    "part", ["st_dev", "st_ino", "st_mode", "st_size", "st_mtime_ns", "st_ctime_ns"]
)
def test_a_status_that_differs_in_any_part_is_read(
    root: Path,
    opened: list[str],
    frozen: Callable[[Path, os.stat_result], None],
    part: str,
) -> None:
    """The file changed, and its status now differs from the one kept in ``part`` alone: the
    test fails if the status the entry keeps forgets that part."""
    page = root / "docs/page.md"
    inputs = recorded(root)
    kept = os.lstat(page)
    page.write_text(PAGE.replace("`x`", "`y`"), encoding="utf-8")
    fields = {
        name: getattr(kept, name)
        for name in ("st_atime_ns", "st_mtime_ns", "st_ctime_ns", "st_atime", "st_mtime")
    }
    values = list(kept[:10])
    index = {"st_mode": 0, "st_ino": 1, "st_dev": 2, "st_size": 6}
    if part in index:
        values[index[part]] += 1
    else:
        fields[part] += 1
    frozen(page, os.stat_result(values, fields))
    assert read_again(root, inputs) is None
    assert opened == ["docs/page.md"]


def test_a_file_changed_near_the_run_start_is_read_though_its_status_stays(
    root: Path, opened: list[str], frozen: Callable[[Path, os.stat_result], None]
) -> None:
    """Git's racily clean file: written just before the run, then edited within the file
    system's timestamp resolution, its status says nothing. The entry keeps no status for it."""
    page = root / "docs/page.md"
    # A margin of an hour: written "just now" however slow the machine is.
    inputs = recorded(root, HOUR)
    assert inputs.statuses == (None, None, None)
    kept = os.lstat(page)
    page.write_text(PAGE.replace("`x`", "`y`"), encoding="utf-8")
    frozen(page, kept)
    assert read_again(root, inputs) is None
    assert "docs/page.md" in opened


def test_a_file_written_after_it_was_read_keeps_the_status_it_was_read_at(
    root: Path, opened: list[str]
) -> None:
    """A write during the run, after the file was read and before the run ended: the status
    kept is the one the bytes were read at, so the replay sees the write."""
    page = root / "docs/page.md"
    reads = Reads()
    raw = reads.read(root, "docs/page.md")
    opened.clear()
    rewritten_in_place(page, PAGE.replace("`x`", "`y`"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replay, "SETTLED_NANOSECONDS", SETTLED)
        inputs = inputs_of([("docs/page.md", raw, reads.corpus["docs/page.md"])], [], reads.started)
    assert inputs.statuses[0] is not None
    assert read_again(root, inputs) is None
    assert opened == ["docs/page.md"]


def test_a_symlinked_file_is_read_every_time(root: Path, opened: list[str]) -> None:
    (root / "docs/target.md").write_text(PAGE, encoding="utf-8")
    (root / "docs/twin.md").write_text(PAGE.replace("`x`", "`y`"), encoding="utf-8")
    (root / "docs/link.md").symlink_to("target.md")
    inputs = recorded(root, paths=("docs/link.md", "docs/target.md"))
    assert inputs.statuses[0] is None and inputs.statuses[1] is not None
    assert read_again(root, inputs) is inputs
    assert opened == ["docs/link.md"]
    (root / "docs/link.md").unlink()
    (root / "docs/link.md").symlink_to("twin.md")  # retargeted, to a file of the same size
    assert read_again(root, inputs) is None


def test_a_clock_behind_the_runs_start_reads_every_file(root: Path, opened: list[str]) -> None:
    inputs = recorded(root)
    behind = Inputs(
        inputs.files, inputs.beside, inputs.digests, inputs.statuses, time.time_ns() + HOUR
    )
    assert read_again(root, behind) is not None
    assert sorted(opened) == ["docs/other.md", "docs/page.md", "go.mod"]


def test_files_read_again_that_gave_the_same_keep_their_settled_status(
    root: Path, opened: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A margin of an hour: all written just now, however slow the machine is: no status kept.
    inputs = recorded(root, HOUR)
    monkeypatch.setattr(replay, "SETTLED_NANOSECONDS", HOUR)
    assert read_again(root, inputs) is inputs  # still unsettled: nothing to keep
    monkeypatch.setattr(replay, "SETTLED_NANOSECONDS", -HOUR)  # an hour later, as it were
    refreshed = read_again(root, inputs)
    assert refreshed is not None and refreshed is not inputs
    assert all(status is not None for status in refreshed.statuses)
    assert refreshed.digests == inputs.digests
    opened.clear()
    assert read_again(root, refreshed) is refreshed
    assert opened == []


def test_no_status_is_kept_where_the_system_has_no_change_time(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay, "CHANGE_TIMES", False)
    assert recorded(root).statuses == (None, None, None)
