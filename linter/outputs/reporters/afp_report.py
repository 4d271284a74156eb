"""The findings as an Agent Feedback Protocol v1.2 Response Object (``--format afp``).

An authoring agent reads it as feedback on iteration 1; ``speclint afp`` answers later iterations
(with ``applied_feedback``) from stdin. See ``speclint.outputs.afp`` for ids, recommendations and
acknowledgements.
"""

from __future__ import annotations

from speclint.outputs.afp import dumps, response
from speclint.outputs.reporters import Report


def render(report: Report) -> str:
    return dumps(response(report.findings, report.rules, 1, len(report.waived)))
