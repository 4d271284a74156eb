"""oas30-leftover (issue 46, item 12): OpenAPI 3.0 Schema Object spellings in a 3.1 document."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, schemas: str, head: str = "") -> str:
    """An OpenAPI document of ``version`` whose ``components/schemas`` is ``schemas`` (YAML)."""
    body = textwrap.indent(textwrap.dedent(schemas), "    ")
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n{head}paths: {{}}\n"
        f"components:\n  schemas:\n{body}"
    )


def leftovers(root: Path) -> list[tuple[str, str | None, int]]:
    return [
        (f.location.path, f.location.pointer, f.location.line)
        for f in run_rule(root, "oas30-leftover")
    ]


RUN = """\
Run:
  type: object
  properties:
    note: {type: string, nullable: true}
"""


def test_nullable_true_in_a_31_document_is_reported_with_the_type_array(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.1.0", RUN)})
    found = run_rule(root, "oas30-leftover")
    assert [(f.location.pointer, f.location.line) for f in found] == [
        ("/components/schemas/Run/properties/note/nullable", 9)
    ]
    assert 'write `type: ["string", "null"]` and delete `nullable`' in found[0].message
    assert found[0].severity.label == "warning"


def test_nullable_in_a_30_document_is_a_keyword(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.0.3", RUN)})
    assert leftovers(root) == []


def test_nullable_in_a_32_document_is_reported_too(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.2.0", RUN)})
    assert len(leftovers(root)) == 1


def test_nullable_where_the_schema_admits_null_already_is_reported_as_meaningless(
    make_corpus: MakeCorpus,
) -> None:
    schemas = """\
    A: {type: [string, "null"], nullable: true}
    B: {description: anything, nullable: true}
    D: {enum: [a, null], nullable: true}
    """
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas)})
    found = run_rule(root, "oas30-leftover")
    assert [f.location.pointer for f in found] == [
        "/components/schemas/A/nullable",
        "/components/schemas/B/nullable",
        "/components/schemas/D/nullable",
    ]
    assert all("this schema already allows `null`" in f.message for f in found)
    assert 'its `type` lists "null"' in found[0].message
    assert "it names no `type`" in found[1].message
    assert all(f.message.endswith("delete `nullable`") for f in found)


def test_nullable_false_in_a_31_document_is_reported_as_meaningless(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.1.0", "C: {type: string, nullable: false}\n")})
    [found] = run_rule(root, "oas30-leftover")
    assert found.message.startswith("`nullable: false` is no keyword in OpenAPI 3.1")
    assert "whether `null` is allowed is for `type` to say" in found.message


def test_nullable_beside_a_ref_an_enum_or_a_type_list_says_the_31_spelling(
    make_corpus: MakeCorpus,
) -> None:
    schemas = """\
    Kind: {type: string, enum: [a, b]}
    A: {$ref: '#/components/schemas/Kind', nullable: true}
    B: {type: string, enum: [a, b], nullable: true}
    C: {type: [string, integer], nullable: true}
    D: {allOf: [{$ref: '#/components/schemas/Kind'}], nullable: true}
    """
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas)})
    messages = {
        f.location.pointer.split("/")[3]: f.message
        for f in run_rule(root, "oas30-leftover")
        if f.location.pointer
    }
    assert sorted(messages) == ["A", "B", "C", "D"]
    assert 'anyOf: [{$ref: ...}, {type: "null"}]' in messages["A"]
    assert "and add `null` to its `enum`" in messages["B"]
    assert 'add `"null"` to `type`' in messages["C"]
    assert 'anyOf: [{allOf: ...}, {type: "null"}]' in messages["D"]


def test_nullable_deep_in_a_request_body_schema_is_reported(make_corpus: MakeCorpus) -> None:
    document = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Runs, version: 1.0.0}
        paths:
          /v1/runs:
            post:
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        labels:
                          type: array
                          items: {type: string, nullable: true}
              responses:
                '201': {description: created}
        """
    )
    root = make_corpus({"api/openapi.yaml": document})
    assert leftovers(root) == [
        (
            "api/openapi.yaml",
            "/paths/~1v1~1runs/post/requestBody/content/application~1json/schema/properties"
            "/labels/items/nullable",
            14,
        )
    ]


def test_example_beside_examples_is_reported_and_example_alone_is_not(
    make_corpus: MakeCorpus,
) -> None:
    schemas = """\
    A: {type: string, example: a, examples: [b]}
    B: {type: string, example: a, examples: [a]}
    C: {type: string, example: a}
    """
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas)})
    found = {f.location.pointer: f for f in run_rule(root, "oas30-leftover")}
    assert sorted(found) == ["/components/schemas/A/example", "/components/schemas/B/example"]
    assert (
        "move its value into the `examples` array" in found["/components/schemas/A/example"].message
    )
    assert "already in `examples`" in found["/components/schemas/B/example"].message
    assert [r.pointer for r in found["/components/schemas/A/example"].related] == [
        "/components/schemas/A/examples"
    ]


