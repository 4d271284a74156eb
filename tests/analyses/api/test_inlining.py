"""The walks that once skipped every key spelled like a data keyword (issue 47): a property
*named* ``default``, ``enum``, ``example``... holds a schema, and a walk of schemas enters it
(``speclint.parsing.keyword_positions.member_position`` says what a key is where it stands)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from speclint.analyses.api.inlining import schema_map_refs
from speclint.analyses.context import Context
from speclint.rules import duplicate_id, schema_invalid

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_schema_map_kept_in_a_file_under_a_property_named_default_is_inlined() -> None:
    schema: dict[str, Any] = {
        "properties": {
            "default": {"properties": {"$ref": "attributes.yaml#/ids"}},
            # A property named `properties` written as a `$ref` is a schema, not a map.
            "properties": {"$ref": "property.yaml"},
            "enum": {"default": {"properties": {"$ref": "data: not a map"}}},
        }
    }
    assert set(schema_map_refs(schema, "/s")) == {"/s/properties/default/properties"}


def test_an_id_under_a_property_named_default_is_declared(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run.schema.json": json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "$id": "https://example.com/run.schema.json",
                    "properties": {
                        "default": {"$id": "https://example.com/settings.schema.json"},
                        "mode": {"default": {"$id": "https://example.com/data-only"}},
                    },
                }
            )
        }
    )
    corpus = Context.load(root)
    declared = {
        d.pointer for d in duplicate_id.declared_ids(corpus.documents["schemas/run.schema.json"])
    }
    assert declared == {"", "/properties/default"}


def test_an_embedded_resource_under_a_property_named_default_is_judged_by_its_own_dialect() -> None:
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"default": draft4, "mode": {"default": draft4}},
    }
    assert schema_invalid._embedded_resources(schema) == [("/properties/default", draft4)]


def test_a_metaschema_ref_under_a_property_named_enum_is_followed() -> None:
    metaschema = {
        "properties": {"enum": {"$ref": "#/$defs/values"}},
        "$defs": {"values": {"default": {"$ref": "data, not a reference"}}},
    }
    assert sorted(schema_invalid._refs(metaschema)) == ["#/$defs/values"]
