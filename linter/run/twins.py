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

Like ``speclint.run.history``, this runs over the findings of a whole run, after the rules and their
waivers and before baselines and base revisions compare them; the folded finding keeps the
preferred twin's fingerprint.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace

from speclint.analyses.context import Context
from speclint.common.findings import Finding, sorted_findings
from speclint.run.runner import RunResult

_JSON = (".json",)
_YAML = (".yaml", ".yml")


def folded(result: RunResult, corpus: Context) -> RunResult:
    """The run's findings with those repeated at a document's twin folded into one."""
    pairs = twins(corpus.documents, corpus.generated)
    if not pairs:
        return result
    findings = fold_findings(result.findings, pairs)
    return result if findings is result.findings else replace(result, findings=findings)


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


def fold_findings(findings: list[Finding], pairs: Mapping[str, str]) -> list[Finding]:
    """``findings`` with each one that both twins have kept once, at the preferred twin."""
    # Longest first, so `a/x.yaml` is not rewritten inside `b/a/x.yaml`.
    spellings = sorted(pairs, key=lambda p: (-len(p), p))

    def as_one(message: str) -> str:
        for path in spellings:
            if path in message:
                message = message.replace(path, pairs[path])
        return message

    groups: dict[tuple[str, ...], list[Finding]] = {}
    for number, finding in enumerate(findings):
        where = finding.location
        preferred = pairs.get(where.path)
        if preferred is None:
            groups[("", str(number))] = [finding]
            continue
        key = (
            finding.rule,
            preferred,
            where.pointer if where.pointer is not None else "\x00",
            where.heading or "",
            as_one(finding.message),
        )
        groups.setdefault(key, []).append(finding)
    if all(len({f.location.path for f in group}) == 1 for group in groups.values()):
        return findings
    out: list[Finding] = []
    for group in groups.values():
        places = {f.location.path for f in group}
        if len(places) == 1:
            out += group
            continue
        kept = [f for f in group if pairs[f.location.path] == f.location.path]
        folded = [f for f in group if f not in kept]
        related = tuple(
            replace(f.location, note=f"the same in {f.location.path}, this file in another format")
            for f in sorted(folded, key=lambda f: f.sort_key())
        )
        out += [replace(kept[0], related=(*kept[0].related, *related)), *kept[1:]]
    return sorted_findings(out)
