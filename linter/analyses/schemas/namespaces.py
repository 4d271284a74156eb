"""Which files are one specification: the evidence that two same-named definitions are one shape.

A name is not evidence. Every API has its own ``User``, two protocols each have a ``Message``,
two separately published specifications each define a ``Link``: the same name in two unrelated
files is two entities. Two definitions are copies of one shape only when their files are tied
together by something the corpus says:

- a *reference*: one file ``$ref``\\s the other (a derivation, ``allOf`` of the other's
  definition, is one too), or one document references both (the parts of one API);
- a *namespace*: both schemas have the same base URI (RFC 3986 §5.1): the ``$id`` each declares
  up to its last ``/`` (``https://example.org/spec/v1/a.json`` and ``.../v1/b.json``), or, for
  two schemas that declare none, the folder they are read from (their retrieval URI, JSON
  Schema 2020-12 §8.2.1); a declared ``$id`` and a folder are two namespaces;
- the same API: two API documents of the same ``info.title`` in one folder (its OpenAPI 3.0
  and 3.1 editions), or one of them in a build-output folder (``dist/``: the other's build).
  An API document's components are its own otherwise: two API documents of different titles
  are two APIs, whatever their components are called, and so are two of one title in sibling
  folders (a product's per-domain APIs, ``endpoint/openapi.json`` and ``message/openapi.json``,
  each its own ``Registry``) unless a ``$ref`` ties them. Two *release channels* of one API,
  whose file names differ only by a channel's word (``openapi.json`` and
  ``openapi_preview.json``; ``preview``, ``beta``, ``alpha``, ``unstable``, ``experimental``,
  ``next``, ``canary``, ``nightly``), differ by design (the preview adds what the stable edition
  lacks): not one namespace. Format editions (OpenAPI 3.0 and 3.1), a schema's ``strict``/``lax``
  editions and an audience's (``public``, ``internal``: one API filtered, its shared definitions
  meant to agree) stay paired.

Generated copies are ``speclint.analyses.repository.lineage``'s; separately listed schemas of a schema
catalog are ``speclint.analyses.schemas.schema_catalogs``'.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import BUILD_FOLDERS
from speclint.analyses.schemas.references import root_base
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

_API = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


@dataclass(frozen=True)
class Namespaces:
    """Each file's namespace, and the pairs of files a reference ties together."""

    of: dict[str, str]
    tied: frozenset[tuple[str, str]]  # (a, b) with a < b

    def one_specification(self, first: str, second: str) -> bool:
        """Whether definitions of these two files may be copies of one shape."""
        return self.tie(first, second) is not None

    def tie(self, first: str, second: str) -> str | None:
        """What ties the two files: "reference", "namespace", or None (nothing does)."""
        if (min(first, second), max(first, second)) in self.tied:
            return "reference"
        space = self.of.get(first)
        if space is None or space != self.of.get(second) or channel_editions(first, second):
            return None
        return "namespace"


# Words naming a release channel of one API: an edition that differs from the stable one by
# design (it adds what is not released yet). Not an audience (`public`, `internal`: the same API
# filtered, a shared definition that differs there is drift), not an environment (`dev`, `prod`:
# one API deployed twice), not a format or a bundle (`v3`, `bundled`: renderings of one).
_CHANNELS = "preview|beta|alpha|unstable|experimental|next|canary|nightly"
_CHANNEL_SUFFIX = re.compile(rf"[-_.](?:{_CHANNELS})", re.IGNORECASE)
_CHANNEL_PREFIX = re.compile(rf"(?:{_CHANNELS})[-_.]", re.IGNORECASE)


def channel_editions(first: str, second: str) -> bool:
    """Whether two files' names differ only by a release channel's word
    (``openapi.json``/``openapi_preview.json``, ``api.yaml``/``beta-api.yaml``)."""
    stems = sorted((posixpath.splitext(posixpath.basename(p))[0] for p in (first, second)), key=len)
    short, long = stems
    if not short or short == long:
        return False
    if long.startswith(short) and _CHANNEL_SUFFIX.fullmatch(long[len(short) :]):
        return True
    return long.endswith(short) and bool(_CHANNEL_PREFIX.fullmatch(long[: -len(short)]))


def namespaces(corpus: Context) -> Namespaces:
    """The corpus's namespaces, built once a run (copy-drift and enum-drift both ask)."""
    found: Namespaces | None = corpus.memo.get("namespaces")
    if found is None:
        found = corpus.memo["namespaces"] = _namespaces(corpus)
    return found


def _namespaces(corpus: Context) -> Namespaces:
    of: dict[str, str] = {}
    for document in corpus.documents.values():
        if document.usable:
            space = namespace(document)
            if space is not None:
                of[document.path] = space
    referrers: dict[str, set[str]] = {}
    tied: set[tuple[str, str]] = set()
    for reference in corpus.references.references:
        target = reference.target_path
        if reference.outcome != "ok" or target is None or target == reference.path:
            continue
        tied.add((min(reference.path, target), max(reference.path, target)))
        referrers.setdefault(reference.path, set()).add(target)
    # The files one document references are parts of one whole (an API's split schemas).
    for targets in referrers.values():
        ordered = sorted(targets)
        if len(ordered) > 64:
            continue  # a catalog of everything says nothing about any two of its entries
        for index, first in enumerate(ordered):
            tied.update((first, second) for second in ordered[index + 1 :])
    return Namespaces(of, frozenset(tied))


def namespace(document: Document) -> str | None:
    """A file's namespace: ``api:`` and its title for an API document, else the base URI of
    its declared ``$id`` or, with none, its folder. None: a document of neither kind."""
    data: Any = document.data
    if document.kind in _API:
        info = data.get("info") if isinstance(data, dict) else None
        title = info.get("title") if isinstance(info, dict) else None
        if not isinstance(title, str) or not title.strip():
            return None
        # One API's editions sit side by side, or its build in a build-output folder.
        folders = document.path.split("/")[:-1]
        folder = "" if BUILD_FOLDERS & {f.lower() for f in folders} else "/".join(folders)
        return f"api:{folder}:{title.strip()}"
    if document.kind is not DocumentKind.SCHEMA:
        return None
    # The root's base URI as the reference index resolves against it (its `$id`, or draft-04's
    # `id` where the dialect names it so; a bad one leaves the file's place): one reading of it.
    parts = urlsplit(root_base(document))
    folder = posixpath.dirname(parts.path)
    return urlunsplit((parts.scheme, parts.netloc, folder, "", ""))
