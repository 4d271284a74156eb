"""A JSON or YAML code fence in the prose that is broken: a reader who copies it gets an error.

What it does
    Parses every ``json``, ``jsonc``, ``yaml`` and ``yml`` code fence of the Markdown pages and
    reports one that is meant as a whole document and does not parse, at the line and column of
    the error. What spec prose shows in a fence that is not a document is not judged: a member
    fragment, a stream of values, a sketch (placeholders, ``"a" | "b"`` unions, type names
    where values go, a grammar's notation, a template's ``*``, ``+`` or ``?`` after a value:
    ``"URL", *``), a list of endpoints, bare lines tagged ``yaml`` only for their colours
    (paths with ``#`` comments), several YAML files shown side by side (each part after a
    blank line and a comment line naming it, each parsing alone); an HTTP transcript's bodies
    are parsed each at its own line. A numbered code callout after a line's code (``<1>``, as
    AsciiDoc and Elastic's docs-builder write them) is an annotation, left out before the rest
    is judged. Comments and elisions (``...``, ``..``, ``[{..}]``, a phrase between two of them:
    ``... the rest goes here ...``) are read as notes, and so is the trailing comma one of them
    leaves (a trailing comma elsewhere in a ``json`` fence is a slip), a value written as a
    function call (``base64url({...})``, computed) as a value, a bracket holding a phrase
    (``[ 6 arrays of 257 numbers ]``) as the items it describes, a string spanning lines around
    an elision (``"{`` ``...`` ``}"``) as one line, and strings broken across lines are joined
    where the repository says (or shows in three examples or more) that its examples wrap them.
    What remains must parse: a missing comma beside a comment, an elision, a computed value or
    a template's mark is still reported. A ``json5`` fence is read as JSON5 (unquoted keys,
    single quotes). A fence a site's build fills from a file (spec-up's ``[[insert: path]]``,
    ``--8<-- "path"``, ``{% include path %}``) is not judged: the file is checked as itself. A
    broken fence that a larger page repeats with the whole page it stands on (a wiki's module
    page copying each example page) is one defect: reported at the example page, the copy
    related.

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
    ``"mimeType": "image/png",``. PASS. A sketch that is not meant to parse is better in a
    ``jsonc`` fence with ``// ...`` or in a ``text`` fence.

Options
    None.

Limitations
    A fence of a design record or a proposal (``adr/``, ``proposals/``, ``rfcs/``, an RFC
    header) is not judged, nor a YAML fence holding ``...`` (it also ends a YAML document). The
    cases each have a test named after them (``tests/test_discovery.py``,
    ``tests/test_transcripts.py``, ``tests/test_eco_notation.py``, ``tests/test_eco_values.py``,
    ``tests/test_generated_and_conventions.py``, ``tests/test_eco_batch6_fences.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.rfcs import is_rfc
from speclint.analyses.units import check_by_unit, prepared
from speclint.common.findings import Finding, Location, Member, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind, in_design_folder
from speclint.parsing.prose import CodeFence
from speclint.parsing.sketches import (
    ELLIPSIS,
    JSON_STRING,
    LITERALS,
    sketch_notes,
    without_callouts,
)
from speclint.parsing.structured import (
    ParseFailure,
    fast_json,
    parse_json,
    parse_json5,
    parse_yaml,
    strip_jsonc,
)
from speclint.parsing.templates import include_directive
from speclint.parsing.transcripts import http_bodies, path_list

ID = "fence-invalid"
SEVERITY = Severity.WARNING
JSON_LANGUAGES = frozenset({"json", "jsonc", "json5"})
YAML_LANGUAGES = frozenset({"yaml", "yml"})
# Sketch notation: a <placeholder>, a template, a `"a" | "b"` union of values.
SKETCH = re.compile(r"<[A-Za-z][^<>\n]*>|\$\{|\{\{|[\"\d\]}el]\s*\|\s*[\"\d\[{tfn]")
ELIDED_END = re.compile(r"(?:\.{3,}|…)\s*\)?\s*\Z")
# A specification saying its examples wrap long lines ("line breaks are for display purposes
# only", RFC 7519 §3.1; "strings are broken across lines for readability").
_WRAPPING = (
    r"line[- ]?breaks?|wrapped|(?:broken|split|folded) (?:across|over|into|onto) (?:\w+ )?lines?"
)
_WHY = r"readab\w*|legib\w*|clarity|(?:display|presentation|formatting) purposes"
WRAPPED_STATED = re.compile(
    rf"(?i)\b(?:{_WRAPPING})\b[^.\n]{{0,120}}?\b(?:{_WHY})|\b(?:{_WHY})\b[^.\n]{{0,120}}?\b(?:{_WRAPPING})\b"
)
WRAPPED = "strings broken across lines"
WRAPPED_BY_USE = 3  # examples
# Grammar notation outside strings: a repeated or optional group (`[(method_name)+]`,
# `(x)*`, `(x)?`), the marks of a syntax sketch rather than of data.
_REPETITION = re.compile(r"\(\s*[A-Za-z_][\w.-]*\s*\)\s*[+*?]")
# A bare word where a value goes (`[A, B, C]`, `"chain": X,`): a placeholder, not data.
_BARE_VALUE = re.compile(r"[:\[,]\s*([A-Za-z_][\w.-]*)(?=\s*[,\]}\n])")
# A bare key whose value is only an elision (`proof: {...}`, `items: [ … ]`): a member sketched,
# its name and its body both left to the reader.
_ELIDED_MEMBER = re.compile(
    r"(?:^|[{,\s])[A-Za-z_][\w-]*\s*:\s*(?:\{\s*(?:\.{3}|…)\s*\}|\[\s*(?:\.{3}|…)\s*\])"
)
# Placeholders before a fence is read as a notation: one bare word is more likely a slip (a
# value whose quotes were forgotten, `tru`), several a sketch's letters.
PLACEHOLDERS = 2
# A JSON type name where a value goes (`"retry_after_ms": integer`): a schematic sketch.
_TYPE_NAMES = frozenset(
    {"string", "integer", "int", "number", "float", "boolean", "bool", "object", "array"}
)


READS = "page"  # each page's fences alone (speclint.analyses.units)


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


def prepare(page: Document) -> tuple[bool, int]:
    """Whether the page states that examples wrap long strings, and how many of its JSON fences
    have a string broken across lines as their one defect (a function of the page alone: made as
    the page is parsed and kept with it, ``speclint.analyses.units.prepared``)."""
    if page.text is not None and WRAPPED_STATED.search(page.text):
        return True, 0
    wrapped = 0
    for fence in page.prose.fences if page.prose is not None else ():
        if (
            fence.language.lower() in JSON_LANGUAGES
            and '"' in fence.content
            and _failure(fence) is not None
            and _failure(fence, wrapped=True) is None
        ):
            wrapped += 1
    return False, wrapped


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, combine)


def combine(
    corpus: Context, results: Mapping[str, list[Finding]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    """Every page's findings, but for a fence copied with the whole page it stands on into a
    larger page (a wiki's module page that repeats each example page verbatim): one defect,
    reported once at the example page, with the copy as a related location and a member."""
    found = [finding for findings in results.values() for finding in findings]
    copies = _copies(corpus, found)
    for finding in found:
        if id(finding) in copies:
            continue
        embedded = [f for f in found if copies.get(id(f)) == id(finding)]
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


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    found = []
    wrapped = WRAPPED in stated_conventions(corpus) or bool(
        document.text and WRAPPED_STATED.search(document.text)
    )
    if _design_page(document):
        # A design record's or a proposal's example sketches a change under discussion,
        # placeholders and all (`R`, `some-lambda`); read as reports, these were noise.
        return []
    for fence in document.prose.fences if document.prose is not None else ():
        failure = _failure(fence, wrapped)
        if failure is None:
            continue
        word = _bare_word(fence, failure)
        if word.lower() in _TYPE_NAMES or word.startswith("$"):
            continue  # a type sketch (`"count": integer`), a variable (`$RETRY_MAX`): a template
        heading = f"#{fence.heading.anchor}" if fence.heading else ""
        what = f"the {fence.language} fence"
        if http_bodies(fence.content) is not None:
            what = f"the body of the HTTP message in this {fence.language} fence"
        found.append(
            Finding(
                ID,
                SEVERITY,
                f"{what} does not parse: {failure.message}; fix the example "
                "(or mark a sketch as one: `...`, or a `text` fence)",
                Location(document.path, fence.line + failure.line, failure.column, pointer=heading),
                key=f"{fence.line}",
            )
        )
    return found


def fence_failure(language: str, text: str) -> ParseFailure | None:
    """How ``text`` fails as a fence of ``language`` would, with a fence's allowances (its
    notes, its sketches, a stream of values); None when a fence of it would not be reported.
    parse-error reads an example file a page shows through it: one reading of one text."""
    fence = CodeFence(language, language, text, 0, 0, None)
    failure = _failure(fence)
    if failure is None:
        return None
    word = _bare_word(fence, failure)
    return None if word.lower() in _TYPE_NAMES or word.startswith("$") else failure


def _bare_word(fence: CodeFence, failure: ParseFailure) -> str:
    """The unquoted word a JSON parse stopped at (a placeholder), or ""."""
    if fence.language.lower() not in JSON_LANGUAGES:
        return ""
    lines = fence.content.split("\n")
    if not 1 <= failure.line <= len(lines):
        return ""
    found = re.match(r"[A-Za-z_$][\w$.-]*", lines[failure.line - 1][max(failure.column - 1, 0) :])
    return found.group(0) if found else ""


def _design_page(document: Document) -> bool:
    """A design record or a proposal (by its folder, or an RFC header), not the specification."""
    return in_design_folder(document.path) or is_rfc(document)


def _failure(fence: CodeFence, wrapped: bool = False) -> ParseFailure | None:
    language = fence.language.lower()
    text = fence.content
    if language not in JSON_LANGUAGES | YAML_LANGUAGES or path_list(text):
        return None  # a list of endpoints (`GET /v1/things`, one a line): no document
    if include_directive(text):
        return None  # the build fills the fence from a file, which is checked as itself
    bodies = http_bodies(text)
    if bodies is None:
        return _text_failure(language, text, wrapped)
    # An HTTP transcript (a request or status line, header fields, a blank line): its bodies
    # are the documents it shows, each judged alone at its own lines.
    return next(
        (f for f in (_text_failure(language, b, wrapped) for b in bodies) if f is not None), None
    )


def notation(text: str) -> bool:
    """Whether a JSON fence writes a notation rather than data: outside its strings, a grammar's
    repetition marks (``[(method_name)+]``), several bare words where values go
    (``methods: [A, B, C]``), or a bare key whose body is only an elision (``proof: {...}``). A
    slip in otherwise valid JSON (a trailing comma, a quote left out) has none of them."""
    if _ELIDED_MEMBER.search(JSON_STRING.sub('""', strip_jsonc(text))):
        return True
    bare = JSON_STRING.sub('""', strip_jsonc(sketch_notes(text)))
    if _REPETITION.search(bare):
        return True
    words = [w for w in _BARE_VALUE.findall(bare) if w not in LITERALS]
    return len(words) >= PLACEHOLDERS


def notation_mark(text: str, failure: ParseFailure) -> tuple[int, int] | None:
    """Where the parse stopped at a sketch's notation mark (its 0-based line and column), if
    it did: ``*`` (zero or more), ``+`` (one or more), ``?`` (optional) after a value or a
    comma, or a ``|`` between alternatives (``"URL", *``; ``"id": "x"?``). A specification's
    templates use them ("MUST be of the form"); data never holds one bare."""
    lines = text.split("\n")
    if not 1 <= failure.line <= len(lines):
        return None
    line = lines[failure.line - 1]
    # The parser stops at the mark or just past it (YAML reads `*` as an alias's start).
    at = min(max(failure.column - 1, 0), len(line))
    ahead = at + len(line[at:]) - len(line[at:].lstrip(" \t"))
    if line[ahead : ahead + 1] in _MARKS and _AFTER_VALUE.search(line[:ahead]):
        return failure.line - 1, ahead
    before = line[:at].rstrip(" \t")
    if before[-1:] in _MARKS and _AFTER_VALUE.search(before[:-1]) and not line[at : at + 1].strip():
        return failure.line - 1, len(before) - 1
    return None


def _without_mark(text: str, mark: tuple[int, int]) -> str | None:
    """``text`` with the notation mark at ``mark`` blanked (and a comma before it that would
    then trail: ``"URL", *`` before a ``]``), to read on for a slip elsewhere; None for an
    alternative (``a | b``: a sketch whatever else it holds) or a mark not found in ``text``."""
    lines = text.split("\n")
    number, column = mark
    if number >= len(lines) or lines[number][column : column + 1] not in _MARKS - {"|"}:
        return None
    line = lines[number]
    before = line[:column].rstrip(" \t")
    rest = "\n".join([line[column + 1 :], *lines[number + 1 :]]).lstrip()
    if before.endswith(",") and rest[:1] in ("]", "}", ""):
        before = before[:-1] + " "
    lines[number] = before.ljust(column) + " " + line[column + 1 :]
    return "\n".join(lines)


_MARKS = frozenset("*+?|")
# What a repetition or an alternative mark follows: a value's end (a string, a number, a
# closed group, a word) or a separator.
_AFTER_VALUE = re.compile(r"[\"\]})\w,]\s*\Z")
# YAML's structure on a line: a mapping key (`key:` before a space or the line's end), a
# sequence item (`- `), a flow collection, a document marker, a tag or an anchor.
_YAML_STRUCTURE = re.compile(r"^\s*(?:-(?:\s|$)|[\[{]|---|[!&])|\S:(?:\s|$)")


def yaml_structure(text: str) -> bool:
    """Whether some line of a YAML fence has YAML's structure (a mapping, a sequence, a flow
    collection): a fence of bare lines (entity paths with ``#`` comments, commands) is tagged
    ``yaml`` for its colours, and no reader takes it for data."""
    return any(
        _YAML_STRUCTURE.search(line.split(" #", 1)[0])
        for line in text.split("\n")
        if line.strip() and not line.lstrip().startswith("#")
    )


# A part of a YAML fence that shows several files (or stages) side by side: a comment line at
# the margin after a blank line, naming what follows (`# flat.yml`).
_PART_HEAD = re.compile(r"\n[ \t]*\n(?=#)")


def side_by_side(text: str) -> bool:
    """Whether a YAML fence shows several documents side by side, each under a comment line
    naming it (``# In the schema``, then ``# flat.yml``, then ``# nested.yml``) after a blank
    line, and each part parses alone: a sequence beside a mapping is then two files shown, not
    one document with a slip. A part without such a head keeps the fence one document."""
    parts = _PART_HEAD.split(text.strip("\n"))
    if len(parts) < 2 or not all(part.startswith("#") for part in parts):
        return False
    try:
        for part in parts:
            parse_yaml(part)
    except ParseFailure:
        return False
    return True


# Notation marks blanked in one fence before it is taken for a template through and through
# (each one costs a parse).
MARKS_READ = 16


def _text_failure(language: str, text: str, wrapped: bool) -> ParseFailure | None:
    # A code callout (`<1>` after a value) annotates the example: what remains is judged
    text = without_callouts(text)
    if not text.strip() or SKETCH.search(text):
        return None
    read = text
    for _ in range(MARKS_READ):
        found = _parse_failure(language, read, wrapped)
        if found is None:
            return None
        failure, parsed = found
        mark = notation_mark(parsed, failure)
        if mark is None:
            break
        # `"URL", *`: a template's repetition mark, not a slip in data. Read on without it:
        # what else fails is a slip (a missing comma beside the mark is still reported).
        unmarked = _without_mark(read, mark)
        if unmarked is None:
            return None
        read = unmarked
    else:
        return None
    if failure.message.startswith(("extra data", "more than one YAML document")):
        # several values in a row: a stream, a JWT's header.payload, Kubernetes manifests
        # after `---` (each document parsed: a broken one fails before this)
        return None
    if failure.message.startswith("unexpected end") and ELIDED_END.search(text):
        return None  # `...` at the end elides the rest, closing brackets included
    if language in YAML_LANGUAGES and not yaml_structure(text):
        return None  # paths or commands tagged `yaml` for colour: no YAML was meant
    if language in YAML_LANGUAGES and side_by_side(text):
        return None  # files shown side by side, each under a comment naming it
    if language in JSON_LANGUAGES and notation(text):
        # a notation sketch (`methods: [A, B, C]`, `[(x)+]`): not meant to parse (asked
        # only of what failed: text that parses is never reported)
        return None
    return failure


def _parse_failure(language: str, text: str, wrapped: bool) -> tuple[ParseFailure, str] | None:
    """How ``text`` fails to parse, and the text as parsed (a JSON fence's notes blanked,
    lines and columns kept); None when it parses or is no whole document."""
    parsed = noted = text
    try:
        if language in YAML_LANGUAGES:
            if ELLIPSIS.search(text):
                return None  # `...` ends a YAML document: an elision cannot be told from one
            parse_yaml(text)
        else:
            noted = sketch_notes(text, wrapped)
            commented = noted != text or "//" in text or "/*" in text
            # comments and elisions as sketch notes: not reported, nor (in a `json` fence) a
            # trailing comma one of them leaves; JSONC and JSON5 allow every trailing comma
            if language != "json":
                parsed = strip_jsonc(noted)
            elif commented:
                parsed = strip_jsonc(noted, original=text)
            if parsed.lstrip()[:1] not in ("{", "["):
                return None  # a fragment, a request line above a body: not a whole document
            # The C decoder first: where it reads the text, the scanner would too (`fast_json`),
            # and only a failure needs the scanner's message and place.
            if fast_json(parsed) is None:
                parse_json(parsed)
    except ParseFailure as failure:
        if language != "json5":
            return failure, parsed
        # JSON5 (unquoted keys, single quotes, hexadecimal numbers) is read by its own grammar
        # once JSON's fails: what JSON5 rejects too is reported, at JSON5's place.
        try:
            parse_json5(noted)
        except ParseFailure as failure5:
            return failure5, noted
    return None
