"""A JSON or YAML code fence in the prose that is broken: a reader who copies it gets an error.

What it does
    Parses every ``json``, ``jsonc``, ``json5``, ``yaml`` and ``yml`` code fence of the Markdown
    pages and of the ``description`` text of OpenAPI and AsyncAPI documents (CommonMark, OpenAPI 3.1
    §4.3), and reports one meant as a whole document that does not parse, at the error's line and
    column (an HTTP transcript's bodies each at its own line).

    What spec prose shows in a fence that is not a document is not judged: a member fragment,
    a stream of values, a sketch (placeholders, ``"a" | "b"`` unions, type names where values
    go, ``"id"?: string``), a list of endpoints, several YAML files side by side. Comments,
    elisions (``...``), code callouts (``<1>``) and a renderer's line notation
    (``# [!code ++]``) are read as notes. Sketch notation counts outside strings only: a
    string holds data. What remains must parse: a missing comma beside a comment, an elision
    or a placeholder is still reported.

    Heuristics: ``page``, a page's fences (guesses nothing); ``api-description``, the fences
    of an API document's ``description`` (preview until labels measure it); and
    ``sketch-residue``, a sketch read once more with its notation set aside, where a comma or
    colon left out or a string left open after plain JSON is an error no notation explains.

Why is this bad?
    Examples are what implementers copy first. A missing comma or a typographic quote
    (``“enumNames”``) in a normative example is an error every reader meets, and a tool that
    extracts examples for tests (``example-invalid``) cannot check it.

Example
    ::

        ```json
        {
          "mimeType": "image/png"
          "annotations": {"priority": 0.9}
        }
        ```

    FAIL: ``spec/tools.md:4:3: warning [fence-invalid] the json fence does not parse: expected
    ',' or '}' after an object member ...``

Use instead
    ``"mimeType": "image/png",``. PASS. A sketch not meant to parse goes in a ``text`` fence.

Options
    None.

Limitations
    Not judged: a fence of a design record or a proposal (``adr/``, ``proposals/``, ``rfcs/``), a
    YAML fence holding ``...`` (it also ends a YAML document), a fence a site's build fills from a
    file (``--8<-- "path"``). An untagged fence is ``untagged-json-invalid``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import is_design_page
from speclint.analyses.units import check_by_unit, pages_and_descriptions, prepared
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.corpus import Document
from speclint.model.descriptions import described_page, placed
from speclint.parsing.fence_text import JSON_LANGUAGES, failure_of, fence_failure
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CodeFence
from speclint.parsing.sketch_residue import residual_failure
from speclint.parsing.structured import ParseFailure
from speclint.parsing.transcripts import http_bodies

ID = "fence-invalid"
SEVERITY = Severity.WARNING
# A specification saying its examples wrap long lines ("line breaks are for display purposes
# only", RFC 7519 §3.1; "strings are broken across lines for readability").
_WRAPPING = (
    r"line[- ]?breaks?|wrapped|(?:broken|split|folded) (?:across|over|into|onto) (?:\w+ )?lines?"
)
_WHY = r"readab\w*|legib\w*|clarity|(?:display|presentation|formatting) purposes"
WRAPPED_STATED = re.compile(
    rf"(?i)\b(?:{_WRAPPING})\b[^.\n]{{0,120}}?\b(?:{_WHY})|\b(?:{_WHY})\b[^.\n]{{0,120}}?\b(?:{_WRAPPING})\b"
)
# The words one of WRAPPED_STATED's statements holds in its reason (``_WHY``), as lower case finds
# them; and the characters besides ASCII letters that the pattern's ignore-case matching reads as
# ASCII letters (İ and ı as i, ſ as s, the Kelvin sign as k: ``re``'s case folding), which lower
# case does not make those letters.
_WHY_WORDS = ("readab", "legib", "clarity", "purposes")
_FOLDED_AS_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
WRAPPED = "strings broken across lines"
WRAPPED_BY_USE = 3  # examples

READS = "page"  # each page's fences alone (speclint.analyses.units)
# A page's own fences guess nothing; an API document's description text read as a page (its
# untagged object fences as JSON) is a reading whose precision the labels have not measured yet.
# A sketch's plain part read with its notation set aside (speclint.parsing.sketch_residue): new,
# unmeasured, so a preview reading.
HEURISTICS = (f"{ID}/page", f"{ID}/api-description", f"{ID}/sketch-residue")
DECLARED_TIES = (HEURISTICS[0],)


def shared(corpus: Context) -> tuple[str, ...]:
    """No JSON/YAML document is read: a schema edit keeps every page's result. What is read of
    every page is whether it states an example convention for the whole specification."""
    return stated_conventions(corpus)


def stated_conventions(corpus: Context) -> tuple[str, ...]:
    """The example conventions of the corpus: stated by some page (a conventions section, a
    README), or shown by use: WRAPPED_BY_USE examples or more whose one defect is a string
    broken across lines are a specification that wraps strings for display (SARIF's), not that
    many slips."""
    found: tuple[str, ...] | None = corpus.memo.get(ID + ":conventions")
    if found is None:
        found = ()
        wrapped = 0
        for page in corpus.of_kind(DocumentKind.MARKDOWN):
            states, shown = prepared(page, ID, prepare, tuple[bool, int])
            wrapped += shown
            if states or wrapped >= WRAPPED_BY_USE:
                found = (WRAPPED,)
                break
        corpus.memo[ID + ":conventions"] = found
    return found


def states_wrapping(text: str) -> bool:
    """Whether ``text`` says its examples wrap long strings: ``WRAPPED_STATED.search(text)``,
    searched only on the lines that hold one of its reasons' words. A statement is on one line
    (no part of the pattern matches a line break) and holds such a word, so no other line can
    hold one; the pattern tried at every character of every page was a third of this rule's
    time, twice (as the page is parsed, and as it is checked)."""
    if any(character in text for character in _FOLDED_AS_ASCII):
        return WRAPPED_STATED.search(text) is not None
    lowered = text.lower()
    if len(lowered) != len(text):  # a character lower case makes two: offsets would not agree
        return WRAPPED_STATED.search(text) is not None
    for word in _WHY_WORDS:
        at = lowered.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            # A line searched alone (``pos``, ``endpos``) is read as in the text: the pattern's
            # word boundaries there are a line break's, which is no word character either.
            if WRAPPED_STATED.search(text, start, end) is not None:
                return True
            at = lowered.find(word, end)
    return False


def prepare(page: Document) -> tuple[bool, int]:
    """Whether the page states that examples wrap long strings, and how many of its JSON fences
    have a string broken across lines as their one defect (a function of the page alone: made as
    the page is parsed and kept with it, ``speclint.analyses.units.prepared``)."""
    if page.text is not None and states_wrapping(page.text):
        return True, 0
    wrapped = 0
    for fence in page.prose.fences if page.prose is not None else ():
        if (
            fence.language.lower() in JSON_LANGUAGES
            and '"' in fence.content
            and failure_of(fence) is not None
            and failure_of(fence, wrapped=True) is None
        ):
            wrapped += 1
    return False, wrapped


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, combine, units)


def combine(
    corpus: Context, results: Mapping[str, list[Finding]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    """Every page's findings, but for a fence copied with the whole page it stands on into a
    larger page (a wiki's module page that repeats each example page verbatim): one defect,
    reported once at the example page, with the copy as a related location and a member."""
    found = [finding for findings in results.values() for finding in findings]
    copies = _copies(corpus, found)
    # Each finding's copies, gathered in one pass (asked finding by finding, every finding was
    # compared with every other: a corpus's findings squared).
    copied: dict[int, list[Finding]] = {}
    for finding in found:
        if id(finding) in copies:
            copied.setdefault(copies[id(finding)], []).append(finding)
    for finding in found:
        if id(finding) in copies:
            continue
        embedded = copied.get(id(finding), [])
        if not embedded:
            yield finding
            continue
        places = [
            replace(f.location, note="the same fence, in a copy of this page") for f in embedded
        ]
        yield replace(
            finding,
            related=(*finding.related, *places),
            members=(
                Member(finding.location, finding.key),
                *(Member(place, f.key) for place, f in zip(places, embedded, strict=True)),
            ),
        )


def _copies(corpus: Context, found: list[Finding]) -> dict[int, int]:
    """The findings at a copy of another finding's page (by ``id``), each with the finding at the
    page it copies: the same broken fence, on a page that holds the other page's whole text and
    more fences or headings than it (two example pages of one fence each that happen to show the
    same body are two examples, each to fix)."""
    by_fence: dict[tuple[str, str], list[tuple[Finding, Document]]] = {}
    for finding in found:
        document = corpus.documents.get(finding.location.path)
        fence = _fence_of(document, finding)
        if document is not None and fence is not None:
            by_fence.setdefault((fence.content, finding.message), []).append((finding, document))
    copies: dict[int, int] = {}
    for group in by_fence.values():
        for finding, page in group:
            copied = next(
                (
                    other
                    for other, source in group
                    if source.path != page.path and _copy_of(page, source)
                ),
                None,
            )
            if copied is not None:
                copies[id(finding)] = id(copied)
    # a copy of a copy goes with the page copied first, never with another copy
    return {f: s for f, s in copies.items() if s not in copies}


def _fence_of(document: Document | None, finding: Finding) -> CodeFence | None:
    if document is None or document.prose is None:
        return None
    return next((f for f in document.prose.fences if str(f.line) == finding.key), None)


def _copy_of(page: Document, source: Document) -> bool:
    """Whether ``page`` holds the whole text of ``source`` and more fences or headings than it:
    the page of a module or a section that copies an example page, not another example page."""
    whole = (source.text or "").strip()
    if not whole or page.text is None or whole not in page.text or page.prose is None:
        return False
    if source.prose is None:
        return True
    return len(page.prose.fences) > len(source.prose.fences) or len(page.prose.headings) > len(
        source.prose.headings
    )


units = pages_and_descriptions  # the pages, and the API documents' descriptions


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    described = described_page(document)
    if described is not None:
        # An API document's descriptions (CommonMark, OpenAPI 3.1 §4.3): their fences are
        # judged as a page's, and reported at the file's lines.
        return [placed(described, f) for f in _fence_findings(corpus, described.page, True)]
    return _fence_findings(corpus, document)


def _fence_findings(corpus: Context, document: Document, described: bool = False) -> list[Finding]:
    found = []
    wrapped = WRAPPED in stated_conventions(corpus) or bool(
        document.text and states_wrapping(document.text)
    )
    if is_design_page(document):
        # A design record's or a proposal's example sketches a change under discussion,
        # placeholders and all (`R`, `some-lambda`); read as reports, these were noise.
        return []
    for fence in document.prose.fences if document.prose is not None else ():
        if not fence.language:
            # An untagged block, on a page or in a description, is JSON only where
            # untagged-json-invalid says it plainly is: one reading of it, by one rule.
            continue
        failure = fence_failure(fence.language, fence.content, wrapped)
        heuristic = HEURISTICS[1] if described else HEURISTICS[0]
        residue = ""
        if failure is None and fence.language.lower() in JSON_LANGUAGES:
            # A sketch or a member excerpt, not judged whole: its plain part still must parse
            failure = residual_failure(fence.content, wrapped, fence.language)
            heuristic = HEURISTICS[2]
            residue = " (read with its placeholders, comments and elisions set aside)"
        if failure is None:
            continue
        what = f"the {fence.language} fence"
        if http_bodies(fence.content) is not None:
            what = f"the body of the HTTP message in this {fence.language} fence"
        found.append(
            Finding(
                ID,
                SEVERITY,
                f"{what} does not parse{residue}: {failure.message}; fix the example "
                "(or mark a sketch as one: `...`, or a `text` fence)",
                _where(document, fence, failure),
                key=f"{fence.line}",
                heuristic=heuristic,
            )
        )
    return found


def _where(document: Document, fence: CodeFence, failure: ParseFailure) -> Location:
    line, column = fence.on_page(failure.line, failure.column)
    pointer = f"#{fence.heading.anchor}" if fence.heading else ""
    return Location(document.path, line, column, pointer=pointer)
