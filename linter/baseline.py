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
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .corpus import Corpus
from .findings import Finding

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
        from .shapes import resolve_pointer

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


def load(path: Path) -> list[Entry]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(
            f"{path}: no such baseline file (write one with `speclint baseline write`)"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BaselineError(f"{path}: not a speclint baseline ({error})") from None
    if not isinstance(document, dict) or document.get("speclint-baseline") != FORMAT_VERSION:
        raise BaselineError(f"{path}: not a speclint baseline (version {FORMAT_VERSION} expected)")
    entries = []
    for item in document.get("entries", []):
        try:
            entries.append(
                Entry(
                    str(item["id"]),
                    str(item["rule"]),
                    str(item["path"]),
                    str(item.get("where", "")),
                    str(item.get("message", "")),
                )
            )
        except (KeyError, TypeError):
            raise BaselineError(f"{path}: a baseline entry lacks `id`, `rule` or `path`") from None
    return entries


@dataclass(frozen=True)
class Applied:
    new: list[Finding]  # not in the baseline: these are reported and can fail the run
    known: list[Finding]  # matched a baseline entry
    fixed: list[Entry]  # baseline entries nothing matched any more: the baseline can shrink


def apply(corpus: Corpus, findings: list[Finding], entries: list[Entry]) -> Applied:
    remaining = Counter(e.id for e in entries)
    new: list[Finding] = []
    known: list[Finding] = []
    for finding in findings:
        identity = entry_for(corpus, finding).id
        if remaining[identity] > 0:
            remaining[identity] -= 1
            known.append(finding)
        else:
            new.append(finding)
    fixed: list[Entry] = []
    for entry in entries:
        if remaining[entry.id] > 0:
            remaining[entry.id] -= 1
            fixed.append(entry)
    return Applied(new, known, fixed)
