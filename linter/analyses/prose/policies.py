"""Ignore-unknown policy statements: where a corpus tells clients to tolerate values it does not know.

A statement is a sentence, in the Markdown prose or in a schema's own ``description``, that tells
readers to ignore (tolerate, treat as opaque, not throw on) unknown or unrecognised *types* or
*kinds*: "Clients MUST ignore unknown event types". It names a discriminator (``type`` or ``kind``)
and usually what it discriminates (the qualifier, "event"). ``closed-event-union`` checks that such
discriminators are not closed enums; ``compat-claim`` counts a new value of a server-emitted
discriminator as additive only when a statement binds it (COMPATIBILITY.md-style "additive stream
messages are backward-safe" promises).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.shapes import Site
from speclint.analyses.units import kept_with_page
from speclint.common.findings import Location
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, split_pointer

_UNKNOWN = re.compile(
    r"\b(?:unknown|unrecogni[sz]ed|unexpected)\s+((?:[A-Za-z][\w-]*\s+){0,2}?)(types?|kinds?)\b",
    re.IGNORECASE,
)
_TOLERANT = re.compile(
    r"\b(?:ignor\w*|opaque|skip\w*|tolerat\w*|must\s+not\s+(?:throw|reject|fail)|"
    r"not\s+(?:throw|reject|fail)\b)",
    re.IGNORECASE,
)
# "Clients MUST ignore unknown enum values": every server-emitted enum may grow.
_ANY_VALUE = re.compile(r"\bunknown\s+(?:enum(?:eration)?\s+)?values\b", re.IGNORECASE)
ANY_FIELD = "*"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z*_`])")


@dataclass(frozen=True)
class Statement:
    """An ignore-unknown policy statement: "ignore unknown <qualifier> <discriminator>s"."""

    discriminator: str  # "type" | "kind" | ANY_FIELD ("ignore unknown enum values")
    qualifier: str  # "event", or "" when the sentence names nothing
    text: str
    location: Location
    schema: tuple[str, str] | None = None  # made in this schema's own description


def names_of(*sites: Site) -> str:
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


def binds(statement: Statement, name: str, shape: Site, field: Site, holder: Site) -> bool:
    if statement.discriminator != name.lower():
        return False
    if statement.schema is not None:
        # A statement in a schema's own description binds that schema (and what it describes).
        local = {(s.document.path, s.pointer) for s in (shape, field, holder)}
        return statement.schema in local
    if not statement.qualifier:
        return False
    return statement.qualifier in names_of(shape, holder)


def policy_statements(corpus: Context) -> Iterator[Statement]:
    """Every ignore-unknown statement in the prose and in schema descriptions."""
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        yield from page_statements(document)
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


def page_statements(document: Document) -> list[Statement]:
    """The ignore-unknown statements of one Markdown page: all that is read of the page (a rule
    keyed on it, ``READS = "extract"``, keeps its findings while they stay the same), kept
    with it (``speclint.analyses.units.kept_with_page``)."""
    return kept_with_page(document, "policies.statements", _page_statements, list[Statement])


def _page_statements(document: Document) -> list[Statement]:
    found: list[Statement] = []
    for paragraph in document.prose.paragraphs if document.prose is not None else ():
        flat = " ".join(paragraph.plain.split())
        # A statement needs a tolerant verb (`_parse`): most paragraphs have none, and a match
        # inside one of its sentences is a match in the whole paragraph.
        if not _TOLERANT.search(flat):
            continue
        for sentence in _SENTENCE.split(flat):
            for statement in _parse(sentence):
                anchor = f"#{paragraph.heading.anchor}" if paragraph.heading else ""
                found.append(
                    Statement(
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
                )
    return found


def _parse(sentence: str) -> Iterator[tuple[str, str]]:
    if not _TOLERANT.search(sentence):
        return
    for match in _UNKNOWN.finditer(sentence):
        words = match.group(1).split()
        qualifier = words[-1].lower() if words else ""
        discriminator = match.group(2).lower().rstrip("s")
        yield discriminator, qualifier
    if _ANY_VALUE.search(sentence):
        yield ANY_FIELD, ""


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
