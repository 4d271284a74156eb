"""A schema ``pattern`` that ECMA-262's unicode mode refuses, though another engine reads it.

What it does
    Reads every ``pattern`` and every ``patternProperties`` key of every schema object (schema
    files; OpenAPI and AsyncAPI Schema Objects) as ECMA-262 in unicode mode (the ``u`` flag,
    through `regress`), and reports each one refused there that Python's ``re`` or ECMA-262
    without the flag reads: ``\\-`` or ``\\#`` outside a character class, ``\\#`` inside one, a
    lone ``]``, ``{`` or ``}``, ``\\Z``, inline flags ``(?i)``, ``(?P<name>...)``. It names the
    construct and, where every such construct has one, gives the pattern spelt so that it means
    the same in Python and in ECMA-262.

Why is this bad?
    A pattern "SHOULD be a valid regular expression, according to the ECMA-262 regular
    expression dialect" (2020-12 Validation §6.3.3, Core §6.4; OpenAPI 3.0 §4.7.24). ajv
    compiles patterns with the ``u`` flag by default (``unicodeRegExp: true``) and
    check-jsonschema's ``--check-metaschema`` does too, so the whole schema fails to compile
    there, while Python validators accept it: a schema that works in one ecosystem only.

Example
    ::

        {"type": "string", "pattern": "^[a-z]+\\-[0-9]+$"}

    FAIL: ``warning [pattern-portability] pattern "^[a-z]+\\-[0-9]+$" is not portable ECMA-262:
    `\\-` outside a character class is no ECMA-262 escape in unicode mode ...; write
    "^[a-z]+-[0-9]+$", which means the same in Python and ECMA-262``

Use instead
    ::

        {"type": "string", "pattern": "^[a-z]+-[0-9]+$"}

    PASS.

Options
    None.

Limitations
    A pattern no engine reads (``^a(b$``) is not reported here: it is the error of the rule
    that judges the schema (``schema-invalid``, ``asyncapi-invalid``, ``openapi-invalid``). In
    an OpenAPI 3 document so is one no ECMA-262 engine reads (``(?i)x``): ``openapi-invalid``
    checks ``format: regex`` without the ``u`` flag. A pattern valid in unicode mode but not in Python (``\\p{L}``) is
    portable ECMA-262 and not reported. Only the first construct is named.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import schema_patterns, schema_roots
from speclint.common.findings import Finding, Severity, headed
from speclint.model.corpus import Document
from speclint.parsing.ecma_patterns import Unportable, portability
from speclint.parsing.kinds import DocumentKind

ID = "pattern-portability"
SEVERITY = Severity.WARNING
FACTS = ("derived",)

_JUDGED = (DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for kind in _JUDGED:
        for document in sorted(corpus.of_kind(kind), key=lambda d: d.path):
            if kind is DocumentKind.SCHEMA and document.path in corpus.derived:
                continue  # a generated bundle is judged at its sources (as schema-invalid)
            yield from _judged(document)


def _judged(document: Document) -> Iterator[Finding]:
    # openapi-invalid checks an OpenAPI 3 Schema Object's `format: regex` patterns with
    # openapi-schema-validator, which compiles them with `regress` without the `u` flag: a
    # pattern no ECMA-262 engine reads is its finding there.
    legacy_judged = document.kind is DocumentKind.OPENAPI and _openapi3(document)
    seen: set[str] = set()
    for root, schema in schema_roots(document):
        for pointer, pattern in schema_patterns(schema, root):
            if not isinstance(pattern, str) or pointer in seen:
                continue
            seen.add(pointer)
            found = portability(pattern)
            if found is None or (legacy_judged and not found.legacy):
                continue
            yield Finding(
                ID, SEVERITY, _message(pattern, found), document.location(pointer), key=pointer
            )


def _openapi3(document: Document) -> bool:
    data = document.data if isinstance(document.data, dict) else {}
    return str(data.get("openapi", "")).startswith("3")


def _message(pattern: str, found: Unportable) -> str:
    shown = json.dumps(pattern if len(pattern) <= 60 else pattern[:57] + "...")
    why = found.why or "ECMA-262's unicode mode refuses it"
    if found.python and found.legacy:
        what = f"{why}: ajv (by default) and check-jsonschema compile with the `u` flag and refuse the schema"
    elif found.python:
        what = f"{why}, read by no ECMA-262 engine: JavaScript validators refuse the schema"
    else:
        what = (
            f"{why}; only ECMA-262 without the `u` flag (Annex B) reads it: Python, ajv (by "
            "default) and check-jsonschema refuse it"
        )
    same = "in Python and ECMA-262" if found.python else "in ECMA-262 with or without `u`"
    if found.portable is not None and len(found.portable) <= 100:
        fix = f"write {json.dumps(found.portable)} (the same {same})"
    elif found.portable is not None:  # a long pattern: the construct's fix, not the whole text
        others = f", and alike for the {found.count - 1} others" if found.count > 1 else ""
        fix = f"{found.fix}{others} (the same {same})"
    elif found.fix:
        fix = found.fix
    else:
        fix = "write it in ECMA-262's unicode syntax (2020-12 Validation §6.3.3)"
    return headed(f"pattern {shown} is not portable ECMA-262", f": {what}; {fix}")
