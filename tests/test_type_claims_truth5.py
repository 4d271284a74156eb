"""type-claim-drift, the classes a first read of three more repositories missed (issue 46, item
8): requiredness said with emphasised keywords, null said of a field a heading names or of a
dotted path led by an object's name, and null said where OpenAPI 3.1 no longer reads
``nullable``. Fixtures are our own, in styles other specs write."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

LOAN = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Loan",
    "type": "object",
    "properties": {
        "borrower": {"type": "string"},
        "amount": {"type": "number"},
        "due": {"type": "string"},
    },
    "required": ["amount"],
}


def lines(root: Path, word: str) -> list[tuple[str, int]]:
    return sorted(
        (f.location.path, f.location.line)
        for f in run_rule(root, "type-claim-drift")
        if word in f.message
    )


# --- requiredness said with emphasised keywords ----------------------------------------------------


def test_required_said_with_bold_or_starred_keyword(make_corpus: MakeCorpus) -> None:
    page = (
        "# Loans\n\n"
        "A Loan ***MUST*** contain a `borrower` property.\n\n"  # line 3: not required
        "* The object **MUST** contain an `amount` property.\n"  # line 5: required, fine
    )
    root = make_corpus({"loan.schema.json": json.dumps(LOAN), "docs/loans.md": page})
    assert lines(root, "is required") == [("docs/loans.md", 3)]


def test_required_said_with_emphasis_in_a_list_of_rules(make_corpus: MakeCorpus) -> None:
    page = (
        "# Loan rules\n\n"
        "- The object __MUST__ include the `due` property; its value is a date.\n"  # line 3
        "- The object __MAY__ include the `borrower` property.\n\n"
        "When a loan is refinanced, the following rules apply:\n\n"
        "- The request **MUST** include a `borrower` property.\n"  # a condition's rule
    )
    root = make_corpus({"loan.schema.json": json.dumps(LOAN), "docs/rules.md": page})
    assert lines(root, "is required") == [("docs/rules.md", 3)]


# --- null said of the field a heading names, or of `Object.field` ---------------------------------

PARCEL_API = {
    "openapi": "3.1.0",
    "info": {"title": "Parcels", "version": "2"},
    "paths": {},
    "components": {
        "schemas": {
            "Parcel": {
                "type": "object",
                "properties": {
                    "weight": {"type": "number"},
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "note": {"type": ["string", "null"]},
                },
            },
            "Depot": {
                "type": "object",
                "properties": {
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "hours": {"type": "string", "nullable": True},
                },
            },
        }
    },
}


def test_null_said_under_a_heading_naming_the_field(make_corpus: MakeCorpus) -> None:
    page = (
        "# Parcel rules\n\n"
        "## Parcel.labels\n\n"
        "- May be null, or left out.\n"  # line 5: arrays only
        "- Must not be empty.\n\n"
        "### `weight`\n\n"
        "Can be `null` while the parcel is unweighed.\n\n"  # line 10: number only
        "## Parcel.note\n\n"
        "- MAY be null.\n"  # line 14: null allowed, fine
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/rules.md": page})
    assert lines(root, "may be null") == [("docs/rules.md", 5), ("docs/rules.md", 10)]


def test_null_said_of_a_dotted_path_led_by_the_object_name(make_corpus: MakeCorpus) -> None:
    page = (
        "# Depots\n\n"
        "A depot is closed when Depot.labels is null or missing.\n\n"  # line 3
        "Parcel.note is null until a clerk writes one.\n"  # line 5: allowed
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/depots.md": page})
    assert lines(root, "may be null") == [("docs/depots.md", 3)]


def test_nullable_is_no_keyword_in_openapi_31(make_corpus: MakeCorpus) -> None:
    page = "# Depots\n\nThe `hours` field may be null on holidays.\n"
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/depots.md": page})
    assert lines(root, "may be null") == [("docs/depots.md", 3)]
    older = json.loads(json.dumps(PARCEL_API))
    older["openapi"] = "3.0.3"
    older["components"]["schemas"]["Parcel"]["properties"]["note"] = {"type": "string"}
    root = make_corpus({"openapi.json": json.dumps(older), "docs/depots.md": page})
    assert lines(root, "may be null") == []


# --- a member the prose names that no schema declares, but its plural (or singular) is --------------

CRATE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Crate",
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "owner_urls": {"type": "array", "items": {"type": "string"}},
        "label": {"type": "string"},
    },
}


def test_member_named_in_a_near_miss_spelling(make_corpus: MakeCorpus) -> None:
    page = (
        "# Crates\n\n"
        "Sort the crate by the `tag` field before shipping.\n\n"  # line 3
        "The *owner_url* attribute says who owns it.\n\n"  # line 5
        "**Attribute**: labels\n\n"  # line 7
        "The `label` field is free text, and the `weight` property is not ours.\n"  # fine
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/crates.md": page})
    assert lines(root, "no schema declares") == [
        ("docs/crates.md", 3),
        ("docs/crates.md", 5),
        ("docs/crates.md", 7),
    ]


def test_member_word_in_a_compound_names_no_member(make_corpus: MakeCorpus) -> None:
    page = (
        "# Crates\n\nThe tag field names are free; the `tag` key values are sorted.\n\n"
        "The tag key orders the crates.\n\n"  # English: a key that tags
        "Make the tag field optional where no tags are known.\n"  # English: a field of tags
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/crates.md": page})
    assert lines(root, "no schema declares") == []


# --- a type between dashes after the field: "- **nodes** - array - the nodes" -------------------

TRIP = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Trip",
    "type": "object",
    "properties": {
        "stops": {"type": "object", "additionalProperties": {"type": "string"}},
        "driver": {"type": "string"},
        "seats": {"type": "integer"},
    },
}


def test_type_between_dashes_after_the_field(make_corpus: MakeCorpus) -> None:
    page = (
        "# Trips\n\n"
        "## Trip\n\n"
        "- **stops** - array - the stops, in order\n"  # line 5: an object (a map)
        "- **driver** - string - who drives\n"
        "* `seats` \u2013 boolean \u2013 whether seats are booked\n"  # line 7
        "- **driver** - the person - not a type\n"
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/trips.md": page})
    assert lines(root, "is documented as") == [("docs/trips.md", 5), ("docs/trips.md", 7)]


# --- a union of types said of one member, each alternative held to the schema --------------------


def test_union_said_of_a_member(make_corpus: MakeCorpus) -> None:
    page = (
        "# Trips\n\n"
        "A trip MAY contain a `stops` property, and its value **MUST** be an object or a URI string.\n\n"
        "The `seats` value is an integer or a float.\n\n"  # line 5: integer only
        "The `driver` field may be a string or null.\n\n"  # not a type union we judge
        "The `stops` member is a map or an object.\n"  # both objects: fine
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/trips.md": page})
    assert lines(root, "is either") == [("docs/trips.md", 3), ("docs/trips.md", 5)]


def test_heading_naming_a_class_binds_its_list(make_corpus: MakeCorpus) -> None:
    page = (
        "# Reference\n\n"
        "## Top level (Trip class)\n\n"
        "- **seats** - string - how many seats\n"  # line 5
        "- **driver** - string - who drives\n"
        "- **legs** - integer - not declared, not judged\n"
        "- **cargo** - boolean - not declared either\n"
    )
    root = make_corpus({"trip.schema.json": json.dumps(TRIP), "docs/ref.md": page})
    assert lines(root, "is documented as") == [("docs/ref.md", 5)]


def test_copies_of_one_definition_are_one_object(make_corpus: MakeCorpus) -> None:
    """The same object written out in two schemas, and a published copy of an API document
    under docs/: one candidate, not two that the sentence cannot choose between."""
    page = "# Seating\n\nThe `seats` value is an integer or a float.\n"
    api = json.loads(json.dumps(PARCEL_API))
    root = make_corpus(
        {
            "trip.schema.json": json.dumps(TRIP),
            "schemas/journey.json": json.dumps(TRIP),
            "docs/trips.md": page,
        }
    )
    assert lines(root, "is either") == [("docs/trips.md", 3)]
    rules = "# Rules\n\n## Parcel.weight\n\n- May be null.\n"
    root = make_corpus(
        {"openapi.json": json.dumps(api), "docs/openapi.json": json.dumps(api), "docs/r.md": rules}
    )
    assert lines(root, "may be null") == [("docs/r.md", 5)]


# --- `Object.member` where the object the first segment names declares no such member -------------


def test_dotted_member_the_named_object_lacks(make_corpus: MakeCorpus) -> None:
    page = (
        "# Depot rules\n\n"
        "1. A depot with an empty Depot.opening_hours MUST be skipped.\n"  # line 3: `hours`
        "2. Sort by `Parcel.weight`, then by Parcel.label.\n"  # line 4: `labels` (one line)
        "3. Depot.hours and Parcel.note are fine; see openapi.json and Parcel.Weight.\n"
    )
    root = make_corpus({"openapi.json": json.dumps(PARCEL_API), "docs/rules.md": page})
    assert lines(root, "declares no") == [("docs/rules.md", 3), ("docs/rules.md", 4)]


def test_dotted_member_in_a_migration_guide_or_an_older_copy(make_corpus: MakeCorpus) -> None:
    older = json.loads(json.dumps(PARCEL_API))
    older["components"]["schemas"]["Depot"]["properties"]["opening_hours"] = {"type": "string"}
    page = (
        "# Depot rules\n\nA depot with an empty Depot.opening_hours MUST be skipped.\n\n"
        "- `Depot.closing_hours` of older versions is obsolete.\n"
    )
    guide = "# Moving to v2\n\nDepot.opening_hours is now `hours`.\n"
    root = make_corpus(
        {
            "openapi.json": json.dumps(PARCEL_API),
            "docs/openapi.json": json.dumps(older),  # a stale published copy
            "docs/rules.md": page,
            "docs/migration-guide.md": guide,
        }
    )
    assert lines(root, "declares no") == [("docs/rules.md", 3)]


def test_near_miss_of_a_member_many_objects_have(make_corpus: MakeCorpus) -> None:
    """`messages` where four objects declare `message`: the text may mean a request's field of
    another API, not a misspelling of theirs."""
    page = "# Errors\n\nA missing `messages` field is rejected.\n"
    files: dict[str, str | bytes] = {"docs/errors.md": page}
    for i in range(4):
        schema = {"title": f"S{i}", "type": "object", "properties": {"message": {"type": "string"}}}
        files[f"s{i}.schema.json"] = json.dumps(schema)
        root = make_corpus(files)
        found = lines(root, "no schema declares")
        assert found == ([("docs/errors.md", 3)] if i < 3 else []), i


def test_near_miss_that_is_a_key_of_the_repositorys_data_files(make_corpus: MakeCorpus) -> None:
    """A rule file's `value` key: the text speaks of that file's format (no schema here
    describes it), not of the schema's `values`."""
    schema = {"title": "Range", "type": "object", "properties": {"values": {"type": "array"}}}
    page = "# Writing rules\n\nSet the `value` field of each rule to the expected level.\n"
    files: dict[str, str | bytes] = {"range.schema.json": json.dumps(schema), "docs/rules.md": page}
    assert lines(make_corpus(files), "no schema declares") == [("docs/rules.md", 3)]
    files["rules/levels.yaml"] = "checks:\n  - name: level\n    value: 3\n"
    assert lines(make_corpus(files), "no schema declares") == []


@pytest.mark.xfail(
    strict=True,
    reason="ecosystem false positive (ChainAgnostic/CAIPs caip-222.md:96, labelled false): a "
    "parameter the page defines itself is read as a near miss of another schema's member",
)
def test_a_near_miss_the_page_defines_as_its_own_parameter_is_no_drift(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Ship call\n\n"
        "## Parameters\n\n"
        "- `tag`: the one tag this call ships under.\n\n"
        "Give the `tag` field on every call.\n"  # the page's own parameter, not Crate's `tags`
    )
    root = make_corpus({"crate.schema.json": json.dumps(CRATE), "docs/ship.md": page})
    assert lines(root, "no schema declares") == []
