"""Roles: is a schema location submitted by clients, emitted by servers, or both?

RFC 0094 §G's closure policy depends on direction: client-submitted shapes are closed so typos fail
fast; server-emitted shapes stay open so hosts can add optional fields. Nothing in a schema file says
which it is; the API documents do:

- OpenAPI: a ``requestBody`` or a ``parameter`` schema is client-submitted; a ``response`` (and its
  headers) is server-emitted.
- AsyncAPI 3: an operation's ``action`` is from the point of view of the application the document
  describes (the host): ``send`` means the host emits the messages (server-emitted), ``receive`` means
  clients send them (client-submitted). AsyncAPI 2: ``subscribe`` = host emits, ``publish`` = clients
  send.

A role flows through ``$ref``: a schema referenced from a request body is client-submitted at that
use, and so is everything it references. Each role keeps the chain of evidence that produced it,
for ``speclint roles`` and for finding messages. ``[roles]`` in the configuration overrides.
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from speclint.analyses.schemas.references import located
from speclint.common.findings import json_value
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import escape_token, join_pointer, resolve_pointer

if TYPE_CHECKING:
    from speclint.analyses.schemas.references import ReferenceIndex
    from speclint.model.corpus import Corpus, Document

# OpenAPI 3.2 adds `query` (§4.10): a safe method whose request body is client-submitted.
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace", "query")


ORIGINS_KEPT = 3  # origins of one role kept per location: enough to explain it


class Role(enum.Enum):
    CLIENT_SUBMITTED = "client-submitted"
    SERVER_EMITTED = "server-emitted"


@dataclass(frozen=True)
class Evidence:
    role: Role
    chain: tuple[
        str, ...
    ]  # e.g. ("POST /v1/runs request body", "api/openapi.yaml#/paths/...", ...)


@dataclass
class RoleMap:
    # (path, pointer) of a schema location -> its evidence, one per distinct origin
    evidence: dict[tuple[str, str], list[Evidence]] = field(default_factory=dict)
    overrides: dict[tuple[str, str], str] = field(default_factory=dict)
    _by_holder: dict[str, tuple[list[str], list[Any]]] | None = None
    _index: dict[str, dict[str, set[str]]] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, corpus: Corpus, references: ReferenceIndex) -> RoleMap:
        """The roles of ``corpus``'s schema locations, carried through ``references`` (the
        corpus's reference index: ``speclint.analyses.context.Context.references``)."""
        role_map = cls()
        role_map._by_holder = _references_by_holder(corpus, references)
        for document in corpus.of_kind(DocumentKind.OPENAPI):
            for pointer, role, origin in openapi_uses(document):
                role_map.propagate(document.path, pointer, Evidence(role, (origin,)))
            for where, at, item, route in referenced_path_items(corpus, references, document):
                step = f"path item {route} in {where}#{at or '/'}"
                for pointer, role, origin in path_item_uses(item, at, route):
                    role_map.propagate(where, pointer, Evidence(role, (origin, step)))
        for document in corpus.of_kind(DocumentKind.ASYNCAPI):
            perspective = corpus.config.asyncapi_perspective
            for pointer, role, origin in asyncapi_uses(document, perspective):
                role_map.propagate(document.path, pointer, Evidence(role, (origin,)))
        for target, role_name in corpus.config.roles.items():
            path, _, pointer = target.partition("#")
            role_map.overrides[(path, pointer)] = role_name
        return role_map

    def propagate(self, path: str, pointer: str, evidence: Evidence) -> None:
        """Give ``evidence.role`` to the schema at path#pointer and to everything it references.

        Two things keep this linear in the size of the API (a 20 MB OpenAPI document has tens of
        thousands of uses and references): the references under a location are found by binary
        search in the holder's references sorted by pointer, not by scanning them all; and a
        location that already holds ``ORIGINS_KEPT`` origins of this role is not walked again,
        because the walks that gave it those origins went everywhere below it, so everything
        below holds as many already (the evidence comes out the same, walk for walk)."""
        index = self._by_holder or {}
        self._index = None  # the evidence changes: roles_of's index is built again
        pending = [(path, pointer, evidence)]
        seen: set[tuple[str, str]] = set()
        while pending:
            where, at, why = pending.pop()
            if (where, at) in seen:
                continue
            seen.add((where, at))
            known = self.evidence.setdefault((where, at), [])
            # Keep a few origins per role: enough to explain it, not every operation of the API.
            if sum(e.role is why.role for e in known) >= ORIGINS_KEPT:
                continue
            known.append(why)
            pointers, held = index.get(where, ([], []))
            below: list[Any] = held
            if at:
                # Pointers under `at` sort between "at/" and "at0" ("0" follows "/" in ASCII).
                low, high = bisect_left(pointers, at + "/"), bisect_left(pointers, at + "0")
                below = held[low:high]
            for reference, target in below:
                if target is None:
                    continue
                step = f"{target[0]}#{target[1] or '/'} via $ref at {where}#{reference.pointer}"
                pending.append((*target, Evidence(why.role, (*why.chain, step))))

    def roles_of(self, path: str, pointer: str = "") -> set[str]:
        """Role names at a location: its own, the enclosing location's, or an override."""
        override = self.overrides.get((path, pointer)) or self.overrides.get((path, ""))
        if override is not None:
            return (
                {"client-submitted", "server-emitted"}
                if override == "both"
                else (set() if override == "unused" else {override})
            )
        # The location itself and each enclosing location (JSON pointer prefixes), looked up in
        # an index by file: a scan of every location per call is quadratic on a large API.
        inside = self._by_path().get(path)
        found: set[str] = set()
        if not inside:
            return found
        at = pointer
        while True:
            found |= inside.get(at, set())
            if not at:
                return found
            at = at.rsplit("/", 1)[0]

    def _by_path(self) -> dict[str, dict[str, set[str]]]:
        """file -> pointer -> role names with evidence there."""
        if self._index is None:
            self._index = {}
            for (where, at), evidence in self.evidence.items():
                self._index.setdefault(where, {}).setdefault(at, set()).update(
                    e.role.value for e in evidence
                )
        return self._index

    def locations(self) -> Iterator[tuple[tuple[str, str], list[Evidence]]]:
        yield from sorted(self.evidence.items())

    def role_name(self, path: str, pointer: str = "") -> str:
        """``client-submitted``, ``server-emitted``, ``both`` or ``unused``."""
        found = self.roles_of(path, pointer)
        if len(found) == 2:
            return "both"
        return next(iter(found)) if found else "unused"

    def listing(self, corpus: Corpus) -> list[RoleEntry]:
        """Every schema location with its role and why: each location a use or a ``$ref``
        reached, every schema file, and every ``components/schemas`` entry of the API documents."""
        places: set[tuple[str, str]] = set(self.evidence)
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            places.add((document.path, ""))
        for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
            components = (
                document.data.get("components") if isinstance(document.data, dict) else None
            )
            schemas = components.get("schemas") if isinstance(components, dict) else None
            for name in sorted(schemas) if isinstance(schemas, dict) else ():
                places.add((document.path, f"/components/schemas/{escape_token(name)}"))
        entries = []
        for path, pointer in sorted(places):
            override = self.overrides.get((path, pointer)) or self.overrides.get((path, ""))
            evidence = self.evidence.get((path, pointer), [])
            # One line per step of each chain: the listing prints each line alone, and a
            # newline in one would be a path's or a pointer's (shown escaped), never layout.
            lines = [
                line
                for e in evidence
                for line in (
                    f"{e.role.value}: {e.chain[0] if e.chain else ''}",
                    *(f"    ← {step}" for step in e.chain[1:]),
                )
            ]
            if override is not None:
                lines.insert(0, f"{override}: set by [roles] in the configuration")
            elif not evidence:
                inherited = sorted(self.roles_of(path, pointer))
                if inherited:
                    lines.append(
                        f"{' + '.join(inherited)}: inherited from the enclosing schema in {path}"
                    )
                elif pointer == "" and self._by_path().get(path):
                    inner = sorted(self._by_path()[path])
                    shown = ", ".join(inner[:3]) + (
                        f" and {len(inner) - 3} more" if len(inner) > 3 else ""
                    )
                    lines.append(
                        f"unused as a whole: nothing references its root, but {len(inner)} "
                        f"location(s) inside it are used ({shown}; listed separately)"
                    )
                else:
                    lines.append(
                        "unused: no operation or message reaches it, directly or through $ref; "
                        "give it a role in [roles] if something outside the API documents uses it"
                    )
            entries.append(RoleEntry(path, pointer, self.role_name(path, pointer), tuple(lines)))
        return entries


