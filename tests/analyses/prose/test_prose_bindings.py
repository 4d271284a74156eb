"""Prose value sets in tables and lists, bound to schema enums (issue 15, item 2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

RUN = schema(
    title="RunSnapshot",
    type="object",
    properties={
        "status": {"type": "string", "enum": ["queued", "running", "completed", "failed"]},
        "mode": {"type": "string", "enum": ["sync", "async", "batch"]},
    },
)


def drift(root: Path) -> list[Finding]:
    return sorted(
        all_rules()["enum-drift"].check(Context.load(root), {}),
        key=lambda f: (f.location.path, f.location.line),
    )


def test_a_table_column_named_schema_field_binds_in_both_directions(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Runs\n\n| `RunSnapshot.status` | Meaning |\n| --- | --- |\n"
        "| `queued` | waiting |\n| `running` | working |\n| `completed` | done |\n"
        "| `cancelled` | stopped |\n"
    )
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    # One drift, one finding (issue 48): at the enum, which lacks what the table documents...
    (finding,) = drift(root)
    assert finding.location.path == "schemas/run.schema.json"
    assert "lacks `cancelled`" in finding.message
    # ...and allows what the table leaves out: the table is its related place, and a member.
    assert "allows `failed`, which the prose leaves out" in finding.message
    # the table related at the row of `cancelled` (issue 48, item 4), not at its header
    assert (finding.related[0].path, finding.related[0].line) == ("spec/runs.md", 8)
    assert "leaving out `failed`" in (finding.related[0].note or "")
    assert [m.location.path for m in finding.members] == [
        "schemas/run.schema.json",
        "spec/runs.md",
    ]
    fixed = page.replace("`cancelled` | stopped", "`failed` | broke")
    (root / "spec/runs.md").write_text(fixed)
    assert drift(root) == []


def test_a_column_header_with_a_note_after_the_field_binds_as_the_field(
    make_corpus: MakeCorpus,
) -> None:
    # Issue 28, item 5: "`state` (stored form)" names the field `state`; the note does not stop
    # the binding (it did: the header was read whole, and no field is called that).
    page = (
        "# Runs\n\n| `status` (stored form) | Meaning |\n| --- | --- |\n"
        "| `queued` | waiting |\n| `running` | working |\n| `completed` | done |\n"
        "| `cancelled` | stopped |\n"
    )
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    found = drift(root)
    assert any("lacks `cancelled`" in f.message for f in found)
    assert all("the text names `status`" in f.message for f in found)
    # A header that names no field, with a note, is still no binding.
    (root / "spec/runs.md").write_text(page.replace("`status` (stored form)", "Stored (form)"))
    assert drift(root) == []


def test_a_generic_value_column_takes_its_field_from_the_sentence_above(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Runs\n\nThe `mode` of a run:\n\n| Value | Meaning |\n| --- | --- |\n"
        "| `sync` | inline |\n| `async` | later |\n| `batch` | grouped |\n| `stream` | live |\n"
    )
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    [finding] = drift(root)
    assert "lacks `stream`" in finding.message
    (root / "spec/runs.md").write_text(page.replace("The `mode` of a run:", "Some values:"))
    assert drift(root) == []  # no field named: the table is skipped, not guessed


def test_a_slash_list_after_a_field_is_a_few_of_its_values(make_corpus: MakeCorpus) -> None:
    page = (
        "# Runs\n\nWhen the worker stops, the run's `status` flips to "
        "`completed` / `failed` / `paused`.\n"
    )
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    [finding] = drift(root)
    assert finding.location.path == "schemas/run.schema.json"
    assert "lacks `paused`" in finding.message
    # Never complete: `queued` and `running` are not missing from the sentence.
    (root / "spec/runs.md").write_text(page.replace("`paused`", "`failed`"))
    assert drift(root) == []
    bindings = run_cli("bindings", str(root))
    assert "list `status` [completed, failed]" in bindings.output
    assert "the text names `status`" in bindings.output


def test_a_comma_list_names_its_field_in_plain_words(make_corpus: MakeCorpus) -> None:
    page = "# Runs\n\nA run's mode is `sync`, `async`, `batch` or `stream`.\n"
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    [finding] = drift(root)
    assert "lacks `stream`" in finding.message
    # Two values joined by "or" are a phrase, not a value set.
    (root / "spec/runs.md").write_text("# Runs\n\nA run's mode is `sync` or `stream`.\n")
    assert drift(root) == []


def test_a_proposal_binds_only_when_it_names_the_schema(make_corpus: MakeCorpus) -> None:
    proposal = (
        "# RFC 0007: Pausing\n\n| Field | Value |\n| --- | --- |\n| RFC | 0007 |\n"
        "| Status | Draft |\n| Created | 2026-01-01 |\n\n## Proposal\n\nThe run's `status` flips to "
        "`completed` / `failed` / `paused`.\n"
    )
    root = make_corpus({"schemas/run.schema.json": RUN, "rfcs/0007-pausing.md": proposal})
    assert drift(root) == []
    (root / "rfcs/0007-pausing.md").write_text(
        proposal.replace("The run's `status`", "`RunSnapshot.status`")
    )
    [finding] = drift(root)
    assert "lacks `paused`" in finding.message


def test_a_column_that_repeats_values_describes_rows_not_a_vocabulary(
    make_corpus: MakeCorpus,
) -> None:
    """A field reference table's `Type` column (`string`, `string`, `boolean`) is not the values
    of a `type` field, and a count of "five data types" is not about it."""
    kinds = schema(properties={"type": {"enum": ["string", "boolean", "array"]}})
    page = (
        "# Fields\n\nThe specification supports five data types.\n\n"
        "| Field | Type | Description |\n| --- | --- | --- |\n"
        "| name | `string` | The name. |\n| path | `string` | The path. |\n"
        "| required | `boolean` | Whether. |\n"
    )
    root = make_corpus({"schemas/kinds.schema.json": kinds, "spec/fields.md": page})
    assert drift(root) == []
    assert list(all_rules()["count-drift"].check(Context.load(root), {})) == []
    # The same column without repeats is a value set of `type`, and drifts.
    (root / "spec/fields.md").write_text(page.replace("| path | `string` |", "| path | `date` |"))
    assert any("lacks `date`" in f.message for f in drift(root))
