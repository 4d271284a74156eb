"""A JSON Schema that is not valid against the metaschema of its declared ``$schema``.

What it does
    Validates every schema document against the metaschema its ``$schema`` names (2020-12, 2019-09,
    draft-07, draft-06 or draft-04; 2020-12 when ``$schema`` is absent), using jsonschema's official
    metaschemas, offline, and reports each violation at the JSON pointer of the offending keyword
    (50 at most per schema; the rest is counted among what the run did not check).

    A custom dialect whose metaschema the corpus holds is judged by it; any other ``$schema`` as the
    draft it stands for (a legacy "latest draft" URI, another spelling, an unknown dialect read from
    its keywords), never as 2020-12 by default, with one ``info`` per file naming the draft assumed
    and the URI to write. An embedded resource with its own ``$schema`` is judged in its dialect; a
    schema file without ``$schema`` that only OpenAPI 3.0 documents ``$ref``, as an OpenAPI 3.0
    Schema Object (3.0.3 §4.7.24).

    A ``pattern`` (or ``patternProperties`` key) that no engine can compile (``^a(b$``,
    ``a{4294967296}``) is reported at the pattern, as ajv refuses the schema; one only some engine
    reads is ``pattern-portability``'s.

Why is this bad?
    Validators disagree about invalid schemas: some reject them, some ignore the bad keyword.
    ``"required": "id"`` (a string, not an array) is silently ignored by lenient validators, so the
    field meant to be required is optional everywhere.

Example
    ::

        {"$schema": "https://json-schema.org/draft/2020-12/schema", "required": "runId"}

    FAIL: ``error [schema-invalid] /required: "runId" is not of type "array" (keyword `type`)``

Use instead
    ``"required": ["runId"]``. PASS.

Options
    None.

Limitations
    A generated bundle is judged at its sources. A dialect published on the host of the
    schema's own ``$id`` is the project's own: no notice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import validators
from jsonschema.protocols import Validator

from speclint.analyses.api.inlining import InlinedView, inline_misplaced, misplaced_refs_of
from speclint.analyses.context import Context
from speclint.analyses.schemas.schema_objects import refused_patterns
from speclint.analyses.schemas.validation import (
    ERRORS_COUNTED,
    LocatedError,
    accepted_fast,
    capped,
    located_errors,
    metaschema_registry,
    validator_class_at,
)
from speclint.analyses.units import check_by_unit, reach
from speclint.common.findings import Finding, Severity, headed, json_value
from speclint.model.corpus import Document
from speclint.parsing.dialects import draft_by_keywords, names_latest_draft
from speclint.parsing.keyword_positions import Position, item_position, member_position
from speclint.parsing.kinds import REFERENCED_REASON, DocumentKind, contradicts_schema, draft_of
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

ID = "schema-invalid"
SEVERITY = Severity.ERROR
FACTS = ("derived", "references")  # speclint.analyses.context
# One schema at a time (speclint.analyses.units): an edit re-judges that schema alone.
READS = "document"
DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
OAS30 = "OpenAPI 3.0"  # a file of OpenAPI 3.0 Schema Objects (``speclint.model.corpus.refine``)
# Each draft's metaschema URI as published (the spelling every validator knows).
CANONICAL = {
    "draft-03": "http://json-schema.org/draft-03/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": DEFAULT_DIALECT,
}


def units(corpus: Context) -> list[Document]:
    """Each schema file, but a generated bundle's (judged at its sources), and but a file known
    as a schema only because a ``$ref`` names it whose root ``type`` is no JSON type: an API's
    ``$ref`` to an example event (``"type": "m.room.message"``) names data, not a schema."""
    return [
        d
        for d in corpus.of_kind(DocumentKind.SCHEMA)
        if d.path not in corpus.derived and not _example_by_reference(d)
    ]


def _example_by_reference(document: Document) -> bool:
    data = document.data
    declares = isinstance(data, dict) and isinstance(data.get("$schema"), str)
    return (
        not declares and document.reason.startswith(REFERENCED_REASON) and contradicts_schema(data)
    )


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    judged = list(_judged(corpus, document))
    notes = [f for f in judged if f.severity is not SEVERITY]
    errors = capped(ID, document, [f for f in judged if f.severity is SEVERITY], "of the schema")
    return [*notes, *errors, *_refused_patterns(document)]


def _refused_patterns(document: Document) -> Iterator[Finding]:
    """Each pattern not compiled, or read by no engine (``schema_objects.refused_patterns``):
    valid to the metaschema as judged here, which does not assert ``format: "regex"``, and a
    defect of the schema all the same. A file judged as OpenAPI 3.0 Schema Objects
    (``_judged_as_oas30``) has its unreadable patterns from that validator, which asserts it."""
    for at, kind, message in refused_patterns(document.data, unreadable=_inlines_nothing(document)):
        yield Finding(ID, SEVERITY, message, document.location(at), key=f"{at}:{kind}")


def _judged(corpus: Context, document: Document) -> Iterator[Finding]:
    registry = metaschema_registry()
    schema = document.data
    if document.dialect == OAS30 and not (isinstance(schema, dict) and "$schema" in schema):
        yield from _judged_as_oas30(corpus, document, registry)
        return
    dialect = (
        schema.get("$schema", DEFAULT_DIALECT) if isinstance(schema, dict) else DEFAULT_DIALECT
    )
    cls = _validator_class(str(dialect))
    if cls is None:
        draft, why, kind = _assumed_draft(corpus, str(dialect), schema)
        held = _held_metaschema(corpus, str(dialect)) if kind == "custom" else None
        if held is not None:
            # The corpus holds the dialect's metaschema (a custom dialect built on a draft):
            # judge the schema by that metaschema itself, its own constraints included.
            yield from _judged_by_held(document, str(dialect), CANONICAL[draft], *held)
            return
        cls = _validator_class(CANONICAL[draft])
        if kind == "known" or not _own_dialect(str(dialect), schema):
            yield Finding(
                ID,
                Severity.INFO,
                headed(
                    f"`$schema` {json_value(dialect)} is not a metaschema URI validators know; judged as "
                    f"{draft} ({why})",
                    f": {_advice(draft, kind)}",
                ),
                document.location("/$schema"),
                key="assumed-dialect",
                # A held metaschema that reaches out of the corpus: nothing to fix here, only
                # what was not checked (issue 45). A dialect unknown here may be a typo.
                coverage="custom-dialect" if kind == "custom" else None,
            )
        dialect = CANONICAL[draft]
    # Each embedded resource that declares its own `$schema` (a draft-04 metaschema bundled
    # into a draft-07 schema) is judged by its own dialect, and only by it (JSON Schema Core
    # 2020-12 §8.1.1; draft-07 Core §7): the enclosing dialect sees an empty schema there.
    embedded = _embedded_resources(schema)
    parts = [("", dialect, cls, _without(schema, [p for p, _ in embedded]))]
    for at, node in embedded:
        named = draft_of(node["$schema"])
        own = _validator_class(str(node["$schema"]) if named is None else CANONICAL[named])
        if own is not None:
            parts.append((at, str(node["$schema"]), own, node))
    for at, declared, judge, part in parts:
        if accepted_fast(judge, part):
            continue
        validator: Validator = judge(judge.META_SCHEMA, registry=registry)
        for error in located_errors(validator, part, ERRORS_COUNTED):
            yield _invalid(
                document, at + error.pointer, error, f"against its metaschema ({declared})"
            )


def _judged_as_oas30(corpus: Context, document: Document, registry: Any) -> Iterator[Finding]:
    """A file of OpenAPI 3.0 Schema Objects (reached by ``$ref`` only from OpenAPI 3.0
    documents: ``speclint.model.corpus.refine``), judged by that dialect's metaschema, as
    openapi-schema-validator's ``check_schema`` does: ``nullable`` and a boolean
    ``exclusiveMinimum`` are its keywords, a type array is not. It is a piece of a split API
    source, judged as the bundle holds it (``_inlined``)."""
    view, judged = _inlined(corpus, document)
    if judged is not None:
        errors: Iterable[LocatedError] = judged  # judged while inlining: not judged again
    elif accepted_fast(_oas30_judge(), view.data):
        return
    else:
        errors = located_errors(_oas30_validator(registry), view.data, ERRORS_COUNTED)
    for error in errors:
        holder, pointer = view.locate(error.pointer)
        if holder is not document:
            error = error._replace(message=view.as_written(holder, error.message))
        yield _invalid(
            holder,
            pointer,
            error,
            "as the OpenAPI 3.0 Schema Object it is (only OpenAPI 3.0 documents `$ref` it)",
            "tools",
        )


def _oas30_judge() -> Any:
    return validator_class_at("schema", OAS30, None)


def _oas30_validator(registry: Any) -> Validator:
    judge = _oas30_judge()
    meta = judge.META_SCHEMA
    return validators.validator_for(meta, default=judge)(  # type: ignore[no-any-return]
        meta, format_checker=judge.FORMAT_CHECKER, registry=registry
    )


def _inlined(corpus: Context, document: Document) -> tuple[InlinedView, list[LocatedError] | None]:
    """An OpenAPI 3.0 Schema Object file as the bundle of the API that names it holds it: a
    ``$ref`` member where the metaschema wants a schema map's entry (``properties: {$ref:
    attributes.yml#/ids}``, a map kept in a file of its own) replaced by its target, as
    redocly and swagger-cli bundle replace any ``$ref`` (``speclint.analyses.api.inlining``). With
    it, the metaschema's errors when it judged the view's data last while inlining (nothing
    inlined in the last round, or nothing at all): the check takes them, not a second
    validation of the same data; None when it did not."""
    if _inlines_nothing(document):
        return InlinedView(document, document.data), None
    validator = _oas30_validator(metaschema_registry())
    last: list[tuple[Any, list[LocatedError]]] = []  # the data judged last, and its errors

    def misplaced(data: Any) -> Iterator[str]:
        errors = (
            []
            if accepted_fast(_oas30_judge(), data)
            else list(located_errors(validator, data, ERRORS_COUNTED))
        )
        last[:] = [(data, errors)]
        return misplaced_refs_of((e.pointer, resolve_pointer(data, e.pointer)) for e in errors)

    view = inline_misplaced(corpus, document, misplaced)
    return view, last[0][1] if last and last[0][0] is view.data else None


def unit_reach(corpus: Context, document: Document) -> list[str]:
    r"""What one unit reads besides its schema (``speclint.analyses.units``): for a split
    OpenAPI 3.0 schema, every file its ``$ref``\s reach (``units.reach``), which holds every
    file a misplaced ``$ref`` inlines (the reference index resolves both); none for another
    (nothing is inlined). A key made without validating the schema: a run whose results are
    all cached validates nothing."""
    if _inlines_nothing(document):
        return []
    return reach(corpus, document.path)


def _inlines_nothing(document: Document) -> bool:
    return document.dialect != OAS30 or (
        isinstance(document.data, dict) and "$schema" in document.data
    )


def _invalid(
    document: Document,
    pointer: str,
    error: LocatedError,
    judged: str,
    readers: str = "validators",
) -> Finding:
    """A metaschema's error at ``pointer``, with how the schema was ``judged``."""
    message = error.message
    return Finding(
        ID,
        SEVERITY,
        headed(
            f"{pointer or '/'}: {message}",
            f"; the schema is invalid {judged}, so {readers} may ignore or reject it: fix the "
            "keyword",
            message,
        ),
        document.location(pointer),
        key=f"{pointer}:{error.key}",
    )


