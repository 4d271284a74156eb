"""A schema its metaschema rejects is schema-invalid's finding, and nothing else's to crash on
(issue 26: ga4gh-beacon/beacon-v2's generated schemas say `additionalProperties: 1`, and one
schema of opengeospatial/ogcapi-features says `type: null`; before, the first ended every rule with
an internal error, as the shared reference index could not be built, and the second crashed
example-invalid). Every other rule still reports what it finds in the rest of the corpus."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import MakeCorpus

from conftest import DIALECT
from speclint.run.engine import Options, lint

MISSING = {"$ref": "nowhere.schema.json"}


def run(root: Path) -> dict[str, list[str]]:
    outcome = lint(root, Options(cache=False))
    found: dict[str, list[str]] = {}
    for finding in outcome.findings:
        found.setdefault(finding.rule, []).append(f"{finding.location.path}: {finding.message}")
    return found


def test_a_number_where_a_subschema_goes_is_one_schema_invalid_finding(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            # YAML, as the generated files were: a bare 1 where a schema goes.
            "schemas/generated.schema.yaml": (
                f"$schema: '{DIALECT}'\ntype: object\nadditionalProperties: 1\n"
                "properties:\n  a:\n    type: object\n    additionalProperties: 1\n"
                # An embedded resource naming its dialect: `referencing` crawls it with the stock
                # specification of that dialect, not speclint's tolerant one.
                f"$defs:\n  gen:\n    $schema: '{DIALECT}'\n    $id: gen.json\n"
                "    additionalProperties: 1\n"
            ),
            "schemas/missing.schema.json": json.dumps(
                {"$schema": DIALECT, "type": "object", "properties": {"x": MISSING}}
            ),
        }
    )
    found = run(root)
    assert "internal-error" not in found, found["internal-error"]
    assert len(found.get("schema-invalid", [])) == 3
    assert all("generated.schema.yaml" in f for f in found["schema-invalid"])
    # The shared index was built: the rules that need it still report the rest of the corpus.
    assert found.get("unresolved-ref") and "missing.schema.json" in found["unresolved-ref"][0]


def test_an_example_under_a_malformed_subschema_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/item.schema.json": json.dumps(
                {
                    "$schema": DIALECT,
                    "type": "object",
                    "properties": {"a": {"type": None}, "b": {"type": "integer"}},
                    "examples": [{"a": 1}, {"b": "two"}],
                }
            ),
        }
    )
    found = run(root)
    assert "internal-error" not in found, found["internal-error"]
    assert found.get("schema-invalid")
    # The example the malformed `type` decides is left to schema-invalid; the other is judged.
    examples = found.get("example-invalid", [])
    assert len(examples) == 1 and "/b" in examples[0], examples
