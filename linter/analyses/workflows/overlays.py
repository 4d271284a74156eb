"""OpenAPI Overlay documents and the documents they apply to (Overlay Specification 1.0, issue 45,
ecosystem batch 3).

An Overlay (``overlay: 1.0.0``, ``info``, ``actions``) is applied to an OpenAPI document by a tool
at build time: each action's ``target`` (a JSONPath expression) names the nodes it ``update``\\s or
``remove``\\s. A repository that copies a vendor's document in and corrects it with an overlay
before generating code fixes the vendor's defects there, not in the document: ``speclint files``
says which document an overlay applies to, so a reader of a finding knows the file is corrected
before use.

The document an overlay applies to is its ``extends`` (Overlay 1.0 §4.4.1: a URI reference,
resolved here against the overlay's folder, when it names a corpus file), else the OpenAPI
document(s) of the corpus in which its actions' targets resolve deepest (each target's leading
plain member names, ``$.components.schemas.Pet``, up to the first filter or wildcard: the members
found, summed over the actions; an ``update`` may add the last member).

Which document an overlay applies to, as ``speclint files`` says it, follows only the targets'
plain prefixes. The rules read more (issue 49): each target evaluated as the RFC 9535 JSONPath
it is (:func:`compiled`, by jsonpath-rfc9535) against the document the overlay applies to
(:func:`applied_to`: its ``extends``, a corpus file, else the document its targets point into),
the overlay validated against the official Overlay JSON Schema of its release, 1.0 or 1.1
(:func:`overlay_validator`, vendored in ``speclint/data/overlay`` with its licence and
provenance), and its actions applied in order to a copy of that document (:func:`apply_action`,
Overlay 1.0.0 and 1.1.0 §4.4.3). An overlay in an archive is applied to nothing
(:func:`applied_to`).
"""

from __future__ import annotations

import copy
import difflib
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import jsonpath_rfc9535
import jsonschema
import yaml
from jsonschema.protocols import Validator

from speclint.analyses.repository.downloads import build_outputs
from speclint.analyses.workflows.speakeasy import is_remote, overlay_sources
from speclint.common.findings import Finding
from speclint.model.corpus import Corpus, Document
from speclint.parsing.kinds import DocumentKind, in_record_folder
from speclint.parsing.structured import join_pointer
from speclint.parsing.versions import names_version

OVERLAY_DATA = "data/overlay"
# The Overlay releases whose official JSON Schema speclint ships (``speclint/data/overlay``).
OVERLAY_SCHEMAS = {"1.0": "1.0.yaml", "1.1": "1.1.yaml"}

# A plain member of a JSONPath target: `.name` or `['name']` / `["name"]`.
_MEMBER = re.compile(r"\.([A-Za-z0-9_$-]+)|\[(['\"])(.*?)\2\]")


def overlays(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """Each corpus document an overlay applies to -> the overlays, in path order."""
    found: dict[str, list[str]] = {}
    apis = [d for d in corpus.documents.values() if d.kind is DocumentKind.OPENAPI and d.usable]
    for path, document in corpus.documents.items():
        data = document.data
        if not document.usable or not _is_overlay(data):
            continue
        for target in _targets(corpus, path, data, apis):
            found.setdefault(target, []).append(path)
    return {path: tuple(found[path]) for path in sorted(found)}


def _is_overlay(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("overlay"), str)
        and data["overlay"].startswith("1.")
        and isinstance(data.get("actions"), list)
    )


def _targets(corpus: Corpus, path: str, data: dict[str, Any], apis: list[Any]) -> Iterator[str]:
    extends = data.get("extends")
    if isinstance(extends, str) and "://" not in extends and not extends.startswith("/"):
        named = posixpath.normpath(posixpath.join(posixpath.dirname(path), extends))
        if named in corpus.documents:
            yield named
            return
    listed = data.get("actions")  # none: the schema's (`overlay-invalid`), not a crash here
    paths = [
        members
        for action in (listed if isinstance(listed, list) else [])
        if isinstance(action, dict) and isinstance(action.get("target"), str)
        for members in [_plain_members(action["target"])]
        if members
    ]
    scores = {api.path: sum(_resolved(api.data, m) for m in paths) for api in apis}
    best = max(scores.values(), default=0)
    if best:
        yield from sorted(p for p, score in scores.items() if score == best)


def _plain_members(target: str) -> list[str]:
    """The leading plain member names of a JSONPath target (none: not a plain path)."""
    if not target.startswith("$"):
        return []
    members, at = [], 1
    while at < len(target):
        match = _MEMBER.match(target, at)
        if match is None:
            break
        members.append(match.group(1) if match.group(1) is not None else match.group(3))
        at = match.end()
    return members


def _resolved(data: Any, members: list[str]) -> int:
    """How many of the leading members are found in the document (an action may add the last)."""
    node, found = data, 0
    for member in members:
        if not isinstance(node, dict) or member not in node:
            break
        node, found = node[member], found + 1
    return found


@cache
def overlay_validator(release: str = "1.0") -> Validator:
    """The validator of the official Overlay JSON Schema of ``release`` (a key of
    ``OVERLAY_SCHEMAS``; vendored: PROVENANCE.json)."""
    text = resources.files("speclint").joinpath(OVERLAY_DATA, OVERLAY_SCHEMAS[release])
    schema = yaml.safe_load(text.read_text("utf-8"))
    # 2020-12, self-contained (its `$ref`s are to its own `$defs`); `format` is an annotation.
    validator: Validator = jsonschema.Draft202012Validator(schema)
    return validator


def schema_release(data: Any) -> str | None:
    """The release of the shipped schema that judges ``data`` (``1.0`` for ``overlay: 1.0.x``,
    ``1.1`` for ``1.1.x``), or None: a release speclint ships no schema of (``1.2.0``). The
    overlay rules check an overlay of a shipped release only, and each the same way."""
    declared = str(data.get("overlay", "")) if isinstance(data, dict) else ""
    release = ".".join(declared.split(".")[:2])
    return release if release in OVERLAY_SCHEMAS else None


