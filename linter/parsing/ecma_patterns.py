"""Whether a schema's regular expression is portable ECMA-262, and if not, what to write instead.

JSON Schema's ``pattern`` and ``patternProperties`` keys "SHOULD be valid according to the
ECMA-262 regular expression dialect" (2020-12 Validation §6.3.3, Core §6.4; OpenAPI 3.0 §4.7.24
and AsyncAPI say the same). The validators that hold schemas to it compile patterns in ECMA-262's
unicode mode (the ``u`` flag): ajv by default (``unicodeRegExp: true``), and check-jsonschema
through `regress`, the Rust engine the Python JSON Schema tools use (openapi-schema-validator
too, without the flag). Unicode mode drops the lenient syntax of ECMA-262 Annex B B.1.2 that
Python's `re` shares: an identity escape of a character that is no syntax character (``\\-``
outside a class, ``\\#``), a lone ``]``, ``{`` or ``}``. Python also has constructs no
ECMA-262 engine reads (inline flags, ``(?P<name>...)``, possessive quantifiers).

:func:`portability` reads a pattern as Python does, names the first construct unicode mode
refuses, and spells the whole pattern anew when every such construct has a spelling that means
the same in Python and in ECMA-262 (checked: `regress` accepts it in unicode mode, and Python
parses it to the same tree). :func:`unreadable` says why a pattern no engine reads (``^a(b$``)
is refused, and what to write: the metaschemas' ``format: "regex"``, which the rules judging
schemas report (``schema_objects.refused_patterns``).
"""

from __future__ import annotations

import functools
import importlib
import re
import unicodedata
import warnings
from dataclasses import dataclass
from typing import Any

import regress

from speclint.parsing.regex_cost import oversized

# ECMA-262 §22.2.1: SyntaxCharacter, and `/`; the only identity escapes unicode mode keeps
# (IdentityEscape[+UnicodeMode]). Inside a class `\-` too (ClassEscape[+UnicodeMode]).
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
# Escapes both read alike: classes, and control characters (ECMA-262 §22.2.1 CharacterEscape).
_SHARED = frozenset("dDwWsSfnrtv")
# Python's counted repeat (``sre_parse``): `{m}`, `{m,}`, `{,n}`, `{m,n}`, `{,}`; any other `{`
# is a literal brace.
_COUNT = re.compile(r"\{([0-9]*)(,([0-9]*))?\}")
_GROUP_NAME = re.compile(r"\(\?P<([^>]*)>")
_HEX = frozenset("0123456789abcdefABCDEF")

# Python's parser, to prove a rewrite keeps the pattern's meaning there: private (`re._parser`
# since 3.11), so read where it is and never required.
try:
    _PARSER: Any = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - a Python that moved it: rewrites are still checked
    _PARSER = None


@dataclass(frozen=True)
class Unportable:
    """A pattern ECMA-262's unicode mode refuses, read where another engine accepts it."""

    construct: str  # the first construct refused, as written (`\-`), or "" when not told apart
    why: str  # a clause: what it is and who reads it
    fix: str  # a clause: how to write it portably
    python: bool  # Python's `re` compiles the pattern
    legacy: bool  # ECMA-262 without the `u` flag (Annex B) compiles it
    portable: str | None  # the whole pattern rewritten, meaning the same in Python and ECMA-262
    count: int = 1  # the constructs refused


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    replacement: str | None  # None: no portable spelling that keeps the meaning
    why: str
    fix: str
    anchor: bool = False  # replaces an anchor by its equivalent: not the same parse tree


def ecma_unicode_accepts(pattern: str) -> bool:
    return _accepts(pattern, "u")


@functools.lru_cache(maxsize=4096)
def portability(pattern: str) -> Unportable | None:
    """None when ``pattern`` is valid ECMA-262 in unicode mode, when it is valid nowhere
    (Python's `re` and ECMA-262 without the `u` flag refuse it too: the schema rules' finding),
    or when it is not to be compiled at all (``regex_cost.oversized``: schema-invalid's)."""
    if oversized(pattern) is not None or _accepts(pattern, "u"):
        return None
    python = _python_accepts(pattern)
    legacy = _accepts(pattern, "")
    if not python and not legacy:
        return None
    edits = _edits(pattern)
    portable = _rewritten(pattern, edits, python)
    if not edits:
        return Unportable("", "ECMA-262 in unicode mode refuses it", "", python, legacy, portable)
    first = edits[0]
    construct = pattern[first.start : first.end]
    return Unportable(construct, first.why, first.fix, python, legacy, portable, len(edits))


@dataclass(frozen=True)
class Unreadable:
    """A pattern no engine reads: Python's `re`, and ECMA-262 with and without the `u` flag."""

    python: str  # Python's error, with its position ("missing ), unterminated subpattern at
    # position 2"): the most precise of the three
    ecma: str  # regress's, in unicode mode ("Unbalanced parenthesis")
    fix: str  # a clause: how to write what was likely meant


