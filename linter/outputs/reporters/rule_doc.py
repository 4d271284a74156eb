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
"""

from __future__ import annotations

import re

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


def _heading(lines: list[str], index: int) -> bool:
    """A definition-list term at the left margin: a section heading (``What it does``)."""
    line = lines[index]
    if not line.strip() or _indent(line) or index + 1 >= len(lines):
        return False
    following = lines[index + 1]
    return bool(following.strip()) and _indent(following) > 0


def render_doc(doc: str, color: bool = False) -> str:
    lines = doc.strip("\n").split("\n")
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.extend(inline("\n".join(prose), color).split("\n"))
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
            if color and _heading(lines, index):
                flush()
                out.append(f"{BOLD}{line}{RESET}")
            else:
                prose.append(line)
            index += 1
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
        block = lines[index + 1 : end]
        while block and not block[-1].strip():
            block.pop()
            end -= 1
        if block and not block[0].strip() and out and not out[-1].strip():
            block = block[1:]  # the blank line before the lone ``::`` already separates
        out.extend(block)
        index = end
    flush()
    return "\n".join(out) + "\n"
