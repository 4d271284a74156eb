"""SARIF 2.1.0 report, for GitHub code scanning and other SARIF viewers.

One run whose ``tool.driver.rules`` describe every rule that ran (sorted by id, so ``ruleIndex`` is
stable) and whose ``artifacts`` list every file a result points at (sorted by path). Section numbers
below refer to the OASIS SARIF 2.1.0 specification.

Size: a rule's documentation (its docstring, 1-13 KB) is the bulk of a log, so it is written only
for the rules that have results (waived ones included), once per log: those are the rules a viewer
shows beside an alert. Every other rule that ran has its id, name, short and full description and
level (a few hundred bytes), which says it ran and found nothing. A preview rule (one that runs
only with ``--preview``) has ``properties.preview`` and the tag ``preview``; a result made by one of
its rule's heuristics has ``properties.heuristic`` (``example-invalid/by-shape``), and a drift's
result its table (``properties.table``: ``headers`` and ``rows`` of strings, issue 48). GitHub code
scanning shows a rule's ``help.markdown`` beside each of its alerts, in place of ``help.text``,
so the whole documentation goes there; ``help.text``, for viewers that render no Markdown, is the
description and the command that prints the rest (``speclint rule ID``). No ``helpUri``: the
documentation is the installed rule's docstring, and no published page is sure to match the
version that ran.

Messages: ``message.text`` is the finding's whole message (GitHub shows it as the alert's title,
its first sentence where space is short); ``message.markdown`` the same with its code spans kept
and everything else escaped as the Markdown report escapes it (``[x](1)`` from the repository is
not a link).

What the run found and did not check (a remote ``$ref``, a proto import the repository does not
hold: ``speclint.run.coverage``) is not a result: it is one ``invocations[0]``'s
``toolExecutionNotifications`` (§3.20.21), each a notification (§3.58) of level ``note`` with its
message and location, and its kind as a property.

Determinism (the spec's informative Appendix F): an invocation carries no times, command line or
working directory (only ``executionSuccessful``, which §3.20.14 requires, and the notifications),
and is written only when there is something to notify; no absolute URIs, sorted arrays and keys. Result URIs are relative
to the ``SRCROOT`` base id; ``run.originalUriBaseIds`` says where that is only as a *relative*
reference to ``PROJECTROOT`` (the directory speclint ran in), whose own absolute URI is omitted as
§3.14.14 allows for exactly this purpose ("to produce deterministic output").
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any
from urllib.parse import quote

from speclint.common.controls import json_escaped
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import Report
from speclint.outputs.reporters.markdown_report import paragraph
from speclint.outputs.reporters.text_report import detail
from speclint.run.catalog import RuleInfo
from speclint.run.preview import is_preview
from speclint.run.waivers import Waived

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/speclint/speclint"
SRCROOT = "SRCROOT"
PROJECTROOT = "PROJECTROOT"
# §3.27.17: property names of partialFingerprints are versioned hierarchical strings (§3.5.4.2);
# bump the version if Finding.fingerprint ever changes how it is computed.
FINGERPRINT_KEY = "speclintFingerprint/v1"
# §3.27.10 result.level and §3.50.3 reportingConfiguration.level: SARIF has no "info"; its "note"
# means the same.
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def camel_case(rule_id: str) -> str:
    """``unresolved-ref`` -> ``UnresolvedRef`` (§3.49.7: ``name`` is an identifier-like label)."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", rule_id))


def uri(path: str) -> str:
    """A corpus-relative POSIX path as a relative URI reference (§3.4.3: ``uri`` is a URI, not a
    path: spaces, ``%``, ``#``, ``?`` and non-ASCII must be percent-encoded, and a colon in the
    first segment would read as a scheme)."""
    return quote(path, safe="/")


