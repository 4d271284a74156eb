"""A rule's documentation (its module docstring, reStructuredText) as text for a terminal.

``speclint rule ID`` prints it. The docstrings use a small part of reST: section headings with an
indented body (a definition list), ``inline literals``, ``::`` literal blocks, ``\\s`` escapes
after a literal (``$ref``\\s), ``**strong**`` and ``*emphasis*``. Shown raw, the markup is noise
to a reader, so:
- ``literal`` becomes `literal` (the quoting a terminal reader knows from Markdown and messages),
  and a span padded with spaces, which quotes text holding backticks (`` `kind` ``), its content;
- ``text::`` before a literal block becomes ``text:``, a lone ``::`` disappears, and
  ``.. code-block:: lang`` too; the block itself is kept verbatim, indentation and all;
- escapes lose their backslash, strong and emphasis their asterisks (bold headings and strong
  text on a colour terminal), ``:role:`text``` becomes `text`, ```text <url>`_`` "text (url)".

Nothing is reflowed: the docstrings are written at the width a terminal shows.

``parse_doc`` reads a docstring once, into plain data (the summary; sections; their prose, list
items and literal blocks, as written), which ``render_doc`` renders here and
``scripts/rule_pages.py`` as the documentation site's Markdown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BOLD = "\x1b[1m"
RESET = "\x1b[0m"

# reST inline markup (Docutils "reStructuredText Markup Specification", Inline markup), plus the
# Markdown code span of 3+ backticks that a docstring uses to quote a fence's info string.
_INLINE = re.compile(
    r"(?P<fence>`{3,})\s?(?P<fencetext>.+?)\s?(?P=fence)(?!`)"
    r"|`` (?P<padded>[^\n]+?) ``(?!`)"
    r"|``(?=\S)(?P<literal>.+?)(?<=\S)``(?!`)"
    r"|\\(?P<escaped>.)"
    r"|:[\w-]+:`(?P<role>[^`]+)`"
    r"|`(?P<linktext>[^`<]+?)\s*<(?P<url>[^>`]+)>`__?"
    r"|\*\*(?=\S)(?P<strong>.+?)(?<=\S)\*\*"
    r"|(?<![\w*\\])\*(?=[^\s*])(?P<emphasis>[^*]+?)(?<=[^\s\\])\*(?![\w*])",
    re.DOTALL,
)
_CODE_DIRECTIVE = re.compile(r"^\s*\.\.\s+(code-block|code|sourcecode)::.*$")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w-]+)::\s*(.*)$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def inline(text: str, color: bool = False) -> str:
    """Prose with its inline markup rendered."""

    def render(match: re.Match[str]) -> str:
        if match.group("fence") is not None:
            return match.group("fencetext")
        if match.group("padded") is not None:
            # Markdown's padded span quotes text that has backticks of its own: show it as is.
            return match.group("padded")
        if match.group("literal") is not None:
            return f"`{match.group('literal')}`"
        if match.group("escaped") is not None:
            # An escaped whitespace character is removed with its backslash (``$ref``\ s).
            escaped = match.group("escaped")
            return "" if escaped.isspace() else escaped
        if match.group("role") is not None:
            return f"`{match.group('role')}`"
        if match.group("linktext") is not None:
            return f"{match.group('linktext')} ({match.group('url')})"
        if match.group("strong") is not None:
            strong = match.group("strong")
            return f"{BOLD}{strong}{RESET}" if color else strong
        return match.group("emphasis")

    return _INLINE.sub(render, text)


# A list item's first line: a bullet or an enumerator, then a space (Docutils, "Bullet Lists",
# "Enumerated Lists").
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s")


@dataclass(frozen=True)
class Prose:
    """Prose lines as written: indentation kept, inline markup not yet rendered. A literal block's
    lead-in (``text::``) is here as it reads (``text:``), another directive as a lead-in
    (``.. note:: x`` as ``Note: x``)."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class ListItem:
    """A list item: its first line (``- text``, ``1. text``) and the lines indented under it, as
    written. ``margin`` is the indentation of its bullet or number."""

    lines: tuple[str, ...]
    margin: int


@dataclass(frozen=True)
class Literal:
    """A literal block (after ``::`` or a ``.. code-block::``) verbatim: its lines with their
    indentation, blank lines before them included, blank lines after them not."""

    lines: tuple[str, ...]


