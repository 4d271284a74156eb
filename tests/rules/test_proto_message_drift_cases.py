"""proto-message-drift: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PROTO = """\
syntax = "proto3";
package shop.v1;

message Order {
  string id = 1;
  string customer_id = 2;
  int32 quantity = 3;
  string note = 4;
}
"""


def _schemas(order: dict[str, Any], **more: Any) -> str:
    return json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"Order": order, **more},
        },
        indent=2,
    )


REST = {
    "type": "object",
    "properties": {
        "customerId": {"type": "string"},
        "quantity": {"type": "integer"},
        "note": {"type": "string"},
    },
}


def test_proto_message_drift_skips_a_definition_whose_properties_reach_another_document(
    make_corpus: MakeCorpus,
) -> None:
    # `id` may come from the other document: the definition's fields cannot all be known
    order = {"allOf": [{"$ref": "common.json#/definitions/Base"}, REST]}
    root = make_corpus({"proto/shop.proto": PROTO, "json/shop.json": _schemas(order)})
    assert run_rule(root, "proto-message-drift", {}) == []
    # the control: the same branch kept in the document is read, and `id` is missing from it
    order = {"allOf": [{"$ref": "#/definitions/Base"}, REST]}
    base = {"type": "object", "properties": {"key": {"type": "string"}}}
    (root / "json/shop.json").write_text(_schemas(order, Base=base))
    [found] = run_rule(root, "proto-message-drift", {})
    assert "`id` only in the proto" in found.message


def test_proto_message_drift_does_not_compare_required(make_corpus: MakeCorpus) -> None:
    # every proto3 field is optional on the wire: a `required` list is the JSON surface's promise
    order = json.loads(json.dumps(REST))
    order["properties"]["id"] = {"type": "string"}
    order["required"] = ["id", "customerId", "quantity"]
    root = make_corpus({"proto/shop.proto": PROTO, "json/shop.json": _schemas(order)})
    assert run_rule(root, "proto-message-drift", {}) == []