def paragraphs(doc: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", textwrap.dedent(doc).strip()) if p.strip()]


def flatten(paragraph: str) -> str:
    """One paragraph on one line. A docstring section (``What it does`` with its body indented
    below it) becomes ``What it does: body``."""
    lines = paragraph.splitlines()
    head, body = lines[0].strip(), " ".join(" ".join(line.split()) for line in lines[1:])
    if body and lines[1][:1].isspace() and not head.endswith((".", ":")):
        return f"{head}: {body}"
    return " ".join(f"{head} {body}".split())


# GitHub code scanning takes at most this many characters of a rule's shortDescription and
# fullDescription ("SARIF support for code scanning", reportingDescriptor object).
DESCRIPTION_LIMIT = 1024


def full_description(info: RuleInfo) -> str:
    """The first paragraph or two of the rule's documentation: the summary and what it does,
    as much of it as fits :data:`DESCRIPTION_LIMIT` (whole sentences; the help has the rest)."""
    text = ""
    for part in paragraphs(info.doc)[:2]:
        joined = f"{text}\n\n{flatten(part)}" if text else flatten(part)
        if len(joined) > DESCRIPTION_LIMIT:
            if not text:  # one paragraph too long: its sentences that fit
                cut = joined[:DESCRIPTION_LIMIT].rsplit(". ", 1)[0]
                text = cut + "." if len(cut) < DESCRIPTION_LIMIT else cut[: DESCRIPTION_LIMIT - 1]
            break
        text = joined
    return text or info.id


def rule_descriptor(info: RuleInfo, with_help: bool) -> dict[str, Any]:
    """A reportingDescriptor (§3.49) built from the rule module's docstring; its documentation
    (§3.49.13 help) only ``with_help`` (a rule with results): see the module's Size."""
    descriptor: dict[str, Any] = {
        "id": info.id,
        "name": camel_case(info.id),
        "shortDescription": {"text": (info.summary or info.id)[:DESCRIPTION_LIMIT]},
        "fullDescription": {"text": full_description(info)},
        "defaultConfiguration": {"level": LEVELS[info.severity]},
    }
    if is_preview(info.id):
        # §3.49.15 properties (§3.8): a preview rule (speclint.run.preview), which ran because
        # preview mode was on; GitHub code scanning shows `tags` beside the rule.
        descriptor["properties"] = {"preview": True, "tags": ["preview"]}
    if with_help:
        doc = textwrap.dedent(info.doc).strip() or info.id
        pointer = f"`speclint rule {info.id}` prints its whole documentation."
        descriptor["help"] = {
            "text": f"{full_description(info)}\n\n{pointer}",
            # The whole docstring; its ``code`` spans read the same in Markdown.
            "markdown": doc,
        }
    return descriptor


def base_ids(root: str) -> dict[str, Any]:
    """§3.14.14 originalUriBaseIds: SRCROOT is the corpus root.

    A relative ``uri`` needs a ``uriBaseId`` of its own, so SRCROOT is given relative to
    PROJECTROOT, the working directory, whose absolute (machine-specific) URI is left out. When the
    root was given as an absolute path, SRCROOT's ``uri`` is left out too: writing it would make
    the log machine-specific.
    """
    srcroot: dict[str, Any] = {"description": {"text": "The root of the spec corpus."}}
    relative = root.rstrip("/")
    if relative and not relative.startswith("/") and not re.match(r"^[A-Za-z]:", relative):
        # §3.14.14: the uri of an originalUriBaseIds entry SHALL end with a slash.
        srcroot["uri"] = "./" if relative == "." else uri(relative) + "/"
        srcroot["uriBaseId"] = PROJECTROOT
    return {
        PROJECTROOT: {"description": {"text": "The directory speclint was run in."}},
        SRCROOT: srcroot,
    }


class _Log:
    """Index tables for one run: rules by id and artifacts by path (§3.4.5 index, §3.27.6)."""

    def __init__(self, report: Report) -> None:
        rules = dict(report.rules)
        everything = [*report.findings, *(w.finding for w in report.waived)]
        for finding in everything:
            # A finding of a rule the catalog does not describe still needs a valid ruleIndex.
            if finding.rule not in rules:
                rules[finding.rule] = RuleInfo(finding.rule, finding.severity, "", "", _no_check)
        self.rules = sorted(rules.values(), key=lambda info: info.id)
        self.rule_index = {info.id: index for index, info in enumerate(self.rules)}
        paths = {
            location.path
            for finding in everything
            for location in (finding.location, *finding.related)
        } | {note.path for note in report.not_checked}
        # Every file the run read is an artifact (§3.24), with the kind discovery gave it: a
        # reader sees what was checked, not only where findings are (issue 14).
        self.kinds = {entry.path: entry for entry in report.checked}
        self.paths = sorted(paths | set(self.kinds))
        self.artifact_index = {path: index for index, path in enumerate(self.paths)}

    def artifact_location(self, path: str) -> dict[str, Any]:
        # §3.4.5: index SHOULD be present when run.artifacts describes the file; uri is kept too
        # because some consumers (GitHub code scanning) do not follow the index.
        return {"uri": uri(path), "uriBaseId": SRCROOT, "index": self.artifact_index[path]}

    def artifact(self, path: str) -> dict[str, Any]:
        described: dict[str, Any] = {"location": self.artifact_location(path)}
        entry = self.kinds.get(path)
        if entry is not None:
            described["properties"] = {"kind": entry.kind, "dialect": entry.dialect or None}
        return described

    def location(self, location: Location) -> dict[str, Any]:
        region: dict[str, Any] = {"startLine": location.line, "startColumn": location.column}
        if location.end_line is not None and location.end_line >= location.line:
            region["endLine"] = location.end_line
        sarif: dict[str, Any] = {
            "physicalLocation": {
                "artifactLocation": self.artifact_location(location.path),
                "region": region,
            }
        }
        logical = logical_location(location)
        if logical is not None:
            sarif["logicalLocations"] = [logical]
        return sarif

    def result(self, finding: Finding) -> dict[str, Any]:
        related = []
        for number, location in enumerate(finding.related):
            # §3.28.2: id is unique within the result, which also keeps the array's items unique
            # (§3.27.22 relatedLocations are "unique" location objects).
            item = {"id": number, **self.location(location)}
            text = detail(location)
            if text:
                item["message"] = {"text": text}
            related.append(item)
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": self.rule_index[finding.rule],
            "level": LEVELS[finding.severity],
            # §3.11: the whole message, as text and as Markdown (the same meaning).
            "message": {"text": finding.message, "markdown": paragraph(finding.message)},
            "locations": [self.location(finding.location)],
            "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
        }
        if related:
            result["relatedLocations"] = related
        properties: dict[str, Any] = {}
        if finding.heuristic:
            # §3.27.30 properties (§3.8): the rule's heuristic that made it (issue 45).
            properties["heuristic"] = finding.heuristic
        if finding.table is not None:
            # §3.8 property bag: a drift's evidence as a table (issue 48), each value or
            # property by side; SARIF has no table of its own.
            properties["table"] = finding.table.as_data()
        if properties:
            result["properties"] = properties
        return result


