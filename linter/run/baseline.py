"""Baselines: accept today's findings, fail on new ones, and shrink as old ones are fixed.

A baseline entry identifies a finding by what it is about, not where it is printed: the rule, the
file, the JSON pointer (or Markdown heading), and a hash of the offending content. For JSON and
YAML documents that content is the node at the pointer; for Markdown it is the text of the line the
finding points at. So a finding keeps its identity when lines above it move, and loses it when the
offending node itself changes (which is when a reviewer should look again).

The file is JSON, sorted, one entry per finding, with the message kept for the reviewer::

    {"speclint-baseline": 1, "entries": [
      {"id": "…", "rule": "closure-policy", "path": "schemas/error.schema.json",
       "where": "/additionalProperties", "message": "server-emitted shape …"}]}

Matching counts multiplicity: two identical findings need two entries.

A finding that stands for many places (``Finding.members``: alike enums, links to one missing
file, issue 44) is compared place by place, here and by the ``--diff-base`` gate: its entry lists
its places (``members``: each with the ``id`` the finding has alone there). A waiver at its first
place, or a new place sorting first, moves where it is reported; neither makes the places it had
new, nor fixes it. So a group is accepted when every place of it was there before (in one group
or another, or reported alone), a group with new places is reported at the first new one, for the
new ones alone, and an entry of a group is fixed only when none of its places remain
(:func:`apply`). A finding of one place is matched exactly as before groups had places.

The gate (not a baseline) then pairs what is left by cause: a new finding of one place and a
base finding of one place with the same rule, file, pointer (or heading) and key (the binding,
the pair, the reference the rule identifies it by), whose messages differ, are one finding
*changed* (:class:`Changed`): an enum drift that lacks one more value is not "1 fixed + 1 new".
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any

from speclint.analyses.changes.contract_change import Change
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Wording
from speclint.parsing.reading import LoadProblem, read_named
from speclint.parsing.structured import resolve_pointer

FORMAT_VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


@dataclass(frozen=True)
class FixedFinding:
    """A finding of the base (or the baseline) that the change no longer has."""

    rule: str
    path: str
    where: str  # JSON pointer or heading anchor
    message: str


@dataclass(frozen=True)
class UncheckedFinding:
    """A finding of the base that the head does not have because it no longer checks where it
    was (``speclint.run.unchecked``: a file it is about is gone, unreadable, or has a `$ref`
    that no longer resolves): neither fixed nor new. ``why`` says which, in a line."""

    rule: str
    path: str
    where: str  # JSON pointer or heading anchor
    message: str
    why: str


# A value a message quotes (`queued`): what a changed finding added or removed is told by these.
_QUOTED = re.compile(r"`([^`\n]+)`")
# The evidence tag enum-drift ends a message with when it fits (and drops when it does not): it
# quotes names, not values, and comes and goes with the message's length.
_TAG = re.compile(r" \[binding: [^\]\n]*\]")


def quoted(message: str, paths: Collection[str] = ()) -> tuple[str, ...]:
    """The code spans of ``message``, line numbers and the binding tag aside, each once, in
    order, but for ``paths``: the files a message names (``a.json also allows``) in one wording
    and leaves out in a shorter one."""
    spans = _QUOTED.findall(_TAG.sub("", _unnumbered(message)))
    return tuple(span for span in dict.fromkeys(spans) if span not in paths)


@dataclass(frozen=True)
class Changed:
    """A finding of the head whose cause the base had too (same rule, file, pointer or heading,
    and key: the binding, the pair, the reference), saying something else there: an enum drift
    that lacks one more value, a broken `$ref` that more `$ref`s name. Neither new nor fixed: the
    change made it ``grow`` (it quotes what the base's did not: fails the gate as a new finding
    would) or shrink, or only reworded it."""

    finding: Finding
    base_message: str

    @property
    def _paths(self) -> set[str]:
        finding = self.finding
        places = (finding.location, *finding.related, *(m.location for m in finding.members))
        return {place.path for place in places}

    @property
    def added(self) -> tuple[str, ...]:
        """What the head's message quotes and the base's did not (values, names)."""
        before = set(quoted(self.base_message))
        now = quoted(self.finding.message, self._paths)
        return tuple(value for value in now if value not in before)

    @property
    def removed(self) -> tuple[str, ...]:
        """What the base's message quoted and the head's does not."""
        after = set(quoted(self.finding.message))
        return tuple(v for v in quoted(self.base_message, self._paths) if v not in after)

    @property
    def grew(self) -> bool:
        """Whether the change made it worse: it quotes something new (a value one more side
        lacks, one more place). For the gate's verdict it is then as a new finding."""
        return bool(self.added)


