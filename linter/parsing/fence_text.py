"""How a code fence's text fails to parse, with the allowances of an example in prose.

A fence in a specification shows a payload, often sketched: notes and elisions (``// ...``,
``...``, ``..``), placeholders (``<id>``, ``{{name}}``), grammar marks (``(x)+``), type names where
values go, numbered callouts, HTTP transcripts, files side by side. fence-invalid reports the
fences that fail for another reason (a slip in the data); parse-error reads an example file a page
shows through the same judgement (:func:`fence_failure`): one reading of one text. Pure functions
of the fence's language and text.
"""

from __future__ import annotations

import re

from speclint.parsing.prose import CodeFence
from speclint.parsing.sketches import (
    ELLIPSIS,
    JSON_STRING,
    LITERALS,
    sketch_notes,
    without_callouts,
    without_code_notation,
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

JSON_LANGUAGES = frozenset({"json", "jsonc", "json5"})
YAML_LANGUAGES = frozenset({"yaml", "yml"})
# Sketch notation: a <placeholder>, a template, a `"a" | "b"` union of values. Looked for
# outside strings only (:func:`sketched`): a string holds data, notation or not.
SKETCH = re.compile(r"<[A-Za-z][^<>\n]*>|\$\{|\{\{|[\"\d\]}el]\s*\|\s*[\"\d\[{tfn]")
# A YAML quoted scalar (double-quoted with escapes, single-quoted with '' for a quote) where a
# scalar starts: after a line's indentation, a `:`, a `-`, a flow bracket or a comma. An
# apostrophe inside a plain scalar (`it's`) starts none.
_YAML_QUOTED = re.compile(r"""(?<![^\s\[{,:-])(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*')""")
# What angle brackets hold in a YAML plain scalar's data, not in a sketch: an address (RFC 5322
# §3.4's name-addr, `author: Ada <ada@example.org>`) or an element of markup closed on its line
# (`<b>bold</b>`).
_ANGLED_DATA = re.compile(
    r"<[^<>\s@]+@[^<>\s@]+\.[A-Za-z]{2,}>|<([A-Za-z][\w-]*)[^<>\n]*>[^<>\n]*</\1>"
)


def sketched(language: str, text: str) -> bool:
    """Whether a fence's text writes sketch notation (:data:`SKETCH`) outside its strings: a
    JSON string or a YAML quoted scalar holds data (an author's ``Name <name@example.org>``,
    ``"<b>bold</b>"``, ``"${HOME}"``), and such a string made a whole fence a sketch, its real
    slips unreported (issue 46)."""
    if language in JSON_LANGUAGES:
        bare = JSON_STRING.sub('""', text)
    else:
        # a plain scalar is a string too, but `<id>` in one is a placeholder: only what angle
        # brackets hold in data is taken out
        bare = _ANGLED_DATA.sub("", _YAML_QUOTED.sub('""', text))
    return SKETCH.search(bare) is not None


ELIDED_END = re.compile(r"(?:\.{3,}|…)\s*\)?\s*\Z")
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
TYPE_NAMES = frozenset(
    {"string", "integer", "int", "number", "float", "boolean", "bool", "object", "array"}
)
# A TypeScript-style sketch of a payload, outside strings (blanked to `""`): an optional member
# (`"id"?: string`), an array type (`string[]`, `Item[]`), a union of types (`string | null`),
# or a name given a type rather than a value (`id: string;`, `id: Identifier`): an interface
# written to show the shape, never data with a slip (a name whose quotes were forgotten has a
# value: `id: 5`).
_TYPE_SKETCH = re.compile(
    r"(?:\"\"|\b[A-Za-z_]\w*)\s*\?\s*:"
    r"|:\s*[A-Za-z_][\w.]*\s*\[\s*\]"
    r"|:\s*[A-Za-z_][\w.]*\s*\|\s*[A-Za-z_\"\d]"
    r"|^\s*[A-Za-z_]\w*\s*:\s*(?:(?!(?:Infinity|NaN)\b)[A-Z][\w.]*|"
    + "|".join(sorted(TYPE_NAMES))
    + r")\s*[,;]?\s*$",
    re.MULTILINE,
)


def fence_failure(language: str, text: str, wrapped: bool = False) -> ParseFailure | None:
    """How ``text`` fails as a fence of ``language`` would, with a fence's allowances (its
    notes, its sketches, a stream of values, a placeholder); None when a fence of it would not
    be reported. fence-invalid judges each fence through it, and parse-error an example file a
    page shows: one reading of one text."""
    fence = CodeFence(language, language, text, 0, 0, None)
    failure = failure_of(fence, wrapped)
    if failure is None:
        return None
    # a type sketch (`"count": integer`), a variable (`$RETRY_MAX`): a template
    word = bare_word(fence, failure)
    return None if word.lower() in TYPE_NAMES or word.startswith("$") else failure


def bare_word(fence: CodeFence, failure: ParseFailure) -> str:
    """The unquoted word a JSON parse stopped at (a placeholder), or ""."""
    if fence.language.lower() not in JSON_LANGUAGES:
        return ""
    lines = fence.content.split("\n")
    if not 1 <= failure.line <= len(lines):
        return ""
    found = re.match(r"[A-Za-z_$][\w$.-]*", lines[failure.line - 1][max(failure.column - 1, 0) :])
    return found.group(0) if found else ""


def failure_of(fence: CodeFence, wrapped: bool = False) -> ParseFailure | None:
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
    if _TYPE_SKETCH.search(bare):
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
    # A docs renderer's diff and highlight markers annotate the lines shown (`# [!code --]`)
    text = without_code_notation(text)
    if not text.strip() or sketched(language, text):
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


# What an untagged block's JSON may hold outside its strings: numbers, JSON's literals and its
# punctuation, nothing else. A word (a type name, `$string`, a placeholder), an elision (`...`,
# `…`), a comment (`//`, `#`), angle brackets, `?` or `|` make it a sketch, which stays silent.
_JSON_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_JSON_LITERAL = re.compile(r"\b(?:true|false|null)\b")
_JSON_PUNCTUATION = re.compile(r'[\s{}\[\],:"]*')
_MEMBER_NAME = re.compile(r'"(?:[^"\\\n]|\\.)*"\s*:')
# A line that labels the part of a block below it (`Request body:`, `Response:`): words and a
# colon, no value after it.
_PART_LABEL = re.compile(r"[A-Za-z][\w ()/-]{0,40}:[ \t]*\Z")
# The slips an untagged block's JSON is reported for: a comma left out, a comma left after the
# last member or item, a bracket left open (RFC 8259 §4, §5). Another failure (a line break in
# a string, a mismatched bracket) is as likely a sketch's shorthand as a slip.
_SLIPS = ("a ',' is missing", "trailing comma", "is not closed")


def plain_json(text: str) -> bool:
    """Whether ``text`` is plainly meant as JSON: it opens an object or an array, names a member
    in quotes, and holds nothing but strings, numbers, literals and JSON's punctuation (no
    elision, placeholder, comment, type name or TypeScript notation: a sketch has one)."""
    if not text.lstrip().startswith(("{", "[")) or not _MEMBER_NAME.search(text):
        return False
    bare = _JSON_LITERAL.sub(" ", _JSON_NUMBER.sub(" ", JSON_STRING.sub('""', text)))
    return _JSON_PUNCTUATION.fullmatch(bare) is not None


def json_parts(text: str) -> list[str]:
    """The parts of an untagged block that may be JSON, each as ``text`` with the other lines
    blanked (lines and columns stay the block's own): the whole block, an HTTP message's
    bodies (``speclint.parsing.transcripts``), or the parts below a label line
    (``Request body:`` then the object)."""
    parts = []
    for whole in http_bodies(text) or (text,):
        lines = whole.split("\n")
        labels = [n for n, line in enumerate(lines) if _PART_LABEL.match(line)]
        for start, end in zip([-1, *labels], [*labels, len(lines)], strict=True):
            body = lines[start + 1 : end]
            if any(line.strip() for line in body):
                parts.append("\n" * (start + 1) + "\n".join(body) + "\n" * (len(lines) - end))
    return parts


def untagged_json_failure(text: str, wrapped: bool = False) -> ParseFailure | None:
    """How an untagged code block (a fence with no info string, an indented block) that is
    plainly JSON (:func:`plain_json`) fails, where it fails for a slip (:data:`_SLIPS`); None
    for one that parses, a sketch, or what is no JSON at all. Each part (:func:`json_parts`) is
    judged alone, with a JSON fence's allowances (a stream of values, wrapped strings)."""
    for part in json_parts(text):
        if not plain_json(part):
            continue
        failure = fence_failure("json", part, wrapped)
        if failure is None or not any(slip in failure.message for slip in _SLIPS):
            continue
        if "is not closed" in failure.message and part.rstrip()[-1:] in ("{", "[", ",", ":"):
            # Stopped where a member or an item was to follow (`"$defs": {`): the start of a
            # longer document shown as an excerpt, not a bracket forgotten after its content.
            continue
        return failure
    return None
