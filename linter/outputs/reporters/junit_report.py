"""JUnit XML: the test-report format every CI server shows (GitLab test reports, Jenkins, Azure
Pipelines, the JUnit actions of GitHub).

There is no normative JUnit XML schema. This writes the elements and attributes of Jenkins'
``junit-10.xsd`` (the de facto reference), plus a test case's ``file`` and ``line``, which GitLab and
the JUnit actions of GitHub read to link to the source and other readers ignore; the shape is the
one ESLint's ``junit`` formatter uses:
- one ``<testsuite>`` per file, named by its path as the text report shows it (so a viewer groups
  the findings the way an author fixes them, one file at a time);
- one failing ``<testcase>`` per finding: ``classname`` ``speclint.<rule>`` (Jenkins groups by it),
  ``file`` and ``line`` for viewers that link to the source, and a ``<failure>`` whose ``type``
  is the severity, whose ``message`` is the finding's message and whose text adds the related
  locations. Every finding fails its test, warnings too: the exit code, not this report, says
  whether the run fails;
- one passing ``<testcase>`` for each checked file without findings, so the report shows what was
  checked, not only what failed;
- one skipped ``<testcase>`` for each thing the run found and did not check
  (``speclint.run.coverage``: a remote ``$ref`` not followed, a reStructuredText page not read),
  in its file's suite: ``classname`` ``speclint.not-checked``, a ``<skipped>`` whose ``message``
  says what. JUnit's "skipped" is what it is, a test not run, never a failure, and every viewer
  counts it apart, so a quiet report does not read as a clean one.

Deterministic: no timestamps or host names, every ``time`` is ``0``, suites sorted by path.
Characters XML 1.0 cannot hold (control characters, lone surrogates: corpus text can carry them)
are written as ``\\xNN`` / ``\\uNNNN`` escapes instead of making the report unreadable, and so are
the controls it could (DEL, C1, direction overrides), which a CI page or a terminal would obey
(``speclint.common.controls``). A failure's ``message`` is the finding's whole message, on one
line.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import defaultdict

from speclint.common.controls import visible
from speclint.common.findings import Finding
from speclint.outputs.reporters import Report
from speclint.outputs.reporters.text_report import detail, position, shown_path
from speclint.run.coverage import KINDS, Note
from speclint.run.inventory import CHECKED_KINDS

# XML 1.0 §2.2 Char: what a document may contain at all (escaped or not).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group(0))
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _NOT_XML.sub(escape, visible(text))


def failure_text(report: Report, finding: Finding) -> str:
    lines = [
        f"{position(report.root, finding.location)}: {finding.severity.label} "
        f"[{finding.rule}] {finding.message}"
    ]
    for related in finding.related:
        lines.append(f"related: {position(report.root, related)} {detail(related)}".rstrip())
    return "\n".join(lines)


def testcase(report: Report, finding: Finding) -> ElementTree.Element:
    location = finding.location
    case = ElementTree.Element(
        "testcase",
        {
            "name": f"{finding.rule} at line {location.line}, column {location.column}",
            "classname": f"speclint.{finding.rule}",
            "file": xml_text(shown_path(report.root, location.path)),
            "line": str(location.line),
            "time": "0",
        },
    )
    failure = ElementTree.SubElement(
        case,
        "failure",
        {"message": xml_text(" ".join(finding.message.split())), "type": finding.severity.label},
    )
    failure.text = xml_text(failure_text(report, finding))
    return case


def not_checked_case(report: Report, note: Note) -> ElementTree.Element:
    one, _ = KINDS.get(note.kind, (note.kind, note.kind))
    case = ElementTree.Element(
        "testcase",
        {
            "name": xml_text(f"not checked: {one} at line {note.line}"),
            "classname": "speclint.not-checked",
            "file": xml_text(shown_path(report.root, note.path)),
            "line": str(note.line),
            "time": "0",
        },
    )
    ElementTree.SubElement(case, "skipped", {"message": xml_text(" ".join(note.what.split()))})
    return case


def render(report: Report) -> str:
    by_path: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_path[finding.location.path].append(finding)
    notes_of: dict[str, list[Note]] = defaultdict(list)
    for note in report.not_checked:
        notes_of[note.path].append(note)
    checked = {kind.value for kind in CHECKED_KINDS}
    read = {entry.path for entry in report.checked if entry.kind in checked}
    paths = set(by_path) | read | set(notes_of)
    root = ElementTree.Element("testsuites", {"name": "speclint"})
    tests = failures = skipped = 0
    for path in sorted(paths, key=lambda p: shown_path(report.root, p)):
        shown = xml_text(shown_path(report.root, path))
        findings = by_path.get(path, [])
        cases = [testcase(report, finding) for finding in findings]
        if not cases and path in read:  # a page found and not read has no passing case
            cases = [
                ElementTree.Element(
                    "testcase",
                    {"name": "no findings", "classname": "speclint", "file": shown, "time": "0"},
                )
            ]
        notes = [not_checked_case(report, note) for note in notes_of.get(path, [])]
        cases += notes
        suite = ElementTree.SubElement(
            root,
            "testsuite",
            {
                "name": shown,
                "tests": str(len(cases)),
                "failures": str(len(findings)),
                "errors": "0",
                "skipped": str(len(notes)),
                "time": "0",
            },
        )
        suite.extend(cases)
        tests += len(cases)
        failures += len(findings)
        skipped += len(notes)
    root.attrib.update(
        {
            "tests": str(tests),
            "failures": str(failures),
            "errors": "0",
            "skipped": str(skipped),
            "time": "0",
        }
    )
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode", short_empty_elements=True)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
