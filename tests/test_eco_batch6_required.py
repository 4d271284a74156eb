"""required-undeclared classes found at the first read of ecosystem batch 6 (issue 45)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_required_item_holding_a_comma_separated_list_is_said_to_be_one(
    make_corpus: MakeCorpus,
) -> None:
    """`required: ["accountId, created, updated"]` is one item: the message says a list was
    written as one name, and which of its names no property declares, not "declare
    `accountId, created, updated` in `properties`"."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"accountId": {"type": "string"}, "created": {"type": "string"}},
        "required": ["accountId, created, updated"],
    }
    root = make_corpus({"schemas/account.json": json.dumps(schema, indent=2)})
    result = run_cli("check", str(root), "--no-cache", "--quiet", "--format", "json")
    (finding,) = json.loads(result.output)["findings"]
    assert finding["rule"] == "required-undeclared"
    message = finding["message"]
    assert "one `required` item holding 3 comma-separated names" in message
    assert "declare `updated` in `properties`" in message
    assert "`accountId`," not in message.split("declare")[-1]
