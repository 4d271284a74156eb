"""Issue 48, item 2: one finding per drift, with both sides as its places, and a table per drift
(each value by side, each property by copy) that every report renders."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from test_grouped_comparisons import gate, pull_request
from test_reporters import make_report, render

from conftest import run_rule, schema
from speclint.common.findings import Finding, Location, Severity, Table
from speclint.common.storage import dumps, loads

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SNAPSHOT = schema(
    title="RunSnapshot",
    type="object",
    properties={"status": {"enum": ["queued", "running", "suspended", "done"]}},
)
# The schema renamed `paused` to `suspended`; the page still says `paused`.
RENAMED = "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `paused` | `done`.\n"
SHORT = "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n"


def corpus(make_corpus: MakeCorpus, page: str) -> Path:
    return make_corpus({"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": page})


# --- enum-drift: one finding per drift ----------------------------------------------------------


def test_an_enum_drift_is_one_finding_with_the_prose_place_related(
    make_corpus: MakeCorpus,
) -> None:
    [finding] = run_rule(corpus(make_corpus, RENAMED), "enum-drift")
    # at the enum, where a value the prose documents is added (the docstring says so)
    assert (finding.location.path, finding.location.pointer) == (
        "schemas/run-snapshot.schema.json",
        "/properties/status/enum",
    )
    assert "lacks `paused`" in finding.message
    assert "allows `suspended`, which the prose leaves out (1 list)" in finding.message
    [prose] = finding.related
    assert (prose.path, prose.line) == ("spec/runs.md", 3)
    assert "documents `paused`" in (prose.note or "")
    assert "leaving out `suspended`" in (prose.note or "")


def test_a_merged_enum_drift_keeps_the_enum_finding_s_fingerprint_and_each_side_as_a_member(
    make_corpus: MakeCorpus,
) -> None:
    [merged] = run_rule(corpus(make_corpus, RENAMED), "enum-drift")
    # The page alone (no value the schema lacks) gives the finding at the prose it was before.
    [at_prose] = run_rule(corpus(make_corpus, SHORT), "enum-drift")
    assert at_prose.location.path == "spec/runs.md"
    assert merged.key == "schema:/properties/status"
    # Each side is a place (a member) with the key it has alone: a waiver, a baseline and the
    # gate compare the merged finding place by place with the two findings it was.
    assert [(m.location.path, m.key) for m in merged.members] == [
        ("schemas/run-snapshot.schema.json", "schema:/properties/status"),
        ("spec/runs.md", at_prose.key),
    ]
    assert merged.at(merged.members[1]).fingerprint == at_prose.fingerprint


def test_a_list_that_only_leaves_values_out_is_still_reported_at_the_prose(
    make_corpus: MakeCorpus,
) -> None:
    [finding] = run_rule(corpus(make_corpus, SHORT), "enum-drift")
    assert (finding.location.path, finding.location.line) == ("spec/runs.md", 3)
    assert finding.members == ()
    assert finding.table == Table(
        ("value", "schemas/run-snapshot.schema.json#/properties/status", "spec/runs.md:3"),
        (("suspended", "present", "missing"),),
    )


def test_the_gate_reports_a_rename_at_the_enum_as_new_when_the_prose_side_was_there_before(
    tmp_path: Path,
) -> None:
    before = {"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": SHORT}
    after = {"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": RENAMED}
    outcome = gate(pull_request(tmp_path, before, after))
    assert outcome.gate is not None
    assert outcome.gate.fixed == ()  # the list's old drift is a place of the new one, not fixed
    [new] = outcome.findings
    assert new.location.path == "schemas/run-snapshot.schema.json"


# --- tables -------------------------------------------------------------------------------------


def test_the_enum_drift_table_lists_each_value_by_side(make_corpus: MakeCorpus) -> None:
    more = "# More\n\n`RunSnapshot.status` is one of `queued` | `running` | `paused` | `done` | `lost`.\n"
    root = make_corpus(
        {"schemas/run-snapshot.schema.json": SNAPSHOT, "spec/runs.md": RENAMED, "spec/v2.md": more}
    )
    [finding] = run_rule(root, "enum-drift")
    assert finding.table == Table(
        (
            "value",
            "schemas/run-snapshot.schema.json#/properties/status",
            "spec/runs.md:3",
            "spec/v2.md:3",
        ),
        (
            ("paused", "missing", "present", "present"),
            ("lost", "missing", "missing", "present"),
            ("suspended", "present", "missing", "missing"),
        ),
    )
    # both lists leave `suspended` out: each is a member, with the key it has alone
    assert [m.location.path for m in finding.members] == [
        "schemas/run-snapshot.schema.json",
        "spec/runs.md",
        "spec/v2.md",
    ]


def test_the_copy_drift_table_lists_each_property_by_copy(make_corpus: MakeCorpus) -> None:
    narrow = {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "id": {}}}
    wide = {
        "type": "object",
        "required": ["id"],
        "properties": {"kind": {"enum": ["a", "b", "c"]}, "id": {}, "note": {}},
    }
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(**{"$defs": {"Edge": narrow}}),
            "schemas/b.schema.json": schema(**{"$defs": {"Edge": wide}}),
        }
    )
    [finding] = run_rule(root, "copy-drift")
    table = finding.table
    assert table is not None
    assert table.headers[0] == "property"
    assert set(table.headers[1:]) == {
        "schemas/a.schema.json#/$defs/Edge",
        "schemas/b.schema.json#/$defs/Edge",
    }
    rows = {row[0]: row[1:] for row in table.rows}
    a_first = table.headers[1].startswith("schemas/a")
    by_side = {name: cells if a_first else cells[::-1] for name, cells in rows.items()}
    assert by_side == {
        "id": ("optional", "required"),
        "kind": ('optional; enum: ["a", "b"]', 'optional; enum: ["a", "b", "c"]'),
        "note": ("absent", "optional"),
    }


def test_a_prose_field_list_is_a_column_that_says_only_what_it_requires(
    make_corpus: MakeCorpus,
) -> None:
    chunk = {"type": "object", "required": ["id"], "properties": {"id": {}, "seq": {}}}
    prose = textwrap.dedent(
        """\
        # S

        See [chunks](../schemas/p.schema.json#/$defs/chunk). The minimum compliant payload is `{id, more}`.
        """
    )
    root = make_corpus(
        {"schemas/p.schema.json": schema(**{"$defs": {"chunk": chunk}}), "spec/s.md": prose}
    )
    [finding] = run_rule(root, "copy-drift")
    assert finding.table == Table(
        ("property", "schemas/p.schema.json#/$defs/chunk", "spec/s.md:3"),
        (("more", "absent", "required"),),  # `seq`, not listed, disagrees with nothing
    )


# --- the table in every report ------------------------------------------------------------------

TABLE = Table(
    ("value", "schemas/a.json#/properties/x", "docs/guide.md:6"), (("c|d", "missing", "present"),)
)
DRIFT = Finding(
    "enum-drift",
    Severity.WARNING,
    "`x` lacks `c|d`, which the prose documents (1 place)",
    Location("schemas/a.json", 6, 7, pointer="/properties/x/enum"),
    related=(Location("docs/guide.md", 6, 1, heading="payload", note="documents `c|d`"),),
    table=TABLE,
)


def test_a_table_is_evidence_not_identity() -> None:
    assert replace(DRIFT, table=None).fingerprint == DRIFT.fingerprint
    assert replace(DRIFT, table=None) == DRIFT


def test_the_text_report_shows_the_table_as_indented_rows() -> None:
    text = render("text", make_report([DRIFT]))
    assert (
        "    value  schemas/a.json#/properties/x  docs/guide.md:6\n"
        "    c|d    missing                       present\n"
    ) in text


def test_the_markdown_report_shows_the_table_as_a_gfm_table() -> None:
    text = render("markdown", make_report([DRIFT]))
    assert (
        "| value | `schemas/a.json#/properties/x` | `docs/guide.md:6` |\n"
        "| --- | --- | --- |\n"
        "| `c\\|d` | missing | present |\n"
    ) in text


def test_sarif_and_json_carry_the_table_as_data() -> None:
    data = {"headers": list(TABLE.headers), "rows": [list(TABLE.rows[0])]}
    [result] = json.loads(render("sarif", make_report([DRIFT])))["runs"][0]["results"]
    assert result["properties"]["table"] == data
    [finding] = json.loads(render("json", make_report([DRIFT])))["findings"]
    assert finding["table"] == data
    [plain] = json.loads(render("json", make_report([replace(DRIFT, table=None)])))["findings"]
    assert plain["table"] is None


def test_a_finding_s_table_survives_the_cache() -> None:
    assert loads(dumps(DRIFT)).table == TABLE
