"""AsyncAPI message names that disagree with the event-type enum they belong to, or with their
own payload's discriminator.

What it does
    Reads each AsyncAPI document's messages by channel (3.x ``channels.<c>.messages``, 2.x the
    ``publish``/``subscribe`` message and its ``oneOf``, through ``$ref``\\s), each by its
    ``name`` (2.x also ``messageId``). Then:

    - **the payload's discriminator**: a payload declaring the discriminator property (option
      ``discriminator``) with a ``const`` or one-value ``enum`` must equal the message name
      (``run.started`` against ``run.begun`` is two names for one event);
    - **the event-type enum**: a channel's message names are bound to one string enum, by
      configuration (``enums``) or inferred where one enum holds at least three of them and three
      quarters, and no other as many. Each name the enum lacks is a finding at the message; enum
      values no message names, one finding at the enum; both (an event renamed on one side), one
      finding at the enum with a value x side table.

Why is this bad?
    Receivers validate each event's ``type`` against the event-type enum; code and brokers are built
    from the AsyncAPI document. A message the enum lacks fails validation when sent; an enum value
    no message describes is an event with an undocumented payload.

Example
    ::

        channels:
          runEvents:
            messages:
              runStarted: {$ref: '#/components/messages/RunStarted'}    # name: run.started
              runAnnotated: {$ref: '#/components/messages/RunAnnotated'} # name: run.annotated
        # schemas/run-event.schema.json: "RunEventType": {"enum": ["run.started", "run.failed", ...]}

    FAIL: ``warning [message-enum-drift] `...#/$defs/RunEventType` lacks `run.annotated`, which 1
    message of `api/asyncapi.yaml` names ...``

Use instead
    Add ``run.annotated`` to ``RunEventType`` (and a message for ``run.failed``). PASS.

Options
    ``enums`` (default none): ``{"<channel>" | "*" = "schema.json#/pointer"}``; a configured binding
    is an ``error``, an inferred one a ``warning``. ``discriminator`` (default ``"type"``): the
    payload property whose ``const`` names the event; a mismatch is a ``warning`` (a ``name`` is not
    sent on the wire), an ``error`` when configured. ``infer`` (default ``true``): bind channels to
    enums by shared values. ``undescribed`` (default ``true``): report enum values no message names.

Limitations
    A message with neither ``name`` nor ``messageId`` is skipped (a component key is no wire
    value). Schemas of another version line are not bound (``speclint.parsing.versions``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import schema_objects
from speclint.analyses.schemas.shapes import Site, follow
from speclint.common.findings import (
    Finding,
    Location,
    Member,
    Severity,
    as_written,
    bounded_related,
    first_fitting,
    left_out,
    presence_table,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

ID = "message-enum-drift"
SEVERITY = Severity.WARNING
FACTS = ("derived", "references")  # speclint.analyses.context
READS = "structured"

MIN_SHARED = 3  # message names an enum must hold to be inferred as the channel's event types
MIN_SHARE = 0.75  # ... and this share of the channel's names
_SHOWN = 8
# Related locations a finding carries at most (enum-drift's bound): its message counts the rest.
RELATED_LIMIT = 50


@dataclass(frozen=True)
class Message:
    name: str
    channel: str
    pointer: str  # where the message is used (the channel's entry)
    definition: str  # where it is defined (after a `$ref`)


@dataclass(frozen=True)
class EventEnum:
    site: Site
    values: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.site.document.path}#{self.site.pointer}"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    configured = {str(k): str(v) for k, v in dict(options.get("enums", {})).items()}
    discriminator = str(options.get("discriminator", "type"))
    # A message's `name` is a label of the document, not sent on the wire: a payload whose
    # default `type` differs from it is a warning; naming the property in the configuration
    # makes it the event's wire name, as a configured enum binding does (an error).
    named_severity = Severity.ERROR if "discriminator" in options else SEVERITY
    infer = bool(options.get("infer", True))
    undescribed = bool(options.get("undescribed", True))
    enums: list[EventEnum] | None = None
    for document in corpus.of_kind(DocumentKind.ASYNCAPI):
        messages = list(_messages(document))
        yield from _discriminators(corpus, document, messages, discriminator, named_severity)
        by_channel: dict[str, list[Message]] = {}
        for message in messages:
            by_channel.setdefault(message.channel, []).append(message)
        bound: dict[str, tuple[EventEnum, str]] = {}
        for channel, members in sorted(by_channel.items()):
            target = configured.get(channel, configured.get("*"))
            if target is not None:
                event_enum = _configured_enum(corpus, target)
                if event_enum is not None:
                    bound[channel] = (event_enum, f"configured: `{target}`")
                continue
            if not infer or len({m.name for m in members}) < 2:
                continue
            if enums is None:
                enums = list(_corpus_enums(corpus))
            inferred = _infer(corpus, document, members, enums)
            if inferred is not None:
                bound[channel] = inferred
        named = {m.name for m in messages}
        # Per enum, in the order first bound: the messages it lacks (each with its channel's
        # severity and binding) and the channel it was first bound by.
        drifts: dict[str, tuple[EventEnum, str, str, Severity, list[tuple[Message, Severity]]]] = {}
        for channel, (event_enum, why) in sorted(bound.items()):
            severity = Severity.ERROR if why.startswith("configured") else SEVERITY
            drift = drifts.setdefault(event_enum.label, (event_enum, channel, why, severity, []))
            drift[4].extend(
                (message, severity)
                for message in by_channel[channel]
                if message.name not in event_enum.values
            )
        for event_enum, channel, why, severity, lacking in drifts.values():
            missing = [v for v in event_enum.values if v not in named] if undescribed else []
            if lacking and missing:
                # Both ways (issue 48): one drift, one finding at the enum.
                yield _both_ways(
                    document, event_enum, channel, why, severity, lacking, missing, named
                )
                continue
            for message, message_severity in lacking:
                yield _lacking(document, event_enum, why, message, message_severity)
            if missing:
                yield _undescribed(document, event_enum, channel, why, severity, missing)


def _lacking(
    document: Document, event_enum: EventEnum, why: str, message: Message, severity: Severity
) -> Finding:
    """A message whose name the event-type enum lacks: at the message, the enum related."""
    fix = "add it to the enum, or rename the message to the event type it carries"
    channel = message.channel
    return Finding(
        ID,
        severity,
        first_fitting(
            f"message `{message.name}` on channel `{channel}` is not a value of "
            f"`{event_enum.label}` ({why}): {fix}",
            f"message `{message.name}` on channel `{channel}` is not a value of "
            f"`{event_enum.label}` ({why.split(':')[0]}): {fix}",
            f"message `{message.name}` is not a value of `{event_enum.label}` "
            f"({why.split(':')[0]}): {fix}",
            f"message `{message.name}` is not a value of the event-type enum "
            f"({why.split(':')[0]}): {fix}",
            f"message `{message.name}` is not a value of the event-type enum: {fix}",
        ),
        document.location(message.pointer),
        related=(
            event_enum.site.document.location(
                event_enum.site.pointer, note=f"the event-type enum ({why})"
            ),
        ),
        key=f"{channel}:{message.name}",
    )


_DESCRIBE = "describe each event with a message (its payload), or remove the values no host sends"


def _undescribed(
    document: Document,
    event_enum: EventEnum,
    channel: str,
    why: str,
    severity: Severity,
    missing: list[str],
) -> Finding:
    """The enum's values no message of ``document`` names: one finding at the enum."""
    return Finding(
        ID,
        severity,
        first_fitting(
            f"{len(missing)} value(s) of this event-type enum have no message in "
            f"`{document.path}`: {_quote(missing)}; {_DESCRIBE}",
            f"{len(missing)} value(s) of this event-type enum have no message in "
            f"`{document.path}` (see the related location); {_DESCRIBE}",
            f"{len(missing)} value(s) of this event-type enum have no message (see "
            "the related location)",
        ),
        event_enum.site.document.location(_enum_pointer(event_enum.site)),
        related=(_channel_place(document, channel, why, missing),),
        key=f"undescribed:{document.path}",
    )


