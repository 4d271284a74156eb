"""A field the prose documents as part of a shape that the (closed) schema of that shape rejects.

What it does
    Reads dotted field paths in code spans of the prose (`` `limits.maxRequestBodyBytes` ``,
    `` `capabilities.grpc.service` ``, `` `nodes[].typeId` ``) and binds each to a schema:

    - when the first segment names a schema file of the corpus (``capabilities`` for
      ``capabilities.schema.json``, or its root ``title``), the rest of the path is inside it;
    - otherwise, when the page links or names a schema whose root declares the first segment as a
      property, the whole path is inside that schema.

    It then builds the smallest instance that carries the field (``{"limits":
    {"maxRequestBodyBytes": null}}``) and runs the real validator (the schema's own draft,
    ``$ref``\\s resolved through the corpus). The field is reported when the validator rejects it
    by name: an ``additionalProperties: false`` or ``unevaluatedProperties: false`` on the way
    says the documented field cannot be sent. Errors about the placeholder value or missing
    siblings are not the field's fault and are ignored. A path that binds to no schema is left
    alone (``run.started`` is an event type, not a field). A path that names its schema is an
    error; one read relative to a schema the page cites is inferred, and a warning.

Why is this bad?
    RFC 0094 §H: capabilities.md documented ``limits.maxRequestBodyBytes`` and grpc-transport.md
    (Stable) mandated a ``capabilities.grpc`` advertisement, but the closed capabilities schema
    rejected both: a host that followed the prose failed validation.

Example
    ::

        | `limits.maxRequestBodyBytes` | integer | largest request body the host accepts |

        "limits": {"type": "object", "properties": {"maxConcurrentRuns": {}},
                   "additionalProperties": false}

    FAIL: ``warning [undocumented-field] `limits.maxRequestBodyBytes` is documented here, but
    `schemas/capabilities.schema.json` rejects it: ...`` (read relative to the schema the page
    cites; `` `Capabilities.limits.maxRequestBodyBytes` `` names it, and is an error).

Use instead
    Add ``maxRequestBodyBytes`` to ``limits.properties``. PASS.

Options
    None.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from jsonschema.exceptions import SchemaError, UnknownType, ValidationError
from jsonschema.validators import validator_for
from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.prose.fences import resolve_schema
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.validation import json_spelled
from speclint.analyses.units import check_by_unit, prepared, reach
from speclint.common.findings import Finding, Location, Severity, first_fitting
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "undocumented-field"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references")  # speclint.analyses.context
_PATH = re.compile(r"^[A-Za-z_][\w-]*(?:\[\])?(?:\.[A-Za-z_$][\w-]*(?:\[\])?)+$")
_NOT_FIELDS = {"md", "json", "yaml", "yml", "ts", "js", "py", "txt", "html", "toml", "proto", "tsx"}
CLOSING = {"additionalProperties", "unevaluatedProperties"}


READS = "page"  # each page against the schemas it names (speclint.analyses.units)
# What a unit may name: a code span's first segment (`RunOptions.`), a `.json` file it links to
# or writes. Read from the page's text, a superset of what its prose model holds, so the key
# of a page is made without decoding its model.
_FIRST_SEGMENT = re.compile(r"`\s*([A-Za-z_][\w-]*)(?:\[\])?\.")
_JSON_END = re.compile(r"\.json(?![\w.-])")
_NAME_STOPS = frozenset(" \t\n\r`()<>[]\"'")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit)


def shared(corpus: Context) -> tuple[list[tuple[str, str]], list[str]]:
    """What every page's check reads of the schemas as a whole: which schema each name (file
    stem, title) means, and every enumerated value (an event type is not a field path)."""
    by_stem, values = _shared(corpus)
    return sorted((name, d.path) for name, d in by_stem.items()), sorted(values)


def unit_inputs(corpus: Context, document: Document) -> list[str]:
    """The schemas one page may bind a field path to (by a name its code spans start with, or a
    `.json` file it names), and the documents their `$ref`s reach."""
    by_stem, _ = _shared(corpus)
    stems, json_names = prepared(document, ID, prepare, tuple[frozenset[str], frozenset[str]])
    named = {by_stem[stem].path for stem in stems if stem in by_stem}
    folder = posixpath.dirname(document.path)
    resolved: dict[tuple[str, str], str | None] = corpus.memo.setdefault(f"{ID}:resolved", {})
    for name in json_names:
        if "://" in name:
            continue
        key = (folder, name.split("#", 1)[0])
        if key not in resolved:  # the same file named from many pages of one folder
            target = resolve_schema(corpus, document.path, key[1])
            resolved[key] = target.document.path if target is not None else None
        if resolved[key] is not None:
            named.add(str(resolved[key]))
    return sorted({*named, *(path for schema in named for path in reach(corpus, schema))})


def prepare(document: Document) -> tuple[frozenset[str], frozenset[str]]:
    """The first segments of the page's code spans (lower-cased) and the `.json` names it
    writes: what its inputs are found from (a function of the page alone, so made as the page
    is parsed and kept with it in the parse cache: ``speclint.analyses.units.prepared``; every
    run read all 73 of OpenWOP's pages for it, 0.03 s of a one-page edit)."""
    text = document.text or ""
    stems = frozenset(m.group(1).lower() for m in _FIRST_SEGMENT.finditer(text))
    return stems, frozenset(_json_names(text))


def _json_names(text: str) -> set[str]:
    """Every `.json` file name the text writes (a link target, a code span, a path), found from
    each `.json` back to the character that starts it: a regular expression that scans every
    run of non-space characters took 1 ms a page."""
    names = set()
    for match in _JSON_END.finditer(text):
        start = match.start()
        while start > 0 and text[start - 1] not in _NAME_STOPS:
            start -= 1
        if start < match.start():
            names.add(text[start : match.end()])
    return names


def _shared(corpus: Context) -> tuple[dict[str, Document], set[str]]:
    # The schemas' names and enumerated values, made once per run for every page.
    found = corpus.memo.get(ID)
    if found is None:
        found = corpus.memo[ID] = (_schemas_by_name(corpus), _enumerated_values(corpus))
    assert isinstance(found, tuple)
    return found


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    return list(_page_findings(corpus, document))


def _page_findings(corpus: Context, document: Document) -> Iterator[Finding]:
    by_stem, values = _shared(corpus)
    seen: set[tuple[str, int, str]] = set()
    prose = document.prose
    if prose is not None:
        page_schemas = _page_schemas(corpus, document)
        sentences = _sentences(document)
        for code in prose.inline_code:
            text = code.text.strip()
            if not _PATH.match(text) or text.rsplit(".", 1)[-1].lower() in _NOT_FIELDS:
                continue
            key = (document.path, code.line, text)
            if key in seen:
                continue
            seen.add(key)
            tokens = text.split(".")
            # `run.started`, `agent.invocation.started.resolvedAgentVersion`: an enumerated value
            # (an event type) or a field of one is not a path into a shape.
            if any(".".join(tokens[:n]) in values for n in range(2, len(tokens) + 1)):
                continue
            sentence = sentences.get((code.line, text), "")
            if _FUTURE.search(sentence):
                continue  # "a future revision MAY add `x.y`": the prose says it is not there yet
            if tokens[-1].endswith("ed") and _EVENTS.search(sentence):
                continue  # `content.page.published` beside "emits": an event name, not a field
            candidates: list[tuple[Document, list[str]]] = []
            # The path names its schema (`Capabilities.limits.x`, or the first segment is a
            # schema the page cites): certain, an error. A path read relative to a schema the
            # page cites and the sentence names: inferred, a warning (issue 26).
            severity = SEVERITY
            named = by_stem.get(tokens[0].lower())
            if named is not None and (tokens[0][0].isupper() or named in page_schemas):
                defs = named.data.get("$defs", {}) if isinstance(named.data, dict) else {}
                if isinstance(defs, dict) and tokens[1].removesuffix("[]") in defs:
                    continue  # `A2ATaskState.PushConfig` names a definition, not a field
                candidates.append((named, tokens[1:]))
            elif named is None:
                # A path relative to a schema the page cites, when the sentence or the section
                # names that schema ("The `limits` object of the capabilities document").
                where = (
                    sentence + " " + " ".join(code.heading.path if code.heading else ())
                ).lower()
                for schema in page_schemas:
                    properties = (
                        schema.data.get("properties") if isinstance(schema.data, dict) else None
                    )
                    if (
                        not isinstance(properties, dict)
                        or tokens[0].removesuffix("[]") not in properties
                    ):
                        continue
                    if any(name in where for name in _names(schema)):
                        candidates.append((schema, tokens))
                        severity = Severity.WARNING
            verdicts = [_rejection(corpus, schema, path) for schema, path in candidates]
            if not verdicts or any(v is None for v in verdicts):
                continue  # unbound, or some binding accepts the field
            schema, _ = candidates[0]
            first = verdicts[0]
            assert first is not None
            message, closing = first
            anchor = f"#{code.heading.anchor}" if code.heading else ""
            fix = (
                "Add the field to the schema (the prose says it is part of the shape), or "
                "correct the prose"
            )
            yield Finding(
                ID,
                severity,
                first_fitting(
                    f"`{text}` is documented here, but `{schema.path}` rejects it: {message}. {fix}",
                    f"`{text}` is documented here, but `{schema.path}` rejects it: {message}. "
                    "Add it to the schema, or correct the prose",
                    f"`{text}` is documented here, but `{schema.path}` rejects it (see the "
                    "related location). Add it to the schema, or correct the prose",
                    f"`{text}` is documented here, but its schema rejects it (see the related "
                    "location)",
                ),
                Location(document.path, code.line, code.column, pointer=anchor),
                related=(replace(closing, note=f"{closing.note or 'rejects it'}: {message}"),),
                key=f"{code.line}:{text}",
            )


_FUTURE = re.compile(
    r"\b(future|will add|may add|might add|pending|proposed|planned|not yet|follow-up|"
    r"reserved for|would add|to be added)\b",
    re.IGNORECASE,
)


_EVENTS = re.compile(r"\b(events?|emits?|emitted)\b", re.IGNORECASE)


def _names(schema: Document) -> set[str]:
    stem = schema.path.rsplit("/", 1)[-1].removesuffix(".json").removesuffix(".schema").lower()
    names = {stem, stem.replace("-", " ")}
    title = schema.data.get("title") if isinstance(schema.data, dict) else None
    if isinstance(title, str):
        names.add(title.lower())
    return names


def _enumerated_values(corpus: Context) -> set[str]:
    """Every string an ``enum`` or ``const`` lists anywhere in the corpus (event types, kinds)."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                if key == "enum" and isinstance(child, list):
                    found.update(v for v in child if isinstance(v, str))
                elif key == "const" and isinstance(child, str):
                    found.add(child)
                else:
                    walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    for document in corpus.of_kind(
        DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
    ):
        walk(document.data)
    return found


def _sentences(document: Document) -> dict[tuple[int, str], str]:
    """(line, code span) -> the sentence it sits in, from the paragraphs of the page."""
    prose = document.prose
    found: dict[tuple[int, str], str] = {}
    if prose is None:
        return found
    for paragraph in prose.paragraphs:
        text = paragraph.text
        for code in paragraph.inline_code:
            at = text.find(f"`{code.text}`")
            if at < 0:
                continue
            start = max(text.rfind(". ", 0, at), text.rfind("\n\n", 0, at), -1) + 1
            end = text.find(". ", at)
            found[(code.line, code.text.strip())] = text[start : end if end >= 0 else len(text)]
    for table in prose.tables:
        for row in table.rows:
            row_text = " ".join(cell.text for cell in row)
            for cell in row:
                for code in cell.inline_code:
                    found[(code.line, code.text.strip())] = row_text
    return found


def _schemas_by_name(corpus: Context) -> dict[str, Document]:
    """Schema files by file stem and root title (lower-case), when only one schema has it."""
    names: dict[str, list[Document]] = {}
    for document in corpus.of_kind(DocumentKind.SCHEMA):
        stem = document.path.rsplit("/", 1)[-1].removesuffix(".json").removesuffix(".schema")
        keys = {stem.lower()}
        title = document.data.get("title") if isinstance(document.data, dict) else None
        if isinstance(title, str):
            keys.add(title.lower())
        for key in keys:
            names.setdefault(key, []).append(document)
    return {name: found[0] for name, found in names.items() if len(found) == 1}


def _page_schemas(corpus: Context, document: Document) -> list[Document]:
    """The schema files a page links to or names in a code span."""
    prose = document.prose
    if prose is None:
        return []
    names = {link.target for link in prose.links} | {code.text for code in prose.inline_code}
    found: dict[str, Document] = {}
    for name in sorted(names):
        if not name.split("#", 1)[0].endswith(".json") or "://" in name:
            continue
        target = resolve_schema(corpus, document.path, name.split("#", 1)[0])
        if target is not None:
            found[target.document.path] = target.document
    return list(found.values())


def _instance(path: list[str]) -> tuple[Any, list[list[str | int]]]:
    """The smallest instance carrying ``path``, and the instance path of each segment's parent."""
    value: Any = None
    parents: list[list[str | int]] = []
    prefix: list[str | int] = []
    for token in path:
        name = token.removesuffix("[]")
        parents.append(list(prefix))
        prefix = [*prefix, name, 0] if token.endswith("[]") else [*prefix, name]
    for token in reversed(path):
        name = token.removesuffix("[]")
        value = {name: [value] if token.endswith("[]") else value}
    return value, parents


def _rejection(corpus: Context, schema: Document, path: list[str]) -> tuple[str, Location] | None:
    """Why the validator rejects the field at ``path`` by name, or None when it does not."""
    if not path:
        return None
    instance, parents = _instance(path)
    dialect = validator_for(schema.data if isinstance(schema.data, dict) else {})
    validator = corpus.references.validator(dialect, file_uri(schema.path))
    try:
        errors = list(validator.iter_errors(instance))
    except (Unresolvable, SchemaError, UnknownType):
        return None  # a broken schema is unresolved-ref's or schema-invalid's finding
    for error in errors:
        if error.validator not in CLOSING:
            continue
        where = list(error.absolute_path)
        for depth, parent in enumerate(parents):
            name = path[depth].removesuffix("[]")
            if where == parent and repr(name) in error.message:
                return (
                    f"`{'.'.join(path[: depth + 1])}` meets `{error.validator}: false` "
                    f"({json_spelled(error.message)})",
                    _keyword_location(corpus, error),
                )
    return None


def _keyword_location(corpus: Context, error: ValidationError) -> Location:
    """Where the closing keyword that fired is written, found by identity in the corpus."""
    for document in corpus.of_kind(DocumentKind.SCHEMA, DocumentKind.OPENAPI):
        pointer = _find(document.data, error.schema, "")
        if pointer is not None:
            return document.location(
                join_pointer(pointer, str(error.validator)), note="the closing keyword"
            )
    return Location(".", 1, 1, note="the closing keyword")


def _find(node: Any, target: Any, pointer: str) -> str | None:
    if node is target:
        return pointer
    if isinstance(node, dict):
        for key, child in node.items():
            if isinstance(child, (dict, list)):
                found = _find(child, target, join_pointer(pointer, key))
                if found is not None:
                    return found
    elif isinstance(node, list):
        for index, child in enumerate(node):
            if isinstance(child, (dict, list)):
                found = _find(child, target, join_pointer(pointer, index))
                if found is not None:
                    return found
    return None
