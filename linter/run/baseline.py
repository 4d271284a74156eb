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
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from speclint.analyses.context import Context
from speclint.common.findings import Finding
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
class Gate:
    """What a pull-request gate compared: ``findings`` are the new ones, these are the rest."""

    against: str  # "origin/main", "baseline speclint-baseline.json"
    known: tuple[Finding, ...] = ()  # present before the change too: not the change's doing
    fixed: tuple[FixedFinding, ...] = ()


@dataclass(frozen=True)
class Entry:
    id: str
    rule: str
    path: str
    where: str
    message: str


def _content(corpus: Context, finding: Finding) -> str:
    location = finding.location
    document = corpus.documents.get(location.path)
    if document is None:
        return ""
    pointer = location.pointer or ""
    if document.data is not None and (pointer == "" or pointer.startswith("/")):
        return json.dumps(resolve_pointer(document.data, pointer), sort_keys=True, default=str)
    lines = (document.text or "").split("\n")
    return lines[location.line - 1].strip() if 0 < location.line <= len(lines) else ""


def entry_for(corpus: Context, finding: Finding) -> Entry:
    where = finding.location.pointer or finding.location.heading or ""
    content = hashlib.sha256(_content(corpus, finding).encode("utf-8")).hexdigest()
    identity = "\x1f".join((finding.rule, finding.location.path, where, content))
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]
    return Entry(digest, finding.rule, finding.location.path, where, finding.message)


def render(corpus: Context, findings: list[Finding]) -> str:
    entries = sorted(
        (entry_for(corpus, f) for f in findings), key=lambda e: (e.path, e.rule, e.where, e.id)
    )
    document = {
        "speclint-baseline": FORMAT_VERSION,
        "entries": [
            {"id": e.id, "rule": e.rule, "path": e.path, "where": e.where, "message": e.message}
            for e in entries
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_ID = re.compile(r"[0-9a-f]{24}")
_FIELDS = {"id": True, "rule": True, "path": True, "where": False, "message": False}


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
        if not isinstance(item, dict):
            raise BaselineError(f"{path}: entries[{index}] is not an object")
        for name, required in _FIELDS.items():
            if (required and name not in item) or not isinstance(item.get(name, ""), str):
                raise BaselineError(
                    f"{path}: entries[{index}].{name} must be a string"
                    + (" (it is required)" if required else "")
                )
        if not _ID.fullmatch(item["id"]) or not item["rule"] or not item["path"]:
            raise BaselineError(
                f"{path}: entries[{index}] is not an entry speclint wrote (`id` is 24 hex digits, "
                "`rule` and `path` are not empty)"
            )
        entries.append(
            Entry(
                item["id"],
                item["rule"],
                item["path"],
                item.get("where", ""),
                item.get("message", ""),
            )
        )
    return entries


@dataclass(frozen=True)
class Applied:
    new: list[Finding]  # not in the baseline: these are reported and can fail the run
    known: list[Finding]  # matched a baseline entry
    fixed: list[Entry]  # baseline entries nothing matched any more: the baseline can shrink
    # Entries nothing matched, of rules that did not run (``--select``, ``--ignore``): not judged.
    unjudged: list[Entry] = field(default_factory=list)


def baseline_identity(entry: Entry) -> tuple[str, ...]:
    # Every field a reviewer reads, not the hash alone: an entry rewritten to another rule or file
    # keeps its `id` but no longer matches anything (issue 13).
    return (entry.id, entry.rule, entry.path, entry.where)


# Line numbers a message names ("first at line 12", "spec/runs.md:40"): lines above move.
_LINE_NUMBER = re.compile(r"\b(line )\d+|(\.[A-Za-z0-9]+):\d+(?::\d+)?\b")


def _unnumbered(message: str) -> str:
    return _LINE_NUMBER.sub(lambda m: f"{m.group(1) or m.group(2) + ':'}#", message)


def gate_identity(entry: Entry) -> tuple[str, ...]:
    """How the ``--diff-base`` gate (and the hook) matches a finding of the head with one of the
    base: by rule, file, pointer (or heading) and what it says, line numbers aside. Not by the
    hash of the offending content, as a baseline is: a commit that rewords the line holding an
    old drift, or edits the enum beside it, has not made that drift new, and has not fixed it
    (issue 25, item 12). A finding whose message changes (other values missing) is new."""
    return (entry.rule, entry.path, entry.where, _unnumbered(entry.message))


def apply(
    corpus: Context,
    findings: list[Finding],
    entries: list[Entry],
    identity: Callable[[Entry], tuple[str, ...]] = baseline_identity,
    ran: Collection[str] | None = None,
) -> Applied:
    """Match ``findings`` with ``entries`` by ``identity`` (a baseline file's, by default),
    multiplicity counted.

    ``ran``: the rules of a run narrowed by ``--select`` or ``--ignore`` (None: every rule the
    configuration enables ran), as ``speclint.run.waivers.apply`` takes it. An entry nothing
    matched is fixed only when its rule ran: ``--select enum-drift`` has not fixed the baseline's
    broken links, it has not looked for them (``unjudged``)."""
    remaining = Counter(identity(e) for e in entries)
    new: list[Finding] = []
    known: list[Finding] = []
    for finding in findings:
        key = identity(entry_for(corpus, finding))
        if remaining[key] > 0:
            remaining[key] -= 1
            known.append(finding)
        else:
            new.append(finding)
    fixed: list[Entry] = []
    unjudged: list[Entry] = []
    for entry in entries:
        if remaining[identity(entry)] > 0:
            remaining[identity(entry)] -= 1
            (fixed if ran is None or entry.rule in ran else unjudged).append(entry)
    return Applied(new, known, fixed, unjudged)
