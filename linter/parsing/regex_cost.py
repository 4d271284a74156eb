"""What compiling a regular expression the repository wrote would cost, read without compiling it.

A schema's ``pattern`` (and each ``patternProperties`` key) is compiled to judge values against it:
by the `regex` module here (``speclint.analyses.schemas.validation``), by Python's `re` in jsonschema's own
``format: regex`` check and in Hypothesis. Compiling is not always cheap, nor always possible:

- `regex` copies a counted repeat's body once per required repetition (``a{5}`` is ``aaaaa``), so
  the 30 bytes ``(?:a{3000}){3000}`` compile to nine million nodes: 2.4 GB and 5 s (issue 44,
  item 3). Only the lower count is copied: ``a{1,10000000}`` is one node.
- a count of 4,294,967,295 or more is refused by both: `regex` raises its error, `re` an
  ``OverflowError`` that no caller expects (issue 44, item 2).

:func:`oversized` reads the counted repeats (nested ones multiply) and says which patterns not to
compile: in time linear in the pattern, with the same answer on every machine. Every place speclint
compiles a pattern from the repository asks it first.
"""

from __future__ import annotations

import re
from functools import lru_cache

# The largest repeat count Python's `re` (``MAXREPEAT - 1``) and `regex` (``UNLIMITED - 1``) take.
MAX_COUNT = 4_294_967_294
# The elements a pattern may compile to: `regex` takes about 0.1 s and 30 MB for 100,000.
MAX_ELEMENTS = 100_000
# Elements are counted up to this: a pattern nested thousands deep with huge counts is not
# multiplied out into numbers of thousands of digits.
_CEILING = 10**15

# `{m}`, `{m,}`, `{m,n}` and `{,n}` (`regex` reads `{,n}` as `{0,n}`); ASCII digits only, as
# `regex` reads them. Anything else after `{` is a literal brace (`{e<=1}` is a fuzzy constraint).
_COUNTS = re.compile(r"\{([0-9]*)(,([0-9]*))?\}")
# A group's opening after `(?`: a lookaround, an atomic or branch-reset group, a named group, or
# scoped flags; what it is does not change what it costs.
_GROUP_PREFIX = re.compile(r"\?(?:<[=!]|[=!>|:]|P?<[^<>()]*>|'[^'()]*'|[A-Za-z0-9^-]+:)")
# A whole `(...)` that is one element: inline flags, a comment, a backreference or a call. No
# part runs past a `(`: each reading then stops at the next group, and the whole is linear (a
# comment holding a `(` is read as groups, which only counts more).
_ONE_ELEMENT = re.compile(r"\?(?:[A-Za-z0-9^-]*|#[^()]*|P[=>][^()]*|&[^()]*|R|[+-]?[0-9]+)\)")
# Inline flags that turn on verbose mode (`(?x)`, `(?ix)`, `(?x:...)`): whitespace and `#` comments
# are then skipped everywhere outside a class, between a count's digits too (`{3 0}` is 30).
_VERBOSE = re.compile(r"\(\?[A-Za-z0-9^-]*x")
# A POSIX class inside a class: `[[:alpha:]]`.
_POSIX = re.compile(r"\[:\^?[A-Za-z_]*:\]")
# Escapes whose argument may hold a brace or angle brackets: `\p{L}`, `\x{1F600}`, `\g<name>`;
# looked for within ARGUMENT characters (a Unicode name is under 90), so that no escape reads on
# to the end of the pattern.
_ESCAPE_ARGUMENT = {"p": "}", "P": "}", "N": "}", "x": "}", "u": "}", "g": ">", "k": ">"}
ARGUMENT = 128


def oversized(pattern: str) -> str | None:
    """Why ``pattern`` is not to be compiled, as a clause for a message; None when compiling it
    costs about what it is long."""
    elements, largest = _cost(pattern)
    if largest > MAX_COUNT:
        return f"it has a repeat count past the {MAX_COUNT:,} that Python's `re` and `regex` take"
    if elements > max(MAX_ELEMENTS, len(pattern)):
        return (
            f"its counted repeats compile to about {elements:,} elements, past {MAX_ELEMENTS:,} "
            "(a backtracking engine copies a repeat's body once per required repetition)"
        )
    return None


def compiled_elements(pattern: str) -> int:
    """About how many elements `regex` compiles ``pattern`` to (each literal, class, escape or
    group edge one; a repeat's body once per required repetition)."""
    return _cost(pattern)[0]


@lru_cache(maxsize=4096)
def _cost(pattern: str) -> tuple[int, int]:
    """(elements, largest repeat count) of ``pattern``: the largest over the readings `regex`
    may give it (verbose or not, where a flag may turn verbose mode on; nested classes or not,
    in version 1 mode), so that a reading it gives and this does not cannot hide a repeat."""
    readings = [pattern]
    if _VERBOSE.search(pattern):
        readings.append(_without_spaces(pattern))
    costs = [_read(text, nested) for text in readings for nested in (False, "V1" in pattern)]
    return max(c[0] for c in costs), max(c[1] for c in costs)


