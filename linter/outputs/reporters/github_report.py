"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

One line per finding, ``::error file=<path>,line=L,col=C,title=<rule-id>::<message>`` (``warning``
for warnings, ``notice`` for info). GitHub reads a relative ``file`` as a path of the repository,
not of the folder the step runs in (actions/runner only makes an absolute path under the workspace
relative to it), so the path is the repository's (``Report.in_repository``): a step with
``working-directory: spec`` still annotates ``spec/x.md``. The related locations, the other side of
a drift, are appended to the message on their own lines, named the same way: an annotation shows
only one place, and the reviewer needs both.

The message is the finding's whole message (the text report may show a shorter first line).

What the run did not check (``speclint.run.coverage``: remote references not followed, pages in
a markup speclint does not read) is no finding, so it is no annotation on a file: it is one
``::notice title=speclint: not checked::`` line after the summary, counted by kind as the text
report's "not checked:" says it, which GitHub shows among the run's annotations, not on the diff
(none with ``--quiet``, as the summary).

A workflow command is a single line, so values are escaped the way ``@actions/core`` does it
(``escapeData`` / ``escapeProperty`` in ``packages/core/src/command.ts``): ``%``, CR and LF in
the message; additionally ``:`` and ``,`` in property values, which would otherwise end the
property list or the property. Those are the only escapes the runner undoes, and the job log
interprets terminal escape sequences, so every other control character and direction override
from the repository (in a path, a heading, a message) is written as a visible escape (``\\x1b``,
``speclint.common.controls``): an annotation then names such a file by its escaped name, a price
worth a log that shows what the repository wrote.
"""

from __future__ import annotations

from speclint.common.controls import visible
from speclint.common.findings import Finding, Severity
from speclint.outputs.reporters import Report
from speclint.outputs.reporters.text_report import (
    RELATED_SHOWN,
    detail,
    in_repository,
    summary_line,
)
from speclint.run.coverage import phrase as coverage_phrase

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    # ``%`` first, or the escapes introduced for CR/LF would be escaped again; then the other
    # controls made visible, the only way the runner lets them through unobeyed.
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def message(report: Report, finding: Finding) -> str:
    lines = [finding.message]
    for related in finding.related[:RELATED_SHOWN]:
        where = f"{in_repository(report, related.path)}:{related.line}:{related.column}"
        lines.append(f"related: {where} {detail(related)}".rstrip())
    if len(finding.related) > RELATED_SHOWN:
        lines.append(f"... and {len(finding.related) - RELATED_SHOWN} more")
    return "\n".join(lines)


def annotation(report: Report, finding: Finding) -> str:
    location = finding.location
    properties = [
        ("file", in_repository(report, location.path)),
        ("line", str(location.line)),
    ]
    if location.end_line is not None and location.end_line >= location.line:
        properties.append(("endLine", str(location.end_line)))
    properties += [("col", str(location.column)), ("title", finding.rule)]
    rendered = ",".join(f"{name}={escape_property(value)}" for name, value in properties)
    return f"::{COMMANDS[finding.severity]} {rendered}::{escape_data(message(report, finding))}"


def render(report: Report) -> str:
    lines = [annotation(report, finding) for finding in report.findings]
    if not report.quiet:
        # A plain line is ordinary log output in the job log: the count, for whoever reads it.
        lines.append(visible(summary_line(report)))
        if report.not_checked:
            said = coverage_phrase(report.not_checked)
            lines.append(
                f"::notice title={escape_property('speclint: not checked')}::{escape_data(said)}"
            )
    return "\n".join(lines) + "\n" if lines else ""
