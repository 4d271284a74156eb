"""Released versions: a defect repeated in the frozen copies of a schema is one finding (issue 26).

A repository that keeps every released version (``schemas/1.0.0/``, ``schemas/1.1.0/``,
``schemas/2.0.0/``; ``schema/2025-06-18/`` beside ``schema/draft/``) repeats a defect of an
old version in every copy made since. The released copies are frozen: nobody edits
``schemas/1.0.0/run.json`` after 1.0.0 shipped, and a defect in all three copies is one thing
to fix, in the live copy. The live copy of a version line is its newest version
(``speclint.parsing.versions.newest_first``: semantic versions and dates in order, a ``draft``,
``next``, ``latest`` or ``main`` folder above every release); every other released version is
frozen.

``released-versions`` in the configuration says what a run reports of them:

- ``"newest"`` (default): a defect found in several copies of one file (the same rule, the same
  path within the version folder or the same ``$id`` but for the version, the same pointer or
  heading, the same message once the version is taken out) is reported once, at the newest copy that has it, with the frozen
  copies as related locations. The defects only frozen releases have (a reference or a
  definition the newest copy dropped; a release has a minor part, is a date or a W3C snapshot (``ver11``), where a bare ``v1`` is an
  API line served beside ``v2``) are one info per rule, at the newest of them, the others
  as related locations: a released file does not change, so its maintainer can only know.
  A copy is frozen only when a newer version holds its counterpart (the same path within the
  version folder, or the same ``$id`` but for the version), or when it is a released snapshot
  of the maintained text beside it (``speclint.parsing.versions.maintained_copies``:
  ``examples/2026-04-17/a.json`` of ``examples/a.json``, Docusaurus's
  ``versioned_docs/version-X/`` of ``docs/``; more than half its lines the maintained copy's),
  which is then the newest copy: a file no newer version has is
  the newest of its kind, and its defects are reported as they are. An API document named
  for a version it does not declare (``petstore-3.1.yaml`` at ``info.version`` 2.0.0: the
  OpenAPI version it shows) is no release of its line.
  Those in the text of released pages (Markdown) are not reported: readers read the newest
  text, while validators still load a released schema;
- ``"report"``: every copy's findings, as the rules report them;
- ``"ignore"``: nothing in frozen copies: the live version's findings only.

This runs over the findings of a whole run (``speclint.run.engine``), after the rules and their
waivers, before baselines and base revisions compare them, so every comparison sees the
same findings. The collapsed finding keeps the newest copy's fingerprint.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity, first_fitting, sorted_findings
from speclint.common.unions import DisjointSets
from speclint.parsing.kinds import MARKDOWN_SUFFIXES, DocumentKind
from speclint.parsing.versions import (
    UNRELEASED,
    UNRELEASED_KEY,
    Snapshot,
    VersionLines,
    maintained_copies,
    names_version,
    newest_first,
    order_key,
    version_place,
    whole_version,
)
from speclint.run.runner import RunResult


@dataclass(frozen=True)
class _Copy:
    copies: str  # which file this is a copy of: the same for every version's copy
    version: str  # "" for a maintained copy of no version (`examples/orders/a.json`)
    frozen: bool
    # A snapshot's folder and its maintained copy's: a message naming a file of the snapshot
    # names the maintained copy's file at the same place.
    moved: tuple[str, str] | None = None


def collapsed(result: RunResult, corpus: Context) -> RunResult:
    """The run's findings as ``released-versions`` asks (``result`` itself when unchanged)."""
    mode = corpus.config.released_versions
    if mode == "report" or corpus.config.versions is None:
        return result
    identifiers = {
        document.path: identifier
        for document in corpus.of_kind(DocumentKind.SCHEMA)
        if isinstance(document.data, dict)
        and isinstance(identifier := document.data.get("$id", document.data.get("id")), str)
    }
    lines = _released_lines(corpus)
    maintained = _snapshots(corpus, lines)
    findings = collapse_findings(result.findings, lines, mode, identifiers, maintained)
    return result if findings is result.findings else replace(result, findings=findings)


