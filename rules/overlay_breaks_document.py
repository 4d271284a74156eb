"""An Overlay action that makes the OpenAPI document it applies to invalid.

What it does
    Applies the overlay's actions in order to a copy of the OpenAPI document it applies to
    (its `extends`, a corpus file, else the document its targets point into), as Overlay
    1.0.0 §4.4.3 says (`update` merged into each selected object, recursively, or appended
    to each selected array; `remove` deletes each selected node), and validates the result
    exactly as `openapi-invalid` validates a document. Each error the result has that the
    document itself does not is reported at the action that introduced it (the actions applied
    one at a time), with the error's place in the document related.

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
    Only Overlay 1.0 actions (`update`, `remove`) are applied; an overlay of a later
    release is not. Inside an object an `update` merges, a member that is an array replaces
    the array it names. An error is matched to the document's own by its place and message,
    so an action that removes an array item before a pre-existing error moves that error and
    may be reported. At most 60 actions are applied one at a time; the errors of a longer
    overlay found past them are reported at its `actions`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.openapi_validation import openapi_findings
from speclint.analyses.overlays import Action, actions_of, applied_to, apply_action, schema_release
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "overlay-breaks-document"
SEVERITY = Severity.ERROR
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
FACTS = ("merges", "references")  # openapi-invalid's validation (speclint.analyses.context)
# Reads each overlay and the OpenAPI documents it may apply to, with what they reference.
READS = "structured"
# The actions applied one at a time to say which one broke the document, at most.
ATTRIBUTED = 60

Errors = dict[tuple[str, str], Finding]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for overlay in corpus.of_kind(DocumentKind.OVERLAY):
        if not overlay.usable or schema_release(overlay.data) is None:
            continue
        actions = actions_of(overlay.data)
        for path in applied_to(corpus, overlay).paths:
            if actions:
                yield from _broken(corpus, overlay, actions, corpus.documents[path])


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
    corpus: Context, overlay: Document, actions: list[Action], document: Document
) -> Iterator[Finding]:
    before = _errors(corpus, document)
    final = copy.deepcopy(document.data)
    for action in actions:
        final = apply_action(final, action)
    new = {k: f for k, f in _errors(corpus, document, final).items() if k not in before}
    if not new:
        return
    # Which action introduced each: applied one at a time, each version judged on its own copy
    # (the validator keeps the last instance it judged, by identity).
    data = copy.deepcopy(document.data)
    for action in actions[:ATTRIBUTED]:
        data = apply_action(data, action)
        now = _errors(corpus, document, copy.deepcopy(data))
        for key in [k for k in new if k in now]:
            yield _finding(overlay, action.pointer, document, new.pop(key))
        if not new:
            return
    for finding in new.values():
        yield _finding(overlay, "/actions", document, finding)


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
