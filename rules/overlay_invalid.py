"""An OpenAPI Overlay that fails the official Overlay JSON Schema of its release.

What it does
    Validates each Overlay document (`overlay: 1.0.x`, `1.1.x`) against the JSON Schema the
    OpenAPI Initiative publishes for its release (`schemas/v1.0/schema.yaml`,
    `schemas/v1.1/schema.yaml` of OAI/Overlay-Specification, shipped inside speclint:
    `speclint/data/overlay`), offline. Each violation is reported at its node with the most
    specific reason the schema gives. An overlay of a release speclint ships no schema of
    (`1.2.0`) gets an `info` that it was not checked, never an error, and no overlay rule
    checks it. A 1.0.x overlay's `info.description` (a string) is not reported: Overlay
    1.1.0 §4.4.2 added it, it changes no action, and overlay tools read it whatever the
    overlay declares; a 1.1 action (`copy`) in a 1.0.x overlay is. An overlay in a design
    folder (`proposals/`: a draft, often in the draft's syntax) or an archive
    (`overlays_archive/`: the record of an edit already applied) is told at `info`, with
    the advice saying which it is.

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
from speclint.analyses.schemas.validation import ERRORS_COUNTED, capped, located, standing
from speclint.analyses.units import check_by_unit
from speclint.analyses.workflows.overlays import OVERLAY_SCHEMAS, overlay_validator, schema_release
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "overlay-invalid"
SEVERITY = Severity.ERROR
# One overlay at a time, read alone (speclint.analyses.units).
READS = "document"


def units(corpus: Context) -> list[Document]:
    return list(corpus.of_kind(DocumentKind.OVERLAY))


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    data = document.data
    release = schema_release(data)
    if isinstance(data, dict) and release is None:
        declared = data.get("overlay")
        # A release of the Overlay specification speclint ships no schema of (1.2 is a
        # draft): not checked, which is no defect of the overlay.
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
    release = release or "1.0"
    severity, advice = standing(document.path, SEVERITY)
    found = []
    errors = overlay_validator(release).iter_errors(_as_judged(data, release))
    for pointer, message, key in located(errors, ERRORS_COUNTED):
        found.append(
            Finding(
                ID,
                severity,
                headed(
                    f"{pointer or '/'}: {message}",
                    f"; fix it so the overlay is valid Overlay {release} (an overlay tool "
                    f"refuses it or skips the action){advice}",
                    message,
                ),
                document.location(pointer),
                key=f"{pointer}:{key}",
            )
        )
    return capped(ID, document, found, f"against the Overlay {release} schema")


def _as_judged(data: Any, release: str) -> Any:
    """``data`` as the schema judges it: a 1.0.x overlay's `info.description` (a string) left
    out. Overlay 1.1.0 §4.4.2 added that field to the Info Object; it documents the overlay
    and changes no action, and the overlay tools read it whatever the overlay declares
    (bump-sh-examples/train-travel-api, seqeralabs/docs: `overlay: 1.0.0` overlays carrying
    one, issue 49). The 1.1 schema would not fail it; anything else it adds (a `copy`
    action) the 1.0 schema still does."""
    info = data.get("info") if isinstance(data, dict) else None
    if release != "1.0" or not isinstance(info, dict):
        return data
    if not isinstance(info.get("description"), str):
        return data
    return {**data, "info": {k: v for k, v in info.items() if k != "description"}}
