"""A server-emitted discriminator (an event `type`, a `kind`) that is a closed enum while the corpus says to ignore unknown values.

What it does
    Finds the *ignore-unknown policy statements* of the corpus: sentences in the Markdown prose,
    or in a schema's own ``description``, that tell readers to ignore (tolerate, treat as opaque,
    not throw on) unknown or unrecognised *types* or *kinds* — "Clients MUST ignore unknown event
    types". Each statement names a discriminator (``type`` or ``kind``) and, usually, what it
    discriminates ("event").

    Then, for every server-emitted object shape (see ``speclint roles``) whose name (file,
    ``title``, ``$defs`` key, or the name of the discriminator's own schema) matches what the
    statement discriminates, it checks the discriminator property: if its schema admits only a
    closed set of values (an ``enum``, or an ``anyOf``/``oneOf`` of ``const``/``enum``
    alternatives), a schema-validating client rejects exactly the events the policy tells it to
    ignore. A statement with no qualifier ("ignore unknown types") binds only the schema whose
    own ``description`` makes it.

    The fixed form (RFC 0094 §C) passes: ``anyOf: [<the enum>, {pattern: <vendor prefix>}]`` (or
    any alternative that admits values outside the enum), on an open event object
    (``closure-policy`` checks the object).

Why is this bad?
    RFC 0094 §C: OpenWOP's ``RunEventType`` was a closed enum while COMPATIBILITY.md ordered
    clients to ignore unknown event types and hosts to add event types in minor releases. Every
    additive or vendor event made a validating client throw instead of skipping the event: the
    schema contradicted the compatibility promise it was published under.

Example
    ::

        # COMPATIBILITY.md: "Clients MUST ignore unknown event types."
        # schemas/run-event.schema.json (emitted on the event stream)
        "type": {"enum": ["run.started", "run.completed", "run.failed"]}

    FAIL: ``error [closed-event-union] `type` of server-emitted `schemas/run-event.schema.json`
    is a closed enum of 3 values, but COMPATIBILITY.md says to ignore unknown event types ...``

Use instead
    ::

        "type": {"anyOf": [
          {"enum": ["run.started", "run.completed", "run.failed"]},
          {"type": "string", "pattern": "^x-[a-z0-9-]+\\\\."}
        ]}

    PASS.

Options
    ``fields`` (default none): discriminator locations the policy applies to whatever the prose
    says, as ``file#pointer`` of the property (``"schemas/run-event.schema.json#/properties/type"``).

    ``vendor-pattern`` (default ``^x-[a-z0-9-]+\\.``): the pattern the suggested fix uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.corpus import Corpus, DocumentKind
from speclint.findings import Finding, Location, Severity
from speclint.shapes import Site, closed_values, follow, is_object_shape, named_shapes, use_sites
from speclint.structured import join_pointer, split_pointer

ID = "closed-event-union"
SEVERITY = Severity.ERROR
DEFAULT_VENDOR_PATTERN = r"^x-[a-z0-9-]+\."
SHOWN_STATEMENTS = 3

_UNKNOWN = re.compile(
    r"\b(?:unknown|unrecogni[sz]ed|unexpected)\s+((?:[A-Za-z][\w-]*\s+){0,2}?)(types?|kinds?)\b",
    re.IGNORECASE,
)
_TOLERANT = re.compile(
    r"\b(?:ignor\w*|opaque|skip\w*|tolerat\w*|must\s+not\s+(?:throw|reject|fail)|"
    r"not\s+(?:throw|reject|fail)\b)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_`])")


@dataclass(frozen=True)
class Statement:
    """An ignore-unknown policy statement: "ignore unknown <qualifier> <discriminator>s"."""

    discriminator: str  # "type" | "kind"
    qualifier: str  # "event", or "" when the sentence names nothing
    text: str
    location: Location
    schema: tuple[str, str] | None = None  # made in this schema's own description


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    statements = list(policy_statements(corpus))
    configured = {str(f) for f in options.get("fields", ())}
    vendor = str(options.get("vendor-pattern", DEFAULT_VENDOR_PATTERN))
    seen: set[tuple[str, str]] = set()
    for shape in _server_shapes(corpus):
        properties = shape.node.get("properties")
        if not isinstance(properties, dict):
            continue
        for name in sorted(properties):
            field = Site(
                shape.document,
                join_pointer(join_pointer(shape.pointer, "properties"), name),
                properties[name],
            )
            closed = closed_values(corpus, field)
            if closed is None:
                continue
            values, holder, keyword = closed
            if len(values) < 2:
                continue  # one variant's `const`, not the union
            field_key = f"{field.document.path}#{field.pointer}"
            bound = sorted(
                (s for s in statements if _binds(s, name, shape, field, holder)),
                key=lambda s: (s.schema is None, s.location.path, s.location.line),
            )
            if not bound and field_key not in configured:
                continue
            key = (holder.document.path, join_pointer(holder.pointer, keyword))
            if key in seen:
                continue
            seen.add(key)
            yield _finding(corpus, name, shape, holder, keyword, values, bound, vendor)


def _finding(
    corpus: Corpus,
    name: str,
    shape: Site,
    holder: Site,
    keyword: str,
    values: list[Any],
    bound: list[Statement],
    vendor: str,
) -> Finding:
    where = f"`{shape.document.path}`" + (f" at `{shape.pointer}`" if shape.pointer else "")
    local = [s for s in bound if s.schema is not None]
    prose = [s for s in bound if s.schema is None]
    said_parts = []
    if local:
        said_parts.append(
            f'its own description tells readers to ignore unknown values ("{local[0].text}")'
        )
    if prose:
        first = prose[0]
        what = (
            f"{first.qualifier} {first.discriminator}s"
            if first.qualifier
            else f"{first.discriminator}s"
        )
        said_parts.append(
            f'{first.location.path}:{first.location.line} says to ignore unknown {what} ("{first.text}")'
        )
    said = (
        " and ".join(said_parts)
        if said_parts
        else "the configuration binds it to the ignore-unknown policy (`fields`)"
    )
    kind = "enum" if keyword == "enum" else f"`{keyword}` of closed alternatives"
    return Finding(
        ID,
        SEVERITY,
        f"`{name}` of server-emitted {where} is a closed {kind} of {len(values)} values, but "
        f"{said}: a client that validates rejects every new or vendor value instead of ignoring "
        f"it. Keep the list as the catalog and admit the rest: `anyOf: [{{enum: [...]}}, "
        f'{{type: string, pattern: "{vendor}"}}]`, on an open object',
        holder.at(keyword),
        related=(
            shape.location(note=f"the server-emitted shape whose `{name}` it is"),
            *(s.location for s in [*local[:1], *prose][:SHOWN_STATEMENTS]),
        ),
        key=f"{holder.pointer}/{keyword}",
    )


def _server_shapes(corpus: Corpus) -> Iterator[Site]:
    found: dict[tuple[str, str], Site] = {}
    for site in named_shapes(corpus):
        found[(site.document.path, site.pointer)] = site
    for use in use_sites(corpus):
        target = follow(corpus, use.site)
        found.setdefault((target.document.path, target.pointer), target)
    for (path, pointer), site in sorted(found.items()):
        if is_object_shape(site.node) and "server-emitted" in corpus.roles.roles_of(path, pointer):
            yield site


def _names(*sites: Site) -> str:
    """Words a statement's qualifier may match: file names, titles, pointer tokens."""
    words: list[str] = []
    for site in sites:
        words.append(site.document.path.rsplit("/", 1)[-1])
        words += split_pointer(site.pointer)
        if isinstance(site.node, dict) and isinstance(site.node.get("title"), str):
            words.append(site.node["title"])
        root = site.document.data
        if isinstance(root, dict) and isinstance(root.get("title"), str):
            words.append(root["title"])
    return " ".join(words).lower()


