"""Sketch notes: what a JSON example's conventions allow, read as notes rather than slips.

A specification's examples elide (``...``, ``…``), comment (``#``), wrap long strings, write a
computed value as a call (``base64url({...})``) or a phrase where items go (``[ 6 arrays of 257
numbers ]``). fence-invalid reads fences through :func:`sketch_notes`, and parse-error a JSON file
that fails only at its elisions (an illustration's source): one reading of the notation, so that
the two never disagree on what a sketch is.
"""

from __future__ import annotations

import re

# JSON's and JSON5's literal words: never a phrase's.
LITERALS = frozenset({"true", "false", "null", "Infinity", "NaN"})
ELLIPSIS = re.compile(r"\(\s*(?:\.{3,}|…)\s*\)|\.{3,}|…")  # `...`, `(...)`, `…`
# What a JSON example elides with, outside its strings (where JSON never has a dot without a
# digit before it): `...` and `…`, also two dots (`[{..}]`), and a phrase between two of them on
# one line (`... the rest goes here ...`, `..other properties ..`), which says what is left out.
_DOTS = r"\.{2,}|…"
ELISION = re.compile(
    rf"(?:{_DOTS})(?:[^\"{{}}\[\]:,\n]*?(?:{_DOTS}))+|\(\s*(?:{_DOTS})\s*\)|{_DOTS}"
)
# A numbered code callout after the code on a line (`"kind": "event", <1>`; AsciiDoc's and
# Elastic docs-builder's `<1>`, also written after a comment mark, `// <1>`): a pointer to the
# numbered note under the fence, which the site renders as a marker and leaves out of the
# copied code.
_CALLOUTS = re.compile(r"(?<=\S)((?:[ \t]+(?://|#)?[ \t]*<\d{1,2}>)+)[ \t]*$", re.MULTILINE)


def without_callouts(text: str) -> str:
    """``text`` with its code callouts (``<1>`` at a line's end, after code) blanked, lines and
    columns kept: an annotation of the example, never a part of it."""
    if "<" not in text:
        return text
    return _CALLOUTS.sub(lambda m: " " * len(m.group(0)), text)


# A docs renderer's line notation (Shiki's transformers, as VitePress and Redocly's docs use
# them): a comment closing a line that marks it removed (`# [!code --]`), added (`// [!code ++]`),
# highlighted, focused, or flagged (`[!code highlight]`, `[!code focus:2]`, `[!code error]`,
# `[!code word:name]`). The site strips the comment and renders a diff: the `--` lines are the
# old version, not part of the document as shown, so they are not read with the new ones.
_CODE_NOTATION = re.compile(
    r"[ \t]*(?://|#|/\*|<!--|--)[ \t]*\[!code (?:\+\+|--|highlight|hl|focus|error|warning|word)"
    r"(?::[^\]\n]*)?\][ \t]*(?:\*/|-->)?[ \t]*$",
    re.MULTILINE,
)


def without_code_notation(text: str) -> str:
    """``text`` with a docs renderer's line notation (:data:`_CODE_NOTATION`) taken out, lines and
    columns kept: each marker comment blanked, and a line marked removed (``[!code --]``)
    blanked whole, as the renderer shows the document without it."""
    if "[!code " not in text:
        return text
    lines = text.split("\n")
    for number, line in enumerate(lines):
        found = _CODE_NOTATION.search(line)
        if found is None:
            continue
        removed = "[!code --]" in found.group(0)
        lines[number] = " " * len(line) if removed else line[: found.start()]
    return "\n".join(lines)


