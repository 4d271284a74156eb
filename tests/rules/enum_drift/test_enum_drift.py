"""enum-drift, count-drift and undocumented-field: the prose against the schemas it describes."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import dedented as page
from conftest import findings_of, run_rule, schema
from conftest import run_rule as run
from speclint.analyses.context import Context
from speclint.analyses.prose import enumerations
from speclint.analyses.prose.enumerations import Binder, all_prose_sets, counted_claims, prose_sets
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.model.corpus import parse_document
from speclint.rules import enum_drift
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


SNAPSHOT = schema(
    title="RunSnapshot",
    type="object",
    properties={"runId": {"type": "string"}, "status": {"enum": ["queued", "running", "done"]}},
)


def pages_and_schemas(pages: int, schemas: int) -> dict[str, str]:
    """``pages`` pages that each list `a` as `x` | `y` | `q`, and ``schemas`` schemas whose `a`
    is `x`, `y`, `z`: every page binds to every schema by the field's name."""
    files = {
        f"spec/p{n}.md": f"# Page {n}\n\nThe `a` field is one of `x` | `y` | `q`.\n"
        for n in range(pages)
    }
    for n in range(schemas):
        files[f"schemas/s{n}.schema.json"] = schema(
            type="object", properties={"a": {"enum": ["x", "y", "z"]}}
        )
    return files


def edit(root: Path, path: str, old: str, new: str) -> Path:
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{path} no longer holds {old!r}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


ERROR_API = textwrap.dedent(
    """\
    openapi: 3.1.0
    info: {title: t, version: 1.0.0}
    paths: {}
    components:
      schemas:
        Error:
          type: object
          properties:
            code: {type: string, enum: [internal, invalid, forbidden, unavailable]}
            message: {type: string}
    """
)


def error_variant(code: str) -> str:
    return schema(
        type="object",
        properties={"code": {"type": "string", "enum": [code]}, "message": {"type": "string"}},
    )


def line_error(api_refers: bool) -> dict[str, str | bytes]:
    """A schema of line errors (`code` of its own few values, more members) and another API's
    own `Error` component, of more codes; the API refers to the schema's folder or not."""
    api = ERROR_API
    if api_refers:
        api = api.replace("paths: {}", "paths: {}\nx-line: {$ref: '../schemas/line-error.json'}")
    return {
        "schemas/line-error.json": schema(
            type="object",
            properties={
                "code": {"type": "string", "enum": ["internal", "invalid"]},
                "message": {"type": "string"},
                "line": {"type": "integer"},
            },
        ),
        "api/openapi.yaml": api,
    }


def _yaml(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


def _enum_schema(**fields: list[str]) -> str:
    return schema(
        type="object",
        properties={name: {"type": "string", "enum": values} for name, values in fields.items()},
    )


_PROPOSAL = """\
# RFC: Session states

**Status:** Draft
**Version:** 2026-01-01

## Retrieve

- `state` - `open` | `closed` | `expired`
"""


def _error_body(codes: list[str], base: str) -> dict[str, Any]:
    return {
        "allOf": [
            {"$ref": base},
            {
                "type": "object",
                "properties": {
                    "status": {"type": "integer", "enum": [400]},
                    "code": {"type": "string", "enum": codes},
                },
            },
        ]
    }


FIELD_SCHEMA = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["string", "number", "integer", "boolean"]}
        },
    }
)


def _types_page(lead: str, last: str) -> str:
    return (
        "# Ledger sheets\n\n### Data Types\n\n"
        f"{lead}\n\n"
        "- `number` is a subset of our number\n"
        "- `boolean` is the same as our boolean\n"
        "- `string` is limited to 400 characters\n"
        f"- `translated` maps language codes to strings.\n  {last}\n"
    )


MEMBERSHIP = ["join", "invite", "knock", "leave", "ban"]


def test_every_prose_form_yields_its_values_with_field_and_line() -> None:
    text = page(
        """
        # Runs

        `RunSnapshot.status` is one of `queued` | `running` | `done`.

        The `mode` is one of `a`, `b` or `c`.

        A span union: `x | y | z`.

        | `level` | meaning |
        | --- | --- |
        | `low` | calm |
        | `high` | busy |

        Each `kind` is one of these:

        - `approval`: a person decides.
        - `custom`: anything else.

        ```ts
        interface P {
          phase:
            | 'start' | 'end';
        }
        ```

        ```yaml
        level: debug | info | warn
        ```

        The three `role` values (`reader`, `writer`) matter. Examples include `p`, `q`:

        - `p`: e.g. one.
        - `q`: e.g. two.
        """
    )
    sets = {s.values: s for s in prose_sets(parse_document("spec/runs.md", text))}
    lines = text.split("\n")
    expected = {
        ("queued", "running", "done"): ("union", "status"),
        ("a", "b", "c"): ("one-of", "mode"),
        ("x", "y", "z"): ("union", None),
        ("low", "high"): ("table", "level"),
        ("approval", "custom"): ("list", "kind"),
        ("start", "end"): ("fence", "phase"),
        ("debug", "info", "warn"): ("fence", "level"),
        ("reader", "writer"): ("counted", "role"),
        ("p", "q"): ("list", "run"),  # no field in the intro: the heading "Runs" names it
    }
    for values, (form, field) in expected.items():
        found = sets[values]
        assert (found.form, found.field) == (form, field), values
        assert values[0] in lines[found.line - 1] or form in {"table", "fence"}, values
    assert sets[("reader", "writer")].claimed == 3
    assert sets[("p", "q")].complete is False  # "Examples include": not the whole set
    assert sets[("queued", "running", "done")].complete is True


