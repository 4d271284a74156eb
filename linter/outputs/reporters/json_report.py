"""Machine-readable report: every finding with its locations, as JSON.

The document is versioned (``"version": 1``) so that consumers can detect a change of shape. Paths
stay corpus-relative (``root`` says how the corpus root was given); keys are sorted and the findings
arrive sorted, so the same input always gives the same bytes. Absent optional values are ``null``
rather than missing, so consumers can index without guarding.

``message`` is the finding's whole message (the text report may show a shorter first line for the
terminal). Values are exact (a path is the file's name); DEL, C1 controls, direction overrides and
lone surrogates are written as ``\\u`` escapes, as ``json.dumps`` writes C0 controls, so the file
shows no raw control character (``speclint.common.controls``).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from speclint.analyses.changes.contract_change import Change
from speclint.common.controls import json_escaped
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import Report
from speclint.run.coverage import counts as coverage_counts
from speclint.run.inventory import counts as checked_counts

FORMAT_VERSION = 1


def location_json(location: Location) -> dict[str, Any]:
    return {
        "path": location.path,
        "line": location.line,
        "column": location.column,
        "end_line": location.end_line,
        "pointer": location.pointer,
        "heading": location.heading,
        "note": location.note,
    }


def finding_json(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.label,
        "message": finding.message,
        "fingerprint": finding.fingerprint,
        # The rule's heuristic that made it (issue 45), null for a rule with one way to a finding.
        "heuristic": finding.heuristic,
        "location": location_json(finding.location),
        "related": [location_json(r) for r in finding.related],
        # A drift's evidence as a table (issue 48): {"headers": [...], "rows": [[...], ...]},
        # each row a value or property and what each side says of it; null for other findings.
        "table": None if finding.table is None else finding.table.as_data(),
    }


def change_json(change: Change) -> dict[str, Any]:
    """One change of the contract (``speclint changes``), as ``gate.changes`` lists it."""
    return {
        "kind": change.kind,
        "effect": "breaking" if change.breaking else "additive",
        "breaking": change.breaking,
        "role": change.role,
        # What changed in a few words ("`status`: `paused` removed"), else the description.
        "what": change.summary or change.description,
        "description": change.description,
        "location": location_json(change.location),
        "base_location": None if change.base is None else location_json(change.base),
        # The other places it concerns (the Arazzo step a change breaks), [] for most.
        "related": [location_json(r) for r in change.related],
    }


def _change_order(change: Change) -> tuple[Any, ...]:
    location = change.location
    return (
        location.path,
        location.line,
        location.column,
        location.pointer or "",
        change.kind,
        change.description,
        not change.breaking,
        change.role,
    )


def render(report: Report) -> str:
    counts = Counter(f.severity for f in report.findings)
    document = {
        "version": FORMAT_VERSION,
        "tool": {"name": "speclint", "version": report.tool_version},
        "root": report.root,
        # Every severity is present, zero included, so ``summary["error"]`` never needs a default.
        "summary": {s.label: counts[s] for s in Severity},
        "findings": [finding_json(f) for f in report.findings],
        # What the run read, kind -> files (issue 14): "no findings" means something only with it.
        "checked": checked_counts(report.checked),
        # What it found and did not check (issue 45): kind -> how many, and each note. Never
        # findings: no severity, no fingerprint, nothing a baseline or the gate reads.
        "not_checked": {
            "counts": coverage_counts(report.not_checked),
            "notes": [
                {"kind": n.kind, "path": n.path, "line": n.line, "what": n.what}
                for n in report.not_checked
            ],
        },
        "waived": [
            {
                **finding_json(w.finding),
                "waiver": {
                    "reason": w.waiver.reason,
                    "who": w.waiver.who or None,
                    "expires": w.waiver.expires,
                    "location": location_json(w.waiver.origin),
                },
            }
            for w in report.waived
        ],
    }
    if report.gate is not None:
        # `findings` are then the new ones; what the change fixed and what it left alone follow.
        document["gate"] = {
            "against": report.gate.against.replace("`", ""),
            "fixed": [
                {"rule": f.rule, "path": f.path, "where": f.where, "message": f.message}
                for f in report.gate.fixed
            ],
            "unchanged": [finding_json(f) for f in report.gate.known],
            # The base had their cause; they say something else now (issue 48, item 3).
            "changed": [
                {
                    **finding_json(c.finding),
                    "base_message": c.base_message,
                    "added": list(c.added),
                    "removed": list(c.removed),
                    "worse": c.grew,
                }
                for c in report.gate.changed
            ],
            # Gone at the head because the head no longer checks where they were (a file
            # removed or unreadable, a `$ref` they go through broken), not fixed: each with why.
            "no_longer_checked": [
                {
                    "rule": u.rule,
                    "path": u.path,
                    "where": u.where,
                    "message": u.message,
                    "why": u.why,
                }
                for u in report.gate.no_longer_checked
            ],
            # What the change does to the contract (with --diff-base; null when the run did not
            # compare the contracts: a baseline): by file, position, kind and description.
            "changes": (
                None
                if report.gate.changes is None
                else [change_json(c) for c in sorted(report.gate.changes, key=_change_order)]
            ),
        }
    return json_escaped(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"
