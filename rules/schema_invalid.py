"""A JSON Schema that is not valid against the metaschema of its declared ``$schema``.

What it does
    Validates every schema document against the metaschema its ``$schema`` names (2020-12, 2019-09,
    draft-07, draft-06 or draft-04; 2020-12 when ``$schema`` is absent), using jsonschema's official
    metaschemas, offline. Each violation is reported at the JSON pointer of the offending keyword. A
    ``$schema`` that names no known dialect is reported too.

Why is this bad?
    Validators disagree about invalid schemas: some reject them, some ignore the bad keyword, some
    guess. ``"required": "id"`` (a string, not an array) is silently ignored by lenient validators,
    so the field the author meant to require is optional everywhere.

Example
    ::

        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "type": "object",
          "required": "runId"
        }

    FAIL: ``error [schema-invalid] /required: 'runId' is not of type 'array' (keyword `type`)``

Use instead
    ::

        { "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
          "required": ["runId"] }

    PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import validators
from jsonschema.protocols import Validator

from speclint.corpus import Corpus
from speclint.findings import Finding, Severity
from speclint.kinds import DocumentKind
from speclint.validation import located_errors, metaschema_registry

ID = "schema-invalid"
SEVERITY = Severity.ERROR
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    registry = metaschema_registry()
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        schema = document.data
        dialect = (
            schema.get("$schema", DEFAULT_DIALECT) if isinstance(schema, dict) else DEFAULT_DIALECT
        )
        cls = _validator_class(str(dialect))
        if cls is None:
            yield Finding(
                ID,
                SEVERITY,
                f"`$schema` names an unknown dialect {dialect!r}; use a JSON Schema metaschema URI "
                f"such as {DEFAULT_DIALECT!r} (checked as 2020-12 meanwhile)",
                document.location("/$schema"),
                key="unknown-dialect",
            )
            cls = validators.validator_for({"$schema": DEFAULT_DIALECT})
        validator: Validator = cls(cls.META_SCHEMA, registry=registry)
        for pointer, message in located_errors(validator, schema):
            yield Finding(
                ID,
                SEVERITY,
                f"{pointer or '/'}: {message}; the schema is invalid against its metaschema "
                f"({dialect}), so validators may ignore or reject it: fix the keyword",
                document.location(pointer),
                key=f"{pointer}:{message}",
            )


def _validator_class(dialect: str) -> Any:
    known = validators._META_SCHEMAS  # jsonschema's own map of dialect URI -> validator
    for candidate in (dialect, dialect.rstrip("#"), dialect.rstrip("#") + "#"):
        if candidate in known:
            return known[candidate]
    return None
