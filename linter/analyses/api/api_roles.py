"""The parts of an OpenAPI 3 document kept in other files, each with the role it is read in.

A split source keeps a path item, a parameter, a response... in a file of its own and names it by
``$ref`` where the specification allows a Reference Object (or, for a path item, its ``$ref``
field). The official schema of the OpenAPI version treats such a reference as data: it never
follows it, so the file's content is judged by no one, though the bundle puts it in place, where
that schema then judges it. :func:`parts_in_role` finds each such part with the role of the
place that names it (``parameter``, ``path-item``: the names of the OpenAPI 3.1 schema's
``$defs``), walking the document's structure as OpenAPI 3.0.3 §4.7, 3.1.1 §4.8 and 3.2 lay it
out, and from each part on through the parts it names in turn, each once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from speclint.parsing.structured import join_pointer

if TYPE_CHECKING:
    from speclint.model.corpus import Document

# The fields of each role that hold other roles: "one" (the field is the part), "map" (each
# value of the field's map is one), "list" (each item). A role's other members are not walked.
_FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "document": {
        "paths": ("one", "paths"),
        "webhooks": ("map", "path-item"),
        "components": ("one", "components"),
    },
    "components": {
        "responses": ("map", "response"),
        "parameters": ("map", "parameter"),
        "examples": ("map", "example"),
        "requestBodies": ("map", "request-body"),
        "headers": ("map", "header"),
        "securitySchemes": ("map", "security-scheme"),
        "links": ("map", "link"),
        "callbacks": ("map", "callbacks"),
        "pathItems": ("map", "path-item"),
        "mediaTypes": ("map", "media-type"),
    },
    "path-item": {
        "parameters": ("list", "parameter"),
        **{
            method: ("one", "operation")
            for method in ("get", "put", "post", "delete", "options", "head", "patch", "trace")
        },
        "query": ("one", "operation"),  # 3.2 §4.10.9.1
        "additionalOperations": ("map", "operation"),  # 3.2
    },
    "operation": {
        "parameters": ("list", "parameter"),
        "requestBody": ("one", "request-body"),
        "responses": ("one", "responses"),
        "callbacks": ("map", "callbacks"),
    },
    "response": {
        "headers": ("map", "header"),
        "content": ("map", "media-type"),
        "links": ("map", "link"),
    },
    "request-body": {"content": ("map", "media-type")},
    "parameter": {"content": ("map", "media-type"), "examples": ("map", "example")},
    "header": {"content": ("map", "media-type"), "examples": ("map", "example")},
    "media-type": {"examples": ("map", "example"), "encoding": ("map", "encoding")},
    "encoding": {"headers": ("map", "header")},
}
# The roles whose every member (but an extension) is one role: a Paths Object's path items, a
# Responses Object's responses, a Callback Object's path items.
_EVERY_MEMBER = {"paths": "path-item", "responses": "response", "callbacks": "path-item"}

# The roles a Reference Object may stand for (OpenAPI 3.0.3 §4.7.23, 3.1.1 §4.8.23: "... Object |
# Reference Object" fields; a path item by its own `$ref` field, §4.8.9.1). Elsewhere a `$ref`
# is a bundler's convention, replaced before the document is read.
REFERENCE_ALLOWED = frozenset(
    {
        "path-item",
        "parameter",
        "request-body",
        "response",
        "header",
        "example",
        "link",
        "callbacks",
        "security-scheme",
    }
)
# OpenAPI 3.2 adds Media Type Objects to them (§4.10.6.1 `content`, §4.10.7 `mediaTypes`).
REFERENCE_ALLOWED_32 = REFERENCE_ALLOWED | {"media-type"}


@dataclass(frozen=True)
class Part:
    """A part of another file, read in ``role``: ``holder``'s node at ``pointer``, named by the
    ``$ref`` of ``by`` (a file and the pointer of the object holding the ``$ref``)."""

    holder: Document
    pointer: str
    node: Any
    role: str
    by: tuple[Document, str]


def children(role: str, node: Any, at: str) -> Iterator[tuple[str, Any, str]]:
    """(pointer, node, role) of each member of ``node`` (read in ``role``, at ``at``) that holds
    a role of its own, in document order."""
    if not isinstance(node, dict):
        return
    every = _EVERY_MEMBER.get(role)
    if every is not None:
        for key, value in node.items():
            if not str(key).startswith("x-"):
                yield join_pointer(at, str(key)), value, every
        return
    fields = _FIELDS.get(role, {})
    for key, value in node.items():
        shape = fields.get(str(key))
        if shape is None:
            continue
        kind, inner = shape
        here = join_pointer(at, str(key))
        if kind == "one":
            yield here, value, inner
        elif kind == "map" and isinstance(value, dict):
            for name, item in value.items():
                if not str(name).startswith("x-"):
                    yield join_pointer(here, str(name)), item, inner
        elif kind == "list" and isinstance(value, list):
            for index, item in enumerate(value):
                yield join_pointer(here, index), item, inner


def ref_sites(role: str, node: Any, at: str) -> Iterator[tuple[str, Any, str]]:
    """(pointer, object, role) of each object with a ``$ref`` member below ``node`` (read in
    ``role``, at ``at``), in a place whose role is known; not below such an object (its target
    is the part, read on its own)."""
    stack = [(at, node, role)]
    while stack:
        pointer, current, here = stack.pop()
        for inner_at, inner, inner_role in reversed(list(children(here, current, pointer))):
            if isinstance(inner, dict) and isinstance(inner.get("$ref"), str):
                yield inner_at, inner, inner_role
                if inner_role != "path-item":  # a path item's `$ref` has fields beside it
                    continue
            stack.append((inner_at, inner, inner_role))


# (the file, the pointer of an object holding a `$ref`) -> the file, pointer and node it names
Resolve = Callable[["Document", str], "tuple[Document, str, Any] | None"]


def parts_in_role(
    document: Document,
    data: Any,
    locate: Callable[[str], tuple[Document, str]],
    resolve: Resolve,
    judged: Callable[[Document], bool],
    limit: int = 20_000,
) -> list[Part]:
    """Each part of another file the structure of ``document`` reaches by ``$ref``
    (``data``: the document as read, its pointers placed in their files by ``locate``), with
    its role; from each on, the parts it reaches. A part is listed once, in the role of the
    first place that names it; a target in ``document`` itself, or in a file ``judged`` says
    is checked on its own (another API document), is not listed nor walked."""
    parts: list[Part] = []
    seen: set[tuple[str, str]] = set()
    pending: deque[tuple[Document | None, str, Any, str]] = deque([(None, "", data, "document")])
    while pending and len(parts) < limit:
        holder, at, node, role = pending.popleft()
        for site, _, site_role in ref_sites(role, node, at):
            written, pointer = locate(site) if holder is None else (holder, site)
            target = resolve(written, pointer)
            if target is None:
                continue  # unresolved-ref's
            # A target that is itself a Reference Object stands for what it names in turn.
            hops = 0
            while target is not None and _reference(target[2], site_role) and hops < 16:
                target, hops = resolve(target[0], target[1]), hops + 1
            if target is None or _reference(target[2], site_role):
                continue
            file, where, content = target
            if file.path == document.path or judged(file) or (file.path, where) in seen:
                continue
            seen.add((file.path, where))
            parts.append(Part(file, where, content, site_role, (written, pointer)))
            pending.append((file, where, content, site_role))
    return parts


def _reference(node: Any, role: str) -> bool:
    return role != "path-item" and isinstance(node, dict) and isinstance(node.get("$ref"), str)
