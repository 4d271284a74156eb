"""Prose lists read as the text means them (issue 45, item 7): a lead-in that names a category
of the field's values, a list that continues after a nested sub-list, a number that counts
instances rather than the values of a field, one list against identical copies of one enum.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import dedented as page
from conftest import run_rule, schema
from speclint.analyses.prose.enumerations import prose_sets
from speclint.model.corpus import parse_document

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


TYPES = schema(
    title="Field",
    type="object",
    properties={
        "name": {"type": "string"},
        "type": {"enum": ["string", "number", "boolean", "object", "array"]},
    },
)


def test_a_lead_in_that_names_a_category_lists_part_of_the_values(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Data types

        The scalar data types are:

        - `string`
        - `number`
        - `boolean`
        """
    )
    [listed] = prose_sets(parse_document("spec/types.md", text))
    assert not listed.complete
    root = make_corpus({"schemas/field.schema.json": TYPES, "spec/types.md": text})
    assert run_rule(root, "enum-drift") == []
    # Without the qualifier the list is the whole of `type`'s values, and two are missing.
    whole = make_corpus(
        {
            "schemas/field.schema.json": TYPES,
            "spec/types.md": text.replace("The scalar data types are:", "The data types are:"),
        }
    )
    assert len(run_rule(whole, "enum-drift")) == 1


def test_a_list_continues_after_a_nested_sub_list(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Fields

        The `type` is one of:

        - `string`
        - `number`
        - `object`, with members of its own:
          - `properties`: the members
          - `required`: those that must appear
        - `boolean`
        - `array`
        """
    )
    sets = [p for p in prose_sets(parse_document("spec/types.md", text)) if p.field == "type"]
    assert [p.values for p in sets] == [("string", "number", "object", "boolean", "array")]
    root = make_corpus({"schemas/field.schema.json": TYPES, "spec/types.md": text})
    assert run_rule(root, "enum-drift") == []


def test_a_number_of_instances_is_not_a_count_of_the_fields_values(
    make_corpus: MakeCorpus,
) -> None:
    text = page(
        """
        # Subscriptions

        A subscription that carries two `channel` values is rejected.

        The `channel` is one of `alerts`, `audit` or `billing`.
        """
    )
    root = make_corpus({"spec/subscriptions.md": text})
    assert run_rule(root, "count-drift") == []
    # A claim about the field's values still counts them.
    claimed = text.replace(
        "A subscription that carries two `channel` values is rejected.",
        "Subscriptions use the two `channel` values below.",
    )
    [finding] = run_rule(make_corpus({"spec/subscriptions.md": claimed}), "count-drift")
    assert "claims 2" in finding.message


def test_a_pair_of_values_being_compared_is_not_a_count(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Channels

        The comparison algorithm of two `channel` values may need more than a string compare.
        Clients compare two `channel` values by their bytes, and reject any two `channel` values
        that differ only in case; nothing is ordered between two `channel` values.

        The `channel` is one of `alerts`, `audit` or `billing`.
        """
    )
    assert run_rule(make_corpus({"spec/channels.md": text}), "count-drift") == []


def test_a_count_of_something_else_s_variants_is_not_the_fields(make_corpus: MakeCorpus) -> None:
    text = page(
        """
        # Addresses

        A resource is named by one of 6 variants of URI, described in the addressing page.

        ## Variants

        The `variant` is one of:

        - `plain`
        - `signed`
        """
    )
    assert run_rule(make_corpus({"spec/addresses.md": text}), "count-drift") == []
    # The same count of the listed variants is checked.
    counted = text.replace("one of 6 variants of URI", "one of the 6 variants")
    [finding] = run_rule(make_corpus({"spec/addresses.md": counted}), "count-drift")
    assert "claims 6 variants" in finding.message


def test_one_list_against_identical_copies_of_one_enum_is_one_finding(
    make_corpus: MakeCorpus,
) -> None:
    values = ["queued", "running", "done"]

    def status(enum: list[str]) -> str:
        return schema(type="object", properties={"status": {"type": "string", "enum": enum}})

    api = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: '1'}\npaths: {}\ncomponents:\n"
        f"  schemas:\n    Run: {{type: object, properties: {{status: {{enum: {values}}}}}}}\n"
    )
    root = make_corpus(
        {
            "schemas/run.schema.json": status(values),
            # the same values in another order, and the API document's own copy
            "schemas/job.schema.json": status(list(reversed(values))),
            "api/openapi.yaml": api,
            "spec/runs.md": "# Runs\n\nThe `status` is one of `queued`, `running`, `done` or "
            "`paused`.\n",
        }
    )
    [finding] = run_rule(root, "enum-drift")
    assert "lacks `paused`" in finding.message and "3 enums" in finding.message
    places = {finding.location.path, *(r.path for r in finding.related)}
    assert {"schemas/run.schema.json", "schemas/job.schema.json", "api/openapi.yaml"} <= places