def test_counted_claims_read_number_words_digits_and_qualifiers() -> None:
    text = "Covers the four `kind` discriminators, 5 stream modes and three interrupt kinds.\n"
    claims = list(counted_claims(parse_document("spec/x.md", text)))
    assert [(c.number, c.subject, c.field, c.qualifiers) for c in claims] == [
        (4, "discriminator", "kind", ()),
        (5, "mode", None, ("stream",)),
        (3, "kind", None, ("interrupt",)),
    ]


def test_value_missing_from_the_schema_is_reported_at_the_enum_with_every_prose_place(
    make_corpus: MakeCorpus,
) -> None:
    text = page(
        """
        # Runs

        `RunSnapshot.status` is one of `queued` | `running` | `cancelling` | `done`.

        | status | terminal |
        | --- | --- |
        | `queued` | no |
        | `running` | no |
        | `cancelling` | no |
        | `done` | yes |
        """
    )
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": text})
    [finding] = run_rule(root, "enum-drift")
    assert finding.location.path == "schemas/run-snapshot.schema.json"
    assert finding.location.pointer == "/properties/status/enum"
    assert "lacks `cancelling`" in finding.message
    # the table related at the row of `cancelling` (issue 48, item 4), not at its header
    assert [(r.path, r.line) for r in finding.related] == [("spec/runs.md", 3), ("spec/runs.md", 9)]
    fixed = SNAPSHOT.replace('"running",', '"running",\n        "cancelling",')
    root = make_corpus({"schemas/run-snapshot.schema.json": fixed, "spec/runs.md": text})
    assert run_rule(root, "enum-drift") == []


def test_value_missing_from_a_complete_prose_set_is_reported_at_the_prose(
    make_corpus: MakeCorpus,
) -> None:
    complete = page("# Runs\n\n`RunSnapshot.status` is one of `queued` | `running`.\n")
    partial = complete.replace("is one of", "includes, for example,")
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": complete})
    [finding] = run_rule(root, "enum-drift")
    assert (finding.location.path, finding.location.line) == ("spec/runs.md", 3)
    assert "also allows `done`" in finding.message
    assert finding.related[0].path == "schemas/run-snapshot.schema.json"
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": partial})
    assert run_rule(root, "enum-drift") == []


def test_name_match_needs_overlapping_values(make_corpus: MakeCorpus) -> None:
    unrelated = page("# Other\n\nEach `status` is one of `red` | `green` | `blue`.\n")
    related = page("# Other\n\nEach `status` is one of `queued` | `running` | `done` | `lost`.\n")
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/x.md": unrelated})
    assert run_rule(root, "enum-drift") == []
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/x.md": related})
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `lost`" in finding.message and "the text names `status`" in finding.message


def test_forward_compatible_enum_is_compared_on_its_closed_part_and_exclusions_are_kept(
    make_corpus: MakeCorpus,
) -> None:
    open_enum = schema(
        title="RunSnapshot",
        type="object",
        properties={
            "status": {
                "description": "The value `paused` is deliberately excluded here.",
                "anyOf": [{"enum": ["queued", "running"]}, {"type": "string", "pattern": "^x-"}],
            }
        },
    )
    text = page(
        "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done` | `paused`.\n"
    )
    root = make_corpus({"schemas/run-snapshot.schema.json": open_enum, "spec/runs.md": text})
    [finding] = run_rule(root, "enum-drift")
    assert (
        "lacks `done`" in finding.message and "paused" not in finding.message.split("[binding")[0]
    )
    assert "(its closed part)" in finding.message


def test_a_recursive_schema_ends_the_value_walk_and_keeps_its_listed_values(
    make_corpus: MakeCorpus,
) -> None:
    # AsyncAPI's own schemas are recursive (`anyOf: [{$ref: "#"}, ...]`): the walk followed the
    # reference back to itself until a RecursionError crashed the whole rule.
    recursive = schema(
        title="RunSnapshot",
        type="object",
        properties={
            "status": {
                "anyOf": [
                    {"enum": ["queued", "running"]},
                    {"$ref": "#/properties/status"},
                ]
            }
        },
    )
    text = page("# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n")
    root = make_corpus({"schemas/run-snapshot.schema.json": recursive, "spec/runs.md": text})
    [finding] = run_rule(root, "enum-drift")
    assert finding.rule == "enum-drift" and "lacks `done`" in finding.message


