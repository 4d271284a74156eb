"""The prose value sets (``enumerations.prose_sets``, 21 % of a cold run's CPU on OpenWOP) are
made only by a run whose rules read them (``READS_PROSE_SETS``) or that lists the bindings; a page
the parse cache kept without them has them written to its entry once, by the first run that
makes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import write_files
from speclint.analyses.context import Context
from speclint.analyses.prose import enumerations
from speclint.run import runner
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

PAGE = """\
# Tasks

The `state` field is one of `submitted`, `working` or `completed`.

A task has one of three states.
"""

SCHEMA = """\
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.com/task.json",
  "type": "object",
  "properties": {"state": {"type": "string", "enum": ["submitted", "working", "done"]}}
}
"""

PROTO = """\
syntax = "proto3";
package tasks.v1;
enum TaskState {
  TASK_STATE_UNSPECIFIED = 0;
  TASK_STATE_SUBMITTED = 1;
  TASK_STATE_WORKING = 2;
}
message Task {
  TaskState state = 1;
}
"""

FILES: dict[str, str | bytes] = {
    "docs/tasks.md": PAGE,
    "docs/more.md": PAGE.replace("Tasks", "More tasks"),
    "schemas/task.json": SCHEMA,
    "proto/tasks.proto": PROTO,
}


def counting(monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
    """Each page whose value sets are made, one line in ``log`` (forked parsers and workers
    too: they inherit the patch)."""
    made = enumerations._prose_sets

    def counted(document: object) -> object:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{document.path}\n")  # type: ignore[attr-defined]
        return made(document)  # type: ignore[arg-type]

    monkeypatch.setattr(enumerations, "_prose_sets", counted)


def made(log: Path) -> list[str]:
    return sorted(log.read_text(encoding="utf-8").split()) if log.exists() else []


def test_a_run_whose_rules_read_no_value_sets_makes_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = write_files(tmp_path / "spec", FILES)
    log = tmp_path / "made"
    counting(monkeypatch, log)
    lint(root, Options(preview=False, cache=False))
    assert made(log) == []
    lint(root, Options(preview=False, cache=False, rules=("broken-link",)))
    assert made(log) == []


def test_a_run_selecting_enum_drift_makes_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = write_files(tmp_path / "spec", FILES)
    log = tmp_path / "made"
    counting(monkeypatch, log)
    lint(root, Options(preview=True, cache=False, rules=("enum-drift",)))
    assert made(log) == ["docs/more.md", "docs/tasks.md"]


def test_a_page_kept_without_its_sets_is_written_again_once_and_not_made_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A run of rules that read no value sets keeps the pages without them; the next run that
    reads them makes them once and writes the pages' entries again; the run after reads them."""
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = write_files(tmp_path / "spec", FILES)
    log = tmp_path / "made"
    counting(monkeypatch, log)
    lint(root, Options(preview=True, rules=("broken-link",)))
    assert made(log) == []
    entries = sorted((tmp_path / "cache").rglob("parse-*/*.msgpack"))
    before = {entry: entry.stat().st_mtime_ns for entry in entries}
    lint(root, Options(preview=True, rules=("enum-drift",)))
    assert made(log) == ["docs/more.md", "docs/tasks.md"]
    after = {entry: entry.stat().st_mtime_ns for entry in entries}
    rewritten = sorted(entry.name for entry in entries if after[entry] != before[entry])
    assert len(rewritten) == 2  # the two pages, not the schema nor the proto
    log.unlink()
    lint(root, Options(preview=True, rules=("count-drift",)))  # not answered by the run cache
    assert made(log) == []
    again = {entry: entry.stat().st_mtime_ns for entry in entries}
    assert again == after  # nothing written again


def test_every_rule_that_reads_the_value_sets_declares_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each rule run alone, in this process, on a corpus whose pages list values that a schema
    enum and a proto enum hold: those that make a page's value sets (themselves or through an
    analysis: proto-enum-drift's ``protojson.prose_enum_pairs``) are those that declare
    ``READS_PROSE_SETS``, so a new rule that reads them cannot forget to."""
    root = write_files(tmp_path / "spec", FILES)
    log = tmp_path / "made"
    counting(monkeypatch, log)
    readers = set()
    for rule_id, info in all_rules().items():
        if log.exists():
            log.unlink()
        runner._check(Context.load(root), rule_id, info, debug=False)
        if made(log):
            readers.add(rule_id)
    assert readers == {r for r, info in all_rules().items() if info.reads_prose_sets}
    assert {"enum-drift", "count-drift", "proto-enum-drift"} <= readers
