"""Issue 46, item 10: value lists in every shape a spec writes them, held to the schema's enum.

Each shape is a small page of ours listing the `status` (or `priority`) values of one schema.
Tested by mutation, as the issue's hidden checks did: the page and the enum agree (nothing), a
value the enum lacks is added to the page (a finding at the enum naming it, the page related),
a value is removed from the page (a finding at the list naming it, the enum related), and a
value is added to the enum (the same). Lists that only look like values (features, another
field's codes, examples naming code spans) are no value sets.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_cli, run_rule, schema
from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import SHAPE_FORMS, Binder, all_prose_sets
from speclint.common.findings import Finding
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


STATUS = ["queued", "running", "done"]


PRIORITY = ["LOW", "NORMAL", "HIGH"]


def job_schema(status: list[str] = STATUS, priority: list[str] = PRIORITY) -> str:
    return schema(
        title="Job",
        type="object",
        properties={
            "status": {"type": "string", "enum": status},
            "priority": {"type": "string", "enum": priority},
        },
    )


def lines(template: str, values: list[str], item: str) -> str:
    """The page ``template`` with ``{items}`` one ``item`` line per value."""
    body = "\n".join(item.format(v=v) for v in values)
    return textwrap.dedent(template).replace("{items}", body)


def joined(values: list[str]) -> str:
    spans = [f"`{v}`" for v in values]
    return ", ".join(spans[:-1]) + ", and " + spans[-1]


def either(values: list[str]) -> str:
    spans = [f"`{v}`" for v in values]
    return ", ".join(spans[:-1]) + " or " + spans[-1]


# (name, field, form, page maker, the line the list is read at, whether the page gives it as the
# field's whole set)
SHAPES: list[tuple[str, str, str, Callable[[list[str]], str], int]] = [
    (
        "definition list under a heading naming the field",
        "status",
        "definitions",
        lambda vs: lines(
            "# Jobs\n\n### `status` values\n\n{items}\n", vs, "- `{v}` — what it means"
        ),
        5,
    ),
    (
        "bold values under a lead-in naming the field",
        "priority",
        "definitions",
        lambda vs: lines(
            "# Jobs\n\nThe `priority` of a job is one of:\n\n{items}\n",
            vs,
            "* **{v}**: what it means",
        ),
        5,
    ),
    (
        "bold values with a dash, under a heading naming the field",
        "status",
        "definitions",
        lambda vs: lines(
            "# Jobs\n\n## Status values\n\n{items}\n", vs, "- **{v}** - what it means"
        ),
        5,
    ),
    (
        "table of code spans under a heading naming the field",
        "status",
        "value-table",
        lambda vs: lines(
            "# Jobs\n\n### `status` values\n\n| Value | Meaning |\n|---|---|\n{items}\n",
            vs,
            "| `{v}` | what it means |",
        ),
        5,
    ),
    (
        "table of plain values whose header names the field",
        "status",
        "value-table",
        lambda vs: lines(
            "# Jobs\n\n| Status | Meaning |\n|---|---|\n{items}\n", vs, "| {v} | what it means |"
        ),
        3,
    ),
    (
        "table of plain values under a caption naming the field",
        "status",
        "value-table",
        lambda vs: lines(
            "# Jobs\n\nTable 2: Status values\n\n| Name | Meaning |\n|---|---|\n{items}\n",
            vs,
            "| {v} | what it means |",
        ),
        5,
    ),
    (
        "table whose header is the field's values",
        "status",
        "value-table",
        lambda vs: lines(
            "# Jobs\n\n| `status` value | Description |\n|---|---|\n{items}\n",
            vs,
            "| `{v}` | what it means |",
        ),
        3,
    ),
    (
        "values in a table cell's running text",
        "status",
        "values-text",
        lambda vs: (
            "# Jobs\n\n| Field | Type | Description |\n|---|---|---|\n"
            "| `id` | string | The job's id. |\n"
            f"| `status` | string | The job's state. Values are {joined(vs)}. |\n"
        ),
        6,
    ),
    (
        "MUST be in a table cell",
        "priority",
        "values-text",
        lambda vs: (
            "# Jobs\n\n| Field | Description |\n|---|---|\n"
            f"| `priority` | MUST be {either(vs)}. |\n"
        ),
        5,
    ),
    (
        "one of in a table cell",
        "status",
        "values-text",
        lambda vs: (
            "# Jobs\n\n| Field | Description |\n|---|---|\n"
            f"| `status` | The state: one of {either(vs)}. |\n"
        ),
        5,
    ),
    (
        "allowed values in a definition-list item naming the field",
        "priority",
        "values-text",
        lambda vs: (
            "# Jobs\n\n- `id` (string): the job's id.\n"
            f"- `priority` (string): Allowed values: {', '.join(f'`{v}`' for v in vs)}.\n"
        ),
        4,
    ),
]


IDS = [shape[0] for shape in SHAPES]


def corpus_of(make_corpus: MakeCorpus, page: str, **enums: list[str]) -> Path:
    return make_corpus({"schemas/job.schema.json": job_schema(**enums), "docs/jobs.md": page})


def drift(root: Path) -> list[Finding]:
    return run_rule(root, "enum-drift")


def enum_line(root: Path, name: str) -> int:
    """The line of ``name``'s ``enum`` in the job schema."""
    text = (root / "schemas/job.schema.json").read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(text) if f'"{name}"' in line)
    return next(n for n, line in enumerate(text) if n > at and '"enum"' in line) + 1


