"""Issue 26, items 4 and 5: union tags bind as one set, interrupted lists continue, severity
follows the binding's evidence, and a finding's first line stays short."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import BUNDLED_CORPUS, run_rule, schema
from conftest import dedented as page
from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import Binder, all_prose_sets, prose_sets
from speclint.common.findings import Severity
from speclint.model.config import load_config
from speclint.model.corpus import parse_document
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# The rules whose findings rest on a binding between prose and schema, or between copies.
BINDING_RULES = (
    "enum-drift",
    "count-drift",
    "copy-drift",
    "undocumented-field",
    "message-enum-drift",
    "inline-copy",
)
FIRST_LINE = 200


# --- a union whose branches each fix the tag to one value ----------------------------------------


def _entry(tag: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {"name": {"type": "string"}, "kind": {"type": "string", "enum": [tag]}},
        "required": ["name", "kind"],
    }


LINEAGE = schema(
    title="Lineage",
    type="object",
    properties={"target": {"$ref": "#/$defs/Target"}},
    **{
        "$defs": {
            "Target": {"oneOf": [{"$ref": "#/$defs/TableTarget"}, {"$ref": "#/$defs/TaskTarget"}]},
            "TableTarget": _entry("TABLE"),
            "TaskTarget": _entry("TASK"),
        }
    },
)


@pytest.mark.parametrize(
    "sentence",
    [
        "The `kind` of a target is one of `TABLE` | `TASK`.",  # by the field name
        "In `schemas/lineage.schema.json` the `kind` is one of `TABLE` | `TASK`.",  # by the file
    ],
)
def test_a_union_of_one_value_branches_binds_as_one_set(
    make_corpus: MakeCorpus, sentence: str
) -> None:
    text = f"# Targets\n\n{sentence}\n"
    root = make_corpus({"schemas/lineage.schema.json": LINEAGE, "spec/targets.md": text})
    corpus = Context.load(root)
    [prose] = all_prose_sets(corpus)
    bindings = Binder(corpus).bindings(prose)
    # One binding, to the union: not one per branch, each "lacking" the other branch's tag.
    assert [b.target.pointer for b in bindings] == ["/$defs/Target"]
    assert set(bindings[0].values.values) == {"TABLE", "TASK"}
    assert run_rule(root, "enum-drift") == []


def test_a_value_no_branch_carries_is_drift_at_the_union(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Targets

        The `kind` of a target is one of `TABLE` | `TASK` | `MODEL`.
        """
    )
    root = make_corpus({"schemas/lineage.schema.json": LINEAGE, "spec/targets.md": text})
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `MODEL`" in finding.message
    assert "`kind`" in finding.message
    assert finding.location.pointer == "/$defs/Target/oneOf"
    assert finding.severity is Severity.WARNING  # bound by the field name alone


def test_variants_in_sibling_files_each_fixing_the_tag_are_not_bound_by_name(
    make_corpus: MakeCorpus,
) -> None:
    # No `oneOf` joins them: each variant's one-value enum is, like a `const`, its own tag.
    files: dict[str, str | bytes] = {
        f"schemas/links/{tag.lower()}.json": schema(**_entry(tag))
        for tag in ("BEGIN", "FINISH", "STEP")
    }
    files["spec/links.md"] = (
        "# Links\n\nThe `kind` of a link is one of `BEGIN` | `FINISH` | `STEP`.\n"
    )
    assert run_rule(make_corpus(files), "enum-drift") == []