def test_configured_binding_wins(make_corpus: MakeCorpus) -> None:
    other = schema(type="object", properties={"state": {"enum": ["on", "off"]}})
    text = page("# Switch\n\nIt is `on` | `off` | `broken`.\n")
    files: dict[str, str | bytes] = {"schemas/switch.schema.json": other, "spec/s.md": text}
    assert run_rule(make_corpus(files), "enum-drift") == []  # no field named: nothing to match
    root = make_corpus(
        {
            **files,
            "speclint.toml": '[bindings]\n"spec/s.md#switch" = "schemas/switch.schema.json#/properties/state"\n',
        }
    )
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `broken`" in finding.message and "[bindings]" in finding.message


def test_an_api_projection_listing_more_values_than_the_schema(make_corpus: MakeCorpus) -> None:
    openapi = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: t, version: 1.0.0}
        paths:
          /runs/{id}/cancel:
            post:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          runId: {type: string}
                          status: {type: string, enum: [done, cancelling]}
        """
    )
    root = make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "api/openapi.yaml": openapi})
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `cancelling`, which an API document lists" in finding.message
    assert finding.related[0].path == "api/openapi.yaml" and finding.related[0].line == 15


@pytest.mark.parametrize(("pages", "schemas"), [(1, 1), (3, 4), (6, 8)])
def test_pages_repeating_a_list_against_schemas_of_one_enum_are_one_disagreement(
    make_corpus: MakeCorpus, pages: int, schemas: int
) -> None:
    found = run_rule(make_corpus(pages_and_schemas(pages, schemas)), "enum-drift")
    # One finding whatever the number of pages and schemas (it was one per page and schema,
    # and one per schema; then one a side): the enums lack `q`, the lists leave out `z`, and
    # the one drift is at the enum (issue 48).
    [drift] = found
    page_paths = [f"spec/p{n}.md" for n in range(pages)]
    schema_paths = [f"schemas/s{n}.schema.json" for n in range(schemas)]
    assert drift.location.path == "schemas/s0.schema.json"
    assert f"lacks `q`, which the prose documents ({pages} place" in drift.message
    assert f"allows `z`, which the prose leaves out ({pages} list" in drift.message
    # Every place is related, once: the related locations grow as the pages plus the schemas.
    assert sorted(r.path for r in drift.related) == sorted(page_paths + schema_paths[1:])
    # and every place is a member, each enum and each list
    assert sorted(m.location.path for m in drift.members) == sorted(page_paths + schema_paths)


def test_a_grouped_finding_keeps_the_fingerprint_of_the_finding_at_its_first_place(
    make_corpus: MakeCorpus,
) -> None:
    # A baseline taken when one page and one schema disagreed still holds the findings once
    # more pages and schemas repeat the disagreement.
    [alone] = run_rule(make_corpus(pages_and_schemas(1, 1)), "enum-drift")
    [grouped] = run_rule(make_corpus(pages_and_schemas(6, 8)), "enum-drift")
    assert grouped.fingerprint == alone.fingerprint
    # the list's place keeps the fingerprint it has alone at the prose, in both
    at_list = {alone.at(m).fingerprint for m in alone.members if m.location.path == "spec/p0.md"}
    assert at_list <= {grouped.at(m).fingerprint for m in grouped.members}


def test_related_locations_are_capped_and_the_message_counts_the_rest(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(enum_drift, "RELATED_LIMIT", 5)
    found = run_rule(make_corpus(pages_and_schemas(6, 8)), "enum-drift")
    assert len(found) == 1
    for finding in found:
        # 6 pages and 8 schemas, the finding's own place aside: 13 places, 5 of them related
        assert len(finding.related) == 5
        assert finding.message.endswith("list 5 of its 13 places, and 8 more are not listed")
        # both sides are shown
        assert {r.path.split("/")[0] for r in finding.related} == {"spec", "schemas"}


def test_a_list_is_compared_once_with_each_distinct_enum_of_its_field(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_corpus(pages_and_schemas(6, 8))
    compared: list[tuple[Any, ...]] = []
    real = enumerations.overlap

    def counted(*arguments: Any) -> bool:
        compared.append(arguments)
        return real(*arguments)

    monkeypatch.setattr(enumerations, "overlap", counted)
    corpus = Context.load(root, load_config(root))
    assert len(list(all_rules()["enum-drift"].check(corpus, {}))) == 1
    # pages × distinct enums of `a` (one), not pages × schemas (48)
    assert len(compared) == 6
    binder = Binder(corpus)
    [first] = [p for p in all_prose_sets(corpus) if p.path == "spec/p0.md"]
    [bound] = binder.grouped(first)
    assert len(bound.group.members) == 8
    # the listing still names every schema bound
    assert sorted(b.target.document.path for b in binder.bindings(first)) == [
        f"schemas/s{n}.schema.json" for n in range(8)
    ]


def test_a_list_against_enums_of_different_values_is_one_finding_at_the_list(
    make_corpus: MakeCorpus,
) -> None:
    files = {"spec/p.md": "# P\n\nThe `a` field is one of `x` | `y` | `q`.\n"}
    for n in range(3):
        files[f"schemas/s{n}.schema.json"] = schema(
            type="object", properties={"a": {"enum": ["x", "y", f"z{n}"]}}
        )
    found = run_rule(make_corpus(files), "enum-drift")
    # The list leaves out values of three enums: one list to fix, one finding at it.
    [at_list] = [f for f in found if f.location.path == "spec/p.md"]
    assert "and 2 other enums also allow `z0`, `z1`, `z2`" in at_list.message
    assert [r.path for r in at_list.related] == [f"schemas/s{n}.schema.json" for n in range(3)]
    assert [r.note for r in at_list.related[1:]] == [
        f"an enum bound too, which also allows `z{n}`; bound by: the text names `a`, values overlap"
        for n in (1, 2)
    ]
    # Each enum lacks `q`: the enums differ, so each is its own disagreement.
    assert sorted(f.location.path for f in found if f is not at_list) == [
        f"schemas/s{n}.schema.json" for n in range(3)
    ]


def test_alike_enums_of_two_version_lines_stay_apart(make_corpus: MakeCorpus) -> None:
    # The 1.0 pages describe the 1.0 schema and the 2.0 pages the 2.0 schema: the same
    # disagreement in each line is two, each line's own to fix.
    files = {}
    for version in ("1.0", "2.0"):
        files[f"spec/{version}/p.md"] = "# P\n\nThe `a` field is one of `x` | `y` | `q`.\n"
        files[f"schemas/{version}/s.schema.json"] = schema(
            type="object", properties={"a": {"enum": ["x", "y", "z"]}}
        )
    found = run_rule(make_corpus(files), "enum-drift")
    assert sorted((f.location.path, [r.path for r in f.related]) for f in found) == [
        ("schemas/1.0/s.schema.json", ["spec/1.0/p.md"]),
        ("schemas/2.0/s.schema.json", ["spec/2.0/p.md"]),
    ]


def test_openwop_interrupt_kinds_drift_is_found(openwop: Path) -> None:
    found = run_rule(openwop, "enum-drift")
    kinds = [f for f in found if f.location.path == "schemas/run-event-payloads.schema.json"]
    # Two enums of the same values that the same places find lacking the same kinds: one
    # disagreement (issue 44), at the first, the other related.
    [finding] = kinds
    assert finding.location.pointer == "/$defs/nodeSuspended/properties/kind/enum"
    assert "`low-confidence`" in finding.message
    assert {r.path for r in finding.related[:-1]} == {"spec/v1/interrupt.md"}
    assert finding.related[-1].pointer == "/$defs/interruptResolved/properties/kind/enum"


def test_openwop_removing_cancelling_from_the_snapshot_enum_is_found(
    openwop: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "c"
    shutil.copytree(openwop, copy)
    target = copy / "schemas/run-snapshot.schema.json"
    document = json.loads(target.read_text(encoding="utf-8"))
    document["properties"]["status"]["enum"].remove("cancelling")
    target.write_text(json.dumps(document, indent=2), encoding="utf-8")
    [finding] = [
        f
        for f in run_rule(copy, "enum-drift")
        if f.location.path == "schemas/run-snapshot.schema.json"
    ]
    assert finding.location.pointer == "/properties/status/enum"
    assert "lacks `cancelling`" in finding.message
    assert any(r.path == "api/openapi.yaml" for r in finding.related)


def test_openwop_a_value_added_to_a_prose_list_is_found(openwop: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c"
    shutil.copytree(openwop, copy)
    edit(
        copy,
        "spec/v1/a2a-integration.md",
        "`pending | running |",
        "`pending | archived | running |",
    )
    findings = [
        f
        for f in run_rule(copy, "enum-drift")
        if f.location.path == "schemas/run-snapshot.schema.json"
    ]
    [finding] = findings
    assert "lacks `archived`" in finding.message
    assert any(r.path == "spec/v1/a2a-integration.md" and r.line == 54 for r in finding.related)


def test_openwop_every_consistent_binding_catches_a_value_dropped_from_its_schema(
    openwop: Path,
) -> None:
    """Not just the RFC 0094 cases: for every prose set bound to a schema enum with the same
    values, dropping any one value from the schema must produce a finding naming it."""
    corpus = Context.load(openwop, load_config(openwop))
    binder = Binder(corpus)
    consistent = [
        binding
        for prose in all_prose_sets(corpus)
        for binding in binder.bindings(prose)
        if {str(v) for v in binding.values.values} == set(prose.values)
        and binding.values.keyword == "enum"
    ]
    assert len(consistent) >= 5, "the snapshot should hold several consistent bindings"
    rule = all_rules()["enum-drift"]
    checked = 0
    for binding in consistent:
        values: list[Any] = binding.values.holder.node["enum"]
        dropped = values.pop()
        try:
            found = list(rule.check(corpus, {}))
        finally:
            values.append(dropped)
        holder = binding.values.holder
        hits = [
            f
            for f in found
            if f.location.path == holder.document.path
            and f.location.pointer == f"{holder.pointer}/enum"
            and f"`{dropped}`" in f.message
        ]
        assert hits, f"dropping {dropped!r} from {holder.label} went unnoticed"
        checked += 1
    assert checked == len(consistent)


def test_supported_values_in_a_reference_table_row_bind_to_the_field(
    make_corpus: MakeCorpus,
) -> None:
    """The reference-table style of Serverless Workflow: the first column names the field, the
    description says "Supported values are: ..."; values after "Defaults to" are not values."""
    text = page(
        """
        # Listen

        | Name | Type | Description |
        |:--|:---:|:---|
        | read | `string` | How events are read.<br>*Supported values are:*<br>*- `data`: the data.*<br>*- `envelope`: all of it.*<br>*Defaults to `data`.* |
        | mode | `string` | *Supported values are: `strict`, `loose` and `lazy`*. Defaults to `strict`. |
        """
    )
    listen = schema(
        type="object",
        properties={
            "read": {"enum": ["data", "envelope"]},
            "mode": {"enum": ["strict", "loose"]},
            "guard": {"if": {"properties": {"mode": {"const": "strict"}}}},
        },
    )
    sets = {s.field: s for s in prose_sets(parse_document("spec/listen.md", text))}
    assert sets["read"].values == ("data", "envelope") and sets["read"].form == "table-row"
    assert sets["mode"].values == ("strict", "loose", "lazy")
    root = make_corpus({"schemas/listen.schema.json": listen, "spec/listen.md": text})
    [finding] = run_rule(root, "enum-drift")  # the `if` condition on `mode` is not a second binding
    assert "`mode`" in finding.message and "lacks `lazy`" in finding.message
    assert finding.related[0].line == 6


def test_a_jsx_comment_is_no_prose_statement(make_corpus: MakeCorpus) -> None:
    """MDX's comment says nothing to the reader (issue 44, item 12): a note or a waiver's
    reason in it is no statement of the values of a field."""
    text = "# Runs\n\nThe `status` field is one of `queued` | `running` | `done`.\n\n{note}\n"
    comment = "{/* TODO(v1): the `status` field is one of `queued` | `running` */}"
    files: dict[str, str | bytes] = {"schemas/run.schema.json": SNAPSHOT}
    assert (
        run_rule(make_corpus({**files, "docs/runs.mdx": text.format(note="A note.")}), "enum-drift")
        == []
    )
    assert (
        run_rule(make_corpus({**files, "docs/runs.mdx": text.format(note=comment)}), "enum-drift")
        == []
    )
    shown = text.format(note="Note: the `status` field is one of `queued` | `running`.")
    assert [
        f.location.line
        for f in run_rule(make_corpus({**files, "docs/runs.mdx": shown}), "enum-drift")
    ] == [5]


@pytest.mark.parametrize(
    ("path", "waiver"),
    [
        ("spec/runs.md", ""),
        ("spec/runs.md", "<!-- speclint-ignore enum-drift: archived runs are not listed -->\n"),
        ("spec/runs.mdx", "{/* speclint-ignore enum-drift: archived runs are not listed */}\n"),
        ("spec/runs.mdx", "{/* speclint-ignore enum-drift: archived runs are not listed */}\n\n"),
    ],
)
def test_a_waiver_above_a_list_or_table_keeps_the_sentence_that_introduces_it(
    path: str, waiver: str
) -> None:
    """A waiver stands directly above the block it waives: between a list (or a table) and the
    sentence that names its field, it does not part them (issue 44, item 12)."""
    listed = f"# Runs\n\nThe `status` field is one of:\n\n{waiver}- `open`\n- `closed`\n"
    table = f"# Runs\n\nThe `status` field is one of:\n\n{waiver}| Value |\n|---|\n| `open` |\n| `closed` |\n"
    for text in (listed, table):
        [found] = prose_sets(parse_document(path, text))
        assert (found.field, found.values) == ("status", ("open", "closed"))
        assert found.context.startswith("The `status` field is one of:")


def test_error_variants_tagged_by_a_one_value_code_are_no_projections_of_a_general_error(
    make_corpus: MakeCorpus,
) -> None:
    # Each variant fixes `code` to its own value: the tag of one variant, which a name alone
    # does not bind, nor does an API object that merely has the same property names.
    root = make_corpus(
        {
            "schemas/forbidden-error.schema.json": error_variant("forbidden"),
            "schemas/invalid-error.schema.json": error_variant("invalid"),
            "api/openapi.yaml": ERROR_API,
        }
    )
    assert run_rule(root, "enum-drift") == []


def test_a_projection_onto_a_vocabulary_enum_still_drifts(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/error.schema.json": schema(
                type="object",
                properties={
                    "code": {"type": "string", "enum": ["internal", "invalid"]},
                    "message": {"type": "string"},
                },
            ),
            "api/openapi.yaml": ERROR_API.replace(
                "paths: {}", "paths: {}\nx-error: {$ref: '../schemas/error.schema.json'}"
            ),
        }
    )
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `forbidden`, `unavailable`, which an API document lists" in finding.message


def test_a_generated_api_document_is_no_projection_evidence(make_corpus: MakeCorpus) -> None:
    # The generated document holds what its generator was given (here another edition's own
    # `Resource` list): drift is judged on the sources, never on a tool's output.
    resource = schema(
        type="object",
        properties={
            "id": {"type": "string"},
            "type": {"type": "string", "enum": ["buckets", "tasks"]},
        },
    )
    generated = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: t, version: 1.0.0}
        paths:
          /resources:
            get:
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          id: {type: string}
                          type: {type: string, enum: [buckets, tasks, flows]}
        """
    )
    files: dict[str, str | bytes] = {
        "src/cloud/resource.schema.json": resource,
        "contracts/oss.yml": generated,
    }
    assert len(run_rule(make_corpus(dict(files)), "enum-drift")) == 1  # hand-written: a projection
    files[".gitattributes"] = "contracts/** linguist-generated=true\n"
    assert run_rule(make_corpus(files), "enum-drift") == []


