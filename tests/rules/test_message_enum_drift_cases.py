"""message-enum-drift: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

EVENT_TYPES = ["run.started", "run.completed", "run.failed", "node.completed"]
ENUM_FILE = "schemas/run-event.schema.json"


def findings(root: Path) -> list[Finding]:
    return list(all_rules()["message-enum-drift"].check(Context.load(root), {}))


def corpus(document: dict[str, object]) -> dict[str, str | bytes]:
    return {
        "api/asyncapi.json": json.dumps(document, indent=2),
        ENUM_FILE: schema(**{"$defs": {"RunEventType": {"type": "string", "enum": EVENT_TYPES}}}),
    }


def asyncapi_3(channels: dict[str, dict[str, dict[str, object]]]) -> dict[str, object]:
    """An AsyncAPI 3.0 document whose channels hold their messages inline."""
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Events", "version": "1.0.0"},
        "channels": {
            channel: {"address": f"/{channel}", "messages": messages}
            for channel, messages in channels.items()
        },
    }


def test_message_enum_drift_skips_a_message_with_neither_name_nor_message_id(
    make_corpus: MakeCorpus,
) -> None:
    # A component key such as `RunAnnotated` is no wire value: without a `name` the message
    # names no event, so the enum is not said to lack it.
    messages: dict[str, dict[str, object]] = {
        f"m{i}": {"name": n} for i, n in enumerate(EVENT_TYPES)
    }
    messages["RunAnnotated"] = {"payload": {"type": "object"}}
    assert findings(make_corpus(corpus(asyncapi_3({"runEvents": messages})))) == []
    messages["RunAnnotated"] = {"name": "run.annotated"}
    [finding] = findings(make_corpus(corpus(asyncapi_3({"runEvents": messages}))))
    assert "`run.annotated`" in finding.message


def test_message_enum_drift_counts_a_value_another_channel_names_as_described(
    make_corpus: MakeCorpus,
) -> None:
    # `runEvents` binds the enum (three of its names); `nodeEvents`, one message, binds
    # nothing, but the value its message names is described by the document all the same.
    channels = {
        "runEvents": {f"m{i}": {"name": n} for i, n in enumerate(EVENT_TYPES[:3])},
        "nodeEvents": {"done": {"name": "node.completed"}},
    }
    assert findings(make_corpus(corpus(asyncapi_3(channels)))) == []
    del channels["nodeEvents"]
    [undescribed] = findings(make_corpus(corpus(asyncapi_3(channels))))
    assert undescribed.location.path == ENUM_FILE
    assert "`node.completed`" in undescribed.message


def test_message_enum_drift_reads_an_asyncapi_2_operation_s_one_of_and_message_ids(
    make_corpus: MakeCorpus,
) -> None:
    one_of = [{"name": n} for n in EVENT_TYPES[1:]] + [{"messageId": "run.annotated"}]
    document = {
        "asyncapi": "2.6.0",
        "info": {"title": "Events", "version": "1.0.0"},
        "channels": {"runs": {"subscribe": {"message": {"oneOf": one_of}}}},
    }
    found = findings(make_corpus(corpus(document)))
    assert found, "the 2.x messages were not read"
    assert any("`run.annotated`" in f.message for f in found)
    assert all(f.location.path in {"api/asyncapi.json", ENUM_FILE} for f in found)


def test_message_enum_drift_reads_a_one_value_enum_as_the_payload_s_discriminator(
    make_corpus: MakeCorpus,
) -> None:
    payload = {"type": "object", "properties": {"type": {"enum": ["run.begun"]}}}
    messages: dict[str, dict[str, object]] = {
        "started": {"name": "run.started", "payload": payload}
    }
    [finding] = findings(make_corpus(corpus(asyncapi_3({"runEvents": messages}))))
    assert "`run.begun`" in finding.message
    assert finding.related[0].pointer.endswith("/properties/type/enum")
