"""An envelope's payload bound by the kind the envelope names (issue 46, round 4).

A message format often wraps every kind of message in one envelope schema: ``metadata`` with a
``kind``, and a ``data`` member the envelope leaves open (``{"type": "object"}``), each kind's
payload described by a schema of its own named after the kind (``orderstatus.schema.json`` for
``"kind": "orderstatus"``). The envelope schema cannot say which payload goes with which kind
(the implementations pick the schema by the kind), so an example that validates against the
envelope says nothing of its payload. :func:`payload_schema` reads the pairing as the
implementations do: a ``kind`` or ``type`` value of the example (at its top level or one member
down) that is the file stem or the title of exactly one schema of the corpus, which the envelope
does not reference, binds the envelope's open payload member to that schema.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.fences import SchemaTarget
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import resolve_pointer

# The members an envelope carries its payload in, and those that name the payload's kind.
PAYLOAD_MEMBERS = ("data", "payload", "body")
KIND_MEMBERS = ("kind", "type")
# What an open member's schema may say and still leave the payload open: its type and prose.
_OPEN_KEYWORDS = frozenset({"type", "description", "title", "$comment", "examples", "default"})
_SCHEMA_SUFFIX = re.compile(r"(?i)(?:\.schema)?\.(?:json|ya?ml)$")


@dataclass(frozen=True)
class PayloadBinding:
    """The envelope's open ``member``, bound to ``target`` by the value ``value`` at ``at``."""

    member: str
    target: SchemaTarget
    at: str  # where the kind is written in the example (`/metadata/kind`)
    value: str


def payload_schema(corpus: Context, envelope: SchemaTarget, instance: Any) -> PayloadBinding | None:
    """The schema the example's kind names for the envelope's open payload member, or None
    (no open member, no kind, a kind that names no schema or several, or one the envelope
    references itself)."""
    if not isinstance(instance, dict):
        return None
    node = _resolved(envelope)
    properties = node.get("properties") if isinstance(node, dict) else None
    if not isinstance(properties, dict):
        return None
    member = next(
        (
            name
            for name in PAYLOAD_MEMBERS
            if _open(properties.get(name)) and isinstance(instance.get(name), dict)
        ),
        None,
    )
    if member is None:
        return None
    names = _schema_names(corpus)
    for at, value in _kinds(instance):
        found = names.get(_folded(value), [])
        if len(found) != 1 or found[0] == envelope.document.path:
            continue
        path = found[0]
        if path.rsplit("/", 1)[-1] in (envelope.document.text or ""):
            continue  # the envelope references it: its own composition says where it goes
        return PayloadBinding(member, SchemaTarget(corpus.documents[path], ""), at, value)
    return None


def _resolved(target: SchemaTarget) -> Any:
    return resolve_pointer(target.document.data, target.pointer)


def _open(schema: Any) -> bool:
    """Whether a member's schema leaves its value open: an object of any members, said only by
    its type and its prose (no properties, no reference, no composition)."""
    if not isinstance(schema, dict) or not set(schema) <= _OPEN_KEYWORDS:
        return False
    kind = schema.get("type", "object")
    return kind == "object" or (isinstance(kind, list) and "object" in kind)


def _kinds(instance: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The example's kind values: a top-level ``kind``/``type``, then one a member holds
    (``metadata.kind``), in the example's order."""
    for name in KIND_MEMBERS:
        if isinstance(instance.get(name), str):
            yield f"/{name}", instance[name]
    for key, value in instance.items():
        if key in PAYLOAD_MEMBERS or not isinstance(value, dict):
            continue
        for name in KIND_MEMBERS:
            if isinstance(value.get(name), str):
                yield f"/{key}/{name}", value[name]


def _folded(name: str) -> str:
    return re.sub(r"[\s_-]", "", name).casefold()


def _schema_names(corpus: Context) -> dict[str, list[str]]:
    """Each schema file's names (its file stem, its title), folded, to the files that have it."""
    key = "envelopes:schema-names"
    made = corpus.memo.get(key)
    if isinstance(made, dict):
        return made
    names: dict[str, list[str]] = {}
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        if document.path in corpus.derived:
            continue  # a bundle's or copy's: its source is the schema
        found = {_folded(_SCHEMA_SUFFIX.sub("", document.path.rsplit("/", 1)[-1]))}
        title = document.data.get("title") if isinstance(document.data, dict) else None
        if isinstance(title, str):
            found.add(_folded(title))
        for name in found - {""}:
            names.setdefault(name, []).append(document.path)
    corpus.memo[key] = names
    return names