def test_a_charts_readme_does_not_describe_another_charts_values(make_corpus: MakeCorpus) -> None:
    chart = "apiVersion: v2\nname: {}\nversion: 1.0.0\n"
    root = make_corpus(
        {
            "charts/collector/Chart.yaml": chart.format("collector"),
            "charts/collector/README.md": page(
                """
                # Collector

                The `mode` value must be one of `daemonset`, `deployment` or `statefulset`.
                """
            ),
            "charts/collector/values.schema.json": schema(
                type="object",
                properties={"mode": {"enum": ["daemonset", "deployment", "statefulset"]}},
            ),
            "charts/allocator/Chart.yaml": chart.format("allocator"),
            "charts/allocator/values.schema.json": schema(
                type="object", properties={"mode": {"enum": ["deployment", "statefulset"]}}
            ),
        }
    )
    assert run_rule(root, "enum-drift") == []


def test_a_page_outside_any_chart_still_binds_to_a_charts_values(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "charts/allocator/Chart.yaml": "apiVersion: v2\nname: allocator\nversion: 1.0.0\n",
            "charts/allocator/values.schema.json": schema(
                type="object", properties={"mode": {"enum": ["deployment", "statefulset"]}}
            ),
            "docs/modes.md": page(
                """
                # Modes

                The `mode` value must be one of `daemonset`, `deployment` or `statefulset`.
                """
            ),
        }
    )
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `daemonset`" in finding.message


