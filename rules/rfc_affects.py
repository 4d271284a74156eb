"""An RFC whose `Affects` names a file that does not exist.

What it does
    Reads the ``Affects`` field of every RFC header (see ``rfc-header``) and takes the paths out of
    it: each code span or bare token that looks like a file (``schemas/foo.schema.json``,
    ``COMPATIBILITY.md``) or a folder (``conformance/``), with any note after it dropped
    (``schemas/foo.schema.json (additive block)`` is ``schemas/foo.schema.json``). A path is
    looked up from the corpus root, then relative to the RFC's folder, then, a bare file name, as
    the name of any file of the corpus (``interrupt.md`` for ``spec/v1/interrupt.md``). Globs
    (``conformance/*.ts``) are not checked. Each path that matches nothing is reported at the
    ``Affects`` row.

Why is this bad?
    ``Affects`` is how reviewers, the changelog and ``compat-claim`` find what an RFC changes. A
    path that does not exist after the change is a typo, a file that moved, or a "new" schema
    that was never added (RFC 0056 lists a new ``schemas/annotation.schema.json``).

Example
    ::

        | Affects | `api/openapi.yaml` · `schemas/run-cancel.schema.json` |

    FAIL: ``warning [rfc-affects] `Affects` names `schemas/run-cancel.schema.json`, which does
    not exist ...``

Use instead
    Name the files the RFC changes as they exist after it (and add the new ones). PASS.

Options
    None.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import affected_paths, corpus_rfcs
from speclint.common.findings import Finding, Location, Severity

ID = "rfc-affects"
SEVERITY = Severity.WARNING
READS_RFCS = True  # the corpus's RFCs, decoded before the workers fork (speclint.run.catalog)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    names = _file_names(corpus)
    for rfc in corpus_rfcs(corpus):
        affects = rfc.get("Affects")
        if affects is None:
            continue
        missing: list[str] = []
        for path in affected_paths(affects.value):
            if not _exists(corpus, rfc.path, path, names) and path not in missing:
                missing.append(path)
        for path in missing:
            yield Finding(
                ID,
                SEVERITY,
                f"`Affects` names `{path}`, which does not exist in the corpus: correct the path, "
                "add the file the RFC introduces, or drop it from the list",
                Location(rfc.path, affects.line, 1, pointer="#affects"),
                key=path,
            )


def _file_names(corpus: Context) -> dict[str, int]:
    """How many files of the repository have each file name (for bare-name lookups)."""
    counts: dict[str, int] = {}
    for path in corpus.tree or corpus.documents:
        name = path.rsplit("/", 1)[-1]
        counts[name] = counts.get(name, 0) + 1
    return counts


def _exists(corpus: Context, rfc_path: str, path: str, names: dict[str, int]) -> bool:
    """Whether the repository has ``path`` (a file, or a folder with files), from the root or
    from the RFC's folder. Answered from the corpus's file listing, never the disk: a path that
    leaves the root (``../sibling``) is not the repository's, whatever is there."""
    relative = posixpath.normpath(posixpath.join(posixpath.dirname(rfc_path), path))
    present = corpus.tree or frozenset(corpus.documents)
    for candidate in (posixpath.normpath(path.rstrip("/")), relative.rstrip("/")):
        if candidate == ".." or candidate.startswith(("../", "/")):
            continue
        if candidate in present or candidate in corpus.documents:
            return True
        if any(p.startswith(candidate + "/") for p in present):
            return True  # a folder the repository has files in
    # A bare file name ("interrupt.md") that one file of the corpus has.
    return "/" not in path.rstrip("/") and names.get(path, 0) >= 1
