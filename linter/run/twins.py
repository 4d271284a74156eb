"""One document published in two formats: a defect in both copies is one finding (issue 26).

Many repositories publish each schema or API description twice, as JSON and as YAML: one written
by hand and one converted by a build (``models/src/x.yaml`` beside ``models/json/x.json``), or both
produced by a generator for readers of either format (``spec/json/api_v1.json`` beside
``spec/yaml/api_v1.yaml``). A defect of the document is in both copies, and reporting it at each
doubles every finding without adding a thing to fix: the fix is made once, in the source, and the
build carries it over.

Two documents are **twins** when they have the same file name but for a JSON extension on one and
a YAML extension on the other, and their folders are the same or differ in exactly one folder name
at the same depth (``json/`` and ``yaml/``, ``json/`` and ``src/``), and neither has another such
candidate (an ambiguous pairing is no pairing). A finding at one twin that the other twin also has
(the same rule, the same JSON pointer or heading, and the same message once the twins' paths are
read as one) is reported once, at the preferred twin, with the other as a related location. The
preferred twin is the one written by hand (not generated or vendored, ``Corpus.generated``), then
the YAML one (the format people write; a JSON copy is the usual build output), then the first in
path order. A finding only one twin has (a conversion that lost something) is kept as it is.

A twin may be the other *dereferenced* (issue 46, item 4): every local ``$ref`` written out in
place, so a component's example is repeated at each place the component is used, at other
JSON pointers (``speclint.parsing.inlined``). A finding's pointer (and a pointer its message
quotes) is read as where it leads in the twins with their ``$ref``\\s followed, so the copies of
one example in the dereferenced twin are the same finding as the example in the twin written
with ``$ref``\\s: one finding, each copy a related location. In the preferred twin, copies that
lead to one place are one finding too, at the copy written where they lead; copies that only the
other twin has are kept as they are. A dereferenced copy is a twin under any name too
(``openapi.dereferenced.json``, ``bundle/openapi-resolved.yaml``): two API documents that agree at a glance
and have one content once their ``$ref``\\s are read as their targets, only one of them written
with ``$ref``\\s (that one preferred: it is the source the copy is built from).

Like ``speclint.run.history``, this runs over the findings of a whole run, after the rules and their
waivers and before baselines and base revisions compare them; the folded finding keeps the
preferred twin's fingerprint.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from speclint.analyses.api.api_definitions import dereferenced_copies
from speclint.analyses.context import Context
from speclint.common.findings import Finding, sorted_findings
from speclint.parsing.inlined import source_pointer
from speclint.run.runner import RunResult

_JSON = (".json",)
_YAML = (".yaml", ".yml")


def folded(result: RunResult, corpus: Context) -> RunResult:
    """The run's findings with those repeated at a document's twin folded into one."""
    pairs = twins(corpus.documents, corpus.generated)
    pairs.update(dereferenced_twins(corpus, pairs))
    if not pairs:
        return result
    findings = fold_findings(result.findings, pairs, _sources(corpus, pairs))
    return result if findings is result.findings else replace(result, findings=findings)


def _sources(corpus: Context, pairs: Mapping[str, str]) -> Callable[[str, str], str]:
    """A twin's pointer -> where it leads, read in the preferred twin and then in the other,
    ``$ref``\\s followed (the pointer itself where neither leads elsewhere)."""
    by_preferred: dict[str, list[str]] = defaultdict(list)
    for path, preferred in pairs.items():
        by_preferred[preferred].append(path)
    other = {
        one: two for group in by_preferred.values() for one in group for two in group if one != two
    }
    known: dict[tuple[str, str], str] = {}

    def source(path: str, pointer: str) -> str:
        if not pointer.startswith("/") or path not in pairs:
            return pointer
        if (path, pointer) not in known:
            led = pointer
            for twin in (pairs[path], other.get(path, pairs[path])):
                document = corpus.documents.get(twin)
                found = source_pointer(document.data, pointer) if document else None
                if found is not None and found != pointer:
                    led = found
                    break
            known[(path, pointer)] = led
        return known[(path, pointer)]

    return source


def twins(paths: Iterable[str], generated: Mapping[str, str]) -> dict[str, str]:
    """Each twin's path -> its preferred twin's path (the preferred one maps to itself)."""
    by_name: dict[tuple[str, int], list[str]] = defaultdict(list)
    for path in paths:
        stem, suffix = posixpath.splitext(path)
        if suffix.lower() in _JSON + _YAML:
            by_name[(posixpath.basename(stem), path.count("/"))].append(path)
    candidates: dict[str, list[str]] = defaultdict(list)
    for group in by_name.values():
        if len(group) < 2:
            continue
        for one in group:
            for other in group:
                if one < other and _formats_differ(one, other) and _folders_close(one, other):
                    candidates[one].append(other)
                    candidates[other].append(one)
    out: dict[str, str] = {}
    for one, others in sorted(candidates.items()):
        if len(others) != 1 or len(candidates[others[0]]) != 1:
            continue  # ambiguous: `a/x.json` could be the copy of `b/x.yaml` or of `c/x.yaml`
        chosen = min((one, others[0]), key=lambda p: _preference(p, generated))
        out[one] = chosen
    return out


def dereferenced_twins(corpus: Context, paired: Mapping[str, str]) -> dict[str, str]:
    """Each dereferenced copy of an API document not paired by name
    (``api_definitions.dereferenced_copies``: found by content, under any name) and its source
    -> the source, the preferred twin."""
    out: dict[str, str] = {}
    for copy, source in dereferenced_copies(corpus).items():
        if copy not in paired and source not in paired:
            out[copy] = out[source] = source
    return out


def _formats_differ(one: str, other: str) -> bool:
    suffixes = {posixpath.splitext(p)[1].lower() for p in (one, other)}
    return bool(suffixes & set(_JSON)) and bool(suffixes & set(_YAML))


def _folders_close(one: str, other: str) -> bool:
    """The same folder, or folders that differ in one name at the same depth."""
    first, second = one.split("/")[:-1], other.split("/")[:-1]
    return (
        len(first) == len(second) and sum(a != b for a, b in zip(first, second, strict=True)) <= 1
    )


def _preference(path: str, generated: Mapping[str, str]) -> tuple[bool, bool, str]:
    is_json = posixpath.splitext(path)[1].lower() in _JSON
    return (path in generated, is_json, path)


def fold_findings(
    findings: list[Finding],
    pairs: Mapping[str, str],
    source: Callable[[str, str], str] = lambda _, pointer: pointer,
) -> list[Finding]:
    """``findings`` with each one that both twins have kept once, at the preferred twin;
    ``source``: where a twin's pointer leads (:func:`_sources`)."""
    # Longest first, so `a/x.yaml` is not rewritten inside `b/a/x.yaml`.
    spellings = sorted(pairs, key=lambda p: (-len(p), p))

    def as_one(path: str, message: str) -> str:
        for spelling in spellings:
            if spelling in message:
                message = message.replace(spelling, pairs[spelling])
        return _QUOTED_POINTER.sub(lambda m: f"`{source(path, m.group(1))}`", message)

    groups: dict[tuple[str, ...], list[Finding]] = {}
    for number, finding in enumerate(findings):
        where = finding.location
        preferred = pairs.get(where.path)
        if preferred is None:
            groups[("", str(number))] = [finding]
            continue
        key: tuple[str, ...] = (
            finding.rule,
            preferred,
            source(where.path, where.pointer) if where.pointer is not None else "\x00",
            where.heading or "",
            as_one(where.path, finding.message),
        )
        groups.setdefault(key, []).append(finding)
    if all(len({(f.location.path, f.location.pointer) for f in g}) == 1 for g in groups.values()):
        return findings  # no finding has a twin or a copy to fold with
    out: list[Finding] = []
    for key, group in groups.items():
        led = key[2] if len(key) > 2 else ""  # where the group's pointers lead
        at_preferred = sorted(
            (f for f in group if pairs.get(f.location.path) == f.location.path),
            # The copy written where the others lead first (the example as written).
            key=lambda f: (f.location.pointer != led, f.sort_key()),
        )
        if not at_preferred or len(group) == 1:
            out += group  # the other twin's alone (a conversion that lost something), or one
            continue
        first = at_preferred[0]
        # Of the preferred twin's, those at another pointer are copies of the first (a `$ref`
        # written out in place); those at its pointer are findings of their own (other lines).
        copies = [
            f
            for f in at_preferred[1:]
            if f.location.pointer is not None and f.location.pointer != first.location.pointer
        ]
        own = [f for f in at_preferred[1:] if f not in copies]
        folded = [f for f in group if f not in at_preferred] + copies
        related = tuple(
            replace(f.location, note=_copy_note(first, f))
            for f in sorted(folded, key=lambda f: f.sort_key())
        )
        out += [replace(first, related=(*first.related, *related)), *own]
    return sorted_findings(out)


# A JSON pointer a message quotes (`the schema at `/components/schemas/Task``).
_QUOTED_POINTER = re.compile(r"`(/[^`\s]*)`")


def _copy_note(kept: Finding, copy: Finding) -> str:
    if copy.location.pointer == kept.location.pointer:
        return f"the same in {copy.location.path}, this file in another format"
    return f"the same in {copy.location.path}, a copy where a `$ref` to it is written out in place"
