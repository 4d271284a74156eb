"""A route the prose names that the API document of its version does not have.

What it does
    Reads every route a Markdown page names (a code span, a list, table or link entry, the
    request lines of ``http``/``hurl`` fences, ``curl`` commands, sequence-diagram messages,
    Mintlify's ``openapi: "GET /sessions/{id}"`` front matter) and holds each to the operations
    of the OpenAPI documents of the page's version, read as a client sends it: concrete values
    fill variables (``/jobs/job-42?view=FULL`` is ``/jobs/{jobId}``), the servers' base path may
    be written or not, a full URL's host is dropped, and every placeholder notation (``{id}``,
    ``<id>``, ``:id``, ``${ID}``) is a variable. A route no operation has is reported with the
    nearest one (another method, a custom method written as a segment, a singular for a plural,
    one segment off, or the operation whose path it is with its leading segments left off:
    ``GET /service-info`` for ``GET /sequence/service-info``, where every path of the
    document starts with the part left off, and not where only a version prefix is left off,
    below a base path, or on a page that names the prefix alone, "paths are below
    ``/sequence``"; the message names the operation, so that a generic route of another API is
    the reader's to tell apart). A method in brackets (``**[POST]** /x``) is one. A route
    with an optional part (``/models/<m>[/versions/<v>]``) is two routes, each held; a path
    without its leading slash is a route where it starts as the API's do, or where the words
    beside it call it one ("the ``run/{id}/cancel`` endpoint", "the request path
    ``v2/model/m``"; a placeholder alone is no such word: ``agent/{name}`` is as often a
    value's format), and then a singular for the API's plural and a concrete path cut
    short of the API's (``…/versions/{v}`` left out) are named too. A path a code block holds
    alone is a route without its method; the request lines of any code block are read, an
    indented one's too, where they are written. A parameter called otherwise than the
    document's (``{id}`` for ``{table_name}``) is an info, and so is one spelt with hyphens for
    the API's underscores (``{collection-id}``) where the page also writes the API's spelling:
    alone, a separator variant is the same name (no client sends a parameter's name).

    A page is held to a document when two of its routes, and half of them, are that document's
    operations, or, for a page of one or two routes, when the pages of its version line together
    are; and a route is judged only when it looks like the API's own (an operation near it or
    starting as it does, or set apart under an "API Endpoints" heading and rooted as nearly all
    the API's paths are). In a repository of parts each with its own document (three top
    folders or more, none at the root: a core specification beside domain ones), a page is held
    only to its own part's documents; a route a path-item file declares that no document
    bundles, of the same name as the file a document keeps that path in (another part of a
    standard, ``paths/job-management/pJob.yaml`` beside ``paths/core/pJob.yaml``), is that
    part's. Aside: RFCs and design folders, roadmap, proposal,
    deprecation and known-issue sections, lines that say a route is removed or does not exist,
    changelogs, other hosts, route patterns, and method tables (``method-table-drift``'s). The
    cases are the tests', each named after it (``tests/test_routes_46*.py``).

    An OpenAPI or AsyncAPI document's own ``description`` text (CommonMark) is read as a page of
    its version bound to that document, and a route there is reported at the file's line (the
    line itself in a YAML literal block scalar, else the ``description`` key's); there a path
    alone one misspelt segment from an operation's (`/.well-knwon/x`) and a one-segment route in
    the singular (`POST /order` for `POST /orders`) are judged too, and a parameter called
    otherwise only where its name misspells the API's (``{SubI}`` for ``{SubId}``: a URL
    template there names its placeholders as it likes, ``:id``).

    Severity by evidence: a route written to be sent or looked up (a request line, ``curl``, a
    code span, front matter, a list, table or link entry, a diagram step) is a warning; a route
    in a sentence, the missing form of an optional part, a renamed parameter, a path named
    alone and a path a code block holds alone are infos.

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
    A page bound neither alone nor through its version line's pages is held to nothing (one
    route is no evidence of which API the page describes). A line that says "removed",
    "instead of" or "e.g." sets aside every route on it. Routes in program code (a client
    library's calls) are not read, nor a JSON Schema file's descriptions (JSON Schema gives
    them no markup, and a schema file belongs to no API).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.routes import (
    RouteCheck,
    RouteMention,
    held_pages,
    page_checks,
    page_routes,
)
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.model.descriptions import placed

ID = "route-undeclared"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
READS = "extract"  # of a page: the routes it names (speclint.analyses.units)

# A route in a sentence, or a path named alone, is weaker evidence than one set apart.
_WEAK = frozenset({"block", "text", "path"})


def extract(document: Document) -> tuple[RouteMention, ...]:
    return page_routes(document)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for held in held_pages(corpus):
        # An API document's descriptions are read as a page of its version bound to it, and
        # reported at the file's lines.
        described = held.described
        for route in page_checks(corpus, held.path, held.mentions, own_api=held.own_api):
            if route.missing:
                found = _finding(corpus, route)
                yield found if described is None else placed(described, found)
            elif route.renamed is not None and route.operations:
                if described is None:
                    yield _renamed(route)
                elif _misspelt(*route.renamed):
                    # A description's URL template names its placeholders as it likes (`:id`,
                    # `{merchantId}`); one misspelling the API's name (`{SubI}`) is a slip.
                    yield placed(described, _renamed(route))


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


# How alike a parameter's name must be to the API's to be a misspelling of it (difflib's ratio):
# `SubI` and `SubId` are 0.89, `merchantId` and `merchantAccount` 0.56, `id` and `sectionId` 0.36.
_MISSPELT_NAME = 0.8


def _misspelt(written: str, theirs: str) -> bool:
    return difflib.SequenceMatcher(None, written.lower(), theirs.lower()).ratio() >= _MISSPELT_NAME


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
