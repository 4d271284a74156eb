"""A reviewer-facing drift report in GitHub-flavoured Markdown.

It opens with the corpus root and the counts, then a table of findings by rule and severity, then a
section per rule; rules with errors come first, then those with warnings, then info. Each finding
shows its message and an excerpt of the file around it; each related location (the other side of
the drift) gets its own excerpt, so a reviewer can compare both sides without opening the files.
Excerpts come from ``Report.sources``; a file that is not there (binary, unreadable) is named but
not quoted.

Findings' messages quote names in backtick code spans, so code spans are kept as they are and
everything else is escaped: text from a corpus (a pointer, a key name, a heading) must not turn
into emphasis, links, HTML or table columns in the rendered report. A finding's section shows its
whole message; its heading, and the one-line lists of a gate report, the first line the text
report shows. A drift's table (``Finding.table``: each value by side, each property by copy)
follows its message as a GFM table. A control character or direction override from the repository, in a message or an
excerpt, is written as an escape (``\\x1b``, ``speclint.common.controls``): the report is read
in terminals and job logs too.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from posixpath import splitext
from urllib.parse import quote

from speclint.analyses.changes.contract_change import Change
from speclint.common.controls import visible
from speclint.common.findings import Finding, Location, Severity, Table, fitted
from speclint.outputs.reporters import FixedFinding, Gate, Report, UncheckedFinding
from speclint.outputs.reporters.text_report import (
    count_phrase,
    detail,
    in_repository,
    shown_path,
)
from speclint.run.baseline import change_phrase
from speclint.run.coverage import phrase as coverage_phrase
from speclint.run.inventory import phrase

CONTEXT = 3  # lines shown before and after the line a location points at
RELATED_SHOWN = 5
# Rows of a drift's table (issue 48) shown in a finding's section; the JSON and SARIF reports
# carry them all.
TABLE_ROWS_SHOWN = 40
SHORT_MESSAGE = 80  # characters of the message shown in a finding's heading
# Excerpt lines are cut to this many characters: a minified JSON file is one huge line, and the
# report should show where in it the finding is, not the whole file once per finding.
EXCERPT_WIDTH = 160
# Fence info strings, so that GitHub highlights each excerpt in its own language.
LANGUAGES = {
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".md": "markdown",
    ".markdown": "markdown",
}

# A code span: a run of backticks, content, the same run (CommonMark §6.1).
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
# ASCII punctuation that can start inline or block syntax. CommonMark lets any ASCII punctuation be
# backslash-escaped, so escaping a few more than strictly needed is harmless.
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&#])")
# Line starts that would open a block (heading, quote, list, thematic break, setext underline).
_BLOCK_START = re.compile(r"^(#|>|[-+=]|\d+[.)])")


def escape_text(text: str, in_table: bool = False) -> str:
    """Escape Markdown syntax in ``text``, keeping its backtick code spans as code.

    In a table cell a ``|`` ends the cell even inside a code span; GFM removes a ``\\`` before it
    there (GFM spec, tables extension), so pipes in code spans are escaped too.
    """
    out: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_INLINE_SPECIAL.sub(r"\\\1", text[position : match.start()]))
        span = match.group(0).replace("\n", " ")
        out.append(span.replace("|", "\\|") if in_table else span)
        position = match.end()
    out.append(_INLINE_SPECIAL.sub(r"\\\1", text[position:]))
    return "".join(out)


def paragraph(text: str) -> str:
    """A possibly multi-line message as one Markdown paragraph with hard line breaks."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = escape_text(line.strip())
        match = _BLOCK_START.match(line)
        if match:
            # Escape the character that opens the block (the ``.``/``)`` of an ordered list).
            end = match.end() - 1
            line = f"{line[:end]}\\{line[end:]}"
        lines.append(line)
    # Two trailing spaces are fragile (editors strip them); a backslash is a hard break too.
    return "\\\n".join(line for line in lines if line) or "(no message)"


