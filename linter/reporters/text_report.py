"""The default report: one line per finding, ``path:line:col: severity [rule] message``."""

from __future__ import annotations

from collections import Counter

from ..findings import Severity
from . import Report

COLORS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.INFO: "\x1b[36m"}
RESET = "\x1b[0m"
RELATED_SHOWN = 10


def shown_path(report: Report, path: str) -> str:
    return path if report.root in ("", ".") else f"{report.root}/{path}"


def render(report: Report) -> str:
    lines: list[str] = []
    for finding in report.findings:
        location = finding.location
        label = finding.severity.label
        if report.color:
            label = f"{COLORS[finding.severity]}{label}{RESET}"
        lines.append(
            f"{shown_path(report, location.path)}:{location.line}:{location.column}: "
            f"{label} [{finding.rule}] {finding.message}"
        )
        for related in finding.related[:RELATED_SHOWN]:
            detail = related.note or related.pointer or ""
            lines.append(
                f"    related: {shown_path(report, related.path)}:{related.line}:{related.column} {detail}".rstrip()
            )
        if len(finding.related) > RELATED_SHOWN:
            lines.append(f"    ... and {len(finding.related) - RELATED_SHOWN} more")
    counts = Counter(f.severity for f in report.findings)
    if report.findings:
        files = len({f.location.path for f in report.findings})
        parts = ", ".join(
            f"{counts[s]} {s.label if s is Severity.INFO else s.label + 's'}"
            for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        )
        noun = "finding" if len(report.findings) == 1 else "findings"
        lines.append(
            f"speclint: {len(report.findings)} {noun} ({parts}) in {files} file{'s' if files != 1 else ''}"
        )
    else:
        lines.append("speclint: no findings")
    return "\n".join(lines) + "\n"