CHANGED_VALUES_NAMED = 8  # values a change phrase names on each side; the rest are counted


def _named(values: Sequence[str]) -> str:
    shown = ", ".join(f"`{value}`" for value in values[:CHANGED_VALUES_NAMED])
    more = len(values) - CHANGED_VALUES_NAMED
    return f"{shown} and {more} more" if more > 0 else shown


def change_phrase(changed: Changed) -> str:
    """What changed in a finding, in a line: ``now also names `failed`; no longer names
    `paused```, or, when the messages quote the same things, ``reworded; before: ...``."""
    parts = []
    if changed.added:
        parts.append(f"now also names {_named(changed.added)}")
    if changed.removed:
        parts.append(f"no longer names {_named(changed.removed)}")
    if parts:
        return "; ".join(parts)
    before = " ".join(changed.base_message.split("\n", 1)[0].split())
    return f"reworded; before: {before}"


@dataclass(frozen=True)
class Gate:
    """What a pull-request gate compared: ``findings`` are the new ones, these are the rest."""

    against: str  # "origin/main", "baseline speclint-baseline.json"
    known: tuple[Finding, ...] = ()  # present before the change too: not the change's doing
    fixed: tuple[FixedFinding, ...] = ()
    # What the change does to the contract (``speclint changes``: values, properties, operations,
    # proto fields), when the run was asked to describe the change (``Options.describe_change``);
    # None when it was not (a baseline, or no report that shows it).
    changes: tuple[Change, ...] | None = None
    # The corpus files the change added, edited or removed (their text differs between the base
    # and the head), sorted: what a report groups the new findings under, by cause.
    changed_files: tuple[str, ...] = ()
    # Present before the change, saying something else now (``--diff-base``: same cause, other
    # message); neither in ``known`` nor ``fixed``, nor among the new findings.
    changed: tuple[Changed, ...] = ()
    # Gone at the head because the head no longer checks where they were (``--diff-base``:
    # ``speclint.run.unchecked``), not because the change fixed them: never in ``fixed``.
    no_longer_checked: tuple[UncheckedFinding, ...] = ()
    # The text at the base revision of each of ``changed_files`` it had (an added file is not
    # here): what a report's ``diff`` excerpt of an edited side compares the head's text with
    # (issue 48, item 4). Set with ``changed_files``.
    base_sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def grown(self) -> tuple[Finding, ...]:
        """The changed findings the change made worse: the gate's verdict counts them as new."""
        return tuple(c.finding for c in self.changed if c.grew)


@dataclass(frozen=True)
class Place:
    """One place of a grouped finding (``Finding.members``) as a comparison reads it: the file,
    the JSON pointer or heading, the key the finding has alone there (what the gate compares a
    place by), and the id of the finding alone there (what a baseline compares a place by; empty
    where it was not made: the gate's entries)."""

    path: str
    where: str
    key: str = ""
    id: str = ""


@dataclass(frozen=True)
class Entry:
    id: str
    rule: str
    path: str
    where: str
    message: str
    # The finding's key (its message when it has none), what the gate compares its place by when
    # a group of the other side has that place; empty in a baseline file.
    key: str = ""
    # Every place of a grouped finding, its own first; empty for a finding of one place.
    members: tuple[Place, ...] = ()


def _where(location: Location) -> str:
    return location.pointer or location.heading or ""