# A double-quoted string on one line of JSON: what an elision inside one is not.
JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def sketch_notes(text: str, wrapped: bool = False, elisions_only: bool = False) -> str:
    """``text`` with what a JSON example's conventions allow taken out, lines kept where they
    were: a ``#`` comment (never JSON outside a string) blanked; an elision (``...``, ``…``)
    blanked where it stands for members or items (with the comma after it) and read as a value
    after a ``:``, as is a one-line ``/* … */`` comment there; and, when ``wrapped`` (the specification says so), a line break inside a
    string joined, the break moved after the string's closing quote. A sketch's notation is
    read too: a value computed by a function (``base64url({...})``) as a value, a bracket
    holding a phrase (``[ 6 arrays of 257 numbers ]``) as an empty array, and a string spanning
    lines whose body is an elision as joined. ``elisions_only``: only the elisions (a data
    file's, not a fence's). Anything else that does not parse is left to fail."""
    out: list[str] = []
    index, length = 0, len(text)
    # A call whose brackets never close is looked for to the end of the text: after one, no
    # other is (each would scan as far, and a text of many would take quadratic time).
    calls = True
    while index < length:
        char = text[index]
        if char == '"':
            start, index = index, index + 1
            while index < length and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
            piece = text[start : index + 1]
            breaks = piece.count("\n") if wrapped or _elided_body(piece) else 0
            out.append(piece.replace("\n", " ") + "\n" * breaks if breaks else piece)
            index += 1
            continue
        if elisions_only and char not in ".…(":
            out.append(char)
            index += 1
            continue
        items = _PROSE_ITEMS.match(text, index) if char == "[" else None
        if items is not None and _prose_words(items.group(1)):
            # `[ 6 arrays of 257 numbers ]`: what the items are, described, not data
            out.append("[" + " " * len(items.group(1)) + "]")
            index = items.end()
            continue
        if calls and (char.isalpha() or char == "_") and _last_mark(out) in (":", "[", ","):
            end = _call_end(text, index)
            calls = end != -1
            if end is not None and end >= 0:
                # `base64url({...})`, `sha256(header.kid)`: a value computed by a function,
                # the notation of a specification's templates; read as a value
                out.append("0" + "".join(c if c == "\n" else " " for c in text[index + 1 : end]))
                index = end
                continue
        if char == "/" and text.startswith("/*", index) and _last_mark(out) == ":":
            end = text.find("*/", index + 2)
            if end >= 0 and "\n" not in text[index:end]:
                # `"digest": /* value */,`: a comment standing where the value goes says what
                # it would be, as an elision there does; read as a value
                out.append("0" + " " * (end + 1 - index))
                index = end + 2
                continue
        if char == "#":
            end = text.find("\n", index)
            end = length if end < 0 else end
            out.append(" " * (end - index))
            index = end
            continue
        elision = ELISION.match(text, index) if char in ".…(" else None
        if elision is None:
            out.append(char)
            index += 1
            continue
        width = elision.end() - index
        before = _last_mark(out)
        index = elision.end()
        if before == ":":
            out.append("0" + " " * (width - 1))  # a value left out
            continue
        out.append(" " * width)
        after = len(text[index:]) - len(text[index:].lstrip(" \t"))
        if before in ("{", "[", ",") and text[index + after : index + after + 1] == ",":
            out.append(text[index : index + after] + " ")
            index += after + 1
    return "".join(out)


def _last_mark(out: list[str]) -> str:
    """The last character written that is not white space, or ""."""
    return next((c for piece in reversed(out) for c in reversed(piece) if not c.isspace()), "")


# A bracket holding words and numbers only, on one line: no quotes, separators or nesting.
_PROSE_ITEMS = re.compile(r"\[([^\[\]{}\"',:\n]*)\]")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _prose_words(text: str) -> bool:
    """Whether the inside of a bracket is a phrase (``6 arrays of 257 numbers``): three words
    or more, two of them words of letters that are no JSON literal. A slip leaves out the
    commas of values (``[1 2 3]``), not the quotes of a sentence."""
    words = text.split()
    named = [w for w in words if _WORD.fullmatch(w) and w not in LITERALS]
    return len(words) >= 3 and len(named) >= 2


# A function applied where a value goes: a name, then its opening bracket.
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")


def _call_end(text: str, index: int) -> int | None:
    """The end of a function call written at ``index`` (``base64url({...})``: the name, its
    bracketed arguments, strings and nested brackets in them), None when there is none, -1
    when its brackets do not close. A closing bracket that closes nothing open (a notation's
    extra ``)`` inside the braces of an argument) is passed over: the braces say where it
    ends."""
    call = _CALL.match(text, index)
    if call is None:
        return None
    open_ = ["("]
    at, length = call.end(), len(text)
    while at < length:
        char = text[at]
        if char == '"':
            at += 1
            while at < length and text[at] not in '"\n':
                at += 2 if text[at] == "\\" else 1
        elif char in _CLOSING:
            if open_[-1] == _CLOSING[char]:
                open_.pop()
                if not open_:
                    return at + 1
        elif char in "({[":
            open_.append(char)
        at += 1
    return -1


_CLOSING = {")": "(", "}": "{", "]": "["}


def _elided_body(piece: str) -> bool:
    """Whether a string spanning lines holds, on a line of its own, only an elision (``"{``,
    ``...``, ``}"``): a value left out, written as the text of an object it shows in part."""
    inner = piece.split("\n")[1:-1]
    return any(ELLIPSIS.fullmatch(line.strip(" \t,{}[]")) for line in inner)
