"""Speakeasy's workflow file: which documents an overlay is applied to (issue 49, ecosystem batch 8).

Speakeasy, the main user of OpenAPI Overlays, names in ``.speakeasy/workflow.yaml`` each source
of its code generation: the OpenAPI documents it reads (``sources.<name>.inputs``, merged into
one when there are several) and the overlays it applies to them, in order
(``sources.<name>.overlays``); each a ``location`` relative to the folder holding
``.speakeasy/`` (the repository's root, or the root of one SDK in it), a URL, or a registry
address (``registry.speakeasyapi.dev/org/workspace/name``), which are no file of the repository.
An overlay listed there applies to that source's inputs: no guess is needed.

:func:`overlay_sources` reads the workflow files once a run, as data (YAML, never run), as
``speclint.analyses.repository.downloads`` reads build commands. ``workflow.local.yaml`` (a developer's
uncommitted overrides) is not read.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from speclint.model.corpus import Corpus
from speclint.parsing.structured import ParseFailure, parse_yaml

WORKFLOW_FOLDER = ".speakeasy"
WORKFLOW_NAMES = ("workflow.yaml", "workflow.yml")

# A location whose first segment is a host name (`registry.speakeasyapi.dev/org/ws/name`,
# `docs.example.io/api.yaml`): a registry or a server, not a folder of the repository.
_HOST = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?/")


@dataclass(frozen=True)
class Source:
    """One source of a Speakeasy workflow: its inputs, each a corpus path (``local``) or, when
    no file of the repository, as written (``elsewhere``: a URL, a registry, a file the
    repository does not hold)."""

    workflow: str
    name: str
    local: tuple[str, ...]
    elsewhere: tuple[str, ...]


def overlay_sources(corpus: Corpus) -> dict[str, tuple[Source, ...]]:
    """Each corpus file a Speakeasy workflow lists as an overlay -> the sources it is applied
    to, in the order of the workflow files' paths and of their sources. Read once a run."""
    found: dict[str, tuple[Source, ...]] | None = corpus.memo.get("speakeasy.overlay_sources")
    if found is not None:
        return found
    listed: dict[str, list[Source]] = {}
    for path in _workflow_files(corpus):
        root = posixpath.dirname(posixpath.dirname(path))
        sources = _data(corpus, path).get("sources")
        for name, source in sources.items() if isinstance(sources, dict) else ():
            if not isinstance(source, dict):
                continue
            local: list[str] = []
            elsewhere: list[str] = []
            for location in _locations(source.get("inputs")):
                held = _held(corpus, root, location)
                (local if held is not None else elsewhere).append(held or location)
            read = Source(path, str(name), tuple(local), tuple(elsewhere))
            for location in _locations(source.get("overlays")):
                held = _held(corpus, root, location)
                if held is not None and read not in listed.get(held, []):
                    listed.setdefault(held, []).append(read)
    corpus.memo["speakeasy.overlay_sources"] = found = {
        path: tuple(listed[path]) for path in sorted(listed)
    }
    return found


def _workflow_files(corpus: Corpus) -> list[str]:
    paths = set(corpus.tree) | set(corpus.documents)
    return sorted(
        p
        for p in paths
        if posixpath.basename(p) in WORKFLOW_NAMES
        and posixpath.basename(posixpath.dirname(p)) == WORKFLOW_FOLDER
    )


def _data(corpus: Corpus, path: str) -> dict[Any, Any]:
    """The workflow file's data (a corpus document's, else read from the disk); empty when it
    is no YAML mapping."""
    document = corpus.documents.get(path)
    if document is not None:
        data = document.data
    else:
        raw = corpus.read_file(path)
        if not isinstance(raw, bytes):
            return {}
        try:
            # The house's guarded YAML reader (untrusted input: nesting and size bounded).
            data = parse_yaml(raw.decode("utf-8", "replace")).data
        except ParseFailure:
            return {}
    return data if isinstance(data, dict) else {}


def _locations(entries: Any) -> list[str]:
    """The ``location``\\s of a source's inputs or overlays (an overlay's may be nested in a
    ``document``)."""
    found = []
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("document"), dict):
            entry = entry["document"]
        location = entry.get("location") if isinstance(entry, dict) else None
        if isinstance(location, str) and location.strip():
            found.append(location.strip())
    return found


def _held(corpus: Corpus, root: str, location: str) -> str | None:
    """The corpus path a location names relative to the workflow's root, or None: a URL, a
    registry, a variable, an absolute path, or a file the repository does not hold."""
    if "://" in location or "$" in location or location.startswith(("/", "~")):
        return None
    path = posixpath.normpath(posixpath.join(root, location))
    if path.startswith("../") or path == "..":
        return None
    if path in corpus.documents or path in corpus.tree:
        return path
    return None


def is_remote(location: str) -> bool:
    """Whether a location (not a corpus file) is a URL or a registry address rather than a
    file the repository was meant to hold."""
    return "://" in location or bool(_HOST.match(location))
