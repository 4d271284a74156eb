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
from dataclasses import dataclass
from pathlib import Path

from .corpus import Corpus
from .findings import Finding
from .reading import LoadProblem, read_raw

FORMAT_VERSION = 1


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


@dataclass(frozen=True)
class Entry:
    id: str
    rule: str
    path: str
    where: str
    message: str


def _content(corpus: Corpus, finding: Finding) -> str:
    location = finding.location
    document = corpus.documents.get(location.path)
    if document is None:
        return ""
    pointer = location.pointer or ""
    if document.data is not None and (pointer == "" or pointer.startswith("/")):
        from .structured import resolve_pointer

        return json.dumps(resolve_pointer(document.data, pointer), sort_keys=True, default=str)
    lines = (document.text or "").split("\n")
    return lines[location.line - 1].strip() if 0 < location.line <= len(lines) else ""


def entry_for(corpus: Corpus, finding: Finding) -> Entry:
    where = finding.location.pointer or finding.location.heading or ""
    content = hashlib.sha256(_content(corpus, finding).encode("utf-8")).hexdigest()
    identity = "\x1f".join((finding.rule, finding.location.path, where, content))
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:24]
    return Entry(digest, finding.rule, finding.location.path, where, finding.message)


def render(corpus: Corpus, findings: list[Finding]) -> str:
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


def load(path: Path) -> list[Entry]:
    """The entries of a baseline file; :class:`BaselineError` names what is wrong with it."""
    where = path.absolute()
    raw = read_raw(Path(where.anchor), str(where.relative_to(where.anchor)))
    if isinstance(raw, LoadProblem):
        if not path.exists() and not path.is_symlink():
            raise BaselineError(
                f"{path}: no such baseline file (write one with `speclint baseline write`)"
            )
        raise BaselineError(f"{path}: {raw.message}")
    try:
        document = json.loads(raw.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BaselineError(f"{path}: not a speclint baseline ({error})") from None
    version = document.get("speclint-baseline") if isinstance(document, dict) else None
    if type(version) is not int or version != FORMAT_VERSION:
        raise BaselineError(
            f'{path}: not a speclint baseline of format {FORMAT_VERSION} (`"speclint-baseline": '
            f"{FORMAT_VERSION}` expected, found {json.dumps(version)}); write it again with "
            "`speclint baseline write`"
        )
    items = document.get("entries")
    if not isinstance(items, list):
        raise BaselineError(
            f"{path}: `entries` must be a list of findings (found {json.dumps(items)[:40]})"
        )
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


def _identity(entry: Entry) -> tuple[str, str, str, str]:
    # Every field a reviewer reads, not the hash alone: an entry rewritten to another rule or file
    # keeps its `id` but no longer matches anything (issue 13).
    return (entry.id, entry.rule, entry.path, entry.where)


def apply(corpus: Corpus, findings: list[Finding], entries: list[Entry]) -> Applied:
    remaining = Counter(_identity(e) for e in entries)
    new: list[Finding] = []
    known: list[Finding] = []
    for finding in findings:
        identity = _identity(entry_for(corpus, finding))
        if remaining[identity] > 0:
            remaining[identity] -= 1
            known.append(finding)
        else:
            new.append(finding)
    fixed: list[Entry] = []
    for entry in entries:
        if remaining[_identity(entry)] > 0:
            remaining[_identity(entry)] -= 1
            fixed.append(entry)
    return Applied(new, known, fixed)
