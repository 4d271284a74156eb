"""The default report: one line per finding, ``path:line:col: severity [rule] message``.

Paths are the corpus root as the user typed it joined with the corpus-relative path, so that an
editor or terminal run from the user's working directory can open them (``corpus/schemas/a.json``);
run inside the corpus, relative to the working folder, as ruff and ESLint print them
(``capabilities.md``, ``../schemas/a.json``, not ``../spec/capabilities.md``).
A message whose first line a rule left longer than about 200 characters (a long value quoted in
it) is broken at its last clause that fits (``speclint.common.findings.fitted``), the rest on the
next line; where the rule wrote a shorter first line for the terminal, that is shown (the other
reports carry the whole message). Related locations, the other side of a drift, follow on
indented lines. Two lines close the report: the count of findings (with ``--max-warnings``, the
warnings beyond it) and what was read; ``--quiet`` leaves them out. Colour is added to the severity word only when the report asks
for it (a terminal without ``NO_COLOR``); files and pipes get plain text. A control character
or direction override from the repository is written as an escape (``\\x1b``), never printed.

A drift's table (``Finding.table``: each value by side, each property by copy) follows as aligned
rows, indented, at most a dozen.

The helpers :func:`shown_path`, :func:`in_repository`, :func:`count_phrase`, :func:`detail` and
:func:`table_rows` are
shared with the other human-facing reporters (``markdown``, ``github``) so that all of them name
places the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from speclint.common.controls import inert, visible
from speclint.common.findings import Finding, Location, Severity, Table, fitted, warnings_over
from speclint.outputs.reporters import Report
from speclint.run.baseline import change_phrase
from speclint.run.coverage import phrase as coverage_phrase
from speclint.run.inventory import phrase

COLORS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.INFO: "\x1b[36m"}
RESET = "\x1b[0m"
RELATED_SHOWN = 10
# Rows of a drift's table (issue 48) a terminal shows; the JSON, SARIF and Markdown reports
# carry them all.
TABLE_ROWS_SHOWN = 12
# Continuation lines of a multi-line message are indented so that every line that starts in
# column 1 is still a ``path:line:col:`` line (grep- and editor-friendly).
CONTINUATION = "    "


def shown_path(root: str, path: str) -> str:
    """``path`` (corpus-relative, POSIX) as seen from where the user ran speclint."""
    if root in ("", ".", "./"):
        return path
    return f"{root}{path}" if root.endswith("/") else f"{root}/{path}"


def position(root: str, location: Location) -> str:
    return f"{shown_path(root, location.path)}:{location.line}:{location.column}"


def seen(report: Report, path: str) -> str:
    """``path`` (corpus-relative) as the user opens it from the working folder: relative to it
    when speclint runs inside the corpus (``Report.here``), else the root as given joined."""
    if not report.here:
        return shown_path(report.root, path)
    here = report.here.split("/")
    there = path.split("/") if path not in ("", ".") else []
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:]) or "."


def in_repository(report: Report, path: str) -> str:
    """``path`` as GitHub and GitLab read a report's paths: from the repository's top
    (``Report.in_repository``), whatever folder speclint ran in."""
    if report.in_repository is None:
        return shown_path(report.root, path)
    return shown_path(report.in_repository, path)


def _seen_at(report: Report, location: Location) -> str:
    return f"{seen(report, location.path)}:{location.line}:{location.column}"


def detail(location: Location) -> str:
    """What to say about a related location: its note, else its JSON pointer or heading."""
    if location.note:
        return location.note
    if location.pointer is not None:
        return location.pointer or "/"
    if location.heading:
        return f"#{location.heading}"
    return ""


def table_rows(table: Table, shown: int = TABLE_ROWS_SHOWN) -> list[str]:
    """A drift's table (issue 48) as aligned rows of plain text, its header first: at most
    ``shown`` rows, then how many more there are."""
    width = len(table.headers)
    rows = [
        [*row, *[""] * (width - len(row))][:width] for row in (table.headers, *table.rows[:shown])
    ]
    widths = [max(len(row[n]) for row in rows) for n in range(width)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    if len(table.rows) > shown:
        lines.append(f"... and {len(table.rows) - shown} more rows")
    return lines


def count_phrase(findings: Sequence[Finding], new: bool = False) -> str:
    """``12 findings (3 errors, 8 warnings, 1 info) in 9 files``, or ``no findings``; ``new``
    (a gate's findings): ``12 new findings ...``, ``no new findings``."""
    if not findings:
        return "no new findings" if new else "no findings"
    counts = Counter(f.severity for f in findings)
    parts = ", ".join(
        f"{counts[s]} {s.label if s is Severity.INFO or counts[s] == 1 else s.label + 's'}"
        for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
    )
    files = len({f.location.path for f in findings})
    noun = ("new " if new else "") + ("finding" if len(findings) == 1 else "findings")
    return f"{len(findings)} {noun} ({parts}) in {files} file{'' if files == 1 else 's'}"


def render(report: Report) -> str:
    # Every line is passed through `visible`: paths, pointers, headings, notes and messages come
    # from the repository, and a terminal obeys the controls in them (speclint.common.controls).
    # The colour, added after, is the only control this report writes.
    lines: list[str] = []
    for finding in report.findings:
        lines += _finding_lines(report, finding)
    lines += changed_lines(report)
    lines += closing(report)
    # A message's newline may come from the repository (a `$ref`, a heading): the line it
    # starts must not be one a CI runner obeys (`::warning ...`, `##[error]`) in the job log of
    # a plain `speclint check` or the hook.
    text = "\n".join(lines)
    return "\n".join(inert(line) for line in text.split("\n")) + "\n" if lines else ""


def _finding_lines(report: Report, finding: Finding) -> list[str]:
    label = finding.severity.label
    if report.color:
        label = f"{COLORS[finding.severity]}{label}{RESET}"
    message = fitted(finding.terminal_message.replace("\r\n", "\n"))
    message = message.replace("\n", "\n" + CONTINUATION)
    where = visible(f"{_seen_at(report, finding.location)}: ")
    lines = [f"{where}{label}{visible(f' [{finding.rule}] {message}')}"]
    for related in finding.related[:RELATED_SHOWN]:
        where = _seen_at(report, related)
        lines.append(visible(f"{CONTINUATION}related: {where} {detail(related)}".rstrip()))
    if len(finding.related) > RELATED_SHOWN:
        lines.append(f"{CONTINUATION}... and {len(finding.related) - RELATED_SHOWN} more")
    if finding.table is not None:
        lines += [visible(CONTINUATION + row) for row in table_rows(finding.table)]
    return lines


def changed_lines(report: Report) -> list[str]:
    """The gate's changed findings (``Gate.changed``: the base had their cause, they say
    something else now), each as a finding with a line saying what changed: one that grew fails
    the gate as a new finding would, so it is shown where the new ones are."""
    if report.gate is None:
        return []
    lines: list[str] = []
    for changed in report.gate.changed:
        lines += _finding_lines(report, changed.finding)
        worse = " (worse: counts as new)" if changed.grew else ""
        said = f"{CONTINUATION}changed since {report.gate.against}{worse}: {change_phrase(changed)}"
        lines.append(visible(said))
    return lines


def closing(report: Report) -> list[str]:
    """The lines that close a report on the terminal: the count of findings and what was read
    (none with ``--quiet``)."""
    if report.quiet:
        return []
    lines = [visible(summary_line(report))]
    if report.checked:
        checked = phrase(report.checked)
        if report.not_checked:
            # What the run found and did not check (issue 45), in the line that says what it
            # checked: not findings, but a quiet report must not read as a clean one.
            checked += f"; {coverage_phrase(report.not_checked)}"
        lines.append(
            visible(
                f"speclint: {checked} {report.scope}" if report.scope else f"speclint: {checked}"
            )
        )
    return lines


def summary_line(report: Report) -> str:
    """``speclint: 12 findings (...) in 9 files``, with what was waived and the warnings beyond
    ``--max-warnings``: the run's verdict in one line (also on stderr when reports go to files)."""
    summary = f"speclint: {count_phrase(report.findings, new=report.gate is not None)}"
    if report.gate is not None and report.gate.changed:
        count = len(report.gate.changed)
        grown = len(report.gate.grown)
        summary += f"; {count} changed" + (f" ({grown} worse)" if grown else "")
    if report.waived:
        summary += (
            f"; {len(report.waived)} waived (see a json, sarif or markdown report for the reasons)"
        )
    over = warnings_over(report.findings, report.max_warnings)
    if over:
        said = "warning exceeds" if over == 1 else "warnings exceed"
        summary += f"; {over} {said} --max-warnings {report.max_warnings}"
    return summary
