"""An example file a schema names under ``example`` is bound to that schema, not by its values:
a generic envelope's example carries a discriminator (`kind: "a"`) that a narrower schema fixes,
and binding it by that value judged it against a schema it was never written for."""

from __future__ import annotations

import json
from typing import Any

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.parsing.kinds import DocumentKind
from speclint.run.catalog import all_rules

# The generic envelope: any kind, an object body.
ENVELOPE = "type: object\nrequired: [kind, body]\nproperties:\n  kind: {type: string}\n  body: {type: object}\n"
# The envelope with its example, named in an `allOf` branch beside the `$ref`.
WITH_EXAMPLE = (
    "allOf:\n  - $ref: envelope.yaml\n  - example:\n      $ref: ../examples/envelope.json\n"
)
# The specific envelope of kind "a", whose body needs a `size`.
KIND_A = (
    "type: object\nrequired: [kind, body]\nproperties:\n  kind: {const: a}\n"
    "  body:\n    type: object\n    required: [size]\n    properties:\n      size: {type: integer}\n"
)


def files(example: Any) -> dict[str, str]:
    return {
        "definitions/envelope.yaml": ENVELOPE,
        "definitions/envelope_with_example.yaml": WITH_EXAMPLE,
        "definitions/kinds/a.yaml": KIND_A,
        "examples/envelope.json": json.dumps(example, indent=2),
    }


def example_findings(texts: dict[str, str]) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(Context.from_texts(texts), {}))


def test_an_example_file_a_schema_names_is_judged_by_that_schema() -> None:
    # Valid for the envelope, invalid for kind "a" (no `size`): the envelope names it.
    assert example_findings(files({"kind": "a", "body": {"key": "value"}})) == []


def test_an_example_file_invalid_for_the_schema_naming_it_is_reported_there() -> None:
    [finding] = example_findings(files({"kind": "a", "body": "value"}))
    assert finding.location.path == "examples/envelope.json"
    assert 'example at /body: "value" is not of type "object"' in finding.message
    assert finding.related[0].path == "definitions/envelope_with_example.yaml"
    assert finding.related[0].pointer == "/allOf/0/properties/body/type"  # the rejecting keyword


def test_bindings_say_the_schema_that_names_the_example_file(make_corpus: Any) -> None:
    root = make_corpus(dict(files({"kind": "a", "body": {}})))
    output = run_cli("bindings", str(root)).output
    assert "examples/envelope.json example file" in output
    assert (
        "-> definitions/envelope_with_example.yaml (by example reference: the example at "
        "`definitions/envelope_with_example.yaml#/allOf/1/example`)" in output
    )


def test_an_example_assembled_by_allof_of_refs_is_not_judged_on_what_it_merges(
    make_corpus: Any,
) -> None:
    # An example file that merges others in (`allOf` of `$ref`s and members) lacks, as written,
    # the members its resolver brings.
    texts = files({"allOf": [{"$ref": "base.json"}], "kind": "a"})
    texts["examples/base.json"] = json.dumps({"body": {}})
    # Loaded from disk: discovery reads the file named under `example` as data, not a schema.
    corpus = Context.load(make_corpus(dict(texts)))
    assert corpus.documents["examples/envelope.json"].kind is DocumentKind.DATA
    assert list(all_rules()["example-invalid"].check(corpus, {})) == []
