"""Derived documents: generated bundles that embed other files' schemas (issue 14, item 6).

A repository that publishes one self-contained schema per version (AsyncAPI's
``schemas/3.0.0.json``) generates it from its sources (``definitions/3.0.0/*.json``): every
source is embedded again under ``definitions``, keyed by the source's ``$id``, its file name, or
its path. A defect in a source is then in the bundle too; reported in both it is reported twice,
and the bundle is not where it is fixed. The rules that compare or judge definitions
(``copy-drift``, ``inline-copy``, ``example-invalid``, ...) read sources only.

A schema document is derived when at least three of its ``definitions``/``$defs`` entries, and at
least half of them, are other corpus schemas: keyed by or carrying another file's ``$id``, or
keyed by the name or path slug of a file of a comparable version (``speclint.parsing.versions``):
``bindings-amqp-0.3.0-channel`` for ``bindings/amqp/0.3.0/channel.json``.

A compound schema document (JSON Schema 2020-12 §9.3) marks what it bundles: an embedded node
whose ``$id`` resolves to another corpus file's own URI (``"$id": "config_schema.json"`` beside
that file) is that file, bundled. Its ``$defs``, hoisted by the bundler to the bundle's root with
their ``$id``\\s (``"$id": "PlanSource"``), are that file's resources too: an entry carrying an
``$id`` that a bundled file declares counts as embedded (helm-values-schema-json bundles a chart's
``values.schema.json`` this way).
"""

from __future__ import annotations

import posixpath

from speclint.analyses.schemas.references import (
    EMBEDDED_KEY as EMBEDDED_KEY,  # the name the tests (and older imports) use here
)
from speclint.analyses.schemas.references import (
    defragmented,
    embedded_uris,
    join_uri,
    root_base,
)
from speclint.model.corpus import Corpus, Document
from speclint.parsing.kinds import DocumentKind

MINIMUM_EMBEDDED = 3


def derived_documents(corpus: Corpus) -> dict[str, int]:
    """Path of each derived (bundle) document -> how many corpus schemas it embeds."""
    schemas = list(corpus.of_kind(DocumentKind.SCHEMA))
    by_id: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}
    for document in schemas:
        if isinstance(document.data, dict):
            identifier = document.data.get("$id", document.data.get("id"))
            if isinstance(identifier, str):
                by_id[identifier.rstrip("#")] = document.path
        stem = posixpath.splitext(document.path)[0]
        by_name.setdefault(posixpath.basename(stem).lower(), []).append(document.path)
        by_name.setdefault(stem.replace("/", "-").lower(), []).append(document.path)
    owners = {root_base(document): document.path for document in schemas}
    # Each schema's embedded resources, walked once (the bundles' and the declarations' both).
    resources = {d.path: list(embedded_uris(d)) for d in schemas}
    declared: dict[str, set[str]] = {}
    for path, uris in resources.items():
        for uri in uris:
            declared.setdefault(uri, set()).add(path)
    found: dict[str, int] = {}
    for document in schemas:
        bundled = _bundled(document.path, resources[document.path], owners, declared)
        embedded = _embedded(corpus, document, by_id, by_name, bundled)
        entries = _entries(document)
        if embedded >= MINIMUM_EMBEDDED and embedded * 2 >= len(entries):
            found[document.path] = embedded
    return found


def _entries(document: Document) -> dict[str, object]:
    data = document.data
    if not isinstance(data, dict):
        return {}
    entries: dict[str, object] = {}
    for container in ("definitions", "$defs"):
        value = data.get(container)
        if isinstance(value, dict):
            entries.update(value)
    return entries


def _embedded(
    corpus: Corpus,
    document: Document,
    by_id: dict[str, str],
    by_name: dict[str, list[str]],
    bundled: set[str],
) -> int:
    count = 0
    base = root_base(document)
    for key, value in _entries(document).items():
        # Another file's `$id` is proof whatever its version (a 3.1.0 bundle embeds 0.2.0
        # bindings); a name is, only within the version.
        identified: list[str] = []
        if key.rstrip("#") in by_id:
            identified.append(by_id[key.rstrip("#")])
        if isinstance(value, dict):
            identifier = value.get("$id", value.get("id"))
            if isinstance(identifier, str) and identifier.rstrip("#") in by_id:
                identified.append(by_id[identifier.rstrip("#")])
        named = [
            source
            for source in by_name.get(key.lower(), [])
            if corpus.versions.comparable(source, document.path)
        ]
        hoisted = isinstance(value, dict) and _resolved(base, value) in bundled
        if hoisted or any(source != document.path for source in (*identified, *named)):
            count += 1
    return count


def _bundled(
    path: str, uris: list[str], owners: dict[str, str], declared: dict[str, set[str]]
) -> set[str]:
    """The resource URIs of the files the schema at ``path`` bundles (``uris``: its embedded
    resources): a file is bundled when the schema embeds a node under that file's own URI; its
    resources are that URI and every ``$id`` the file declares inside itself."""
    files = {owners[uri] for uri in uris if owners.get(uri, path) != path}
    if not files:
        return set()  # bundles nothing (most schemas): no walk over every corpus URI
    return {
        uri
        for uri, paths in (*declared.items(), *((uri, {path}) for uri, path in owners.items()))
        if paths & files
    }


def _resolved(base: str, node: dict[str, object]) -> str | None:
    identifier = node.get("$id")
    joined = join_uri(base, identifier) if isinstance(identifier, str) else None
    return defragmented(joined) if joined is not None else None
