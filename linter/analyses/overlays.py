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

Limits: a target's filters and wildcards are not evaluated (only its plain prefix is followed);
findings are not yet matched to the nodes an action replaces.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from typing import Any

from speclint.model.corpus import Corpus
from speclint.parsing.kinds import DocumentKind

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
    paths = [
        members
        for action in data["actions"]
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