def test_example_beside_examples_in_a_30_document_is_not_this_rules(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"api/openapi.yaml": api("3.0.3", "A: {type: string, example: a, examples: [b]}\n")}
    )
    assert leftovers(root) == []


def test_a_boolean_exclusive_minimum_is_left_to_openapi_invalid(make_corpus: MakeCorpus) -> None:
    schemas = "Size: {type: integer, minimum: 0, exclusiveMinimum: true}\n"
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas)})
    assert leftovers(root) == []
    assert [f.location.pointer for f in run_rule(root, "openapi-invalid")] == [
        "/components/schemas/Size/exclusiveMinimum"
    ]


def test_a_schema_declaring_another_dialect_is_judged_by_it(make_corpus: MakeCorpus) -> None:
    schemas = """\
    A:
      $schema: 'http://json-schema.org/draft-04/schema#'
      type: string
      nullable: true
    """
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas)})
    assert leftovers(root) == []


REF_RUN = """\
Run: {$ref: '../schemas/run.yaml'}
"""
RUN_FILE = "type: object\nproperties:\n  note: {type: string, nullable: true}\n"


def test_nullable_in_a_fragment_only_a_31_document_reaches_is_reported_there(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.1.0", REF_RUN), "schemas/run.yaml": RUN_FILE})
    assert leftovers(root) == [("schemas/run.yaml", "/properties/note/nullable", 3)]


def test_a_fragment_a_30_document_also_reaches_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api("3.1.0", REF_RUN),
            "legacy/openapi.yaml": api("3.0.3", REF_RUN),
            "schemas/run.yaml": RUN_FILE,
        }
    )
    assert leftovers(root) == []


def test_a_30_document_a_31_document_refers_to_is_judged_by_its_own_version(
    make_corpus: MakeCorpus,
) -> None:
    # The 3.0 document owns its schemas (and the fragment it reaches): `nullable` is its keyword.
    root = make_corpus(
        {
            "api/openapi.yaml": api(
                "3.1.0", "Run: {$ref: '../legacy/openapi.yaml#/components/schemas/Run'}\n"
            ),
            "legacy/openapi.yaml": api("3.0.3", RUN + "Other: {$ref: '../schemas/run.yaml'}\n"),
            "schemas/run.yaml": RUN_FILE,
        }
    )
    assert leftovers(root) == []


def test_a_map_of_schemas_is_judged_where_a_schema_names_it_once_each(
    make_corpus: MakeCorpus,
) -> None:
    # `schemas.yaml` is a bag of schemas (no schema at its root): those a `$ref` in a schema
    # names are Schema Objects of the 3.1 document, and so is what they name in turn; one
    # nothing names is not known to be one.
    loose = textwrap.dedent(
        """\
        Run:
          type: object
          properties:
            kind: {$ref: '#/Kind'}
        Kind: {type: string, nullable: true}
        Unused: {type: string, nullable: true}
        """
    )
    schemas = (
        "Run: {$ref: '../schemas/schemas.yaml#/Run'}\n"
        "Again: {$ref: '../schemas/schemas.yaml#/Run'}\n"
    )
    root = make_corpus({"api/openapi.yaml": api("3.1.0", schemas), "schemas/schemas.yaml": loose})
    assert leftovers(root) == [("schemas/schemas.yaml", "/Kind/nullable", 5)]


def test_a_components_map_kept_in_a_file_of_its_own_is_judged(make_corpus: MakeCorpus) -> None:
    document = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\npaths: {}\n"
        "components:\n  schemas: {$ref: '../schemas/components.yaml'}\n"
    )
    root = make_corpus({"api/openapi.yaml": document, "schemas/components.yaml": RUN})
    assert leftovers(root) == [("schemas/components.yaml", "/Run/properties/note/nullable", 4)]


def test_a_path_item_kept_in_a_file_of_its_own_is_judged(make_corpus: MakeCorpus) -> None:
    document = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\n"
        "paths:\n  /v1/runs: {$ref: './paths/runs.yaml'}\n"
    )
    path_item = textwrap.dedent(
        """\
        get:
          responses:
            '200':
              description: the runs
              content:
                application/json:
                  schema: {type: string, nullable: true}
        """
    )
    root = make_corpus({"api/openapi.yaml": document, "api/paths/runs.yaml": path_item})
    assert leftovers(root) == [
        (
            "api/paths/runs.yaml",
            "/get/responses/200/content/application~1json/schema/nullable",
            7,
        )
    ]


def test_the_rule_runs_by_default_as_its_labels_prove_it() -> None:
    # 69 labelled findings of the ecosystem check in 3 repositories, 94 % (issue 52): over the
    # bar, so the module declares no preview and the default set runs it.
    assert preview.why_preview("oas30-leftover") == ""