def test_an_empty_string_in_the_enum_is_unset_not_a_value_to_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "spec/modes.md": page(
                """
                # Modes

                The `mode` value must be one of `daemonset`, `deployment` or `statefulset`.
                """
            ),
            "schemas/values.schema.json": schema(
                type="object",
                properties={"mode": {"enum": ["daemonset", "deployment", "statefulset", ""]}},
            ),
        }
    )
    assert run_rule(root, "enum-drift") == []


def test_another_apis_named_definition_is_its_own_entity_not_a_projection(
    make_corpus: MakeCorpus,
) -> None:
    # `components/schemas/Error` is that API's own definition: sharing member names with a
    # schema the API never refers to is no evidence that it projects it.
    assert run_rule(make_corpus(line_error(api_refers=False)), "enum-drift") == []


def test_a_named_definition_of_an_api_that_refers_to_the_schema_is_compared(
    make_corpus: MakeCorpus,
) -> None:
    [finding] = run_rule(make_corpus(line_error(api_refers=True)), "enum-drift")
    assert "lacks `forbidden`, `unavailable`, which an API document lists" in finding.message


def test_a_section_that_names_its_schema_file_binds_to_that_file(make_corpus: MakeCorpus) -> None:
    page = textwrap.dedent(
        """\
        # Metadata

        ## Property

        *Defined in [slot.property.schema.json](../schemas/slot.property.schema.json).*

        Allowed values for `kind`:

        - `SCALAR`
        - `VEC2`
        - `MAT2`
        - `TEXT`
        """
    )
    files: dict[str, str | bytes] = {
        "schemas/slot.property.schema.json": _enum_schema(kind=["SCALAR", "VEC2", "MAT2", "TEXT"]),
        # Another extension's `kind`, of some of the same values.
        "schemas/buffer.schema.json": _enum_schema(kind=["SCALAR", "VEC2"]),
        "docs/README.md": page,
    }
    # Before: bound by the name `kind` to the buffer's enum, which "lacks" MAT2 and TEXT.
    assert run(make_corpus(files), "enum-drift") == []
    # Without the file it names, the name binds as before.
    files["docs/README.md"] = page.replace("*Defined in", "*See").replace(
        "slot.property.schema.json", "the property schema"
    )
    assert len(run(make_corpus(files), "enum-drift")) == 1