def _both_ways(
    document: Document,
    event_enum: EventEnum,
    channel: str,
    why: str,
    severity: Severity,
    lacking: list[tuple[Message, Severity]],
    missing: list[str],
    named: set[str],
) -> Finding:
    """Messages the enum lacks and values no message names (an event renamed on one side): one
    finding at the enum with the fingerprint of its values without messages, each message
    related and a member with the key of the finding it has alone (so waivers, baselines and
    the gate still match it there), and a value x side table, as enum-drift's two-way drift."""
    # in the document's order, as the messages are read
    lacking = sorted(lacking, key=lambda item: document.location(item[0].pointer))
    names = list(dict.fromkeys(message.name for message, _ in lacking))
    count = len(lacking)
    messages = f"{count} message{'s' if count > 1 else ''} of `{document.path}`"
    fix = (
        "add each name to the enum or rename its message to the event type it carries, and "
        + _DESCRIBE
    )
    candidates = [
        f"{label} lacks {_quote(names, shown)}, which {messages} name{'' if count > 1 else 's'}"
        f"{tag}, and {len(missing)} of its values {'has' if len(missing) == 1 else 'have'} no "
        f"message there: {_quote(missing, shown)}; {fix}"
        for shown in (_SHOWN, 3, 1)
        for tag in (f" ({why})", f" ({why.split(':')[0]})")
        for label in (f"`{event_enum.label}`", "the event-type enum")
    ]
    places = [
        document.location(
            message.pointer,
            note=f"message `{message.name}` on channel `{message.channel}`, which the enum lacks",
        )
        for message, _ in lacking
    ]
    related, unlisted = bounded_related(
        (places[:RELATED_LIMIT], len(places)),
        ([_channel_place(document, channel, why, missing)], 1),
        room=RELATED_LIMIT,
    )
    enum_place = event_enum.site.document.location(_enum_pointer(event_enum.site))
    members = (
        Member(enum_place, f"undescribed:{document.path}"),
        *(
            Member(place, f"{message.channel}:{message.name}")
            for place, (message, _) in zip(places, lacking, strict=True)
        ),
    )
    return Finding(
        ID,
        max([severity, *(s for _, s in lacking)]),
        first_fitting(*candidates) + left_out(len(related), unlisted),
        enum_place,
        related=related,
        key=f"undescribed:{document.path}",
        members=members,
        table=presence_table(
            names + missing,
            [(event_enum.label, set(event_enum.values)), (document.path, named)],
        ),
    )


