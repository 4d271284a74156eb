"""An OpenAPI operation tagged with a name the document's ``tags`` list does not declare.

What it does
    In an OpenAPI document that declares its tags (a top-level ``tags`` list), reports each
    operation tag (in ``paths`` and ``webhooks``) that is not one of them, at the tag, with the
    declared list as related location and the closest declared name when there is one. A
    document that declares no tags states no convention and is not checked. (A repeated
    declared tag, and a repeated ``operationId``, are ``openapi-invalid``'s: the OpenAPI
    specification forbids them.)

Why is this bad?
    OpenAPI allows undeclared tags (3.1 §4.8.10: "tags that are not declared MAY be organized
    randomly or based on the tools' logic"), but in a document that declares them an undeclared
    tag is almost always a typo or a rename left half done: documentation renderers show the
    operation under a group of its own, without the declared group's description, and SDK
    generators that split clients by tag make a new class for it.

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
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Severity
from speclint.kinds import DocumentKind
from speclint.roles import HTTP_METHODS
from speclint.structured import join_pointer

ID = "undeclared-tag"
SEVERITY = Severity.WARNING
READS = "structured"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        data = document.data if isinstance(document.data, dict) else {}
        declared_list = data.get("tags")
        if not isinstance(declared_list, list) or not declared_list:
            continue
        declared = [t["name"] for t in declared_list if isinstance(t, dict) and "name" in t]
        names = {str(n) for n in declared}
        for pointer, label, tags in _operation_tags(data):
            for index, tag in enumerate(tags):
                if not isinstance(tag, str) or tag in names:
                    continue
                close = difflib.get_close_matches(tag, sorted(names), n=1, cutoff=0.6)
                hint = f" (did you mean `{close[0]}`?)" if close else ""
                yield Finding(
                    ID,
                    SEVERITY,
                    f"operation {label} is tagged `{tag}`, which `tags` does not declare{hint}: "
                    "use a declared tag, or declare it (with a description) in `tags`",
                    document.location(join_pointer(join_pointer(pointer, "tags"), index)),
                    related=(document.location("/tags", note="the declared tags"),),
                    key=f"{pointer}:{tag}",
                )


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
