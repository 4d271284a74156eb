"""Issue 48, item 4: an enum drift whose prose side is a table or a list is related at the row (the
item) of the value in question, and its table says on which line each place lists a value, so that
the excerpt centres on the row, not on the table's first line. Identity (keys, fingerprints,
members) stays at the list's first line."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule, schema
from speclint.analyses.prose.enumerations import ProseSet, prose_sets
from speclint.common.findings import Finding, Location, Member, Severity, related_spot
from speclint.model.corpus import parse_document
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

RUN = schema(
    title="Run",
    type="object",
    properties={"status": {"enum": ["queued", "running", "suspended", "done"]}},
)

# Line 5 is the header; `paused` (which the schema lacks) is on line 9, `lost` on line 11.
TABLE = textwrap.dedent(
    """\
    # Runs

    The `status` of a run:

    | `status` | Meaning |
    | --- | --- |
    | `queued` | waiting |
    | `running` | working |
    | `paused` | held |
    | `done` | finished |
    | `lost` | gone |
    """
)

# The list starts on line 5; `paused` is on line 9.
LIST = textwrap.dedent(
    """\
    # Runs

    The `status` of a run is one of:

    - `queued`: waiting
    - `running`: working

      Runs leave this state when their worker stops.
    - `paused`: held
    - `done`: finished
    """
)

UNION = "# Runs\n\n`Run.status` is one of `queued` | `running` | `paused` | `done`.\n"


def drift(make_corpus: MakeCorpus, page: str) -> Finding:
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": page})
    [finding] = run_rule(root, "enum-drift")
    return finding


def page_sets(text: str) -> list[ProseSet]:
    return prose_sets(parse_document("spec/runs.md", text))


# --- what the prose records ---------------------------------------------------------------------


def test_a_table_column_records_each_value_s_row() -> None:
    [column] = [s for s in page_sets(TABLE) if s.form == "table"]
    assert column.line == 5  # the set is where it was: its first line (its key says so)
    assert dict(zip(column.values, column.value_lines, strict=True)) == {
        "queued": 7,
        "running": 8,
        "paused": 9,
        "done": 10,
        "lost": 11,
    }
    assert column.line_of("lost") == 11


def test_a_list_records_each_item_s_line_across_a_paragraph_inside_an_item() -> None:
    [listed] = [s for s in page_sets(LIST) if s.form == "list"]
    assert listed.line == 5
    assert listed.value_lines == (5, 6, 9, 10)


def test_a_union_on_one_line_records_no_lines_and_every_value_is_at_the_set_s_line() -> None:
    [union] = page_sets(UNION)
    assert union.value_lines == ()
    assert union.line_of("paused") == union.line == 3


def test_a_copy_given_other_values_answers_with_the_set_s_line() -> None:
    [column] = [s for s in page_sets(TABLE) if s.form == "table"]
    fewer = ProseSet(
        column.path,
        column.line,
        ("queued", "done"),
        column.form,
        column.heading,
        column.field,
        column.context,
        column.complete,
        value_lines=column.value_lines,
    )
    assert fewer.line_of("done") == 5


# --- enum-drift ---------------------------------------------------------------------------------


def test_a_table_s_side_is_related_at_the_rows_of_the_values_the_enum_lacks(
    make_corpus: MakeCorpus,
) -> None:
    finding = drift(make_corpus, TABLE)
    [prose] = finding.related
    # `paused` (line 9) through `lost` (line 11): the excerpt marks those rows under the header
    assert (prose.path, prose.line, prose.end_line) == ("spec/runs.md", 9, 11)
    assert finding.table is not None
    rows = {row[0]: row[1:] for row in finding.table.rows}
    assert finding.table.headers[2] == "spec/runs.md:5"  # the column is the table's
    assert rows == {
        "paused": ("missing", "present (line 9)"),
        "lost": ("missing", "present (line 11)"),
        "suspended": ("present", "missing"),
    }


def test_a_list_s_side_is_related_at_the_item_of_the_value_the_enum_lacks(
    make_corpus: MakeCorpus,
) -> None:
    [prose] = drift(make_corpus, LIST).related
    assert (prose.line, prose.end_line) == (9, None)


def test_a_union_s_side_stays_at_its_line_and_its_cells_say_only_present(
    make_corpus: MakeCorpus,
) -> None:
    finding = drift(make_corpus, UNION)
    [prose] = finding.related
    assert (prose.line, prose.end_line) == (3, None)
    assert finding.table is not None
    assert ("paused", "missing", "present") in finding.table.rows


def test_the_drift_s_identity_stays_at_the_table_s_first_line(make_corpus: MakeCorpus) -> None:
    finding = drift(make_corpus, TABLE)
    assert finding.key == "schema:/properties/status"
    # the prose side as a member: where it is reported alone, with the key it has there
    [_, prose] = finding.members
    assert prose.location.line == 5
    assert prose.key == "prose:5:schemas/run.schema.json/properties/status"
    alone = finding.at(prose)
    assert alone.location.line == 5
    # the place the finding was at takes the related row's spot: not the list related to itself
    assert [(r.path, r.pointer) for r in alone.related] == [
        ("schemas/run.schema.json", "/properties/status/enum")
    ]


def test_a_waiver_at_the_enum_leaves_the_drift_at_the_table_with_the_enum_marked_waived(
    make_corpus: MakeCorpus,
) -> None:
    waived = schema(
        title="Run",
        type="object",
        properties={
            "status": {
                "enum": ["queued", "running", "suspended", "done"],
                "x-speclint-ignore": ["enum-drift"],
                "x-speclint-reason": "the v2 statuses are documented ahead of the schema",
            }
        },
    )
    root = make_corpus({"schemas/run.schema.json": waived, "spec/runs.md": TABLE})
    result = lint(root, Options(cache=False)).result
    [left] = [f for f in result.findings if f.rule == "enum-drift"]
    assert (left.location.path, left.location.line) == ("spec/runs.md", 5)
    [enum] = left.related
    assert enum.path == "schemas/run.schema.json"
    assert (enum.note or "").endswith("waived here")


# --- Finding.at: where a member is among the related locations ----------------------------------

ENUM = Location("schemas/a.json", 4, 7, pointer="/properties/x/enum")


def place(line: int, heading: str = "#runs") -> Location:
    return Location("spec/runs.md", line, 1, pointer=heading)


def test_a_member_is_found_at_a_line_of_it_below_its_own() -> None:
    related = (place(9), Location("spec/other.md", 3, 1))
    assert related_spot(related, place(5), {ENUM, place(5)}) == 0
    # nearest first: the second list of a section is the row below it, not the first list's
    assert related_spot((place(7), place(14)), place(12), {place(5), place(12)}) == 1


def test_another_member_below_a_member_is_not_taken_for_it() -> None:
    # a link group's member past the cap: the member related below it is another place
    members = {place(5), place(20)}
    assert related_spot((place(20),), place(5), members) is None
    grouped = Finding(
        "broken-link",
        Severity.ERROR,
        "links to a missing file",
        place(20),
        related=(place(30),),
        members=(Member(place(20), "a"), Member(place(30), "b"), Member(place(5), "c")),
    )
    moved = grouped.at(grouped.members[2])
    assert moved.related == (place(20), place(30))


def test_a_place_in_another_section_or_above_is_not_the_member() -> None:
    assert related_spot((place(9, "#other"),), place(5), {place(5)}) is None
    assert related_spot((place(3),), place(5), {place(5)}) is None