def _released_lines(corpus: Context) -> VersionLines:
    """The corpus's version lines less the API documents whose file name names a version the
    document does not declare: ``petstore-3.1.yaml`` at ``info.version`` 2.0.0 is named for
    the OpenAPI version it shows, no release of the petstore, so ``petstore-1.0.0.yaml`` beside
    it is no frozen copy of it (issue 45, batch 3: a demo named after its own version)."""
    lines = corpus.versions
    named_otherwise = set()
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        version = lines.of(document.path)
        if not version or version_place(document.path, version)[1]:
            continue  # a folder's version: the folder says what it holds
        info = document.data.get("info") if isinstance(document.data, dict) else None
        declared = info.get("version") if isinstance(info, dict) else None
        if isinstance(declared, (str, int, float)) and not names_version(version, str(declared)):
            named_otherwise.add(document.path)
    if not named_otherwise:
        return lines
    return VersionLines({p: v for p, v in lines.version.items() if p not in named_otherwise})


def _snapshots(corpus: Context, lines: VersionLines) -> dict[str, Snapshot]:
    """The released snapshots of maintained copies (``maintained_copies``) whose text is a copy
    of the maintained one: a version folder's own ``README.md`` beside its parent's, which
    describes the versions, is no snapshot of it."""
    found = maintained_copies(corpus.documents, lines, corpus.config.versions)
    documents = corpus.documents
    return {
        path: snapshot
        for path, snapshot in found.items()
        if _copied(documents[path].text, documents[snapshot.live].text)
    }


def _copied(first: str | None, second: str | None) -> bool:
    """Whether one text is mostly a copy of the other: more than half the lines of the shorter
    (those with a word or a number, so braces and rules do not count) are in the other."""
    if first is None or second is None:
        return False
    a, b = _lines(first), _lines(second)
    return 2 * len(a & b) > min(len(a), len(b))


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if any(c.isalnum() for c in line)}


def collapse_findings(
    findings: list[Finding],
    lines: VersionLines,
    mode: str,
    identifiers: Mapping[str, str] | None = None,
    maintained: Mapping[str, Snapshot] | None = None,
) -> list[Finding]:
    """``findings`` with those of frozen copies folded (``"newest"``) or left out
    (``"ignore"``); ``identifiers``: each schema's ``$id``, which links copies whose paths
    differ by more than the version (``1.0.0/run.json`` and ``2.0.0/workflow-run.json`` that
    both say ``https://example.org/<version>/run.json``); ``maintained``: released snapshots
    and the copy still edited (``speclint.parsing.versions.maintained_copies``)."""
    copies = _copies(lines, identifiers or {}, maintained or {})
    if not any(copy.frozen for copy in copies.values()):
        return findings
    if mode == "ignore":
        kept = [f for f in findings if not _frozen(copies, f.location.path)]
        return kept if len(kept) != len(findings) else findings
    groups: dict[tuple[str, ...], list[Finding]] = {}
    for number, finding in enumerate(findings):
        copy = copies.get(finding.location.path)
        if copy is None:
            groups[("", str(number))] = [finding]
            continue
        where = finding.location
        message = finding.message
        if copy.moved is not None:
            message = message.replace(copy.moved[0], copy.moved[1])
        # A suggestion follows what else the copy's folder holds; the defect is the same.
        message = _SUGGESTION.sub("", message)
        key = (
            finding.rule,
            copy.copies,
            where.pointer if where.pointer is not None else "\x00",
            where.heading or "",
            _without_version(message, copy.version),
        )
        groups.setdefault(key, []).append(finding)
    if all(len({f.location.path for f in group}) == 1 for group in groups.values()) and not any(
        _frozen(copies, f.location.path) for f in findings
    ):
        return findings
    out: list[Finding] = []
    for group in groups.values():
        if len({f.location.path for f in group}) == 1:  # one file's own (or of no version)
            out += group
            continue
        standing = {f.location.path: _standing(copies[f.location.path]) for f in group}
        rank = {s: n for n, s in enumerate(sorted(set(standing.values()), reverse=True))}
        live = [f for f in group if rank[standing[f.location.path]] == 0]
        # Another copy that is not frozen (a `next/` beside a `draft/`) is its own finding.
        folded = [f for f in group if f not in live and copies[f.location.path].frozen]
        out += [f for f in group if f not in live and not copies[f.location.path].frozen]
        related = tuple(
            replace(
                f.location,
                note=f"the same in released version {copies[f.location.path].version} "
                "(a frozen copy)",
            )
            for f in sorted(folded, key=lambda f: (rank[standing[f.location.path]], f.sort_key()))
        )
        out += [replace(live[0], related=(*live[0].related, *related)), *live[1:]]
    return sorted_findings(_frozen_only(out, copies))