def suppressed(result: dict[str, Any], waived: Waived) -> dict[str, Any]:
    """§3.35 suppressions: a waived finding stays in the log, marked accepted with its reason."""
    suppression: dict[str, Any] = {
        "kind": waived.waiver.kind,
        "status": "accepted",
        "justification": waived.waiver.reason,
    }
    if waived.waiver.kind == "inSource":
        suppression["location"] = {
            "physicalLocation": {
                "artifactLocation": {"uri": uri(waived.waiver.origin.path), "uriBaseId": SRCROOT},
                "region": {"startLine": waived.waiver.origin.line},
            }
        }
    return {**result, "suppressions": [suppression]}


def _no_check(*_: object) -> tuple[()]:
    return ()


def logical_location(location: Location) -> dict[str, Any] | None:
    """§3.33 logicalLocation: the JSON pointer (or Markdown heading) the finding is about.

    ``fullyQualifiedName`` is ``path#pointer`` (``path#anchor`` for prose) so it is unique across
    the corpus; ``name`` is the last pointer token, unescaped (RFC 6901: ``~1`` is ``/``, ``~0`` is
    ``~``). §3.33.7 suggests "member" for a named part of a larger construct, which is what a
    pointer designates; no suggested kind fits a Markdown section, so none is given.
    """
    if location.pointer is not None:
        logical: dict[str, Any] = {
            "fullyQualifiedName": f"{location.path}#{location.pointer}",
            "kind": "member",
        }
        if location.pointer:
            token = location.pointer.rsplit("/", 1)[-1]
            logical["name"] = token.replace("~1", "/").replace("~0", "~")
        return logical
    if location.heading:
        return {
            "name": location.heading,
            "fullyQualifiedName": f"{location.path}#{location.heading}",
        }
    return None


def render(report: Report) -> str:
    log = _Log(report)
    reported = {f.rule for f in report.findings} | {w.finding.rule for w in report.waived}
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "speclint",
                "version": report.tool_version,
                "informationUri": INFORMATION_URI,
                "rules": [rule_descriptor(info, info.id in reported) for info in log.rules],
            }
        },
        "originalUriBaseIds": base_ids(report.root),
        "artifacts": [log.artifact(path) for path in log.paths],
        "results": [log.result(finding) for finding in report.findings]
        + [suppressed(log.result(w.finding), w) for w in report.waived],
        # §3.14.27: required when there are results over text files; speclint's columns are
        # Python string offsets, i.e. code points.
        "columnKind": "unicodeCodePoints",
    }
    if report.not_checked:
        run["invocations"] = [
            {
                # The run completed: what it did not check is said, not failed on.
                "executionSuccessful": True,
                "toolExecutionNotifications": [
                    {
                        "level": "note",
                        "message": {"text": note.what},
                        "locations": [log.location(Location(note.path, note.line))],
                        "properties": {"kind": note.kind},
                    }
                    for note in report.not_checked
                ],
            }
        ]
    document = {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
    return json_escaped(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"
