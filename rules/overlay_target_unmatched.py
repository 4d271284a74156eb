"""An Overlay action whose `target` selects no node of the document the overlay applies to.

What it does
    Evaluates each action's `target` as the RFC 9535 JSONPath it is (jsonpath-rfc9535) against the
    OpenAPI document the overlay applies to, as the earlier actions left it: its `extends` when that
    names a corpus file, else the document its targets' plain prefixes point into (`speclint files`
    says which). A target selecting nothing is reported with where it stops matching: the longest
    plain prefix that resolves (`$.paths`) and the closest members there; a target that is no
    JSONPath, with the parser's reason.

    Targets in Speakeasy's legacy dialect (`$.paths./pets/{id}.get`, the default of its tools for an
    `overlay: 1.0.x` not declaring `x-speakeasy-jsonpath: rfc9535`) are one finding per overlay, the
    others related, and are evaluated as that dialect reads them. An action repeated from a part the
    overlay was assembled from is reported once, at the part.

    Listed as not checked: an overlay whose `extends` is remote or outside the repository; one whose
    guessed document matches under half its targets or is named for another release
    (`fixes-1.109.0.yaml` against `api-1.140.0.yaml`); one in an archive (`overlays_archive/`)
    unless its release is still held; one of a release speclint has no Overlay schema for.

Why is this bad?
    Overlay 1.0.0 allows a target to select zero nodes (§4.4.3), so tools apply such an action
    silently: an edit meant for `/pets` written against `/pet`, or kept after a rename, leaves the
    published document uncorrected.

Example
    ::

        overlay: 1.0.0
        extends: openapi.yaml   # has paths /pets and /pets/{petId}
        actions:
          - target: $.paths['/pet'].get
            update: {summary: List the pets}

    FAIL: `target `$.paths['/pet'].get` selects no node of openapi.yaml: `$.paths` has no
    member `/pet` (did you mean `/pets`?) ...`

Use instead
    `target: $.paths['/pets'].get`. PASS.

Options
    None.

Limitations
    Where a target stops matching is said of the document as written, not as the earlier
    actions left it. The legacy dialect is read where its reading is plain: a name with a dot
    in it is read as two.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import (
    Action,
    Applied,
    actions_of,
    applied_to,
    assembled_copies,
    near_names,
    nearest,
    overlaid,
    reported_once,
    schema_release,
)
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "overlay-target-unmatched"
SEVERITY = Severity.WARNING
# Reads each overlay and the OpenAPI documents it may apply to (any of them: a target's prefix
# may point into an edited one), so it runs on the whole corpus.
READS = "structured"


# The other targets in Speakeasy's legacy dialect an overlay's one finding names, at most.
RELATED_TARGETS = 20


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    # An overlay of a release speclint ships no schema of is not checked by any overlay rule
    # (overlay-invalid says so): its actions may be ones speclint does not know.
    checked = [
        overlay
        for overlay in corpus.of_kind(DocumentKind.OVERLAY)
        if overlay.usable and schema_release(overlay.data) is not None
    ]
    found = [finding for overlay in checked for finding in _of_overlay(corpus, overlay)]
    # An action an overlay repeats from a part it was assembled from is reported at the part.
    yield from reported_once(found, assembled_copies(corpus, checked))


def _of_overlay(corpus: Context, overlay: Document) -> Iterator[Finding]:
    """The findings on one overlay, each apart from the other overlays'."""
    actions = actions_of(overlay.data)
    applied = applied_to(corpus, overlay)
    legacy = [a for a in actions if a.legacy and not isinstance(a.query, str)]
    if legacy and applied.coverage != "overlay-record":
        # A defect of the overlay itself, whichever document it applies to; an archived
        # overlay's record is not edited (its tool read it when it was applied).
        yield _legacy_dialect(overlay, legacy)
    if not applied.paths:
        yield _not_checked(overlay, applied)
        return
    documents = [corpus.documents[path] for path in applied.paths]
    for action in actions:
        yield from _judged(corpus, overlay, action, documents)


