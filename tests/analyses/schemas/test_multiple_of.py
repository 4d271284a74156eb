"""Issue 26: ``multipleOf`` judges the decimal numbers a document writes, not their binary floats:
2.9 is a multiple of 0.1 (though 2.9 / 0.1 is 28.999999999999996 in floating point), 2.95 is
not; integers and the OpenAPI 3.0 dialect alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from speclint.analyses.context import Context
from speclint.analyses.schemas.validation import (
    install_safe_patterns,
    safe_validator_class,
    validator_class_at,
)
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


@pytest.mark.parametrize(
    ("factor", "value", "multiple"),
    [(0.1, 2.9, True), (0.1, 2.95, False), (0.01, 0.07, True), (3, 9, True), (3, 7, False)],
)
def test_multiple_of_is_decimal(factor: float, value: float, multiple: bool) -> None:
    install_safe_patterns()
    for dialect in (
        "https://json-schema.org/draft/2020-12/schema",
        "http://json-schema.org/draft-04/schema#",
    ):
        cls = safe_validator_class({"$schema": dialect})
        assert cls({"multipleOf": factor}).is_valid(value) is multiple
    oas30 = validator_class_at("openapi", "3.0.3", None)
    assert oas30({"multipleOf": factor}).is_valid(value) is multiple


def test_a_default_that_is_a_decimal_multiple_is_not_reported(make_corpus: MakeCorpus) -> None:
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "score": {"type": "number", "multipleOf": 0.1, "default": 2.9},
            "ratio": {"type": "number", "multipleOf": 0.1, "default": 2.95},
        },
    }
    root = make_corpus({"schemas/score.json": json.dumps(body, indent=2) + "\n"})
    found = list(all_rules()["value-invalid"].check(Context.load(root), {}))
    assert [f.location.pointer for f in found] == ["/properties/ratio/default"]
