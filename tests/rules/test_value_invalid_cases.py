"""value-invalid: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_value_invalid_skips_a_schema_whose_references_do_not_resolve(
    make_corpus: MakeCorpus,
) -> None:
    # what the missing schema allows is unknown: the default may be its to accept or refuse
    size = {"allOf": [{"$ref": "units.schema.json"}], "type": "string", "default": 3}
    root = make_corpus({"schemas/parcel.schema.json": schema(properties={"size": size})})
    assert run_rule(root, "value-invalid", {}) == []
    # the control: with the referenced schema present, the integer default fails `type: string`
    (root / "schemas/units.schema.json").write_text(schema(minLength=1))
    [finding] = run_rule(root, "value-invalid", {})
    assert finding.location.pointer == "/properties/size/default"
