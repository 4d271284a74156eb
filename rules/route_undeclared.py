"""A route the prose names that the API document of its version does not have.

What it does
    Reads every route a Markdown page names — a code span (``POST /v1/jobs/{id}:cancel``), a
    bullet list or a table of endpoints, a link's text, the request lines of ``http`` and
    ``hurl`` fences, ``curl`` commands in shell fences, the messages of a sequence diagram
    (``Client->>API: POST /jobs``), the operation a page's front matter binds it to
    (Mintlify's ``openapi: "GET /sessions/{id}"``, ``openapi: "openapi.yaml get /x"``,
    ``api: "POST /x"``) — and holds each to the operations of the OpenAPI documents of the
    page's version: the same method and path, read as a client sends it
    (``/jobs/job-42?view=FULL`` is ``/jobs/{jobId}``; the servers' base path written or not;
    a full URL's host dropped; ``{id}``, ``<id>``, ``:id``, ``${ID}``, ``$ID`` and ``{{id}}``
    are variables, and so is a document's non-standard ``${NAME}`` segment; a trailing slash
    after a value is an empty last variable). A route no operation has is reported with the
    nearest one: the same path with another method, the custom method written as a segment
    (``/{id}/cancel`` for ``/{id}:cancel``) or on the collection (``/runs:fork`` for
    ``/runs/{runId}:fork``), another version prefix, a segment in the singular or the plural,
    or one segment off.

    A route written with an optional part (``POST v2/models/<m>[/versions/<v>]/infer``) is two
    routes; where the document has one form and not the other, the missing one is reported
    naming the one it has. A path written without its leading slash (``v2/models/x/ready``,
    ``run/{run_id}/cancel``) in a code span or a table cell is a route where its first segment
    (below the base path and a version prefix) is an operation's or an operation is near it;
    else it is something else's (``application/json``) and is not read. A route that names an
    operation with a parameter called otherwise (``{id}`` where the document says
    ``{table_name}``; both written as templates, names that differ only in case, separators or a
    role's prefix, ``childRunId`` for ``runId``, are one) is reported as an info: readers copy
    the name into clients, and the reference generated from the document says the other.

    A page is held to a document when at least two of the routes it names with a method, and
    half of them, are that document's operations. A page of one or two such routes is held
    through the repository: when the routes of all the pages of its version line together bind
    a document by the same gate, its routes that start as the API's do (their first segment
    below the base path is an operation's) or are near an operation (one segment off, as
    alike as a misspelling, or a singular for a plural) are judged. A route is reported only
    when it looks like the API's own (an operation near it, or one starting as it does, or
    below the same base path). Aside: RFCs and pages in design folders (``rfcs/``,
    ``proposals/``, ``adr/``), sections headed "Future", "Proposed", "Roadmap", "Planned",
    "Deprecated", "Migration", "Known issues", "Defects" and the like, a line that says the
    route is removed, replaced or does not exist ("there is no"), changelogs, routes to another
    host than the servers' (a third-party API; ``localhost``, ``example.com`` and a
    ``{baseUrl}`` placeholder stand for the API's server), templates over any collection
    (``/<GROUPS>/<gid>``, where no operation starts with a variable), pages of another version
    line, and the rows of method tables (``method-table-drift``'s).

    Severity by evidence: a route written to be sent or looked up (a request line, ``curl``, a
    code span, front matter, a list, table or link entry, a diagram step) is a warning; a route
    in a sentence, the missing form of an optional part, a renamed parameter, and a path named
    alone are infos. A path named alone is reported below the API's base path (with no
    operation of any method), or, on a line of its own, in a code span outside a link, or
    without its leading slash, where the servers declare no base path, its first segment is an
    operation's and an operation is near it (``/table/hpo/serch``); never a file's name
    (``/schemas/job.json``).

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
    A page with fewer than two of its routes found in a document, whose version line's pages
    together bind none either, is bound to nothing (one route is no evidence of which API the
    page describes); a page of three routes or more is never bound through the repository. A line that says "removed",
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