def _read(pattern: str, nested: bool) -> tuple[int, int]:
    """(elements, largest repeat count) of ``pattern`` read as written (verbose mode's spaces
    removed already). Iterative: a pattern nested thousands deep is read all the same."""
    # Per open group: [elements of its earlier alternatives, elements of the current one].
    frames: list[list[int]] = [[0, 0]]
    last: int | None = None  # the elements of the item a quantifier would repeat
    largest = 0
    i, end = 0, len(pattern)
    while i < end:
        char = pattern[i]
        if char in "*+?" or char == "{":
            counts = _quantifier(pattern, i)
            if counts is not None:
                low, high, i = counts
                largest = max(largest, low, high or 0)
                if i < end and pattern[i] in "?+":
                    i += 1  # a lazy or possessive repeat: the same nodes
                if last is not None:
                    grown = _repeated(last, low, high)
                    frames[-1][1] += grown - last
                    last = grown
                continue
        if char == "(":
            one = _ONE_ELEMENT.match(pattern, i + 1)
            if one is not None:
                i = one.end()
                frames[-1][1] += 1
                last = 1
                continue
            prefix = _GROUP_PREFIX.match(pattern, i + 1)
            i = prefix.end() if prefix is not None else i + 1
            frames.append([0, 0])
            last = None
            continue
        if char == ")":
            i += 1
            if len(frames) > 1:
                earlier, current = frames.pop()
                last = earlier + current
                frames[-1][1] += last
            else:
                # An unmatched `)` (an error to `regex`, unless a class it read ended elsewhere):
                # what precedes it is taken as one group, which a repeat after it multiplies.
                last = frames[0][0] + frames[0][1]
                frames[0] = [0, last]
            continue
        if char == "|":
            frames[-1][0] += frames[-1][1]
            frames[-1][1] = 0
            last = None
            i += 1
            continue
        if char == "\\":
            i = _escape_end(pattern, i)
        elif char == "[":
            i = _class_end(pattern, i, nested)
        else:
            i += 1
        frames[-1][1] += 1
        last = 1
    while len(frames) > 1:  # unclosed groups (an error to `regex`): folded into their parents
        earlier, current = frames.pop()
        frames[-1][1] += earlier + current
    return frames[0][0] + frames[0][1], largest


def _quantifier(pattern: str, i: int) -> tuple[int, int | None, int] | None:
    """(lowest, highest or None for no limit, the index after it) of a quantifier at ``i``."""
    char = pattern[i]
    if char == "*":
        return 0, None, i + 1
    if char == "+":
        return 1, None, i + 1
    if char == "?":
        return 0, 1, i + 1
    found = _COUNTS.match(pattern, i)
    if found is None or (not found.group(1) and found.group(2) is None):
        return None  # `{}`, `{x}`: literal braces
    low, comma, high = found.group(1), found.group(2), found.group(3)
    lowest = _count(low) if low else 0
    highest = lowest if comma is None else (_count(high) if high else None)
    return lowest, highest, found.end()


def _count(digits: str) -> int:
    # A count of thousands of digits is past any limit: not converted (Python refuses to convert
    # more than 4,300 digits, and no bound needs them).
    return int(digits) if len(digits) <= 12 else MAX_COUNT * 10


def _repeated(body: int, low: int, high: int | None) -> int:
    """The elements of ``body`` repeated ``low`` to ``high`` times, as `regex` compiles it: the
    body once per required repetition past the first, and once more for an optional tail."""
    if low <= 1:
        return min(body + 1, _CEILING)
    return min(body * low + (body if high is None or high > low else 0), _CEILING)


def _escape_end(pattern: str, i: int) -> int:
    """The index after the escape at ``i`` (its argument included: `\\p{L}`, `\\g<name>`)."""
    after = i + 2
    closing = _ESCAPE_ARGUMENT.get(pattern[i + 1 : i + 2])
    if closing is not None and pattern[after : after + 1] in ("{", "<"):
        found = pattern.find(closing, after, after + ARGUMENT)
        if found >= 0:
            return found + 1
    return min(after, len(pattern))


def _class_end(pattern: str, i: int, nested: bool) -> int:
    """The index after the character class opening at ``i``. A `]` first (after a `^`) is a
    member; `[` opens a nested class only in version 1 mode (``nested``)."""
    j = i + 1
    if pattern.startswith("^", j):
        j += 1
    if pattern.startswith("]", j):
        j += 1
    depth = 1
    while j < len(pattern):
        char = pattern[j]
        if char == "\\":
            j += 2
            continue
        if char == "[":
            posix = _POSIX.match(pattern, j)
            if posix is not None:
                j = posix.end()
                continue
            if nested:
                depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return len(pattern)  # an unclosed class: `regex` refuses the pattern


def _without_spaces(pattern: str) -> str:
    """``pattern`` as verbose mode reads it: whitespace and `#` comments outside classes gone."""
    kept: list[str] = []
    i, end = 0, len(pattern)
    while i < end:
        char = pattern[i]
        if char == "\\":
            kept.append(pattern[i : i + 2])
            i += 2
        elif char == "[":
            close = _class_end(pattern, i, nested=False)
            kept.append(pattern[i:close])
            i = close
        elif char.isspace():
            i += 1
        elif char == "#":
            newline = pattern.find("\n", i)
            i = end if newline < 0 else newline + 1
        else:
            kept.append(char)
            i += 1
    return "".join(kept)
