"""The changes to what a corpus publishes by name (``speclint.analyses.changes.compat``): schema files
removed, definitions (``$defs``/``definitions`` entries, API ``components/schemas``) removed or
added in a file both revisions have, and OpenAPI or AsyncAPI operations removed. A published
name is addressable from outside the corpus, so one removed is breaking whatever its role."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from speclint.analyses.changes.contract_change import Change
from speclint.analyses.changes.effective_schemas import at_base
from speclint.analyses.context import Context
from speclint.analyses.schemas.roles import HTTP_METHODS
from speclint.analyses.schemas.shapes import Site
from speclint.common.findings import Location
from speclint.model.corpus import Document
from speclint.parsing.keyword_positions import (
    Position,
    item_position,
    member_position,
    position_at,
    root_position,
)
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

_API_KINDS = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


def removed_files(base: Context, head: Context) -> list[Change]:
    """The schema files of the base the head no longer has."""
    changes: list[Change] = []
    for document in base.of_kind(DocumentKind.SCHEMA):
        if document.path in head.documents:
            continue
        role = base.roles.role_name(document.path, "")
        changes.append(
            Change(
                "schema file removed",
                True,
                role,
                f"{role} schema `{document.path}` was removed: every `$ref` and `$id` "
                "consumer of it breaks",
                Location(document.path, 1, 1, pointer="", note="at the base revision"),
                None,
            )
        )
    return changes


def removed_operations(base: Context, head: Context) -> list[Change]:
    """The OpenAPI operations and AsyncAPI operations or channels the head no longer has."""
    changes: list[Change] = []
    for base_document in base.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        head_document = head.documents.get(base_document.path)
        head_data = head_document.data if head_document is not None else None
        for pointer, label in _operations(base_document):
            if resolve_pointer(head_data, pointer) is not None:
                continue
            holder = head_document if head_document is not None else base_document
            line, column = holder.position(pointer)
            changes.append(
                Change(
                    "operation removed",
                    True,
                    "operation",
                    f"{label} was removed from `{base_document.path}`: clients that use it break",
                    Location(base_document.path, line, column, pointer=pointer),
                    base_document.location(pointer, note="at the base revision"),
                )
            )
    return changes


def definitions(base: Context, head: Context) -> list[Change]:
    """Definitions (``$defs``/``definitions`` entries, API ``components/schemas``) removed
    or added in a file both revisions have. A removed one is breaking whatever its role: a
    published file's definitions are addressable (``x.json#/$defs/Batch``), so, as a schema
    file removed, every ``$ref`` to it from another file or another repository breaks,
    and no corpus can list those. One added is additive. Only the outermost is said: the
    definitions nested in one removed go with it; a move between ``definitions`` and
    ``$defs`` is neither (``at_base``)."""
    changes: list[Change] = []
    for corpus, other, removed in ((base, head, True), (head, base, False)):
        for site in _definition_sites(corpus):
            tokens = split_pointer(site.pointer)
            counterpart = other.documents.get(site.document.path)
            if counterpart is None or counterpart.kind is not site.document.kind:
                continue  # a file removed or added: said as a file, or additive
            if not counterpart.usable or at_base(counterpart, site.pointer) is not None:
                continue
            holder = "".join(join_pointer("", t) for t in tokens[:-2])
            if at_base(counterpart, holder) is None:
                continue  # its container went or came with it: said there
            role = corpus.roles.role_name(site.document.path, site.pointer)
            name = f"`{site.document.path}#{site.pointer}`"
            if removed:
                change = Change(
                    "definition removed",
                    True,
                    role,
                    f"{role} definition {name} was removed: every `$ref` to it, from "
                    "another file or a consumer of the published schema, breaks",
                    site.document.location(site.pointer, note="at the base revision"),
                    None,
                )
            else:
                change = Change(
                    "definition added",
                    False,
                    role,
                    f"{role} definition {name} is new",
                    site.document.location(site.pointer),
                    None,
                )
            changes.append(change)
    return changes


def is_definition(document: Document, tokens: list[str]) -> bool:
    """Is this location a named definition: an entry of a ``$defs``/``definitions`` keyword at
    any depth of a schema (2020-12 Core §8.2.4; draft-07 Validation §9), whether in a schema
    file or in an API document's schema, or an API document's ``components/schemas`` entry
    (Swagger 2.0's root ``definitions``)? Not a property *named* ``$defs`` (``properties/$defs``
    is a schema; ``properties/$defs/X`` is a keyword of it, no entry): where a key is a keyword
    and where a name is ``keyword_positions``' to say. What a published file offers by name
    (``definitions``), and what a ``$ref`` names a shape by (the walk's union members, with a
    schema file's root)."""
    if len(tokens) < 2 or tokens[-2] not in ("$defs", "definitions", "schemas"):
        return False
    api = document.kind if document.kind in _API_KINDS else None
    holder = position_at(tokens[:-2], root_position(document.kind), api)
    return member_position(holder, tokens[-2], api) is Position.SCHEMA_NAMES and (
        tokens[-2] != "schemas" or holder is Position.COMPONENTS
    )


def _definition_sites(corpus: Context) -> Iterator[Site]:
    """Every definition (``is_definition``) of the corpus's schema files and API documents,
    at any depth, in a stable order: what ``definitions`` compares. A generated bundle or copy
    is judged at its source, as ``fingerprints.schema_locations`` leaves it out."""
    derived = corpus.derived
    for document in corpus.of_kind(DocumentKind.SCHEMA, *_API_KINDS):
        if document.path in derived:
            continue
        api = document.kind if document.kind in _API_KINDS else None
        # (pointer, its tokens, value, position); walked without recursion: a deep document
        # costs no stack
        stack: list[tuple[str, list[str], Any, Position]] = [
            ("", [], document.data, root_position(document.kind))
        ]
        found: list[Site] = []
        while stack:
            pointer, tokens, node, position = stack.pop()
            if position is Position.DATA:
                continue  # an `enum`, a `default`, an example: nothing in it is a keyword
            if isinstance(node, dict):
                members = [
                    (str(key), value, member_position(position, key, api))
                    for key, value in node.items()
                ]
            elif isinstance(node, list):
                members = [(str(i), value, item_position(position)) for i, value in enumerate(node)]
            else:
                continue
            for key, value, inner in members:
                at, below = join_pointer(pointer, key), [*tokens, key]
                if isinstance(value, (dict, bool)) and is_definition(document, below):
                    found.append(Site(document, at, value))
                stack.append((at, below, value, inner))
        yield from sorted(found, key=lambda site: site.pointer)


def _operations(document: Document) -> Iterator[tuple[str, str]]:
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is DocumentKind.OPENAPI:
        paths = data.get("paths")
        for route, item in sorted(paths.items()) if isinstance(paths, dict) else ():
            for method in HTTP_METHODS:
                if isinstance(item, dict) and isinstance(item.get(method), dict):
                    operation_id = item[method].get("operationId")
                    named = f" ({operation_id})" if isinstance(operation_id, str) else ""
                    yield (
                        join_pointer(join_pointer("/paths", route), method),
                        f"`{method.upper()} {route}`{named}",
                    )
    else:
        for holder in ("operations", "channels"):
            entries = data.get(holder)
            for name in sorted(entries) if isinstance(entries, dict) else ():
                yield join_pointer(f"/{holder}", name), f"AsyncAPI {holder[:-1]} `{name}`"
