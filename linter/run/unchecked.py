"""Fixed, or no longer checked: why a finding of the base revision is gone at the head (issue 48).

A finding of the base that nothing at the head matches (nor changed: ``speclint.run.baseline``)
disappeared. That is a fix only where the head still checks what the finding was about. A commit
that breaks the `$ref` an example's schema goes through makes the example's finding disappear
too: the example is no longer checked, and "this commit fixes 1 finding" would tell its author
the reverse of what the commit did. So a finding that disappeared is *no longer checked*, never
fixed, when one of the files it is about (the file it is in, the files of its related locations:
the schema an example fails, the schema enum a prose list is bound to; and those of its other
places, for a group) at the head:

- is gone from the corpus: removed, renamed, excluded by the configuration, git-ignored; or
- has a reason not to be checked there that the base did not have: a ``parse-error`` finding
  (the file cannot be read), an ``unresolved-ref`` finding (a `$ref` in it does not resolve, so
  what goes through it is not checked), or a coverage note (what the summary's "not checked:"
  lists, ``speclint.run.coverage``: a remote `$ref`, a schema not loaded, a page not parsed);

or the finding's rule did not run to its end at the head (an ``internal-error`` naming it: it
crashed, or its time box stopped it), as it did at the base.

A reason is compared by what it says (rule or kind, file, pointer or heading, and message, line
numbers aside): one the base had too did not keep the base from finding the finding, and lines
moving above an old broken `$ref` do not make it new.

Limitations: a new reason anywhere in such a file counts, also a `$ref` the finding did not go
through: a commit that fixes an example and breaks an unrelated `$ref` of its schema is told the
example is no longer checked. It is never told that it fixed what the head could not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from speclint.common.findings import Finding
from speclint.run.baseline import Entry, unnumbered
from speclint.run.coverage import KINDS, Note
from speclint.run.runner import INTERNAL_ERROR

# The rules whose finding in a file says that something in it is not checked, and how a
# reviewer reads each: the file is not read at all (parse-error), or a `$ref` in it leads
# nowhere (unresolved-ref), and the rules that resolve schemas through it skip what it names.
UNCHECKING_RULES = {
    "parse-error": "`{path}` cannot be read",
    "unresolved-ref": "a `$ref` in `{path}` does not resolve",
}

Reason = tuple[str, ...]


@dataclass(frozen=True)
class Revision:
    """What a revision's run says it could not check: its corpus's files (the documents it
    read), its findings (waived ones too: a waiver does not make a file readable) and its
    coverage notes."""

    files: frozenset[str]
    findings: Sequence[Finding]
    coverage: Sequence[Note]


def files_of(finding: Finding) -> frozenset[str]:
    """The files ``finding`` is about: its own, its related locations', its other places'."""
    places = (
        finding.location,
        *finding.related,
        *(member.location for member in finding.members),
    )
    return frozenset(place.path for place in places)


def about(entries: Sequence[Entry], findings: Sequence[Finding]) -> dict[Entry, frozenset[str]]:
    """Each entry's files, from the findings it was made of (``entries[i]`` of ``findings[i]``,
    as the engine makes them); entries that say the same are one, their files joined."""
    files: dict[Entry, frozenset[str]] = {}
    if len(entries) != len(findings):
        return files  # not made of these findings: each entry is then about its own file
    for entry, finding in zip(entries, findings, strict=True):
        files[entry] = files.get(entry, frozenset()) | files_of(finding)
    return files


def _reasons(revision: Revision) -> dict[str, dict[Reason, str]]:
    """Each file's reasons not to be checked at ``revision``, each with how a reviewer reads it."""
    reasons: dict[str, dict[Reason, str]] = {}
    for finding in revision.findings:
        if finding.rule not in UNCHECKING_RULES:
            continue
        location = finding.location
        where = location.pointer or location.heading or ""
        reason = (finding.rule, where, unnumbered(str(finding.message)))
        said = UNCHECKING_RULES[finding.rule].format(path=location.path)
        said += f": `{finding.rule}` at line {location.line}"
        reasons.setdefault(location.path, {})[reason] = said
    for note in revision.coverage:
        reason = ("coverage", note.kind, unnumbered(note.what))
        kind = KINDS.get(note.kind, (note.kind, note.kind))[0]
        said = f"`{note.path}` line {note.line}: {kind}"
        reasons.setdefault(note.path, {})[reason] = said
    return reasons


def _stopped(revision: Revision) -> set[str]:
    """The rules that did not run to their end at ``revision`` (an internal error names each)."""
    return {f.key or "" for f in revision.findings if f.rule == INTERNAL_ERROR}


def no_longer_checked(
    gone: Iterable[Entry],
    files: Mapping[Entry, frozenset[str]],
    base: Revision,
    head: Revision,
) -> dict[Entry, str]:
    """The entries of ``gone`` (base findings nothing at the head matched) that the head no
    longer checks (the module docstring), each with why, in a line: the first reason found, by
    file. The others are fixed. ``files``: what each entry is about (:func:`about`); an entry
    it lacks is about its own file."""
    before, after = _reasons(base), _reasons(head)
    stopped = _stopped(head) - _stopped(base)
    found: dict[Entry, str] = {}
    for entry in gone:
        if entry.rule in stopped:
            found[entry] = f"rule `{entry.rule}` did not run to its end ({INTERNAL_ERROR})"
            continue
        for path in sorted(files.get(entry, frozenset({entry.path})) | {entry.path}):
            if path not in base.files:
                continue  # not read at the base: what the finding says of it is the base's
            if path not in head.files:
                found[entry] = f"`{path}` is no longer in the corpus"
                break
            new = [said for r, said in after.get(path, {}).items() if r not in before.get(path, {})]
            if new:
                found[entry] = min(new)
                break
    return found