def test_a_page_in_a_proposals_folder_binds_only_explicitly(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/session.schema.json": _enum_schema(state=["open", "closed", "expired", "held"]),
        "rfcs/rfc.sessions.md": _PROPOSAL,
    }
    # Before: its header is a few bold lines, no RFC table, so it bound by the field name.
    assert run(make_corpus(files), "enum-drift") == []
    # The same page among the documentation binds, and is reported.
    root = make_corpus({"schemas/session.schema.json": files["schemas/session.schema.json"]})
    (root / "docs").mkdir()
    (root / "docs/sessions.md").write_text(_PROPOSAL, encoding="utf-8")
    assert len(run(root, "enum-drift")) == 1


def test_a_table_headed_as_a_selection_is_not_the_whole_vocabulary(
    make_corpus: MakeCorpus,
) -> None:
    total = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["subtotal", "tax", "total", "fee", "tip"]},
            "amount": {"type": "integer"},
        },
    }
    table = textwrap.dedent(
        """\
        # Orders

        **{lead} `Total.type` values:**

        | Type | Meaning |
        |------|---------|
        | `subtotal` | the items |
        | `tax` | the tax |
        | `total` | what was charged |
        """
    )
    files: dict[str, str | bytes] = {
        "schemas/checkout.schema.json": schema(**{"$defs": {"Total": total}}),
        "docs/orders.md": table.replace("{lead}", "Order-relevant"),
    }
    # Before: read as the field's whole set, an error for `fee` and `tip`.
    assert run(make_corpus(files), "enum-drift") == []
    files["docs/orders.md"] = table.replace("{lead}", "The")
    assert len(run(make_corpus(files), "enum-drift")) == 1


