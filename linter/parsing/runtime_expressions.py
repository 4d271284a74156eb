"""Arazzo runtime expressions found in a string (Arazzo 1.0.1 §4.7, issue 49 item 4).

A runtime expression is ``$url``, ``$method``, ``$statusCode``, or ``$<root>.<rest>`` with the
roots ``request``, ``response``, ``inputs``, ``outputs``, ``steps``, ``workflows``,
``sourceDescriptions`` and ``components``. It is written three ways:

- bare, as a whole field value (``value: $inputs.petId``);
- embedded in a string between braces (``Bearer {$inputs.token}``, §4.7 last paragraph);
- inside a ``simple`` condition of a Criterion Object (§4.6.9: literals, operators such as
  ``==`` ``&&`` ``!`` ``()`` ``[]`` ``.``, and runtime expressions), or a JSONPath condition
  that compares with one (``$[?@.id == $steps.a.outputs.id]``).

The ABNF's ``name`` is ``*( CHAR )``: any ASCII character, dots and brackets included, so
``$inputs.page[size]`` names the input ``page[size]`` and ``$inputs.$.xgafv`` the input
``$.xgafv``. Where a name ends is therefore known only against what is declared: this module
returns the text after the root (``rest``) and leaves it to the caller to match declared names
as prefixes of it (:func:`name_prefixes`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

# §4.7 ABNF: the roots of `expression`.
ROOTS = (
    "url",
    "method",
    "statusCode",
    "request",
    "response",
    "inputs",
    "outputs",
    "steps",
    "workflows",
    "sourceDescriptions",
    "components",
)
# The roots that stand alone (`$statusCode`) and those followed by `.` and more.
BARE_ROOTS = frozenset({"url", "method", "statusCode"})

# `{$...}` embedded in a string (§4.7): up to the closing brace.
_EMBEDDED = re.compile(r"\{(\$[^{}]*)\}")
# `$` and a root word, as it starts an expression inside a condition: `$[`, `$.` and `$@` are
# JSONPath (RFC 9535 §2.2: the root identifier), `$100` is a literal, not an expression.
_START = re.compile(r"(?<![A-Za-z0-9_$@.])\$[A-Za-z]")
# What ends an expression inside a condition: white space and the operators of §4.6.9 that no
# name in practice holds (`[` `]` `.` and `#` are parts of names, indexes and pointers).
_CONDITION_END = re.compile(r"[\s=!<>&|(),]")
# A quoted literal of a condition (§4.6.9: strings in single quotes, a quote doubled inside;
# double quotes are common in the wild and JSONPath's).
_QUOTED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"")
_ROOT = re.compile(r"\$([A-Za-z][A-Za-z0-9]*)")


@dataclass(frozen=True)
class Expression:
    """One runtime expression as written, and its parts."""

    text: str  # the expression, from its `$` (without embedding braces)
    root: str  # the word after `$`: one of ROOTS, or as written when it is none
    rest: str  # what follows `$<root>.` ("" when nothing does)
    start: int  # where it starts in the string it was found in
    # What white space cut off after it, to the end of the value or the embedding braces: a
    # name may hold spaces (§4.7: `name = *( CHAR )`; a JSON Schema property `Unit Price` of
    # the inputs), which only the names declared can tell from prose after the expression.
    tail: str = ""

    @property
    def known(self) -> bool:
        return self.root in ROOTS


def expressions_in(text: str, *, bare: bool = True) -> list[Expression]:
    """The runtime expressions of a field value: the embedded ``{$...}`` ones, else (``bare``)
    the whole value when it starts with ``$`` and a letter."""
    # White space ends an embedded expression too: `{$steps.a.outputs.b || 'x'}` reads output
    # `b` (the rest is no part of §4.7's grammar, and not this module's to judge).
    found = [_cut(m.group(1), m.start(1)) for m in _EMBEDDED.finditer(text)]
    if found or not bare:
        return found
    stripped = text.strip()
    if _START.match(stripped) is None:
        return []
    # A bare value is one expression; white space ends it (nothing in §4.7 allows it, and the
    # name rule `*( CHAR )` would otherwise swallow prose after it).
    return [_cut(stripped, text.index(stripped))]


def _cut(text: str, start: int) -> Expression:
    """The expression ``text`` starts with, ended by white space, the rest kept as its tail."""
    head = re.split(r"\s", text, maxsplit=1)[0]
    return replace(_parse(head, start), tail=text[len(head) :])


def expressions_in_condition(condition: str) -> list[Expression]:
    """The runtime expressions of a ``simple`` condition (§4.6.9) or of a JSONPath condition:
    every ``$<word>`` outside quoted literals, up to white space or an operator; an unbalanced
    ``]`` or ``)`` at the end (``$[?@.id == $steps.a.outputs.id]``) closes what encloses it."""
    masked = _QUOTED.sub(lambda m: " " * len(m.group(0)), condition)
    found: list[Expression] = []
    for embedded in _EMBEDDED.finditer(masked):
        found.append(_parse(condition[embedded.start(1) : embedded.end(1)], embedded.start(1)))
    masked = _EMBEDDED.sub(lambda m: " " * len(m.group(0)), masked)
    for start in _START.finditer(masked):
        end = _CONDITION_END.search(masked, start.start())
        text = masked[start.start() : end.start() if end else len(masked)]
        while text.endswith("]") and text.count("]") > text.count("["):
            text = text[:-1]
        found.append(_parse(text, start.start()))
    return sorted(found, key=lambda e: e.start)


def _parse(text: str, start: int) -> Expression:
    match = _ROOT.match(text)
    if match is None:
        return Expression(text, "", "", start)
    word = match.group(1)
    # The longest root the word starts with: `$statusCode` is a root, `$inputsx` is not.
    root = word
    after = text[match.end() :]
    rest = after[1:] if after.startswith(".") else after
    return Expression(text, root, rest, start)


def name_prefixes(rest: str) -> Iterator[str]:
    """The names ``rest`` may start with, longest first: itself, then each prefix that ends
    before a ``.`` (a property dereference), ``[`` (an index) or ``#`` (a JSON pointer into the
    value, §4.7 examples: ``$steps.someStepId.outputs.pets#/0/id``)."""
    yield rest
    for index in range(len(rest) - 1, 0, -1):
        if rest[index] in ".[#":
            yield rest[:index]