def values_of(name: str) -> list[str]:
    return STATUS if name == "status" else PRIORITY


@pytest.mark.parametrize(("name", "field", "form", "page", "line"), SHAPES, ids=IDS)
def test_each_shape_is_a_value_set_bound_to_its_field(
    make_corpus: MakeCorpus,
    name: str,
    field: str,
    form: str,
    page: Callable[[list[str]], str],
    line: int,
) -> None:
    root = corpus_of(make_corpus, page(values_of(field)))
    corpus = Context.load(root)
    read = [p for p in all_prose_sets(corpus) if p.values == tuple(values_of(field))]
    assert [(p.form, p.field, p.line) for p in read] == [(form, field, line)]
    bound = Binder(corpus).bindings(read[0])
    assert [b.target.pointer for b in bound] == [f"/properties/{field}"]
    assert drift(root) == []


@pytest.mark.parametrize(("name", "field", "form", "page", "line"), SHAPES, ids=IDS)
def test_a_value_added_to_the_prose_is_found_at_the_enum(
    make_corpus: MakeCorpus,
    name: str,
    field: str,
    form: str,
    page: Callable[[list[str]], str],
    line: int,
) -> None:
    added = "paused" if field == "status" else "URGENT"
    root = corpus_of(make_corpus, page([*values_of(field), added]))
    (found,) = drift(root)
    assert f"`{added}`" in found.message
    assert found.location.path == "schemas/job.schema.json"
    assert found.location.line == enum_line(root, field)
    # related at the line that lists the added value (issue 48, item 4: a table's row, a list's
    # item), the set's own line for a shape on one line
    text = (root / "docs/jobs.md").read_text(encoding="utf-8").splitlines()
    row = next(n for n, written in enumerate(text, 1) if n >= line and added in written)
    assert [(r.path, r.line) for r in found.related] == [("docs/jobs.md", row)]
    assert found.heuristic == "enum-drift/value-shapes"


@pytest.mark.parametrize(("name", "field", "form", "page", "line"), SHAPES, ids=IDS)
@pytest.mark.parametrize("side", ["removed from the prose", "added to the schema"])
def test_a_value_the_prose_leaves_out_is_found_at_the_list(
    make_corpus: MakeCorpus,
    name: str,
    field: str,
    form: str,
    page: Callable[[list[str]], str],
    line: int,
    side: str,
) -> None:
    values = values_of(field)
    if side == "removed from the prose":
        left_out = values[-1]
        root = corpus_of(make_corpus, page(values[:-1]))
    else:
        left_out = "paused" if field == "status" else "URGENT"
        root = corpus_of(make_corpus, page(values), **{field: [*values, left_out]})
    (found,) = drift(root)
    assert f"`{left_out}`" in found.message
    assert (found.location.path, found.location.line) == ("docs/jobs.md", line)
    assert found.related[0].path == "schemas/job.schema.json"
    assert found.related[0].line == enum_line(root, field)
    assert found.heuristic == "enum-drift/value-shapes"


def test_values_in_a_paragraph_naming_the_field_are_checked_for_values_the_enum_lacks(
    make_corpus: MakeCorpus,
) -> None:
    # A paragraph names the field in passing: what it lists must exist; it need not be all.
    page = "# Jobs\n\nThe job's `status` moves on. Values are `queued`, `running`, and `{v}`.\n"
    assert drift(corpus_of(make_corpus, page.format(v="done"))) == []
    (found,) = drift(corpus_of(make_corpus, page.format(v="paused")))
    assert "`paused`" in found.message and found.related[0].line == 3
    short = "# Jobs\n\nThe job's `status` moves on. Values are `queued` and `running`.\n"
    assert drift(corpus_of(make_corpus, short)) == []