def _legacy_dialect(overlay: Document, legacy: list[Action]) -> Finding:
    """One finding for the targets an overlay writes in Speakeasy's legacy JSONPath dialect:
    a fix made once for the whole overlay (bracket the names, declare RFC 9535)."""
    first, others = legacy[0], legacy[1:]
    more = f" (and {len(others)} more of its targets)" if others else ""
    head = f"target `{first.target}`{more} is no RFC 9535 JSONPath"
    shown = others[:RELATED_TARGETS]
    related = tuple(
        overlay.location(f"{a.pointer}/target", note=f"also no RFC 9535 JSONPath: `{a.target}`")
        for a in shown
    )
    if len(others) > len(shown):
        related += (
            overlay.location(
                "/actions", note=f"{len(others) - len(shown)} more targets like these not listed"
            ),
        )
    return Finding(
        ID,
        SEVERITY,
        headed(
            head,
            ": Speakeasy's legacy JSONPath dialect reads such targets, other Overlay tools "
            "reject them (Overlay 1.0.0 §4.4.3: a target is an RFC 9535 JSONPath); bracket "
            f"the member names (`{first.legacy}`) and declare `x-speakeasy-jsonpath: rfc9535` "
            "at the overlay's root",
            head,
            f"target `{first.target}` is no RFC 9535 JSONPath",
        ),
        overlay.location(f"{first.pointer}/target"),
        related=related,
        key="legacy-dialect",
    )


def _judged(
    corpus: Context, overlay: Document, action: Action, documents: list[Document]
) -> Iterator[Finding]:
    at = overlay.location(f"{action.pointer}/target")
    query = action.query  # in Speakeasy's legacy dialect: its reading (``_legacy_dialect``)
    if isinstance(query, str):
        yield Finding(
            ID,
            SEVERITY,
            f"target `{action.target}` is no JSONPath (RFC 9535): {query}; " + _syntax_fix(query),
            at,
            key=f"{action.pointer}:syntax",
        )
        return
    # At its turn: the actions apply in order (Overlay 1.0.0 §4.4.3), so a target an earlier
    # action creates matches, and one an earlier action removed does not.
    if any(
        places
        for document in documents
        for done, places in overlaid(corpus, overlay, document.path).touched
        if done.pointer == action.pointer
    ):
        return
    document = documents[0]
    prefix, pointer, node, missing = nearest(document.data, action.legacy or action.target)
    if missing is not None:
        near = near_names(missing, node)
        where = f"`{prefix}` has no member `{missing}`"
        if near:
            fix = f"correct the target (did you mean {' or '.join(f'`{n}`' for n in near)}?)"
        elif isinstance(node, dict) and node:
            names = [str(n) for n in node]
            shown = ", ".join(f"`{n}`" for n in names[:8]) + (", …" if len(names) > 8 else "")
            fix = f"correct the target (its members are {shown})"
        else:
            fix = f"correct the target (`{prefix}` is no object with members)"
    else:
        where = f"`{prefix}` resolves, and what the target selects from it is nothing"
        fix = "correct the filter or selector after it"
    fix += ", or delete the action if the document no longer needs it"
    head = f"target `{action.target}` selects no node of {document.path}"
    yield Finding(
        ID,
        SEVERITY,
        headed(f"{head}: {where}", f"; {fix}", head),
        at,
        related=(document.location(pointer, note="where it stops"),),
        key=f"{action.pointer}:unmatched:{action.target}",
    )


def _syntax_fix(reason: str) -> str:
    if "'-'" in reason:
        # RFC 9535 §2.5.1.1: a member-name shorthand (`.name`) holds letters, digits and `_`
        # only; `@.x-internal` is read by some tools and rejected by RFC 9535 ones.
        return "a name with `-` goes in brackets (`@['x-internal']`, `$.paths['/pets']`)"
    return "write it as RFC 9535 says, as overlay tools read it (`$.paths['/pets'].get`)"


def _not_checked(overlay: Document, applied: Applied) -> Finding:
    return Finding(
        ID,
        Severity.INFO,
        f"overlay not checked: {applied.why}; its targets are not known to match nothing",
        overlay.location(
            "/extends" if isinstance(overlay.data, dict) and "extends" in overlay.data else ""
        ),
        key="not-checked",
        coverage=applied.coverage,
    )
