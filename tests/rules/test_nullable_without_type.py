"""nullable-without-type (issue 52, item 2): `nullable: true` with no `type` in OpenAPI 3.0."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
ID = "nullable-without-type"


def api(version: str, schemas: str) -> str:
    """An OpenAPI document of ``version`` whose ``components/schemas`` is ``schemas`` (YAML)."""
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n  schemas:\n{body}"
    )


def pointers(root: Path) -> list[str | None]:
    return [f.location.pointer for f in run_rule(root, "nullable-without-type")]


OWNER = """\
User: {type: object}
Run:
  type: object
  properties:
    owner:
      nullable: true
      allOf: [{$ref: "#/components/schemas/User"}]
"""


def test_nullable_beside_all_of_without_type_is_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.0.3", OWNER)})
    [found] = run_rule(root, "nullable-without-type")
    assert (found.location.pointer, found.location.line) == (
        "/components/schemas/Run/properties/owner/nullable",
        11,
    )
    assert found.severity.label == "warning"
    assert "passes only if its `allOf` allows it" in found.message
    assert [r.pointer for r in found.related] == ["/components/schemas/Run/properties/owner/allOf"]


def test_nullable_beside_a_ref_says_the_siblings_are_ignored(make_corpus: MakeCorpus) -> None:
    schemas = 'User: {type: object}\nRun:\n  $ref: "#/components/schemas/User"\n  nullable: true\n'
    [found] = run_rule(
        make_corpus({"api/openapi.yaml": api("3.0.0", schemas)}), "nullable-without-type"
    )
    assert "every member beside `$ref` is ignored" in found.message


def test_nullable_with_a_type_is_fine(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {type: object, nullable: true, allOf: [{type: object}]}\n"
    assert pointers(make_corpus({"api/openapi.yaml": api("3.0.3", schemas)})) == []


def test_nullable_alone_allows_null_anyway_and_says_validators_refuse_it(
    make_corpus: MakeCorpus,
) -> None:
    schemas = "Run: {description: anything, nullable: true}\n"
    [found] = run_rule(make_corpus({"api/openapi.yaml": api("3.0.3", schemas)}), ID)
    assert "this schema allows `null` anyway" in found.message
    assert found.related == ()


def test_an_enum_listing_null_allows_it_and_one_without_depends_on_it(
    make_corpus: MakeCorpus,
) -> None:
    schemas = "A: {enum: [a, null], nullable: true}\nB: {enum: [a, b], nullable: true}\n"
    found = run_rule(make_corpus({"api/openapi.yaml": api("3.0.3", schemas)}), ID)
    assert [f.location.pointer for f in found] == [
        "/components/schemas/A/nullable",
        "/components/schemas/B/nullable",
    ]
    assert "allows `null` anyway" in found[0].message
    assert "passes only if its `enum` allows it" in found[1].message


def test_nullable_false_without_type_is_not_reported(make_corpus: MakeCorpus) -> None:
    schemas = "Run: {nullable: false, allOf: [{type: object}]}\n"
    assert pointers(make_corpus({"api/openapi.yaml": api("3.0.3", schemas)})) == []


def test_a_31_document_is_left_to_oas30_leftover(make_corpus: MakeCorpus) -> None:
    assert pointers(make_corpus({"api/openapi.yaml": api("3.1.0", OWNER)})) == []


def test_a_schema_file_a_30_document_reaches_is_reported_there(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api("3.0.3", 'Run: {$ref: "schemas/run.yaml"}\n'),
            "api/schemas/run.yaml": "type: object\nproperties:\n  owner:\n    nullable: true\n"
            "    oneOf: [{type: object}, {type: string}]\n",
        }
    )
    [found] = run_rule(root, "nullable-without-type")
    assert (found.location.path, found.location.pointer) == (
        "api/schemas/run.yaml",
        "/properties/owner/nullable",
    )


def test_a_plain_json_schema_file_no_30_document_reads_is_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api("3.0.3", "Run: {type: object}\n"),
            "schemas/run.json": '{"$schema": "https://json-schema.org/draft/2020-12/schema",'
            ' "nullable": true, "allOf": [{"type": "object"}]}\n',
            "schemas/loose.yaml": "nullable: true\nanyOf: [{type: object}]\n",
        }
    )
    assert pointers(root) == []


def test_a_schema_file_a_31_document_also_reaches_is_not_judged(make_corpus: MakeCorpus) -> None:
    shared = "nullable: true\nallOf: [{type: object}]\n"
    root = make_corpus(
        {
            "old/openapi.yaml": api("3.0.3", 'Run: {$ref: "../shared/run.yaml"}\n'),
            "new/openapi.yaml": api("3.1.0", 'Run: {$ref: "../shared/run.yaml"}\n'),
            "shared/run.yaml": shared,
        }
    )
    assert pointers(root) == []
