"""The path items, operations and servers of an OpenAPI document where each is written.

A split source keeps a path item (or, for a bundler, an operation) in a file of its own and names
it by ``$ref`` (OpenAPI 3.0.3 §4.7.9, 3.1.1 §4.8.9: a Path Item Object's ``$ref``). A check of
what an operation says (its ``security``, its ``responses``, its ``servers``) judges it with the
root document's version and declarations, and reports it in the file and at the line where it
is written. :func:`written_operations` yields each operation so, each once, following a path
item's or an operation's ``$ref`` through the reference index (``corpus_target``: what
unresolved-ref calls resolved); one that does not resolve is unresolved-ref's and not walked.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from speclint.analyses.api.inlining import corpus_target
from speclint.analyses.api.operations import HTTP_METHODS
from speclint.parsing.structured import join_pointer

if TYPE_CHECKING:
    from speclint.analyses.context import Context
    from speclint.model.corpus import Document

# The Path Item Object's operations: operations.HTTP_METHODS and 3.2's `query` (3.2.0 §4.8.9).
METHODS = (*HTTP_METHODS, "query")
_HOPS = 8  # a chain of references longer than this is no real layout


@dataclass(frozen=True)
class Written:
    """An object of the document, where it is written: ``file``'s node at ``pointer``."""

    file: Document
    pointer: str
    node: dict[str, Any]


@dataclass(frozen=True)
class WrittenOperation:
    path_item: Written
    operation: Written
    method: str
    route: str  # the Paths Object's key (or the webhook's name)

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.route}"


def followed(corpus: Context, written: Written) -> Written | None:
    """``written`` itself, or, where it is only a ``$ref``, what the reference names (in turn);
    None where a reference does not resolve in the corpus."""
    hops = 0
    while isinstance(written.node.get("$ref"), str) and hops < _HOPS:
        target = corpus_target(corpus, written.file, written.pointer)
        if target is None or not isinstance(target[2], dict):
            return None
        written, hops = Written(target[0], target[1], target[2]), hops + 1
    return written


def written_path_items(corpus: Context, document: Document) -> Iterator[tuple[str, Written]]:
    """(route, path item) of the document's ``paths`` and ``webhooks`` (3.1+), each path item
    where it is written, each once."""
    data = document.data if isinstance(document.data, dict) else {}
    seen: set[tuple[str, str]] = set()
    for container in ("paths", "webhooks"):
        items = data.get(container)
        if not isinstance(items, dict):
            continue
        # The whole map kept in a file (`paths: {$ref: paths.yaml}`): no Reference Object is
        # allowed there, but bundlers replace it, and the split source means its target.
        holder = followed(corpus, Written(document, f"/{container}", items))
        if holder is None:
            continue
        for route, item in holder.node.items():
            if str(route).startswith("x-") or not isinstance(item, dict):
                continue
            here = Written(holder.file, join_pointer(holder.pointer, str(route)), item)
            # A path item's `$ref` may have fields beside it (§4.8.9.1): those are written here.
            target = followed(corpus, here) if "$ref" in item else here
            for written in (here, target) if target is not None and target != here else (here,):
                if (written.file.path, written.pointer) not in seen:
                    seen.add((written.file.path, written.pointer))
                    yield str(route), written


def written_operations(corpus: Context, document: Document) -> Iterator[WrittenOperation]:
    """Each operation of the document's path items (``written_path_items``), where it is
    written, each once."""
    seen: set[tuple[str, str]] = set()
    for route, item in written_path_items(corpus, document):
        for method in METHODS:
            node = item.node.get(method)
            if not isinstance(node, dict):
                continue
            operation = followed(
                corpus, Written(item.file, join_pointer(item.pointer, method), node)
            )
            if operation is None or (operation.file.path, operation.pointer) in seen:
                continue
            seen.add((operation.file.path, operation.pointer))
            yield WrittenOperation(item, operation, method, route)


def swagger(document: Document) -> bool:
    data = document.data if isinstance(document.data, dict) else {}
    return "swagger" in data and "openapi" not in data


def version(document: Document) -> str:
    """``2.0``, ``3.0``, ``3.1``, ``3.2``... (major and minor), or "" when it says none."""
    data = document.data if isinstance(document.data, dict) else {}
    written = str(data.get("swagger" if swagger(document) else "openapi", ""))
    return ".".join(written.split(".")[:2])


@dataclass(frozen=True)
class Requirement:
    """A Security Requirement Object where it is written, and what it applies to."""

    at: Written  # the requirement (a map of scheme names to scope lists)
    label: str  # "the document" or "operation GET /runs"


def security_requirements(corpus: Context, document: Document) -> Iterator[Requirement]:
    """The document's own ``security`` requirements and its operations' (OpenAPI 3.1.1 §4.8.1,
    §4.8.10; Swagger 2.0 Swagger Object and Operation Object), each where it is written."""
    data = document.data if isinstance(document.data, dict) else {}
    holders: list[tuple[Written, str]] = [(Written(document, "", data), "the document")]
    holders += [(o.operation, f"operation {o.label}") for o in written_operations(corpus, document)]
    for holder, label in holders:
        listed = holder.node.get("security")
        for index, requirement in enumerate(listed if isinstance(listed, list) else ()):
            if isinstance(requirement, dict):
                at = join_pointer(join_pointer(holder.pointer, "security"), index)
                yield Requirement(Written(holder.file, at, requirement), label)


@dataclass(frozen=True)
class Schemes:
    """The security schemes a document declares: the map where it is written, each scheme as
    it reads (its ``$ref`` followed; None where that does not resolve)."""

    declared: Written | None  # None: the document declares no scheme at all
    schemes: dict[str, Written | None]
    field: str  # how the document names the map: `components.securitySchemes`...


def declared_schemes(corpus: Context, document: Document) -> Schemes | None:
    """The schemes ``components.securitySchemes`` (Swagger 2.0: ``securityDefinitions``)
    declares; None where they cannot be read (the map is a ``$ref`` that does not resolve)."""
    data = document.data if isinstance(document.data, dict) else {}
    if swagger(document):
        field, holder, pointer = "`securityDefinitions`", data, "/securityDefinitions"
        node = data.get("securityDefinitions")
    else:
        components = data.get("components")
        holder = components if isinstance(components, dict) else {}
        field, pointer = "`components.securitySchemes`", "/components/securitySchemes"
        node = holder.get("securitySchemes")
        if isinstance(components, dict) and "$ref" in components:
            return None  # the whole Components Object kept elsewhere: not read here
    if node is None:
        return Schemes(None, {}, field)
    if not isinstance(node, dict):
        return None
    declared = followed(corpus, Written(document, pointer, node))
    if declared is None:
        return None
    schemes: dict[str, Written | None] = {}
    for name, scheme in declared.node.items():
        if isinstance(scheme, dict):
            at = Written(declared.file, join_pointer(declared.pointer, str(name)), scheme)
            schemes[str(name)] = followed(corpus, at)
        else:
            schemes[str(name)] = None
    return Schemes(declared, schemes, field)


def with_partners(corpus: Context, document: Document, schemes: Schemes) -> Schemes:
    """``schemes`` with those of the files merged with the document (``corpus.merges``: a
    build joins them into one API), where the document does not declare them itself."""
    merged = dict(schemes.schemes)
    for path in corpus.merges.partners(document.path):
        partner = corpus.documents.get(path)
        other = declared_schemes(corpus, partner) if partner is not None else None
        for name, scheme in (other.schemes if other is not None else {}).items():
            merged.setdefault(name, scheme)
    return Schemes(schemes.declared, merged, schemes.field)
