"""MDX pages read as MDX: JSX tags on lines of their own are components, not CommonMark HTML.

An ``.mdx`` page (Docusaurus, Mintlify, Fern) wraps Markdown in components::

    <CodeGroup>
    ```json
    {"id": 1}
    ```
    </CodeGroup>

MDX (micromark-extension-mdx-jsx, "flow" elements) reads a line that holds only JSX tags as
the tags, and the lines after it as Markdown: the fence above is a fence. CommonMark reads
``<CodeGroup>`` as the start of an HTML block (CommonMark §4.6, kind 7) that runs to the next
blank line, and the fence in it is raw HTML, never seen (15 of one repository's 140 fences).
MDX also has no indented code (``codeIndented`` is off): a fence indented under nested
components (``<Steps>``, ``<Step>``, four spaces in) is a fence, not an indented code block.

:func:`as_commonmark` gives the text a CommonMark parser reads as MDX reads the page, with the
same lines (a finding's line is the page's line): each run of lines that holds only JSX tags
(a tag's attributes may run over several lines) is blanked to spaces, and the Markdown inside
components indented four spaces or more is moved left (the lines a component's body is made of,
by the indentation they share). The runs are returned, so that the reader keeps them as the HTML
blocks they were (their ``href``, ``id`` and ``title`` attributes are links and anchors:
``speclint.parsing.links``). Lines inside fences are code, never tags. A plain ``.md`` page is
never read through here: an HTML block there still runs to the next blank line.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# A tag's name: a JSX identifier, member expression (`Tabs.Item`) or namespace (`svg:rect`);
# the empty name is a fragment (`<>`, `</>`).
_NAME = re.compile(r"[A-Za-z_$][\w$.:-]*")
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
_JSX_COMMENT = re.compile(r"\{\s*/\*.*\*/\s*\}", re.DOTALL)
# A tag is given up after this many characters: an unclosed quote or brace never makes the scan
# of every following line read the page to its end. And what all the scans of a page read is
# kept under ``SCAN_BUDGET`` times the page (then a tag is looked for on its own line only): a
# page of lines that each open a quote costs as much as its text, not its text times the limit.
TAG_LIMIT = 4000
SCAN_BUDGET = 2
CODE_INDENT = 4  # CommonMark's indented code block (§4.4): what MDX does not have


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


class _Scanner:
    """Reads JSX tags in ``text``, no further than ``limit``; ``furthest`` is the last offset a
    scan read (what the scans of a page have read is kept within a bound: see ``as_commonmark``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.limit = len(text)
        self.furthest = 0
        self.work = 0  # characters read by all the scans so far

    def string_end(self, at: int) -> int:
        """The offset after the string opening at ``at`` (``"``, ``'`` or a template), or -1."""
        text, limit = self.text, self.limit
        quote = text[at]
        at += 1
        while at < limit:
            char = text[at]
            if char == "\\":
                at += 2
                continue
            if char == quote:
                return at + 1
            at += 1
        self.furthest = max(self.furthest, limit)
        return -1

    def expression_end(self, at: int) -> int:
        """The offset after the JavaScript expression in braces opening at ``at``, or -1."""
        text, limit = self.text, self.limit
        depth = 0
        while at < limit:
            char = text[at]
            if char in "\"'`":
                at = self.string_end(at)
                if at < 0:
                    return -1
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return at + 1
            at += 1
        self.furthest = max(self.furthest, limit)
        return -1

    def tag_end(self, at: int) -> tuple[int, str, str] | None:
        """The JSX tag opening at ``at`` (``text[at] == "<"``): the offset after it, its name,
        and its kind (``open``, ``close``, ``self``); None when no tag opens there."""
        text, limit = self.text, self.limit
        at += 1
        closing = text.startswith("/", at)
        if closing:
            at += 1
        name = _NAME.match(text, at, limit)
        if name is None and not text.startswith(">", at):
            return None  # `<!--`, `<1`, `< `: no tag
        tag = name.group(0) if name else ""
        at = name.end() if name else at
        while at < limit:
            at = min(_skip_space(text, at), limit)
            self.furthest = max(self.furthest, at)
            if at >= limit:
                return None
            char = text[at]
            if char == ">":
                return at + 1, tag, "close" if closing else "open"
            if text.startswith("/>", at) and not closing:
                return at + 2, tag, "self"
            if closing:
                return None
            if char == "{":  # a spread (`{...props}`)
                at = self.expression_end(at)
                if at < 0:
                    return None
                continue
            attribute = _NAME.match(text, at, limit)
            if attribute is None:
                return None
            at = _skip_space(text, attribute.end())
            if not text.startswith("=", at):
                continue  # a boolean attribute (`<Tab default>`)
            at = _skip_space(text, at + 1)
            if at >= limit:
                return None
            if text[at] in "\"'":
                at = self.string_end(at)
            elif text[at] == "{":
                at = self.expression_end(at)
            else:
                return None
            if at < 0:
                return None
        return None

    def tag_run(self, at: int) -> tuple[int, list[tuple[str, str]]] | None:
        """The tags written from ``at`` (the first non-blank character of a line) to the end of
        the line the last of them ends on, with nothing but blanks and JSX comments between
        them: the offset of that line's end and the tags (name, kind); None when the line holds
        anything else."""
        text = self.text
        tags: list[tuple[str, str]] = []
        while True:
            while at < self.limit and text[at] in " \t":
                at += 1
            self.furthest = max(self.furthest, at)
            if at >= len(text) or text[at] == "\n":
                return (at, tags) if tags else None
            if at >= self.limit:
                return None
            if text[at] == "{" and tags:
                end = self.expression_end(at)
                if end < 0 or not _JSX_COMMENT.fullmatch(text, at, end):
                    return None
                at = end
                continue
            if text[at] != "<":
                return None
            found = self.tag_end(at)
            if found is None:
                return None
            at, name, kind = found
            tags.append((name, kind))


class Reading(NamedTuple):
    """An MDX page as a CommonMark parser reads it (:func:`as_commonmark`)."""

    text: str  # the page, its lines of tags blanked and component bodies moved left
    runs: list[tuple[int, int]]  # the lines of tags: 0-based first line, line after the last
    inside: frozenset[int]  # the (0-based) lines inside a component, tags aside


def as_commonmark(text: str) -> Reading:
    """The page as a CommonMark parser reads it as MDX, with the same lines (see the module
    docstring)."""
    if "<" not in text:
        return Reading(text, [], frozenset())
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    runs: list[tuple[int, int]] = []
    scanner = _Scanner(text)
    budget = SCAN_BUDGET * len(text) + TAG_LIMIT
    depth: list[str] = []
    # Each line's component body (the lines between two tag lines, inside a component, by
    # number), None at the page's top level and for the tag lines themselves.
    body_of: list[int | None] = [None] * len(lines)
    in_code: list[bool] = [False] * len(lines)
    bodies = 0
    fence: tuple[str, int] | None = None
    number = 0
    while number < len(lines):
        line = lines[number]
        stripped = line.lstrip(" \t")
        if fence is not None:
            in_code[number] = True
            closer = _FENCE.fullmatch(line) if stripped[:3] == fence[0] * 3 else None
            if closer and len(closer.group(1)) >= fence[1] and not closer.group(2).strip():
                fence = None
                in_code[number] = False  # the closing line is the fence's, not code
            body_of[number] = bodies - 1 if depth else None
            number += 1
            continue
        opener = _FENCE.fullmatch(line) if stripped[:3] in ("```", "~~~") else None
        if opener and not (opener.group(1)[0] == "`" and "`" in opener.group(2)):
            fence = (opener.group(1)[0], len(opener.group(1)))
        elif stripped.startswith("<"):
            at = starts[number] + len(line) - len(stripped)
            spent = scanner.work
            line_end = starts[number + 1] - 1
            scanner.limit = min(len(text), at + TAG_LIMIT) if spent < budget else line_end
            scanner.furthest = at
            found = scanner.tag_run(at)
            scanner.work = spent + scanner.furthest - at
            if found is not None:
                end, tags = found
                last = number + text.count("\n", starts[number], end)
                runs.append((number, last + 1))
                for name, kind in tags:
                    if kind == "open":
                        depth.append(name)
                    elif kind == "close" and name in depth:
                        del depth[len(depth) - 1 - depth[::-1].index(name) :]
                bodies += 1
                number = last + 1
                continue
        body_of[number] = bodies - 1 if depth else None
        number += 1
    if not runs:
        return Reading(text, [], frozenset())
    shift = _shifts(lines, body_of, in_code)
    tagged = {line for start, stop in runs for line in range(start, stop)}
    out = []
    for index, line in enumerate(lines):
        if index in tagged:
            out.append(" " * len(line))
            continue
        body = body_of[index]
        cut = shift.get(body, 0) if body is not None else 0
        if cut:
            spaces = len(line) - len(line.lstrip(" "))
            line = line[min(cut, spaces) :]
        out.append(line)
    inside = frozenset(index for index, body in enumerate(body_of) if body is not None)
    return Reading("\n".join(out), runs, inside)


def _shifts(lines: list[str], body_of: list[int | None], in_code: list[bool]) -> dict[int, int]:
    """How far each component body's lines move left: by the indentation its lines share
    (code inside a fence aside), when that is an indented code block's (MDX has none)."""
    shared: dict[int, int] = {}
    for index, line in enumerate(lines):
        body = body_of[index]
        if body is None or in_code[index] or not line.strip():
            continue
        spaces = len(line) - len(line.lstrip(" "))
        shared[body] = min(shared.get(body, spaces), spaces)
    return {body: indent for body, indent in shared.items() if indent >= CODE_INDENT}


def is_mdx(path: str) -> bool:
    """Whether the page at ``path`` is an MDX page, read as :func:`as_commonmark` reads it."""
    return path.lower().endswith(".mdx")


def without_indented_code(text: str, blocks: list[tuple[int, int, str]]) -> str:
    """``text`` with the lines of each indented code block a CommonMark parser found in a
    component (0-based first line, line after the last, its content) moved left to where the
    block's container starts: MDX has no indented code, so a paragraph indented under a
    component (``<Step>`` then twelve spaces in) or a list item indented four spaces after a
    blank line is a paragraph or a list item. (At a page's top level, outside components, an
    indented block is left as CommonMark reads it: a sample shown there stays a sample.) The parser strips four columns past its container from each
    line (CommonMark §4.4): what the content keeps of indentation is past that too."""
    lines = text.split("\n")
    for start, stop, content in blocks:
        kept = [row for row in content.split("\n") if row.strip()]
        inner = min((len(row) - len(row.lstrip(" ")) for row in kept), default=0)
        cut = CODE_INDENT + inner
        for index in range(start, min(stop, len(lines))):
            line = lines[index]
            lines[index] = line[min(cut, len(line) - len(line.lstrip(" "))) :]
    return "\n".join(lines)