def _channel_place(document: Document, channel: str, why: str, missing: list[str]) -> Location:
    every = ", ".join(f"`{v}`" for v in missing)
    return document.location(
        join_pointer("/channels", channel),
        note=f"the channel bound to this enum ({why}); no message for {every}",
    )


def _quote(values: list[str], shown: int = _SHOWN) -> str:
    text = ", ".join(f"`{v}`" for v in values[:shown])
    return text + (f" and {len(values) - shown} more" if len(values) > shown else "")


def _messages(document: Document) -> Iterator[Message]:
    data = document.data if isinstance(document.data, dict) else {}
    listed_channels = data.get("channels")
    channels: dict[str, Any] = listed_channels if isinstance(listed_channels, dict) else {}
    version = str(data.get("asyncapi", ""))
    for channel, item in sorted(channels.items()):
        if not isinstance(item, dict):
            continue
        at = join_pointer("/channels", channel)
        entries: list[tuple[str, Any]] = []
        if version.startswith("2."):
            # 2.x: an operation's message, or a `oneOf` of them (2.6.0 §4.3.4).
            for verb in ("publish", "subscribe"):
                operation = item.get(verb)
                message = operation.get("message") if isinstance(operation, dict) else None
                here = join_pointer(join_pointer(at, verb), "message")
                options = message.get("oneOf") if isinstance(message, dict) else None
                if isinstance(options, list):
                    entries += [
                        (join_pointer(join_pointer(here, "oneOf"), i), m)
                        for i, m in enumerate(options)
                    ]
                elif message is not None:
                    entries.append((here, message))
        else:
            listed = item.get("messages")
            for key, message in sorted(listed.items()) if isinstance(listed, dict) else ():
                entries.append((join_pointer(join_pointer(at, "messages"), key), message))
        for pointer, message in entries:
            definition, node = _local(document, pointer, message)
            if not isinstance(node, dict):
                continue
            name = node.get("name", node.get("messageId") if version.startswith("2.") else None)
            if isinstance(name, str) and name:
                yield Message(name, str(channel), pointer, definition)