@dataclass(frozen=True)
class RoleEntry:
    path: str
    pointer: str
    role: str  # client-submitted | server-emitted | both | unused
    evidence: tuple[str, ...]


def openapi_uses(document: Document) -> Iterator[tuple[str, Role, str]]:
    data = document.data
    paths = data.get("paths") if isinstance(data, dict) else None
    for route, item in sorted((paths or {}).items()) if isinstance(paths, dict) else ():
        yield from path_item_uses(item, join_pointer("/paths", route), str(route))
    components = data.get("components") if isinstance(data, dict) else None
    if isinstance(components, dict):
        for name, body in sorted(_mapping(components.get("requestBodies")).items()):
            for pointer in _media_schemas(body, f"/components/requestBodies/{escape_token(name)}"):
                yield pointer, Role.CLIENT_SUBMITTED, f"request body component {name}"
        for name, response in sorted(_mapping(components.get("responses")).items()):
            for pointer in _media_schemas(response, f"/components/responses/{escape_token(name)}"):
                yield pointer, Role.SERVER_EMITTED, f"response component {name}"
        for name, parameter in sorted(_mapping(components.get("parameters")).items()):
            if isinstance(parameter, dict) and "schema" in parameter:
                yield (
                    f"/components/parameters/{escape_token(name)}/schema",
                    Role.CLIENT_SUBMITTED,
                    f"parameter component {name}",
                )