def test_an_operation_s_own_response_is_no_vocabulary_for_another_s(
    make_corpus: MakeCorpus,
) -> None:
    info = {
        "type": "object",
        "required": ["status", "code"],
        "properties": {"status": {"type": "integer"}, "code": {"type": "string"}},
    }
    generic = _error_body(["INVALID_ARGUMENT", "OUT_OF_RANGE"], "#/components/schemas/ErrorInfo")
    # The shared file every API copies: its generic 400, which each API's own 400 extends.
    common = {
        "info": {"title": "Common data types", "version": "wip"},
        "components": {
            "schemas": {"ErrorInfo": info},
            "responses": {
                "Generic400": {
                    "description": "Bad request",
                    "content": {"application/json": {"schema": generic}},
                }
            },
        },
    }
    own = _error_body(
        ["INVALID_ARGUMENT", "OUT_OF_RANGE", "SESSION.DURATION_OUT_OF_RANGE"],
        "../common/common.yaml#/components/schemas/ErrorInfo",
    )
    api = {
        "openapi": "3.0.3",
        "info": {"title": "Sessions", "version": "1.0"},
        "paths": {
            "/sessions": {
                "post": {"responses": {"400": {"$ref": "#/components/responses/Session400"}}}
            }
        },
        "components": {
            "responses": {
                "Session400": {
                    "description": "Bad request",
                    "content": {"application/json": {"schema": own}},
                }
            }
        },
    }
    files: dict[str, str | bytes] = {
        "common/common.yaml": _yaml(common),
        "api/sessions.yaml": _yaml(api),
    }
    # Before: the shared file's Generic400 told to add the API's own code.
    assert run(make_corpus(files), "enum-drift") == []


def test_a_drift_an_unreleased_copy_shares_is_not_only_in_released_copies(
    make_corpus: MakeCorpus,
) -> None:
    states = _enum_schema(state=["queued", "running", "done"])
    root = make_corpus(
        {
            "spec/1.0.0/job.schema.json": states,
            "spec/unreleased/job.schema.json": states,
            "docs/jobs.md": "# Jobs\n\nA job's `state` is one of `queued` | `running` | `paused` | `done`.\n",
        }
    )
    [finding] = lint(root, Options(cache=False, rules=("enum-drift",))).findings
    assert "spec/unreleased/job.schema.json" in {r.path for r in finding.related}
    # Before: "[only released copies have this, and they do not change]", at info.
    assert "only released copies" not in finding.message
    assert finding.severity is not Severity.INFO


def test_a_page_s_opening_names_its_schema_file_a_later_section_only_its_own(
    make_corpus: MakeCorpus,
) -> None:
    def page(where: str) -> str:
        opening = "This binding carries the `slot.property.schema.json` objects.\n\n"
        later = "The buffer is described in `slot.property.schema.json`.\n\n"
        return (
            "# Binding\n\n## Overview\n\n"
            + (opening if where == "opening" else "")
            + "## Kinds\n\nA slot's `kind` is one of `SCALAR` | `VEC2` | `MAT2` | `TEXT`.\n\n"
            + "## Buffers\n\n"
            + (later if where == "later" else "")
        )

    files: dict[str, str | bytes] = {
        "schemas/slot.property.schema.json": _enum_schema(kind=["SCALAR", "VEC2", "MAT2", "TEXT"]),
        "schemas/buffer.schema.json": _enum_schema(kind=["SCALAR", "VEC2"]),
        "docs/binding.md": page("opening"),
    }
    # Before: bound by the name `kind` to the buffer's enum too.
    assert run(make_corpus(files), "enum-drift") == []
    # A file another section names says nothing of this one's list.
    files["docs/binding.md"] = page("later")
    assert len(run(make_corpus(files), "enum-drift")) == 1


