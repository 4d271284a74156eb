"""An OpenAPI operation tagged with a name the document's ``tags`` list does not declare.

What it does
    In an OpenAPI document that declares its tags (a top-level ``tags`` list), reports each
    operation tag (in ``paths`` and ``webhooks``) that looks like a misspelling of a declared
    one (the same but for letter case, or a few edits away on a tag only one operation
    carries or of a declared tag no operation carries: a rename half done) as a warning at the
    tag, with the declared list as related location. The other undeclared tags are one
    ``info`` notice per document, their uses related, where most declared tags carry a
    ``description`` (what an undeclared tag loses). A document that declares no tags states
    no convention and is not checked.

Why is this bad?
    OpenAPI allows undeclared tags (3.1 §4.8.10: "tags that are not declared MAY be organized
    randomly or based on the tools' logic"), but a tag one letter away from a declared one is a
    typo or a rename left half done: documentation renderers show the operation under a group
    of its own, without the declared group's description, and SDK generators that split
    clients by tag make a new class for it.

Example
    ::

        tags:
          - name: runs
        paths:
          /v1/runs:
            get:
              tags: [run]

    FAIL: ``warning [undeclared-tag] operation GET /v1/runs is tagged `run`, which `tags` does
    not declare (did you mean `runs`?) ...``

Use instead
    ::

              tags: [runs]

    PASS.

Options
    None.

Limitations
    A repeated declared tag is ``openapi-invalid``'s (the specification forbids it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.roles import HTTP_METHODS
from speclint.common.findings import Finding, Severity, first_fitting
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "undeclared-tag"
SEVERITY = Severity.WARNING
READS = "structured"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        data = document.data if isinstance(document.data, dict) else {}
        declared_list = data.get("tags")
        if not isinstance(declared_list, list) or not declared_list:
            continue
        declared = [t["name"] for t in declared_list if isinstance(t, dict) and "name" in t]
        names = sorted({str(n) for n in declared})
        uses: dict[str, list[tuple[str, str, str]]] = {}  # tag -> (operation, label, at)
        carried: set[str] = set()  # the declared tags some operation carries
        for pointer, label, tags in _operation_tags(data):
            for index, tag in enumerate(tags):
                if isinstance(tag, str) and tag in names:
                    carried.add(tag)
                elif isinstance(tag, str):
                    at = join_pointer(join_pointer(pointer, "tags"), index)
                    uses.setdefault(tag, []).append((pointer, label, at))
        undeclared: dict[str, list[str]] = {}  # tag -> pointers of its uses, in document order
        for tag, sites in uses.items():
            orphans = [n for n in names if n not in carried]
            meant = _typo_of(tag, names, len(sites), orphans)
            if meant is None:
                undeclared[tag] = [at for _, _, at in sites]
                continue
            for pointer, label, at in sites:
                yield Finding(
                    ID,
                    SEVERITY,
                    f"operation {label} is tagged `{tag}`, which `tags` does not declare (did "
                    f"you mean `{meant}`?): use the declared tag, or declare it (with a "
                    "description) in `tags`",
                    document.location(at),
                    related=(document.location("/tags", note="the declared tags"),),
                    key=f"{pointer}:{tag}",
                )
        # The notice is about the group description a reader misses: where the declared tags
        # carry none (a generator listing bare names), declaring one more adds nothing.
        described = sum(
            1
            for t in declared_list
            if isinstance(t, dict) and str(t.get("description", "")).strip()
        )
        if undeclared and described * 2 >= len(declared_list):
            yield _undeclared_notice(document, undeclared)


def _undeclared_notice(document: Document, undeclared: dict[str, list[str]]) -> Finding:
    tags = sorted(undeclared)
    uses = [p for tag in tags for p in undeclared[tag]]
    listed = ", ".join(f"`{t}`" for t in tags)
    fix = "declare each one meant as a group (with a description) in `tags`"
    subject = f"{len(tags)} operation tag{'s' if len(tags) > 1 else ''}"
    verb = "are" if len(tags) > 1 else "is"
    candidates = (
        f"{subject} ({listed}) {verb} not declared in `tags`: renderers group their operations without "
        f"a description; {fix}",
        f"{subject} {verb} not declared in `tags` (listed as related locations): renderers group "
        f"their operations without a description; {fix}",
    )
    return Finding(
        ID,
        Severity.INFO,
        first_fitting(*candidates),
        document.location(uses[0]),
        related=tuple(
            document.location(p, note=f"tagged `{tag}`")
            for tag in tags
            for p in undeclared[tag]
            if p != uses[0]
        ),
        key="undeclared",
    )


def _typo_of(tag: str, names: list[str], used: int, orphans: list[str]) -> str | None:
    """The declared name ``tag`` is likely a misspelling of: the same but for letter case, or
    within two edits (one for a name under five letters) of a declared name, for a tag only one
    operation carries, or for any tag when that declared name is carried by no operation at all
    (``OrganizationAccounts`` on the operations of a declared ``OrganizationAccount`` nobody
    uses: a rename half done). A tag further from every declared name, or several operations
    share beside a declared name in use, is a group of its own the document did not describe
    (OpenAPI allows that)."""
    for name in names:
        if name.lower() == tag.lower():
            return name
    candidates = names if used == 1 else orphans
    allowed = 1 if len(tag) < 5 else 2
    close = [(_distance(tag.lower(), n.lower()), n) for n in candidates]
    best = min(close, default=None)
    return best[1] if best is not None and best[0] <= allowed else None


def _distance(a: str, b: str) -> int:
    """Optimal-string-alignment edit distance (a swap of neighbours is one edit)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, right in enumerate(b, 1):
            cost = 0 if left == right else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and left == b[j - 2] and a[i - 2] == right:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[len(b)]


def _operation_tags(data: dict[str, Any]) -> Iterator[tuple[str, str, list[Any]]]:
    for container in ("paths", "webhooks"):
        items = data.get(container)
        for route, item in items.items() if isinstance(items, dict) else ():
            if not isinstance(item, dict):
                continue
            for method in HTTP_METHODS:
                operation = item.get(method)
                tags = operation.get("tags") if isinstance(operation, dict) else None
                if isinstance(tags, list):
                    at = join_pointer(join_pointer(f"/{container}", str(route)), method)
                    yield at, f"{method.upper()} {route}", tags