def _content(corpus: Context, location: Location) -> str:
    document = corpus.documents.get(location.path)
    if document is None:
        return ""
    pointer = location.pointer or ""
    if document.data is not None and (pointer == "" or pointer.startswith("/")):
        return json.dumps(resolve_pointer(document.data, pointer), sort_keys=True, default=str)
    lines = (document.text or "").split("\n")
    return lines[location.line - 1].strip() if 0 < location.line <= len(lines) else ""


def _id(corpus: Context, rule: str, location: Location) -> str:
    """The id of a finding of ``rule`` at ``location``: rule, file, pointer or heading, and a hash
    of the content there."""
    content = hashlib.sha256(_content(corpus, location).encode("utf-8")).hexdigest()
    identity = "\x1f".join((rule, location.path, _where(location), content))
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]


def entry_for(corpus: Context, finding: Finding, ids: bool = False) -> Entry:
    """The entry of ``finding``. ``ids``: with the id each place of a grouped finding has alone
    (what a baseline file records; each place's content is hashed), not only its key (what the
    gate compares)."""
    location = finding.location
    key = finding.message if finding.key is None else finding.key
    members = tuple(
        Place(
            member.location.path,
            _where(member.location),
            key if member.key is None else member.key,
            _id(corpus, finding.rule, member.location) if ids else "",
        )
        for member in finding.members
    )
    return Entry(
        _id(corpus, finding.rule, location),
        finding.rule,
        location.path,
        _where(location),
        finding.message,
        key,
        members,
    )


def render(corpus: Context, findings: list[Finding]) -> str:
    entries = sorted(
        (entry_for(corpus, f, ids=True) for f in findings),
        key=lambda e: (e.path, e.rule, e.where, e.id),
    )
    written: list[dict[str, Any]] = []
    for e in entries:
        item: dict[str, Any] = {
            "id": e.id,
            "rule": e.rule,
            "path": e.path,
            "where": e.where,
            "message": e.message,
        }
        if e.members:  # every place of a group, in the rule's order (its own first)
            item["members"] = [{"id": p.id, "path": p.path, "where": p.where} for p in e.members]
        written.append(item)
    document = {"speclint-baseline": FORMAT_VERSION, "entries": written}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_ID = re.compile(r"[0-9a-f]{24}")
_FIELDS = {"id": True, "rule": True, "path": True, "where": False, "message": False}
_PLACE_FIELDS = {"id": True, "path": True, "where": False}


