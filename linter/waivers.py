"""Waivers: a person accepts a finding, in writing, with a reason (and optionally who and until when).

Three places hold waivers:

- on a node of a JSON/YAML document, for findings at or under it::

      x-speclint-ignore: [closure-policy]
      x-speclint-reason: the error body is frozen until v2 (RFC 0073)

  or ``x-speclint-ignore: {rules: [...], reason: ..., who: ..., expires: 2027-01-01}``;
- in Markdown, for findings in the block that follows the comment::

      <!-- speclint-ignore enum-drift: the table lists the v2 statuses on purpose -->

- in the configuration, as ``[[waivers]]`` tables with ``rule`` (or a list ``rules``), ``path``,
  optional ``where`` (a JSON pointer, or ``#heading-anchor``), ``reason``, ``who`` and ``expires``.

A waiver with no reason waives nothing and is itself reported; so is one whose ``expires`` date has
passed (the findings it covered come back), and one that matches no finding (stale: delete it).
Today's date is the system's, or ``SPECLINT_TODAY`` (YYYY-MM-DD) when set, for reproducible runs.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .corpus import Corpus, DocumentKind
from .findings import Finding, Location, Severity
from .structured import join_pointer

WAIVER_RULE = "waiver"
WAIVER_DOC = """A waiver that cannot be honoured: it has no reason, it has expired, or it matches nothing.

Waivers accept a finding in writing (``x-speclint-ignore`` on a node, ``<!-- speclint-ignore
rule: reason -->`` in Markdown, or ``[[waivers]]`` in the configuration). One without a reason
waives nothing; an expired one stops waiving; one that matches no finding is stale and should be
deleted so the list stays honest.
"""
_MARKDOWN = re.compile(
    r"^\s*<!--\s*speclint-ignore\s+([\w*][\w*,\s-]*?)\s*(?::\s*(.*?))?\s*-->\s*$"
)


@dataclass
class Waiver:
    rules: tuple[str, ...]
    path: str
    where: str  # JSON pointer prefix, "#anchor", or "" for the whole file
    reason: str
    who: str
    expires: str | None
    origin: Location
    kind: str  # "inSource" | "external" (SARIF suppression kinds)
    lines: tuple[int, int] | None = None  # a Markdown block
    used: int = field(default=0)

    def covers(self, finding: Finding) -> bool:
        if finding.location.path != self.path:
            return False
        if "*" not in self.rules and finding.rule not in self.rules:
            return False
        if self.lines is not None:
            return self.lines[0] <= finding.location.line <= self.lines[1]
        pointer = finding.location.pointer or ""
        return not self.where or pointer == self.where or pointer.startswith(self.where + "/")


@dataclass(frozen=True)
class Waived:
    finding: Finding
    waiver: Waiver


def today() -> str:
    return os.environ.get("SPECLINT_TODAY") or datetime.date.today().isoformat()


def collect(corpus: Corpus) -> list[Waiver]:
    found: list[Waiver] = []
    for document in corpus.documents.values():
        if not document.usable:
            continue
        if document.kind is DocumentKind.MARKDOWN:
            found += _markdown(document.path, document.text or "")
        elif document.data is not None:
            found += list(_structured(document, document.data, ""))
    found += _configured(corpus)
    return found


def _rules(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(r.strip() for r in value.split(",") if r.strip())
    if isinstance(value, list):
        return tuple(str(r) for r in value)
    return ()


def _structured(document: Any, node: Any, pointer: str) -> Iterator[Waiver]:
    if isinstance(node, dict):
        marker = node.get("x-speclint-ignore")
        if marker is not None:
            details = marker if isinstance(marker, dict) else {}
            rules = _rules(details.get("rules") if details else marker)
            reason = str(details.get("reason") or node.get("x-speclint-reason") or "").strip()
            yield Waiver(
                rules,
                document.path,
                pointer,
                reason,
                str(details.get("who") or node.get("x-speclint-who") or ""),
                _date(details.get("expires") or node.get("x-speclint-expires")),
                document.location(join_pointer(pointer, "x-speclint-ignore"), note="the waiver"),
                "inSource",
            )
        for key, child in node.items():
            if isinstance(child, (dict, list)) and not key.startswith("x-speclint"):
                yield from _structured(document, child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _structured(document, child, join_pointer(pointer, index))


def _markdown(path: str, text: str) -> list[Waiver]:
    lines = text.split("\n")
    found = []
    for number, line in enumerate(lines, start=1):
        match = _MARKDOWN.match(line)
        if not match:
            continue
        # The block that follows: from the next non-blank line to the blank line that ends it.
        start = number + 1
        while start <= len(lines) and not lines[start - 1].strip():
            start += 1
        end = start
        while end + 1 <= len(lines) and lines[end].strip():
            end += 1
        found.append(
            Waiver(
                _rules(match.group(1)),
                path,
                "",
                (match.group(2) or "").strip(),
                "",
                None,
                Location(path, number, 1, note="the waiver"),
                "inSource",
                lines=(start, end),
            )
        )
    return found


def _configured(corpus: Corpus) -> list[Waiver]:
    found = []
    source = corpus.config.source or "speclint.toml"
    for index, table in enumerate(corpus.config.waivers):
        rules = _rules(table.get("rules", table.get("rule", "")))
        found.append(
            Waiver(
                rules,
                str(table.get("path", "")),
                str(table.get("where", "")),
                str(table.get("reason", "")).strip(),
                str(table.get("who", "")),
                _date(table.get("expires")),
                Location(source, 1, 1, pointer=f"/waivers/{index}", note="the waiver"),
                "external",
            )
        )
    return found


def _date(value: Any) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, datetime.date) else str(value)


def apply(
    corpus: Corpus, findings: list[Finding]
) -> tuple[list[Finding], list[Waived], list[Finding]]:
    """(findings still reported, waived findings, findings about the waivers themselves)."""
    waivers = collect(corpus)
    now = today()
    problems: list[Finding] = []
    usable: list[Waiver] = []
    for waiver in waivers:
        what = ", ".join(waiver.rules) or "no rule"
        if not waiver.reason:
            problems.append(
                _problem(
                    waiver,
                    f"the waiver of {what} gives no reason, so it waives nothing: add one (who accepted the finding and why)",
                    "reason",
                )
            )
        elif waiver.expires is not None and waiver.expires < now:
            problems.append(
                _problem(
                    waiver,
                    f"the waiver of {what} expired on {waiver.expires}; the findings it covered are reported again: fix them, or renew the waiver with a new date and reason",
                    "expired",
                )
            )
        else:
            usable.append(waiver)
    kept: list[Finding] = []
    waived: list[Waived] = []
    for finding in findings:
        match = next((w for w in usable if w.covers(finding)), None)
        if match is None:
            kept.append(finding)
        else:
            match.used += 1
            waived.append(Waived(finding, match))
    for waiver in usable:
        if waiver.used == 0:
            what = ", ".join(waiver.rules)
            problems.append(
                _problem(
                    waiver, f"the waiver of {what} matches no finding any more: delete it", "stale"
                )
            )
    return kept, waived, problems


def _problem(waiver: Waiver, message: str, kind: str) -> Finding:
    return Finding(
        WAIVER_RULE,
        Severity.WARNING,
        message,
        Location(
            waiver.origin.path,
            waiver.origin.line,
            waiver.origin.column,
            pointer=waiver.origin.pointer,
        ),
        key=f"{kind}:{waiver.path}:{waiver.where}:{','.join(waiver.rules)}:{waiver.origin.line}",
    )
