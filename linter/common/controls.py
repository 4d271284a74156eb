"""Characters a report never prints raw: terminal controls and Unicode direction overrides.

The repository under check writes part of every report: a path, a heading, a ``$ref``, an import,
a value quoted in a message. A raw ESC there is a terminal escape sequence (a run of ``ESC [``
that recolours, hides or rewrites the lines above it, ``ESC ]`` that retitles the window or
writes a hyperlink), a BEL rings, a CR returns to the start of the line and overwrites what the
reader was about to read; in the job log of a CI service the same sequences are interpreted.
The Unicode bidirectional embedding, override and isolate controls (U+202A-U+202E,
U+2066-U+2069) reorder what is displayed after them, so a path or a message reads as something
it is not ("Trojan Source", CVE-2021-42574: GitHub flags them in its file views for that reason).

So these are shown, not obeyed:
- :func:`visible` writes them as Python-style escapes (``\\x1b``, ``\\x07``, ``\\x9b``,
  ``\\u202e``): what the human-facing reports (text, GitHub annotations, Markdown), the command
  line's own lines, and every finding's message and notes show. Tab and newline stay: messages
  are laid out with them, and neither moves the cursor anywhere a reader does not expect.
  A backslash is not doubled: a name that really holds ``\\x1b`` reads the same as an escaped
  ESC, a rare ambiguity worth messages that quote regular expressions as they are written.
- :func:`visible_line` also writes a newline as ``\\n``, for a message that is one line (the
  command line's errors, notes and listings): there a newline from the repository (a
  configuration key, a path, a pointer) would start a line of the pull request's choosing, and
  a GitHub Actions runner reads a line that starts with ``::`` (after spaces) as a workflow
  command (``::warning file=…::`` is an annotation posing as speclint's), and ``##[`` anywhere
  in a line as one of the older form (``##[warning]``, actions/runner ``ActionCommand``). So
  the ``[`` of ``##[`` is written ``\\x5b``, and a line's leading ``:`` ``\\x3a``. Reports of
  many lines keep their newlines, each line made :func:`inert` (the text report), or the
  message's own written ``%0A`` (the GitHub annotations, so that the runner reads one).
- :func:`json_escaped` writes them as JSON ``\\u`` escapes in a JSON document, whose values must
  stay exact (a path a consumer opens): ``json.dumps`` escapes C0 itself but writes DEL, C1 and the
  direction controls raw. A lone surrogate (a file name that is not UTF-8, decoded with
  ``surrogateescape``) is escaped by both, so that writing the report cannot fail.

Escaped: C0 controls but tab and newline (CR too), DEL, the C1 controls U+0080-U+009F (U+009B
is a one-character CSI to terminals that read 8-bit controls), the nine bidirectional controls
above, and lone surrogates. Not escaped: the marks LRM/RLM/ALM and zero-width joiners, which
cannot reorder or hide text on their own and which names in some scripts need.
"""

from __future__ import annotations

import re

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_SHOWN = re.compile(f"[{_CONTROLS}]")
# Inside JSON text these characters can only stand in strings; C0 (and tab, newline) json.dumps
# escapes already, so only the rest is left to do.
_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every terminal control and direction override written as an escape."""
    return _SHOWN.sub(_escape, text) if _SHOWN.search(text) else text


def visible_line(text: str) -> str:
    """``text`` as :func:`visible` shows it, on one line that no CI runner reads as a command:
    newlines written ``\\n``, the ``[`` of ``##[`` written ``\\x5b``, a leading ``:`` written
    ``\\x3a`` (see the module's docstring)."""
    return inert(visible(text).replace("\n", "\\n"))


def inert(line: str) -> str:
    """``line`` with what a CI runner would read as a workflow command written otherwise: the
    ``[`` of ``##[`` as ``\\x5b``, a leading ``::`` (after spaces) as ``\\x3a:``. For each line
    of a report of many lines too (the text report: a message's own newline, from a ``$ref``
    or a heading, starts a line the repository wrote)."""
    line = line.replace("##[", "##\\x5b")
    start = len(line) - len(line.lstrip())  # the runner trims the start of a line (TrimStart)
    if line.startswith("::", start):
        line = f"{line[:start]}\\x3a{line[start + 1 :]}"
    return line


def json_escaped(document: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with DEL, C1, direction controls and
    lone surrogates written as ``\\uXXXX``: the same values to a JSON reader, no raw control to
    a terminal or an editor that shows the file."""
    return _IN_JSON.sub(lambda m: f"\\u{ord(m.group(0)):04x}", document)