# Python's error (``re.error.msg``) and the fix for what its writer likely meant; any other
# error gets the general one.
_FIXES = (
    (
        "missing ), unterminated subpattern",
        "close the group with `)`, or write `\\(` for a literal `(`",
    ),
    (
        "unbalanced parenthesis",
        "delete the `)` that closes no group, or write `\\)` for a literal `)`",
    ),
    ("unterminated character set", "close the class with `]`, or write `\\[` for a literal `[`"),
    (
        "bad character range",
        "write the range low to high (`a-z`), or put a literal `-` last in the class",
    ),
    (
        "nothing to repeat",
        "write `\\` before a quantifier (`*`, `+`, `?`, `{`) meant literally (a glob such as "
        "`*.md` is no regular expression: `\\.md$` is)",
    ),
    (
        "global flags not at the start",
        "JSON Schema patterns take no flags: spell the cases out (`[Aa]`) or drop the flag",
    ),
    ("multiple repeat", "write one quantifier, or `\\` before one meant literally"),
    ("min repeat greater than max repeat", "write the smaller count first (`{1,3}`)"),
    ("bad escape (end of pattern)", "write `\\\\` for a literal backslash at the end"),
)
_GENERAL_FIX = "write it as ECMA-262 reads it (2020-12 Validation §6.3.3)"


@functools.lru_cache(maxsize=4096)
def unreadable(pattern: str) -> Unreadable | None:
    """Why no engine reads ``pattern`` (Python's `re`, ECMA-262 with and without the `u` flag,
    through `regress`), or None when one does, or when it is not to be compiled at all
    (``regex_cost.oversized``: its own finding). :func:`portability`'s complement: a pattern
    it passes over for being valid nowhere."""
    if oversized(pattern) is not None or _accepts(pattern, ""):
        return None
    ecma = _ecma_error(pattern, "u")
    python = _python_error(pattern) if ecma is not None else None
    if ecma is None or python is None:
        return None
    fix = next((fix for start, fix in _FIXES if python.startswith(start)), _GENERAL_FIX)
    return Unreadable(python, ecma, fix)


def _python_error(pattern: str) -> str | None:
    """Python's error compiling ``pattern`` (``re.error``'s, with its position), or None."""
    try:
        with warnings.catch_warnings():
            # `[[` and `--` in a class: "possible nested set" (Python 3.7), still read as today.
            warnings.simplefilter("ignore", FutureWarning)
            re.compile(pattern)
    except re.error as error:
        return str(error)
    except (RecursionError, OverflowError, ValueError) as error:
        return str(error) or type(error).__name__
    return None


def _accepts(pattern: str, flags: str) -> bool:
    return _ecma_error(pattern, flags) is None


def _ecma_error(pattern: str, flags: str) -> str | None:
    """regress's error compiling ``pattern`` with ``flags`` ("u": unicode mode), or None."""
    try:
        regress.Regex(pattern, flags=flags or None)
    except regress.RegressError as error:
        return str(error).rstrip(".") or "refused"
    return None


def _python_accepts(pattern: str) -> bool:
    return _python_error(pattern) is None