def path_item_uses(item: Any, base: str, route: str) -> Iterator[tuple[str, Role, str]]:
    """The uses in the path item ``item`` at ``base`` (in the API document, or in the file it
    keeps the path item in) of the route ``route``."""
    if not isinstance(item, dict):
        return
    yield from _parameters(item.get("parameters"), join_pointer(base, "parameters"), route)
    for method in HTTP_METHODS:
        operation = item.get(method)
        if not isinstance(operation, dict):
            continue
        at = join_pointer(base, method)
        label = f"{method.upper()} {route}"
        if operation.get("operationId"):
            label += f" ({operation['operationId']})"
        yield from _parameters(operation.get("parameters"), join_pointer(at, "parameters"), label)
        body = operation.get("requestBody")
        if isinstance(body, dict):
            for pointer in _media_schemas(body, join_pointer(at, "requestBody")):
                yield pointer, Role.CLIENT_SUBMITTED, f"{label} request body"
        responses = operation.get("responses")
        if isinstance(responses, dict):
            for status, response in sorted(responses.items()):
                if isinstance(response, dict):
                    where = join_pointer(join_pointer(at, "responses"), status)
                    for pointer in _media_schemas(response, where):
                        yield pointer, Role.SERVER_EMITTED, f"{label} response {status}"


# Path items followed through `$ref` chains (a path item file whose root is a `$ref` again).
_PATH_ITEM_HOPS = 8


def referenced_path_items(
    corpus: Corpus, references: ReferenceIndex, document: Document
) -> Iterator[tuple[str, str, Any, str]]:
    """(file, pointer, path item, route) of each path item of an OpenAPI document written as a
    ``$ref`` (``/runs: {$ref: paths/runs.yaml}``, or ``#/components/pathItems/Runs`` in 3.1):
    what the reference reaches, followed to the object that is no ``$ref`` itself. A path item
    kept in a file of its own is what a split OpenAPI document is made of (the layout Redocly
    recommends); its operations give their schemas roles as an inline one's do."""
    data = document.data
    paths = data.get("paths") if isinstance(data, dict) else None
    for route, item in sorted(paths.items()) if isinstance(paths, dict) else ():
        where, at, node = document.path, join_pointer("/paths", route), item
        for _ in range(_PATH_ITEM_HOPS):
            if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
                break
            reference = references.at(where, join_pointer(at, "$ref"))
            target = located(corpus, reference) if reference is not None else None
            if target is None:
                node = None  # unresolved-ref reports it
                break
            where, at = target
            holder = corpus.documents.get(where)
            node = resolve_pointer(holder.data, at) if holder is not None else None
        if (where, at) != (document.path, join_pointer("/paths", route)) and isinstance(node, dict):
            yield where, at, node, str(route)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _parameters(parameters: Any, at: str, label: str) -> Iterator[tuple[str, Role, str]]:
    for index, parameter in enumerate(parameters if isinstance(parameters, list) else []):
        if not isinstance(parameter, dict):
            continue
        where = join_pointer(at, index)
        if "$ref" in parameter:
            yield where, Role.CLIENT_SUBMITTED, f"{label} parameter {parameter['$ref']}"
        elif "schema" in parameter:
            name = parameter.get("name", index)
            yield join_pointer(where, "schema"), Role.CLIENT_SUBMITTED, f"{label} parameter {name}"