Block = Prose | ListItem | Literal


@dataclass(frozen=True)
class Section:
    """A section: its title line (``""`` for the lines between the summary and the first title,
    there even when they are blank or none), the indentation of its body (the least of its
    non-blank lines'), and its blocks. Adjacent prose and list items are one run of text to their
    renderers: an inline span may cross lines."""

    title: str
    margin: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class RuleDoc:
    summary: str
    sections: tuple[Section, ...]


def _title(lines: list[str], index: int) -> bool:
    """A definition-list term at the left margin, ``What it does``: an unindented line (not a
    literal block's lead-in nor a directive) whose next non-blank line is indented."""
    line = lines[index]
    if _indent(line) or not _plain(line):
        return False
    following = next((later for later in lines[index + 1 :] if later.strip()), "")
    return _indent(following) > 0


def _plain(line: str) -> bool:
    """A non-blank line of prose: no literal block's lead-in, directive or list item."""
    if not line.strip() or line.rstrip().endswith("::") or _LIST_ITEM.match(line):
        return False
    return not (_DIRECTIVE.match(line) or _CODE_DIRECTIVE.match(line))


def _blocks(lines: list[str]) -> tuple[Block, ...]:
    """A section body's blocks."""
    blocks: list[Block] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            blocks.append(Prose(tuple(prose)))
            prose.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        code = _CODE_DIRECTIVE.match(line)
        if code is None and (directive := _DIRECTIVE.match(line)) is not None:
            # Another directive (``.. note::``): its name as a lead-in, its body as prose.
            lead, name, argument = directive.groups()
            prose.append(f"{lead}{name.capitalize()}: {argument}".rstrip())
            index += 1
            continue
        if code is None and not stripped.endswith("::"):
            item = _LIST_ITEM.match(line)
            if item is None:
                prose.append(line)
                index += 1
                continue
            flush()
            margin = len(item.group(1))
            end = index + 1
            while end < len(lines) and _indent(lines[end]) > margin and _plain(lines[end]):
                end += 1
            blocks.append(ListItem(tuple(lines[index:end]), margin))
            index = end
            continue
        # A literal block follows: ``text::`` reads ``text:``, ``text ::`` and ``::`` vanish.
        if code is None and stripped != "::":
            text = line.rstrip()[:-2]
            prose.append(text.rstrip() if text.endswith(" ") else text + ":")
        flush()
        margin = _indent(line)
        end = index + 1
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > margin):
            end += 1
        while end > index + 1 and not lines[end - 1].strip():
            end -= 1  # the blank lines after the block are the prose's again
        blocks.append(Literal(tuple(lines[index + 1 : end])))
        index = end
    flush()
    return tuple(blocks)


def _section(title: str, lines: list[str]) -> Section:
    margin = min((_indent(line) for line in lines if line.strip()), default=0)
    return Section(title, margin, _blocks(lines))


def parse_doc(doc: str) -> RuleDoc:
    """A rule's docstring read into its summary (the first line) and its sections."""
    lines = doc.strip("\n").split("\n")
    body = lines[1:]
    sections: list[Section] = []
    title, start = "", 0
    for index in range(len(body)):
        if _title(body, index):
            sections.append(_section(title, body[start:index]))
            title, start = body[index], index + 1
    sections.append(_section(title, body[start:]))
    return RuleDoc(lines[0], tuple(sections))


def render_doc(doc: str, color: bool = False) -> str:
    """The docstring as a terminal shows it: its lines as written, markup rendered, literal blocks
    verbatim, section titles bold on a colour terminal."""
    parsed = parse_doc(doc)
    out: list[str] = []
    prose = [parsed.summary]

    def flush() -> None:
        if prose:
            out.extend(inline("\n".join(prose), color).split("\n"))
            prose.clear()

    for section in parsed.sections:
        if section.title and color:
            flush()
            out.append(f"{BOLD}{section.title}{RESET}")
        elif section.title:
            prose.append(section.title)
        for block in section.blocks:
            if not isinstance(block, Literal):
                prose.extend(block.lines)
                continue
            flush()
            lines = list(block.lines)
            if lines and not lines[0].strip() and out and not out[-1].strip():
                lines = lines[1:]  # the blank line before the lone ``::`` already separates
            out.extend(lines)
    flush()
    return "\n".join(out) + "\n"
