"""Findings: what a rule reports, where, and how stable its identity is.

A finding names its rule, its severity, a message that says what is wrong *and how to fix it*, a
primary location and the related locations that form the other side of a drift. Its fingerprint is
built from the rule, the file, the JSON pointer or heading and a rule-chosen key, never from line
numbers, so it survives unrelated edits (SARIF ``partialFingerprints``, baselines).
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace


class Severity(enum.IntEnum):
    """Ordered so that ``severity >= fail_on`` decides the exit code."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (expected one of: {names})") from None

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, order=True)
class Location:
    """A place in the corpus: a file (POSIX path relative to the corpus root) and a position.

    ``pointer`` is an RFC 6901 JSON pointer for JSON/YAML documents; ``heading`` is the GitHub-style
    anchor of the Markdown section a prose location sits under. Lines and columns are 1-based.
    """

    path: str
    line: int = 1
    column: int = 1
    pointer: str | None = None
    heading: str | None = None
    end_line: int | None = None
    note: str | None = field(default=None, compare=False)

    def describe(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        if self.pointer is not None:
            return f"{where} ({self.pointer or '/'})"
        if self.heading:
            return f"{where} (#{self.heading})"
        return where


@dataclass(frozen=True)
class Finding:
    """One problem. ``key`` is the rule's stable identity for it (defaults to the message)."""

    rule: str
    severity: Severity
    message: str
    location: Location
    related: tuple[Location, ...] = ()
    key: str | None = None

    @property
    def fingerprint(self) -> str:
        anchor = self.location.pointer if self.location.pointer is not None else ""
        anchor = anchor or (self.location.heading or "")
        identity = "\x1f".join((self.rule, self.location.path, anchor, self.key or self.message))
        return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]

    def with_severity(self, severity: Severity) -> Finding:
        return replace(self, severity=severity)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.rule, self.message)


# A finding's first line is what a reviewer reads in a terminal or an annotation: about this
# long at most (issue 26); the long lists (every value, every copy) go on related locations.
FIRST_LINE = 200


def first_fitting(*candidates: str, limit: int = FIRST_LINE) -> str:
    """The first of ``candidates`` (most to least detailed) whose first line fits ``limit``;
    else the last, cut at a word before the limit with an ellipsis."""
    for candidate in candidates:
        if len(candidate.split("\n", 1)[0]) <= limit:
            return candidate
    last = candidates[-1].split("\n", 1)[0]
    return last[: limit - 2].rsplit(" ", 1)[0] + " \u2026"


def fitted(message: str, limit: int = FIRST_LINE) -> str:
    """``message`` with a first line longer than ``limit`` broken at its last clause boundary
    that fits (``; ``, ``: ``, ``. ``, ``, ``, outside a backticked span), else at its last
    space that fits (outside a span if one is far enough in): the rest continues on the next line, nothing dropped. Rules shape their
    messages with ``headed`` and ``first_fitting``; this is the text report's guarantee for a
    message none of them shortened (a long value quoted in it)."""
    first, newline, rest = message.partition("\n")
    if len(first) <= limit:
        return message
    quoted = False
    clause = space = any_space = -1
    for index, char in enumerate(first[:limit]):
        if char == "`":
            quoted = not quoted
        elif not quoted and char in ";:.," and first[index + 1 : index + 2] == " ":
            clause = index
        elif char == " ":
            any_space = index
            space = space if quoted else index
    if clause > limit // 3:
        head, tail = first[: clause + 1], first[clause + 2 :]
    elif max(space, any_space) > 0:
        at = space if space > limit // 3 else any_space
        head, tail = first[:at], first[at + 1 :]
    else:
        return message  # one unbroken word: nothing to break at
    return f"{head}\n{tail}{newline}{rest}"


def headed(head: str, tail: str, *shorter: str, limit: int = FIRST_LINE) -> str:
    """``head + tail`` on one line when it fits ``limit``; else a first line that fits (``head``
    or the first of the ``shorter`` heads that does) and the detail on the next line: ``tail``,
    or the whole ``head + tail`` when the head had to be shortened (nothing is lost). The
    tail's leading ``,``/``;``/``:`` stays at the end of the first line, so the message read as
    one line is the same sentence."""
    whole = head + tail
    if len(whole) <= limit:
        return whole
    rest = tail.lstrip()
    mark = rest[0] if rest[:1] in (",", ";", ":") else ""
    first = first_fitting(head + mark, *(s + mark for s in shorter), limit=limit)
    if first == head + mark:
        return f"{first}\n{rest[len(mark) :].lstrip()}"
    return f"{first}\n{whole}"


def warnings_over(findings: Sequence[Finding], maximum: int | None) -> int:
    """How many warnings ``findings`` hold beyond ``--max-warnings`` (ESLint's option: more
    warnings than that fails the run); 0 when within it or when there is no maximum."""
    if maximum is None:
        return 0
    warnings = sum(finding.severity is Severity.WARNING for finding in findings)
    return warnings if warnings > maximum else 0


def sorted_findings(findings: list[Finding]) -> list[Finding]:
    """Reports are deterministic: order by file, position, rule, then message."""
    return sorted(findings, key=Finding.sort_key)
