"""An OpenAPI 3.0 component name outside the characters OpenAPI allows in component keys.

What it does
    Reports each key of an OpenAPI 3.0 document's ``components`` maps (``schemas``,
    ``responses``, ``parameters``, ``examples``, ``requestBodies``, ``headers``,
    ``securitySchemes``, ``links``, ``callbacks``) that does not match
    ``^[a-zA-Z0-9\\.\\-_]+$``, at the key. A document that is a piece a merge step of the
    repository's own assembles (``speclint files`` says so) is not judged here: its merger
    rewrites such keys, and the assembled document is the API.

Why is this bad?
    "All the fixed fields declared above are objects that MUST use keys that match the regular
    expression: ``^[a-zA-Z0-9\\.\\-_]+$``" (OpenAPI 3.0.4 §4.7.7.1). A key with a space, ``:``,
    ``@`` or ``/`` needs escaping in every ``$ref`` that names it, and generators that turn
    component names into identifiers or file names reject or mangle it.

Example
    ::

        openapi: 3.0.3
        components:
          schemas:
            Run Status: {type: string}

    FAIL: ``error [component-name-invalid] component name `Run Status` in
    `components/schemas`: OpenAPI forbids ' ' in component keys ...`` (one finding per map, every bad
    key of it related).

Use instead
    ::

            RunStatus: {type: string}

    PASS.

Options
    None.

Limitations
    OpenAPI 3.1 and 3.2 are ``openapi-invalid``'s (their official schemas hold the pattern, as
    ``propertyNames``); the 3.0 schema does not, hence this rule. Swagger 2.0 sets no pattern
    for ``definitions`` keys.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.api.api_schemas import family
from speclint.analyses.api.components import OPENAPI_30_COMPONENTS
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "component-name-invalid"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("merges",)

# OpenAPI 3.0.4 §4.7.7.1: the Components Object's fixed fields and their keys' pattern.
_FIELDS = OPENAPI_30_COMPONENTS
_KEY = re.compile(r"[a-zA-Z0-9.\-_]+")
_LISTED = 5
_RELATED = 20


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    built = corpus.merges.built
    for document in sorted(corpus.of_kind(DocumentKind.OPENAPI), key=lambda d: d.path):
        if family(document) != "3.0" or document.path in built:
            continue
        components = document.data.get("components") if isinstance(document.data, dict) else None
        if not isinstance(components, dict):
            continue
        for name in _FIELDS:
            members = components.get(name)
            if not isinstance(members, dict) or isinstance(members.get("$ref"), str):
                continue  # a map kept in another file (a bundler's `$ref`): its keys are there
            bad = [str(k) for k in members if not _KEY.fullmatch(str(k))]
            if bad:
                yield _finding(document, name, bad)


def _finding(document: Document, name: str, bad: list[str]) -> Finding:
    """One finding per components map, at its first bad key, the others related: a naming
    convention (`::` in every key) is one decision, not one defect a key."""
    at = f"/components/{name}"
    chars = "".join(sorted({c for key in bad for c in key if not _KEY.fullmatch(c)}))
    shown = ", ".join(f"`{key}`" for key in bad[:_LISTED])
    more = f" and {len(bad) - _LISTED} more" if len(bad) > _LISTED else ""
    what = (
        f"component name {shown}"
        if len(bad) == 1
        else f"{len(bad)} component names ({shown}{more})"
    )
    return Finding(
        ID,
        SEVERITY,
        f"{what} in `components/{name}`: OpenAPI forbids {chars!r} in component keys, which "
        "MUST match `^[a-zA-Z0-9.\\-_]+$` (OpenAPI 3.0.4 §4.7.7.1); rename "
        "them (letters, digits, `.`, `-`, `_`) and the `$ref`s that name them",
        document.location(join_pointer(at, bad[0])),
        related=tuple(document.location(join_pointer(at, key)) for key in bad[1:_RELATED]),
        key=f"name:{name}",
    )
