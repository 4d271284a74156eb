"""A JSON Schema that is not valid against the metaschema of its declared ``$schema``.

What it does
    Validates every schema document against the metaschema its ``$schema`` names (2020-12, 2019-09,
    draft-07, draft-06 or draft-04; 2020-12 when ``$schema`` is absent), using jsonschema's official
    metaschemas, offline. Each violation is reported at the JSON pointer of the offending keyword. A
    ``$schema`` that names no known dialect is reported too. An embedded resource that declares
    its own ``$schema`` (a draft-04 metaschema bundled into a draft-07 schema) is judged by its
    own dialect only; a generated bundle (``speclint.lineage``) is judged at its sources.

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

import json
from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import validators
from jsonschema.protocols import Validator

from speclint.corpus import Corpus, Document
from speclint.findings import Finding, Severity
from speclint.kinds import DocumentKind
from speclint.references import DATA_KEYWORDS
from speclint.structured import join_pointer, split_pointer
from speclint.units import check_by_unit
from speclint.validation import accepted_fast, located_errors, metaschema_registry

ID = "schema-invalid"
SEVERITY = Severity.ERROR
# One schema at a time (speclint.units): an edit re-judges that schema alone.
READS = "document"
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def units(corpus: Corpus) -> list[Document]:
    """Each schema file, but a generated bundle's (judged at its sources)."""
    return [d for d in corpus.of_kind(DocumentKind.SCHEMA) if d.path not in corpus.derived]


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Corpus, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    return list(_judged(document))


def _judged(document: Document) -> Iterator[Finding]:
    registry = metaschema_registry()
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
    # Each embedded resource that declares its own `$schema` (a draft-04 metaschema bundled
    # into a draft-07 schema) is judged by its own dialect, and only by it (JSON Schema Core
    # 2020-12 §8.1.1; draft-07 Core §7): the enclosing dialect sees an empty schema there.
    embedded = _embedded_resources(schema)
    parts = [("", dialect, cls, _without(schema, [p for p, _ in embedded]))]
    for at, node in embedded:
        own = _validator_class(str(node["$schema"]))
        if own is not None:
            parts.append((at, str(node["$schema"]), own, node))
    for at, declared, judge, part in parts:
        if accepted_fast(judge, part):
            continue
        validator: Validator = judge(judge.META_SCHEMA, registry=registry)
        for inner, message in located_errors(validator, part):
            pointer = at + inner
            yield Finding(
                ID,
                SEVERITY,
                f"{pointer or '/'}: {message}; the schema is invalid against its metaschema "
                f"({declared}), so validators may ignore or reject it: fix the keyword",
                document.location(pointer),
                key=f"{pointer}:{message}",
            )


def _embedded_resources(schema: Any) -> list[tuple[str, dict[str, Any]]]:
    """(pointer, node) of each subschema below the root that declares its own ``$schema``; the
    outermost one of a nest (its own inner ones are its business)."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[Any, str]] = [(schema, "")]
    while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
        node, pointer = stack.pop()
        if isinstance(node, dict):
            if pointer and isinstance(node.get("$schema"), str):
                found.append((pointer, node))
                continue
            for key, child in node.items():
                if key not in DATA_KEYWORDS and isinstance(child, (dict, list)):
                    stack.append((child, join_pointer(pointer, key)))
        elif isinstance(node, list):
            stack.extend(
                (child, join_pointer(pointer, index))
                for index, child in enumerate(node)
                if isinstance(child, (dict, list))
            )
    return sorted(found, key=lambda item: item[0])


def _without(schema: Any, pointers: list[str]) -> Any:
    """The schema with the subschemas at ``pointers`` replaced by ``true`` (a copy)."""
    if not pointers:
        return schema
    copy = json.loads(json.dumps(schema))
    for pointer in pointers:
        tokens = split_pointer(pointer)
        holder = copy
        for token in tokens[:-1]:
            holder = holder[int(token)] if isinstance(holder, list) else holder[token]
        last = tokens[-1]
        if isinstance(holder, list):
            holder[int(last)] = True
        else:
            holder[last] = True
    return copy


def _validator_class(dialect: str) -> Any:
    known = validators._META_SCHEMAS  # jsonschema's own map of dialect URI -> validator
    for candidate in (dialect, dialect.rstrip("#"), dialect.rstrip("#") + "#"):
        if candidate in known:
            return known[candidate]
    return None
