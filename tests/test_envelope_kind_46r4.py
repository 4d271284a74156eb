"""example-invalid/envelope-kind (issue 46, round 4): an envelope whose payload member is open
(`"data": {"type": "object"}`), its payload's schema named by the kind the example gives
(`"kind": "ping"` and `ping.schema.json`), validates the payload against that schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def envelope(data: dict[str, Any] | None = None) -> str:
    return schema(
        type="object",
        properties={
            "metadata": {
                "type": "object",
                "properties": {"kind": {"type": "string", "enum": ["ping", "pong"]}},
                "required": ["kind"],
            },
            "data": data or {"type": "object", "description": "The message's content"},
        },
        required=["metadata", "data"],
        additionalProperties=False,
    )


PING = schema(
    type="object",
    properties={"seq": {"type": "integer"}},
    required=["seq"],
    additionalProperties=False,
)


def page(data: dict[str, Any], kind: str = "ping") -> str:
    example = json.dumps({"metadata": {"kind": kind}, "data": data}, indent=2)
    return f"# Messages\n\n<!-- schema: schemas/message.schema.json -->\n```json\n{example}\n```\n"


def findings(make_corpus: MakeCorpus, files: dict[str, str | bytes]) -> list[tuple[str, int]]:
    root = make_corpus(files)
    return [
        (f.heuristic or "", f.location.line)
        for f in run_rule(root, "example-invalid")
        if f.location.path == "docs/messages.md"
    ]


def test_the_payload_is_held_to_the_schema_its_kind_names(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    # at `data`, whose member `sequence` its schema does not allow
    assert findings(make_corpus, files) == [("example-invalid/envelope-kind", 9)]


def test_a_payload_its_schema_accepts_is_no_finding(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"seq": 1}),
    }
    assert findings(make_corpus, files) == []


def test_a_kind_two_schemas_are_named_after_binds_nothing(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/v1/ping.schema.json": PING,
        "schemas/v2/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    assert findings(make_corpus, files) == []


def test_a_payload_the_envelope_describes_is_the_envelopes(make_corpus: MakeCorpus) -> None:
    # the envelope says what `data` is (a reference): its own validation judges it
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope({"$ref": "ping.schema.json"}),
        "schemas/ping.schema.json": PING,
        "docs/messages.md": page({"sequence": 1}),
    }
    assert "example-invalid/envelope-kind" not in [h for h, _ in findings(make_corpus, files)]
    assert findings(make_corpus, files) == [
        ("example-invalid/explicit", 9)
    ]  # judged, by the envelope


def test_a_kind_named_by_a_schemas_title_binds_too(make_corpus: MakeCorpus) -> None:
    titled = json.loads(PING) | {"title": "Pong"}
    files: dict[str, str | bytes] = {
        "schemas/message.schema.json": envelope(),
        "schemas/answer.schema.json": json.dumps(titled),
        "docs/messages.md": page({"seq": "one"}, kind="pong"),
    }
    assert findings(make_corpus, files) == [("example-invalid/envelope-kind", 10)]
