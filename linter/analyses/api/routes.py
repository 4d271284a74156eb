"""The routes a page's prose names, bound to the operations of its API document (issue 46,
item 7).

A page names routes in code spans, bullet lists of endpoints, link texts, tables, the request
lines of HTTP fences, ``curl`` commands and sequence diagrams (``speclint.parsing.routes`` reads
them). Each is an operation's method and templated path, written as a client sends it:
concrete values stand for a path's variables (``/jobs/job-42`` is ``/jobs/{jobId}``), the query
is no part of the path, the server's base path may be written before it or left out (OpenAPI
3.1 §4.8.8: a path is relative to a Server Object's URL), and a full URL's host is the server's.

A page's routes are held to an API document only once the page is bound to it: of the routes
the page names with a method (each once), at least two, and half, are operations of that
document (as a method table is bound, ``speclint.analyses.grpc.surfaces.bound``), so a page about
another API, or an API the corpus has no document for, is not read as this one's. A route is
said to be missing only when it looks like the API's own: an operation near it (the same path
with another method, one segment off, another version prefix) or, below the same base path,
one whose path starts with its first segment, or its host is a server's. What is aside:

- a page of design records or proposals (``speclint.parsing.kinds.in_design_folder``, an RFC);
- a section about what is not (yet, or any longer) the API: "Future", "Proposed", "Roadmap",
  "Planned", "Deprecated", "Migration", a changelog, release notes;
- a route to another host than the API's servers (a third-party API); a placeholder
  (``{baseUrl}``, ``$API``) or a host of documentation (``localhost``, ``example.com``,
  RFC 6761's reserved names) stands for the API's server;
- a page of another version line (``Context.versions``): no document of it is compared.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from speclint.analyses.api.operations import Operation, api_operations, base_paths
from speclint.analyses.context import Context
from speclint.analyses.grpc.surfaces import bound, method_rows, route_shape
from speclint.analyses.prose.rfcs import is_rfc
from speclint.model.corpus import Document
from speclint.model.descriptions import API_KINDS, DescribedPage, described_page
from speclint.parsing.kinds import SAMPLE_FOLDERS, DocumentKind, in_design_folder, is_changelog
from speclint.parsing.prose import Heading, ProseDocument
from speclint.parsing.routes import (
    METHODS,
    SEQUENCE_LANGUAGES,
    SHELL_LANGUAGES,
    Request,
    curl_requests,
    front_matter_routes,
    is_file,
    optional_forms,
    paths_in_text,
    relative_route,
    request_lines,
    routes_in_text,
    segments_in_text,
    sequence_steps,
    split_target,
    whole_route,
)

# How a route is written, from the strongest evidence to the weakest: a request a reader sends
# as shown, a route set apart as code or as an entry of a list or table, a route in a sentence.
FORMS = (
    "request", "curl", "sequence", "front-matter", "code", "link", "list", "table", "block", "text",
    "path",
)  # fmt: skip
# Sections about what the API is not, or no longer: their routes are no claim about it.
_ASIDE_HEADING = re.compile(
    r"(?i)\b(?:future|proposed|proposals?|roadmap|planned|upcoming|not yet|coming soon|"
    r"wish ?list|ideas|drafts?|deprecated|deprecations|removed|removals|legacy|migrat\w*|"
    r"upgrad\w*|change ?log|changes|release notes|what'?s new|breaking|history|alternatives?|"
    r"open questions?|todo|rejected|defects?|errata|known issues|mistakes|pitfalls)\b"
)
_ASIDE_PAGE = re.compile(r"(?i)^(?:roadmap|migrat\w*|upgrad\w*)(?:\.\w+)*$")  # and changelogs
# A sentence that says the route is not (or no longer) the API's, is a mistake, or is only
# an illustration ("e.g. on `POST /v1/things` or equivalent", a parenthesis's "e.g." offering
# a shape the API might have). "For example" is no such word: it opens a worked example, a
# request a reader sends ("for example, the request path could look like `v2/models/m`").
_ASIDE_LINE = re.compile(
    r"(?i)\b(?:deprecated|removed|no longer|replaced by|renamed|formerly|previously|legacy|"
    r"will be|planned|proposed|future|no operation|its operation|wrong|incorrect|typo|mistaken|"
    r"misspel\w*|should be|rather than|or equivalent|hypothetical|instead of|"
    r"used to|not supported|unsupported|there is no|there'?s no|no such|does not exist|"
    r"doesn'?t exist|not exposed)\b|\be\.g\."
)
# Hosts that stand for "your server" in documentation (RFC 2606, RFC 6761).
_GENERIC_HOST = re.compile(
    r"^(?:\{\}|localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|host\.docker\.internal|"
    r"(?:[\w-]+\.)*(?:example\.(?:com|org|net)|example|test|invalid|localhost|local))$"
)
_VARIABLE = re.compile(r"\$\{[^{}]*\}|\{\{[^{}]*\}\}|\{[^{}]*\}|<[^<>]*>|%7B[^/]*%7D")
# A variable's name as written: `{id}`, `{{id}}`, `<id>`, `:id`, `${ID}`, `$ID`.
_NAMED_VARIABLE = re.compile(
    r"\$\{([^{}]*)\}|\{\{([^{}]*)\}\}|\{([^{}=]*)(?:=[^{}]*)?\}|<([^<>]*)>|:(\w+)|\$(\w+)"
)
# A placeholder written as a word in capitals, as a whole segment: `__THREAD_ID__`, `RUN_ID`,
# `ID_HERE`, `YOUR_AGENT_ID` (an underscore in it: `SMS` or `V2` alone may be a real segment).
_PLACEHOLDER_WORD = re.compile(
    r"__(\w+?)__|(?:YOUR_|MY_)?([A-Z][A-Z0-9]*(?:_(?!HERE\b)[A-Z0-9]+)*)(?:_HERE)?"
)
# A shell variable is one only as a whole segment (`/jobs/$JOB_ID`): `msg1$details` is a name.
_SHELL_VARIABLE = re.compile(r"\$\{?[A-Za-z_]\w*\}?")
# A path segment that says the route is a sample's or a test harness's, not the API's.
_SAMPLE_SEGMENTS = SAMPLE_FOLDERS | {"test", "tests", "demo", "mock"}
# A pattern standing for several routes: a glob, an elision, alternatives in braces.
_PATTERN = re.compile(r"\*|\.\.\.|…|\{[^{}]*[,|][^{}]*\}|\|")
# Words that call the path beside them a route (not a file's, a package's or a media type's).
_ROUTE_WORDS = re.compile(
    r"(?i)\b(?:end ?points?|routes?|request (?:path|url|uri)s?|URLs?|URIs?|API paths?)\b"
)
# Words that say a path in a sentence is called ("calls /runs/{id}/wait", "a request to
# /jobs/{id}", "an identifier that can be used with /jobs_status to ..."), beside the words
# that name it a route.
_CALL_WORDS = re.compile(
    r"(?i)\b(?:calls?|calling|called|requests? to|sent to|sends? \w+ to|invok\w+|polls?|"
    r"polling|(?:be |is |are )?used with|via)\b"
)
_VERSION = re.compile(r"(?i)^(?:v\d+(?:[.-]\w+)*|\d+(?:\.\d+)*|api|rest)$")


@dataclass(frozen=True)
class RouteMention:
    """A route a page names: ``method`` is upper case ("" for a path named alone), ``target``
    as written (a path, or a URL), ``form`` one of :data:`FORMS`; ``aside`` says why it is no
    claim about the API ("" when it is one)."""

    line: int
    column: int
    method: str
    target: str
    form: str
    heading: str = ""
    aside: str = ""
    host: str = ""  # a `Host` header field under a request line
    # Written without its leading slash (`v2/models/x/ready`): a route only where it is the API's.
    relative: bool = False
    # Of a route written with an optional part (`/models/<m>[/versions/<v>]`): the other form.
    other: str = ""
    # A path on a line of its own (read only where the API has a path near it).
    alone: bool = False
    # A path without its leading slash that the words beside it call a route ("the
    # `run/{run_id}/cancel` endpoint", "the request path `v2/models/m`"). A placeholder is no
    # such word: `agent/{name}` is as often a value's format, a topic or a resource name.
    cued: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.target}".strip()


def page_routes(document: Document) -> tuple[RouteMention, ...]:
    """The routes the page names, in page order, each place once (a route in a code span is not
    read again as the list item's text around it); the rows of method tables are
    ``method-table-drift``'s. Pure function of the page."""
    prose = document.prose if document.usable else None
    if prose is None:
        return ()
    page_aside = _page_aside(document)
    lines = (document.text or "").split("\n")
    tables = {row.line for row in method_rows(document)}
    found: dict[tuple[int, str, str], RouteMention] = {}

    def add(line: int, column: int, method: str, target: str, form: str, heading: Heading | None,
            host: str = "", relative: bool = False, alone: bool = False,
            sentence: str | None = None) -> None:  # fmt: skip
        forms = optional_forms(target)
        if len(forms) > 1:
            # `POST /models/<m>[/versions/<v>]/infer`: two routes, each held to the API
            for one, other in ((forms[0], forms[1]), (forms[1], forms[0])):
                _add(line, column, method, one, form, heading, host, relative, alone, other,
                     sentence)  # fmt: skip
        else:
            _add(line, column, method, target, form, heading, host, relative, alone, "",
                 sentence)  # fmt: skip

    def _add(line: int, column: int, method: str, target: str, form: str,
             heading: Heading | None, host: str, relative: bool, alone: bool,
             other: str, sentence: str | None) -> None:  # fmt: skip
        if line in tables:
            return
        key = (line, method, split_target(target).path)
        if key in found and FORMS.index(found[key].form) <= FORMS.index(form):
            return
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if sentence is not None:
            text = sentence  # a route in running text: its sentence says what it is
        aside = page_aside or _heading_aside(heading)
        if not aside and not written_shape(split_target(target).path):
            aside = "the root, or a placeholder for a path"
        if not aside and _SAMPLE_SEGMENTS & set(written_shape(split_target(target).path)):
            aside = "a sample's or a test's route"
        if not aside and _PATTERN.search(target):
            aside = "a pattern of routes, not one"
        if not aside and _ASIDE_LINE.search(text):
            aside = f"its line says `{_ASIDE_LINE.search(text).group(0)}`"  # type: ignore[union-attr]
        name = heading.anchor if heading is not None else ""
        cued = relative and _ROUTE_WORDS.search(_beside(text, column, target)) is not None
        cued = cued or sentence is not None  # read only where its words call it a route
        found[key] = RouteMention(
            line, column, method, target, form, name, aside, host, relative, other, alone, cued
        )

    for request in front_matter_routes(document.text or ""):
        # the page's front matter names its operation (Mintlify's `openapi:`): a claim as firm
        # as a code span's
        add(request.line + 1, request.offset + 1, request.method, request.target, "front-matter",
            None)  # fmt: skip
    linked = {(link.line, link.text.strip()) for link in prose.links}
    for span in prose.inline_code:
        route = whole_route(span.text)
        relative = relative_route(span.text) if route is None else None
        if route is not None:
            add(span.line, span.column, route[0], route[1], "code", span.heading)
        elif _path_alone(span.text):
            if (span.line, f"`{span.text}`") in linked or (span.line, span.text) in linked:
                continue  # a page link's text
            add(span.line, span.column, "", span.text.strip(), "path", span.heading)
        elif relative is not None:
            form = "code" if relative[0] else "path"
            add(span.line, span.column, *relative, form, span.heading, relative=True)
    for link in prose.links:
        route = whole_route(link.text.replace("`", ""))
        if route is not None:
            add(link.line, _column(lines, link.line, route[1]), *route, "link", link.heading)
    for paragraph in prose.paragraphs:
        plain = paragraph.plain
        alone = plain.strip()
        if (
            paragraph.line == paragraph.end_line
            and not paragraph.in_list_item
            and _path_alone(alone)
            and not paragraph.links
        ):
            line = paragraph.line
            add(line, _column(lines, line, alone), "", alone, "path", paragraph.heading, alone=True)
        for method, target, offset in routes_in_text(plain):
            line = _line_of(lines, paragraph.line, paragraph.end_line, target)
            start = plain[:offset].strip(" [*_")
            form = "list" if paragraph.in_list_item and not start else "text"
            add(line, _column(lines, line, target, method), method, target, form,
                paragraph.heading)  # fmt: skip
        spans = [
            span.text
            for span in prose.inline_code
            if paragraph.line <= span.line <= paragraph.end_line
        ]
        # a path of one segment (`/jobs_status`) too, on the same terms: a name a sentence
        # calls a route is one whatever its length
        for target, offset in [*paths_in_text(plain), *segments_in_text(plain)]:
            if any(target in span for span in spans):
                continue  # a code span's (`/v2/admin/...`: a pattern), read as what it is
            # a path with no method is a route only where the sentence calls it one ("similar
            # to the /threads/{id}/runs/stream endpoint", "then call /jobs/{id}/wait")
            beside = _beside(plain, offset + 1, target)
            if _ROUTE_WORDS.search(beside) or _CALL_WORDS.search(beside):
                line, column, written = _written(lines, paragraph.line, paragraph.end_line, target)
                if (line, "", split_target(written).path) in found:
                    continue  # a code span's, read as what it is
                add(line, column, "", written, "text", paragraph.heading,
                    sentence=sentence_at(plain, offset))  # fmt: skip
    _table_routes(prose, lines, add)
    for fence in prose.fences:
        language = fence.language.lower()
        requests: Iterable[tuple[Request, str]]
        if language in SEQUENCE_LANGUAGES:
            requests = ((r, "sequence") for r in sequence_steps(fence.content))
        else:
            requests = [(r, "request") for r in request_lines(language, fence.content)]
            if not requests and language in SHELL_LANGUAGES:
                requests = ((r, "curl") for r in curl_requests(fence.content))
        first = fence.line + 1  # an indented block's `line` is the one above it, as a fence's
        for request, form in requests:
            line = first + request.line
            add(line, request.offset + 1 + fence.margin, request.method,
                request.target, form, fence.heading, request.host)  # fmt: skip
        held = _block_path(language, fence.content)
        if held is not None:
            line = first + held[0]
            add(line, _column(lines, line, held[1]), "", held[1], "block", fence.heading,
                alone=True)  # fmt: skip
    paths = {(m.line, split_target(m.target).path) for m in found.values() if m.method}
    return tuple(
        sorted(
            (m for m in found.values() if m.method or (m.line, m.target) not in paths),
            key=lambda m: (m.line, m.column, m.method),
        )
    )


def _page_aside(document: Document) -> str:
    name = document.path.rsplit("/", 1)[-1]
    if in_design_folder(document.path):
        return "a page of design records or proposals"
    if any(part.lower() in SAMPLE_FOLDERS for part in document.path.split("/")[:-1]):
        return "a sample's page (its routes may be the sample's own)"
    if _SAMPLE_SEGMENTS & set(re.split(r"[-_. ]", name.lower())):
        return "a sample's or a test's page"
    if _ASIDE_PAGE.match(name) or is_changelog(name):
        return f"`{name}` is about other versions"
    if is_rfc(document):
        return "an RFC"
    return ""


def _heading_aside(heading: Heading | None) -> str:
    for title in heading.path if heading is not None else ():
        if _ASIDE_HEADING.search(title):
            return f'under the heading "{title}"'
    return ""


def _beside(text: str, column: int, target: str) -> str:
    """The words of a line just before and after a route written at ``column`` (1-based): what
    the sentence calls it ("the request path could look like `x`", "the `x` endpoint")."""
    start = max(0, column - 1)
    return text[max(0, start - 40) : start + len(target) + 24]


def _path_alone(text: str) -> bool:
    """A code span that is a path (or a URL) alone, with two segments or more."""
    text = text.strip()
    if " " in text or not re.match(r"(?:https?://[^/\s]+)?/[\w{}\-.:~%$<>]+/", text):
        return False
    return "://" in text or text.startswith("/")


def _line_of(lines: list[str], first: int, last: int, text: str) -> int:
    for number in range(first, min(last, len(lines)) + 1):
        if text in lines[number - 1]:
            return number
    return first


def _written(lines: list[str], first: int, last: int, target: str) -> tuple[int, int, str]:
    """Where a path read in a paragraph's plain text is written, and as it is written there:
    emphasis marks are markup to CommonMark (``/threads/__ID__/runs`` reads ``/threads/ID/runs``)
    but a placeholder's spelling to its author."""
    pattern = "/".join(f"[_*]*{re.escape(part)}[_*]*" for part in target.split("/"))
    for number in range(first, min(last, len(lines)) + 1):
        match = re.search(pattern, lines[number - 1])
        if match is not None:
            return number, match.start() + 1, match.group(0)
    return first, 1, target


def sentence_at(text: str, offset: int) -> str:
    """The sentence of ``text`` around ``offset``: a long paragraph's other sentences say
    nothing of a route in this one."""
    start = max(text.rfind(". ", 0, offset), text.rfind("\n", 0, offset)) + 1
    end = min((at for at in (text.find(". ", offset), text.find("\n", offset)) if at >= 0),
              default=len(text))  # fmt: skip
    return text[start:end]


def _column(lines: list[str], line: int, target: str, method: str = "") -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    at = text.find(target)
    if at >= 0 and method:
        before = text.rfind(method, 0, at)
        at = before if before >= 0 else at
    return at + 1 if at >= 0 else 1


def _block_path(language: str, content: str) -> tuple[int, str] | None:
    """A path a code block holds alone (```` ``` ```` then ``/tables/t-1/data``): its 0-based
    line in the block and the path. Only an untagged or plain-text block, of that one line: a
    reader copies it to request it, as a request line without its method."""
    if language not in ("", "text", "plaintext", "txt", "http"):
        return None
    written = [(n, line.strip()) for n, line in enumerate(content.split("\n")) if line.strip()]
    if len(written) != 1 or not _path_alone(written[0][1]):
        return None
    return written[0]


_METHOD_HEADER = re.compile(r"(?i)^\W*(?:http\s+)?(?:method|verb)s?\W*$")
_PATH_HEADER = re.compile(r"(?i)^\W*(?:path|endpoint|route|url|uri|resource)s?\W*$")


# CommonMark §2.4: a backslash before ASCII punctuation writes that character (`\<name\>` a
# placeholder a table shows as `<name>`).
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


_EMPHASIS = re.compile(r"(?<!/)\*")


def _cell_text(text: str) -> str:
    """A table cell's route as it reads: code and emphasis marks dropped (a `*` after a `/` is a
    wildcard, kept: `POST /admin/recovery/*` is a pattern, not `/admin/recovery/`), escapes
    written out."""
    return _ESCAPED.sub(r"\1", _EMPHASIS.sub("", text.replace("`", "")))


def _table_routes(prose: ProseDocument, lines: list[str], add: object) -> None:
    """Routes a table gives: a cell that is a route (``GET /jobs``), or a row of a table with
    a column of methods and one of paths."""
    assert callable(add)
    for table in prose.tables:
        headers = [cell.text.strip() for cell in table.header]
        method_column = next((n for n, h in enumerate(headers) if _METHOD_HEADER.match(h)), None)
        path_column = next((n for n, h in enumerate(headers) if _PATH_HEADER.match(h)), None)
        for row in table.rows:
            for cell in row:
                written = _cell_text(cell.text)
                route = whole_route(written)
                if route is not None:
                    column = _column(lines, cell.line, route[1], route[0])
                    add(cell.line, column, *route, "table", table.heading)
                    continue
                relative = relative_route(written)
                if relative is not None:
                    column = _column(lines, cell.line, relative[1], relative[0])
                    form = "table" if relative[0] else "path"
                    add(cell.line, column, *relative, form, table.heading, relative=True)
            if method_column is None or path_column is None:
                continue
            if max(method_column, path_column) >= len(row):
                continue
            method = _cell_text(row[method_column].text).strip()
            path = _cell_text(row[path_column].text).strip()
            route = whole_route(f"{method} {path}")
            slashless = route is None
            route = route or relative_route(f"{method} {path}")
            if route is not None and route[0]:
                column = _column(lines, row[path_column].line, route[1])
                add(row[path_column].line, column, *route, "table", table.heading,
                    relative=slashless)  # fmt: skip


@dataclass(frozen=True)
class RouteCheck:
    """A route of a page against the API document the page is bound to: the operations it
    names (of any document of the page's version), or the nearest one; ``why`` says why it is
    not judged ("" when it is)."""

    page: str
    mention: RouteMention
    document: str  # the API document the page is bound to ("" none)
    operations: tuple[Operation, ...] = ()
    near: Operation | None = None
    difference: str = ""  # how the nearest differs ("which is GET", "whose path says ...")
    why: str = ""
    # A parameter the route names otherwise than its operation: (as written, the API's name).
    renamed: tuple[str, str] | None = None
    # The page binds no document alone: the routes of its version line (all pages) bind it.
    through_repository: bool = False
    # What made a route no operation starts as the API's own, where it is not its shape: its
    # form or the words around it (`speclint bindings` says it).
    evidence: str = ""

    @property
    def missing(self) -> bool:
        return not self.why and not self.operations


def page_checks(
    corpus: Context, page: str, mentions: Iterable[RouteMention], own_api: str = ""
) -> list[RouteCheck]:
    """Each route of the page with what it names, once the page is bound to an API document;
    each with why it is not judged otherwise. A path written without its leading slash that is
    not the API's is no route, and is left out. ``own_api``: the API document the page is bound
    to whatever its routes say (an API document's own descriptions are about it: a misspelt
    path alone, a one-segment route in the singular, is judged there)."""
    mentions = list(mentions)
    operations = _line_operations(corpus, page)
    parts = _parts(operations)
    part = _top_folder(page) if parts else ""
    if parts:
        operations = [op for op in operations if _top_folder(op.document.path) == part]
    if not operations:
        why = "no API document of the page's version"
        if parts:
            why = f"no API document in the page's part of the repository (theirs: {', '.join(sorted(parts))})"
        return [RouteCheck(page, m, "", why=why) for m in mentions if not m.relative]
    hosts = _server_hosts(operations)
    index = _line_index(corpus, page, operations, part)
    served, whys = _served(mentions, operations, hosts, index)
    claims = _claims(mentions, served, whys)
    document, matched, given = _bound_document(claims, served)
    document = own_api or document
    loose = False
    if not document and given <= 2:
        # One or two routes bind no page alone; the pages of its version line together may
        # (the same gate over all their routes): then a route that looks like the API's own
        # is judged here too.
        document = _repository_document(corpus, page, operations, hosts, part)
        loose = bool(document)
    own = [op for op in operations if op.document.path == document]
    spelled = _spellings(mentions)
    text = _page_text(corpus, page, described=bool(own_api))
    checks: list[RouteCheck] = []
    for mention in mentions:
        found = served[mention]
        if mention.relative and not found and not _relative_ours(mention, own):
            continue  # `application/json`, `src/main`: a path of something else
        if mention in whys:
            checks.append(RouteCheck(page, mention, document, found, why=whys[mention]))
        elif not document:
            found_in = f"{matched} of its {given}"
            why = f"the page is bound to no API document ({found_in} routes with a method found)"
            checks.append(RouteCheck(page, mention, "", found, why=why))
        elif found:
            renamed = _renamed(mention, found) or _respelled(mention, found, spelled)
            checks.append(RouteCheck(page, mention, document, found, renamed=renamed,
                                     through_repository=loose))  # fmt: skip
        else:
            check = _judged(page, mention, document, own, hosts, loose, bool(own_api), text)
            part = _unbundled_part(corpus, mention) if check.missing else ""
            if part:
                why = (
                    f"`{part}` declares it, a path item for this path that no API document "
                    "bundles (a part of the API the document does not cover)"
                )
                check = dataclasses.replace(check, why=why)
            checks.append(dataclasses.replace(check, through_repository=loose))
    return _optional_forms(checks)


def _page_text(corpus: Context, page: str, described: bool = False) -> str:
    """The page's text; for an API document's descriptions, the page they make (not the
    YAML or JSON around them)."""
    document = corpus.documents.get(page)
    if document is None:
        return ""
    if described:
        made = described_page(document)
        return made.page.text or "" if made is not None else ""
    return document.text or ""


def _line_index(
    corpus: Context, page: str, operations: list[Operation], part: str = ""
) -> dict[int, list[_Indexed]]:
    """:func:`_by_length` of the operations of the page's version (and part), made once per
    version."""
    key = f"route-undeclared:index:{corpus.versions.of(page)}:{part}"
    cached = corpus.memo.get(key)
    if not isinstance(cached, dict):
        cached = _by_length(operations)
        corpus.memo[key] = cached
    return cached


def _unbundled_part(corpus: Context, mention: RouteMention) -> str:
    """The path-item file that declares the route's method for its path, where an API document
    keeps that path in a file of the same name elsewhere (``/jobs/{jobID}: $ref:
    paths/core/pJob.yaml`` beside ``paths/job-management/pJob.yaml`` with ``patch``): the
    repository's parts of the API that its document leaves out (a standard's later part), not
    an operation missing; "" when there is none."""
    if not mention.method:
        return ""
    referred, named = _path_item_files(corpus)
    shape = written_shape(split_target(mention.target).path)
    template = any("{}" in segment for segment in shape)
    method = mention.method.lower()
    for theirs, file in referred:
        if len(theirs) != len(shape):
            continue
        if not all(_segment(a, b, template) for a, b in zip(shape, theirs, strict=True)):
            continue
        for other in named.get(posixpath.basename(file), ()):
            data = other.data
            if other.path != file and isinstance(data, dict) and isinstance(data.get(method), dict):
                return other.path
    return ""


def _path_item_files(
    corpus: Context,
) -> tuple[list[tuple[tuple[str, ...], str]], dict[str, list[Document]]]:
    """The path items API documents keep in files (each path's shape and the file), and the
    corpus's JSON and YAML documents by file name; made once."""
    key = "route-undeclared:path-item-files"
    cached = corpus.memo.get(key)
    if isinstance(cached, tuple):
        return cached
    referred: list[tuple[tuple[str, ...], str]] = []
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        paths = document.data.get("paths") if isinstance(document.data, dict) else None
        for route, item in sorted(paths.items()) if isinstance(paths, dict) else ():
            written = item.get("$ref") if isinstance(item, dict) else None
            if not isinstance(written, str) or "://" in written:
                continue
            file = written.split("#", 1)[0]
            if file:
                folder = posixpath.dirname(document.path)
                referred.append(
                    (_route_shape(str(route)), posixpath.normpath(posixpath.join(folder, file)))
                )
    named: dict[str, list[Document]] = {}
    if referred:
        wanted = {posixpath.basename(file) for _, file in referred}
        for path in sorted(corpus.documents):
            name = posixpath.basename(path)
            if name in wanted and corpus.documents[path].usable:
                named.setdefault(name, []).append(corpus.documents[path])
    corpus.memo[key] = (referred, named)
    return referred, named


def _top_folder(path: str) -> str:
    return path.split("/", 1)[0] if "/" in path else ""


def _parts(operations: list[Operation]) -> frozenset[str]:
    """The top folders of the API documents, where the repository is parts each with its own
    document (three top folders or more, no document at the root: a family of domain
    specifications beside a core one, ``core/`` with ``messages/schemas/openapi.json`` and
    ``endpoints/…``), three of them different APIs (not copies of one); else none. A page of such a repository is held only to the documents of
    its own part: a core spec's generic routes are no claim about one domain's document."""
    surfaces: dict[str, set[tuple[str, str]]] = {}
    for op in operations:
        surfaces.setdefault(_top_folder(op.document.path), set()).add((op.method, op.path))
    # copies of one API (a client's, a generated one) in other folders are one part, not three
    distinct = {frozenset(surface) for surface in surfaces.values()}
    if "" in surfaces or len(distinct) < 3:
        return frozenset()
    return frozenset(surfaces)


def _line_operations(corpus: Context, page: str) -> list[Operation]:
    return [
        op for op in api_operations(corpus) if corpus.versions.comparable(page, op.document.path)
    ]


def _served(
    mentions: list[RouteMention],
    operations: list[Operation],
    hosts: set[str],
    index: dict[int, list[_Indexed]],
) -> tuple[dict[RouteMention, tuple[Operation, ...]], dict[RouteMention, str]]:
    served: dict[RouteMention, tuple[Operation, ...]] = {}
    whys: dict[RouteMention, str] = {}
    # A route that starts with a variable (`/<GROUPS>/<GID>`) where no operation does is a
    # template over any collection (a family of APIs), not a route of this one.
    rooted = any(_shape(op)[:1] == ("{}",) for op in operations)
    for mention in mentions:
        target = split_target(mention.target)
        host = (mention.host or target.host).lower().rsplit(":", 1)[0] if (
            mention.host or target.host) else ""  # fmt: skip
        if mention.aside:
            whys[mention] = mention.aside
        elif host and host not in hosts and not _GENERIC_HOST.match(host):
            whys[mention] = f"another host than the API's servers (`{host}`)"
        elif not rooted and written_shape(target.path)[:1] == ("{}",):
            whys[mention] = "a template over any collection (its first segment is a variable)"
        served[mention] = _served_by(mention.method.lower(), target.path, index)
    return served, whys


# An operation as the index keeps it: its place in the list, itself, its path's shapes of one
# length (alone and below each base path).
_Indexed = tuple[int, Operation, tuple[tuple[str, ...], ...]]


def _by_length(operations: list[Operation]) -> dict[int, list[_Indexed]]:
    """The operations by the number of segments of their paths (alone and below each base
    path): a route is compared only with those of its length (a page's routes times a large
    document's operations, for every page of a version line, was most of the rule's time)."""
    index: dict[int, list[_Indexed]] = {}
    for place, op in enumerate(operations):
        lengths: dict[int, list[tuple[str, ...]]] = {}
        for _, theirs in _shapes(op):
            lengths.setdefault(len(theirs), []).append(theirs)
        for length, shapes in lengths.items():
            index.setdefault(length, []).append((place, op, tuple(shapes)))
    return index


def _serves(method: str, operation: Operation) -> bool:
    """Whether the operation answers the method: its own (HEAD is served by GET, RFC 9110
    §9.3.2; OPTIONS by any operation of the path, a CORS preflight); any for a path alone."""
    if not method or method in (operation.method, "options"):
        return True
    return method == "head" and operation.method == "get"


def _served_by(method: str, path: str, index: dict[int, list[_Indexed]]) -> tuple[Operation, ...]:
    """The operations a route names (:func:`_path_names`), in their order: only those with a
    path of its length, or one more for a trailing slash, are compared."""
    shape = written_shape(path)
    lengths = [len(shape), len(shape) + 1] if path.endswith("/") and shape else [len(shape)]
    found: dict[int, Operation] = {}
    for length in lengths:
        for place, op, shapes in index.get(length, ()):
            if place not in found and _serves(method, op) and _path_names(shape, path, shapes):
                found[place] = op
    return tuple(found[place] for place in sorted(found))


def _path_names(shape: tuple[str, ...], path: str, shapes: Iterable[tuple[str, ...]]) -> bool:
    """Whether the written path (``shape``, :func:`written_shape` of ``path``) is one of an
    operation's path ``shapes`` (alone, or below a base path), or one of them with an empty last
    variable (:func:`_empty_last`)."""
    template = any("{}" in segment for segment in shape)
    trailing = path.endswith("/") and bool(shape)
    return any(
        (
            len(theirs) == len(shape)
            and all(_segment(a, b, template) for a, b in zip(shape, theirs, strict=True))
        )
        or (trailing and _empty_last(shape, theirs))
        for theirs in shapes
    )


def _empty_last(shape: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Whether a written path with a trailing slash (``/share-codes/barb/``) is the operation's
    path with an empty last variable: a value where the operation has a variable before it (a
    default server's empty name); after a word (``/jobs/``) the slash is the word's."""
    return (
        len(theirs) == len(shape) + 1
        and theirs[-2] == "{}"
        and shape[-1] != "{}"
        and theirs[-1] == "{}"
        and all(map(_segment, shape, theirs))
    )


def _claims(
    mentions: list[RouteMention],
    served: dict[RouteMention, tuple[Operation, ...]],
    whys: dict[RouteMention, str],
) -> dict[RouteMention, str]:
    """The routes with a method that bind a page (a path without its leading slash only where
    it is an operation's: else it may be anything's)."""
    return {
        m: _key(m) for m in mentions if m.method and m not in whys and (served[m] or not m.relative)
    }


def _bound_document(
    claims: dict[RouteMention, str], served: dict[RouteMention, tuple[Operation, ...]]
) -> tuple[str, int, int]:
    """The document the claims bind (two of them, and half, its operations): (path or "", the
    most found in one document, the distinct claims)."""
    counts: Counter[str] = Counter()
    for key in set(claims.values()):
        counts.update({op.document.path for m, k in claims.items() if k == key for op in served[m]})
    given = len(set(claims.values()))
    if not counts:
        return "", 0, given
    best, matched = min(counts.items(), key=lambda item: (-item[1], item[0]))
    return (best if bound(matched, given) else ""), matched, given


def _repository_document(
    corpus: Context, page: str, operations: list[Operation], hosts: set[str], part: str = ""
) -> str:
    """The document the routes of every page of the page's version line (and part) bind
    together (each route once), by the gate a page is bound by; "" when they bind none."""
    version = corpus.versions.of(page)
    key = f"route-undeclared:repository:{version}:{part}"
    cached = corpus.memo.get(key)
    if isinstance(cached, str):
        return cached
    claims: dict[RouteMention, str] = {}
    served: dict[RouteMention, tuple[Operation, ...]] = {}
    seen: set[str] = set()
    for other in corpus.of_kind(DocumentKind.MARKDOWN):
        if corpus.versions.of(other.path) != version:
            continue
        if part and _top_folder(other.path) != part:
            continue
        mentions = list(page_routes(other))
        index = _line_index(corpus, page, operations, part)
        their_served, their_whys = _served(mentions, operations, hosts, index)
        for mention, claim in _claims(mentions, their_served, their_whys).items():
            if claim not in seen:
                seen.add(claim)
                claims[mention] = claim
                served[mention] = their_served[mention]
    document = _bound_document(claims, served)[0]
    corpus.memo[key] = document
    return document


def _relative_ours(mention: RouteMention, own: list[Operation]) -> bool:
    """Whether a path written without its leading slash is the API's: its first segment (below
    a base path and a version prefix) is an operation's, or an operation is near it."""
    shape = written_shape(split_target(mention.target).path)
    bases = {route_shape(b) for op in own for b in base_paths(op.document)} - {()}
    return (
        _first_ours(shape, bases, own, plural=mention.cued)
        or nearest(mention.method, shape, own, cut_short=_cut_short(mention, shape)) is not None
    )


def _cut_short(mention: RouteMention, shape: tuple[str, ...]) -> bool:
    """Whether a route is held to the operations whose paths go on below it: a concrete path
    its words call a route (``v2/models/my_model``, a request to send); a template cut short
    (``/models/{name}``) is more often the family's root the prose names."""
    return mention.cued and not any("{}" in segment for segment in shape)


def _first_ours(
    shape: tuple[str, ...], bases: set[tuple[str, ...]], own: list[Operation], plural: bool = False
) -> bool:
    """Whether the route's first segment below a base path and a version prefix is the first
    segment of an operation's path (below its version prefix); with ``plural``, or its singular
    or plural (a path its words call a route, misremembered: `run/{id}` for `runs/{id}`)."""
    rest = _unversioned(shape, bases)
    if not rest or "{}" in rest[0]:
        return False
    first = rest[0].split(":", 1)[0]  # `runs:fork`: the collection `runs`'s custom method
    for op in own:
        theirs = _unversioned(_shape(op), set())[:1]
        if theirs == (first,) or (plural and theirs and _plural(first, theirs[0])):
            return True
    return False


def _renamed(mention: RouteMention, found: tuple[Operation, ...]) -> tuple[str, str] | None:
    """A parameter the route names otherwise than every operation it names does."""
    path = split_target(mention.target).path
    renames = [renamed_parameter(path, op) for op in found]
    if not renames or any(r is None for r in renames):
        return None
    return renames[0]


def _spellings(mentions: Iterable[RouteMention]) -> set[str]:
    """The parameter names the page's routes write, each as written."""
    return {
        name
        for mention in mentions
        for name in _variable_names(split_target(mention.target).path)
        if name
    }


def _respelled(
    mention: RouteMention, found: tuple[Operation, ...], spelled: set[str]
) -> tuple[str, str] | None:
    """A parameter the route spells with hyphens (``{collection-id}``) where the API writes
    underscores (``{collection_id}``), or the reverse, and the page writes the API's spelling
    in another route: one parameter, two spellings on one page. Alone, a separator variant is
    the same name (no client sends a path parameter's name); beside the API's own spelling it
    is a slip the reader must choose between. A case variant (``$SESSION_ID``, a shell
    variable's convention) is no such slip."""
    path = split_target(mention.target).path
    written = _variable_names(path)
    for op in found:
        for base in ["", *base_paths(op.document)]:
            full = (_variable_names(base) if base else ()) + _variable_names(op.path)
            if len(full) != len(written):
                continue
            for mine, their in zip(written, full, strict=True):
                if mine and their in spelled and mine != their and _hyphened(mine) == their:
                    return mine, their
            break
    return None


def _hyphened(name: str) -> str:
    return name.replace("-", "_") if "_" not in name else name.replace("_", "-")


def _optional_forms(checks: list[RouteCheck]) -> list[RouteCheck]:
    """A route written with an optional part is two; where the document has one form and not
    the other, the missing one names the one it has (``near``)."""
    by_target = {(c.mention.line, c.mention.method, c.mention.target): c for c in checks}
    kept = []
    for check in checks:
        other = check.mention.other
        twin = by_target.get((check.mention.line, check.mention.method, other)) if other else None
        if check.missing and twin is not None:
            if twin.operations:
                twin_longer = len(other) > len(check.mention.target)
                part = "with" if twin_longer else "without"
                difference = f", the form {part} the optional part the notation allows"
                check = dataclasses.replace(check, near=twin.operations[0], difference=difference)
            elif len(other) > len(check.mention.target):
                continue  # neither form is an operation: reported once, as the longer form
        kept.append(check)
    return kept


def _key(mention: RouteMention) -> str:
    shape = written_shape(split_target(mention.target).path)
    return f"{mention.method} /{'/'.join(shape)}"


def _judged(
    page: str,
    mention: RouteMention,
    document: str,
    own: list[Operation],
    hosts: set[str],
    loose: bool = False,
    described: bool = False,
    page_text: str = "",
) -> RouteCheck:
    """A route no operation has: judged when it looks like the API's own (its host is a
    server's, it is below a base path, or its first segment after any version prefix is an
    operation's), or when an operation is near it. A route whose page binds only through the
    repository (``loose``), or written without a leading slash, is judged when an operation is
    near it or its first segment is an operation's; a path alone outside the base path, or on
    a line of its own, only when both hold."""
    target = split_target(mention.target)
    shape = written_shape(target.path)
    bases = {route_shape(b) for op in own for b in base_paths(op.document)} - {()}
    below_base = any(shape[: len(b)] == b and len(shape) > len(b) for b in bases)
    ours = (bool(target.host) and target.host in hosts) or below_base or _shares(shape, bases, own)
    lenient = loose or mention.relative
    first = _first_ours(shape, bases, own, plural=mention.cued)
    if loose:
        ours = first  # one route is no evidence of the API: it must start as the API's do
    method = mention.method.lower()
    if not bases:
        for taken in (1, 2):
            prefix, rest = shape[:taken], shape[taken:]
            versioned = rest and all(_VERSION.match(s) for s in prefix)
            if versioned and any(_names(mention, "/" + "/".join(rest), op) for op in own):
                why = f"the API's route below a base path its servers do not declare (`/{'/'.join(prefix)}`)"
                return RouteCheck(page, mention, document, why=why)
    family = mention.form == "text"  # a sentence's "PUT /parties" for the calls on its members
    if family and method and any(op.method == method and _collection_of(shape, op) for op in own):
        why = "a collection's name for the operations on its members (`…/{id}`)"
        return RouteCheck(page, mention, document, why=why)
    # A path a code block holds alone, to be requested as shown: the API's own when it starts
    # as an operation's path does (its first two segments), whether or not one operation is
    # near it (`/tables/{}/search` where the API has `…/info` and `…/data`).
    block = mention.form == "block" and not loose and (below_base or not bases)
    if block and _shares(shape, bases, own) and not is_file(target.path):
        near = nearest("", shape, own, alike=_ALIKE)
        evidence = "a code block holds it alone, and it starts as an operation's path does"
        if near is not None:
            return RouteCheck(
                page, mention, document, near=near[0], difference=near[1], evidence=evidence
            )
        return RouteCheck(page, mention, document, evidence=evidence)
    if not mention.method and (not below_base or mention.alone or lenient):
        # a path alone outside the base path the servers declare is some other URL of the
        # deployment (a web page, a proxy's prefix): read only where the servers declare none
        judged = first and not is_file(target.path) and (below_base or not bases)
        judged = judged or (described and _misspelt(shape, own))
        cut_short = _cut_short(mention, shape)
        near = nearest("", shape, own, alike=_ALIKE, cut_short=cut_short) if judged else None
        if near is not None:
            evidence = "the words beside it call it a route" if mention.cued else ""
            return RouteCheck(
                page, mention, document, near=near[0], difference=near[1], evidence=evidence
            )
        if judged and mention.cued and not mention.relative:
            # "similar to the /threads/{id}/runs/stream endpoint": a sentence names it a route
            # of this API, starting as the API's paths do; no operation is near it
            evidence = "the words beside it call it a route, and it starts as the API's paths do"
            return RouteCheck(page, mention, document, evidence=evidence)
        root = _misspelt_root(shape, own) if described and mention.cued else None
        if root is not None:
            # the API's own text naming one of its routes by its root, misspelt
            evidence = "the words beside it call it a route, and the API's text names its routes so"
            return RouteCheck(
                page, mention, document, near=root[0], difference=root[1], evidence=evidence
            )
        why = "a path alone, not below the API's base path, and no operation's path near it"
        return RouteCheck(page, mention, document, why=why)
    # one segment off: for a page bound through the repository only below the API's own
    # first segment (`/packs/...` for `/packs-test/...` is another API's root)
    near = nearest(
        mention.method,
        shape,
        own,
        one_off=ours or mention.relative,
        alike=_ALIKE if lenient else 0,
        short=described,
    )
    if near is not None:
        return RouteCheck(page, mention, document, near=near[0], difference=near[1])
    left = _left_off(mention.method, shape, own, bases, page_text)
    if left is not None:
        return RouteCheck(page, mention, document, near=left[0], difference=left[1])
    listed = _endpoint_listing(mention) and _rooted_as_theirs(shape, bases, own)
    if not ours and not (lenient and first) and not listed:
        why = "no operation of the API starts as it does (another API's)"
        return RouteCheck(page, mention, document, why=why)
    evidence = ""
    if listed and not ours and not (lenient and first):
        evidence = f"listed under the heading `#{mention.heading}`, rooted as the API's paths are"
    return RouteCheck(page, mention, document, evidence=evidence)


# A section whose title says it lists the API's endpoints ("Session API Endpoints",
# "Endpoints"); not one of the endpoints a client or another party serves (webhooks, callbacks).
_ENDPOINT_SECTION = re.compile(r"(?:^|-)(?:api-)?end-?points?(?:-|$)")
_OTHERS_SECTION = re.compile(
    r"(?:^|-)(?:webhooks?|callbacks?|clients?|your|external|third-party|upstream|other)(?:-|$)"
)
# The forms a section lists its endpoints in: set apart, to be sent as written.
_LISTED = frozenset({"request", "curl", "code", "list", "table"})


def _endpoint_listing(mention: RouteMention) -> bool:
    """Whether a route is set apart under a heading that lists the API's endpoints (``## Resource
    API Endpoints`` then ```` GET /resources/{id} ````): the page says it is the API's, though no
    operation starts as it does (an operation the document lacks, not another API's)."""
    return (
        mention.form in _LISTED
        and _ENDPOINT_SECTION.search(mention.heading) is not None
        and _OTHERS_SECTION.search(mention.heading) is None
    )


def _left_off(
    method: str,
    shape: tuple[str, ...],
    own: list[Operation],
    bases: set[tuple[str, ...]],
    page_text: str,
) -> tuple[Operation, str] | None:
    """The operation whose path the route is with its leading segment(s) left off
    (``GET /service-info`` where the API has only ``GET /sequence/service-info``), and how it
    differs; None when there is none. The part left off is what every path of the document
    starts with (a base path written into the paths, forgotten), more than a version prefix
    (``/jobs`` for ``/v1/jobs`` is how prose shortens every route), and named nowhere on the
    page alone (a page that says its routes are below ``/api/v1``, or gives a base URL ending
    so, writes them relative to it); a route below a base path is the API's as written. Where
    the part left off is one collection of several (``/authorizations/{id}`` beside
    ``/partnerRequests/authorizations/{id}``), the route is as likely another API's.
    The message names the operation: a generic route of another API (GA4GH's
    ``/service-info``) is then the reader's to tell apart."""
    if not method or not any("{}" not in segment for segment in shape):
        return None
    if any(shape[: len(base)] == base for base in bases):
        return None
    template = any("{}" in segment for segment in shape)
    found: list[tuple[int, int, Operation, tuple[str, ...]]] = []
    for place, op in enumerate(own):
        if op.method != method.lower():
            continue
        theirs = _shape(op)
        head, tail = theirs[: len(theirs) - len(shape)], theirs[len(theirs) - len(shape) :]
        if not head or len(tail) != len(shape):
            continue
        if not all(_segment(a, b, template) for a, b in zip(shape, tail, strict=True)):
            continue
        if not any(a == b and "{}" not in b for a, b in zip(shape, tail, strict=True)):
            continue  # a value for a variable only (`/about` for `/shelf/{id}`): no word shared
        if all(_VERSION.match(segment) for segment in head) or "{}" in "".join(head):
            continue
        found.append((len(head), place, op, head))
    if not found:
        return None
    _, _, op, head = min(found, key=lambda item: item[:2])
    siblings = [other for other in own if other.document.path == op.document.path]
    if not all(_shape(other)[: len(head)] == head for other in siblings):
        return None  # one collection of several: the route may be another API's of that name
    prefix = "/" + "/".join(head)
    if re.search(re.escape(prefix) + r"/?(?![\w{<:/.-])", page_text):
        return None  # the page names the prefix alone: its routes are written below it
    return op, f", whose path has `{prefix}` before it (the route leaves it off)"


def _rooted_as_theirs(
    shape: tuple[str, ...], bases: set[tuple[str, ...]], own: list[Operation]
) -> bool:
    """Whether a route starts as nearly all the API's paths do, where they do (``/v1/…`` for
    an API whose paths are below ``/v1``): ``/import`` beside such an API is another surface
    (a host's extension), not an operation it lacks."""
    firsts = Counter(_shape(op)[:1] for op in own)
    if not firsts:
        return False
    ((common, count),) = firsts.most_common(1)
    return count < 0.8 * len(own) or any(rest[:1] == common for rest in _below_bases(shape, own))


def _shares(shape: tuple[str, ...], bases: set[tuple[str, ...]], own: list[Operation]) -> bool:
    """Whether the route starts as an operation of the API does: its first two segments (one,
    for a route of one), below a base path and any version prefix (``/jobs/{id}`` of
    ``/api/v2/jobs/{id}/logs``)."""
    rest = _unversioned(shape, bases)
    size = min(2, len(rest))
    if not size:
        return False
    for op in own:
        theirs = _unversioned(_shape(op), set())
        if len(theirs) >= size and all(
            _segment(a, b) or (a == "{}" and "{}" in b)
            for a, b in zip(rest[:size], theirs[:size], strict=True)
        ):
            return True
    return False


def _unversioned(shape: tuple[str, ...], bases: set[tuple[str, ...]]) -> tuple[str, ...]:
    """A path's segments below the longest base path it starts with and any version prefix."""
    for base in sorted(bases, key=len, reverse=True):
        if shape[: len(base)] == base:
            shape = shape[len(base) :]
            break
    while shape and _VERSION.match(shape[0]):
        shape = shape[1:]
    return shape


def _collection_of(shape: tuple[str, ...], operation: Operation) -> bool:
    """Whether the route is the operation's path without the variables it ends with
    (``PUT /parties`` for ``PUT /parties/{Type}/{ID}``): prose's name for the family."""
    template = any("{}" in segment for segment in shape)
    for _, theirs in _shapes(operation):
        head, tail = theirs[: len(shape)], theirs[len(shape) :]
        if (
            len(head) == len(shape)
            and tail
            and all(segment == "{}" for segment in tail)
            and all(_segment(a, b, template) for a, b in zip(shape, head, strict=True))
        ):
            return True
    return False


def _server_hosts(operations: Iterable[Operation]) -> set[str]:
    hosts: set[str] = set()
    for document in {op.document.path: op.document for op in operations}.values():
        data = document.data if isinstance(document.data, dict) else {}
        servers = data.get("servers")
        for server in servers if isinstance(servers, list) else ():
            url = server.get("url") if isinstance(server, dict) else None
            if isinstance(url, str) and "://" in url:
                host = (urlsplit(url).hostname or "").lower()
                if host:
                    hosts.add(host)
        if isinstance(data.get("host"), str):  # Swagger 2.0
            hosts.add(data["host"].lower().rsplit(":", 1)[0])
    return hosts


@functools.lru_cache(maxsize=8192)
def written_shape(path: str) -> tuple[str, ...]:
    """A written path's segments, every variable (``{id}``, ``{{id}}``, ``:id``, ``<id>``,
    ``$ID``) a ``{}``."""
    segments = []
    for segment in path.split("/"):
        if not segment:
            continue
        segment = _VARIABLE.sub("{}", segment)
        if segment.startswith(":") or _SHELL_VARIABLE.fullmatch(segment) or _placeholder(segment):
            segment = "{}"
        segments.append(segment)
    return tuple(segments)


def _placeholder(segment: str) -> str:
    """The name a segment written as a placeholder word stands for (``__THREAD_ID__``,
    ``RUN_ID``, ``ID_HERE``: ``THREAD_ID``, ``RUN_ID``, ``ID``), else ""."""
    if "_" not in segment:
        return ""
    match = _PLACEHOLDER_WORD.fullmatch(segment)
    return next((g for g in match.groups() if g), "") if match else ""


def _shape(operation: Operation) -> tuple[str, ...]:
    return _route_shape(operation.path)


@functools.lru_cache(maxsize=8192)
def _route_shape(path: str) -> tuple[str, ...]:
    """:func:`route_shape`, kept: a page's routes are each compared with every operation. A
    segment ``${NAME}`` (no OpenAPI template, but published documents write it) is read as the
    variable it means, for matching only (``openapi-invalid`` still reports it)."""
    return route_shape(re.sub(r"\$\{([^{}]*)\}", r"{\1}", path))


def _variable_names(path: str) -> tuple[str | None, ...]:
    """Each segment's variable name, where the segment is one variable and nothing else
    (``{id}``, ``<id>``, ``:id``, ``${ID}``), else None; aligned with :func:`written_shape`."""
    names: list[str | None] = []
    for segment in path.split("/"):
        if not segment:
            continue
        match = _NAMED_VARIABLE.fullmatch(segment)
        # a placeholder word (`ID_HERE`) says "yours here", no parameter's name
        names.append(next((g for g in match.groups() if g), None) if match else None)
    return tuple(names)


def renamed_parameter(path: str, operation: Operation) -> tuple[str, str] | None:
    """The first variable a written template names otherwise than the operation's path does
    (``{id}`` where the document says ``{table_name}``): (written, the document's), or None.
    Names that differ only in case or separators (``jobId``, ``job_id``) are one name."""
    written = _variable_names(path)
    if not any(written):
        return None
    theirs = _variable_names(operation.path)
    for base in ["", *base_paths(operation.document)]:
        prefix = _variable_names(base) if base else ()
        full = prefix + theirs
        if len(full) != len(written):
            continue
        for mine, their in zip(written, full, strict=True):
            # a name qualified by its role (`childRunId` for `runId`) is the same parameter
            if mine and their and not _folded(mine).endswith(_folded(their)):
                return mine, their
        return None
    return None


def _folded(name: str) -> str:
    return re.sub(r"[_\-.]", "", name).casefold()


def _shapes(operation: Operation) -> list[tuple[int, tuple[str, ...]]]:
    """The operation's path as a shape, alone and below each base path, with the length of the
    base before it."""
    path = _shape(operation)
    found = [(0, path)]
    for base in base_paths(operation.document):
        prefix = _route_shape(base)
        if prefix:
            found.append((len(prefix), prefix + path))
    return found


def _below_bases(shape: tuple[str, ...], operations: list[Operation]) -> list[tuple[str, ...]]:
    """``shape`` as a path of the API: as written, and without each base path it starts with."""
    found = [shape]
    for base in {route_shape(b) for op in operations for b in base_paths(op.document)}:
        if base and shape[: len(base)] == base:
            found.append(shape[len(base) :])
    return found


def _segment(written: str, theirs: str, template: bool = False) -> bool:
    """Whether a written segment is the operation's: the same, or a concrete value where the
    operation has a variable (``job-42:cancel`` for ``{}:cancel``). In a written template
    (``/participants/{name}/limits``) a word is a word, never a variable's value."""
    if written == theirs:
        return True
    if "{}" not in theirs or "{}" in written or template:
        return False
    pattern = "[^/]+".join(re.escape(part) for part in theirs.split("{}"))
    return re.fullmatch(pattern, written) is not None


def same_path(shape: tuple[str, ...], operation: Operation) -> bool:
    template = any("{}" in segment for segment in shape)
    return any(
        len(theirs) == len(shape)
        and all(_segment(a, b, template) for a, b in zip(shape, theirs, strict=True))
        for _, theirs in _shapes(operation)
    )


def _names(mention: RouteMention, path: str, operation: Operation) -> bool:
    """Whether the route names the operation: its method (:func:`_serves`) and its path
    (:func:`_path_names`)."""
    return _serves(mention.method.lower(), operation) and _path_names(
        written_shape(path), path, (theirs for _, theirs in _shapes(operation))
    )


def nearest(
    method: str,
    shape: tuple[str, ...],
    operations: list[Operation],
    one_off: bool = True,
    alike: float = 0.0,
    short: bool = False,
    cut_short: bool = False,
) -> tuple[Operation, str] | None:
    """The operation nearest a route no operation has, and how it differs: the same path with
    another method; the same method and a custom method written as a segment (``/{id}/cancel``
    for ``/{id}:cancel``); another version prefix; one segment off (of two or more)."""
    method = method.lower()
    same = [op for op in operations if same_path(shape, op)]
    if same:
        if not method:
            return None
        methods = ", ".join(sorted({op.method.upper() for op in same}, key=_method_order))
        return same[0], f", which is {methods}"
    verb = [op for op in operations if op.method == method or not method]
    if len(shape) >= 2 and "/" not in shape[-1]:
        custom = (*shape[:-2], f"{shape[-2]}:{shape[-1]}")
        for op in verb:
            if op.path.endswith(f":{shape[-1]}") and same_path(custom, op):
                return op, f", which writes the custom method as `:{shape[-1]}`"
    if shape and ":" in shape[-1] and "{}" not in shape[-1]:
        # `POST /runs:fork` for `POST /runs/{runId}:fork`: the member's custom method
        collection, _, action = shape[-1].partition(":")
        member = (*shape[:-1], collection, "{}:" + action)
        for op in verb:
            if same_path(member, op):
                return op, f", whose custom method `:{action}` acts on one of its members"
    for op in verb:
        # below a base path first: the base is what a version prefix stands for
        for cut, theirs in sorted(_shapes(op), key=lambda shape: -shape[0]):
            if not cut:
                continue  # no base path declared: a prefix may be any deployment's
            path = theirs[cut:]
            for taken in (1, 2):
                prefix, rest = shape[:taken], shape[taken:]
                if len(shape) <= taken or not all(_VERSION.match(s) for s in prefix):
                    continue
                if theirs[:cut] == prefix:
                    continue
                if len(rest) == len(path) and all(map(_segment, rest, path)):
                    written = "/" + "/".join(prefix)
                    base = "/" + "/".join(theirs[:cut])
                    return op, f", whose base path is `{base}` where this says `{written}`"
    for op in verb:
        if _collection_of(shape, op):
            return op, ", which acts on one of its members"
    # One segment in the plural where the API's is singular, or the reverse (`/sessions/{id}`
    # for `/session/{id}`): the API's own route, misremembered, wherever the route starts; a
    # route of one segment (`POST /order`) only where the API's own text names it (``short``).
    for op in verb:
        for cut, theirs in _shapes(op):
            if len(theirs) != len(shape) or len(theirs) - cut < (1 if short else 2):
                continue
            if shape[:cut] != theirs[:cut]:
                continue
            differ = [
                n for n, (a, b) in enumerate(zip(shape, theirs, strict=True)) if not _segment(a, b)
            ]
            if len(differ) == 1 and _plural(shape[differ[0]], theirs[differ[0]]):
                n = differ[0]
                return op, f", whose path says `{theirs[n]}` where this says `{shape[n]}`"
    # One segment off: the most alike of them (a `statuses` for `status`), or the only one.
    candidates: list[tuple[float, Operation, str]] = []
    for op in verb if one_off else ():
        for cut, theirs in _shapes(op):
            if len(theirs) != len(shape) or len(theirs) - cut < 2 or shape[:cut] != theirs[:cut]:
                continue
            differ = [
                n for n, (a, b) in enumerate(zip(shape, theirs, strict=True)) if not _segment(a, b)
            ]
            if len(differ) == 1:
                n = differ[0]
                ratio = difflib.SequenceMatcher(None, shape[n], theirs[n]).ratio()
                said = f", whose path says `{theirs[n]}` where this says `{shape[n]}`"
                candidates.append((ratio, op, said))
                break
    if len(candidates) == 1 and candidates[0][0] >= alike:
        return candidates[0][1], candidates[0][2]
    best = max(candidates, key=lambda c: c[0], default=None)
    if best is not None and best[0] >= _ALIKE:
        return best[1], best[2]
    return _cut_short_of(shape, verb) if cut_short else None


def _cut_short_of(
    shape: tuple[str, ...], operations: list[Operation]
) -> tuple[Operation, str] | None:
    """The operation whose path the route is cut short of (``v2/model/my_model`` where the
    API's is ``/v2/models/{name}/versions/{version}``), one segment in the singular for the
    plural allowed: a request that stops where the API's path goes on."""
    for op in operations:
        for cut, theirs in _shapes(op):
            if len(theirs) <= len(shape) or len(shape) - cut < 2 or shape[:cut] != theirs[:cut]:
                continue
            head = theirs[: len(shape)]
            differ = [
                n for n, (a, b) in enumerate(zip(shape, head, strict=True)) if not _segment(a, b)
            ]
            if len(differ) > 1 or (differ and not _plural(shape[differ[0]], head[differ[0]])):
                continue
            below = [part for part in op.path.split("/") if part][len(shape) - cut :]
            said = f", whose path goes on below it (`/{'/'.join(below)}`)"
            if differ:
                n = differ[0]
                said += f" and says `{theirs[n]}` where this says `{shape[n]}`"
            return op, said
    return None


def _misspelt(shape: tuple[str, ...], own: list[Operation]) -> bool:
    """Whether a path is an operation's path with one segment misspelt (`.well-knwon` for
    `.well-known`): as many segments, one differing, and that one nearly the same word."""
    for op in own:
        for _, theirs in _shapes(op):
            if len(theirs) != len(shape):
                continue
            differ = [(a, b) for a, b in zip(shape, theirs, strict=True) if not _segment(a, b)]
            if len(differ) == 1 and "{}" not in differ[0][1]:
                ratio = difflib.SequenceMatcher(None, *differ[0]).ratio()
                if ratio >= _MISSPELT:
                    return True
    return False


def _misspelt_root(shape: tuple[str, ...], own: list[Operation]) -> tuple[Operation, str] | None:
    """The operation whose path, its trailing parameters left off, the route is with one
    segment misspelt (`/job_status` for `/jobstatus/{job_id}`): an API's descriptions name a
    route by its root as often as in full ("use /jobstatus to poll"), the parameters implied."""
    for op in own:
        for _, theirs in _shapes(op):
            root = theirs
            while root and "{}" in root[-1]:
                root = root[:-1]
            if root == theirs or len(root) != len(shape):
                continue
            differ = [(a, b) for a, b in zip(shape, root, strict=True) if not _segment(a, b)]
            if len(differ) != 1 or "{}" in differ[0][1]:
                continue
            if difflib.SequenceMatcher(None, *differ[0]).ratio() >= _MISSPELT:
                said, written = differ[0][1], differ[0][0]
                return op, f", whose path says `{said}` where this says `{written}`"
    return None


# How alike a misspelt segment is to the API's (difflib's ratio): `.well-knwon` and
# `.well-known` are 0.91, `orders` and `order` 0.91, `items` and `queryables` 0.27.
_MISSPELT = 0.85


def _plural(first: str, second: str) -> bool:
    """Whether two words are one in the singular and the plural (`session`, `sessions`;
    `policy`, `policies`; `status`, `statuses`)."""
    short, long = sorted((first.lower(), second.lower()), key=len)
    if "{}" in short or len(short) < 3:
        return False
    return long in (short + "s", short + "es") or (
        short.endswith("y") and long == short[:-1] + "ies"
    )


# How alike two segments must be for one to be the other misspelt (difflib's ratio): the only
# segment off is named too for a route of a bound page; for a weaker reading (a path alone, a
# page bound only through the repository) it must be this alike (`sortables` is no `items`).
_ALIKE = 0.6


def _method_order(method: str) -> int:
    return ("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE").index(method)


@dataclass(frozen=True)
class HeldPage:
    """A page whose routes are held to an API's operations: a Markdown page, or an API
    document's descriptions read as a page (``described``), whose routes are held to that
    document (``own_api``) and whose lines are the file's through ``described``."""

    path: str  # the page, or the API document whose descriptions it is
    mentions: tuple[RouteMention, ...]
    described: DescribedPage | None = None

    @property
    def own_api(self) -> str:
        """The API document the page is bound to by being part of it (``page_checks``)."""
        return self.path if self.described is not None else ""


# A row of the method table OpenAPI Generator writes atop each `docs/*Api.md` of a client:
# `[**get_run**](RunsApi.md#get_run) | **GET** /runs/{run_id} | Get Run`.
_GENERATED_ROW = re.compile(
    rf"(?m)^\s*\|?\s*\[\*\*\w+\*\*\]\([\w.-]+\.md#\w+\)\s*\|\s*\*\*(?:{'|'.join(METHODS)})\*\*\s+/"
)


def generated_client_page(document: Document) -> bool:
    """Whether a page is a client library's API page that OpenAPI Generator wrote from the API
    document (its method table's rows link each operation to its section): its descriptions
    are the document's, copied."""
    return document.kind is DocumentKind.MARKDOWN and bool(
        _GENERATED_ROW.search(document.text or "")
    )


def held_pages(corpus: Context) -> Iterator[HeldPage]:
    """Every page that names a route, with its routes: the Markdown pages, then the API
    documents' descriptions (CommonMark, OpenAPI 3.1 §4.3), which name the document's routes."""
    for page in corpus.of_kind(DocumentKind.MARKDOWN):
        mentions = page_routes(page)
        if mentions:
            yield HeldPage(page.path, mentions)
    for document in corpus.of_kind(*API_KINDS):
        described = described_page(document)
        mentions = page_routes(described.page) if described is not None else ()
        if described is not None and mentions:
            yield HeldPage(document.path, mentions, described)