@dataclass(frozen=True)
class Applied:
    """The corpus documents an overlay applies to (``paths``), or why none (``why``): its
    ``extends`` names a document the repository does not hold, or nothing points anywhere."""

    paths: tuple[str, ...]
    why: str = ""
    # The kind of the run's "not checked" note when there are no ``paths``
    # (``speclint.run.coverage.KINDS``): an archived overlay's is a record's, not a gap.
    coverage: str = "overlay-target"


def applied_to(corpus: Corpus, document: Document) -> Applied:
    """Where the rules check an overlay's actions. Its ``extends`` when it has one (Overlay
    1.0.0 §4.4.1): a corpus OpenAPI document, or none at all (a remote URL, a file the
    repository does not hold: not guessed at, since what the overlay edits is elsewhere). With
    no ``extends``, the inputs of the Speakeasy workflow sources that list it
    (:func:`_of_workflow`), else the OpenAPI document it fits best (:func:`_guessed`).
    None for an overlay in an archive or another folder of records (``in_record_folder``:
    seqeralabs/docs' ``overlays_archive/``): the record of an edit already applied, to a
    release of the document the repository no longer holds, so today's document is not
    what it was written for (issue 49: 17 labels false or noise). Unless the repository
    still holds the document of its release, by file name (``fixes-1.181.0.yaml`` beside
    ``api-1.181.0.yaml``, :func:`_of_own_release`): that is what it was written for."""
    data = document.data
    extends = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(extends, str):
        listed = _of_workflow(corpus, document)
        if listed is not None:
            return listed
    if in_record_folder(document.path):
        own = _of_own_release(corpus, document)
        if own:
            return Applied(own)
        return Applied(
            (),
            "it lies in an archive (a record of an edit already applied, to an earlier "
            "release of its document)",
            coverage="overlay-record",
        )
    if isinstance(extends, str):
        named = _local(document.path, extends)
        found = corpus.documents.get(named) if named is not None else None
        if found is not None and found.usable and found.kind is DocumentKind.OPENAPI:
            return Applied((found.path,))
        where = "a remote document" if named is None else "a file the repository does not hold"
        # Not guessed at: the repository may hold a copy (issue 45: ``speclint files`` names
        # the document its targets point into), but which version of it is not known.
        copies = list(_targets(corpus, document.path, {**data, "extends": None}, _apis(corpus)))
        held = (
            f" (the repository's {', '.join(copies)} may be a copy: not assumed)" if copies else ""
        )
        return Applied((), f"its `extends` ({extends}) names {where}{held}")
    if not isinstance(data, dict):
        return Applied((), "it has no `extends`, and its targets point into no OpenAPI document")
    memo = corpus.memo.setdefault("overlays:guessed", {})
    if document.path not in memo:
        memo[document.path] = _guessed(corpus, document)
    guessed: Applied = memo[document.path]
    return guessed


def _of_workflow(corpus: Corpus, document: Document) -> Applied | None:
    """Where Speakeasy's workflow applies an overlay (``speakeasy.overlay_sources``): the
    inputs of the sources that list it, when every one is a corpus OpenAPI document; several
    are merged by Speakeasy before its overlays apply, so a target is read as matching when it
    selects a node of any of them (as of several documents ``applied_to`` gives). Not checked
    when an input is no file of the repository (a URL, a registry): what the overlay edits is
    elsewhere, or merged with what is. None: no workflow lists it."""
    sources = overlay_sources(corpus).get(document.path)
    if not sources:
        return None
    first = sources[0]
    where = f"Speakeasy's workflow ({first.workflow}) applies it to source `{first.name}`"
    elsewhere = [location for source in sources for location in source.elsewhere]
    if elsewhere:
        remote = all(is_remote(location) for location in elsewhere)
        what = "a remote document" if remote else "a file the repository does not hold"
        merged = " (merged with the repository's)" if any(s.local for s in sources) else ""
        return Applied(
            (),
            f"it has no `extends`, and {where}, whose input is {what}{merged} "
            f"({', '.join(elsewhere)}): not checked",
        )
    inputs = list(dict.fromkeys(path for source in sources for path in source.local))
    held = [corpus.documents.get(path) for path in inputs]
    if not inputs or any(
        found is None or not found.usable or found.kind is not DocumentKind.OPENAPI
        for found in held
    ):
        return Applied(
            (),
            f"it has no `extends`, and {where}, whose input ({', '.join(inputs)}) is no "
            "OpenAPI document speclint reads: not checked",
        )
    return Applied(tuple(inputs))


def _of_own_release(corpus: Corpus, document: Document) -> tuple[str, ...]:
    """The document an overlay's file name names the release of (the first of a
    release-to-release overlay's), when the repository holds one named for it; else none."""
    span = _release_span(document.path)
    named = (span[0],) if span else _file_versions(document.path)
    if not named:
        return ()
    same = [api for api in _apis(corpus) if _same_version(named, _file_versions(api.path))]
    return _nearest(corpus, document, same)[0]


# A guessed document must match at least this share of an overlay's targets to be the one it
# applies to. Measured (issue 49, seqeralabs/docs: 81 overlays of eight API versions beside
# three documents): an overlay of a nearby version matches 76-100 % of its targets (most edit
# descriptions at stable paths), one of a version whose schemas were since renamed 0-50 %.
GUESS_COVERAGE = 0.5