def test_a_branch_named_explicitly_still_binds_to_that_branch(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Targets

        `TableTarget.kind` is one of `TABLE` | `VIEW`.
        """
    )
    root = make_corpus({"schemas/lineage.schema.json": LINEAGE, "spec/targets.md": text})
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `VIEW`" in finding.message and finding.severity is Severity.ERROR


# --- a list interrupted by a note or an example --------------------------------------------------

RESULT = schema(
    title="Result",
    type="object",
    properties={"level": {"type": "string", "enum": ["error", "warning", "note", "none"]}},
)


@pytest.mark.parametrize(
    "interruption",
    [
        "> **Note**: a tool may map its own levels onto these.",
        '> EXAMPLE: a result at this level:\n>\n> ```json\n> {"level": "warning"}\n> ```',
        '```json\n{"level": "warning"}\n```',
        "NOTE: a tool may map its own levels onto these.",
    ],
)
def test_a_list_interrupted_by_a_note_or_example_continues(
    make_corpus: MakeCorpus, interruption: str
) -> None:
    text = (
        "# Levels\n\nThe `level` of a result is one of:\n\n"
        "- `error`: a defect.\n- `warning`: maybe a defect.\n\n"
        f"{interruption}\n\n"
        "- `note`: worth knowing.\n- `none`: nothing to report.\n"
    )
    root = make_corpus({"schemas/result.schema.json": RESULT, "spec/levels.md": text})
    document = parse_document("spec/levels.md", text)
    lists = [s for s in prose_sets(document) if s.form == "list"]
    assert [s.values for s in lists] == [("error", "warning", "note", "none")]
    assert run_rule(root, "enum-drift") == []


def test_a_paragraph_between_two_lists_still_ends_the_first() -> None:
    text = (
        "# Levels\n\nThe `level` of a result is one of:\n\n"
        "- `error`: a defect.\n- `warning`: maybe a defect.\n\n"
        "Other tools use different words for the `rank`:\n\n"
        "- `high`: urgent.\n- `low`: later.\n"
    )
    document = parse_document("spec/levels.md", text)
    assert [s.values for s in prose_sets(document) if s.form == "list"] == [
        ("error", "warning"),
        ("high", "low"),
    ]


# --- severity follows the evidence ---------------------------------------------------------------

RUN = schema(
    title="RunSnapshot",
    type="object",
    properties={"status": {"type": "string", "enum": ["queued", "running", "done"]}},
)


def test_a_name_only_binding_gives_a_warning_a_reference_an_error(
    make_corpus: MakeCorpus,
) -> None:
    inferred = "# Runs\n\nThe `status` is one of `queued` | `running` | `done` | `paused`.\n"
    root = make_corpus({"schemas/run.schema.json": RUN, "spec/runs.md": inferred})
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `paused`" in finding.message
    assert finding.severity is Severity.WARNING
    named = inferred.replace("The `status`", "`RunSnapshot.status`")
    (root / "spec/runs.md").write_text(named)
    [finding] = run_rule(root, "enum-drift")
    assert finding.severity is Severity.ERROR


CAPABILITIES = schema(
    title="Capabilities",
    type="object",
    properties={
        "limits": {
            "type": "object",
            "properties": {"maxRuns": {"type": "integer"}},
            "additionalProperties": False,
        }
    },
    additionalProperties=False,
)


@pytest.mark.parametrize(
    ("span", "sentence", "severity"),
    [
        # The path names the schema: certain.
        ("Capabilities.limits.maxBodyBytes", "A host sets {span}.", Severity.ERROR),
        # The path is read relative to a schema the page links and the sentence names: inferred.
        ("limits.maxBodyBytes", "The capabilities document carries {span}.", Severity.WARNING),
    ],
)
def test_undocumented_field_severity_follows_how_the_path_binds(
    make_corpus: MakeCorpus, span: str, sentence: str, severity: Severity
) -> None:
    text = page(
        f"""
        # Limits

        See [the schema](../schemas/capabilities.schema.json).

        {sentence.format(span=f"`{span}`")}
        """
    )
    root = make_corpus({"schemas/capabilities.schema.json": CAPABILITIES, "spec/caps.md": text})
    [finding] = run_rule(root, "undocumented-field")
    assert finding.severity is severity


def test_copies_matched_by_name_are_a_warning(make_corpus: MakeCorpus) -> None:
    one = schema(
        **{
            "$defs": {
                "Edge": {
                    "type": "object",
                    "properties": {"op": {"enum": ["eq", "ne"]}, "value": {}},
                }
            }
        }
    )
    two = schema(
        **{
            "$defs": {
                "Edge": {
                    "type": "object",
                    "properties": {"op": {"enum": ["eq", "ne", "regex"]}, "value": {}},
                }
            }
        }
    )
    root = make_corpus({"schemas/a.schema.json": one, "schemas/b.schema.json": two})
    [finding] = run_rule(root, "copy-drift")
    assert finding.severity is Severity.WARNING


# --- the first line of a finding -----------------------------------------------------------------


def test_a_long_enum_drift_keeps_its_first_line_short(make_corpus: MakeCorpus) -> None:
    values = [f"state{n}" for n in range(3)]
    extra = [f"documented-only-value-number-{n}" for n in range(12)]
    status = schema(
        title="RunSnapshot",
        type="object",
        properties={"status": {"type": "string", "enum": values}},
    )
    pages = {
        f"spec/page{n}.md": (
            "# Runs\n\n`RunSnapshot.status` is one of "
            + " | ".join(f"`{v}`" for v in values + extra)
            + ".\n"
        )
        for n in range(6)
    }
    root = make_corpus({"schemas/run.schema.json": status, **pages})
    [finding] = run_rule(root, "enum-drift")
    first = finding.terminal_message.split("\n")[0]
    assert len(first) <= FIRST_LINE, first
    # What no longer fits the first line is on the related locations: every page, and each
    # value it documents.
    assert {r.path for r in finding.related} == set(pages)
    assert all(extra[-1] in (r.note or "") for r in finding.related)
    assert "RunSnapshot.status" in " ".join(r.note or "" for r in finding.related)


def test_a_long_copy_drift_keeps_its_first_line_short(make_corpus: MakeCorpus) -> None:
    names = [f"aVeryLongPropertyNameNumber{n}" for n in range(12)]
    one = {name: {"enum": ["first-long-value", "second-long-value"]} for name in names}
    # Three of twelve properties differ: mostly the same shape, three differences.
    two = {
        name: {"enum": ["first-long-value", "third-long-value" if n < 3 else "second-long-value"]}
        for n, name in enumerate(names)
    }
    files: dict[str, str | bytes] = {
        "schemas/a.schema.json": schema(
            **{"$defs": {"Envelope": {"type": "object", "properties": one}}}
        ),
        "schemas/b.schema.json": schema(
            **{"$defs": {"Envelope": {"type": "object", "properties": two}}}
        ),
    }
    [finding] = run_rule(make_corpus(files), "copy-drift")
    assert len(finding.terminal_message.split("\n")[0]) <= FIRST_LINE, finding.message
    assert any("aVeryLongPropertyNameNumber" in (r.note or "") for r in finding.related)


def _first_lines(root: Path) -> list[tuple[str, int, str]]:
    corpus = Context.load(root, load_config(root))
    long = []
    for rule in BINDING_RULES:
        for finding in all_rules()[rule].check(corpus, {}):
            first = finding.terminal_message.split("\n")[0]
            if len(first) > FIRST_LINE:
                long.append((rule, len(first), first))
    return long


def test_binding_rules_first_lines_are_short_on_the_bundled_corpus() -> None:
    root = BUNDLED_CORPUS
    assert _first_lines(root) == []


def test_binding_rules_first_lines_are_short_on_openwop(openwop: Path) -> None:
    assert _first_lines(openwop) == []
