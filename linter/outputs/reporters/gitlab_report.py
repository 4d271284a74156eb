"""GitLab Code Quality report: the JSON array GitLab shows in merge requests and pipelines
(``artifacts: reports: codequality:``).

Each finding is one object with the fields GitLab's documentation lists as required:
``description`` (the whole message, on one line), ``check_name`` (the rule id), ``fingerprint``,
``severity`` and ``location.path`` with ``location.lines.begin``. Severities map as ESLint's
GitLab formatters map them: error -> ``major``, warning -> ``minor``, info -> ``info``.

GitLab compares the fingerprints of the merge request's report with the target branch's to say
what the change introduces, fixes or leaves, so a fingerprint is the finding's own (rule, file,
pointer or heading, and what it is about: never the line), made unique within the report when two
findings share one. ``location.path`` is the repository-relative path GitLab links to
(``Report.in_repository``), wherever in the repository speclint ran.
Deterministic: findings sorted, keys sorted.

What the run did not check (``speclint.run.coverage``) is not in it: every entry of the format is
an issue of the code, with a severity GitLab counts in the merge request's widget, and a note is
none; the README says to add a ``junit`` or ``text`` report to the job for it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from speclint.common.controls import json_escaped
from speclint.common.findings import Finding, Severity
from speclint.outputs.reporters import Report
from speclint.outputs.reporters.text_report import in_repository

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def issue(report: Report, finding: Finding, fingerprint: str) -> dict[str, Any]:
    location = finding.location
    lines = {"begin": location.line}
    if location.end_line is not None and location.end_line > location.line:
        lines["end"] = location.end_line
    return {
        "description": " ".join(finding.message.split()),
        "check_name": finding.rule,
        "fingerprint": fingerprint,
        "severity": SEVERITIES[finding.severity],
        "location": {"path": in_repository(report, location.path), "lines": lines},
    }


def render(report: Report) -> str:
    issues = []
    seen: dict[str, int] = {}
    for finding in report.findings:
        fingerprint = finding.fingerprint
        repeat = seen.get(fingerprint, 0)
        seen[fingerprint] = repeat + 1
        if repeat:
            # The n-th finding with one identity: stable as long as the findings' order is.
            fingerprint = hashlib.sha256(f"{fingerprint}\x1f{repeat}".encode()).hexdigest()[:32]
        issues.append(issue(report, finding, fingerprint))
    return json_escaped(json.dumps(issues, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"
