"""The same key twice in one JSON object or YAML mapping.

What it does
    Reports each repeated key, at the repetition, with the first occurrence as a related location.
    A YAML merge key (``<<: *base``) is not a key: what it merges in is overridden by the keys the
    mapping writes, as YAML 1.1 defines it, and a second ``<<`` merges too.

Why is this bad?
    JSON (RFC 8259 §4) says names SHOULD be unique and leaves duplicates undefined; YAML 1.2 forbids
    them. Real parsers silently keep one of the values (usually the last), so the author's first
    value is lost without a word, and two tools may keep different ones. A key repeated with
    the same value loses nothing: it is a warning, not an error.

Example
    ::

        properties:
          status:
            type: string
          status:
            enum: [running, done]

    FAIL: ``api/openapi.yaml:4:3: error [duplicate-key] key `status` appears twice ...``

Use instead
    ::

        properties:
          status:
            type: string
            enum: [running, done]

    PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.structured import split_pointer

ID = "duplicate-key"
SEVERITY = Severity.ERROR
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document in corpus.documents.values():
        for duplicate in document.duplicates:
            tokens = split_pointer(duplicate.pointer)
            key = tokens[-1] if tokens else ""
            parent = duplicate.pointer[: -len(key) - 1] if tokens else ""
            first_line, first_column = duplicate.first
            # The same value twice loses nothing whichever one a parser keeps: a slip to tidy,
            # not a value lost (open-rpc/examples' `tsconfig.json`, issue 45).
            yield Finding(
                ID,
                Severity.WARNING if duplicate.same else SEVERITY,
                (
                    f"key `{key}` appears twice in `{parent or '/'}` with the same value (first "
                    f"at line {first_line}): remove the repetition"
                    if duplicate.same
                    else f"key `{key}` appears twice in `{parent or '/'}` (first at line "
                    f"{first_line}); parsers keep only one of the values: merge the two entries "
                    "into one"
                ),
                Location(
                    document.path, duplicate.again[0], duplicate.again[1], pointer=duplicate.pointer
                ),
                related=(
                    Location(
                        document.path,
                        first_line,
                        first_column,
                        pointer=duplicate.pointer,
                        note="first occurrence",
                    ),
                ),
                key=f"{duplicate.pointer}@{duplicate.again[0] - duplicate.first[0]}",
            )
