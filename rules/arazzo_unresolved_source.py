"""An Arazzo source description whose URL names no OpenAPI or Arazzo document of the repository.

What it does
    Resolves each `sourceDescriptions` entry's `url` of an Arazzo document to a file of the
    repository: relative to the Arazzo file's folder (Arazzo 1.0.1 §4.5, "Relative References in
    URLs"), or to the root when it starts with `/`, its fragment set aside. A URL that names no
    file is reported at the source description, with the document of that name elsewhere (in
    another folder or letter case) when there is one; so is a file that is no OpenAPI or Arazzo
    document (a JSON Schema, a data file). A URL that names a file only relative to the
    repository root (as a catalogue's own tooling reads it) is one warning per document, with
    each URL rewritten relative to the file; its steps are still checked.

Why is this bad?
    A workflow runner (and every other Arazzo rule) reads the operations a workflow calls from
    its sources: a source that names no document makes every step that calls it unresolvable,
    and a moved or renamed API document leaves its workflows behind silently.

Example
    ::

        # flows/adopt.arazzo.yaml
        sourceDescriptions:
          - name: pets
            url: ./pet-store.yaml     # the API is api/pets.yaml
            type: openapi

    FAIL: `flows/pet-store.yaml`: no such file.

Use instead
    ::

            url: ../api/pets.yaml

    PASS.

Options
    None.

Limitations
    A remote URL (`https://...`), a path leading out of the root and a file discovery leaves
    out are not read (speclint makes no network call): the run says so among what it did not
    check, and the steps calling them are not checked either. An absolute path whose tail
    names a file (`/app/specs/loan.yaml`, a runner's mount) is read as that file.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import (
    MISSING,
    NOT_READ,
    OTHER_KIND,
    OUTSIDE,
    REMOTE,
    ResolvedSource,
    near_source_paths,
    resolve_source,
)
from speclint.common.findings import Finding, Severity
from speclint.model.arazzo import ARAZZO_SOURCE, arazzo_documents

ID = "arazzo-unresolved-source"
SEVERITY = Severity.ERROR


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for arazzo in arazzo_documents(corpus):
        from_root: list[ResolvedSource] = []
        for source in arazzo.source_descriptions:
            if not source.url:
                continue  # a missing or non-string url is arazzo-invalid's
            resolved = resolve_source(corpus, arazzo.path, source)
            located = corpus.documents[arazzo.path].location(f"{source.pointer}/url")
            if resolved.from_root:
                from_root.append(resolved)
            elif resolved.mounted_at:
                yield Finding(
                    ID,
                    Severity.INFO,
                    f"source `{source.name}`: `{source.url}` is an absolute path; read as "
                    f"{resolved.path}, the repository mounted at `{resolved.mounted_at}` (as a "
                    "runner's container mounts it), so the steps calling it are checked there",
                    located,
                    related=(resolved.document.location("", note="the document read"),)
                    if resolved.document is not None
                    else (),
                    key=f"mounted:{source.name}",
                    coverage="arazzo-mounted-source",
                )
            elif resolved.status == REMOTE:
                yield Finding(
                    ID,
                    Severity.INFO,
                    f"source `{source.name}` is a remote URL ({source.url}): not fetched, so the "
                    "steps calling it are not checked",
                    located,
                    key=f"remote:{source.name}",
                    coverage="arazzo-remote-source",
                )
            elif resolved.status in (OUTSIDE, NOT_READ):
                why = (
                    "leads out of the repository"
                    if resolved.status == OUTSIDE
                    else f"names {resolved.path}, a file discovery leaves out"
                )
                yield Finding(
                    ID,
                    Severity.INFO,
                    f"source `{source.name}` {why}: not read, so the steps calling it are not "
                    "checked",
                    located,
                    key=f"not-read:{source.name}",
                    coverage="arazzo-source-not-read",
                )
            elif resolved.status == MISSING:
                meant = near_source_paths(corpus, resolved.path, source.type, arazzo.path)
                # An `arazzo` source names the workflows' document, any other an API document
                # (Arazzo 1.0.1 §4.6.3).
                named = "Arazzo document" if source.type == ARAZZO_SOURCE else "API document"
                fix = (
                    f"; did you mean {' or '.join(f'`{m}`' for m in meant)}? Write the URL "
                    "relative to this file's folder"
                    if meant
                    else f"; point it at the {named}, relative to this file's folder"
                )
                yield Finding(
                    ID,
                    SEVERITY,
                    f"source `{source.name}`: `{source.url}` names {resolved.path}, which the "
                    f"repository does not hold{fix}",
                    located,
                    related=tuple(
                        corpus.documents[m].location("", note="the document meant") for m in meant
                    ),
                    key=f"missing:{source.name}",
                )
            elif resolved.status == OTHER_KIND and resolved.document is not None:
                kind = resolved.document.kind.value
                yield Finding(
                    ID,
                    SEVERITY,
                    f"source `{source.name}`: `{source.url}` names {resolved.path}, which is no "
                    f"OpenAPI or Arazzo document (read as {kind}); point it at the API document "
                    "the workflow calls",
                    located,
                    related=(resolved.document.location("", note="the file it names"),),
                    key=f"other-kind:{source.name}",
                )
        if from_root:
            yield _from_root(corpus, arazzo.path, from_root)


def _from_root(corpus: Context, path: str, sources: list[ResolvedSource]) -> Finding:
    """One finding for the document's sources written relative to the root, not to the document
    (a catalogue writes all its workflows' sources that way: the fix is one for the document)."""
    document = corpus.documents[path]
    fixes = [f"`{s.description.url}` → `{_relative(s.path, path)}`" for s in sources]
    first = sources[0]
    others = [document.location(f"{s.description.pointer}/url", note="also") for s in sources[1:]]
    named = [s.document.location("", note="the document named") for s in sources if s.document]
    return Finding(
        ID,
        Severity.WARNING,
        f"source `{first.description.name}`: `{first.description.url}` names no file relative "
        f"to this document, which is where Arazzo 1.0.1 §4.5 resolves a relative URL (a runner "
        f"reading {path} looks in its folder); it names {first.path} from the repository root. "
        f"Write the URLs relative to this file: {', '.join(fixes)}",
        document.location(f"{first.description.pointer}/url"),
        related=tuple(others + named),
        key="root-relative",
    )


def _relative(target: str, path: str) -> str:
    """``target`` (root-relative) as a URL relative to the folder of the document at ``path``."""
    relative = posixpath.relpath(target, posixpath.dirname(path) or ".")
    return relative if relative.startswith("../") else f"./{relative}"
