"""An OpenAPI Overlay that fails the official Overlay 1.0 JSON Schema.

What it does
    Validates each Overlay document (`overlay: 1.0.x`) against the JSON Schema the OpenAPI
    Initiative publishes for Overlay 1.0 (`schemas/v1.0/schema.yaml` of
    OAI/Overlay-Specification, shipped inside speclint: `speclint/data/overlay`), offline.
    Each violation is reported at its node with the most specific reason the schema gives. An
    overlay of a release speclint ships no schema of (`1.1.0`) gets an `info` that it was
    not checked, never an error. An overlay in a design folder (`proposals/`: a draft, often
    in the draft's syntax) or an archive (`overlays_archive/`: the record of an edit already
    applied) is told at `info`, with the advice saying which it is.

Why is this bad?
    An overlay tool refuses or misapplies an invalid overlay: an action without `target` is
    skipped or stops the build, a misspelt `remvoe: true` leaves in place what it was meant to
    remove, and the published API document silently differs from what the overlay says.

Example
    ::

        overlay: 1.0.0
        info: {title: Public API, version: 1.0.0}
        actions:
          - target: $.paths['/internal']
            remvoe: true

    FAIL: `/actions/0: Unevaluated properties are not allowed ('remvoe' was unexpected)`

Use instead
    ::

          - target: $.paths['/internal']
            remove: true

    PASS.

Options
    None.

Limitations
    A target's JSONPath syntax is `overlay-target-unmatched`'s (the schema asks only that it
    start with `$`). At most 50 errors are reported per overlay.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.overlays import OVERLAY_SCHEMAS, overlay_validator, schema_release
from speclint.analyses.units import check_by_unit
from speclint.analyses.validation import ERRORS_COUNTED, capped, located, standing
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "overlay-invalid"
SEVERITY = Severity.ERROR
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
# One overlay at a time, read alone (speclint.analyses.units).
READS = "document"


def units(corpus: Context) -> list[Document]:
    return list(corpus.of_kind(DocumentKind.OVERLAY))


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    data = document.data
    if isinstance(data, dict) and schema_release(data) is None:
        declared = data.get("overlay")
        # A release of the Overlay specification speclint ships no schema of (1.1 adds the
        # `copy` action): not checked, which is no defect of the overlay.
        return [
            Finding(
                ID,
                Severity.INFO,
                f"`overlay: {declared}`: not checked: speclint ships the official Overlay "
                f"schema of {', '.join(OVERLAY_SCHEMAS)} only; the overlay is not known to be "
                "invalid",
                document.location("/overlay"),
                key="not-checked",
                coverage="no-schema",
            )
        ]
    severity, advice = standing(document.path, SEVERITY)
    found = []
    for pointer, message, key in located(overlay_validator().iter_errors(data), ERRORS_COUNTED):
        found.append(
            Finding(
                ID,
                severity,
                headed(
                    f"{pointer or '/'}: {message}",
                    "; fix it so the overlay is valid Overlay 1.0 (an overlay tool refuses it "
                    f"or skips the action){advice}",
                    message,
                ),
                document.location(pointer),
                key=f"{pointer}:{key}",
            )
        )
    return capped(ID, document, found, "against the Overlay 1.0 schema")