def _guessed(corpus: Corpus, document: Document) -> Applied:
    """The document an overlay without ``extends`` applies to: one its targets' plain
    prefixes resolve deepest in. When its file name names a version (``fixes-1.109.0.yaml``),
    the document named for that version (``api-1.109.0.yaml``), taken as if ``extends`` named
    it; else one named for no version, never one named for another. A guessed document must
    match most of the overlay's targets (else the overlay is likely for another version of
    it: not checked), and is looked for nearest first (:func:`_nearest`); of several that tie,
    the one that most targets select a node of, then the one of the plainest name (shortest
    path, then first by path): one document, so a defect is reported once, not once per copy."""
    data = document.data
    # A document a build writes by applying this overlay (`bump overlay openapi.yaml
    # overlays.yaml > out/openapi.yaml` in package.json; the command is the evidence
    # ``downloads.build_outputs`` gives) is its output, never its input:
    # bump-sh-examples/train-travel-api, 8 labels false.
    outputs = {
        path
        for path, why in build_outputs(corpus).items()
        if document.path in why or f" {posixpath.basename(document.path)} " in f" {why} "
    }
    apis = [api for api in _apis(corpus) if api.path not in outputs] or _apis(corpus)
    span = _release_span(document.path)
    if span is not None:
        return _spanned(corpus, document, apis, *span)
    named = _file_versions(document.path)
    if named:
        # An overlay named for a version (`fixes-1.109.0.yaml`) is for the document of that
        # version (`api-1.109.0.yaml`), not for another one named for its own.
        same = [api for api in apis if _same_version(named, _file_versions(api.path))]
        unnamed = [api for api in apis if not _file_versions(api.path)]
        paths, _ = _nearest(corpus, document, same)
        if paths:
            # Named for one version both: no guess, as good as an `extends`.
            return Applied(paths)
        paths, coverage = _nearest(corpus, document, unnamed)
        if not paths:
            others = tuple(_targets(corpus, document.path, data, apis))
            if others:
                return Applied(
                    (),
                    f"it has no `extends`, its file name names version {', '.join(named)}, "
                    f"and the documents its targets point into are named for another "
                    f"({', '.join(others)}): not checked",
                )
        else:
            declared = _declared_version(corpus.documents[paths[0]].data)
            if declared is not None and not any(_same_release(v, declared) for v in named):
                # Archived overlays of older releases beside a document named for none, which
                # declares its release in `info.version` (OpenAPI 3.1 §4.8.2): the same
                # mismatch as two file names naming different versions.
                return Applied(
                    (),
                    f"it has no `extends`, its file name names version {', '.join(named)}, "
                    f"and the document its targets point into ({paths[0]}) declares "
                    f"`info.version: {declared}`: likely an overlay of another release of it, "
                    "not checked",
                )
    else:
        paths, coverage = _nearest(corpus, document, apis)
    if not paths:
        return Applied((), "it has no `extends`, and its targets point into no OpenAPI document")
    return _covered(paths, coverage)


def _covered(paths: tuple[str, ...], coverage: tuple[int, int]) -> Applied:
    """The guessed document, unless it matches fewer than :data:`GUESS_COVERAGE` of the
    overlay's targets."""
    matched, total = coverage
    if total and matched < GUESS_COVERAGE * total:
        return Applied(
            (),
            f"it has no `extends`, and no document of the repository matches most of its "
            f"targets ({matched} of {total} select a node of {', '.join(paths)}; it is "
            "likely for another version of it): not checked",
        )
    return Applied(paths)


def _nearest(
    corpus: Corpus, document: Document, candidates: list[Document]
) -> tuple[tuple[str, ...], tuple[int, int]]:
    """The one document of ``candidates`` an overlay fits best. The documents considered are,
    in the overlay's folder, in each folder above it and in the whole corpus, those its
    targets' plain prefixes resolve deepest in (:func:`_targets`); of these, the one on which
    most actions' targets select a node, each read as the earlier actions left the document
    (:func:`_fit`: as ``overlay-target-unmatched`` reads them), the nearest folder breaking
    a tie, then the plainest name (shortest path, then first by path: a copy is named for
    what it adds, `openapi-copy.yaml`). Never a document that is the overlay's output
    (:func:`_is_output`) when another fits most of its targets (:data:`GUESS_COVERAGE`):
    Dwolla/dwolla-openapi's `gram/overlay.yml` beside `gram/openapi.yml`, which it wrote from
    the root's `openapi.yml`, issue 49. With how many of its targets select a node of it, of
    how many."""
    data = document.data
    total = sum(1 for a in actions_of(data) if not isinstance(a.query, str))
    folder = posixpath.dirname(document.path)
    ancestors = []
    while True:
        ancestors.append(folder)
        if not folder:
            break
        folder = posixpath.dirname(folder)
    tiers = [[c for c in candidates if posixpath.dirname(c.path) == f] for f in ancestors]
    nearness: dict[str, int] = {}
    for index, tier in enumerate([*tiers, candidates]):
        for path in _targets(corpus, document.path, data, tier) if tier else ():
            nearness.setdefault(path, index)
    if not nearness:
        return (), (0, total)
    # One document considered is chosen whatever it is: neither its output nor its bound asked.
    outputs = (
        {path for path in nearness if _is_output(corpus, document, path)}
        if len(nearness) > 1
        else set()
    )
    chosen, matched = _best_fit(corpus, document, nearness, set(nearness) - outputs)
    if outputs and (chosen is None or (total and matched < GUESS_COVERAGE * total)):
        chosen, matched = _best_fit(corpus, document, nearness, set(nearness))
    assert chosen is not None  # nearness is not empty
    # Only the chosen document's overlaid copy is read again (by the rules): the others' go.
    memo: dict[tuple[str, str], Overlaid] = corpus.memo.setdefault("overlays:overlaid", {})
    for path in nearness:
        if path != chosen:
            memo.pop((document.path, path), None)
    return (chosen,), (matched, total)


