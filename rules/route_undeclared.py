"""A route the prose names that the API document of its version does not have.

What it does
    Reads every route a Markdown page names (a code span, a list, table or link entry, the
    request lines of ``http``/``hurl`` fences and code blocks, ``curl`` commands,
    sequence-diagram steps, Mintlify's ``openapi:`` front matter, a path a sentence calls an
    endpoint), and an API document's own ``description`` text, and holds each to the
    operations of the OpenAPI documents of the page's version, read as a client sends it:
    concrete values fill variables (``/jobs/job-42?view=FULL`` is ``/jobs/{jobId}``), the
    servers' base path may be written or not, a host is dropped, and every placeholder
    notation (``{id}``, ``<id>``, ``:id``, ``{{id}}``, ``$ID``, ``__ID__``) is a variable. A
    route no operation has is reported with the nearest one (another method, a segment off, a
    singular for a plural, its leading segments left off). A generated client's API pages
    that copy the document's descriptions are related to the finding at the document.

    A page is held to a document when two of its routes, and half of them, are its operations
    (or its version line's pages are). A route written to be sent (a request line, ``curl``, a
    code span, a list entry) is a warning; one in a sentence, a renamed parameter, or a path
    named without its method is an info.

Why is this bad?
    Readers copy the routes a guide shows. One the API does not serve fails with 404 or 405
    for everyone who follows the page.

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
    A page bound to no API document is held to nothing (one route is no evidence of which
    API it describes). Not read: RFCs and design folders, roadmap, proposal and changelog
    sections (history), routes said to be removed, other hosts, method tables
    (``method-table-drift``'s), program code, a JSON Schema file's descriptions.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from speclint.analyses.api.routes import (
    RouteCheck,
    RouteMention,
    generated_client_page,
    held_pages,
    page_checks,
    page_routes,
    sentence_at,
)
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.model.descriptions import API_KINDS, described_page, placed
from speclint.parsing.kinds import DocumentKind

ID = "route-undeclared"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
READS = "extract"  # of a page: the routes it names (speclint.analyses.units)

# A description's sentence long enough that a page holding it copies it, not says it anew.
COPIED_CHARS = 48
_PATH_MARK = re.compile(r"(?<![\w/])/[A-Za-z_{]")
# A route in a sentence, or a path named alone, is weaker evidence than one set apart.
_WEAK = frozenset({"block", "text", "path"})


def extract(document: Document) -> tuple[tuple[RouteMention, ...], tuple[str, ...]]:
    """The routes a page names, and its lines that may copy an API description naming one
    (``_copied_pages``): what the rule reads of a page, so the cache keys on both."""
    return page_routes(document), tuple(line for _, line in _path_lines(document))


def _path_lines(document: Document) -> Iterator[tuple[int, str]]:
    """The page's lines long enough to copy a description's sentence and naming a path."""
    for number, line in enumerate(document.lines, 1):
        if len(line) >= COPIED_CHARS and _PATH_MARK.search(line):
            yield number, line


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return _copies_folded(corpus, _findings(corpus))


def _findings(corpus: Context) -> Iterator[Finding]:
    for held in held_pages(corpus):
        # An API document's descriptions are read as a page of its version bound to it, and
        # reported at the file's lines.
        described = held.described
        for route in page_checks(corpus, held.path, held.mentions, own_api=held.own_api):
            if route.missing:
                found = _finding(corpus, route)
                if described is None:
                    yield found
                else:
                    yield _copied_pages(corpus, described.page, route, placed(described, found))
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


def _copied_pages(
    corpus: Context, described: Document, route: RouteCheck, finding: Finding
) -> Finding:
    """A description's finding, with the pages that copy its sentence as related locations: a
    reference page generated from the API document (a table of each schema's fields and their
    descriptions) repeats the wrong route, and is fixed by regenerating it once the document is
    fixed (as ``_copies_folded`` folds a generated client's pages)."""
    mention = route.mention
    line = described.lines[mention.line - 1] if 0 < mention.line <= len(described.lines) else ""
    sentence = sentence_at(line, mention.column).strip()
    if len(sentence) < COPIED_CHARS:
        return finding
    copies = []
    for page in corpus.of_kind(DocumentKind.MARKDOWN):
        for number, text in _path_lines(page):
            at = text.find(sentence)
            if at >= 0:
                note = "the same description, copied into this page"
                copies.append(Location(page.path, number, at + 1, note=note))
    if not copies:
        return finding
    return dataclasses.replace(finding, related=(*finding.related, *copies))


def _copies_folded(corpus: Context, findings: Iterable[Finding]) -> Iterator[Finding]:
    """The findings, a generated client page's copy of an API document's description folded
    into the description's finding: the fix is made once, in the API document, and the
    generator carries it over (as ``speclint.run.twins`` folds a document's copies). A route
    only the generated page names is its own finding."""
    found = list(findings)
    sources: dict[tuple[str, str], Finding] = {}
    for finding in found:
        document = corpus.documents.get(finding.location.path)
        if document is not None and document.kind in API_KINDS:
            sources.setdefault((finding.key or "", finding.location.path), finding)
    copies: dict[int, list[Location]] = {}
    folded: set[int] = set()
    for index, finding in enumerate(found):
        source = _copied_from(corpus, finding, sources)
        if source is not None:
            copies.setdefault(id(source), []).append(finding.location)
            folded.add(index)
    for index, finding in enumerate(found):
        if index in folded:
            continue
        if id(finding) in copies:
            places = {(c.path, c.line) for c in copies[id(finding)]}
            # a copy found by its sentence too (``_copied_pages``) is listed once, as folded
            kept = tuple(r for r in finding.related if (r.path, r.line) not in places)
            finding = dataclasses.replace(finding, related=(*kept, *copies[id(finding)]))
        yield finding


def _copied_from(
    corpus: Context, finding: Finding, sources: Mapping[tuple[str, str], Finding]
) -> Finding | None:
    """The API document's finding a generated client page's finding copies: the same route,
    on a line that is a line of the document's descriptions."""
    page = corpus.documents.get(finding.location.path)
    if page is None or not generated_client_page(page) or not finding.related:
        return None
    source = sources.get((finding.key or "", finding.related[0].path))
    described = described_page(corpus.documents[finding.related[0].path])
    line = page.lines[finding.location.line - 1].strip() if finding.location.line else ""
    if source is None or described is None or not line:
        return None
    return source if line in (described.page.text or "") else None


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