# A release: a version with a minor part (`1.0.2`, `1-0-4`, `v1_0`) or a date. A bare major
# (`v1`, `v2beta1`, twilio's `numbers_v1.yaml` beside `numbers_v2.yaml`) names an API line that
# is served and maintained beside the newer one, not a frozen snapshot.
# W3C's publication snapshots (`publication/ver10/`, `ver11/`: 1.0 and 1.1 as published) are
# releases too.
_RELEASE = re.compile(r"v?\d+[._-]\d+(?:[._-]\d+)*(?:[-.+][0-9A-Za-z.-]+)?|ver\d{2,}")


def _frozen_only(findings: list[Finding], copies: dict[str, _Copy]) -> list[Finding]:
    """``findings`` with those no live copy has (a reference the newest version dropped) folded:
    one info per rule, at the newest frozen release, the others as related locations. A released
    file does not change; what its maintainer can do is know, once (a repository that froze the
    same slip into every file of a release gets one line, not one per file)."""
    kept: list[Finding] = []
    frozen: dict[str, list[Finding]] = {}
    for finding in findings:
        copy = copies.get(finding.location.path)
        live = copy is not None and any(
            (other := copies.get(related.path)) is not None
            and other.copies == copy.copies
            and not other.frozen
            for related in finding.related
        )
        if copy is not None and copy.frozen and _RELEASE.fullmatch(copy.version) and not live:
            # (A finding that relates this file's copy still being written, the `unreleased/`
            # enum that lacks the value too, is not only in released copies: it stays as is.)
            if not finding.location.path.lower().endswith(MARKDOWN_SUFFIXES):
                frozen.setdefault(finding.rule, []).append(finding)
            # A slip in the text of a released page (an example's missing comma in the 3.1.0
            # specification, fixed in 3.1.1) is history: readers read the newest text, and no
            # tool loads the old page, unlike a released schema that validators still use.
        else:
            kept.append(finding)
    for group in frozen.values():
        rank = {
            v: n
            for n, v in enumerate(newest_first({copies[f.location.path].version for f in group}))
        }
        group.sort(key=lambda f: (rank[copies[f.location.path].version], f.sort_key()))
        first, others = group[0], group[1:]
        more = f"; {len(others)} more like it are related locations" if others else ""
        tag = f" [only released copies have this, and they do not change{more}]"
        shorter = () if first.shortened is None else (first.shortened + tag,)
        kept.append(
            replace(
                first,
                severity=min(first.severity, Severity.INFO),
                message=first_fitting(
                    first.message + tag,
                    *shorter,
                    f"only released copies have this{more}: {first.terminal_message}",
                ),
                shortened=None,  # the new message's own, when it is a Wording
                related=(
                    *first.related,
                    *(
                        replace(f.location, note=f"also only in released copies: {f.message}")
                        for f in others
                    ),
                ),
            )
        )
    return kept


_SUGGESTION = re.compile(r" \(did you mean [^()]*\)")