def _best_fit(
    corpus: Corpus, overlay: Document, nearness: dict[str, int], among: set[str]
) -> tuple[str | None, int]:
    """The document of ``among`` with the best :func:`_fit` (then the nearest, the plainest
    name), and its fit. Cheap first: each target evaluated on the document as it is (memoised,
    ``selects``) bounds the fit from above (an earlier action may create what a later one
    selects, so a target that selects nothing as it is may once the earlier actions have
    applied), and a document is applied the overlay to only while its bound can still win."""
    if len(among) == 1:
        [path] = among
        return path, _fit(corpus, overlay, path)
    bounds = {path: _fit_bound(corpus, overlay, path) for path in among}

    def rank(path: str, fit: int) -> tuple[int, int, int, str]:
        return (-fit, nearness[path], len(path), path)

    best: tuple[int, int, int, str] | None = None
    for path in sorted(among, key=lambda p: rank(p, bounds[p])):
        if best is not None and rank(path, bounds[path]) > best:
            break  # no document after it can do better
        ranked = rank(path, _fit(corpus, overlay, path))
        if best is None or ranked < best:
            best = ranked
    if best is None:
        return None, 0
    return best[3], -best[0]


def _fit(corpus: Corpus, overlay: Document, path: str) -> int:
    """How many of an overlay's actions' targets select a node of the document ``path``, each
    at its turn (Overlay 1.0.0 §4.4.3: the actions apply in order)."""
    return sum(1 for _, places in overlaid(corpus, overlay, path).touched if places)


def _fit_bound(corpus: Corpus, overlay: Document, path: str) -> int:
    """At least :func:`_fit`: the targets that select a node of the document as it is, and
    each other one an earlier action may have made match: after an ``update`` or a ``copy``
    (which add members), or a filter after a ``remove`` (`?!@.deprecated` matches once a
    member is gone; a name, an index, a slice or a wildcard selects no node a removal adds)."""
    bound, adds, removes = 0, False, False
    for action in actions_of(overlay.data):
        query = action.query
        if not isinstance(query, str) and (
            adds or (removes and "?" in action.target) or selects(corpus, query, path)
        ):
            bound += 1
        adds = adds or (not action.remove and (action.updates or action.copy is not None))
        removes = removes or action.remove
    return bound


def _is_output(corpus: Corpus, overlay: Document, path: str) -> bool:
    """Whether the document ``path`` is what the overlay makes, not what it edits: every
    ``update`` already holds its values there (a no-op), and a ``remove``'s target selects
    nothing (what it removes is gone). Each target read on the document as it is."""
    memo: dict[tuple[str, str], bool] = corpus.memo.setdefault("overlays:output", {})
    key = (overlay.path, path)
    if key not in memo:
        data = corpus.documents[path].data
        read = [(a, a.query) for a in actions_of(overlay.data)]
        queried = [(a, q) for a, q in read if not isinstance(q, str)]
        updates = [(a, q) for a, q in queried if a.updates and not a.remove]
        # The removals first: cheaper (memoised), and most documents are no output.
        memo[key] = (
            bool(updates)
            and any(a.remove and not selects(corpus, q, path) for a, q in queried)
            and all(_already_held(data, q, a.update) for a, q in updates)
        )
    held: bool = memo[key]
    return held


def _already_held(data: Any, query: jsonpath_rfc9535.JSONPathQuery, update: Any) -> bool:
    """Whether ``query`` selects a node of ``data`` and each node it selects holds ``update``."""
    places = selected(query, data)
    return bool(places) and all(_holds_value(_at(data, p), update) for p in places)


def _holds_value(node: Any, update: Any) -> bool:
    """Whether ``node`` already holds what ``update`` merges into it (each member, at any
    depth; each item of an array update among the array's)."""
    if isinstance(node, dict) and isinstance(update, dict):
        return all(name in node and _holds_value(node[name], v) for name, v in update.items())
    if isinstance(node, list):
        items = update if isinstance(update, list) else [update]
        return all(any(_holds_value(n, item) for n in node) for item in items)
    return bool(node == update)


# A release as `info.version` spells it when it is plainly one (`1.140.0`, `v2.3`, `1.2.0-rc1`);
# anything else (`latest`, a date) is not compared.
_DECLARED_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?")


def _declared_version(data: Any) -> str | None:
    info = data.get("info") if isinstance(data, dict) else None
    version = info.get("version") if isinstance(info, dict) else None
    if isinstance(version, str) and _DECLARED_VERSION.fullmatch(version.strip()):
        return version.strip()
    return None


def _same_release(named: str, declared: str) -> bool:
    """Whether a file name's version and a declared one are the same release: the same major
    and minor (`1.88` names `1.88.2`; `1.88` is not `1.140.0`)."""
    first = _DECLARED_VERSION.fullmatch(named)
    second = _DECLARED_VERSION.fullmatch(declared)
    if first is None or second is None:
        return True  # not both plainly versions: not a mismatch
    return tuple(map(int, first.groups())) == tuple(map(int, second.groups()))


# An overlay named for two releases joined by `to` (`base-1.115.0-to-1.140.0-changes.yaml`,
# `from_1.2_to_1.3.yaml`) turns the first into the second: it applies to the first.
_RELEASE_SPAN = re.compile(
    r"(?<![0-9A-Za-z.])v?(\d+\.\d+(?:\.\d+)?)[-_]to[-_]v?(\d+\.\d+(?:\.\d+)?)(?![0-9A-Za-z]|\.\d)"
)


def _release_span(path: str) -> tuple[str, str] | None:
    """The two releases an overlay's file name says it turns one into the other, or None."""
    match = _RELEASE_SPAN.search(posixpath.basename(path))
    return (match.group(1), match.group(2)) if match else None


def _spanned(
    corpus: Corpus, document: Document, apis: list[Document], start: str, end: str
) -> Applied:
    """The document a release-to-release overlay applies to: the one of its first release,
    by its file name (`api-1.115.0.yaml`) or, named for none, its `info.version`. Never the
    one of its second: that is its output, against which every addition is a duplicate
    (seqeralabs/docs' `base-1.115.0-to-1.140.0-changes.yaml` beside `seqera-api-1.140.0.yaml`,
    issue 49)."""
    of_start = []
    for api in apis:
        named = _file_versions(api.path)
        declared = _declared_version(api.data)
        if named:
            if _same_version((start,), named):
                of_start.append(api)
        elif declared is not None and _same_release(start, declared):
            of_start.append(api)
    paths, coverage = _nearest(corpus, document, of_start)
    if not paths:
        return Applied(
            (),
            f"it has no `extends`, its file name says it turns release {start} into {end}, "
            f"and no document its targets point into is of release {start} (by its file name "
            "or its `info.version`): not checked",
        )
    return _covered(paths, coverage)