def load(path: Path, root: Path | None = None) -> list[Entry]:
    """The entries of a baseline file; :class:`BaselineError` names what is wrong with it.

    With ``root``, the corpus root: a baseline path in the corpus is read as a corpus file, so a
    committed link out of the root is refused (:func:`speclint.parsing.reading.read_named`). A
    message names a place in the file, never a value from it: the file may not be the user's to
    show."""
    raw = read_named(root if root is not None else Path(path.absolute().anchor), path)
    if isinstance(raw, LoadProblem):
        if not path.exists() and not path.is_symlink():
            raise BaselineError(
                f"{path}: no such baseline file (write one with `speclint baseline write`)"
            )
        raise BaselineError(f"{path}: {raw.message}")
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BaselineError(
            f"{path}: not a speclint baseline (not UTF-8 at byte {error.start})"
        ) from None
    except json.JSONDecodeError as error:
        raise BaselineError(
            f"{path}: not a speclint baseline (not JSON: {error.msg} at line {error.lineno}, "
            f"column {error.colno})"
        ) from None
    except RecursionError:
        raise BaselineError(
            f"{path}: not a speclint baseline (nested too deep to read; a baseline is one level "
            "of entries)"
        ) from None
    version = document.get("speclint-baseline") if isinstance(document, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:
        raise BaselineError(
            f'{path}: not a speclint baseline of format {FORMAT_VERSION} (`"speclint-baseline": '
            f"{FORMAT_VERSION}` expected); write it again with `speclint baseline write`"
        )
    items = document.get("entries")
    if not isinstance(items, list):
        raise BaselineError(f"{path}: `entries` must be a list of findings")
    entries = []
    for index, item in enumerate(items):
        _check_item(path, f"entries[{index}]", item, _FIELDS)
        places = item.get("members", [])
        if not isinstance(places, list):
            raise BaselineError(f"{path}: entries[{index}].members must be a list of places")
        for number, place in enumerate(places):
            _check_item(path, f"entries[{index}].members[{number}]", place, _PLACE_FIELDS)
        entries.append(
            Entry(
                item["id"],
                item["rule"],
                item["path"],
                item.get("where", ""),
                item.get("message", ""),
                members=tuple(Place(p["path"], p.get("where", ""), id=p["id"]) for p in places),
            )
        )
    return entries


def _check_item(path: Path, named: str, item: Any, fields: dict[str, bool]) -> None:
    """A :class:`BaselineError` naming ``named`` (``entries[2]``) unless ``item`` is an object
    whose ``fields`` (name: required) are strings, with a 24-hex-digit ``id`` and a ``path`` and
    ``rule`` (where it has one) that are not empty."""
    if not isinstance(item, dict):
        raise BaselineError(f"{path}: {named} is not an object")
    for name, required in fields.items():
        if (required and name not in item) or not isinstance(item.get(name, ""), str):
            raise BaselineError(
                f"{path}: {named}.{name} must be a string"
                + (" (it is required)" if required else "")
            )
    if not _ID.fullmatch(item["id"]) or not item["path"] or item.get("rule") == "":
        what = "`rule` and `path` are" if "rule" in fields else "`path` is"
        raise BaselineError(
            f"{path}: {named} is not {'an entry' if 'rule' in fields else 'a place'} speclint "
            f"wrote (`id` is 24 hex digits, {what} not empty)"
        )


@dataclass(frozen=True)
class Applied:
    new: list[Finding]  # not in the baseline: these are reported and can fail the run
    known: list[Finding]  # matched a baseline entry
    fixed: list[Entry]  # baseline entries nothing matched any more: the baseline can shrink
    # Entries nothing matched, of rules that did not run (``--select``, ``--ignore``): not judged.
    unjudged: list[Entry] = field(default_factory=list)
    # Findings of one place whose cause an entry of one place has, saying something else
    # (``Matching.causes``): in neither ``new`` nor ``fixed``.
    changed: list[Changed] = field(default_factory=list)
    # Entries nothing matched whose places the head no longer checks (``--diff-base``: set by
    # the engine, ``speclint.run.unchecked``), each with why: taken out of ``fixed``.
    unchecked: list[tuple[Entry, str]] = field(default_factory=list)


Identity = tuple[str, ...]


def baseline_identity(entry: Entry) -> Identity:
    # Every field a reviewer reads, not the hash alone: an entry rewritten to another rule or file
    # keeps its `id` but no longer matches anything (issue 13).
    return (entry.id, entry.rule, entry.path, entry.where)


# Line numbers a message names ("first at line 12", "spec/runs.md:40"): lines above move.
_LINE_NUMBER = re.compile(r"\b(line )\d+|(\.[A-Za-z0-9]+):\d+(?::\d+)?\b")
# A line number between the colons of a key (enum-drift's `prose:12:schemas/a.json/...`).
_KEY_LINE = re.compile(r"(?<=:)\d+(?=:)")


def _unnumbered(message: str) -> str:
    return _LINE_NUMBER.sub(lambda m: f"{m.group(1) or m.group(2) + ':'}#", message)


def unnumbered(message: str) -> str:
    """``message`` with the line numbers it names made ``#``: what it says, lines moving aside."""
    return _unnumbered(message)


def gate_identity(entry: Entry) -> Identity:
    """How the ``--diff-base`` gate (and the hook) matches a finding of the head with one of the
    base: by rule, file, pointer (or heading) and what it says, line numbers aside. Not by the
    hash of the offending content, as a baseline is: a commit that rewords the line holding an
    old drift, or edits the enum beside it, has not made that drift new, and has not fixed it
    (issue 25, item 12). A finding whose message changes (other values missing) matches no entry
    here; when its cause is the base's (:func:`_changed`: rule, file, pointer or heading, key) it
    is that finding changed, neither new nor fixed (issue 48, item 3)."""
    return (entry.rule, entry.path, entry.where, _unnumbered(entry.message))


def gate_place(rule: str, place: Place) -> Identity:
    """How the gate matches one place of a grouped finding: by rule, file, pointer (or heading)
    and the key the finding has alone there (its fingerprint's), line numbers aside. Not by the
    group's message, which counts its places: a group with one more place says so."""
    return (rule, place.path, place.where, _KEY_LINE.sub("#", _unnumbered(place.key)))


def baseline_place(rule: str, place: Place) -> Identity:
    """How a baseline matches one place of a grouped finding: as the finding alone there."""
    return (place.id, rule, place.path, place.where)


@dataclass(frozen=True)
class Matching:
    """How a comparison identifies what it compares: ``whole`` a finding of one place (and a
    group as it was: its first place, with the same places), ``place`` one place of a group;
    ``ids``: the places are matched by their ids (hashed from each place's content); ``legacy``:
    an entry with no places may stand for a group (a baseline file written before entries listed
    places), when it says what the group says; ``causes``: a new finding of one place and a fixed
    entry of one place with the same cause (``place`` of each alone: rule, file, pointer or
    heading, key) are one finding changed (``Changed``)."""

    whole: Callable[[Entry], Identity]
    place: Callable[[str, Place], Identity]
    ids: bool
    legacy: bool
    causes: bool = False


GATE = Matching(gate_identity, gate_place, ids=False, legacy=False, causes=True)
# A baseline keeps its content-hash matching: an entry whose offending content changed is for
# the reviewer to accept again (the module docstring), and a baseline file holds no keys to
# compare causes by (``Entry.key`` is empty there).
BASELINE = Matching(baseline_identity, baseline_place, ids=True, legacy=True)


def _own(entry: Entry) -> Place:
    """The place of a finding of one place, as a place of a group is compared."""
    return Place(entry.path, entry.where, entry.key, entry.id)


class _Places:
    """The places of the entries left after whole findings are matched, each taken once.

    A group of the head takes its places from its partner first (:meth:`partner`): when two
    groups of the base share places, it stands for the one it shares most with, and the other,
    whose places nothing took, is fixed (not both half taken, and neither fixed). Any other place
    it takes from the first entry holding it, in the entries' order. Every step is a dictionary
    lookup, a pop, or a look at the first ``VOTERS`` entries holding a place: linear in the
    places."""

    VOTERS = 8

    def __init__(self) -> None:
        self._order: dict[Identity, deque[int]] = defaultdict(deque)
        self._left: Counter[tuple[Identity, int]] = Counter()

    def add(self, identity: Identity, index: int) -> None:
        self._order[identity].append(index)
        self._left[identity, index] += 1

    def partner(self, identities: Sequence[Identity]) -> int | None:
        """The entry holding most of ``identities`` (the first in the entries' order of those
        holding as many), counted among the first ``VOTERS`` entries holding each."""
        votes: Counter[int] = Counter()
        for identity in identities:
            order = self._order.get(identity)
            if order:
                for index in islice(order, self.VOTERS):
                    if self._left[identity, index] > 0:
                        votes[index] += 1
        return min(votes, key=lambda index: (-votes[index], index)) if votes else None

    def take(self, identity: Identity, prefer: int | None = None) -> int | None:
        if prefer is not None and self._left[identity, prefer] > 0:
            self._left[identity, prefer] -= 1
            return prefer
        order = self._order.get(identity)
        while order:
            index = order.popleft()
            if self._left[identity, index] > 0:
                self._left[identity, index] -= 1
                return index
        return None


def _taken(stack: list[int] | None, taken: list[bool]) -> int | None:
    """The last index of ``stack`` not taken yet (popped), or None."""
    while stack:
        index = stack.pop()
        if not taken[index]:
            taken[index] = True
            return index
    return None


def apply(
    corpus: Context,
    findings: list[Finding],
    entries: list[Entry],
    matching: Matching = BASELINE,
    ran: Collection[str] | None = None,
    since: str = "the baseline",
) -> Applied:
    """Match ``findings`` with ``entries`` as ``matching`` says (a baseline file's, by default),
    multiplicity counted.

    A finding of one place matches an entry of one place with its identity (``whole``), exactly,
    as a group matches an entry of the same group (same first place, same places). What is left is
    compared place by place (``Matching.place``): a group of the head is known when each of its
    places is a place of a group left, or an entry of one place left; a finding of one place is
    known when it is a place of a group left (the group shrank to it). A group with some places
    known and some not is new, reported at its first new place, for its new places alone, its
    message saying which are new since ``since`` (``_grown``). An entry is fixed when nothing
    matched it, nor any of its places.

    ``ran``: the rules of a run narrowed by ``--select`` or ``--ignore`` (None: every rule the
    configuration enables ran), as ``speclint.run.waivers.apply`` takes it. An entry nothing
    matched is fixed only when its rule ran: ``--select enum-drift`` has not fixed the baseline's
    broken links, it has not looked for them (``unjudged``)."""
    heads = [entry_for(corpus, finding, matching.ids) for finding in findings]
    # Each place's identity is made once, for both steps.
    head_places = [[matching.place(h.rule, p) for p in h.members] for h in heads]
    entry_places = [[matching.place(e.rule, p) for p in e.members] for e in entries]
    wholes: dict[tuple[Identity, tuple[Identity, ...]], list[int]] = defaultdict(list)
    for index, entry in enumerate(entries):
        wholes[matching.whole(entry), tuple(entry_places[index])].append(index)
    taken = [False] * len(entries)
    known_at: list[bool] = [False] * len(findings)
    groups = [number for number, head in enumerate(heads) if head.members]
    for number in groups:  # a group as it was: its first place, with the same places
        whole = (matching.whole(heads[number]), tuple(head_places[number]))
        known_at[number] = _taken(wholes.get(whole), taken) is not None
    if matching.legacy:
        # An entry of one place written for a whole group (by a speclint whose entries did not
        # list places): it says what the group says, at the group's first place. Before the
        # findings of one place are matched: a group's first place may be on the line of one of
        # them (links on one line), which has the same identity, and takes any entry of it.
        legacy: dict[Identity, list[int]] = defaultdict(list)
        for index, entry in enumerate(entries):
            if not entry.members and not taken[index]:
                legacy[(*matching.whole(entry), _unnumbered(entry.message))].append(index)
        for number in groups:
            if not known_at[number]:
                said = (*matching.whole(heads[number]), _unnumbered(heads[number].message))
                known_at[number] = _taken(legacy.get(said), taken) is not None
    for number, head in enumerate(heads):
        if not head.members:  # a finding of one place: its identity, exactly
            known_at[number] = _taken(wholes.get((matching.whole(head), ())), taken) is not None
    grouped, alone = _Places(), _Places()
    for index, entry in enumerate(entries):
        if taken[index]:
            continue
        if entry.members:
            for identity in entry_places[index]:
                grouped.add(identity, index)
        else:
            alone.add(matching.place(entry.rule, _own(entry)), index)
    touched = [False] * len(entries)
    new: list[Finding] = []
    known: list[Finding] = []
    for number, (finding, head) in enumerate(zip(findings, heads, strict=True)):
        if known_at[number]:
            known.append(finding)
            continue
        if not head.members:  # one place: a place of a group left, or new
            source = grouped.take(matching.place(head.rule, _own(head)))
            if source is not None:
                touched[source] = True
            (new if source is None else known).append(finding)
            continue
        old: list[bool] = []
        partner = grouped.partner(head_places[number])
        for identity in head_places[number]:
            source = grouped.take(identity, partner)
            if source is None:
                source = alone.take(identity)
            if source is not None:
                touched[source] = True
            old.append(source is not None)
        if all(old):
            known.append(finding)
        else:
            new.append(_grown(finding, old, since) if any(old) else finding)
    changed: list[Changed] = []
    if matching.causes:
        new, changed = _changed(heads, findings, new, entries, taken, touched, matching)
    fixed: list[Entry] = []
    unjudged: list[Entry] = []
    for index, entry in enumerate(entries):
        if not (taken[index] or touched[index]):
            (fixed if ran is None or entry.rule in ran else unjudged).append(entry)
    return Applied(new, known, fixed, unjudged, changed)


def _changed(
    heads: Sequence[Entry],
    findings: Sequence[Finding],
    new: list[Finding],
    entries: Sequence[Entry],
    taken: Sequence[bool],
    touched: list[bool],
    matching: Matching,
) -> tuple[list[Finding], list[Changed]]:
    """The new findings of one place whose cause (``matching.place`` of each alone: the rule, the
    file, the pointer or heading and the key, line numbers aside) an entry of one place nothing
    matched has: each is that entry's finding changed, and the entry is touched (not fixed).
    Paired in order, multiplicity counted. A finding whose rule sets no key has its message for
    a key, so it pairs with nothing here: a message that changed is then new and fixed, as
    before. Groups are compared place by place already (``apply``)."""
    left: dict[Identity, deque[int]] = defaultdict(deque)
    for index, entry in enumerate(entries):
        if not (taken[index] or touched[index] or entry.members):
            left[matching.place(entry.rule, _own(entry))].append(index)
    if not left:
        return new, []
    fresh = {id(finding) for finding in new}
    alone = {id(f): h for f, h in zip(findings, heads, strict=True) if id(f) in fresh}
    still: list[Finding] = []
    changed: list[Changed] = []
    for finding in new:
        head = alone.get(id(finding))
        order = (
            left.get(matching.place(head.rule, _own(head)))
            if head is not None and not head.members
            else None
        )
        if not order:
            still.append(finding)
            continue
        index = order.popleft()
        touched[index] = True
        changed.append(Changed(finding, entries[index].message))
    return still, changed


NEW_PLACES_NAMED = 3  # new places of a group named in its message, besides the one it is at


def _grown(finding: Finding, old: Sequence[bool], since: str) -> Finding:
    """A grouped finding some of whose places (``old``, one per member) were there ``since``: the
    change's part of it. It is reported at its first new place, with the fingerprint that place
    has alone, standing for the new places; the places that were already there stay related,
    marked so. A reviewer reads a drift the change extends, at a line the change wrote (where a
    pull request's annotations show), not one it did not touch, and code scanning gets an alert
    for the new place, not the old one again."""
    fresh = [member for member, was in zip(finding.members, old, strict=True) if not was]
    before = {member.location for member, was in zip(finding.members, old, strict=True) if was}
    moved = finding.at(fresh[0])
    mark = f"already in {since}"
    related = tuple(
        replace(place, note=f"{place.note}; {mark}" if place.note else mark)
        if place in before
        else place
        for place in moved.related
    )
    if len(fresh) == 1:
        which = f"this place, 1 of the group's {len(old)}"
    else:
        named = [f"`{m.location.path}:{m.location.line}`" for m in fresh[1 : 1 + NEW_PLACES_NAMED]]
        more = len(fresh) - 1 - len(named)
        parts = ["this one", *named]
        listed = (
            f"{', '.join(parts)} and {more} more"
            if more
            else f"{', '.join(parts[:-1])} and {parts[-1]}"
        )
        which = f"{len(fresh)} of the group's {len(old)} places, {listed}"
    there = sum(old)
    tail = (
        f"\nNew since {since}: {which}; the other {there} "
        f"{'was' if there == 1 else 'were'} already there (marked on the related locations)"
    )
    message: str = moved.message + tail
    if moved.shortened is not None:
        message = Wording(message, moved.shortened + tail)
    return replace(moved, message=message, related=related, members=tuple(fresh))
