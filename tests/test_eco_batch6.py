"""Classes found at the first read of ecosystem batch 6 (issue 45), each on a fixture of ours."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from speclint.analyses.schemas.validation import validator_class_at

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _report(root: Path) -> tuple[int, list[dict[str, object]]]:
    result = run_cli("check", str(root), "--preview", "--no-cache", "--quiet", "--format", "json")
    return result.exit_code, json.loads(result.output)["findings"]


# A base whose discriminator sits beside an `allOf`, and a subtype that extends the base (OpenAPI
# 3.0.3 §4.7.25.1's inheritance pattern): the discriminator maps the subtype's value back to the
# subtype, whose `allOf` reaches the base again.
INHERITING = """\
openapi: 3.0.3
info: {title: Shapes, version: '1'}
paths:
  /shapes:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Circle'}
            example: {kind: Circle, radius: %s}
      responses:
        '204': {description: stored}
components:
  schemas:
    Named:
      type: object
      required: [kind]
      properties:
        kind: {type: string}
    Shape:
      allOf:
        - $ref: '#/components/schemas/Named'
      discriminator:
        propertyName: kind
    Circle:
      allOf:
        - $ref: '#/components/schemas/Shape'
        - type: object
          properties:
            radius: {type: number}
"""


def test_a_discriminator_that_maps_back_to_its_subtype_is_followed_once(
    make_corpus: MakeCorpus,
) -> None:
    """openapi-schema-validator followed such a discriminator for ever: a RecursionError after
    minutes, reported as example-invalid's internal error, its results lost. Followed once, the
    example is judged, and a wrong one is still found."""
    code, findings = _report(make_corpus({"api/openapi.yaml": INHERITING % "2.5"}))
    assert [f["rule"] for f in findings] == []
    assert code == 0
    code, findings = _report(make_corpus({"api/openapi.yaml": INHERITING % "wide"}))
    assert [(f["rule"], f["location"]["line"]) for f in findings] == [("example-invalid", 10)]
    # The one failure, reached along both paths, is one error, not "(and 1 more error)".
    assert "more error" not in str(findings[0]["message"])


def test_the_empty_pattern_of_pattern_properties_covers_every_member(
    make_corpus: MakeCorpus,
) -> None:
    """`patternProperties: {"": ...}` matches every name (the empty pattern is found in any
    string); jsonschema's own `additionalProperties` skipped an empty join of the patterns and
    called every member additional. A member the pattern's subschema rejects is still found."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/links.json",
        "type": "object",
        "patternProperties": {"": {"type": "string"}},
        "additionalProperties": False,
        "examples": [{"self": "/a", "next": "/b"}, {"self": 3}],
    }
    _, findings = _report(make_corpus({"schemas/links.json": json.dumps(schema, indent=2)}))
    assert [(f["rule"], f["location"]["pointer"]) for f in findings] == [
        ("example-invalid", "/examples/1")
    ]
    assert "not of type" in str(findings[0]["message"])


def test_a_validation_left_unfinished_does_not_change_the_next_one() -> None:
    """The guard that follows a discriminator once is per thread and keyed on the instance: a
    validation stopped at its first error, its generator kept, must not leave the instance
    marked, or the next validation of it skips the discriminator (and the error it finds)."""
    schema = {
        "components": {
            "schemas": {
                "Cat": {"type": "object", "properties": {"name": {"type": "string"}}},
                "Dog": {"type": "object"},
            }
        },
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind"},
    }
    instance = {"kind": "Cat", "name": 3}
    validator = validator_class_at("openapi", "3.0.3", None)(schema)
    alone = [e.message for e in validator.iter_errors(instance)]
    assert alone == ["3 is not of type 'string'"]
    held = validator.iter_errors(instance)
    assert next(held).message == alone[0]
    assert [e.message for e in validator.iter_errors(instance)] == alone
    held.close()


def test_errors_made_once_keep_the_order_the_schema_states_them(
    make_corpus: MakeCorpus,
) -> None:
    """Errors reached along two paths are kept once; the errors at one place stay in the order
    the validator finds them (the schema's keywords in order), so the finding names the first."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.org/thing.json",
        "type": "object",
        "required": ["name"],
        "minProperties": 2,
        "examples": [{}],
    }
    _, findings = _report(make_corpus({"schemas/thing.json": json.dumps(schema, indent=2)}))
    [finding] = findings
    assert "(keyword `required`) (and 1 more error)" in str(finding["message"])