# A release version in a file name: `1.2`, `1.2.3`, `v1.2.3` (a bare `v2` or `-5` is too often
# something else in an overlay's name).
_FILE_VERSION = re.compile(r"(?<![0-9A-Za-z.])v?(\d+\.\d+(?:\.\d+)?)(?![0-9A-Za-z]|\.\d)")


def _file_versions(path: str) -> tuple[str, ...]:
    return tuple(_FILE_VERSION.findall(posixpath.basename(path)))


def _same_version(first: tuple[str, ...], second: tuple[str, ...]) -> bool:
    """Whether two names share a version (`1.85` is `1.85.0`)."""
    return any(names_version(a, b) or names_version(b, a) for a in first for b in second)


def _apis(corpus: Corpus) -> list[Document]:
    return [d for d in corpus.documents.values() if d.kind is DocumentKind.OPENAPI and d.usable]


def _local(path: str, extends: str) -> str | None:
    """The corpus path an ``extends`` names relative to the overlay's folder (Overlay 1.0.0
    §4.3: a relative reference is resolved against the overlay's URI), None for a URL."""
    if "://" in extends or extends.startswith("/"):
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), extends.split("#")[0]))


@dataclass(frozen=True)
class Action:
    """One action of an overlay: where it is written (``pointer``, ``/actions/2``) and what."""

    pointer: str
    target: str
    update: Any
    updates: bool  # has an `update` (which may be `null`)
    remove: bool
    # The target as RFC 9535 spells Speakeasy's legacy reading of it (``legacy_reading``), when
    # the overlay is read in that dialect and the target is no RFC 9535 JSONPath; else "".
    legacy: str = ""
    # Overlay 1.1: the JSONPath of the one node whose value is merged into the target's, as
    # an `update` is (1.1.0 §4.4.3 `copy`); None in a 1.0 overlay, which has no such action.
    copy: str | None = None
    release: str = "1.0"  # the Overlay release whose semantics apply (``schema_release``)

    @property
    def query(self) -> jsonpath_rfc9535.JSONPathQuery | str:
        """The target's query as the overlay's tools read it: RFC 9535, else (an overlay in
        Speakeasy's legacy dialect) its legacy reading; or why it is none (the RFC's error)."""
        query = compiled(self.target)
        if isinstance(query, str) and self.legacy:
            read = compiled(self.legacy)
            if not isinstance(read, str):
                return read
        return query


def actions_of(data: Any) -> list[Action]:
    """The actions of an overlay with a string ``target``, in order (the others are the
    schema's: ``overlay-invalid``)."""
    listed = data.get("actions") if isinstance(data, dict) else None
    legacy = legacy_dialect(data)
    release = schema_release(data) or "1.0"
    found = []
    for index, action in enumerate(listed if isinstance(listed, list) else ()):
        if isinstance(action, dict) and isinstance(action.get("target"), str):
            target = action["target"]
            found.append(
                Action(
                    f"/actions/{index}",
                    target,
                    action.get("update"),
                    "update" in action,
                    action.get("remove") is True,
                    legacy=(legacy_reading(target) or "")
                    if legacy and isinstance(compiled(target), str)
                    else "",
                    copy=action["copy"]
                    if release == "1.1" and isinstance(action.get("copy"), str)
                    else None,
                    release=release,
                )
            )
    return found


def legacy_dialect(data: Any) -> bool:
    """Whether Speakeasy reads the overlay's targets in its legacy JSONPath dialect (the
    vmware-labs yaml-jsonpath parser): its default for ``overlay: 1.0.x`` unless the overlay
    declares ``x-speakeasy-jsonpath: rfc9535`` at its root (speakeasy-api/openapi,
    ``overlay/jsonpath.go``). Overlay 1.0.0 §4.4.3 itself says a target is RFC 9535."""
    if not isinstance(data, dict) or schema_release(data) != "1.0":
        return False
    return data.get("x-speakeasy-jsonpath") != "rfc9535"


# A member-name shorthand RFC 9535 accepts (§2.5.1.1: letters, digits, `_`, not a digit first;
# non-ASCII too, left to the parser), or the wildcard.
_SHORTHAND = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\*")


def legacy_reading(target: str) -> str | None:
    """The RFC 9535 spelling of a target as Speakeasy's legacy dialect reads it, where that
    reading is obvious: a dot-separated member is everything up to the next ``.`` or ``[``
    (``$.paths./pets/{id}.get`` is ``$.paths['/pets/{id}'].get``, ``.x-internal`` is
    ``['x-internal']``); bracketed parts are kept as written. None when nothing changes (the
    dialect reads it no differently) or a bracket is left open."""
    if not target.startswith("$"):
        return None
    out, at, changed = ["$"], 1, False
    while at < len(target):
        char = target[at]
        if char == "[":
            end = _bracket_end(target, at)
            if end is None:
                return None
            out.append(target[at:end])
            at = end
        elif char == ".":
            dots = ".." if target.startswith("..", at) else "."
            at += len(dots)
            end = at
            while end < len(target) and target[end] not in ".[":
                end += 1
            name = target[at:end]
            if not name:
                if dots == ".." and end < len(target) and target[end] == "[":
                    out.append("..")  # `..[...]`: a descendant selection in brackets
                    continue
                return None
            if _SHORTHAND.fullmatch(name):
                out.append(dots + name)
            else:
                quoted = name.replace("\\", "\\\\").replace("'", "\\'")
                out.append(("..", "")[dots == "."] + f"['{quoted}']")
                changed = True
            at = end
        else:
            return None
    return "".join(out) if changed else None