def _python_tree(pattern: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return _tree(_PARSER.parse(pattern))


def _rewritten(pattern: str, edits: list[_Edit], python: bool) -> str | None:
    """The pattern with every edit made, when each has a replacement, ECMA-262's unicode mode
    accepts the result and, where Python read the original, Python reads it as it read the
    original (its anchors aside, whose replacements are equivalent, not the same node)."""
    if not edits or any(e.replacement is None for e in edits):
        return None
    fixed = _applied(pattern, edits)
    if not _accepts(fixed, "u"):
        return None
    if not python:
        return fixed  # a pattern only ECMA-262's legacy syntax reads: its meaning there is kept
    if not _python_accepts(fixed):
        return None
    if _PARSER is not None:
        baseline = _applied(pattern, [e for e in edits if e.anchor])
        if _python_tree(baseline) != _python_tree(fixed):
            return None
    return fixed


def _applied(pattern: str, edits: list[_Edit]) -> str:
    out, at = [], 0
    for edit in edits:
        out += [pattern[at : edit.start], edit.replacement or ""]
        at = edit.end
    return "".join(out) + pattern[at:]


def _tree(node: Any) -> Any:
    if hasattr(node, "data") and hasattr(node, "state"):  # a SubPattern
        return [_tree(item) for item in node.data]
    if isinstance(node, (tuple, list)):
        return tuple(_tree(item) for item in node)
    return node


def _edits(pattern: str) -> list[_Edit]:
    """Each construct of ``pattern`` (read as Python reads it) that ECMA-262's unicode mode
    refuses, in order."""
    edits: list[_Edit] = []
    n = len(pattern)
    i = 0
    in_class = False
    class_text = ""
    backreferenced = "(?P=" in pattern
    while i < n:
        c = pattern[i]
        if c == "\\":
            step, edit = _escape(pattern, i, in_class)
            if edit is not None:
                edits.append(edit)
            i += step
            continue
        if in_class:
            if c == "]":
                in_class = False
            elif c == "[" and pattern[i + 1 : i + 2] == ":":
                class_text = "posix"
            i += 1
            continue
        if c == "[":
            in_class = True
            class_text = ""
            j = i + 1 + (pattern[i + 1 : i + 2] == "^")
            if pattern[j : j + 1] == "]":
                # Python reads a `]` first in a class as a member; ECMA-262 reads `[]` as the
                # empty class (§22.2.2.9), so `[]a]` means another thing there.
                edits.append(
                    _Edit(j, j + 1, "\\]", "a `]` first in a character class", "escape it: `\\]`")
                )
                i = j + 1
            else:
                i += 1
            continue
        if c == "]":
            posix = (
                " (a class ends at its first `]`: `[:alpha:]` is no POSIX class in Python or "
                "ECMA-262)"
                if class_text == "posix"
                else ""
            )
            edits.append(
                _Edit(i, i + 1, "\\]", f"`]` alone outside a character class{posix}", "write `\\]`")
            )
            i += 1
            continue
        if c in "{}":
            step, edit = _brace(pattern, i)
            if edit is not None:
                edits.append(edit)
            i += step
            continue
        if c == "(" and pattern[i + 1 : i + 2] == "?":
            step, edit = _group(pattern, i, backreferenced)
            if edit is not None:
                edits.append(edit)
            i += step
            continue
        if c in "*+?" and pattern[i + 1 : i + 2] == "+" and i > 0:
            edits.append(_possessive(i + 1))
            i += 2
            continue
        i += 1
    return edits


def _escape(pattern: str, i: int, in_class: bool) -> tuple[int, _Edit | None]:
    """The length of the escape at ``i`` and the edit it needs, if any."""
    d = pattern[i + 1 : i + 2]
    if not d:
        return 1, None
    written = pattern[i : i + 2]
    if d in _SYNTAX or d in _SHARED or (in_class and d in "-b") or (not in_class and d in "bB"):
        return 2, None
    if d in "xu" and pattern[i + 2 : i + 3] != "{":  # Python requires the hex digits ECMA-262 reads
        return 2, None
    if d in "0123456789":
        return _numeric(pattern, i, in_class)
    if d == "A" and not in_class:
        return 2, _Edit(
            i,
            i + 2,
            "^",
            "`\\A` (Python's start of input) is no ECMA-262 escape; without the `u` flag it is "
            "the letter `A`",
            "write `^`",
            anchor=True,
        )
    if d == "Z" and not in_class:
        return 2, _Edit(
            i,
            i + 2,
            "(?![\\s\\S])",
            "`\\Z` (Python's end of input) is no ECMA-262 escape; without the `u` flag it is "
            "the letter `Z`",
            "write `(?![\\s\\S])` (the end of input in both; `$` also lets one final newline "
            "pass in Python)",
            anchor=True,
        )
    if d == "a":
        return 2, _Edit(i, i + 2, "\\x07", "`\\a` (Python's bell)", "write `\\x07`")
    if d == "U" and all(h in _HEX for h in pattern[i + 2 : i + 10]) and len(pattern) >= i + 10:
        return 10, _character(i, i + 10, pattern[i : i + 10], int(pattern[i + 2 : i + 10], 16))
    if d == "N" and pattern[i + 2 : i + 3] == "{" and "}" in pattern[i + 3 :]:
        end = pattern.index("}", i + 3) + 1
        try:
            code = ord(unicodedata.lookup(pattern[i + 3 : end - 1]))
        except KeyError:
            return end - i, None
        return end - i, _character(i, end, pattern[i:end], code)
    if d.isascii() and d.isalnum():
        # ECMA-262's own (`\p{L}`, `\u{1F600}`, `\k<name>`, `\cA`), which Python refuses.
        if d in "pPu" and pattern[i + 2 : i + 3] == "{" and "}" in pattern[i + 3 :]:
            return pattern.index("}", i + 3) + 1 - i, None
        if d in "pPc" or (d == "k" and not in_class):
            return 2, None
        # Any other letter: an error in Python (sre_parse refuses unknown ASCII-letter escapes)
        # and the letter itself in ECMA-262 without the `u` flag (Annex B.1.2 IdentityEscape).
        hint = " (`$` is the end of input)" if d == "z" else ""
        return 2, _Edit(
            i,
            i + 2,
            None,
            f"`{written}` is no escape in Python nor in ECMA-262's unicode mode (without `u`, "
            f"the letter `{d}`)",
            f"write `{d}` if the letter is meant{hint}",
        )
    where = "inside" if in_class else "outside"
    shown = "a space" if d == " " else f"`{d}`"
    return 2, _Edit(
        i,
        i + 2,
        d,
        f"`{written}` {where} a character class is no escape in ECMA-262's unicode mode",
        f"write {shown} without the backslash",
    )


def _numeric(pattern: str, i: int, in_class: bool) -> tuple[int, _Edit | None]:
    """`\\0`, an octal escape or a backreference, as Python reads it (``sre_parse``)."""
    digits = re.match(r"[0-9]*", pattern[i + 1 :])
    run = digits.group() if digits else ""
    octal = re.match(r"[0-7]{1,3}", run)
    if run[0] == "0":
        length = len(re.match(r"0[0-7]{0,2}", run).group())  # type: ignore[union-attr]
    elif octal is not None and (in_class or len(octal.group()) == 3) and run[0] in "1234567":
        # In a class every `\\1`-`\\7` is octal; outside, three octal digits (first 0-3) are.
        length = len(octal.group()) if in_class else 3
        if not in_class and run[0] > "3":
            return 1 + min(len(run), 2), None  # a backreference
    else:
        return 1 + min(len(run), 2), None  # a backreference: the same in both
    written = pattern[i : i + 1 + length]
    code = int(run[:length], 8)
    if written == "\\0" and not pattern[i + 2 : i + 3].isdigit():
        return 2, None  # ECMA-262's `\0` (§22.2.1 CharacterEscape), not followed by a digit
    return 1 + length, _Edit(
        i,
        i + 1 + length,
        f"\\x{code:02X}",
        f"`{written}` (Python's octal escape) is no ECMA-262 escape in unicode mode",
        f"write `\\x{code:02X}`",
    )


def _character(start: int, end: int, written: str, code: int) -> _Edit:
    spelled = f"\\u{code:04X}" if code <= 0xFFFF else chr(code)
    return _Edit(
        start,
        end,
        spelled,
        f"`{written}` is Python's escape, no ECMA-262 one",
        f"write `{spelled}`",
    )


def _brace(pattern: str, i: int) -> tuple[int, _Edit | None]:
    if pattern[i] == "}":
        return 1, _Edit(i, i + 1, "\\}", "`}` alone", "write `\\}`")
    count = _COUNT.match(pattern, i)
    if count is None or pattern[i + 1 : i + 2] == "}":
        return 1, _Edit(i, i + 1, "\\{", "`{` that starts no repeat count", "write `\\{`")
    low, comma, high = count.group(1), count.group(2), count.group(3)
    end = count.end()
    if not low and comma is not None:  # `{,n}` and `{,}`: Python's, from 0
        spelled = f"{{0,{high or ''}}}"
        edit = _Edit(
            i, end, spelled, f"`{count.group()}` (a count from 0: Python's)", f"write `{spelled}`"
        )
    else:
        edit = None
    if pattern[end : end + 1] == "+":
        return end - i + 1, edit or _possessive(end)
    return end - i, edit


def _possessive(at: int) -> _Edit:
    return _Edit(
        at,
        at + 1,
        None,
        "a possessive quantifier (`++`, `*+`, `?+`: Python 3.11's)",
        "drop the last `+` where backtracking cannot change what matches",
    )


def _group(pattern: str, i: int, backreferenced: bool) -> tuple[int, _Edit | None]:
    rest = pattern[i + 2 :]
    if rest[:1] in (":", "=", "!", "<"):
        return 2, None  # a lookaround, or ECMA-262's named group `(?<name>` (Python refuses it)
    named = _GROUP_NAME.match(pattern, i)
    if named is not None:
        return named.end() - i, _Edit(
            i,
            named.end(),
            None if backreferenced else "(",
            f"`{named.group()}` (a named group: Python's spelling)",
            "write a plain group `(`; a JSON Schema pattern never uses the name",
        )
    if rest[:1] == "#":
        end = pattern.find(")", i)
        end = len(pattern) if end < 0 else end + 1
        return end - i, _Edit(
            i, end, "", "a comment group `(?#...)`", "delete it (say it in `description`)"
        )
    if rest[:1] == ">":
        return 3, _Edit(
            i,
            i + 3,
            None,
            "an atomic group `(?>...)`",
            "write `(?:...)` where backtracking into it cannot change what matches",
        )
    flags = re.match(r"\(\?[aiLmsux-]+[:)]", pattern[i:])
    if flags is not None:
        return flags.end(), _Edit(
            i,
            i + flags.end(),
            None,
            f"an inline flag group `{flags.group()}`",
            "JSON Schema patterns take no flags: spell the cases out (`[Aa]`) or drop the flag",
        )
    return 2, _Edit(i, i + 2, None, "a group `(?...` of Python's", "write a plain group")
