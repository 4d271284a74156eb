"""unsatisfiable-schema: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def _api(schema: str) -> str:
    return (
        "openapi: 3.1.0\ninfo: {title: Parcels, version: 1.0.0}\npaths:\n  /parcels:\n"
        "    post:\n      requestBody:\n        content:\n          application/json:\n"
        f"            schema: {schema}\n"
        "      responses:\n        '201': {description: created}\n"
    )


def test_unsatisfiable_schema_decides_through_a_missing_reference_when_either_reading_agrees(
    make_corpus: MakeCorpus,
) -> None:
    # a string and an integer at once: no value passes, whatever the missing file would say
    contradiction = "{allOf: [{type: string}, {type: integer}, {$ref: 'gone.schema.json'}]}"
    root = make_corpus({"api/openapi.yaml": _api(contradiction)})
    [finding] = run_rule(root, "unsatisfiable-schema", {})
    assert "no instance can satisfy this schema" in finding.message
    # the control: the missing file alone decides, and nothing is said
    open_ended = "{allOf: [{type: string}, {$ref: 'gone.schema.json'}]}"
    (root / "api/openapi.yaml").write_text(_api(open_ended))
    assert run_rule(root, "unsatisfiable-schema", {}) == []
