"""The path keys of each OpenAPI (and Swagger 2.0) document's Paths Object, where they are written.

A Paths Object's keys are relative paths (Swagger 2.0 §Paths Object, OpenAPI 3.0.4 §4.7.8,
3.1.1 §4.8.8, 3.2.0 §Paths Object); ``x-`` keys are extensions. A document whose ``paths`` is a
``$ref`` to another file (a convention of split sources that bundlers resolve) has its keys in
that file: they are read there, with the version of the document that refers to them. The keys
of ``webhooks`` (names) and of Callback Objects (runtime expressions) are no paths and are not
read here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from speclint.analyses.api.written_operations import Written, followed
from speclint.analyses.api.written_operations import version as api_version
from speclint.analyses.context import Context
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer


@dataclass(frozen=True)
class PathsObject:
    """One Paths Object: the file that writes its keys and where, and its document's version."""

    owner: Document  # the API document whose `paths` this is
    holder: Document  # the file the keys are written in (the owner, or a `$ref`d file)
    pointer: str  # JSON pointer of the Paths Object in ``holder``
    version: str  # "2.0", "3.0", "3.1", "3.2", ... (the owner's major.minor)
    keys: tuple[str, ...]  # its path keys, in written order, extensions left out

    def at(self, key: str) -> str:
        return join_pointer(self.pointer, key)


def paths_objects(corpus: Context) -> Iterator[PathsObject]:
    """Each Paths Object of the corpus's OpenAPI documents, once (a file of paths two documents
    `$ref` is read with the first, by path)."""
    seen: set[tuple[str, str]] = set()
    for document in sorted(corpus.of_kind(DocumentKind.OPENAPI), key=lambda d: d.path):
        data = document.data if isinstance(document.data, dict) else {}
        version = api_version(document)
        paths = data.get("paths")
        if not isinstance(paths, dict):
            continue
        # `paths: {$ref: paths.yaml}`: followed as the operation walk follows it.
        reached = followed(corpus, Written(document, "/paths", paths))
        if reached is None:
            continue  # an unresolved `$ref`: `unresolved-ref`'s
        holder, pointer, paths = reached.file, reached.pointer, reached.node
        if not isinstance(paths, dict) or (holder.path, pointer) in seen:
            continue
        seen.add((holder.path, pointer))
        keys = tuple(str(k) for k in paths if not str(k).startswith("x-"))
        yield PathsObject(document, holder, pointer, version, keys)