def _local(document: Document, pointer: str, node: Any) -> tuple[str, Any]:
    """Follow same-document ``$ref``\\s (``#/components/messages/X``), a few hops at most."""
    for _ in range(8):
        reference = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(reference, str) or not reference.startswith("#/"):
            break
        pointer = reference[1:]
        node = resolve_pointer(document.data, pointer)
    return pointer, node


def _discriminators(
    corpus: Context,
    document: Document,
    messages: list[Message],
    discriminator: str,
    severity: Severity,
) -> Iterator[Finding]:
    seen: set[str] = set()
    for message in messages:
        if message.definition in seen:
            continue
        seen.add(message.definition)
        payload_at = join_pointer(message.definition, "payload")
        site = follow(
            corpus, Site(document, payload_at, resolve_pointer(document.data, payload_at))
        )
        tagged = _tag(corpus, site, discriminator)
        if tagged is None or tagged[0] == message.name:
            continue
        value, where = tagged
        yield Finding(
            ID,
            severity,
            f"message `{message.name}` carries a payload whose `{discriminator}` is always "
            f"`{value}`: one event with two names; make the message name and the payload's "
            f"`{discriminator}` the same event type",
            document.location(join_pointer(message.definition, "name")),
            related=(
                where.document.location(where.pointer, note=f"the payload's `{discriminator}`"),
            ),
            key=f"discriminator:{message.definition}",
        )


def _tag(corpus: Context, site: Site, discriminator: str) -> tuple[str, Site] | None:
    """The one value the payload's discriminator may take, and where it is written."""
    node = site.node
    if not isinstance(node, dict):
        return None
    properties = node.get("properties")
    if not isinstance(properties, dict) or discriminator not in properties:
        return None
    at = join_pointer(join_pointer(site.pointer, "properties"), discriminator)
    target = follow(corpus, Site(site.document, at, properties[discriminator]))
    declared = target.node if isinstance(target.node, dict) else {}
    if isinstance(declared.get("const"), str):
        return declared["const"], Site(
            target.document, join_pointer(target.pointer, "const"), declared["const"]
        )
    values = declared.get("enum")
    if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str):
        return values[0], Site(target.document, join_pointer(target.pointer, "enum"), values)
    return None


def _corpus_enums(corpus: Context) -> Iterator[EventEnum]:
    """Every string enum of three or more values in the corpus's schema files."""

    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in corpus.derived:
            continue
        for schema in schema_objects(document):
            values = schema.node.get("enum")
            if (
                isinstance(values, list)
                and len(values) >= MIN_SHARED
                and all(isinstance(v, str) for v in values)
            ):
                yield EventEnum(Site(document, schema.pointer, schema.node), tuple(values))


def _infer(
    corpus: Context, document: Document, members: list[Message], enums: list[EventEnum]
) -> tuple[EventEnum, str] | None:
    names = {m.name for m in members}
    scored: list[tuple[int, EventEnum]] = []
    for event_enum in enums:
        if not corpus.versions.comparable(document.path, event_enum.site.document.path):
            continue
        shared = len(names & set(event_enum.values))
        if shared >= MIN_SHARED and shared / len(names) >= MIN_SHARE:
            scored.append((shared, event_enum))
    if not scored:
        return None
    scored.sort(key=lambda item: (-item[0], item[1].label))
    best = scored[0]
    if (
        len(scored) > 1
        and scored[1][0] == best[0]
        and set(scored[1][1].values) != set(best[1].values)
    ):
        return None  # two different enums fit as well: which one is meant is a guess
    shared = best[0]
    return best[1], (
        f"inferred: it holds {shared} of the channel's {len(names)} message names; configure "
        "`enums` to bind it for certain"
    )


def _configured_enum(corpus: Context, target: str) -> EventEnum | None:
    path, _, pointer = target.partition("#")
    document = corpus.documents.get(path)
    if document is None or not document.usable:
        return None
    site = follow(corpus, Site(document, pointer, resolve_pointer(document.data, pointer)))
    values = site.node.get("enum") if isinstance(site.node, dict) else None
    if not isinstance(values, list):
        return None
    return EventEnum(site, tuple(as_written(v) for v in values))


def _enum_pointer(site: Site) -> str:
    return join_pointer(site.pointer, "enum")