def test_a_list_item_that_leads_with_its_schema_binds_to_that_schema(
    make_corpus: MakeCorpus,
) -> None:
    def owner(*kinds: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"kind": {"type": "string", "enum": list(kinds)}, "id": {}},
        }

    page = (
        "# Models\n\n"
        "- **{owner}**: `kind` (`ship|pickup|courier`), `id` (what was chosen)\n"
        "- **Parcel**: `id`, `weight`\n"
    )
    files: dict[str, str | bytes] = {
        "schemas/orders.json": schema(
            **{
                "$defs": {
                    "Selection": owner("ship", "pickup", "courier"),
                    "Delivery": owner("ship", "pickup"),
                }
            }
        ),
        "docs/models.md": page.replace("{owner}", "Selection"),
    }
    # Before: bound by the name `kind` to `Delivery`'s enum too, which "lacks" `courier`.
    assert run(make_corpus(files), "enum-drift") == []
    # Naming `Delivery`, the item is that schema's, and it does lack `courier`: an error now.
    files["docs/models.md"] = page.replace("{owner}", "Delivery")
    [finding] = run(make_corpus(files), "enum-drift")
    assert "courier" in finding.message and finding.severity is Severity.ERROR


def test_a_list_of_another_formats_values_contrasted_with_ours_documents_no_enum(
    make_corpus: MakeCorpus,
) -> None:
    """A guide comparing another format lists that format's types, one of which "is not
    supported in" ours: the list documents the other format, not the enum."""
    page = _types_page(
        "Ledger sheets support four data types that overlap with [Field types](field.md):",
        "This type is not supported in Field types.",
    )
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert not [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


def test_a_value_said_unsupported_in_what_the_intro_names_is_no_drift(
    make_corpus: MakeCorpus,
) -> None:
    page = _types_page(
        "Ledger sheets have these data types, written as in Field types:",
        "This type is not supported in Field types.",
    )
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert not [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


def test_a_list_of_our_values_is_still_bound(make_corpus: MakeCorpus) -> None:
    page = _types_page("A field has one of these data types:", "It holds an object.")
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


def test_a_name_binds_to_the_schema_whose_values_agree_not_to_others_of_that_name(
    make_corpus: MakeCorpus,
) -> None:
    # The page lists the membership values of the member event; a deprecated endpoint of
    # another API document has an older `membership` enum. The name alone does not say the page
    # describes that endpoint, and one schema of the name agrees with the page.
    event = {"type": "object", "properties": {"membership": {"enum": MEMBERSHIP}}}
    legacy = {"type": "object", "properties": {"membership": {"enum": MEMBERSHIP[:2]}}}
    root = make_corpus(
        {
            "schemas/member-event.schema.json": schema(**event),
            "schemas/legacy-sync.schema.json": schema(**legacy),
            "spec/auth.md": "# Auth\n\nThe user's `membership` flips to `join` / `invite` / `knock`.\n",
        }
    )
    assert findings_of("enum-drift", root) == []
    # With no schema that agrees, the page's value is drift against both: one disagreement,
    # the two enums of the same values in one finding (issue 44).
    (root / "schemas/member-event.schema.json").write_text(schema(**legacy))
    [finding] = findings_of("enum-drift", root)
    assert "lacks `knock`" in finding.message
    assert finding.location.path == "schemas/legacy-sync.schema.json"
    assert [r.path for r in finding.related] == ["spec/auth.md", "schemas/member-event.schema.json"]


def test_an_enum_in_a_then_branch_is_not_the_fields_vocabulary(make_corpus: MakeCorpus) -> None:
    body = {
        "type": "object",
        "properties": {"requirement": {"type": "string"}, "kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "event"}}},
        "then": {"properties": {"requirement": {"enum": ["required", "recommended"]}}},
    }
    page = "# Fields\n\nThe `requirement` is one of `required` | `recommended` | `optional`.\n"
    root = make_corpus({"schemas/attribute.schema.json": schema(**body), "spec/fields.md": page})
    assert findings_of("enum-drift", root) == []


def test_a_table_of_a_few_values_by_name_alone_is_not_the_whole_vocabulary(
    make_corpus: MakeCorpus,
) -> None:
    methods = ["initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get"]
    body = {"type": "object", "properties": {"method": {"enum": methods}}}
    page = (
        "# Tools\n\nThe tool methods:\n\n| `method` | Purpose |\n|---|---|\n"
        "| `tools/list` | lists the tools |\n| `tools/call` | calls one |\n"
    )
    root = make_corpus({"schemas/request.schema.json": schema(**body), "spec/tools.md": page})
    assert findings_of("enum-drift", root) == []
    # A table of most of the values does say the rest are missing.
    most = page + "| `initialize` | starts |\n| `ping` | checks |\n| `prompts/list` | lists |\n"
    (root / "spec/tools.md").write_text(most)
    [finding] = findings_of("enum-drift", root)
    assert "`prompts/get`" in finding.message


def test_a_projection_needs_more_than_annotation_names(make_corpus: MakeCorpus) -> None:
    api = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Functions, version: 1.0.0}
        paths: {}
        components:
          schemas:
            argument:
              type: object
              properties:
                title: {type: string}
                description: {type: string}
                type: {type: string, enum: [string, number, datetime, geometry]}
        """
    )
    sortable = {
        "type": "object",
        "properties": {
            "title": {"type": "string"},
            "description": {"type": "string"},
            "type": {"enum": ["string", "number", "integer"]},
            "format": {"type": "string"},
        },
    }
    root = make_corpus(
        {"api/functions.yaml": api, "schemas/sortable.schema.json": schema(**sortable)}
    )
    assert findings_of("enum-drift", root) == []