def _binds(statement: Statement, name: str, shape: Site, field: Site, holder: Site) -> bool:
    if statement.discriminator != name.lower():
        return False
    if statement.schema is not None:
        # A statement in a schema's own description binds that schema (and what it describes).
        local = {(s.document.path, s.pointer) for s in (shape, field, holder)}
        return statement.schema in local
    if not statement.qualifier:
        return False
    return statement.qualifier in _names(shape, holder)


def policy_statements(corpus: Corpus) -> Iterator[Statement]:
    """Every ignore-unknown statement in the prose and in schema descriptions."""
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        prose = document.prose
        if prose is None:
            continue
        for paragraph in prose.paragraphs:
            for sentence in _SENTENCE.split(" ".join(paragraph.plain.split())):
                for statement in _parse(sentence):
                    anchor = f"#{paragraph.heading.anchor}" if paragraph.heading else ""
                    yield Statement(
                        statement[0],
                        statement[1],
                        _clip(sentence),
                        Location(
                            document.path,
                            paragraph.line,
                            1,
                            pointer=anchor,
                            note="the ignore-unknown policy",
                        ),
                    )
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        for pointer, text in _descriptions(document.data, ""):
            for sentence in _SENTENCE.split(" ".join(text.split())):
                for discriminator, qualifier in _parse(sentence):
                    yield Statement(
                        discriminator,
                        qualifier,
                        _clip(sentence),
                        document.location(
                            join_pointer(pointer, "description"),
                            note="the ignore-unknown policy, in the schema's own description",
                        ),
                        schema=(document.path, pointer),
                    )


def _parse(sentence: str) -> Iterator[tuple[str, str]]:
    if not _TOLERANT.search(sentence):
        return
    for match in _UNKNOWN.finditer(sentence):
        words = match.group(1).split()
        qualifier = words[-1].lower() if words else ""
        discriminator = match.group(2).lower().rstrip("s")
        yield discriminator, qualifier


def _descriptions(node: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            yield pointer, node["description"]
        for key, child in node.items():
            if key not in {"enum", "const", "examples", "default", "description"}:
                yield from _descriptions(child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _descriptions(child, join_pointer(pointer, index))


def _clip(sentence: str) -> str:
    return sentence if len(sentence) <= 200 else sentence[:197].rsplit(" ", 1)[0] + " ..."
