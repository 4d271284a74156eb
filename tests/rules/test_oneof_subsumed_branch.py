"""oneof-subsumed-branch: `oneOf` branches a value always matches twice, on every role, and the
look-alikes that overlap only sometimes (never reported)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import findings_of
from speclint.common.findings import Finding, Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
ID = "oneof-subsumed-branch"


def api(schema: str, version: str = "3.0.3", where: str = "response") -> dict[str, str | bytes]:
    """An API document whose one response (or request body) schema is ``schema`` (flow YAML)."""
    body = f"requestBody: {{content: {{application/json: {{schema: {schema}}}}}}}"
    response = f"content: {{application/json: {{schema: {schema}}}}}"
    text = textwrap.dedent(
        f"""\
        openapi: {version}
        info: {{title: Shop, version: "1"}}
        paths:
          /orders:
            post:
              {body if where == "request" else ""}
              responses:
                "200":
                  description: ok
                  {response if where == "response" else ""}
        """
    )
    return {"api/openapi.yaml": text}


def run(make_corpus: MakeCorpus, files: dict[str, str | bytes]) -> list[Finding]:
    return findings_of(ID, make_corpus(files))


def test_two_strings_differing_by_unknown_formats_reject_every_value_in_a_response(
    make_corpus: MakeCorpus,
) -> None:
    found = run(
        make_corpus,
        api("{oneOf: [{type: string, format: customer-id}, {type: string, format: order-id}]}"),
    )
    assert len(found) == 1
    assert found[0].severity is Severity.ERROR
    assert found[0].location.pointer.endswith("/schema/oneOf")
    assert "rejects every value" in found[0].message and "`format`" in found[0].message
    assert {r.pointer.rsplit("/", 1)[1] for r in found[0].related} == {"0", "1"}


def test_request_body_overlap_is_reported_here_and_left_by_unsatisfiable_schema(
    make_corpus: MakeCorpus,
) -> None:
    files = api("{oneOf: [{type: string, title: A}, {type: string, title: B}]}", where="request")
    root = make_corpus(files)
    assert len(findings_of(ID, root)) == 1
    assert findings_of("unsatisfiable-schema", root) == []


def test_unsatisfiable_schema_names_the_overlap_when_this_rule_is_off(
    make_corpus: MakeCorpus,
) -> None:
    from speclint.analyses.context import Context
    from speclint.run.catalog import all_rules

    root = make_corpus(
        api("{oneOf: [{type: string, description: a}, {type: string}]}", where="request")
    )
    corpus = Context.load(root)
    corpus.running = frozenset({"unsatisfiable-schema"})
    found = list(all_rules()["unsatisfiable-schema"].check(corpus, {}))
    assert len(found) == 1
    assert "accept the same values" in found[0].message
    assert "allOf" not in found[0].message and "additionalProperties" not in found[0].message


def test_empty_branch_beside_an_object_makes_the_object_branch_dead(
    make_corpus: MakeCorpus,
) -> None:
    found = run(make_corpus, api("{oneOf: [{type: object}, {}]}"))
    assert [(f.severity, f.location.pointer.rsplit("/", 1)[1]) for f in found] == [
        (Severity.WARNING, "0")
    ]
    assert "`oneOf/1` accepts every value `oneOf/0` accepts" in found[0].message


def test_true_branch_beside_anything_in_31(make_corpus: MakeCorpus) -> None:
    found = run(make_corpus, api("{oneOf: [{type: integer, minimum: 1}, true]}", version="3.1.0"))
    assert [f.location.pointer.rsplit("/", 1)[1] for f in found] == ["0"]


def test_narrower_branch_inside_a_wider_one_by_bounds_and_required(
    make_corpus: MakeCorpus,
) -> None:
    schema = (
        "{oneOf: [{type: object, required: [id, name], properties: {id: {type: integer, "
        "minimum: 5}}}, {type: object, required: [id], properties: {id: {type: number, "
        "minimum: 0}}}]}"
    )
    found = run(make_corpus, api(schema))
    assert [f.location.pointer.rsplit("/", 1)[1] for f in found] == ["0"]


def test_branches_through_refs_to_components_that_differ_by_description(
    make_corpus: MakeCorpus,
) -> None:
    text = textwrap.dedent(
        """\
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        paths: {}
        components:
          schemas:
            Id:
              oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]
            A: {type: string, description: the customer}
            B: {type: string, description: the order}
        """
    )
    found = run(make_corpus, {"api/openapi.yaml": text})
    assert len(found) == 1 and found[0].severity is Severity.ERROR
    assert found[0].location.pointer == "/components/schemas/Id/oneOf"
    # The schemas the `$ref`s name differ by `description`, not the `$ref`s themselves.
    assert "differ only by `description`" in found[0].message


def test_schema_in_a_separate_file_is_reported_where_it_is_written(
    make_corpus: MakeCorpus,
) -> None:
    text = textwrap.dedent(
        """\
        openapi: 3.0.3
        info: {title: Shop, version: "1"}
        paths:
          /orders:
            get:
              responses:
                "200":
                  description: ok
                  content: {application/json: {schema: {$ref: './order.yaml'}}}
        """
    )
    order = "oneOf:\n  - {type: string, format: short}\n  - {type: string, format: long}\n"
    found = run(make_corpus, {"api/openapi.yaml": text, "api/order.yaml": order})
    assert [(f.location.path, f.location.pointer) for f in found] == [("api/order.yaml", "/oneOf")]


def test_partial_overlap_of_objects_is_not_reported(make_corpus: MakeCorpus) -> None:
    schema = (
        "{oneOf: [{type: object, properties: {card: {type: string}}}, "
        "{type: object, properties: {iban: {type: string}}}]}"
    )
    assert run(make_corpus, api(schema)) == []


def test_known_format_keeps_the_plain_string_branch_alive(make_corpus: MakeCorpus) -> None:
    # A validator may assert `uuid` (2020-12 Validation §7.3.5): every uuid is a string, so the
    # uuid branch is dead, but a plain string that is no uuid still passes: a warning, no error.
    found = run(make_corpus, api("{oneOf: [{type: string, format: uuid}, {type: string}]}"))
    assert [(f.severity, f.location.pointer.rsplit("/", 1)[1]) for f in found] == [
        (Severity.WARNING, "0")
    ]


def test_distinct_types_and_consts_are_exclusive(make_corpus: MakeCorpus) -> None:
    schema = (
        "{oneOf: [{type: string}, {type: integer}, {type: object, properties: {kind: "
        "{const: a}}, required: [kind]}, {type: object, properties: {kind: {const: b}}, "
        "required: [kind]}]}"
    )
    assert run(make_corpus, api(schema, version="3.1.0")) == []


def test_integer_beside_number_is_a_dead_branch_not_a_rejection_of_everything(
    make_corpus: MakeCorpus,
) -> None:
    found = run(make_corpus, api("{oneOf: [{type: integer}, {type: number}]}"))
    assert [(f.severity, f.location.pointer.rsplit("/", 1)[1]) for f in found] == [
        (Severity.WARNING, "0")
    ]


def test_nullable_in_30_separates_a_branch_that_accepts_null(make_corpus: MakeCorpus) -> None:
    # 3.0: `nullable: true` adds null (§4.7.24): the string branch is covered, not the other.
    found = run(make_corpus, api("{oneOf: [{type: string, nullable: true}, {type: string}]}"))
    assert [f.location.pointer.rsplit("/", 1)[1] for f in found] == ["1"]


def test_closed_object_without_the_member_the_other_requires_is_not_covered(
    make_corpus: MakeCorpus,
) -> None:
    schema = (
        "{oneOf: [{type: object, additionalProperties: false, properties: {a: {type: string}}}, "
        "{type: object, required: [b]}]}"
    )
    assert run(make_corpus, api(schema)) == []


def test_unresolved_ref_is_no_proof(make_corpus: MakeCorpus) -> None:
    schema = "{oneOf: [{$ref: './missing.yaml'}, {type: string}]}"
    assert run(make_corpus, api(schema)) == []


def test_recursive_schemas_end_without_a_proof(make_corpus: MakeCorpus) -> None:
    text = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Tree, version: "1"}
        paths: {}
        components:
          schemas:
            Node:
              oneOf:
                - {type: object, properties: {child: {$ref: '#/components/schemas/Node'}}}
                - {type: object, properties: {child: {$ref: '#/components/schemas/Node'}},
                   required: [child]}
        """
    )
    found = run(make_corpus, {"api/openapi.yaml": text})
    # Branch 1 carries branch 0's keywords plus `required`: covered, by the same `$ref` string.
    assert [f.location.pointer.rsplit("/", 1)[1] for f in found] == ["1"]