NOT_VALUES = {
    "bold features": (
        "# Jobs\n\nThe `status` page offers:\n\n* **Fast**: quick\n* **Queued**: in order\n"
        "* **Running**: live\n"
    ),
    "bold terms of mixed spelling": (
        "# Jobs\n\nThe `status` field is one of:\n\n* **queued**: waiting\n"
        "* **Running**: working\n* **DONE**: finished\n"
    ),
    "bold values under no sentence or heading naming a field": (
        "# Jobs\n\nRead on:\n\n* **queued**: waiting\n* **running**: working\n"
    ),
    "a field reference table": (
        "# Jobs\n\n| Field | Meaning |\n|---|---|\n| queued | a flag |\n| running | a flag |\n"
    ),
    "a table of status codes": (
        "# Jobs\n\n| Status | Meaning |\n|---|---|\n| 200 | ok |\n| 404 | not found |\n"
    ),
    "a table under a heading that is a topic": (
        "# Jobs\n\n## Scheduling\n\n| Value | Meaning |\n|---|---|\n| `queued` | a |\n"
        "| `running` | b |\n"
    ),
    "a cell naming examples": (
        "# Jobs\n\n| Field | Description |\n|---|---|\n"
        "| `status` | Values are, for example, `queued` and `running`. |\n"
    ),
}


@pytest.mark.parametrize("page", list(NOT_VALUES.values()), ids=list(NOT_VALUES))
def test_lists_that_only_look_like_values_are_no_value_sets(
    make_corpus: MakeCorpus, page: str
) -> None:
    root = corpus_of(make_corpus, page)
    corpus = Context.load(root)
    binder = Binder(corpus)
    shaped = [
        p
        for p in all_prose_sets(corpus)
        if p.form in SHAPE_FORMS and p.complete and binder.bindings(p)
    ]
    assert shaped == []
    assert drift(root) == []


def test_a_condition_makes_must_be_a_few_of_the_values(make_corpus: MakeCorpus) -> None:
    # "MUST be `done` or `queued` when ..." names the values of some moments, not the field's.
    page = (
        "# Jobs\n\n| Field | Description |\n|---|---|\n"
        "| `status` | MUST be `done` or `queued` when the job has no worker. |\n"
    )
    assert drift(corpus_of(make_corpus, page)) == []


def test_bindings_lists_the_new_shapes_with_their_form(make_corpus: MakeCorpus) -> None:
    page = SHAPES[0][3](STATUS) + "\n" + SHAPES[4][3](STATUS).replace("# Jobs\n", "")
    root = corpus_of(make_corpus, page)
    result = run_cli("bindings", str(root))
    assert result.exit_code == 0, result.output
    assert "docs/jobs.md:5 definitions `status` [queued, running, done]" in result.output
    assert "value-table `status` [queued, running, done]" in result.output
    assert "schemas/job.schema.json#/properties/status" in result.output


def test_the_new_shapes_are_a_heuristic_held_back_until_measured() -> None:
    # New, unlabelled: its findings run in preview mode only (speclint.run.preview).
    assert "enum-drift/value-shapes" in preview.preview_heuristics()
    assert "labelled findings" in preview.why_heuristic_preview("enum-drift/value-shapes")


def test_a_list_that_variants_share_out_is_their_union(make_corpus: MakeCorpus) -> None:
    # One message's `role` in three values, the tool message's in one: the prose lists both.
    variants = schema(
        title="Messages",
        type="object",
        properties={"messages": {"type": "array", "items": {"$ref": "#/$defs/Message"}}},
        **{
            "$defs": {
                "Message": {"anyOf": [{"$ref": "#/$defs/Said"}, {"$ref": "#/$defs/Tool"}]},
                "Said": {
                    "type": "object",
                    "properties": {"role": {"enum": ["user", "assistant", "system"]}},
                },
                "Tool": {"type": "object", "properties": {"role": {"enum": ["tool"]}}},
            }
        },
    )
    page = "# Chat\n\nThe `role` is one of `user`, `assistant`, `system` or `{v}`.\n"
    files = {"schemas/messages.schema.json": variants}
    shared = make_corpus({**files, "docs/chat.md": page.format(v="tool")})
    assert run_rule(shared, "enum-drift") == []
    # A value neither has is still one the prose adds.
    found = run_rule(
        make_corpus({**files, "docs/chat.md": page.format(v="tool`, or `robot")}), "enum-drift"
    )
    assert found and all("lacks `robot`," in f.message for f in found)