def cell(text: str) -> str:
    """A table cell: escaped, one line; GFM needs ``\\|`` even inside code spans."""
    return escape_text(" ".join(text.split()), in_table=True)


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds (CommonMark §6.1)."""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def short(message: str) -> str:
    """A heading's start of ``message``: its first line, else cut where the terminal breaks a
    long line (``fitted``: at its last clause that fits, a word outside a code span if none
    does), so a heading does not end in the first word of the next clause ("…; its…")."""
    first = message.strip().split("\n", 1)[0].strip()
    if len(first) <= SHORT_MESSAGE:
        return first
    cut = fitted(first, SHORT_MESSAGE - 1).split("\n", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def language(path: str) -> str:
    return LANGUAGES.get(splitext(path)[1].lower(), "text")


def clip(line: str, column: int) -> str:
    """At most ``EXCERPT_WIDTH`` characters of ``line``, keeping ``column`` (1-based) in view."""
    if len(line) <= EXCERPT_WIDTH:
        return line
    start = max(0, min(column - 1 - EXCERPT_WIDTH // 4, len(line) - EXCERPT_WIDTH))
    text = line[start : start + EXCERPT_WIDTH]
    return ("…" if start else "") + text + ("…" if start + EXCERPT_WIDTH < len(line) else "")


@dataclass(frozen=True)
class ExcerptLine:
    number: int
    text: str  # cut to EXCERPT_WIDTH, control characters written as escapes (``visible``)
    marked: bool  # within the location's lines


# An enum written one value a line is shown whole when it is at most this many lines (issue 48:
# a reviewer met one cut three values in); a longer one shows the lines around the location.
ENUM_SHOWN = 15
# `"enum": [` (JSON) or `enum: [` / `enum:` (YAML) with the array's values on the lines below.
_ENUM_OPEN = re.compile(r"""^\s*(?:-\s+)?(?:"enum"|'enum'|enum)\s*:\s*(\[)?\s*(?:#.*)?$""")
_YAML_ITEM = re.compile(r"^(\s*)-(?:\s|$)")
# A GFM table's delimiter row (GFM spec, tables extension): cells of dashes, colons for alignment.
_TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


def _json_close(lines: Sequence[str], opener: int) -> int | None:
    """The line (1-based) of the ``]`` that closes the array opened at the end of line
    ``opener``; ``None`` if it is not closed within ``ENUM_SHOWN`` lines. Brackets inside
    strings do not count."""
    depth = 0
    for number in range(opener, min(len(lines), opener + ENUM_SHOWN - 1) + 1):
        line = lines[number - 1]
        # Strings blanked (escapes first), so a value's brackets are not the array's.
        bare = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
        if number == opener:
            bare = bare[bare.index("[") :] if "[" in bare else ""
        for char in bare:
            depth += {"[": 1, "]": -1}.get(char, 0)
            if depth == 0:
                return number
    return None


def _yaml_end(lines: Sequence[str], opener: int) -> int | None:
    """The last line of the block sequence of an ``enum:`` key at line ``opener`` (its items at
    the key's indentation or deeper, YAML 1.2 §8.2.1), if there is one."""
    indent = len(lines[opener - 1]) - len(lines[opener - 1].lstrip())
    if lines[opener - 1].lstrip().startswith("- "):  # `- enum:` in a sequence of mappings
        indent += 2
    last = None
    for number in range(opener + 1, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip():
            continue
        own = len(line) - len(line.lstrip())
        item = _YAML_ITEM.match(line)
        if (item and own >= indent) or (last is not None and own > indent):
            last = number
            continue
        break
    return last


def _enum_span(lines: Sequence[str], line: int) -> tuple[int, int] | None:
    """The lines of the multi-line enum array ``line`` is in (its key's line, or one of its
    values), when it is at most ``ENUM_SHOWN`` lines."""
    for opener in range(line, max(0, line - ENUM_SHOWN), -1):
        match = _ENUM_OPEN.match(lines[opener - 1])
        if match is None:
            continue
        end = _json_close(lines, opener) if match.group(1) else _yaml_end(lines, opener)
        if end is None or end < line or end - opener + 1 > ENUM_SHOWN:
            return None
        return opener, end
    return None


def _table_header(lines: Sequence[str], line: int) -> int | None:
    """The header row's line of the GFM table whose body row ``line`` is; ``None`` if ``line``
    is no body row."""
    number = line
    while number > 1 and "|" in lines[number - 1] and lines[number - 1].strip():
        if number < line and _TABLE_DELIMITER.match(lines[number - 1]):
            header = number - 1
            return header if "|" in lines[header - 1] and header + 1 < line else None
        number -= 1
    return None


def excerpt_window(lines: Sequence[str], location: Location) -> tuple[list[int], int, int]:
    """The lines (1-based, ascending, maybe with gaps) an excerpt of ``location`` shows, and the
    first and last line it marks: ``CONTEXT`` lines around the location; a multi-line enum
    array it is in, whole when it fits (``ENUM_SHOWN``); the header and delimiter rows of the
    table a row it points at is in. ``location.line`` must be a line of ``lines``."""
    line = location.line
    # Mark the whole range when the location has one, but not a whole 500-line object.
    last_line = min(max(location.end_line or line, line), line + 9)
    first, last = max(1, line - CONTEXT), min(len(lines), last_line + CONTEXT)
    shown = set(range(first, last + 1))
    enum = _enum_span(lines, line)
    if enum is not None:
        # The key's line and one before it (the property it is of), through the closing line
        # and one after.
        shown |= set(range(max(1, enum[0] - 1), min(len(lines), enum[1] + 1) + 1))
    header = _table_header(lines, line)
    if header is not None:
        # The header and delimiter rows, then the row in question with its neighbours: the
        # window starts below the delimiter, so nothing above the table is shown.
        shown = {n for n in shown if n > header + 1} | {header, header + 1}
    return sorted(shown), line, last_line


def source_lines(text: str) -> list[str]:
    """``text``'s lines as the parsers count them: split on LF only (``str.splitlines`` also
    splits on form feeds and Unicode separators, which would shift the numbering)."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if text.endswith("\n"):
        lines.pop()
    return lines


def excerpt_lines(sources: Mapping[str, str], location: Location) -> list[ExcerptLine] | str:
    """The lines ``excerpt_window`` chooses for ``location``, those of the location marked; or
    why there is no excerpt. Each report writes them its way (a fenced block here, a table in
    the HTML report); a gap in the line numbers is lines left out."""
    text = sources.get(location.path)
    if text is None:
        return "(source not available)"
    lines = source_lines(text)
    if not 1 <= location.line <= len(lines):
        return f"(line {location.line} is not in the source, which has {len(lines)} lines)"
    shown, first_marked, last_marked = excerpt_window(lines, location)
    return [
        ExcerptLine(
            number,
            # Escaped here (not only at the end) so that a gate report's budget counts the
            # escapes.
            visible(clip(lines[number - 1], location.column if number == location.line else 1)),
            first_marked <= number <= last_marked,
        )
        for number in shown
    ]


def excerpt(sources: Mapping[str, str], location: Location) -> list[str]:
    """The lines of ``excerpt_lines``, numbered, in a fenced block; ``…`` where lines are left
    out."""
    lines = excerpt_lines(sources, location)
    if isinstance(lines, str):
        return [lines]
    width = len(str(lines[-1].number))
    body = []
    for previous, line in zip([None, *lines], lines, strict=False):
        if previous is not None and line.number > previous.number + 1:
            body.append(f"  {'…':>{width}} |")
        body.append(f"{'>' if line.marked else ' '} {line.number:>{width}} | {line.text}".rstrip())
    # A fence longer than any backtick run inside, so a Markdown source's own fences cannot close
    # it (CommonMark §4.5).
    runs = re.findall(r"`{3,}", "\n".join(body))
    fence = "`" * max([3, *(len(run) + 1 for run in runs)])
    return [f"{fence}{language(location.path)}", *body, fence]


# A ``diff`` excerpt (issue 48, item 4) shows at most this many lines of the change.
DIFF_SHOWN = 40


@functools.lru_cache(maxsize=8)
def _opcodes(
    base: tuple[str, ...], head: tuple[str, ...]
) -> Sequence[tuple[str, int, int, int, int]]:
    """How ``head``'s lines differ from ``base``'s (``difflib``'s opcodes), kept for the next
    excerpt of the same file: a report shows several findings of one edited file."""
    return difflib.SequenceMatcher(None, base, head, autojunk=False).get_opcodes()


@dataclass(frozen=True)
class _DiffRow:
    mark: str  # " " (context), "-" (the base's line), "+" (the head's)
    base: int  # the base's line (1-based); for a "+" row, the base's lines before it
    head: int  # the head's line; for a "-" row, the head's lines before it
    text: str


def diff_excerpt(base: str, head: str, location: Location) -> list[str]:
    """What the change edited in the window of the head's text an excerpt of ``location``
    shows (``excerpt_window``), as a fenced ``diff`` block (issue 48, item 4): the window's
    lines the change kept as context (`` ``), the base's lines it removed or rewrote there
    (``-``), the head's lines it wrote there (``+``), under ``@@ -l,n +l,n @@`` hunk headers;
    at most ``DIFF_SHOWN`` lines. ``[]`` when the change edited nothing in the window (the
    edit is elsewhere in the file), or the head has no such line."""
    old, new = source_lines(base), source_lines(head)
    if not 1 <= location.line <= len(new):
        return []
    shown, _, _ = excerpt_window(new, location)
    window = set(shown)
    rows: list[_DiffRow] = []
    edited = False
    for tag, i1, i2, j1, j2 in _opcodes(tuple(old), tuple(new)):
        if tag == "equal":
            rows += [
                _DiffRow(" ", i1 + k + 1, j1 + k + 1, new[j1 + k])
                for k in range(j2 - j1)
                if j1 + k + 1 in window
            ]
            continue
        # An edit's head lines are j1+1..j2; lines only removed sit between head lines j1 and
        # j1+1, and are in the window when either is.
        if not window & (set(range(j1 + 1, j2 + 1)) if j2 > j1 else {j1, j1 + 1}):
            continue
        edited = True
        rows += [_DiffRow("-", i + 1, j1, old[i]) for i in range(i1, i2)]
        rows += [_DiffRow("+", i2, j + 1, new[j]) for j in range(j1, j2) if j + 1 in window]
    if not edited:
        return []
    body: list[str] = []
    for hunk in _hunks(rows[:DIFF_SHOWN]):
        body.append(_hunk_header(hunk))
        column = location.column
        body += [
            f"{row.mark}{visible(clip(row.text, column if row.head == location.line else 1))}"
            for row in hunk
        ]
    if len(rows) > DIFF_SHOWN:
        body.append(f"… ({len(rows) - DIFF_SHOWN} more lines of the diff)")
    runs = re.findall(r"`{3,}", "\n".join(body))
    fence = "`" * max([3, *(len(run) + 1 for run in runs)])
    return [f"{fence}diff", *body, fence]


def _hunks(rows: Sequence[_DiffRow]) -> list[list[_DiffRow]]:
    """``rows`` cut where the numbering of the base's or the head's lines jumps (lines left
    out of the window), so that each hunk's header counts its lines exactly."""
    hunks: list[list[_DiffRow]] = []
    next_base = next_head = -1
    for row in rows:
        follows = {
            " ": row.base == next_base and row.head == next_head,
            "-": row.base == next_base and row.head + 1 == next_head,
            "+": row.head == next_head and row.base + 1 == next_base,
        }[row.mark]
        if not follows or not hunks:
            hunks.append([])
        hunks[-1].append(row)
        # (a "+" row's base, a "-" row's head, is the number of lines before it)
        next_base, next_head = row.base + 1, row.head + 1
    return hunks


def _hunk_header(hunk: Sequence[_DiffRow]) -> str:
    """``@@ -l,n +l,n @@`` (the unified format's: a side with no line gives the line before
    it, GNU diffutils)."""
    based = [row.base for row in hunk if row.mark != "+"]
    headed = [row.head for row in hunk if row.mark != "-"]
    base_start = based[0] if based else hunk[0].base
    head_start = headed[0] if headed else hunk[0].head
    return f"@@ -{base_start},{len(based)} +{head_start},{len(headed)} @@"


def edited_excerpt(report: Report, location: Location) -> list[str]:
    """The ``diff`` excerpt of ``location`` when the report is a gate's and the change edited
    its file there (``Gate.base_sources``); ``[]`` otherwise."""
    gate = report.gate
    if gate is None or location.path not in gate.base_sources:
        return []
    head = report.sources.get(location.path)
    if head is None:
        return []
    return diff_excerpt(gate.base_sources[location.path], head, location)


def evidence(report: Report, location: Location) -> list[str]:
    """The excerpt of ``location``; where the change edited its window, the ``diff`` of that
    window instead, under :data:`EDITED` (the same lines, with what the base had: one block, not
    the head's lines twice)."""
    edited = edited_excerpt(report, location)
    return [EDITED, "", *edited] if edited else excerpt(report.sources, location)


def linked(report: Report, location: Location, shown: str) -> str:
    """``shown`` (a place, as Markdown) linked to the location's line in the file at the head
    commit, when the report has where those files are (``Report.blob_url``); as it is
    otherwise."""
    if not report.blob_url or report.in_repository is None:
        return shown
    path = quote(in_repository(report, location.path), safe="/")
    return f"[{shown}]({report.blob_url}/{path}#L{location.line})"


def place(root: str, location: Location, with_column: bool = True) -> str:
    where = f"{shown_path(root, location.path)}:{location.line}"
    return f"{where}:{location.column}" if with_column else where


def anchor(location: Location) -> str:
    """`` (`/json/pointer`)`` or `` (`#heading`)``: what in the file the location designates."""
    if location.pointer is not None:
        return f" ({code(location.pointer or '/')})"
    return f" ({code('#' + location.heading)})" if location.heading else ""


def by_severity(findings: Sequence[Finding]) -> list[str]:
    """The rules of ``findings``, those with errors first, then warnings, then info; by id within
    a severity. A reviewer reads from the top, and what fails the gate belongs there."""
    worst: dict[str, Severity] = {}
    for finding in findings:
        worst[finding.rule] = max(worst.get(finding.rule, finding.severity), finding.severity)
    return sorted(worst, key=lambda rule: (-worst[rule], rule))


def summary_table(findings: Sequence[Finding]) -> list[str]:
    by_rule: dict[str, Counter[Severity]] = defaultdict(Counter)
    for finding in findings:
        by_rule[finding.rule][finding.severity] += 1
    order = (Severity.ERROR, Severity.WARNING, Severity.INFO)
    lines = ["| Rule | Errors | Warnings | Info | Total |", "| --- | ---: | ---: | ---: | ---: |"]
    for rule in by_severity(findings):
        counts = by_rule[rule]
        numbers = " | ".join(str(counts[s]) for s in order)
        lines.append(f"| {cell(code(rule))} | {numbers} | {sum(counts.values())} |")
    totals = Counter(f.severity for f in findings)
    numbers = " | ".join(f"**{totals[s]}**" for s in order)
    lines.append(f"| **Total** | {numbers} | **{len(findings)}** |")
    return lines


# Above a ``diff`` excerpt: what it shows.
EDITED = "What this change edited here:"


def finding_section(report: Report, finding: Finding, level: str = "###") -> list[str]:
    location = finding.location
    at = linked(report, location, code(place(report.root, location)))
    lines = [
        f"{level} {linked(report, location, code(place(report.root, location, False)))} — "
        f"{escape_text(short(finding.terminal_message))}",
        "",
        # The rule's id, which a waiver and `speclint rule` need: the gate report groups findings
        # by the file that caused them, so no heading names it there.
        f"**{finding.severity.label}** {code(finding.rule)} at {at}{anchor(location)}",
        "",
        paragraph(finding.message),
        "",
        *([*table_lines(finding.table), ""] if finding.table is not None else []),
        *evidence(report, location),
    ]
    if finding.related:
        lines += ["", f"Related locations ({len(finding.related)}):"]
    for related in finding.related[:RELATED_SHOWN]:
        note = " ".join(detail(related).split())
        said = f" — {escape_text(note)}" if note else ""
        lines += [
            "",
            f"- {linked(report, related, code(place(report.root, related)))}{said}",
            "",
            *(f"  {line}" if line else "" for line in evidence(report, related)),
        ]
    if len(finding.related) > RELATED_SHOWN:
        rest = len(finding.related) - RELATED_SHOWN
        lines += ["", f"- … and {rest} more related location{'' if rest == 1 else 's'}"]
    return lines


def table_lines(table: Table, shown: int = TABLE_ROWS_SHOWN) -> list[str]:
    """A drift's table (issue 48) as a GFM table: the thing each row compares (a value, a
    property) and the places heading the columns as code, at most ``shown`` rows and then how
    many more there are."""

    def cell(text: str, as_code: bool) -> str:
        return escape_text(code(text) if as_code and text else text, in_table=True)

    width = len(table.headers)
    lines = [
        "| " + " | ".join(cell(h, n > 0) for n, h in enumerate(table.headers)) + " |",
        "|" + " --- |" * width,
    ]
    for row in table.rows[:shown]:
        cells = [*row, *[""] * (width - len(row))][:width]
        lines.append("| " + " | ".join(cell(c, n == 0) for n, c in enumerate(cells)) + " |")
    if len(table.rows) > shown:
        more = len(table.rows) - shown
        lines += ["", f"… and {more} more row{'' if more == 1 else 's'}"]
    return lines


def waived_lines(report: Report, brief: bool = False) -> list[str]:
    """A line per waived finding with its waiver's reason; ``brief``: the reason's first line, cut
    as the gate report's one-line lists cut a message (``first_line``)."""
    lines = []
    for waived in report.waived:
        finding, waiver = waived.finding, waived.waiver
        where = f"{waiver.origin.path}:{waiver.origin.line}"
        who = f", by {escape_text(waiver.who)}" if waiver.who else ""
        until = f", until {waiver.expires}" if waiver.expires else ""
        reason = first_line(waiver.reason) if brief else waiver.reason
        lines.append(
            f"- {code(finding.rule)} at {code(finding.location.path + ':' + str(finding.location.line))}: "
            f"{escape_text(reason)} (waiver at {code(where)}{who}{until})"
        )
    return lines


def render(report: Report) -> str:
    if report.gate is not None:
        return render_gate(report, report.gate)
    lines = [
        "# speclint report",
        "",
        f"Corpus {code(report.root or '.')}: {count_phrase(report.findings)} "
        f"(speclint {escape_text(report.tool_version)}).",
    ]
    if report.checked:
        lines += [
            "",
            escape_text(phrase(report.checked)[0].upper() + phrase(report.checked)[1:]) + ".",
        ]
    if report.not_checked:
        said = coverage_phrase(report.not_checked)
        lines += ["", escape_text(said[0].upper() + said[1:]) + "."]
    if report.findings:
        lines += ["", "## Summary", "", *summary_table(report.findings)]
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_rule[finding.rule].append(finding)
    if report.waived:
        lines += ["", "## Waived (accepted in writing)", "", *waived_lines(report)]
    for rule in by_severity(report.findings):
        lines += ["", f"## {code(rule)}"]
        info = report.rules.get(rule)
        if info is not None and info.summary:
            lines += ["", paragraph(info.summary)]
        for finding in by_rule[rule]:
            lines += ["", *finding_section(report, finding)]
    return visible("\n".join(lines) + "\n")


# --- gate mode ----------------------------------------------------------------------------------

# GitHub refuses issue and pull-request comments over 65,536 characters; keep clear of it, so the
# report can be posted as it is (and fits $GITHUB_STEP_SUMMARY, whose limit is 1 MiB). The budget
# is counted on the lines as they are written, escapes included: a name of 240 ESC characters is
# 960 characters of report.
GATE_BUDGET = 60_000
# Kept for the lines that frame the sections after the lists: their headings, the "and N more"
# lines, the collapsed block's tags (each under 200 characters, with counts and no corpus text).
GATE_FRAME = 1_000


ONE_LINE_MESSAGE = 240  # characters of a message in the one-line lists


def first_line(message: str) -> str:
    """The first line of ``message``, at most ``ONE_LINE_MESSAGE`` characters of it, with no code
    span left open."""
    line = " ".join(message.split("\n", 1)[0].split())
    if len(line) > ONE_LINE_MESSAGE:
        line = line[:ONE_LINE_MESSAGE].rsplit(" ", 1)[0] + " …"
        if line.count("`") % 2:  # never leave a code span open
            line = line[: line.rfind("`")].rstrip() + " …"
    return line


def one_line(report: Report, finding: Finding) -> str:
    location = finding.location
    where = linked(report, location, code(place(report.root, location))) + anchor(location)
    message = first_line(finding.terminal_message)
    return f"- **{finding.severity.label}** {code(finding.rule)} at {where}: {escape_text(message)}"


def fixed_line(fixed: FixedFinding | UncheckedFinding) -> str:
    where = code(fixed.path) + (f" ({code(fixed.where)})" if fixed.where else "")
    return f"- {code(fixed.rule)} at {where}: {escape_text(first_line(fixed.message))}"


def unchecked_line(gone: UncheckedFinding) -> str:
    """A finding of the base the head no longer checks, and why (its file unreadable, a `$ref`
    it goes through broken): a reviewer reads that the change hid it, not that it fixed it."""
    return f"{fixed_line(gone)} ({escape_text(gone.why)})"


def changed_section(report: Report, gate: Gate, room: int) -> list[str]:
    """The gate's changed findings (``Gate.changed``: the base had their cause, the binding, pair
    or reference; they say something else now), a table row each with what changed, within
    ``room`` characters (escaped, as ``listed`` counts them); none when nothing changed. Neither
    fixed nor new: a drift that lacks one more value is one drift, made worse."""
    changed = gate.changed
    if not changed:
        return []
    worse = len(gate.grown)
    lines = [
        f"## Changed by this change ({len(changed)})",
        "",
        f"Findings the base already had that say something else now: {worse} worse "
        "(each fails the gate as a new finding would, at or above the threshold), "
        f"{len(changed) - worse} narrower or reworded.",
        "",
        "| | Severity | Rule | Where | What changed |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines = [visible(line) for line in lines]
    rows = (
        f"| {'worse' if c.grew else 'narrower' if c.removed else 'reworded'} "
        f"| {c.finding.severity.label} | {cell(code(c.finding.rule))} "
        f"| {linked(report, c.finding.location, cell(code(place(report.root, c.finding.location))))} "
        f"| {cell(first_line(change_phrase(c)))} |"
        for c in changed
    )
    listed(lines, rows, len(changed), room - size(lines), "the JSON report")
    return lines


def size(lines: Sequence[str]) -> int:
    """Characters of ``lines`` in the document, a newline each."""
    return sum(len(line) + 1 for line in lines)


def listed(lines: list[str], shown: Iterable[str], total: int, room: int, elsewhere: str) -> int:
    """Append each of the ``total`` lines of ``shown`` (escaped: ``visible``) while it fits in
    ``room`` characters, then one line counting the rest and saying where they are. The
    characters used, that line aside (``GATE_FRAME`` keeps room for it). ``shown`` is read only
    as far as it is shown: a base may have tens of thousands of findings."""
    used = 0
    for index, line in enumerate(shown):
        line = visible(line)
        if used + len(line) + 1 > room:
            lines.append(f"- … and {total - index} more: see {elsewhere}")
            break
        lines.append(line)
        used += len(line) + 1
    return used


def render_gate(report: Report, gate: Gate) -> str:
    """The reviewer's report of a pull-request gate: what the change does to the contract (when
    the run described the change: ``Gate.changes``), then the new findings, grouped under the
    changed file that caused each (``Gate.changed_files``), what the change fixes, what it no
    longer checks (``Gate.no_longer_checked``: not fixed) and what it waives, and the findings
    that were already there as counts, collapsed at the end. A section with nothing in it is left
    out. Every line is escaped (``visible``) before it is counted, and every list is
    cut to the room left, so the whole stays within ``GATE_BUDGET``."""
    new = report.findings
    # A finding of the base the change made worse counts as new for the verdict (``Gate.grown``).
    failing = [f for f in (*new, *gate.grown) if f.severity >= Severity.ERROR]
    verdict = (
        f"**The change adds {len(failing)} error{'' if len(failing) == 1 else 's'}.**"
        if failing
        else "**The change adds no error.**"
    )
    lines = [
        "# speclint: what this change does to the spec",
        "",
        f"Corpus {code(report.root or '.')} against {escape_text(short_commits(gate.against))} "
        f"(speclint {escape_text(report.tool_version)}): **{len(new)} new**, "
        f"**{len(gate.fixed)} fixed**, "
        # Counted apart from the fixed, and only when there are some (``Gate.no_longer_checked``).
        + (f"{len(gate.no_longer_checked)} no longer checked, " if gate.no_longer_checked else "")
        + f"{len(gate.changed)} changed, {len(report.waived)} waived, "
        f"{len(gate.known)} unchanged. {verdict}",
    ]
    if gate.changes is not None and not gate.changes:
        lines += ["", "The contract is as it was: no schema, API or proto change."]
    lines = [visible(line) for line in lines]
    budget = GATE_BUDGET - GATE_FRAME - size(lines)
    if gate.changes:
        budget -= contract_section(lines, report, gate.changes, min(budget // 4, CHANGES_ROOM))
    if new:
        heading = [f"## New in this change ({len(new)})", "", *summary_table(new)]
        heading = ["", *(visible(line) for line in heading)]
        lines += heading
        budget -= size(heading)
    else:
        lines += ["", "Nothing new."]
    # Each new finding with its excerpts while they fit; the rest one line each. What is kept
    # back (the reserve) is shared by the later lists, each leaving a part of it to the next:
    # half to fixed, waived and unchanged, then a third to waived and unchanged, an eighth to
    # unchanged.
    reserve = min(budget // 3, 15_000)
    budget -= new_sections(
        lines, report, by_cause(report, new, gate.changed_files), budget, reserve
    )
    changed = changed_section(report, gate, budget - reserve // 2)
    if changed:
        lines += ["", *changed]
        budget -= size(changed) + 1
    if gate.fixed:
        lines += ["", f"## Fixed by this change ({len(gate.fixed)})", ""]
        fixed = (fixed_line(entry) for entry in gate.fixed)
        budget -= listed(lines, fixed, len(gate.fixed), budget - reserve // 3, "the JSON report")
    if gate.no_longer_checked:
        unchecked = gate.no_longer_checked
        lines += ["", f"## No longer checked, not fixed ({len(unchecked)})", ""]
        gone = (unchecked_line(entry) for entry in unchecked)
        budget -= listed(lines, gone, len(unchecked), budget - reserve // 3, "the JSON report")
    if report.waived:
        lines += ["", f"## Waived, with reasons ({len(report.waived)})", ""]
        waived = waived_lines(report, brief=True)
        room = budget - reserve // 8
        budget -= listed(lines, waived, len(waived), room, "the SARIF or JSON report")
    if gate.known:
        lines += [
            "",
            "<details>",
            f"<summary>Unchanged: {len(gate.known)} finding{'' if len(gate.known) == 1 else 's'} "
            "the base already had (not this change's doing)</summary>",
            "",
        ]
        lines += counted(report, gate.known, budget)
        lines += ["", "</details>"]
    return "\n".join(lines) + "\n"


# A 40-hex commit id in the gate's label (the Action passes the pull request's base commit) is
# shown as its first 12 digits, as GitHub links a commit: unique in any repository of this size.
_COMMIT = re.compile(r"\b[0-9a-f]{40}\b")
SHORT_COMMIT = 12


def short_commits(text: str) -> str:
    return _COMMIT.sub(lambda match: match.group(0)[:SHORT_COMMIT], text)


# The contract table: at most this many rows, in at most this many characters (and a quarter of
# what the report has left), so that the findings keep most of the comment.
CHANGES_SHOWN = 30
CHANGES_ROOM = 12_000


def what_changed(change: Change) -> str:
    """What ``change`` changed, in a few words: its summary, else its description up to the
    consequence it states after a ``:`` (outside code spans), cut as a one-line list cuts."""
    if change.summary:
        return first_line(change.summary)
    text = change.description
    spans = [match.span() for match in _CODE_SPAN.finditer(text)]
    for index in (i for i in range(len(text)) if text.startswith(": ", i)):
        if not any(start <= index < end for start, end in spans):
            text = text[:index]
            break
    return first_line(text)


def change_rows(changes: Sequence[Change]) -> list[tuple[Change, str]]:
    """One row per place and verdict: the changes of one node that are all breaking (or all
    additive) in one row, their summaries joined ("`status`: `suspended` added, `paused`
    removed"); breaking rows first, then in the changes' order (by file and position)."""
    rows: dict[tuple[str, str, int, bool], list[Change]] = {}
    for change in changes:
        location = change.location
        key = (location.path, location.pointer or "", location.line, change.breaking)
        rows.setdefault(key, []).append(change)
    shown = []
    for group in rows.values():
        said = [what_changed(change) for change in group]
        subjects = {text.split(": ", 1)[0] for text in said}
        if len(said) > 1 and len(subjects) == 1 and all(": " in text for text in said):
            text = f"{said[0].split(': ', 1)[0]}: " + ", ".join(t.split(": ", 1)[1] for t in said)
        else:
            text = "; ".join(dict.fromkeys(said))
        shown.append((group[0], text))
    return sorted(shown, key=lambda row: not row[0].breaking)


def contract_section(lines: list[str], report: Report, changes: Sequence[Change], room: int) -> int:
    """Append the table of what the change does to the contract, cut to ``CHANGES_SHOWN`` rows
    and ``room`` characters; the characters used."""
    breaking = sum(change.breaking for change in changes)
    rows = change_rows(changes)
    # A row says every change at one place ("`suspended` added, `paused` removed"): the count
    # of rows is said when it is not the count of changes, or the heading's "2 changes" reads
    # as a row missing.
    places = (
        f" in {len(rows)} place{'' if len(rows) == 1 else 's'}" if len(rows) != len(changes) else ""
    )
    heading = [
        "",
        f"## What the change does to the contract ({len(changes)} change"
        f"{'' if len(changes) == 1 else 's'}{places}: {breaking} breaking, "
        f"{len(changes) - breaking} additive)",
        "",
        "| Where | What changed | Effect |",
        "| --- | --- | --- |",
    ]
    added = [visible(line) for line in heading]
    used = size(added)
    for index, (change, text) in enumerate(rows):
        location = change.location
        where = code(place(report.root, location, with_column=False)) + anchor(location)
        where = linked(report, location, cell(where))
        effect = "**breaking**" if change.breaking else "additive"
        row = visible(f"| {where} | {cell(text)} | {effect} ({escape_text(change.role)}) |")
        if index == CHANGES_SHOWN or used + len(row) + 1 > room:
            added += ["", f"… and {len(rows) - index} more: `speclint changes` lists them all."]
            used += size(added[-2:])
            break
        added.append(row)
        used += len(row) + 1
    lines += added
    return used


ELSEWHERE = "Elsewhere (in files this change did not touch)"


def by_cause(
    report: Report, findings: Sequence[Finding], changed: Sequence[str]
) -> list[tuple[str, list[Finding]]]:
    """The new findings grouped by the changed file that caused each: the finding's own file
    when the change touched it, else the first of its related locations (the other side of a
    drift) in a touched file; the others under ``ELSEWHERE``. One untitled group when the
    changed files are not known (a baseline, or a run not asked to describe the change)."""
    if not changed:
        return [("", list(findings))] if findings else []
    touched = set(changed)
    groups: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        places = (finding.location, *finding.related)
        cause = next((p.path for p in places if p.path in touched), None)
        groups[cause or ""].append(finding)
    titled = [
        (f"Your change to {code(shown_path(report.root, path))}", groups[path])
        for path in changed
        if path in groups
    ]
    return titled + ([(ELSEWHERE, groups[""])] if "" in groups else [])


def new_sections(
    lines: list[str],
    report: Report,
    groups: Sequence[tuple[str, list[Finding]]],
    budget: int,
    reserve: int,
) -> int:
    """Append each group of new findings under its heading: each finding with its excerpts
    while they fit in ``budget`` less ``reserve``, then (from the first that does not) one line
    each while they fit in ``budget`` less half the reserve; past that, one line counts the
    rest. The characters used, that line aside."""
    used = 0
    compact = False
    level = "####" if any(title for title, _ in groups) else "###"
    for number, (title, members) in enumerate(groups):
        if title:
            heading = ["", visible(f"### {title} ({len(members)})")]
            if used + size(heading) > budget - reserve // 2:
                left = sum(len(m) for _, m in groups[number:])
                lines += ["", f"… and {left} more new findings: see the SARIF or JSON report"]
                return used
            lines += heading
            used += size(heading)
        rest = []
        for finding in members:
            section = [visible(line) for line in finding_section(report, finding, level)]
            if not compact and used + size(section) + 1 <= budget - reserve:
                lines += ["", *section]
                used += size(section) + 1
            else:
                compact = True
                rest.append(finding)
        if rest:
            intro = ["", f"More new findings ({len(rest)}), one line each:", ""]
            lines += intro
            used += size(intro)
            shown = (one_line(report, finding) for finding in rest)
            room = budget - reserve // 2 - used
            before = len(lines)
            used += listed(lines, shown, len(rest), room, "the SARIF or JSON report")
            if len(lines) - before <= len(rest) and lines[-1].startswith("- … and "):
                if number + 1 < len(groups):  # no room left: the later groups are counted
                    left = sum(len(m) for _, m in groups[number + 1 :])
                    lines += ["", f"… and {left} more new findings: see the SARIF or JSON report"]
                return used
    return used


TOP_FILES = 10  # files named in the unchanged findings' counts


def counted(report: Report, findings: Sequence[Finding], room: int) -> list[str]:
    """The findings as counts: a table by rule and severity, and the files with the most; cut
    to ``room`` characters (rule ids are speclint's, a file's path is the repository's)."""
    lines = [visible(line) for line in summary_table(findings)]
    used = size(lines)
    if used > room:
        return [f"{len(findings)} findings of {len(by_severity(findings))} rules."]
    files = Counter(finding.location.path for finding in findings)
    top = sorted(files.items(), key=lambda item: (-item[1], item[0]))[:TOP_FILES]
    table = ["", "| File | Findings |", "| --- | ---: |"]
    used += size(table)
    for path, count in top:
        row = visible(f"| {cell(code(path))} | {count} |")
        if used + len(row) + 1 > room:
            break
        table.append(row)
        used += len(row) + 1
    if len(table) > 3:
        lines += table
        if len(files) > len(table) - 3:
            lines += ["", f"({len(files) - len(table) + 3} more files.)"]
    return lines
