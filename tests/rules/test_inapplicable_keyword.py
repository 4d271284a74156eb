"""inapplicable-keyword (issue 52, item 6b): a keyword that never applies beside `type`."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, schemas: str) -> str:
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n  schemas:\n{body}"
    )


def found(root: Path) -> list[tuple[str, str | None]]:
    return [(f.location.path, f.location.pointer) for f in run_rule(root, "inapplicable-keyword")]


def test_properties_beside_type_string_is_a_warning_with_the_type_related(
    make_corpus: MakeCorpus,
) -> None:
    schemas = "Owner:\n  type: string\n  properties:\n    id: {type: string}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    findings = run_rule(root, "inapplicable-keyword")
    assert [(f.location.pointer, f.location.line) for f in findings] == [
        ("/components/schemas/Owner/properties", 8)
    ]
    assert findings[0].severity.label == "warning"
    assert "`properties` never applies beside `type: string`" in findings[0].message
    assert [r.pointer for r in findings[0].related] == ["/components/schemas/Owner/type"]


def test_items_beside_type_object_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"openapi.yaml": api("3.1.0", "Run: {type: object, items: {type: string}}\n")}
    )
    assert found(root) == [("openapi.yaml", "/components/schemas/Run/items")]


def test_max_length_beside_type_integer_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", "Count: {type: integer, maxLength: 3}\n")})
    assert found(root) == [("openapi.yaml", "/components/schemas/Count/maxLength")]


def test_minimum_beside_type_integer_applies(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", "Count: {type: integer, minimum: 1}\n")})
    assert found(root) == []


def test_type_list_that_includes_object_lets_properties_apply(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {type: [object, 'null'], properties: {id: {type: string}}}\n"
    root = make_corpus({"openapi.yaml": api("3.1.0", schemas)})
    assert found(root) == []


def test_no_type_lets_every_keyword_apply(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {properties: {id: {type: string}}, items: {}, maxLength: 3}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    assert found(root) == []


def test_keywords_that_constrain_nothing_are_left_alone(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {type: string, uniqueItems: false, minItems: 0, additionalProperties: true}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    assert found(root) == []


def test_boolean_required_is_not_this_rules(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", "Run: {type: string, required: true}\n")})
    assert found(root) == []


def test_siblings_of_a_ref_in_30_are_ignored_not_judged(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {$ref: '#/components/schemas/Id', type: string, properties: {}}\nId: {}\n"
    root = make_corpus(
        {"openapi.yaml": api("3.0.3", schemas.replace("properties: {}", "items: {type: string}"))}
    )
    assert found(root) == []


def test_property_named_items_is_no_keyword(make_corpus: MakeCorpus) -> None:
    schemas = "Cart: {type: object, properties: {items: {type: array, items: {}}}}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    assert found(root) == []


def test_plain_json_schema_file_is_judged_too(make_corpus: MakeCorpus) -> None:
    schema = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string",\n "items": {"type": "string"}}'
    root = make_corpus({"name.schema.json": schema})
    assert found(root) == [("name.schema.json", "/items")]


def test_schema_file_a_document_reaches_is_reported_in_that_file_once(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "a.yaml": api("3.0.3", "Name: {$ref: './name.yaml'}\n"),
            "b.yaml": api("3.0.3", "Name: {$ref: './name.yaml'}\n"),
            "name.yaml": "type: string\nproperties:\n  first: {type: string}\n",
        }
    )
    assert found(root) == [("name.yaml", "/properties")]
