"""Waivers: a person accepts a finding, in writing, with a reason (and optionally who and until when).

Three places hold waivers:

- on a node of a JSON/YAML document, for findings at or under it::

      x-speclint-ignore: [closure-policy]
      x-speclint-reason: the error body is frozen until v2 (RFC 0073)

  or ``x-speclint-ignore: {rules: [...], reason: ..., who: ..., expires: 2027-01-01}``;
- in Markdown, for findings in the block that follows the comment::

      <!-- speclint-ignore enum-drift: the table lists the v2 statuses on purpose -->

  and in MDX, where an HTML comment does not compile, as a JSX comment (the same grammar)::

      {/* speclint-ignore enum-drift: the table lists the v2 statuses on purpose */}

  (the same line inside a code fence or code block is a sample of a waiver, and waives nothing);
- in the configuration, as ``[[waivers]]`` tables with ``rule`` (or a list ``rules``), ``path``,
  optional ``where`` (a JSON pointer, or ``#heading-anchor``), ``reason``, ``who`` and ``expires``;
  any other key is a configuration error (``speclint.model.config``).

A waiver with no reason waives nothing and is itself reported; so is one whose ``expires`` is not
a date (``YYYY-MM-DD``, or a TOML date: ``"never"``, ``"Dec 2020"``, ``false`` and ``2020-13-45``
are refused at the value, not read as "forever" or "long ago"), one whose date has passed (the
findings it covered come back), one in a document with a key it cannot have (``reasn``,
``expirs``, ``x-speclint-expire``: named with the nearest valid key), and one that matches no
finding (stale: delete it). A finding that stands for many places (``Finding.members``: alike
enums, links to one missing file) is waived place by place (:func:`_split`). Today's date
is the system's, or ``SPECLINT_TODAY`` (YYYY-MM-DD) when set, for reproducible runs; any other
``SPECLINT_TODAY`` is an error.
"""

from __future__ import annotations

import datetime
import difflib
import json
import os
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Member, Severity, related_spot
from speclint.model.config import REMOVED_RULES
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

WAIVER_RULE = "waiver"
WAIVER_DOC = """A waiver that cannot be honoured: it has no reason, its `expires` is not a date, it has a key a waiver cannot have, it has expired, or it matches nothing.

Waivers accept a finding in writing (``x-speclint-ignore`` on a node, ``<!-- speclint-ignore
rule: reason -->`` in Markdown, ``{/* speclint-ignore rule: reason */}`` in MDX, or
``[[waivers]]`` in the configuration). One without a reason waives nothing, nor does one with a
mistyped key (``reasn``: the finding names the nearest valid key); an expired one stops waiving;
one that matches no finding is stale and should be deleted so the list stays honest.
"""
_MARKDOWN = re.compile(
    r"^\s*<!--\s*speclint-ignore\s+([\w*][\w*,\s-]*?)\s*(?::\s*(.*?))?\s*-->\s*$"
)
# The same waiver in MDX (issue 44, item 12): MDX 2 and later read `<!--` as a syntax error, and
# a comment is a JSX expression holding a JavaScript comment, `{/* ... */}`, on a line of its own.
# Read in every page, as Docusaurus compiles `.md` pages as MDX too.
_JSX = re.compile(
    r"^\s*\{\s*/\*\s*speclint-ignore\s+([\w*][\w*,\s-]*?)\s*(?::\s*(.*?))?\s*\*/\s*\}\s*$"
)


@dataclass
class Waiver:
    rules: tuple[str, ...]
    path: str
    where: str  # JSON pointer prefix, "#anchor", or "" for the whole file
    reason: str
    who: str
    expires: str | None  # ISO date (YYYY-MM-DD), when the waiver gives a valid one
    origin: Location
    kind: str  # "inSource" | "external" (SARIF suppression kinds)
    lines: tuple[int, int] | None = None  # a Markdown block
    used: int = field(default=0)
    bad_expiry: str | None = None  # the `expires` value as written, when it is not a date
    expiry_origin: Location | None = None  # where `expires` is written
    # A key the waiver cannot have (`reasn`), with the nearest it can: the waiver waives nothing.
    unknown_key: tuple[str, str | None] | None = None

    def covers(self, rule: str, location: Location) -> bool:
        """Whether this waiver covers a finding of ``rule`` at ``location`` (a finding's, or one
        of a grouped finding's members)."""
        if location.path != self.path:
            return False
        if "*" not in self.rules and rule not in self.rules:
            return False
        if self.lines is not None:
            return self.lines[0] <= location.line <= self.lines[1]
        pointer = location.pointer or ""
        return not self.where or pointer == self.where or pointer.startswith(self.where + "/")