def test_unsatisfiable_schema_property_message_names_the_oneof_not_a_closed_allof_branch(
    make_corpus: MakeCorpus,
) -> None:
    # A member no valid value may carry, in a schema with no `allOf` at all: the explanation
    # names the `oneOf` whose branches both match it, never a closed branch (issue 52).
    schema = (
        "{type: object, properties: {x: {type: string}}, oneOf: [{required: [x], properties: "
        "{x: {type: string}}}, {properties: {x: {type: string, description: d}}}]}"
    )
    found = findings_of("unsatisfiable-schema", make_corpus(api(schema, where="request")))
    assert len(found) == 1
    assert "property `x`" in found[0].message
    assert "`oneOf/1` accepts every value `oneOf/0` accepts" in found[0].message
    assert "closed" not in found[0].message and "unevaluatedProperties" not in found[0].message


def test_path_item_in_a_separate_file_is_judged_where_it_is_written(
    make_corpus: MakeCorpus,
) -> None:
    root = textwrap.dedent(
        """\
        openapi: 3.1.0
        info: {title: Shop, version: "1"}
        paths:
          /orders: {$ref: './paths/orders.yaml'}
        """
    )
    item = textwrap.dedent(
        """\
        get:
          responses:
            "200":
              description: ok
              content:
                application/json:
                  schema: {oneOf: [{type: boolean, title: yes-no}, {type: boolean}]}
        """
    )
    found = run(make_corpus, {"api/openapi.yaml": root, "api/paths/orders.yaml": item})
    assert [f.location.path for f in found] == ["api/paths/orders.yaml"]
    assert found[0].location.pointer.endswith("/schema/oneOf")


def test_branch_that_contradicts_itself_is_not_reported_as_covered(
    make_corpus: MakeCorpus,
) -> None:
    # `required: [a]` beside `not: {required: [a]}` accepts nothing on its own: every other
    # branch covers it only vacuously, and the cause is not an overlap.
    schema = (
        "{oneOf: [{not: {required: [a, b]}}, {required: [a], not: {required: [a]}}, "
        "{type: object, required: [b]}]}"
    )
    assert run(make_corpus, api(schema, version="3.1.0")) == []