def _bracket_end(text: str, at: int) -> int | None:
    """Where the bracket opened at ``at`` closes (just past it), quotes and nesting minded."""
    depth, quote, index = 0, "", at
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return None


@cache  # an overlay's targets are read by each rule and for each document guessed: once
def compiled(target: str) -> jsonpath_rfc9535.JSONPathQuery | str:
    """The JSONPath query of a target (RFC 9535), or why it is none (its syntax error)."""
    try:
        return jsonpath_rfc9535.compile(target)
    except jsonpath_rfc9535.JSONPathError as error:
        return str(error)
    except (RecursionError, ValueError) as error:  # nested past the parser's depth
        return f"cannot be read ({type(error).__name__})"


Step = tuple[str | int, ...]


def selected(query: jsonpath_rfc9535.JSONPathQuery, data: Any) -> list[Step]:
    """The locations of the nodes ``query`` selects in ``data`` (each a tuple of members and
    indexes from the root), in the order RFC 9535 gives them; none when evaluating it fails."""
    try:
        return [tuple(node.location) for node in query.finditer(data)]
    except (jsonpath_rfc9535.JSONPathError, RecursionError, TypeError, ValueError):
        return []


def selects(corpus: Corpus, query: jsonpath_rfc9535.JSONPathQuery, path: str) -> bool:
    """Whether ``query`` selects a node of the corpus document ``path``: evaluated once per run
    (the guess of an overlay's document and ``overlay-target-unmatched`` both ask)."""
    memo: dict[tuple[str, str], bool] = corpus.memo.setdefault("overlays:selects", {})
    key = (str(query), path)
    if key not in memo:
        memo[key] = bool(selected(query, corpus.documents[path].data))
    return memo[key]


def nearest(data: Any, target: str) -> tuple[str, str, Any, str | None]:
    """Where a target that selects nothing stops matching: the longest plain prefix of it that
    resolves (``$.paths``), its JSON pointer, the node there, and the member the target names
    next that the node lacks (None when the whole plain prefix resolves and a filter or
    wildcard after it selects nothing)."""
    node, at, pointer = data, "$", ""
    for member in _plain_members(target):
        if not isinstance(node, dict) or member not in node:
            return at, pointer, node, member
        node, pointer = node[member], join_pointer(pointer, member)
        at += f".{member}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", member) else f"[{member!r}]"
    return at, pointer, node, None


def near_names(missing: str, node: Any) -> list[str]:
    """The members of ``node`` closest to ``missing`` (a case-only miss first), at most three."""
    if not isinstance(node, dict):
        return []
    names = [str(name) for name in node]
    same_case = [name for name in names if name.lower() == missing.lower()]
    return same_case or difflib.get_close_matches(missing, names, n=3, cutoff=0.6)


def apply_action(data: Any, action: Action) -> Any:
    """``data`` after ``action`` (Overlay 1.0.0 §4.4.3), changed in place where it can be:
    ``remove: true`` removes each selected node from the object or array holding it;
    otherwise an ``update`` is merged into each selected object (recursively, members of the
    update replacing those of the same name that are not both objects) or appended to each
    selected array (an array update: its items, concatenated). A primitive node selected is left as it is (the specification allows only
    objects and arrays), and so is everything when the target is no JSONPath. In an overlay
    of 1.1 (1.1.0 §4.4.3), a `copy` merges the one node its JSONPath selects as an `update`
    would, an array member of an update is concatenated with the array it names, and a
    primitive node is replaced by a primitive update."""
    return applied_action(data, action)[0]


def applied_action(data: Any, action: Action) -> tuple[Any, list[Step]]:
    """``apply_action``, with the locations of the nodes the action selected (before it
    changed them): what ``overlay-breaks-document`` blames an error on."""
    query = action.query
    if isinstance(query, str):
        return data, []
    places = selected(query, data)
    if action.remove:
        # Removed deepest and last first, so that an array's later indexes stay right.
        for place in sorted(places, key=_removal_order, reverse=True):
            if not place:
                continue  # `$` itself: nothing holds it
            holder, last = _at(data, place[:-1]), place[-1]
            if _holds(holder, last):
                del holder[last]
        return data, places
    if action.updates:
        value = action.update
    elif action.copy is not None:
        # Overlay 1.1.0 §4.4.3: `copy` selects "a single node" whose value is merged as an
        # `update` is (an `update` beside it wins); selecting none or several, nothing is.
        source = compiled(action.copy)
        sources = selected(source, data) if not isinstance(source, str) else []
        if len(sources) != 1:
            return data, places
        value = copy.deepcopy(_at(data, sources[0]))
    else:
        return data, places
    # Overlay 1.1.0 §4.4.3: inside a merge, an array concatenated with an array, and a
    # primitive node replaced by a primitive; 1.0 says neither (an array member replaces).
    later = action.release != "1.0"
    for place in places:
        node = _at(data, place)
        if isinstance(node, dict) and isinstance(value, dict):
            _merge(node, value, concatenate=later)
        elif isinstance(node, list) and isinstance(value, list):
            # An array concatenated with an array (Overlay 1.1.0 §4.4.3 says so of 1.0's
            # "an entry to append"; Speakeasy's and overlays-js's tools did already):
            # appending it as one entry would nest it, which no tool does.
            node.extend(copy.deepcopy(value))
        elif isinstance(node, list):
            node.append(copy.deepcopy(value))
        elif later and place and not isinstance(value, (dict, list)):
            holder = _at(data, place[:-1])
            if _holds(holder, place[-1]):
                holder[place[-1]] = copy.deepcopy(value)
    return data, places


