"""The Schema Objects OpenAPI documents of one version family hold, in their files and in the files
their ``$ref``\\s keep schemas in.

A Schema Object means what the version of the document reading it says: OpenAPI 3.0's is an
extended subset of JSON Schema Wright draft 00 (3.0.4 §4.7.24, with ``nullable``), 3.1's and
3.2's are JSON Schema 2020-12 (3.1.1 §4.8.24). A file of schemas kept apart is judged with the
version of the documents that reach it, and only when every one of them is of the same family: a
fragment a 3.0 and a 3.1 document both read is left alone, and so is a schema file no API
document reads (a plain 2020-12 schema is not an OpenAPI 3.0 Schema Object).
"""

from __future__ import annotations

from collections.abc import Iterator

from speclint.analyses.api.api_schemas import family
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import located
from speclint.analyses.schemas.schema_objects import (
    SchemaObject,
    openapi_schema_roots,
    referenced_schema_maps,
    schema_objects_from,
)
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

# The dialects a 3.1 document's Schema Objects may declare and still be 2020-12 underneath
# (3.1.0 §4.8.24.3: the OAS base dialect, or plain 2020-12).
MODERN_DIALECTS = frozenset(
    {
        "https://spec.openapis.org/oas/3.1/dialect/base",
        "https://json-schema.org/draft/2020-12/schema",
    }
)


def _modern_default(document: Document) -> bool:
    """Whether the document's ``jsonSchemaDialect`` (3.1.0 §4.8.1), if any, is 2020-12's."""
    data = document.data if isinstance(document.data, dict) else {}
    declared = data.get("jsonSchemaDialect")
    return declared is None or str(declared).rstrip("#") in MODERN_DIALECTS


def owners(corpus: Context) -> dict[str, set[str]]:
    """Each fragment file (no API document itself) that API documents reach by ``$ref``,
    directly or through other fragments, with the families of the documents that reach it.
    The walk stops at another API document: what it reaches is that document's."""
    index = corpus.references
    found: dict[str, set[str]] = {}
    api_kinds = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
    for document in sorted(
        (d for kind in api_kinds for d in corpus.of_kind(kind)), key=lambda d: d.path
    ):
        reader = family(document)
        seen = {document.path}
        stack = [document.path]
        while stack:
            current = stack.pop()
            for reference in index.within(current, ""):
                target = reference.target_path
                if target is None or target in seen:
                    continue
                seen.add(target)
                held = corpus.documents.get(target)
                if held is None or held.kind in api_kinds:
                    continue
                found.setdefault(target, set()).add(reader)
                stack.append(target)
    return found


def family_schema_objects(
    corpus: Context, wanted: str
) -> Iterator[tuple[Document, list[SchemaObject]]]:
    """Each file whose Schema Objects are of the family ``wanted`` (``3.0`` or ``3.1+``), with
    the Schema Objects of it that the API structure or a ``$ref`` names, each once."""
    reached = owners(corpus)

    def judged_file(path: str) -> Document | None:
        document = corpus.documents.get(path)
        if document is None:
            return None
        if document.kind is DocumentKind.OPENAPI:
            if family(document) != wanted:
                return None
            return document if wanted != "3.1+" or _modern_default(document) else None
        declared = document.data.get("$schema") if isinstance(document.data, dict) else None
        if declared is not None and (
            wanted == "3.0" or str(declared).rstrip("#") not in MODERN_DIALECTS
        ):
            return None  # a file of its own dialect: judged by it, wherever a `$ref` enters
        return document if reached.get(path) == {wanted} else None

    # Where Schema Objects start (path, pointer): the API structure of each document and of
    # its fragments, a schema file's root, and every target of a `$ref` written in a schema
    # (a map of loose schemas, `schemas.json#/Error`, holds schemas only where one names them).
    work: list[tuple[str, str]] = []
    for path in sorted({*(d.path for d in corpus.of_kind(DocumentKind.OPENAPI)), *reached}):
        document = judged_file(path)
        if document is None or not isinstance(document.data, dict):
            continue
        if document.kind is DocumentKind.SCHEMA:
            work.append((path, ""))
        else:
            work += [(path, at) for at, _ in openapi_schema_roots(document.data)]
            # `components: {schemas: {$ref: ./schemas.json}}`: a bundler puts the map there, so
            # each of its members is a component schema.
            for at in referenced_schema_maps(document.data):
                reference = corpus.references.at(path, join_pointer(at, "$ref"))
                where = located(corpus, reference) if reference is not None else None
                if where is None:
                    continue
                held = corpus.documents.get(where[0])
                inside = where[1]
                members = resolve_pointer(held.data, inside) if held is not None else None
                if isinstance(members, dict):
                    work += [(where[0], join_pointer(inside, str(n))) for n in members]
    seen: set[tuple[str, str]] = set()
    work.reverse()
    while work:
        path, root_at = work.pop()
        document = judged_file(path)
        if document is None or (path, root_at) in seen:
            continue
        fresh = []
        for schema in schema_objects_from(resolve_pointer(document.data, root_at), root_at):
            if (path, schema.pointer) in seen:
                continue
            seen.add((path, schema.pointer))
            fresh.append(schema)
            reference = corpus.references.at(path, join_pointer(schema.pointer, "$ref"))
            where = located(corpus, reference) if reference is not None else None
            if where is not None:
                work.append(where)
        yield document, fresh
