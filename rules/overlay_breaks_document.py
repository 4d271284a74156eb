"""An Overlay action that makes the OpenAPI document it applies to invalid.

What it does
    Applies the overlay's actions in order to a copy of the OpenAPI document it applies to
    (its `extends`, a corpus file, else the document its targets point into), as Overlay
    1.0.0 §4.4.3 says (`update` merged into each selected object, recursively, or appended
    to each selected array; `remove` deletes each selected node; 1.1's `copy`), and validates
    the result exactly as `openapi-invalid` validates a document. Each error the result has
    that the document itself does not is reported at the action that introduced it: the last
    action whose selected nodes hold the error's place, or lie inside it, with the error's
    place in the document related. An error an action makes that a part the overlay was
    assembled from makes too is reported once, at the part.

Why is this bad?
    The document a repository publishes or generates code from is the overlaid one: an
    overlay that removes a required `description` or gives a parameter an `in` OpenAPI does
    not know turns a valid document into one that generators and gateways reject, and the
    error shows up downstream, far from the overlay that caused it.

Example
    ::

        overlay: 1.0.0
        extends: openapi.yaml
        actions:
          - target: $.paths['/pets'].get.responses['200']
            update: {description: [The pets]}

    FAIL: `applying this action makes openapi.yaml invalid:
    /paths/~1pets/get/responses/200/description: ["The pets"] is not of type "string" ...`

Use instead
    ::

            update: {description: The pets}

    PASS.

Options
    None.

Limitations
    An overlay of a release after 1.1, or in an archive, is not applied. An error is matched
    to the document's own by its place and message, so an action that moves a pre-existing
    error (removing an array item before it) may be reported. An error no action's selected
    nodes touch (a `$ref` broken elsewhere) is reported at `actions`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.api.openapi_validation import openapi_findings
from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import (
    Action,
    actions_of,
    applied_to,
    assembled_copies,
    overlaid,
    pruned,
    reported_once,
    schema_release,
    validation_scope,
)
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "overlay-breaks-document"
SEVERITY = Severity.ERROR
FACTS = ("merges", "references")  # openapi-invalid's validation (speclint.analyses.context)
# Reads each overlay and the OpenAPI documents it may apply to, with what they reference.
READS = "structured"

Errors = dict[tuple[str, str], Finding]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    # The errors of each document before any overlay: several overlays apply to one document.
    before: dict[str, Errors] = {}
    checked = [
        overlay
        for overlay in corpus.of_kind(DocumentKind.OVERLAY)
        if overlay.usable and schema_release(overlay.data) is not None
    ]
    found: list[Finding] = []
    for overlay in checked:
        actions = actions_of(overlay.data)
        for path in applied_to(corpus, overlay).paths:
            if actions:
                document = corpus.documents[path]
                if path not in before:
                    before[path] = _errors(corpus, document)
                found.extend(_broken(corpus, overlay, actions, document, before[path]))
    # An error an overlay's action makes that the same action makes in a part the overlay was
    # assembled from is reported at the part, the assembled overlay's action related.
    yield from reported_once(found, assembled_copies(corpus, checked))


def _errors(corpus: Context, document: Document, data: Any | None = None) -> Errors:
    """openapi-invalid's errors of ``document`` (with ``data`` in place of its own), by file
    and key (which holds the place): read in a context of its own, since the validation's
    memos are kept by path."""
    if data is not None:
        document = replace(document, data=data, derived={}, kept={})
        corpus = copy.copy(corpus)
        corpus.memo = {}
        corpus.documents = {**corpus.documents, document.path: document}
    return {
        (f.location.path, f.key or f.message): f
        for f in openapi_findings(corpus, document)
        if f.coverage is None and f.severity is not Severity.INFO
    }


def _broken(
    corpus: Context, overlay: Document, actions: list[Action], document: Document, before: Errors
) -> Iterator[Finding]:
    result = overlaid(corpus, overlay, document.path)
    final = result.data
    if final == document.data:
        return  # nothing changed (every target selects nothing, or only primitives): no error
    scope = validation_scope(document.data, final)
    if scope is None:
        new = {k: f for k, f in _errors(corpus, document, final).items() if k not in before}
    else:
        # Only what the overlay changed and what depends on it (validation_scope): an error
        # elsewhere is the document's own. What the whole document's errors do not explain is
        # judged against the document cut the same way (what the cut itself causes cancels).
        new = {
            k: f
            for k, f in _errors(corpus, document, pruned(final, scope)).items()
            if k not in before
        }
        if new:
            cut = _errors(corpus, document, pruned(document.data, scope))
            new = {k: f for k, f in new.items() if k not in cut}
    for finding in new.values():
        yield _finding(overlay, _blamed(result.touched, document, finding), document, finding)


def _blamed(touched: list[tuple[Action, list[str]]], document: Document, error: Finding) -> str:
    """The pointer of the last action whose selected nodes hold the error's place or lie
    inside it; ``/actions`` when none does (or the error is in another file)."""
    if error.location.path != document.path or error.location.pointer is None:
        return "/actions"
    for action, pointers in reversed(touched):
        if any(_related(pointer, error.location.pointer) for pointer in pointers):
            return action.pointer
    return "/actions"


def _related(first: str, second: str) -> bool:
    """Whether one pointer is the other or inside it (whole reference tokens only)."""
    shorter, longer = sorted((first, second), key=len)
    return longer == shorter or longer.startswith(shorter + "/")


def _finding(overlay: Document, pointer: str, document: Document, error: Finding) -> Finding:
    message = error.message.split("; ", 1)[0]
    where = "this action makes" if pointer != "/actions" else "these actions make"
    head = f"applying {where} {document.path} invalid: {message}"
    return Finding(
        ID,
        SEVERITY,
        headed(
            head,
            "; change the action so the overlaid document stays valid OpenAPI (or fix the "
            "document it applies to)",
            f"applying {where} {document.path} invalid",
        ),
        overlay.location(pointer),
        related=(replace(error.location, note="the error, in the overlaid document"),),
        key=f"{pointer}:{error.location.path}:{error.key}",
    )