def _embedded_resources(schema: Any) -> list[tuple[str, dict[str, Any]]]:
    """(pointer, node) of each subschema below the root that declares its own ``$schema``; the
    outermost one of a nest (its own inner ones are its business). A key means what its position
    says (``keyword_positions``): a property *named* ``default`` holds a schema."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[Any, str, Position]] = [(schema, "", Position.SCHEMA)]
    while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
        node, pointer, position = stack.pop()
        if isinstance(node, dict):
            if pointer and position is Position.SCHEMA and isinstance(node.get("$schema"), str):
                found.append((pointer, node))
                continue
            for key, child in node.items():
                inner = member_position(position, key)
                if inner is not Position.DATA and isinstance(child, (dict, list)):
                    stack.append((child, join_pointer(pointer, key), inner))
        elif isinstance(node, list):
            stack.extend(
                (child, join_pointer(pointer, index), item_position(position))
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


def _assumed_draft(corpus: Context, dialect: str, schema: Any) -> tuple[str, str, str]:
    """The draft a ``$schema`` no validator knows stands for, and why: the draft it names in
    another spelling (``https://json-schema.org/draft-06/schema``), the draft of a corpus
    metaschema with that ``$id`` (a custom dialect built on a draft), or, for a legacy "latest
    draft" URI (``http://json-schema.org/schema#``) or a dialect unknown here, the draft its
    keywords are written in. The kind: "known" (a draft it names or meant), "custom" (a corpus
    metaschema) or "unknown"."""
    named = draft_of(dialect)
    if named is not None:
        return named, "the draft its URI names", "known"
    holder = corpus.references.path_for(dialect.rstrip("#")) if is_absolute(dialect) else None
    meta = corpus.documents.get(holder) if holder is not None else None
    if meta is not None and isinstance(meta.data, dict):
        underlying = draft_of(meta.data.get("$schema"))
        if underlying is not None:
            return underlying, f"the draft the metaschema {holder} builds on", "custom"
    by_keywords = draft_by_keywords(schema)
    if names_latest_draft(dialect):
        return by_keywords, "a legacy URI for the latest draft of its day: by its keywords", "known"
    return by_keywords, "an unknown dialect: by its keywords", "unknown"


def _own_dialect(dialect: str, schema: Any) -> bool:
    """Whether ``dialect`` is published where the schema itself is (the host of its ``$id``):
    the project's own dialect, such as the next draft a standards repository is writing. It is
    deliberate, not a typo; the run's summary says the schema is of another dialect."""
    identifier = schema.get("$id") if isinstance(schema, dict) else None
    if not isinstance(identifier, str) or not is_absolute(dialect):
        return False
    try:
        own, named = urlsplit(identifier).hostname, urlsplit(dialect).hostname
    except ValueError:
        return False
    return bool(own) and own == named


def _advice(draft: str, kind: str) -> str:
    """What to do about a dialect no validator knows. A draft in another spelling or a legacy
    "latest draft" URI meant a known draft: name its URI. A dialect of the project's own (a
    metaschema it publishes, or the next draft a standards repository is writing) is not a
    mistake to correct: say what was not checked and how to have it checked."""
    if kind == "custom":
        return "its own keywords are not checked (its metaschema does not resolve offline)"
    if kind == "known":
        return f"use {json_value(CANONICAL[draft])} so every validator reads it the same way"
    return (
        f"keywords of that dialect are not checked; if it means {draft}, use "
        f"{json_value(CANONICAL[draft])} so every validator reads it the same way, and if it is a "
        "dialect "
        "of its own, add its metaschema to the repository to have it checked"
    )


def _held_metaschema(corpus: Context, dialect: str) -> tuple[dict[str, Any], Any] | None:
    """The corpus's metaschema with the ``$id`` ``dialect`` when every ``$ref`` in it resolves
    among the official metaschemas or itself (the usual custom dialect: an ``allOf`` of a
    draft's vocabulary metaschemas plus constraints of its own), with the registry that
    resolves them; None otherwise."""
    holder = corpus.references.path_for(dialect.rstrip("#")) if is_absolute(dialect) else None
    meta = corpus.documents.get(holder) if holder is not None else None
    if meta is None or not isinstance(meta.data, dict):
        return None
    try:
        registry = _with_metaschema(dialect, meta.data)
        resolver = registry.resolver(base_uri=dialect)
        for ref in _refs(meta.data):
            resolver.lookup(ref)
    except (
        referencing.exceptions.Unresolvable,
        referencing.exceptions.CannotDetermineSpecification,
    ):
        return None
    return meta.data, registry


def _with_metaschema(dialect: str, metaschema: dict[str, Any]) -> Any:
    resource = referencing.Resource.from_contents(
        metaschema, default_specification=referencing.jsonschema.DRAFT202012
    )
    return metaschema_registry().with_resource(dialect.rstrip("#"), resource)


def _refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` of the schema ``node``, not those in its data: a property *named*
    ``default`` or ``enum`` (a metaschema's, describing that keyword) is a schema."""
    stack: list[tuple[Any, Position]] = [(node, Position.SCHEMA)]
    while stack:
        item, position = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and position is not Position.SCHEMA_NAMES:
                yield ref
            for key, value in item.items():
                inner = member_position(position, key)
                if inner is not Position.DATA:
                    stack.append((value, inner))
        elif isinstance(item, list):
            stack.extend((value, item_position(position)) for value in item)


def _judged_by_held(
    document: Document, dialect: str, draft_uri: str, metaschema: dict[str, Any], registry: Any
) -> Iterator[Finding]:
    judge = _validator_class(draft_uri)
    validator: Validator = judge(metaschema, registry=registry)
    for error in located_errors(validator, document.data, ERRORS_COUNTED):
        yield _invalid(document, error.pointer, error, f"against its metaschema ({dialect})")


def is_absolute(uri: str) -> bool:
    return "://" in uri


def _validator_class(dialect: str) -> Any:
    known = validators._META_SCHEMAS  # jsonschema's own map of dialect URI -> validator
    for candidate in (dialect, dialect.rstrip("#"), dialect.rstrip("#") + "#"):
        if candidate in known:
            return known[candidate]
    return None
