"""``speclint check --statistics``: how many findings each rule made, as ruff's ``--statistics``
prints them, in place of the findings.

One line per rule and severity (a rule may grade its findings: ``enum-drift`` is an error where
the prose names its schema and a warning where the binding is inferred), the most frequent first,
then by rule id, the worse severity first::

    12  enum-drift      [warning]
     3  unresolved-ref  [error]

then the lines that close the text report (the count of findings, what was read), unless
``--quiet``. The counts add up to the findings the text report would list.
"""

from __future__ import annotations

from collections import Counter

from speclint.outputs.reporters import Report
from speclint.outputs.reporters.text_report import closing


def render(report: Report) -> str:
    counts = Counter((finding.rule, finding.severity) for finding in report.findings)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0], -item[0][1]))
    width = max((len(str(count)) for count in counts.values()), default=1)
    id_width = max((len(rule) for rule, _ in counts), default=0)
    lines = [
        f"{count:>{width}}  {rule:<{id_width}}  [{severity.label}]"
        for (rule, severity), count in ordered
    ]
    return "".join(f"{line}\n" for line in [*lines, *closing(report)])
