"""The pull-request comment (``--format markdown-summary``): a report that fits one, whatever the
corpus.

With a base (``--diff-base``) or a baseline it is the gate's report (``markdown_report``: what
the change does to the contract, the new findings by cause, what it fixes and waives, the rest
counted), which keeps within ``GATE_BUDGET``. Without one every finding of the corpus is the
run's, and the whole-corpus report (``--format markdown``: 630 KB for a corpus of a few hundred
files) is far over GitHub's limit on a comment (65,536 characters): this is then a summary, the
counts by rule and severity and the files with the most findings, within the same budget; the
findings themselves are in the full reports (the Action uploads them as the run's artifact).
"""

from __future__ import annotations

from speclint.common.controls import visible
from speclint.outputs.reporters import Report
from speclint.outputs.reporters.markdown_report import (
    GATE_BUDGET,
    GATE_FRAME,
    code,
    counted,
    escape_text,
    render_gate,
    size,
)
from speclint.outputs.reporters.text_report import count_phrase
from speclint.run.inventory import phrase


def render(report: Report) -> str:
    if report.gate is not None:
        return render_gate(report, report.gate)
    lines = [
        "# speclint summary",
        "",
        f"Corpus {code(report.root or '.')}: {count_phrase(report.findings)} "
        f"(speclint {escape_text(report.tool_version)}).",
    ]
    if report.checked:
        said = phrase(report.checked)
        lines += ["", escape_text(said[0].upper() + said[1:]) + "."]
    if report.waived:
        lines += ["", f"{len(report.waived)} more accepted by a waiver, with a reason."]
    if report.findings:
        lines += [
            "",
            "Each finding, with its excerpts, is in the full reports (`--format markdown`, "
            "`--format sarif`); here, how many of each rule, and where.",
            "",
            "## Findings by rule and file",
            "",
        ]
    lines = [visible(line) for line in lines]
    if report.findings:
        lines += counted(report, report.findings, GATE_BUDGET - GATE_FRAME - size(lines))
    return "\n".join(lines) + "\n"