def test_a_typescript_literal_union_in_a_fence_is_held_to_the_enum(make_corpus: MakeCorpus) -> None:
    page = (
        "# Jobs\n\nA job as the client library types it:\n\n"
        "```ts\ninterface Job {\n  status: 'queued' | 'running' | 'cancelling' | 'done';\n}\n```\n"
    )
    root = make_corpus({"schemas/job.json": job_schema(), "docs/jobs.md": page})
    (finding,) = run_rule(root, "enum-drift")
    assert finding.location.path == "schemas/job.json"
    assert "`cancelling`" in finding.message
    assert any(r.path == "docs/jobs.md" and r.line == 7 for r in finding.related)


def test_a_set_bound_by_name_alone_listing_under_half_the_enum_leaves_out_nothing(
    make_corpus: MakeCorpus,
) -> None:
    """A table of a feature's two methods, bound by the name `method` alone, documents that
    feature, not the whole vocabulary: the values it does not list are not missing from it."""
    methods = ["get", "put", "post", "delete", "patch", "head"]
    files = {"schemas/call.json": schema(title="Call", type="object", properties={
        "method": {"type": "string", "enum": methods}})}  # fmt: skip
    few = "# Uploads\n\nThe `method` is one of `put` | `post`.\n"
    assert run_rule(make_corpus({**files, "docs/uploads.md": few}), "enum-drift") == []
    half = "# Uploads\n\nThe `method` is one of `put` | `post` | `patch`.\n"
    (finding,) = run_rule(make_corpus({**files, "docs/uploads.md": half}), "enum-drift")
    assert finding.location.path == "docs/uploads.md"
    assert "`get`" in finding.message


# enum-drift (issue 46, round 4): a value list a sentence gives as plain words after the field it
# names ("List jobs by status (queued, running, done)", "Statuses are queued, running and done."),
# held to the field's enum under the heuristic `enum-drift/sentence-values`.


def job(status: list[str]) -> str:
    return schema(
        title="Job",
        type="object",
        properties={"id": {"type": "string"}, "status": {"type": "string", "enum": status}},
    )


def task(state: list[str]) -> str:
    return schema(
        title="Task",
        type="object",
        properties={"status": {"type": "string", "enum": state}},
    )


def found(make_corpus: MakeCorpus, page: str, status: list[str]) -> list[Finding]:
    root = make_corpus({"schemas/job.schema.json": job(status), "docs/jobs.md": page})
    return run_rule(root, "enum-drift", {})


def where(findings: list[Finding]) -> list[tuple[str, int]]:
    return sorted((f.location.path, f.location.line) for f in findings)


def test_a_parenthesised_list_after_by_field_agrees_with_the_enum(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\n- List jobs by status (queued, running, done)\n"
    assert found(make_corpus, page, ["queued", "running", "done"]) == []


def test_a_value_the_enum_lacks_is_found_at_the_enum(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\n- List jobs by status (queued, running, paused, done)\n"
    (finding,) = found(make_corpus, page, ["queued", "running", "done"])
    assert finding.location.path == "schemas/job.schema.json"
    assert "lacks `paused`" in finding.message
    assert finding.heuristic == "enum-drift/sentence-values"
    assert [(r.path, r.line) for r in finding.related] == [("docs/jobs.md", 3)]


def test_a_list_the_enum_outgrew_is_found_at_the_sentence(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nStatuses are queued, running and done.\n"
    (finding,) = found(make_corpus, page, ["queued", "running", "failed", "done"])
    assert (finding.location.path, finding.location.line) == ("docs/jobs.md", 3)
    assert "`failed`" in finding.message


def test_a_list_the_words_name_binds_however_far_it_drifted(make_corpus: MakeCorpus) -> None:
    # two of four values renamed, one left out: the values alone are too far apart to bind,
    # but the sentence names the schema (`jobs`) and the field (`status`)
    page = "# Jobs\n\n- List jobs by status (idle, paused, errored, finished)\n"
    root = make_corpus(
        {
            "schemas/job.schema.json": job(["idle", "busy", "paused", "error"]),
            "schemas/task.schema.json": task(["idle", "paused", "gone"]),
            "docs/jobs.md": page,
        }
    )
    findings = run_rule(root, "enum-drift", {})
    # One drift both ways, one finding at the enum, the sentence its related place (issue 48).
    assert where(findings) == [("schemas/job.schema.json", 11)]
    assert [(r.path, r.line) for r in findings[0].related] == [("docs/jobs.md", 3)]


def test_a_list_of_examples_leaves_the_rest_unclaimed(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nFor example, statuses are queued, running and done.\n"
    assert found(make_corpus, page, ["queued", "running", "failed", "done"]) == []


def test_words_that_are_no_values_are_no_list(make_corpus: MakeCorpus) -> None:
    page = "# Jobs\n\nSort jobs by Status (Queued, Running, Done) or by id.\n"
    assert found(make_corpus, page, ["queued", "running", "failed", "done"]) == []