def _standing(copy: _Copy) -> tuple[bool, tuple[int, tuple[int, ...], int, tuple[int, ...]], str]:
    """A copy's place among its copies, the live one highest: not frozen, then the newest
    version (a maintained copy of no version is the one being written)."""
    return (
        not copy.frozen,
        order_key(copy.version) if copy.version else UNRELEASED_KEY,
        copy.version,
    )


def _copies(
    lines: VersionLines, identifiers: Mapping[str, str], maintained: Mapping[str, Snapshot]
) -> dict[str, _Copy]:
    """Every versioned path: which file it is a copy of (the path with the version taken out,
    or its ``$id`` so), and its version; frozen when a copy of the same file has a newer
    version, and it is not an unreleased folder. A released snapshot of a maintained copy
    (``maintained``) is frozen, and the maintained copy is a copy of the same file."""
    # Copies are linked by their place in the version and by their `$id`: a union of both.
    groups = DisjointSets()
    find = groups.find
    # A `$id` names a copy only when it holds the version and one file of that version
    # declares it (a duplicated `$id` is a defect of its own, not an identity).
    declared: dict[tuple[str, str], list[str]] = {}
    for path, version in lines.version.items():
        identifier = identifiers.get(path, "")
        unversioned = _without_version(identifier, version)
        if unversioned != identifier:
            declared.setdefault((version, unversioned), []).append(path)
    named = {paths[0]: key[1] for key, paths in declared.items() if len(paths) == 1}
    for path, version in lines.version.items():
        if path in named:
            groups.union(_place_node(path, version), "id\x00" + named[path])
    # A snapshot is of a release (a bare `v1/` beside `users.yaml` may be an API line still
    # served), and its maintained copy is of no older version than its own.
    snapshots = {
        path: snapshot
        for path, snapshot in maintained.items()
        if _RELEASE.fullmatch(lines.of(path))
        and (
            not lines.of(snapshot.live)
            or order_key(lines.of(snapshot.live)) >= order_key(lines.of(path))
        )
    }
    for path, live in ((p, s.live) for p, s in snapshots.items()):
        groups.union(_place_node(path, lines.of(path)), _place_node(live, lines.of(live)))
    members = {**lines.version, **{s.live: lines.of(s.live) for s in snapshots.values()}}
    in_copies: dict[str, set[str]] = {}
    for path, version in members.items():
        in_copies.setdefault(find(_place_node(path, version)), set()).add(version)
    # The newest release of each file. A maintained copy of no version ("") ranks above it
    # (``_standing``) but freezes only its own snapshots: `next/2.0/` beside a snapshot
    # `next/1.1/` of `next/` is the newest of its line, not a copy of `next/`.
    newest_copy = {
        root: newest_first(found - {""})[0] if found - {""} else ""
        for root, found in in_copies.items()
    }
    found: dict[str, _Copy] = {}
    for path, version in members.items():
        root = find(_place_node(path, version))
        # Frozen only where a newer version holds this file's counterpart: a file the newer
        # versions do not have (dropped, or never a copy of anything) is nobody's frozen copy,
        # and its defects are its own, whatever its folder's version.
        newer = version != newest_copy[root] or path in snapshots
        of = snapshots.get(path)
        moved = None if of is None else (of.folder, of.home)
        frozen = newer and bool(version) and version not in UNRELEASED
        found[path] = _Copy(root, version, frozen, moved)
    return found


def _place_node(path: str, version: str) -> str:
    if not version:  # a maintained copy of no version: its own place
        return f"live\x00{path}"
    line, inside = version_place(path, version)
    return f"place\x00{line}\x00{inside}"


def _frozen(copies: dict[str, _Copy], path: str) -> bool:
    copy = copies.get(path)
    return copy is not None and copy.frozen


def _without_version(text: str, version: str) -> str:
    """``text`` with ``version`` taken out where it stands as a whole (``1.0`` in
    ``schemas/1.0/run.json``, not in ``11.0``)."""
    if not version:
        return text
    return whole_version(version).sub("\x00", text)
