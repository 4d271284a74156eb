"""Findings: what a rule reports, where, and how stable its identity is.

A finding names its rule, its severity, a message that says what is wrong *and how to fix it*, a
primary location and the related locations that form the other side of a drift. Its fingerprint is
built from the rule, the file, the JSON pointer or heading and a rule-chosen key, never from line
numbers, so it survives unrelated edits (SARIF ``partialFingerprints``, baselines).
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from speclint.common.controls import visible, visible_line


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

    def __post_init__(self) -> None:
        # A note is read by people, in every report: repository text quoted in it is shown,
        # never obeyed (speclint.common.controls). A plain ``str``: a :class:`Wording` would
        # make the location one the caches' msgpack refuses (it writes only exact types).
        if self.note is not None:
            object.__setattr__(self, "note", visible(str(self.note)))

    def describe(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        if self.pointer is not None:
            return f"{where} ({self.pointer or '/'})"
        if self.heading:
            return f"{where} (#{self.heading})"
        return where


@dataclass(frozen=True)
class Member:
    """One of the places a grouped finding stands for: where the rule would have reported it
    alone, with the key it would have had there (so its fingerprint), and in ``location.note``
    what that place says as a related location of the finding."""

    location: Location
    key: str | None = None


@dataclass(frozen=True)
class Table:
    """A drift's evidence as plain data (issue 48, item 2): ``headers`` name the columns, each
    row of ``rows`` one thing compared (a value, a property), its first cell naming it and the
    others what each side says of it ("present", "missing", a type). Cells are plain text (a
    value as written, a path), never Markdown: the Markdown report shows the first column and
    the places heading the others as code. Reports render it (a GFM table, indented rows, a
    SARIF result property); it is data, so a later step can add columns (what a change added or
    removed) without a rule knowing. Not in the fingerprint."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        # Cells quote the repository (values, paths): shown, never obeyed, one line each.
        object.__setattr__(self, "headers", tuple(visible_line(str(h)) for h in self.headers))
        object.__setattr__(
            self, "rows", tuple(tuple(visible_line(str(c)) for c in row) for row in self.rows)
        )

    def as_data(self) -> dict[str, Any]:
        """What JSON and SARIF carry: ``{"headers": [...], "rows": [[...], ...]}``."""
        return {"headers": list(self.headers), "rows": [list(row) for row in self.rows]}


def presence_table(
    values: Sequence[str],
    sides: Sequence[tuple[str, Collection[str]]],
    lines: Sequence[Mapping[str, int]] = (),
) -> Table:
    """The value x side table of a drift (issue 48): a row for each of ``values``, in order, and
    a column for each side (its header, a place, and the values it lists), each cell "present"
    or "missing". enum-drift's sides are the enum and the prose places, message-enum-drift's the
    event-type enum and the AsyncAPI document's messages. ``lines``, beside ``sides``, gives the
    line of a value a side lists on a line other than its header's (a table's row, a list's
    item): "present (line 9)" (issue 48, item 4)."""

    def cell(value: str, side: int) -> str:
        if value not in sides[side][1]:
            return "missing"
        line = lines[side].get(value) if side < len(lines) else None
        return f"present (line {line})" if line else "present"

    return Table(
        ("value", *(header for header, _ in sides)),
        tuple((value, *(cell(value, i) for i in range(len(sides)))) for value in values),
    )


class Wording(str):
    """A message with the shorter form a terminal shows: the string itself is the whole message,
    ``shortened`` the same finding in a first line of about :data:`FIRST_LINE` characters (the
    long lists on related locations, issue 26). :func:`first_fitting` and :func:`headed` make
    one; a :class:`Finding` given one as its message keeps both (``message`` and ``shortened``),
    so rules pass it where they pass any message."""

    shortened: str

    def __new__(cls, whole: str, shortened: str) -> Wording:
        made = super().__new__(cls, whole)
        made.shortened = shortened
        return made

    def __add__(self, other: str) -> Wording:
        # A rule adds a tail to a wording it chose (a count on a line of its own): both forms
        # get it, or the terminal's short form would be lost to a plain str.
        return Wording(str(self) + other, self.shortened + other)

    def __reduce__(self) -> tuple[type[Wording], tuple[str, str]]:
        # Pickle (the process pool's results, ``speclint.common.parallel``) and ``copy`` make
        # a str subclass again with ``__new__(cls, text)``, which lacks the short form.
        return Wording, (str(self), str(self.shortened))


