"""array-items-missing (issue 52, item 6a): `type: array` without `items` in 2.0 and 3.0."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, schemas: str, paths: str = "{}") -> str:
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    head = f'swagger: "{version}"' if version == "2.0" else f"openapi: {version}"
    where = "definitions:\n" if version == "2.0" else "components:\n  schemas:\n"
    if version == "2.0":
        body = textwrap.indent(textwrap.dedent(schemas), "  ")
    return f"{head}\ninfo: {{title: Runs, version: 1.0.0}}\npaths: {paths}\n{where}{body}"


def found(root: Path) -> list[tuple[str, str | None, int]]:
    return [
        (f.location.path, f.location.pointer, f.location.line)
        for f in run_rule(root, "array-items-missing")
    ]


TAGS = "Tags:\n  type: array\n"


def test_array_without_items_in_a_30_document_is_an_error(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", TAGS)})
    findings = run_rule(root, "array-items-missing")
    assert [(f.location.pointer, f.location.line) for f in findings] == [
        ("/components/schemas/Tags/type", 7)
    ]
    assert findings[0].severity.label == "error"
    assert "add `items`" in findings[0].message


def test_array_without_items_in_a_swagger_20_document_is_an_error(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"swagger.yaml": api("2.0", TAGS)})
    assert found(root) == [("swagger.yaml", "/definitions/Tags/type", 6)]


def test_array_without_items_in_a_31_document_is_fine(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.1.0", TAGS)})
    assert found(root) == []


def test_array_with_items_is_fine(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", "Tags: {type: array, items: {}}\n")})
    assert found(root) == []


def test_array_beside_a_ref_is_ignored_with_its_siblings(make_corpus: MakeCorpus) -> None:
    schemas = (
        "Tags: {$ref: '#/components/schemas/List', type: array}\nList: {type: array, items: {}}\n"
    )
    root = make_corpus({"openapi.yaml": api("3.0.3", schemas)})
    assert found(root) == []


def test_array_in_a_schema_file_a_30_document_reaches_is_reported_there(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": api("3.0.3", "Tags: {$ref: './tags.yaml'}\n"),
            "tags.yaml": "type: object\nproperties:\n  names:\n    type: array\n",
        }
    )
    assert found(root) == [("tags.yaml", "/properties/names/type", 4)]


def test_array_in_a_path_item_file_is_reported_in_that_file(make_corpus: MakeCorpus) -> None:
    paths = "\n  /runs: {$ref: './runs.yaml'}"
    item = (
        "get:\n  responses:\n    '200':\n      description: ok\n      content:\n"
        "        application/json:\n          schema: {type: array}\n"
    )
    root = make_corpus({"openapi.yaml": api("3.0.3", "{}\n", paths), "runs.yaml": item})
    assert found(root) == [
        ("runs.yaml", "/get/responses/200/content/application~1json/schema/type", 7)
    ]


def test_schema_file_reached_by_a_30_and_a_31_document_is_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "a.yaml": api("3.0.3", "Tags: {$ref: './tags.yaml'}\n"),
            "b.yaml": api("3.1.0", "Tags: {$ref: './tags.yaml'}\n"),
            "tags.yaml": "type: array\n",
        }
    )
    assert found(root) == []


def test_plain_json_schema_file_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"tags.schema.json": '{"type": "array"}'})
    assert found(root) == []