@dataclass(frozen=True)
class Waived:
    finding: Finding
    waiver: Waiver


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(value: Any) -> datetime.date | None:
    """A calendar date from a TOML/YAML date or a ``YYYY-MM-DD`` string; None for anything else."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            return None  # 2020-13-45
    return None


def today() -> datetime.date:
    """The date expiry is judged against: ``SPECLINT_TODAY`` when set, else the system's.
    Raises ``ValueError`` for a ``SPECLINT_TODAY`` that is not a date."""
    fixed = os.environ.get("SPECLINT_TODAY")
    if not fixed:
        return datetime.date.today()
    parsed = parse_date(fixed)
    if parsed is None:
        raise ValueError(f"SPECLINT_TODAY={fixed!r} is not a date: write it as YYYY-MM-DD")
    return parsed


def collect(corpus: Context) -> list[Waiver]:
    found: list[Waiver] = []
    for document in corpus.documents.values():
        if not document.usable:
            continue
        # Each document's own waivers are a function of its path and content: read once, and
        # copied for each run, which counts their uses on them.
        if document.kind is DocumentKind.MARKDOWN or document.data is not None:
            own = document.remember("waivers", partial(_own_waivers, document))
            found += [replace(waiver, used=0) for waiver in own]
    found += _configured(corpus)
    return found


def _own_waivers(document: Document) -> list[Waiver]:
    if document.kind is DocumentKind.MARKDOWN:
        return _markdown(document)
    return list(_structured(document, document.data, ""))


def _rules(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(r.strip() for r in value.split(",") if r.strip())
    if isinstance(value, list):
        return tuple(str(r) for r in value)
    return ()


# The keys of an in-source waiver: in the mapping form, and beside the marker on the node.
_MAPPING_KEYS = ("rules", "reason", "who", "expires")
_NODE_KEYS = ("x-speclint-ignore", "x-speclint-reason", "x-speclint-who", "x-speclint-expires")


def _unknown_key(keys: list[str], known: tuple[str, ...]) -> tuple[str, str | None] | None:
    """The first key that is not a waiver key, and the nearest one that is (or None)."""
    for key in sorted(keys):
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            return key, near[0] if near else None
    return None


def _structured(document: Any, node: Any, pointer: str) -> Iterator[Waiver]:
    if isinstance(node, dict):
        marker = node.get("x-speclint-ignore")
        if marker is not None:
            details = marker if isinstance(marker, dict) else {}
            # A mistyped key (`reasn`, `expirs`, `x-speclint-expire`) would otherwise be dropped
            # without a word: a waiver without its reason, or one that never expires.
            unknown = _unknown_key([str(k) for k in details], _MAPPING_KEYS) or _unknown_key(
                [str(k) for k in node if str(k).startswith("x-speclint")], _NODE_KEYS
            )
            rules = _rules(details.get("rules") if details else marker)
            reason = str(details.get("reason") or node.get("x-speclint-reason") or "").strip()
            if "expires" in details:
                expiry_pointer = join_pointer(join_pointer(pointer, "x-speclint-ignore"), "expires")
                written = details["expires"]
            else:
                expiry_pointer = join_pointer(pointer, "x-speclint-expires")
                written = node.get("x-speclint-expires")
            expires, bad = _expiry(written)
            yield Waiver(
                rules,
                document.path,
                pointer,
                reason,
                str(details.get("who") or node.get("x-speclint-who") or ""),
                expires,
                document.location(join_pointer(pointer, "x-speclint-ignore"), note="the waiver"),
                "inSource",
                bad_expiry=bad,
                expiry_origin=document.location(expiry_pointer, note="the waiver's `expires`"),
                unknown_key=unknown,
            )
        for key, child in node.items():
            if isinstance(child, (dict, list)) and not key.startswith("x-speclint"):
                yield from _structured(document, child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _structured(document, child, join_pointer(pointer, index))


def _markdown(document: Document) -> list[Waiver]:
    path, text = document.path, document.text or ""
    if "speclint-ignore" not in text:  # what a waiver needs on a line: a page without it
        return []  # is read in one pass of `in`, not split and matched line by line
    lines = document.lines
    # A waiver is a comment of the page (an HTML comment block, or MDX's JSX comment on lines of
    # its own: speclint.parsing.prose): the same line in a code fence or a code block is a
    # sample of one, as this project's README shows them, and waives nothing.
    comments = document.prose.comments if document.prose is not None else ()
    numbers = [n for c in comments for n in range(c.line, min(c.end_line, len(lines)) + 1)]
    found = []
    for number in numbers:
        line = lines[number - 1]
        match = _MARKDOWN.match(line) or _JSX.match(line)
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


def _configured(corpus: Context) -> list[Waiver]:
    found = []
    config = corpus.config
    source = corpus.config_path()
    for index, table in enumerate(config.waivers):
        rules = _rules(table.get("rules", table.get("rule", "")))
        header, expiry_line = (
            config.waiver_lines[index] if index < len(config.waiver_lines) else (1, 1)
        )
        expires, bad = _expiry(table.get("expires"))
        found.append(
            Waiver(
                rules,
                str(table.get("path", "")),
                str(table.get("where", "")),
                str(table.get("reason", "")).strip(),
                str(table.get("who", "")),
                expires,
                Location(source, header, 1, pointer=f"/waivers/{index}", note="the waiver"),
                "external",
                bad_expiry=bad,
                expiry_origin=Location(
                    source, expiry_line, 1, pointer=f"/waivers/{index}/expires", note="`expires`"
                ),
            )
        )
    return found


def _expiry(value: Any) -> tuple[str | None, str | None]:
    """(the ISO date, None) for a date; (None, the value as written) for anything else; (None,
    None) when there is no ``expires``."""
    if value is None:
        return None, None
    parsed = parse_date(value)
    if parsed is None:
        written = value if isinstance(value, str) else json.dumps(value, default=str)
        return None, str(written)
    return parsed.isoformat(), None


def apply(
    corpus: Context, findings: list[Finding], ran: Collection[str] | None = None
) -> tuple[list[Finding], list[Waived], list[Finding]]:
    """(findings still reported, waived findings, findings about the waivers themselves).

    ``ran``: the rules of a run narrowed by ``--select`` or ``--ignore`` (None: every rule the
    configuration enables ran). A waiver matching nothing is stale only when every rule it names
    ran: ``--select enum-drift`` must not call every other waiver stale."""
    waivers = collect(corpus)
    now = today().isoformat()  # ISO dates order as strings once both are valid dates
    problems: list[Finding] = []
    usable: list[Waiver] = []
    for waiver in waivers:
        what = ", ".join(waiver.rules) or "no rule"
        if waiver.unknown_key is not None:
            key, near = waiver.unknown_key
            hint = f" (did you mean `{near}`?)" if near else ""
            problems.append(
                _problem(
                    waiver,
                    f"the waiver of {what} has `{key}`, which is not a waiver key{hint}, so it "
                    "waives nothing: correct the key",
                    "unknown-key",
                )
            )
        elif waiver.bad_expiry is not None:
            problems.append(
                _problem(
                    waiver,
                    f"the waiver of {what} has `expires: {waiver.bad_expiry}`, which is not a "
                    "date, so it waives nothing: write the last day it holds as YYYY-MM-DD, or "
                    "remove `expires` for a waiver without end",
                    "bad-expiry",
                    waiver.expiry_origin,
                )
            )
        elif not waiver.reason:
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
    by_path: dict[str, list[Waiver]] = {}
    for waiver in usable:
        by_path.setdefault(waiver.path, []).append(waiver)

    def covering(rule: str, location: Location) -> Waiver | None:
        return next((w for w in by_path.get(location.path, ()) if w.covers(rule, location)), None)

    kept: list[Finding] = []
    waived: list[Waived] = []
    for finding in findings:
        if not by_path:  # no waiver to look up, however many places a finding stands for
            kept.append(finding)
        elif not finding.members:
            match = covering(finding.rule, finding.location)
            if match is None:
                kept.append(finding)
            else:
                match.used += 1
                waived.append(Waived(finding, match))
        else:
            matches = [covering(finding.rule, member.location) for member in finding.members]
            rest, accepted = _split(finding, matches)
            if rest is not None:
                kept.append(rest)
            waived += accepted
    for waiver in usable:
        judged = ran is None or ("*" not in waiver.rules and set(waiver.rules) <= set(ran))
        removed = [rule for rule in waiver.rules if rule in REMOVED_RULES]
        if waiver.used == 0 and removed:
            problems.append(
                _problem(
                    waiver,
                    f"the waiver names a rule that no longer exists: {REMOVED_RULES[removed[0]]}; "
                    "delete the waiver",
                    "removed",
                )
            )
        elif waiver.used == 0 and judged:
            what = ", ".join(waiver.rules)
            problems.append(
                _problem(
                    waiver, f"the waiver of {what} matches no finding any more: delete it", "stale"
                )
            )
    return kept, waived, problems


def _split(finding: Finding, matches: list[Waiver | None]) -> tuple[Finding | None, list[Waived]]:
    """A grouped finding (``Finding.members``, issue 44) under the waivers matching each of its
    places (``matches``, one per member, None where no waiver covers it).

    A waiver is written at one place and accepts the finding there: a group formed after the
    waivers were written (alike enums of other schemas, links from other pages) must neither
    hide its other places behind that waiver, nor make the waiver of a place that is not the
    group's first one look stale. So the group is split here, in the one step every grouping
    rule's findings pass through, rather than each rule grouping around waivers it cannot see
    (the rules read the corpus, not the run, and their cached results would then hang on the
    date a waiver expires). Each waiver records the finding at the first of the places it
    covers, standing for those places; the finding stays for the places no waiver covers, at
    the first of them with that place's key (the fingerprint it has when reported alone), its
    waived places marked on its related locations. The message is the rule's, for the whole
    group: it may count places that are waived."""
    if all(match is None for match in matches):
        return finding, []
    accepted: list[Waived] = []
    by_waiver: dict[int, tuple[Waiver, list[Member]]] = {}
    for member, match in zip(finding.members, matches, strict=True):
        if match is not None:
            by_waiver.setdefault(id(match), (match, []))[1].append(member)
    for match, members in by_waiver.values():
        match.used += 1
        accepted.append(Waived(replace(finding.at(members[0]), members=tuple(members)), match))
    open_ = [m for m, match in zip(finding.members, matches, strict=True) if match is None]
    if not open_:
        return None, accepted
    shut = {m.location for m, match in zip(finding.members, matches, strict=True) if match}
    moved = finding.at(open_[0])
    # A waived place as it is related, maybe at a line of it (``related_spot``).
    places = {m.location for m in finding.members}
    waived = {related_spot(moved.related, place, places) for place in shut}
    related = tuple(
        replace(place, note=f"{place.note}; waived here" if place.note else "waived here")
        if n in waived
        else place
        for n, place in enumerate(moved.related)
    )
    return replace(moved, related=related, members=tuple(open_)), accepted


def _problem(waiver: Waiver, message: str, kind: str, where: Location | None = None) -> Finding:
    origin = where or waiver.origin
    return Finding(
        WAIVER_RULE,
        Severity.WARNING,
        message,
        Location(origin.path, origin.line, origin.column, pointer=origin.pointer),
        key=f"{kind}:{waiver.path}:{waiver.where}:{','.join(waiver.rules)}:{waiver.origin.line}",
    )