def terminal_form(message: str) -> str:
    """What a terminal shows of ``message``: its shorter form when it is a :class:`Wording`."""
    return message.shortened if isinstance(message, Wording) else message


@dataclass(frozen=True)
class Finding:
    """One problem. ``key`` is the rule's stable identity for it (defaults to the message).

    ``message`` is whole: what JSON, SARIF, JUnit, GitLab, GitHub annotations, Markdown and the
    language server carry. ``shortened`` is set when the rule also wrote a shorter form for the
    terminal (given as a :class:`Wording`); the text report shows :attr:`terminal_message`.
    Replacing ``message`` (``dataclasses.replace``) with a plain string keeps the old
    ``shortened``: give a :class:`Wording`, or ``shortened=None``, with it.
    """

    rule: str
    severity: Severity
    message: str
    location: Location
    related: tuple[Location, ...] = ()
    key: str | None = None
    shortened: str | None = field(default=None, compare=False)
    # Issue 44: one finding stands for one disagreement repeated in many places (alike enums of
    # many schemas, links to one missing file from many pages). Its places are its members, the
    # first its own location; empty for a finding of one place. A waiver is written at one place,
    # and covers that member only (``speclint.run.waivers.apply`` splits the group): the members
    # are every place, not the capped few of ``related``.
    members: tuple[Member, ...] = field(default=(), compare=False, repr=False)
    # Issue 45: set, to the kind of what was not checked (``speclint.run.coverage.KINDS``), on a
    # note that speclint did not check something (a proto import it does not hold): the run
    # moves it to the coverage it reports, never among the findings.
    coverage: str | None = None
    # Issue 45: where a rule has more than one way to reach a finding (a binding or pairing
    # heuristic), the one that made it (``example-invalid/by-shape``: the rule's ``HEURISTICS``).
    # Not in the fingerprint, so labels and baselines keep matching; a heuristic whose labels do
    # not prove it is held back outside preview mode (``speclint.run.preview``).
    heuristic: str | None = field(default=None, compare=False)
    # Issue 48: a drift's evidence as a table (each value by side, each property by copy), which
    # the reports render beside the message. Not in the fingerprint: evidence, not identity.
    table: Table | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        message = self.message
        if isinstance(message, Wording):
            object.__setattr__(self, "shortened", message.shortened)
        # Messages quote the repository (names, headings, values): shown, never obeyed, in
        # every output (speclint.common.controls). ``str`` drops the Wording's subclass.
        object.__setattr__(self, "message", visible(str(message)))
        if self.shortened is not None:
            object.__setattr__(self, "shortened", visible(str(self.shortened)))

    @property
    def terminal_message(self) -> str:
        """The message as the text report shows it: the rule's shorter form, else the whole,
        its first line at most :data:`FIRST_LINE` characters whatever the rule wrote (issue 45,
        item 9: the rest continues on the next line, nothing dropped)."""
        return fitted(self.message if self.shortened is None else self.shortened)

    @property
    def fingerprint(self) -> str:
        anchor = self.location.pointer if self.location.pointer is not None else ""
        anchor = anchor or (self.location.heading or "")
        identity = "\x1f".join((self.rule, self.location.path, anchor, self.key or self.message))
        return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]

    def at(self, member: Member) -> Finding:
        """This grouped finding as it stands at ``member``, one of its places, for that place
        alone: located there, with that place's key (the fingerprint the finding has when that
        place is reported alone), and the place it was at related in the member's stead, with
        the note that place has as a member. The message is the rule's for the whole group."""
        here = replace(member.location, note=None)
        alone = replace(self, members=())
        if not self.members or here == self.location:
            return alone
        own = self.members[0].location
        related = list(self.related)
        spot = related_spot(related, here, {other.location for other in self.members})
        if spot is not None:
            related[spot] = own
        else:  # a member past the related locations' cap: the place it was at goes first
            places = {other.location for other in self.members}
            spot = next((n for n, place in enumerate(related) if place in places), len(related))
            related.insert(spot, own)
        return replace(alone, location=here, key=member.key, related=tuple(related))

    def with_severity(self, severity: Severity) -> Finding:
        return replace(self, severity=severity)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        loc = self.location
        return (loc.path, loc.line, loc.column, self.rule, self.message)