def _media_schemas(holder: Any, at: str) -> Iterator[str]:
    if not isinstance(holder, dict):
        return  # a component that is no object (a string): openapi-invalid says so
    if "$ref" in holder:
        yield at  # a $ref'd requestBody/response component: follow it like a schema
    content = holder.get("content")
    for media, entry in sorted(_mapping(content).items()):
        if isinstance(entry, dict) and "schema" in entry:
            yield join_pointer(join_pointer(join_pointer(at, "content"), media), "schema")
    for name, header in sorted(_mapping(holder.get("headers")).items()):
        if isinstance(header, dict) and "schema" in header:
            yield join_pointer(join_pointer(join_pointer(at, "headers"), name), "schema")


# Protocols with no broker: the server a document lists is the host itself, so a document that
# connects to it describes a client of the host (its "receive" is what the host emits).
BROKERLESS = frozenset({"http", "https", "ws", "wss", "sse"})


def asyncapi_perspective(document: Document, configured: Any) -> tuple[str, str]:
    """("host" | "client", why). AsyncAPI 3 §"Operation Object": actions are from the point of
    view of the application the document describes, which may be the host or one of its clients."""
    if configured in {"host", "client"}:
        return str(
            configured
        ), f"asyncapi-perspective = {json_value(configured)} in the configuration"
    data = document.data if isinstance(document.data, dict) else {}
    protocols = sorted(
        {
            str(s.get("protocol", "")).lower()
            for s in _mapping(data.get("servers")).values()
            if isinstance(s, dict)
        }
    )
    if protocols and set(protocols) <= BROKERLESS:
        return "client", (
            f"servers use {', '.join(protocols)} (no broker), so the document describes a client "
            "of the host"
        )
    return "host", "the document describes the host application (AsyncAPI's default reading)"


def asyncapi_uses(
    document: Document, configured: str | None = None
) -> Iterator[tuple[str, Role, str]]:
    data = document.data if isinstance(document.data, dict) else {}
    version = str(data.get("asyncapi", ""))
    perspective, why = asyncapi_perspective(document, configured)
    emits = ("send", "subscribe") if perspective == "host" else ("receive", "publish")
    if version.startswith("2."):
        for channel, item in sorted(_mapping(data.get("channels")).items()):
            for verb in ("subscribe", "publish"):
                operation = _mapping(item).get(verb) if isinstance(item, dict) else None
                if isinstance(operation, dict) and "message" in operation:
                    role = Role.SERVER_EMITTED if verb in emits else Role.CLIENT_SUBMITTED
                    at = join_pointer(
                        join_pointer(join_pointer("/channels", channel), verb), "message"
                    )
                    yield at, role, f"{verb} {channel} [{perspective} perspective: {why}]"
        return
    for name, operation in sorted(_mapping(data.get("operations")).items()):
        if not isinstance(operation, dict):
            continue
        action = str(operation.get("action"))
        if action not in {"send", "receive"}:
            continue
        role = Role.SERVER_EMITTED if action in emits else Role.CLIENT_SUBMITTED
        at = join_pointer("/operations", name)
        label = f"operation {name} (action: {action}) [{perspective} perspective: {why}]"
        messages = operation.get("messages")
        if isinstance(messages, list) and messages:
            for index, _ in enumerate(messages):
                yield join_pointer(join_pointer(at, "messages"), index), role, label
        else:
            channel_ref = operation.get("channel")
            if isinstance(channel_ref, dict):
                yield join_pointer(at, "channel"), role, label


def _references_by_holder(
    corpus: Corpus, index: ReferenceIndex
) -> dict[str, tuple[list[str], list[Any]]]:
    """Each document's references, sorted by the pointer of their ``$ref``, each with the
    (path, pointer) of its target (``references.located``), or None."""
    grouped: dict[str, list[Any]] = {}
    for reference in index.references:
        grouped.setdefault(reference.path, []).append(reference)
    held: dict[str, tuple[list[str], list[Any]]] = {}
    for holder, references in grouped.items():
        references.sort(key=lambda r: r.pointer)
        held[holder] = (
            [r.pointer for r in references],
            [(r, located(corpus, r)) for r in references],
        )
    return held
