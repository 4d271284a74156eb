"""Schemas of every dialect are read by their own keywords (issue 14, item 3; issue 14, item 4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_rule
from speclint.analyses.changes.compat import schema_changes
from speclint.analyses.context import Context
from speclint.analyses.schemas.fingerprints import shape_of
from speclint.analyses.schemas.shapes import Site
from speclint.model.config import load_config
from speclint.parsing.dialects import dialect_at, modern
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
DRAFT_04 = "http://json-schema.org/draft-04/schema#"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize(
    ("dialect", "written", "read"),
    [
        # draft-04 §5.1.3: a boolean beside its bound makes the bound exclusive
        ("draft-04", {"minimum": 0, "exclusiveMinimum": True}, {"exclusiveMinimum": 0}),
        ("draft-04", {"maximum": 9, "exclusiveMaximum": False}, {"maximum": 9}),
        ("OpenAPI 3.0", {"minimum": 1, "exclusiveMinimum": True}, {"exclusiveMinimum": 1}),
        # draft-07 §9.3.1.1 array `items` is a tuple; 2020-12 §10.3.1.1 spells it `prefixItems`
        (
            "draft-07",
            {"items": [{"type": "string"}], "additionalItems": False},
            {"prefixItems": [{"type": "string"}], "items": False},
        ),
        ("draft-07", {"items": {"type": "string"}, "additionalItems": False}, {"items": {"type": "string"}}),
        (
            "draft-06",
            {"dependencies": {"a": ["b"], "c": {"required": ["d"]}}},
            {"dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}}},
        ),
        # OpenAPI 3.0.3 §4.7.24.1: `nullable` adds null to the type; 3.1 has no such keyword
        ("OpenAPI 3.0", {"type": "string", "nullable": True}, {"type": ["string", "null"]}),
        ("OpenAPI 3.0", {"type": "string", "nullable": False}, {"type": "string"}),
        ("OpenAPI 3.1", {"type": "string", "nullable": True}, {"type": "string", "nullable": True}),
        # draft-07 §8.3: other keywords beside `$ref` are ignored; 2019-09 on, they apply
        ("draft-07", {"$ref": "#/definitions/a", "type": "object"}, {"$ref": "#/definitions/a"}),
        ("OpenAPI 3.0", {"$ref": "#/c", "description": "d"}, {"$ref": "#/c"}),
        ("2020-12", {"$ref": "#/$defs/a", "type": "object"}, {"$ref": "#/$defs/a", "type": "object"}),
    ],
)  # fmt: skip
def test_a_schema_object_is_read_in_2020_12_terms(
    dialect: str, written: dict[str, Any], read: dict[str, Any]
) -> None:
    reading = modern(written, dialect)
    assert reading is not None
    assert reading.node == read
    assert modern(written, dialect) is not None and written == dict(written)  # not mutated


def test_a_translated_keyword_remembers_its_spelling() -> None:
    reading = modern({"minimum": 0, "exclusiveMinimum": True, "items": [{}]}, "draft-04")
    assert reading is not None
    assert reading.source("exclusiveMinimum") == "minimum"  # the number is written there
    assert reading.source("prefixItems") == "items"
    assert reading.source("type") == "type"


def test_the_dialect_in_force_is_the_nearest_schema_keyword_above() -> None:
    data = {
        "$schema": DRAFT_07,
        "definitions": {"meta": {"$schema": DRAFT_04, "properties": {"a": {"type": "string"}}}},
    }
    assert dialect_at(data, [], "draft-07") == "draft-07"
    assert dialect_at(data, ["definitions", "meta", "properties", "a"], "draft-07") == "draft-04"
    assert dialect_at({"components": {}}, ["components"], "OpenAPI 3.0") == "OpenAPI 3.0"


def price(uri: str, amount: dict[str, Any], container: str) -> str:
    return json.dumps(
        {
            "$schema": uri,
            container: {
                "Price": {
                    "type": "object",
                    "required": ["amount", "currency"],
                    "properties": {
                        "amount": amount,
                        "currency": {"type": "string"},
                        "tiers": {"type": "array", "items": {"$ref": f"#/{container}/Tier"}},
                    },
                },
                "Tier": {"type": "object", "properties": {"upTo": {"type": "integer"}}},
            },
        },
        indent=2,
    )


def test_one_definition_in_draft_04_and_2020_12_spelling_is_one_shape(
    make_corpus: MakeCorpus,
) -> None:
    old = {"type": "number", "minimum": 0, "exclusiveMinimum": True}
    new = {"type": "number", "exclusiveMinimum": 0}
    root = make_corpus(
        {
            "schemas/legacy.json": price(DRAFT_04, old, "definitions"),
            "schemas/current.json": price(DRAFT_2020, new, "$defs"),
        }
    )
    assert run_rule(root, "copy-drift") == []
    corpus = Context.load(root, load_config(root))
    sites = [
        Site(corpus.documents[path], pointer, None)
        for path, pointer in (
            ("schemas/legacy.json", "/definitions/Price"),
            ("schemas/current.json", "/$defs/Price"),
        )
    ]
    legacy, current = (
        shape_of(corpus, Site(s.document, s.pointer, _at(s.document.data, s.pointer)))
        for s in sites
    )
    assert legacy.normal["properties"]["amount"] == current.normal["properties"]["amount"]
    # A real difference in the bound is still drift, named at the property.
    root = make_corpus(
        {
            "schemas/legacy.json": price(
                DRAFT_04, {**old, "exclusiveMinimum": False}, "definitions"
            ),
            "schemas/current.json": price(DRAFT_2020, new, "$defs"),
        }
    )
    [drift] = run_rule(root, "copy-drift")
    assert "amount" in drift.message


def test_nullable_outside_openapi_30_is_no_difference_between_copies(
    make_corpus: MakeCorpus,
) -> None:
    """`nullable: true` constrains nothing outside OpenAPI 3.0 (3.1 and JSON Schema dropped it;
    oas30-leftover reports it): a copy that keeps it accepts the same values, no drift. A
    `"null"` in the `type` is a real difference."""
    amount = {"type": "number"}
    for other, drift in (
        ({**amount, "nullable": True}, False),
        ({"type": ["number", "null"]}, True),
    ):
        root = make_corpus(
            {
                "schemas/one.json": price(DRAFT_2020, amount, "$defs"),
                "schemas/two.json": price(DRAFT_2020, other, "$defs"),
            }
        )
        assert bool(run_rule(root, "copy-drift")) is drift, other


def _at(data: Any, pointer: str) -> Any:
    for token in pointer.strip("/").split("/"):
        data = data[token]
    return data


def test_tuple_items_are_compared_by_their_member_schemas(make_corpus: MakeCorpus) -> None:
    def point(first: str) -> str:
        return json.dumps(
            {
                "$schema": DRAFT_07,
                "definitions": {
                    "Point": {
                        "type": "object",
                        "properties": {
                            "xy": {"type": "array", "items": [{"$ref": first}, {"type": "number"}]},
                            "label": {"type": "string"},
                        },
                    }
                },
            }
        )

    common = json.dumps(
        {"$schema": DRAFT_07, "definitions": {"Num": {"type": "number"}, "Str": {"type": "string"}}}
    )
    # One target, written two ways: the tuple's members are followed, so the copies agree.
    same = make_corpus(
        {
            "a/common.json": common,
            "a/one.json": point("common.json#/definitions/Num"),
            "a/two.json": point("./common.json#/definitions/Num"),
        }
    )
    assert run_rule(same, "copy-drift") == []
    # The first member points at a different definition: not the same shape.
    differ = make_corpus(
        {
            "a/common.json": common,
            "a/one.json": point("common.json#/definitions/Num"),
            "a/two.json": point("common.json#/definitions/Str"),
        }
    )
    [drift] = run_rule(differ, "copy-drift")
    assert "xy" in drift.message


def changes(base: dict[str, str], head: dict[str, str]) -> set[tuple[str, str | None]]:
    return {
        (c.kind, c.location.pointer)
        for c in schema_changes(Context.from_texts(base), Context.from_texts(head))
    }


def test_a_draft_04_bound_made_exclusive_is_a_tightened_bound() -> None:
    def doc(exclusive: bool) -> str:
        return json.dumps(
            {
                "$schema": DRAFT_04,
                "type": "object",
                "properties": {
                    "n": {"type": "number", "minimum": 0, "exclusiveMinimum": exclusive}
                },
            }
        )

    found = changes({"s/limits.json": doc(False)}, {"s/limits.json": doc(True)})
    # The bound is read as 2020-12 `exclusiveMinimum: 0`, located at the number (`minimum`).
    assert ("bound tightened", "/properties/n/minimum") in found


def test_an_openapi_3_0_field_no_longer_nullable_is_a_narrowed_type() -> None:
    def api(nullable: bool) -> str:
        return (
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /runs:\n    post:\n"
            "      requestBody:\n        content:\n          application/json:\n            schema:\n"
            "              type: object\n              properties:\n"
            f"                note: {{type: string, nullable: {str(nullable).lower()}}}\n"
            "      responses: {'204': {description: ok}}\n"
        )

    found = changes({"api/openapi.yaml": api(True)}, {"api/openapi.yaml": api(False)})
    pointer = "/paths/~1runs/post/requestBody/content/application~1json/schema/properties/note/type"
    assert ("type narrowed", pointer) in found
    assert changes({"api/openapi.yaml": api(True)}, {"api/openapi.yaml": api(True)}) == set()


def test_a_draft_04_root_id_is_the_uri_other_files_name_it_by(make_corpus: MakeCorpus) -> None:
    """draft-04 names a schema with `id` (Core §7.2): a `$ref` to that URI reaches the file."""
    first = {"$schema": DRAFT_04, "id": "http://acme.example/a.json", "definitions": {"y": {}}}
    second = {
        "$schema": DRAFT_04,
        "properties": {"a": {"$ref": "http://acme.example/a.json#/definitions/y"}},
    }
    root = make_corpus({"schemas/a.json": json.dumps(first), "schemas/b.json": json.dumps(second)})
    corpus = Context.load(root)
    [reference] = [r for r in corpus.references.references if r.path == "schemas/b.json"]
    assert (reference.outcome, reference.target_path) == ("ok", "schemas/a.json")
    assert list(all_rules()["unresolved-ref"].check(corpus, {})) == []