def related_spot(
    related: Sequence[Location], here: Location, members: Collection[Location] = ()
) -> int | None:
    """Where among ``related`` the place ``here`` (a member of a grouped finding) is: the
    location equal to it; else one at a line below it in the same file and section that is no
    member's (``members``), the nearest: enum-drift relates a list at the row of the value in
    question, and has the list as a member at its first line (issue 48, item 4). None when it
    is not related."""
    spot = next((n for n, place in enumerate(related) if place == here), None)
    if spot is not None:
        return spot
    below = [
        (place.line, n)
        for n, place in enumerate(related)
        if (place.path, place.pointer, place.heading) == (here.path, here.pointer, here.heading)
        and place.line > here.line
        and place not in members
    ]
    return min(below)[1] if below else None


# A finding's first line is what a reviewer reads in a terminal or an annotation: about this
# long at most (issue 26); the long lists (every value, every copy) go on related locations.
FIRST_LINE = 200


def first_fitting(*candidates: str, limit: int = FIRST_LINE) -> str:
    """The message ``candidates[0]`` (the most detailed wording), shown in a terminal as the
    first of ``candidates`` (most to least detailed) whose first line fits ``limit``; when none
    does, as the last, its first line broken at a clause that fits (:func:`fitted`, nothing
    cut). A :class:`Wording` when the terminal's form is not the message itself."""
    whole = candidates[0]
    shown = next(
        (c for c in candidates if len(c.split("\n", 1)[0]) <= limit),
        fitted(candidates[-1], limit),
    )
    return whole if shown == whole else Wording(whole, shown)


def within(*candidates: str, limit: int = FIRST_LINE) -> str:
    """The first of ``candidates`` (most to least detailed) that is at most ``limit`` characters
    whole, else the last: a message that every report prints whole (JSON, SARIF, GitHub), not
    only a first line that fits (issue 45, class 9). What a shorter one leaves out must be on a
    related location (the schema it fails, the other errors)."""
    return next((c for c in candidates if len(c) <= limit), candidates[-1])


def fitted(message: str, limit: int = FIRST_LINE) -> str:
    """``message`` with a first line longer than ``limit`` broken at its last clause boundary
    that fits (``; ``, ``: ``, ``. ``, ``, ``, outside a backticked span), else at its last
    space that fits (outside a span if one is far enough in), else, one unbroken word longer
    than ``limit`` (a long URI), at ``limit``: the rest continues on the next line, nothing
    dropped. Rules shape their messages with ``headed`` and ``first_fitting``; this is every
    finding's guarantee (``Finding.terminal_message``) for a message none of them shortened (a
    long value quoted in it)."""
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
    else:  # one unbroken word: broken where the line ends, as a terminal would wrap it
        head, tail = first[:limit], first[limit:]
    return f"{head}\n{tail}{newline}{rest}"


def headed(head: str, tail: str, *shorter: str, limit: int = FIRST_LINE) -> str:
    """``head + tail``: one sentence on one line in every report. When it is longer than
    ``limit``, a terminal shows ``head`` on the first line and the detail, ``tail``, on the next
    (the tail's leading ``,``/``;``/``:`` at the end of the first line), and when ``head`` itself
    is too long, the first of the ``shorter`` heads that fits in its place (a :class:`Wording`).
    The line break is the terminal's layout, not the message's: a JSON, SARIF or GitHub reader
    got a sentence broken after its ``;`` (issue 45), and the message never says its head twice."""
    whole = head + tail
    if len(whole) <= limit:
        return whole
    rest = tail.lstrip()
    mark = rest[0] if rest[:1] in (",", ";", ":") else ""
    detail = rest[len(mark) :].lstrip()
    if len(head + mark) <= limit or not shorter:
        return Wording(whole, f"{head}{mark}\n{detail}")  # the text report breaks a long head
    heads = [s + mark for s in shorter]
    short = next((h for h in heads if len(h) <= limit), fitted(heads[-1], limit))
    return Wording(whole, f"{short}\n{detail}")


