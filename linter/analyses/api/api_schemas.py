"""Every Schema Object an API document reads, in the file where it is written, with the
specification versions that read it (issue 52).

A Schema Object of an OpenAPI document is judged by the document's version: Swagger 2.0 and
OpenAPI 3.0 read their own JSON Schema subsets (2.0 Schema Object; 3.0.4 §4.7.24), 3.1 and later
read JSON Schema 2020-12 (3.1.1 §4.8.24). A split source keeps schemas, and the path items,
parameters and responses that hold them, in files of their own, reached by ``$ref``: each such
schema is the document's, and is judged in its file with the versions of every document that
reaches it. A schema file no API document reaches is plain JSON Schema (family
``json-schema``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from speclint.analyses.api.api_roles import children
from speclint.analyses.api.inlining import corpus_target
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import (
    SchemaObject,
    openapi_schema_roots,
    referenced_schema_maps,
    schema_objects,
    schema_objects_from,
    structure_refs,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer


@dataclass(frozen=True)
class ApiSchema:
    """A Schema Object written in ``document``, read by documents of ``families``
    (``2.0``, ``3.0``, ``3.1+``, or ``json-schema`` for a schema file no API document reaches)."""

    document: Document
    schema: SchemaObject
    families: frozenset[str]
    roots: tuple[str, ...] = ()  # the API documents that read it (paths, sorted)


def family(document: Document) -> str:
    """``2.0``, ``3.0``, ``3.1+`` (JSON Schema 2020-12 Schema Objects) or ``other``."""
    data = document.data if isinstance(document.data, dict) else {}
    if document.kind is not DocumentKind.OPENAPI:
        return "other"
    if str(data.get("swagger", "")).startswith("2."):
        return "2.0"
    version = str(data.get("openapi", ""))
    if version.startswith("3.0"):
        return "3.0"
    return "3.1+" if version.startswith("3.") and version[2:3].isdigit() else "other"


def api_schema_objects(corpus: Context) -> list[ApiSchema]:
    """Each Schema Object of the corpus's OpenAPI documents (and of the files they reach) and
    of its plain schema files, once, sorted by file and pointer. Memoised for the run."""
    memo: dict[str, list[ApiSchema]] = corpus.memo.setdefault("api_schemas", {})
    if "all" not in memo:
        memo["all"] = _collect(corpus)
    return memo["all"]


def _collect(corpus: Context) -> list[ApiSchema]:
    families: dict[tuple[str, str], set[str]] = {}
    roots: dict[tuple[str, str], set[str]] = {}
    nodes: dict[tuple[str, str], SchemaObject] = {}
    for document in sorted(corpus.of_kind(DocumentKind.OPENAPI), key=lambda d: d.path):
        if not isinstance(document.data, dict):
            continue
        read_as = family(document)
        if read_as == "other":
            continue
        for path, schema in _reached(corpus, document):
            families.setdefault((path, schema.pointer), set()).add(read_as)
            roots.setdefault((path, schema.pointer), set()).add(document.path)
            nodes[(path, schema.pointer)] = schema
    walked_files = {path for path, _ in families}
    for document in sorted(corpus.of_kind(DocumentKind.SCHEMA), key=lambda d: d.path):
        if document.path in walked_files:
            continue
        for schema in schema_objects(document):
            families.setdefault((document.path, schema.pointer), set()).add("json-schema")
            nodes[(document.path, schema.pointer)] = schema
    found = []
    for key in sorted(nodes):
        held = corpus.documents.get(key[0])
        if held is not None:
            readers = tuple(sorted(roots.get(key, ())))
            found.append(ApiSchema(held, nodes[key], frozenset(families[key]), readers))
    return found


def _reached(corpus: Context, document: Document) -> Iterator[tuple[str, SchemaObject]]:
    """(file, schema object) of each Schema Object ``document`` reads: in its structure, in
    the parts of its structure kept in other files, and in what their schemas ``$ref``."""
    work: list[tuple[str, str]] = []
    parts: list[tuple[Document, str, Any]] = [(document, "", document.data)]
    seen_parts = {(document.path, "")}
    for holder, at, node in parts:  # grows as it goes
        roots = list(openapi_schema_roots(node, at))
        work += [(holder.path, pointer) for pointer, _ in roots]
        for map_at in referenced_schema_maps(node) if at == "" else ():
            target = corpus_target(corpus, holder, map_at)
            if target is not None and isinstance(target[2], dict):
                work += [(target[0].path, join_pointer(target[1], str(n))) for n in target[2]]
        schemas = frozenset(pointer for pointer, _ in roots)
        for site in structure_refs(node, at, schemas):
            target = corpus_target(corpus, holder, site)
            if target is None or (target[0].path, target[1]) in seen_parts:
                continue
            seen_parts.add((target[0].path, target[1]))
            if target[0].kind is not DocumentKind.OPENAPI or target[0].path == document.path:
                parts.append(target)
    seen: set[tuple[str, str]] = set()
    work.reverse()
    while work:
        path, root_at = work.pop()
        held = corpus.documents.get(path)
        if held is None or (path, root_at) in seen or not held.usable:
            continue
        for schema in schema_objects_from(resolve_pointer(held.data, root_at), root_at):
            if (path, schema.pointer) in seen:
                continue
            seen.add((path, schema.pointer))
            yield path, schema
            target = corpus_target(corpus, held, schema.pointer)
            if target is not None:
                work.append((target[0].path, target[1]))


def objects_in_role(
    corpus: Context, document: Document, role: str
) -> Iterator[tuple[Document, str, dict[str, Any]]]:
    """(file, pointer, object) of each object the structure of the OpenAPI 3 ``document``
    reads in ``role`` (``example``, ``components``...: ``speclint.analyses.api.api_roles``),
    in the file where it is written: a Reference Object is followed into the file it names
    (not into another API document, judged on its own), each place once."""
    seen: set[tuple[str, str]] = set()
    followed_refs: set[tuple[str, str]] = set()
    stack: list[tuple[Document, str, Any, str, bool]] = [
        (document, "", document.data, "document", False)
    ]
    while stack:
        holder, at, node, here, followed = stack.pop()
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("$ref"), str) and here != "document" and not followed:
            if (holder.path, at) in followed_refs:
                continue
            followed_refs.add((holder.path, at))
            target = corpus_target(corpus, holder, at)
            if target is not None and target[0].kind is not DocumentKind.OPENAPI:
                stack.append((*target, here, False))
            if here != "path-item":
                continue  # a path item's `$ref` has fields beside it (3.0.4 §4.7.9.1)
        if (holder.path, at) in seen:
            continue
        seen.add((holder.path, at))
        if here == role:
            yield holder, at, node
        for inner_at, inner, inner_role in reversed(list(children(here, node, at))):
            stack.append((holder, inner_at, inner, inner_role, False))
