"""An AsyncAPI document that fails the official AsyncAPI JSON Schema of its declared version.

What it does
    Validates each AsyncAPI 2.x/3.x document offline against the JSON Schema the AsyncAPI
    Initiative publishes for the version in its ``asyncapi:`` field (from the
    ``@asyncapi/specs`` package, shipped inside speclint, see
    ``speclint/data/asyncapi/PROVENANCE.json``). Each violation is reported at its JSON pointer
    with the most specific reason the schema gives. An ``asyncapi`` value that is no release
    number (``2.0``, ``latest``) is reported, and so is a schema's ``pattern`` that no engine
    reads (``^a(b$``) or that cannot be compiled within bounds. A document split over files is
    validated as its bundle reads, and one the repository's bundler merges with a fragment
    (``asyncapi bundle service.json common.json``) as merged: an error is reported in the
    file that holds it. At most 50 errors are reported per document; the run says how many
    more there were.

Why is this bad?
    AsyncAPI tooling (the parser, generators, Studio) refuses an invalid document, and the schema is
    the only place the spec's structural rules are machine-checkable.

Example
    ::

        asyncapi: 3.0.0
        info:
          title: Run events
          version: 1.2.0
          contact: spec-team@example.org

    FAIL: ``/info/contact: "spec-team@example.org" is not of type "object"``

Use instead
    ::

          contact:
            email: spec-team@example.org

    PASS.

Options
    None.

Limitations
    A release whose schema speclint does not ship (AsyncAPI 1.x, a later 3.x) gets an
    ``info`` that the document was not checked. A ``$ref`` to a missing file is
    ``unresolved-ref``'s alone. A fragment merged into a document is not validated alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.inlining import (
    InlinedView,
    bundle_reach,
    inline_merged,
    misplaced_refs_of,
)
from speclint.analyses.api.merging import fragment_note
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import refused_patterns, schema_roots
from speclint.analyses.schemas.validation import (
    ERRORS_COUNTED,
    LocatedError,
    asyncapi_validator,
    asyncapi_versions,
    capped,
    error_places,
    located,
)
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "asyncapi-invalid"
SEVERITY = Severity.ERROR
# A version as AsyncAPI numbers its releases (`1.2.0`, `3.1.0`): one whose schema is not shipped
# is a document not checked; anything else (`2.0`, `latest`) is a wrong `asyncapi` value.
RELEASE = re.compile(r"^\d+\.\d+\.\d+$")
# One AsyncAPI document at a time (speclint.analyses.units).
READS = "document"
# Reads no shared index (speclint.run.runner.prime): it may start while they are built. It reads
# the reference index only for a document with a `$ref` the bundler inlines (`inlining`), and
# builds it then.
NEEDS_INDEXES = False
FACTS = ("merges", "references")  # speclint.analyses.context


def _inlined(
    corpus: Context, document: Document, declared: str
) -> tuple[InlinedView, list[LocatedError]]:
    """The document as its bundle reads (``speclint.analyses.api.inlining``): a ``$ref`` where the
    AsyncAPI schema allows no Reference Object (a channel's ``description`` kept in a file) is
    replaced by its corpus target; and every distinct error of it, most specific first
    (``validation.located``). The errors the schema found while inlining are the view's when
    it judged the view's data last (nothing inlined in the last round, or nothing at all): they
    are not found again by a second validation of the same data."""
    validator = asyncapi_validator(declared)
    last: list[tuple[Any, list[LocatedError]]] = []  # the data judged last, and its errors

    def misplaced(data: Any) -> Iterator[str]:
        raw = list(validator.iter_errors(data))
        last[:] = [(data, list(located(raw, limit=ERRORS_COUNTED)))]
        # Every error of the tree, the branches of a `oneOf` included: a message's
        # `examples: [{$ref: ...}]` is rejected only inside the message's `oneOf`, whose
        # explanation is at the message (`validation.error_places`).
        return misplaced_refs_of(error_places(raw))

    view = inline_merged(corpus, document, misplaced, corpus.merges)
    if last and last[0][0] is view.data:
        return view, last[0][1]
    return view, list(located(validator.iter_errors(view.data), limit=ERRORS_COUNTED))


def unit_reach(corpus: Context, document: Document) -> list[str]:
    """What one unit reads besides its document (``speclint.analyses.units``): the files its
    bundle reads (``inlining.bundle_reach``); none for a version speclint has no schema of."""
    declared = str(document.data.get("asyncapi", "")) if isinstance(document.data, dict) else ""
    if declared not in asyncapi_versions():
        return []
    return bundle_reach(corpus, document)


def units(corpus: Context) -> list[Document]:
    return list(corpus.of_kind(DocumentKind.ASYNCAPI))


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    known = asyncapi_versions()
    declared = str(document.data.get("asyncapi", ""))
    if declared not in known and RELEASE.match(declared):
        # A version the AsyncAPI Initiative published (1.x) or publishes later, whose schema
        # speclint does not ship: not checked, which is no defect of the document (issue 45).
        return [
            Finding(
                ID,
                Severity.INFO,
                f"`asyncapi: {declared}`: not checked: speclint ships the official AsyncAPI "
                f"schemas of {', '.join(known)} only; the document is not known to be invalid",
                document.location("/asyncapi"),
                key="not-checked",
                coverage="no-schema",
            )
        ]
    if declared not in known:
        return [
            Finding(
                ID,
                SEVERITY,
                f"`asyncapi: {declared}` has no published AsyncAPI schema; declare one of "
                f"{', '.join(known)}",
                document.location("/asyncapi"),
                key="unknown-version",
            )
        ]
    found: list[Finding] = []
    merges = corpus.merges
    if document.path in merges.partial:
        # Half of a document: its bundler merges it into another, which is validated whole
        # (`speclint.analyses.api.merging`); alone it lacks what only the merge gives (`info`).
        found.append(fragment_note(ID, document, merges))
    else:
        found += _validated(corpus, document, declared)
    return found + _oversized(document)


def _validated(corpus: Context, document: Document, declared: str) -> list[Finding]:
    """The document's errors against its version's schema, as its bundle reads (``_inlined``):
    an error in an inlined or merged-in piece is placed in the file it is written in."""
    view, every = _inlined(corpus, document, declared)
    merged = corpus.merges.partners(document.path)
    found: list[Finding] = []
    # A `$ref` not inlined: its target is missing (unresolved-ref's) or cyclic.
    errors = [e for e in every if e.pointer not in view.left]
    for at, message, key in errors:
        holder, pointer = view.locate(at)
        fix = f"fix it so the document is valid AsyncAPI {declared}"
        if holder is not document:
            how = "merges this file" if holder.path in merged else "reaches this file by `$ref`"
            fix += f" (`{document.path}` {how})"
            message = view.as_written(holder, message)
        found.append(
            Finding(
                ID,
                SEVERITY,
                headed(f"{pointer or '/'}: {message}", f"; {fix}", message),
                holder.location(pointer),
                key=f"{pointer}:{key}",
            )
        )
    return capped(ID, document, found, f"against the AsyncAPI {declared} schema")


def _oversized(document: Document) -> list[Finding]:
    found: list[Finding] = []
    # A pattern not compiled, or read by no engine (`schema_objects.refused_patterns`): valid to
    # the AsyncAPI schema, which does not assert draft-07's `format: "regex"`, and a defect of
    # the document all the same.
    for root, schema in schema_roots(document):
        found += [
            Finding(ID, SEVERITY, message, document.location(pointer), key=f"{pointer}:{kind}")
            for pointer, kind, message in refused_patterns(schema, root)
        ]
    return found
