"""Schema catalogs: a repository of many specifications, not one.

A *schema catalog* lists schemas that each describe a different file format. Its published
format is the JSON Schema Store catalog (``https://json.schemastore.org/schema-catalog.json``):
``{"schemas": [{"name": ..., "url": ..., "fileMatch": [...], "versions": {...}}]}``, which
SchemaStore publishes and editors (VS Code, the YAML language server) read. Two schemas a
catalog lists are two specifications: GitHub's and Gitea's issue-form schemas both define
``body`` with mostly the same properties, and neither is a drifted copy of the other. The
rules that compare same-named definitions across files (``copy-drift``) compare two listed
schemas only when one references the other directly: Cargo's manifest schema references each of
the per-tool lint schemas, and those, each defining its own ``DetailedLint``, are not copies of
one another.

A listed ``url`` names a corpus schema by its ``$id`` (the scheme and a trailing ``#`` aside) or,
when no ``$id`` matches, by its file name when exactly one corpus schema has that name: catalogs
publish under a host the schemas' own ``$id``\\s do not always use.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from speclint.analyses.context import Context
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind


def is_schema_catalog(data: Any) -> bool:
    """Whether a parsed JSON/YAML document is a schema catalog (the Schema Store format)."""
    if not isinstance(data, dict):
        return False
    declared = data.get("$schema")
    if isinstance(declared, str) and declared.rstrip("#").endswith("/schema-catalog.json"):
        return True
    schemas = data.get("schemas")
    return (
        isinstance(schemas, list)
        and len(schemas) >= 2
        and all(isinstance(s, dict) and isinstance(s.get("url"), str) for s in schemas)
        and all("fileMatch" in s or "name" in s for s in schemas)
    )


def _urls(data: dict[str, Any]) -> Iterator[str]:
    for entry in data.get("schemas", []):
        if not isinstance(entry, dict):
            continue
        if isinstance(entry.get("url"), str):
            yield entry["url"]
        versions = entry.get("versions")
        if isinstance(versions, dict):
            yield from (v for v in versions.values() if isinstance(v, str))


def _bare(uri: str) -> str:
    """A URI without its scheme and trailing ``#``: catalogs and ``$id``\\s differ in both."""
    return uri.split("://", 1)[-1].rstrip("#")


@dataclass(frozen=True)
class Catalogs:
    """The corpus files some schema catalog lists (each its own specification), and the pairs
    of files one of which references the other."""

    listed: frozenset[str] = frozenset()
    linked: frozenset[tuple[str, str]] = frozenset()  # (a, b) with a < b

    def one_specification(self, first: str, second: str) -> bool:
        """Whether two files may hold copies of one definition: not both listed by a catalog,
        or one references the other."""
        if first not in self.listed or second not in self.listed:
            return True
        return (min(first, second), max(first, second)) in self.linked


def schema_catalogs(corpus: Context) -> Catalogs:
    catalogs = [d for d in corpus.documents.values() if d.usable and is_schema_catalog(d.data)]
    if not catalogs:
        return Catalogs()
    schemas = list(corpus.of_kind(DocumentKind.SCHEMA))
    by_id: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    for document in schemas:
        declared = _declared_id(document)
        if declared:
            by_id.setdefault(_bare(declared), document.path)
        by_name.setdefault(document.path.rsplit("/", 1)[-1], []).append(document.path)
    listed: set[str] = set()
    for catalog in catalogs:
        for url in _urls(catalog.data):
            path = by_id.get(_bare(url))
            if path is None:
                named = by_name.get(url.rsplit("/", 1)[-1].split("#", 1)[0], [])
                path = named[0] if len(named) == 1 else None
            if path is not None:
                listed.add(path)
    return Catalogs(frozenset(listed), _links(corpus))


def _declared_id(document: Document) -> str:
    data = document.data if isinstance(document.data, dict) else {}
    value = data.get("$id", data.get("id"))
    return value if isinstance(value, str) else ""


def _links(corpus: Context) -> frozenset[tuple[str, str]]:
    """Pairs of files joined by a resolved cross-file ``$ref`` (either direction)."""
    return frozenset(
        (min(r.path, r.target_path), max(r.path, r.target_path))
        for r in corpus.references.references
        if r.outcome == "ok" and r.target_path is not None and r.target_path != r.path
    )
