"""An RFC changed in the pull request says `Compatibility: additive` while the change breaks clients.

What it does
    Runs only with ``speclint check --diff-base REF``. Finds the RFCs (see ``rfc-header``) the
    change adds or edits whose ``Compatibility`` field claims it is additive ("additive", "backward
    compatible", "non-breaking"), diffs every schema location between base and head and classifies
    each difference by the location's role (``speclint roles``):

    - what clients send (client-submitted) breaks when it accepts less: an enum value or a
      property of a closed shape removed, a ``required`` member added, a type, bound or
      constraint narrowed, the shape closed;
    - what clients read (server-emitted) breaks when it may say more or less: a property
      removed, a type or bound widened, the shape opened, an enum value added (unless the
      corpus tells clients to ignore unknown values of that field, see ``closed-event-union``);
    - a schema file, a definition, an operation or channel removed always breaks, and so does
      what a workflow step of the corpus's Arazzo documents uses.

    Each additive claim with breaking changes beside it is one finding at the RFC's
    ``Compatibility`` row, the changes related. ``speclint changes --diff-base REF`` lists every
    change with its class.

Why is this bad?
    ``Compatibility`` is the promise implementers act on: an additive RFC lands in a minor
    release and nobody re-validates old clients. A removed request enum value published as
    additive turns yesterday's valid requests into 400s.

Example
    ::

        | Compatibility | additive |          # rfcs/0007-stream-modes.md, edited in this change

        # schemas/run-options.schema.json (client-submitted), base -> head
        "streamMode": {"enum": ["updates", "values", "messages"]}
        "streamMode": {"enum": ["updates", "values"]}

    FAIL: ``error [compat-claim] RFC 0007 says `Compatibility: additive`, but this change breaks
    clients: `streamMode` ... no longer accepts `messages` ...``

Use instead
    Keep the value (deprecate it in prose), or declare the change ``breaking`` in the RFC header and
    follow the major-version process. PASS.

Options
    ``scope`` (default ``"all"``): ``"affects"`` counts only breaking changes in the files the RFC's
    ``Affects`` names.

Limitations
    Breaking changes in files that another RFC of the same change declares breaking (in its
    ``Affects``) are that RFC's, not the additive one's.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.changes.compat import Change
from speclint.analyses.changes.proto_changes import contract_changes
from speclint.analyses.context import Context
from speclint.analyses.prose.rfcs import Rfc, affected_paths, corpus_rfcs, plain
from speclint.common.findings import Finding, Location, Severity

ID = "compat-claim"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references", "roles")  # speclint.analyses.context
READS_RFCS = True  # the corpus's RFCs, decoded before the workers fork (speclint.run.catalog)
NEEDS_BASE = True  # silent without --diff-base (the bundled-corpus test knows)
SHOWN_CHANGES = 3

_ADDITIVE = re.compile(
    r"\badditive\b|\bbackwards?[- ]compatible\b|\bnon[- ]breaking\b|\bnot breaking\b", re.I
)
_BREAKING = re.compile(r"(?<!non-)(?<!non )(?<!not )(?<!no )\bbreaking\b|\bincompatible\b", re.I)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    base = corpus.base
    if base is None:
        return  # only a change can break compatibility: see --diff-base
    changed = [rfc for rfc in corpus_rfcs(corpus) if _changed(base, rfc)]
    if not changed:
        return
    claims = [rfc for rfc in changed if claim(rfc) == "additive"]
    if not claims:
        return
    breaking = [c for c in contract_changes(base, corpus) if c.breaking]
    declared: set[str] = set()
    for rfc in changed:
        if claim(rfc) == "breaking":
            # a removal is located where the base had it: a moved or deleted file is the base's
            declared |= _affected(corpus, rfc) | _affected(base, rfc)
    breaking = [c for c in breaking if c.location.path not in declared]
    only_affects = str(options.get("scope", "all")) == "affects"
    for rfc in claims:
        mine = breaking
        if only_affects:
            named = _affected(corpus, rfc) | _affected(base, rfc)
            mine = [c for c in breaking if c.location.path in named]
        if mine:
            yield _finding(rfc, mine)


def claim(rfc: Rfc) -> str | None:
    """``"additive"``, ``"breaking"`` or None: what the ``Compatibility`` field promises."""
    field = rfc.get("Compatibility")
    if field is None:
        return None
    text = plain(field.value)
    if _BREAKING.search(text):
        return "breaking"
    return "additive" if _ADDITIVE.search(text) else None


def _claim_text(value: str) -> str:
    """The claim without its explanation: "additive / defect repair (see ...)" -> "additive / defect repair"."""
    text = re.split(r"\s[(—–;]|\s-\s", plain(value), maxsplit=1)[0].strip()
    return text if len(text) <= 60 else text[:57].rsplit(" ", 1)[0] + " ..."


def _changed(base: Context, rfc: Rfc) -> bool:
    before = base.documents.get(rfc.path)
    return before is None or before.text != rfc.document.text


def _affected(corpus: Context, rfc: Rfc) -> set[str]:
    """The corpus files an RFC's ``Affects`` names (by path, folder or unique file name)."""
    affects = rfc.get("Affects")
    if affects is None:
        return set()
    found: set[str] = set()
    folder = posixpath.dirname(rfc.path)
    for path in affected_paths(affects.value):
        relative = posixpath.normpath(posixpath.join(folder, path))
        for candidate in corpus.documents:
            name = candidate.rsplit("/", 1)[-1]
            if (
                candidate in (path, relative)
                or candidate.startswith(path.rstrip("/") + "/")
                or ("/" not in path and name == path)
            ):
                found.add(candidate)
    return found


def _finding(rfc: Rfc, changes: list[Change]) -> Finding:
    field = rfc.get("Compatibility")
    assert field is not None  # claim() found it
    shown = "; ".join(f"{c.description} ({c.kind})" for c in changes[:SHOWN_CHANGES])
    more = f"; and {len(changes) - SHOWN_CHANGES} more" if len(changes) > SHOWN_CHANGES else ""
    number = f"RFC {rfc.number}" if rfc.number else f"`{rfc.path}`"
    return Finding(
        ID,
        SEVERITY,
        f"{number} says `Compatibility: {_claim_text(field.value)}`, but this change breaks "
        f"clients: {shown}{more}. Make the change additive (keep accepting and emitting what the "
        "base did), or declare it breaking in the RFC header and follow the major-version "
        "process",
        Location(rfc.path, field.line, 1, pointer="#compatibility"),
        related=tuple(replace(c.location, note=f"{c.kind} ({c.role})") for c in changes),
        key="\x1e".join(c.identity for c in changes),
    )
