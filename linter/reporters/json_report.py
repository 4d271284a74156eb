"""Machine-readable report: every finding with its locations, as JSON."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..findings import Location, Severity
from . import Report


def location_json(location: Location) -> dict[str, Any]:
    return {
        "path": location.path,
        "line": location.line,
        "column": location.column,
        "pointer": location.pointer,
        "heading": location.heading,
        "note": location.note,
    }


def render(report: Report) -> str:
    counts = Counter(f.severity for f in report.findings)
    document = {
        "version": 1,
        "tool": {"name": "speclint", "version": report.tool_version},
        "root": report.root,
        "summary": {s.label: counts[s] for s in Severity},
        "findings": [
            {
                "rule": f.rule,
                "severity": f.severity.label,
                "message": f.message,
                "fingerprint": f.fingerprint,
                "location": location_json(f.location),
                "related": [location_json(r) for r in f.related],
            }
            for f in report.findings
        ],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
