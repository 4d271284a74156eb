"""message-enum-drift: AsyncAPI message names against the event-type enum and their payloads."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

EVENT_TYPES = ["run.started", "run.completed", "run.failed", "node.completed"]


def asyncapi(names: list[str], payload_type: str | None = None) -> str:
    lines = [
        "asyncapi: 3.0.0",
        "info: {title: Events, version: 1.0.0}",
        "channels:",
        "  runEvents:",
        "    address: /runs/{runId}/events",
        "    messages:",
    ]
    for index, _ in enumerate(names):
        lines.append(f"      m{index}: {{$ref: '#/components/messages/M{index}'}}")
    lines += ["components:", "  messages:"]
    for index, name in enumerate(names):
        lines += [f"    M{index}:", f"      name: {name}"]
        if index == 0 and payload_type is not None:
            lines += [
                "      payload:",
                "        type: object",
                f"        properties: {{type: {{const: {payload_type}}}}}",
            ]
    return "\n".join(lines) + "\n"


def findings(root: Path, options: dict[str, object] | None = None) -> list[Finding]:
    return sorted(
        all_rules()["message-enum-drift"].check(Context.load(root), options or {}),
        key=lambda f: (f.location.path, f.location.line),
    )


def corpus_files(names: list[str], payload_type: str | None = None) -> dict[str, str | bytes]:
    return {
        "api/asyncapi.yaml": asyncapi(names, payload_type),
        "schemas/run-event.schema.json": schema(
            **{"$defs": {"RunEventType": {"type": "string", "enum": EVENT_TYPES}}}
        ),
    }


def test_a_message_the_inferred_enum_lacks_and_values_without_messages(
    make_corpus: MakeCorpus,
) -> None:
    """One way at a time: a message the enum lacks is a finding at the message, the enum's
    values without a message one finding at the enum."""
    names = ["run.started", "run.completed", "run.failed", "run.annotated"]
    root = make_corpus(corpus_files(names))
    [message] = findings(root, {"undescribed": False})
    assert message.location.path == "api/asyncapi.yaml"
    assert message.location.pointer == "/channels/runEvents/messages/m3"
    assert "`run.annotated`" in message.message and "inferred" in message.message
    assert message.related[0].pointer == "/$defs/RunEventType"
    (root / "api/asyncapi.yaml").write_text(asyncapi(names[:3]))
    [undescribed] = findings(root)
    assert undescribed.location.pointer == "/$defs/RunEventType/enum"
    assert "`node.completed`" in undescribed.message
    assert undescribed.related[0].pointer == "/channels/runEvents"
    (root / "api/asyncapi.yaml").write_text(asyncapi(EVENT_TYPES))
    assert findings(root) == []


def test_a_drift_both_ways_is_one_finding_at_the_enum(make_corpus: MakeCorpus) -> None:
    """A message the enum lacks and an enum value no message names (an event renamed on one
    side) is one drift (issue 48): one finding at the enum, with the fingerprint it has when
    only its values lack messages, the message related and a member with the fingerprint its
    own finding had, and a value x side table."""
    names = ["run.started", "run.completed", "run.failed", "run.annotated"]
    root = make_corpus(corpus_files(names))
    [drift] = findings(root)
    assert drift.location.pointer == "/$defs/RunEventType/enum"
    assert "`run.annotated`" in drift.message and "`node.completed`" in drift.message
    assert [r.pointer for r in drift.related] == [
        "/channels/runEvents/messages/m3",
        "/channels/runEvents",
    ]
    assert drift.table is not None
    assert drift.table.headers == (
        "value",
        "schemas/run-event.schema.json#/$defs/RunEventType",
        "api/asyncapi.yaml",
    )
    assert drift.table.rows == (
        ("run.annotated", "missing", "present"),
        ("node.completed", "present", "missing"),
    )
    [message] = findings(root, {"undescribed": False})
    at_enum, at_message = drift.members
    assert drift.at(at_message).fingerprint == message.fingerprint
    assert drift.at(at_message).location == message.location
    (root / "api/asyncapi.yaml").write_text(asyncapi(names[:3]))
    [undescribed] = findings(root)
    assert drift.fingerprint == drift.at(at_enum).fingerprint == undescribed.fingerprint


def test_too_few_shared_names_bind_nothing(make_corpus: MakeCorpus) -> None:
    """Two of four names in the enum: the channel may carry another family of events."""
    root = make_corpus(corpus_files(["run.started", "run.failed", "chat.opened", "chat.closed"]))
    assert findings(root) == []


def test_a_configured_binding_is_an_error_and_needs_no_majority(make_corpus: MakeCorpus) -> None:
    root = make_corpus(corpus_files(["run.started", "chat.opened"]))
    options = {"enums": {"runEvents": "schemas/run-event.schema.json#/$defs/RunEventType"}}
    [found] = findings(root, options)
    assert found.severity is Severity.ERROR
    assert "`chat.opened`" in found.message and "configured" in found.message
    assert findings(root, {**options, "undescribed": False})[0].location.path == (
        "api/asyncapi.yaml"
    )


def test_a_payload_discriminator_that_names_another_event(make_corpus: MakeCorpus) -> None:
    root = make_corpus(corpus_files(EVENT_TYPES, payload_type="run.begun"))
    [finding] = findings(root)
    assert finding.location.pointer == "/components/messages/M0/name"
    assert "`run.begun`" in finding.message
    assert finding.related[0].pointer.endswith("/properties/type/const")
    (root / "api/asyncapi.yaml").write_text(asyncapi(EVENT_TYPES, payload_type="run.started"))
    assert findings(root) == []


def test_a_payload_discriminator_is_a_warning_unless_configured(make_corpus: MakeCorpus) -> None:
    # The documented default is a warning (a message name is not sent on the wire); a
    # configured discriminator binds the name to the payload, as a configured enum does.
    root = make_corpus(corpus_files(EVENT_TYPES, payload_type="run.begun"))
    assert [f.severity for f in findings(root)] == [Severity.WARNING]
    configured = findings(root, {"discriminator": "type"})
    assert [f.severity for f in configured] == [Severity.ERROR]


MakeCorpus = Callable[[dict[str, str | bytes]], Path]

EVENT_TYPES = ["run.started", "run.completed", "run.failed", "node.completed"]
ENUM_FILE = "schemas/run-event.schema.json"


def unsorted_findings(root: Path) -> list[Finding]:
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
    assert unsorted_findings(make_corpus(corpus(asyncapi_3({"runEvents": messages})))) == []
    messages["RunAnnotated"] = {"name": "run.annotated"}
    [finding] = unsorted_findings(make_corpus(corpus(asyncapi_3({"runEvents": messages}))))
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
    assert unsorted_findings(make_corpus(corpus(asyncapi_3(channels)))) == []
    del channels["nodeEvents"]
    [undescribed] = unsorted_findings(make_corpus(corpus(asyncapi_3(channels))))
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
    found = unsorted_findings(make_corpus(corpus(document)))
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
    [finding] = unsorted_findings(make_corpus(corpus(asyncapi_3({"runEvents": messages}))))
    assert "`run.begun`" in finding.message
    assert finding.related[0].pointer.endswith("/properties/type/enum")
