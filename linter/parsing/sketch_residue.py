"""What is left wrong in a JSON example once its sketch notation is set aside.

A specification's example often mixes data with notation that is not JSON on purpose: a
placeholder where a value goes (``{node_info}``, ``[analysis objects]``), a ``#`` or ``//``
comment, an elision (``...``), a member excerpt shown without its object's braces. Such an
example was read as a sketch and not judged at all, so a comma left out between two members of
its plain part went unreported. Here the notation is neutralised (a placeholder read as an empty
value, comments and elisions blanked, an excerpt of members read inside an object), the text is
parsed, and a failure is kept only where it is a slip of JSON's own punctuation (RFC 8259 §4, §5:
a separator left out, a trailing comma, a string not closed on its line) and everything before
it is plain JSON: an error the notation does not explain. A failure after a type name, a
``<placeholder>``, a union or any other notation left in the text is the sketch's, not a slip.
"""

from __future__ import annotations

import re

from speclint.parsing.sketches import JSON_STRING, LITERALS, sketch_notes
from speclint.parsing.structured import ParseFailure, fast_json, parse_json, strip_jsonc

# A placeholder standing for a value: a word or a short phrase in braces or brackets, no quote,
# colon or comma in it (`{node_info}`, `{ edge }`, `[analysis objects]`).
_PLACEHOLDER = re.compile(r"\{[ \t]*[A-Za-z_][\w \t-]{0,40}\}|\[[ \t]*[A-Za-z_][\w \t-]{0,40}\]")
# An excerpt of an object's members (`"subject": "n0"` on the first line): read inside braces.
_MEMBER_FIRST = re.compile(r'\s*"(?:[^"\\\n]|\\.)*"\s*:')
_MEMBER_NAME = re.compile(r'"(?:[^"\\\n]|\\.)*"\s*:')
# The failures that are JSON's own punctuation slipping, not notation: a separator left out,
# a comma after the last member, a colon left out, a string not closed on its line.
_SLIPS = (
    "a ',' is missing",
    "trailing comma",
    "expected ',' or",
    "expected ':' after the property name",
    "a line break inside a string",
)
# A string left open on its line before JSON's punctuation (`["treats],`): its closing quote
# forgotten, not a long string wrapped for display.
_UNCLOSED = re.compile(r'\A"[^"\\\s]*[\w)](?:[\]}]+,?|,)[ \t]*\Z')
# What JSON's parse can stop at in a slip of its punctuation: the member or item the comma was
# left out before, the colon an item was given, the bracket after a trailing comma.
_DATA_START = frozenset('"{[:,]}-0123456789')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_PLAIN = re.compile(r'[\s{}\[\],:"]*')
# Member names an excerpt needs before it is taken for JSON rather than some other notation.
MEMBERS = 2


def _placeholders_emptied(text: str) -> str:
    """``text`` with each placeholder outside its strings read as an empty object or array,
    padded to its length (lines and columns kept)."""
    bare = JSON_STRING.sub(lambda m: '"' + "x" * (len(m.group(0)) - 2) + '"', text)
    out = list(text)
    for found in _PLACEHOLDER.finditer(bare):
        start, end = found.span()
        out[start:end] = list(found.group(0)[0] + found.group(0)[-1] + " " * (end - start - 2))
    return "".join(out)


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + max(column - 1, 0)


def _plain(text: str) -> bool:
    """Whether ``text`` holds nothing outside its strings but numbers, JSON's literals and its
    punctuation: no notation a failure after it could be blamed on."""
    bare = JSON_STRING.sub('""', text)
    for literal in LITERALS:
        bare = re.sub(rf"\b{literal}\b", " ", bare)
    return _PLAIN.fullmatch(_NUMBER.sub(" ", bare)) is not None


def residual_failure(
    text: str, wrapped: bool = False, language: str = "json"
) -> ParseFailure | None:
    """The slip left in a JSON example once its sketch notation is neutralised (the module's
    docstring), at the example's own line and column; None when what remains parses, fails
    after some notation, or is no JSON (fewer than :data:`MEMBERS` quoted member names)."""
    if len(_MEMBER_NAME.findall(text)) < MEMBERS:
        return None
    noted = sketch_notes(text, wrapped)
    # JSONC and JSON5 allow every trailing comma; JSON only the one a note leaves
    jsonc = strip_jsonc(noted) if language.lower() != "json" else strip_jsonc(noted, original=text)
    neutral = _placeholders_emptied(jsonc)
    excerpt = _MEMBER_FIRST.match(neutral) is not None
    if excerpt and not any(line.rstrip().endswith(",") for line in neutral.split("\n")):
        return None  # members listed a line each, none followed by a comma: fields, not JSON
    if not excerpt and neutral.lstrip()[:1] not in ("{", "["):
        return None
    if excerpt:
        # members cut from a longer object: the comma after the last one (or before an elision
        # blanked) says the object goes on, not a slip
        neutral = re.sub(r",(\s*)\Z", r" \1", neutral)
    parsed = "{\n" + neutral + "\n}" if excerpt else neutral
    if fast_json(parsed) is not None:
        return None
    try:
        parse_json(parsed)
    except ParseFailure as failure:
        if not any(slip in failure.message for slip in _SLIPS):
            return None
        if wrapped and "line break" in failure.message:
            return None  # the specification wraps its strings for display
        at = _offset(parsed, failure.line, failure.column)
        before = parsed[:at]
        if "missing" in failure.message and parsed[len(before.rstrip()) : at].count("\n") >= 2:
            # a blank line, or a line of a comment only, between the two values: parts shown
            # one after another (`// Bad`, then `// Good`), not one object missing a comma
            return None
        if "line break" not in failure.message and parsed[at:].lstrip()[:1] not in _DATA_START:
            return None  # stopped at notation (`"a" | "b"`, `<id>`, a type name): a sketch
        if "line break" in failure.message:
            opened = before.rfind('"')
            if not _UNCLOSED.search(before[opened:]):
                return None  # a long string wrapped, as sketches do: no slip is certain
            before = before[:opened]  # up to the string left open
        if not _plain(before):
            return None  # the failure follows notation: the sketch's, not a slip
        line = failure.line - 1 if excerpt else failure.line
        if line > text.count("\n") + 1 or line < 1:
            return None  # at the braces an excerpt is read inside: nothing of the example's
        return ParseFailure(failure.message, line, failure.column)
    return None