def _removal_order(place: Step) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Deepest first, then by index: members and indexes never compared with each other."""
    return len(place), tuple((s, "") if isinstance(s, int) else (-1, str(s)) for s in place)


def _at(data: Any, place: Step) -> Any:
    node = data
    for step in place:
        if not _holds(node, step):
            return None
        node = node[step]
    return node


def _holds(node: Any, step: str | int) -> bool:
    """Whether ``node`` has the member or the index ``step``."""
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)


def _merge(node: dict[Any, Any], update: dict[Any, Any], *, concatenate: bool) -> None:
    for name, value in update.items():
        if isinstance(node.get(name), dict) and isinstance(value, dict):
            _merge(node[name], value, concatenate=concatenate)
        elif concatenate and isinstance(node.get(name), list) and isinstance(value, list):
            node[name].extend(copy.deepcopy(value))
        else:
            node[name] = copy.deepcopy(value)


def step_pointer(place: Step) -> str:
    """A location as a JSON pointer."""
    pointer = ""
    for step in place:
        pointer = join_pointer(pointer, step)
    return pointer


# What `overlay-breaks-document` validates of an overlaid document: the parts an overlay changed
# and what they depend on, not the whole document (issue 49: an overlay of a large document that
# edits a few descriptions would otherwise cost a full validation each).

Unit = tuple[str, ...]


def _units(data: dict[Any, Any]) -> dict[Unit, Any]:
    """A document's parts that are validated on their own: each path item and webhook, each
    component, each other member of the root (OpenAPI 3.1 §4.8.1, §4.8.7)."""
    found: dict[Unit, Any] = {}
    for name, value in data.items():
        if name in ("paths", "webhooks") and isinstance(value, dict):
            for route, item in value.items():
                found[(str(name), str(route))] = item
        elif name == "components" and isinstance(value, dict):
            for kind, members in value.items():
                if isinstance(members, dict):
                    for member, item in members.items():
                        found[(str(name), str(kind), str(member))] = item
                else:
                    found[(str(name), str(kind))] = members
        else:
            found[(str(name),)] = value
    return found


class _Unscoped(Exception):
    """A reference a scope cannot follow (to another file, by `$id` or anchor)."""


def _depends(node: Any, units: dict[Unit, Any], found: set[Unit]) -> set[Unit]:
    """The units ``node`` points to: every string that is a local JSON pointer (a `$ref`, a
    discriminator's mapping, a link's `operationRef`: over-approximated, never missed)."""
    if isinstance(node, dict):
        for name, value in node.items():
            local = isinstance(value, str) and value.startswith("#/")
            if name in ("$ref", "$dynamicRef") and isinstance(value, str) and not local:
                raise _Unscoped(value)
            _depends(value, units, found)
    elif isinstance(node, list):
        for value in node:
            _depends(value, units, found)
    elif isinstance(node, str) and node.startswith("#/"):
        tokens = [
            t.replace("~1", "/").replace("~0", "~") for t in node[2:].split("#")[0].split("/")
        ]
        for size in (3, 2, 1):
            if tuple(tokens[:size]) in units:
                found.add(tuple(tokens[:size]))
                break
    return found


def _operation_ids(item: Any) -> set[str]:
    if not isinstance(item, dict):
        return set()
    return {
        str(op["operationId"])
        for op in item.values()
        if isinstance(op, dict) and isinstance(op.get("operationId"), str)
    }


# Past this share of the document's units, validating the whole document costs no more.
SCOPE_SHARE = 0.6


def validation_scope(before: Any, after: Any) -> frozenset[Unit] | None:
    """The units of a document whose validation an overlay can change (``before`` -> ``after``),
    or None: validate it whole. An error is placed at a unit and depends on the unit and what
    it references (`$ref`s, resolved by the validator): the units that changed, those that
    reference them (at any depth: a removed schema breaks its users' `$ref`s), every unit
    these reference (so that each resolves), and every path item declaring an operationId one
    of them declares (uniqueness, OpenAPI 3.1 §4.8.10, is the one check across path items).
    Whole when a reference leaves the document (a file, an `$id`, an anchor: what refers back
    into it is not known) or the scope is most of it."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return None
    old, new = _units(before), _units(after)
    every = {**old, **new}
    refs: dict[Unit, set[Unit]] = {}
    try:
        # Both versions' references: a unit's may differ before and after.
        for units in (old, new):
            for unit, value in units.items():
                refs[unit] = _depends(value, every, refs.get(unit, set()))
    except _Unscoped:
        return None
    changed = {unit for unit in every if old.get(unit, _MISSING) != new.get(unit, _MISSING)}
    scope = set(changed)
    referrers: dict[Unit, set[Unit]] = {}
    for unit, targets in refs.items():
        for target in targets:
            referrers.setdefault(target, set()).add(unit)
    todo = list(scope)
    while todo:
        for referrer in referrers.get(todo.pop(), ()):
            if referrer not in scope:
                scope.add(referrer)
                todo.append(referrer)
    ids = {i for unit in scope if unit[0] == "paths" for i in _operation_ids(old.get(unit))}
    ids |= {i for unit in scope if unit[0] == "paths" for i in _operation_ids(new.get(unit))}
    if ids:
        scope |= {u for u, item in every.items() if _operation_ids(item) & ids}
    todo = list(scope)
    while todo:
        for target in refs.get(todo.pop(), ()):
            if target not in scope:
                scope.add(target)
                todo.append(target)
    scope |= {unit for unit in every if len(unit) == 1}  # the root's own members
    if len(scope) > SCOPE_SHARE * len(every):
        return None
    return frozenset(scope)


_MISSING = object()


def pruned(data: dict[Any, Any], scope: frozenset[Unit]) -> dict[Any, Any]:
    """``data`` with only the units of ``scope``, each at its own place (so every pointer into
    what is kept is the same), the containers (`paths`, `components`) kept even when empty."""
    out: dict[Any, Any] = {}
    for name, value in data.items():
        if name in ("paths", "webhooks") and isinstance(value, dict):
            out[name] = {k: v for k, v in value.items() if (str(name), str(k)) in scope}
        elif name == "components" and isinstance(value, dict):
            kept: dict[Any, Any] = {}
            for kind, members in value.items():
                if isinstance(members, dict):
                    kept[kind] = {
                        k: v for k, v in members.items() if (str(name), str(kind), str(k)) in scope
                    }
                elif (str(name), str(kind)) in scope:
                    kept[kind] = members
            out[name] = kept
        else:
            out[name] = value
    return out


@dataclass
class Overlaid:
    """A document after an overlay's actions, with each action and the JSON pointers of the
    nodes it selected (before it changed them)."""

    data: Any
    touched: list[tuple[Action, list[str]]]


def overlaid(corpus: Corpus, overlay: Document, path: str) -> Overlaid:
    """The corpus document ``path`` after ``overlay``'s actions, applied once per run (memo)."""
    memo: dict[tuple[str, str], Overlaid] = corpus.memo.setdefault("overlays:overlaid", {})
    if (overlay.path, path) not in memo:
        final = copy.deepcopy(corpus.documents[path].data)
        touched: list[tuple[Action, list[str]]] = []
        for action in actions_of(overlay.data):
            final, places = applied_action(final, action)
            touched.append((action, [step_pointer(place) for place in places]))
        memo[(overlay.path, path)] = Overlaid(final, touched)
    return memo[(overlay.path, path)]


# An overlay assembled from others: the actions of several overlays of one document pasted into
# one (issue 49, seqeralabs/docs: `all-changes-overlay-<release>.yaml` is the `actions` of each
# `*-overlay-<release>.yaml` of that release; 12 unmatched targets were each reported twice).

ActionAt = tuple[str, str]  # an overlay's path and an action's pointer (``/actions/2``)


def _content(value: Any) -> Any:
    """A parsed value as a hashable whole, equal for equal data (a mapping's member order aside;
    ``1``, ``"1"`` and ``true`` kept apart)."""
    if isinstance(value, dict):
        return ("{", tuple(sorted((repr(k), _content(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("[", tuple(_content(v) for v in value))
    return repr(value)


def _action_contents(data: Any) -> dict[Any, str]:
    """An overlay's actions by what they do (target, `update`, `remove`, `copy`: the
    `description` aside), each to the pointer of the first action doing it."""
    listed = data.get("actions") if isinstance(data, dict) else None
    found: dict[Any, str] = {}
    for index, action in enumerate(listed if isinstance(listed, list) else ()):
        if not isinstance(action, dict) or not isinstance(action.get("target"), str):
            continue
        try:
            what = ["update" in action] + [action.get(k) for k in ("update", "remove", "copy")]
            content = (action["target"], _content(what))
        except RecursionError:  # nested past Python's depth: compared with nothing
            continue
        found.setdefault(content, f"/actions/{index}")
    return found


def assembled_copies(corpus: Corpus, overlays: list[Document]) -> dict[ActionAt, list[ActionAt]]:
    """Each action of an overlay assembled from others -> the equal actions of its parts,
    smallest part first. A part is another overlay applied to the same documents
    (:func:`applied_to`) whose every action (by what it does, :func:`_action_contents`) the
    assembled one has, and which has fewer: the assembled one repeats what the part does.
    Found by each action's content, hashed, not by comparing overlays pairwise."""
    contents: dict[str, dict[Any, str]] = {}
    holders: dict[tuple[tuple[str, ...], Any], list[str]] = {}
    for overlay in overlays:
        paths = applied_to(corpus, overlay).paths
        own = _action_contents(overlay.data)
        if not paths or not own:
            continue
        contents[overlay.path] = own
        for content in own:
            holders.setdefault((paths, content), []).append(overlay.path)
    copies: dict[ActionAt, list[ActionAt]] = {}
    for part, own in sorted(contents.items(), key=lambda item: (len(item[1]), item[0])):
        paths = applied_to(corpus, corpus.documents[part]).paths
        # The overlays holding the part's rarest action are the only ones that can hold all.
        rarest = min(own, key=lambda content: len(holders[(paths, content)]))
        for whole in holders[(paths, rarest)]:
            assembled = contents[whole]
            if len(assembled) <= len(own) or any(c not in assembled for c in own):
                continue
            for content, pointer in own.items():
                copies.setdefault((whole, assembled[content]), []).append((part, pointer))
    return copies


def reported_once(findings: list[Finding], copies: dict[ActionAt, list[ActionAt]]) -> list[Finding]:
    """``findings`` with each one on an action of an assembled overlay (its ``key`` the action's
    pointer, a colon, and what is wrong) left out where a part's equal action has the same one:
    that finding, at the smallest part holding it, names the assembled overlay's as related."""
    by_place: dict[tuple[str, str, str], Finding] = {}
    for finding in findings:
        pointer, _, kind = (finding.key or "").partition(":")
        if re.fullmatch(r"/actions/\d+", pointer):
            by_place[(finding.location.path, pointer, kind)] = finding

    def home(place: tuple[str, str, str]) -> tuple[str, str, str]:
        # A part's action may itself be a copy of a smaller part's (nested assemblies).
        for part, pointer in copies.get(place[:2], ()):
            if (part, pointer, place[2]) in by_place:
                return home((part, pointer, place[2]))
        return place

    repeated: dict[tuple[str, str, str], list[Finding]] = {}
    for place, finding in by_place.items():
        kept = home(place)
        if kept != place:
            repeated.setdefault(kept, []).append(finding)
    gone = {id(f) for twins in repeated.values() for f in twins}
    out = []
    for finding in findings:
        if id(finding) in gone:
            continue
        pointer, _, kind = (finding.key or "").partition(":")
        twins = repeated.get((finding.location.path, pointer, kind))
        if twins:
            also = tuple(
                replace(
                    twin.location,
                    note=f"also in {twin.location.path}, assembled from this overlay's actions",
                )
                for twin in sorted(twins, key=lambda f: (f.location.path, f.location.line))
            )
            finding = replace(finding, related=finding.related + also)
        out.append(finding)
    return out