def bounded_related(
    *sides: tuple[Sequence[Location], int], room: int
) -> tuple[tuple[Location, ...], int]:
    """At most ``room`` of the sides' related locations (each side: the first of its places, and
    how many places it has), shared out evenly (what one side does not need goes to the others),
    and how many places are left out. A finding that stands for one disagreement repeated in many
    places carries some of them, never all: a SARIF or JSON reader is not handed 10^5 of them, and
    the report stays a small multiple of the input (issue 44). Its message then says so
    (:func:`left_out`)."""
    shares = [0] * len(sides)
    while room > 0:
        wanting = [n for n, (side, _) in enumerate(sides) if shares[n] < len(side)]
        if not wanting:
            break
        each = max(1, room // len(wanting))
        for n in wanting:
            take = min(each, len(sides[n][0]) - shares[n], room)
            shares[n] += take
            room -= take
    kept = tuple(
        location
        for (side, _), share in zip(sides, shares, strict=True)
        for location in side[:share]
    )
    return kept, sum(count for _, count in sides) - len(kept)


def left_out(kept: int, missing: int, places: str = "places") -> str:
    """What a message says, on a line of its own, of the places its related locations leave out
    (none: nothing): a message must not say its places are listed of a list that was cut.
    ``kept`` places are listed, ``missing`` more are not; ``places`` names what is counted
    ("other links"). The related locations may hold more than the places (a schema a finding
    names): they *list* the places."""
    if not missing:
        return ""
    return (
        f"\nThe related locations list {kept} of its {kept + missing} {places}, "
        f"and {missing} more {'is' if missing == 1 else 'are'} not listed"
    )


VALUE_SHOWN = 80  # characters of a document's value quoted in a message, about


def json_value(value: Any, limit: int = VALUE_SHOWN) -> str:
    """``value`` (a JSON or YAML document's) as a message quotes it: as JSON writes it, ``true``,
    ``null``, ``"on"``, ``[1, 2]``, never as Python's ``True``, ``None``, ``'on'``. A value
    longer than ``limit`` is shown by its start: an object or array by its first members and
    how many more there are (``{"id": "a", "tags": [...], ... 9 more}``), a string by its first
    characters and an ellipsis inside its quotes. A value JSON has no spelling for (a YAML date)
    is written as its text."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= limit:
        return text
    if isinstance(value, str):
        return json.dumps(value[: max(limit - 3, 1)] + "\u2026", ensure_ascii=False)
    if not isinstance(value, (dict, list)):
        return text
    if limit < 24:
        return "{\u2026}" if isinstance(value, dict) else "[\u2026]"
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
    parts: list[str] = []
    used = 0
    for key, member in items:
        part = json_value(member, max(limit // 4, 12))
        if isinstance(value, dict):
            part = f"{json.dumps(str(key), ensure_ascii=False)}: {part}"
        if parts and used + len(part) + 2 > limit - 12:
            break
        parts.append(part)
        used += len(part) + 2
    more = len(items) - len(parts)
    shown = ", ".join(parts) + (f", \u2026 {more} more" if more else "")
    return f"{{{shown}}}" if isinstance(value, dict) else f"[{shown}]"


def as_written(value: Any) -> str:
    """A document's scalar as prose and code spans write it: a string as it is, anything else
    as JSON (``true``, ``null``, ``1.5``), never Python's ``True``/``None``: how a prose list
    is compared with an ``enum`` and how a message names a member."""
    return value if isinstance(value, str) else json_value(value)


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
