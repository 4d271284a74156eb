"""A route the prose names that the API document of its version does not have.

What it does
    Reads every route a Markdown page names — a code span (``POST /v1/jobs/{id}:cancel``), a
    bullet list or a table of endpoints, a link's text, the request lines of ``http`` and
    ``hurl`` fences, ``curl`` commands in shell fences, the messages of a sequence diagram
    (``Client->>API: POST /jobs``) — and holds each to the operations of the OpenAPI
    documents of the page's version: the same method and path, read as a client sends it
    (``/jobs/job-42?view=FULL`` is ``/jobs/{jobId}``; the servers' base path written or not;
    a full URL's host dropped). A route no operation has is reported with the nearest one:
    the same path with another method, the custom method written as a segment
    (``/{id}/cancel`` for ``/{id}:cancel``), another version prefix, or one segment off.

    A page is held to a document only when at least two of the routes it names with a method,
    and half of them, are that document's operations; a route is reported only when it looks
    like the API's own (an operation near it, or one starting as it does, or below the same
    base path). Aside: RFCs and pages in design folders (``rfcs/``, ``proposals/``, ``adr/``),
    sections headed "Future", "Proposed", "Roadmap", "Planned", "Deprecated", "Migration" and
    the like, a line that says the route is removed or replaced, changelogs, routes to another
    host than the servers' (a third-party API; ``localhost``, ``example.com`` and a
    ``{baseUrl}`` placeholder stand for the API's server), pages of another version line, and
    the rows of method tables (``method-table-drift``'s).

    Severity by evidence: a route written to be sent or looked up (a request line, ``curl``, a
    code span, a list, table or link entry, a diagram step) is a warning; a route in a sentence,
    and a path named alone (below the API's base path, with no operation of any method), an
    info.

Why is this bad?
    Readers copy the routes a guide shows. One the API does not serve (a method changed, a
    path renamed, a custom method spelled as a segment) fails with 404 or 405 for everyone who
    follows the page, and the page no longer says what the API document says.

Example
    With ``paths: {/jobs: {get: ...}, /jobs/{jobId}: {get: ...}}`` under ``servers: [{url:
    /api/v2}]``::

        - `GET /api/v2/jobs`
        - `DELETE /api/v2/jobs/{jobId}`
        - `GET /api/v2/jobs/{jobId}`

    FAIL: ``docs/jobs.md:2:3: warning [route-undeclared] `DELETE /api/v2/jobs/{jobId}` is no
    operation of `openapi.yaml`; the nearest is `GET /jobs/{jobId}`, which is GET: fix the
    route in the prose or add the operation``

Use instead
    The operation's method and path (``GET /api/v2/jobs/{jobId}``). PASS.

Options
    None.

Limitations
    A page with fewer than two of its routes found in a document is bound to nothing (one
    route is no evidence of which API the page describes). A line that says "removed",
    "instead of" or "e.g." sets aside every route on it. Routes held in program code (a client library's calls) are not read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.routes import RouteCheck, RouteMention, page_checks, page_routes
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind

ID = "route-undeclared"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
READS = "extract"  # of a page: the routes it names (speclint.analyses.units)

# A route in a sentence, or a path named alone, is weaker evidence than one set apart.
_WEAK = frozenset({"text", "path"})


def extract(document: Document) -> tuple[RouteMention, ...]:
    return page_routes(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for page in corpus.of_kind(DocumentKind.MARKDOWN):
        mentions = page_routes(page)
        if not mentions:
            continue
        for route in page_checks(corpus, page.path, mentions):
            if route.missing:
                yield _finding(corpus, route)
            elif route.renamed is not None and route.operations:
                yield _renamed(route)


def _finding(corpus: Context, route: RouteCheck) -> Finding:
    mention = route.mention
    shown = f"`{mention.label}`"
    what = "is no operation" if mention.method else "is the path of no operation"
    text = f"{shown} {what} of `{route.document}`"
    if route.near is not None:
        text += f"; the nearest is `{route.near.label}`{route.difference}"
        related = (route.near.document.location(route.near.pointer, route.near.label),)
    else:
        related = (corpus.documents[route.document].location("/paths", "the API's paths"),)
    # an optional part's form the document lacks: the notation may only mean "either form"
    weak = mention.form in _WEAK or bool(mention.other and route.near is not None)
    return Finding(
        ID,
        Severity.INFO if weak else SEVERITY,
        f"{text}: fix the route in the prose or add the operation",
        Location(route.page, mention.line, mention.column, heading=mention.heading or None),
        related,
        key=f"route:{mention.method}:{mention.target}",
    )


def _renamed(route: RouteCheck) -> Finding:
    """The operation, with a parameter named otherwise: readers copy the name into clients,
    and the reference generated from the document says the other one."""
    mention, operation = route.mention, route.operations[0]
    written, theirs = route.renamed or ("", "")
    return Finding(
        ID,
        Severity.INFO,
        f"`{mention.label}` is `{operation.label}` of `{operation.document.path}`, but names its "
        f"parameter `{written}` where the API names this parameter `{theirs}`: use the API's name",
        Location(route.page, mention.line, mention.column, heading=mention.heading or None),
        (operation.document.location(operation.pointer, operation.label),),
        key=f"route-parameter:{mention.method}:{mention.target}",
    )
