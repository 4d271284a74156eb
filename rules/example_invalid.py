"""An example (in an API document, a schema, or a spec page) that fails the schema it illustrates.

What it does
    Validates each example against its schema, in the schema's dialect, ``$ref``\\s resolved in the
    corpus: OpenAPI media type, parameter, header and Swagger 2.0 response examples (also in other
    files), AsyncAPI message payloads, a schema's own ``examples`` (a warning: Validation 2020-12
    §9.5 only recommends that they validate), files in an ``examples`` folder a schema names, and
    JSON/YAML fences in Markdown, tied to a schema by their info string (```` ```json
    schema=x.schema.json ````), a marker comment, configuration or the paragraph above, or bound by
    what the example is (``speclint bindings`` lists each binding). ``readOnly``/``writeOnly`` are
    honoured (OpenAPI 3.0.3 §4.7.24.1); the message names the failing keyword (for a ``oneOf``, the
    closest branch); ``format`` warns of a ``uuid``, ``date``, ``date-time`` of another form, or an
    API document's ``uri`` with no scheme. Heuristics (a finding names its binding;
    ``in-document``, ``explicit``, ``own-schema`` guess nothing): ``in-document``, ``explicit``,
    ``adjacent-text``, ``definition-name``, ``own-schema``, ``by-value``, ``by-operation``,
    ``by-shape``, ``by-fragment``, ``by-exchange``, ``api-component``, ``case-convention``,
    ``x-examples``, ``api-description``, ``heading-name``, ``format``, ``extension-name``,
    ``api-json-text``, ``parameter-value``, ``envelope-kind``, ``section-scope``, ``page-root``,
    ``lead-in``, ``section-title``, ``shared-member``, ``member-elements``.

Why is this bad?
    Examples are what readers copy and what mock servers, SDK tests and documentation render:
    one the schema rejects is a wrong example or a wrong schema, published unnoticed.

Example
    ::

        content:
          application/json:
            schema: {$ref: '../schemas/run-snapshot.schema.json'}   # status: enum [...]
            example: {runId: run-0001, status: paused}

    FAIL: ``error [example-invalid] example at /status: "paused" is not one of [...] ...``

Use instead
    ``status: running``. PASS. An example labelled as meant to fail (``invalid``,
    ``counter-example``... in its info string, a comment, its heading) is not judged.

Options
    ``markers`` (default ``["normative-example", "schema", "example-of"]``): keys of marker comments
    tying the next fence to a schema. ``fences`` (default none): a table tying every JSON fence
    under a heading (or, without ``#anchor``, on a page) to a schema: ``"spec/rest.md#create-a-run"
    = "schemas/run-request.schema.json"``. ``adjacent`` (default ``true``), ``by-value`` (default
    ``true``), ``by-shape`` (default ``true``), ``by-operation`` (default ``true``): ``false``
    turns that binding off (``by-shape`` also root-document excerpts).

Limitations
    A partial example (fragments, placeholders, ``"..."``) is judged for what it shows; an
    unresolved schema is ``unresolved-ref``'s; a URL example is listed as not checked.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache, partial
from typing import Any

from jsonschema import Draft4Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator
from referencing.exceptions import Unresolvable

from speclint.analyses.api.api_definitions import component_name
from speclint.analyses.api.api_examples import (
    SCHEMA_REF,
    ApiExample,
    Unfollowed,
    api_examples,
    referenced_example_files,
)
from speclint.analyses.api.api_links import bare
from speclint.analyses.api.api_schemas import family
from speclint.analyses.api.envelopes import payload_schema
from speclint.analyses.api.exchanges import parameter_values
from speclint.analyses.api.spellings import Slip, protojson_alias, slips
from speclint.analyses.context import Context
from speclint.analyses.prose.fences import (
    BY_ELEMENTS,
    BY_EXAMPLE,
    BY_EXCHANGE,
    BY_EXTENSION,
    BY_HEADING,
    BY_LEAD_IN,
    BY_OPERATION,
    BY_REFERENCE,
    BY_SHAPE,
    BY_SHARED,
    BY_TEXT,
    BY_TITLE,
    BY_VALUE,
    FRAGMENT_TIES,
    Binding,
    SchemaTarget,
    comment_blocks,
    example_file,
    example_file_binding,
    fence_data,
    fence_ties,
)
from speclint.analyses.prose.fragments import BY_FRAGMENT, BY_PAGE, BY_SECTION, near_member
from speclint.analyses.repository.charts import chart_defaults, gives, merged_values
from speclint.analyses.schemas.declarations import REPORTED_BY
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.schema_objects import (
    schema_holders,
    schema_objects,
    validator_class_of,
)
from speclint.analyses.schemas.validation import (
    MALFORMED_SCHEMA,
    closest_branch,
    error_pointer,
    explain,
    not_compiled,
    patterns_judged_once,
    short_message,
)
from speclint.analyses.units import check_by_unit
from speclint.common.findings import VALUE_SHOWN, Finding, Location, Member, Severity, within
from speclint.model.corpus import Document
from speclint.model.descriptions import described_page, placed
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CodeFence, Paragraph
from speclint.parsing.structured import (
    Parsed,
    ParseFailure,
    escape_token,
    join_pointer,
    resolve_pointer,
)

ID = "example-invalid"
SEVERITY = Severity.ERROR
# An example that fails only for a misspelt `required` member, a schema unsatisfiable only for one,
# is required-undeclared's finding when it runs (one defect, one finding).
# A `null` only a leftover `nullable: true` admits (OpenAPI 3.1) is oas30-leftover's, at the schema,
# when it runs.
LEFTOVER_REPORTED_BY = "oas30-leftover"
LEAVES_TO = (REPORTED_BY, LEFTOVER_REPORTED_BY)
FACTS = ("derived", "provenance", "references", "schemas")  # speclint.analyses.context
# How an example was bound to its schema (issue 45: each measured, and held back outside preview
# mode, on its own): inside its API or schema document; by the author's tie (info string, marker
# comment, configuration); by the paragraph above naming a schema file or a definition; by the
# schema it names as its own (`$schema`); by its values, its place, or its shape.
HEURISTICS = tuple(
    f"{ID}/{name}"
    for name in (
        "in-document",
        "explicit",
        "adjacent-text",
        "definition-name",
        "own-schema",
        "by-value",
        "by-operation",
        "by-shape",
        "by-fragment",
        "by-exchange",
        "api-component",
        "case-convention",
        "x-examples",
        "api-description",
        "heading-name",
        "format",
        "extension-name",
        "api-json-text",
        "parameter-value",
        "envelope-kind",
        "section-scope",
        "page-root",
        "lead-in",
        "section-title",
        "shared-member",
        "member-elements",
    )
)
# Ties that guess nothing: the example sits in its schema or API document, its author tied it,
# or it names its own schema. They run whenever the rule runs (speclint.run.preview).
DECLARED_TIES = (HEURISTICS[0], HEURISTICS[1], HEURISTICS[4])
_BY_TIE = {
    "info string": "explicit",
    "marker comment": "explicit",
    "configuration": "explicit",
    "adjacent text": "adjacent-text",
    "definition name": "definition-name",
    BY_VALUE: "by-value",
    BY_OPERATION: "by-operation",
    BY_SHAPE: "by-shape",
    BY_FRAGMENT: "by-fragment",
    BY_SECTION: "section-scope",
    BY_PAGE: "page-root",
    # an example file a schema names as its example: the author's own tie
    BY_REFERENCE: "explicit",
    BY_LEAD_IN: "lead-in",
    BY_EXCHANGE: "by-exchange",
    BY_HEADING: "heading-name",
    BY_TITLE: "section-title",
    BY_SHARED: "shared-member",
    BY_ELEMENTS: "member-elements",
    BY_EXTENSION: "extension-name",
}


API_COMPONENT = f"{ID}/api-component"
# A query or path parameter value of a concrete request on a page (`?end=0`), judged against the
# parameter's schema in the operation the request calls: a sibling of `by-exchange`'s bodies.
PARAMETER_VALUE = f"{ID}/parameter-value"
CASE_CONVENTION = f"{ID}/case-convention"
# `x-examples`, a vendor extension (Stoplight's and others': a map of name to example on a schema
# or a media type): no specification says it holds examples of that schema, so it is a heuristic.
X_EXAMPLES = f"{ID}/x-examples"
_X_EXAMPLES = "x-examples"
# A fence of an API document's own description text (CommonMark, OpenAPI 3.1 §4.3), bound as a
# page's fences are: measured apart from the pages' bindings.
API_DESCRIPTION = f"{ID}/api-description"


def heuristic(how: str, own_schema: bool = False, target: SchemaTarget | None = None) -> str:
    """The heuristic of a binding ``how`` (``FenceTie.how``, ``FileBinding.how``); an example
    bound by its name, values or shape to an API document's component (issue 46, item 1) is
    ``api-component``'s, measured apart from the schema files' bindings; one bound by its
    heading is ``heading-name``'s wherever the definition is (a new binding, measured alone)."""
    if (
        target is not None
        and how not in (BY_OPERATION, BY_HEADING, BY_TITLE, BY_SHARED, BY_ELEMENTS)
        and target.document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
        and component_name(target.pointer) is not None
    ):
        return API_COMPONENT
    return f"{ID}/{'own-schema' if own_schema else _BY_TIE[how]}"


IN_DOCUMENT = f"{ID}/in-document"
EXPLICIT = f"{ID}/explicit"
# A schema example of an API document, or a JSON media type's example, written as the JSON text
# of an object or array where its schema wants one (`example: |-` over lines): judged as the
# string it is, where a JSON Schema file's block of JSON text is judged by the value it shows
# (`_shown_errors`). A new reading, measured alone.
API_JSON_TEXT = f"{ID}/api-json-text"


# One unit per page, and per schema or API document with examples (speclint.analyses.units): a page
# edit re-checks that page's fences against the unchanged schemas.
READS = "page"


def units(corpus: Context) -> list[Document]:
    """The schema and API documents with examples (not a generated bundle: its examples are
    checked at their sources), the example files, then the Markdown pages."""
    documents = [
        document
        for document in corpus.of_kind(
            DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA
        )
        if not (document.kind is DocumentKind.SCHEMA and document.path in corpus.derived)
    ]
    # An example file an API document names is judged there, against the schema of the place
    # that names it: not bound again by what it is.
    referenced = referenced_example_files(corpus)
    files = [
        d for d in corpus.of_kind(DocumentKind.DATA) if example_file(d) and d.path not in referenced
    ]
    return [*documents, *files, *corpus.of_kind(DocumentKind.MARKDOWN)]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, combine, units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    # A pattern that runs out of time on one example is reported there and not tried on the
    # document's other examples: 600 of them at 0.25 s each outran the rule's time box.
    with patterns_judged_once() as scope:
        if document.kind is DocumentKind.MARKDOWN:
            found = list(_page_findings(corpus, document, options))
        elif document.kind is DocumentKind.DATA:
            found = list(_file_findings(corpus, document, options))
        else:
            found = list(_document_findings(corpus, document))
            described = described_page(document)
            if described is not None and described.page.prose and described.page.prose.fences:
                found += [
                    dataclasses.replace(placed(described, f), heuristic=API_DESCRIPTION)
                    for f in _page_findings(corpus, described.page, options)
                ]
    return found + not_compiled(ID, document, scope)


def combine(
    corpus: Context, results: Mapping[str, list[Finding]], options: Mapping[str, Any]
) -> Iterator[Finding]:
    """The documents' findings, the configured ties that match nothing, the pages' findings."""
    pages = [path for path in results if corpus.documents[path].kind is DocumentKind.MARKDOWN]
    # A path-item or example file two API documents share is judged from each: one finding.
    seen: set[tuple[str, int, int, str | None, str]] = set()
    for path, found in results.items():
        if path not in pages:
            for finding in found:
                where = finding.location
                said = (where.path, where.line, where.column, finding.key, finding.message)
                if said not in seen:
                    seen.add(said)
                    yield finding
    configured = {str(k): str(v) for k, v in dict(options.get("fences", {})).items()}
    yield from _unmatched_configuration(corpus, configured)
    for path in pages:
        yield from results[path]


def _rejecting(schema_pointer: str, error: ValidationError) -> str:
    """The pointer of the keyword that rejects the example (the ``enum`` of
    ``/properties/status``), under the schema at ``schema_pointer`` of the same document: the
    error's schema path as far as it stays in that document, up to a ``$ref`` (issue 48: the
    schema it fails is shown at the subschema that rejects the value, not at its top)."""
    parts = []
    for part in explain(error).absolute_schema_path:
        if part in ("$ref", "$dynamicRef", "$recursiveRef"):
            break
        parts.append(escape_token(part))
    return "/".join([schema_pointer, *parts]) if parts else schema_pointer


def _schema_place(error: ValidationError) -> str:
    """Where in the schema, and by which keyword, ``error`` fails."""
    return "/".join(map(str, error.absolute_schema_path))


def _document_findings(corpus: Context, document: Document) -> Iterator[Finding]:
    fix = (
        "fix the example, or the schema that lists it"
        if document.kind is DocumentKind.SCHEMA
        else "fix the example, or the schema if the example shows what the API really does"
    )
    # API generators give `null` to every absent value and seldom say `nullable` (or, in 3.1,
    # `"null"` in the `type`) where a `$ref` or a shared enum stands: one defect of the
    # document, not one per example (`_set_apart`).
    api = document.kind is DocumentKind.OPENAPI
    oas30 = api and document.dialect.startswith("OpenAPI 3.0")
    leftover = _leftovers_reported(corpus, document)
    nulls: list[Location] = []  # each refused `null`, where it is written
    first: Location | None = None  # the example that gives the first (the note's place)
    in_enums = 0  # of them, those where only the `enum` of a `nullable` schema lacks `null`
    own_dialect = validator_class_of(document)
    failed: dict[tuple[str, ...], list[tuple[str, str, list[ValidationError]]]] = {}
    texts: set[str] = set()  # the examples judged by the value their JSON text shows
    # The `uri` values of the document's examples given without a scheme, by member name: one
    # schema habit (`format: uri` on relative links), one finding per name (`_relative_uris`).
    relative: dict[str, list[Location]] = {}
    # An API document's examples written as their value's JSON text: the type they should be,
    # and whether they are judged by a new reading.
    as_text: dict[str, tuple[str, bool]] = {}
    for schema_pointer, example_pointer, value, dialect in document_examples(document):
        uri = f"{file_uri(document.path)}#{schema_pointer}"
        if oas30 and dialect is own_dialect:
            dialect = _every_required(dialect)
        validator = corpus.references.validator(dialect, uri)
        own = _schemas_own(schema_pointer, example_pointer)
        errors, wanted = (
            _json_text_in_api(document, validator, value)
            if own or _JSON_MEDIA.search(schema_pointer)
            else ([], "")
        )
        if wanted:
            # Judged before only where its text is short and on one line (not read as prose,
            # nor as a block a docs site renders): a new reading otherwise.
            as_text[example_pointer] = wanted, "\n" in str(value) or _prose(value)
        else:
            errors = _answerable(
                validator,
                value,
                _serialised_depth(document, schema_pointer),
                _named(schema_pointer),
            )
        if errors and own and not wanted:
            shown = _shown_errors(validator, value, _property_of(schema_pointer))
            if shown is not None:
                errors = shown
                texts.add(example_pointer)
        errors = _without_typos(corpus, errors)
        errors = _outside_direction(corpus, document, schema_pointer, errors)
        # `"..."` where a value belongs is an elision a documentation example writes
        # (coordinates cut short, "and so on"), not a value the API sends.
        errors = [e for e in errors if explain(e).instance not in ELISIONS]
        if api:
            errors, null, in_enum = _set_apart(errors, leftover)
            if null is not None:
                # where the `null` is written: a `$ref`'d example's value, or this one's
                written = _written_at(document, example_pointer, null)
                nulls.append(
                    written[0]
                    if written
                    else document.location(example_pointer + error_pointer(explain(null)))
                )
                first = first or document.location(example_pointer)
                in_enums += in_enum
        elif leftover:
            errors = [e for e in errors if not _null_for_leftover(explain(e))]
        convention = _convention_finding(
            corpus,
            SchemaTarget(document, schema_pointer),
            value,
            errors,
            partial(_in_document, document, example_pointer),
            example_pointer,
            f"the schema at `{schema_pointer or '/'}`",
        )
        if convention is not None:
            yield convention
        if document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
            # An API document's examples are what readers copy as the values' form (issue 52:
            # Spectral asserts every `format`; speclint the undisputed ones, `_API_FORMATS`).
            yield from _format_findings(
                validator,
                value,
                errors,
                partial(_in_document, document, example_pointer),
                example_pointer,
                f"the schema at `{schema_pointer or '/'}`",
                document.location(schema_pointer, note="the schema whose `format` it fails"),
                _API_FORMATS,
                relative,
            )
        if not errors:
            continue
        # Items of one `examples` array that fail the same keyword at the same place of the
        # schema share one cause (a pattern over-escaped once): one finding, the other items
        # its related locations, as instance-invalid groups the values of one data file.
        array, _, item = example_pointer.rpartition("/")
        cause = (
            (schema_pointer, array, *sorted({_schema_place(explain(e)) for e in errors}))
            if array.endswith("/examples") and item.isdigit()
            else (schema_pointer, example_pointer)
        )
        failed.setdefault(cause, []).append((schema_pointer, example_pointer, errors))
    for group in failed.values():
        (schema_pointer, example_pointer, errors), others = group[0], group[1:]
        failure = _describe(errors)
        if example_pointer in texts:
            failure += " (in the value the example's JSON text shows)"
        repair = fix
        if example_pointer in as_text:
            failure, repair = (part.format(as_text[example_pointer][0]) for part in _AS_TEXT)
        if others:
            items = (
                "1 more item of the array fails"
                if len(others) == 1
                else (f"{len(others)} more items of the array fail")
            )
            failure += f" ({items} the same way)"
        yield Finding(
            ID,
            Severity.WARNING if _schemas_own(schema_pointer, example_pointer) else SEVERITY,
            within(
                f"{failure}; it fails the schema at `{schema_pointer or '/'}`: {repair}",
                f"{failure}; it fails the schema (a related location): {repair}",
                f"{failure}: {repair}",
                f"{failure}: fix the example, or the schema",
                failure,
            ),
            document.location(example_pointer),
            related=(
                document.location(
                    _rejecting(schema_pointer, errors[0]), note="the schema it fails"
                ),
                *_written_at(document, example_pointer, errors[0]),
                *(document.location(p, note="fails the same way") for _, p, _ in others),
            ),
            key=example_pointer,
            heuristic=(
                X_EXAMPLES
                if _vendor_example(example_pointer)
                else API_JSON_TEXT
                if as_text.get(example_pointer, ("", False))[1]
                else IN_DOCUMENT
            ),
            # every item: a waiver at one covers that one
            members=tuple(
                Member(document.location(p, note="fails the same way"), p) for _, p, _ in group
            )
            if others
            else (),
        )
    if document.kind is DocumentKind.OPENAPI:
        kept_apart, apart_nulls = _kept_apart_findings(corpus, document, oas30, relative)
        yield from kept_apart
        nulls += [place for place, _, _ in apart_nulls]
        in_enums += sum(in_enum for _, in_enum, _ in apart_nulls)
        first = first or next((example for _, _, example in apart_nulls), None)
    yield from (_relative_uris(name, places) for name, places in sorted(relative.items()))
    if nulls and first is not None:
        yield _null_examples(first, nulls, in_enums, family(document))


# What was not followed to an example kept apart, by why (``speclint.run.coverage.KINDS``).
_UNFOLLOWED = {
    "remote": ("remote-example", "a remote example, not fetched (speclint never fetches)"),
    "outside": ("example-outside-root", "leads out of the root, not followed"),
    "missing": ("example-not-found", "names no JSON or YAML file or object the repository holds"),
}


def _kept_apart_findings(
    corpus: Context, document: Document, oas30: bool, relative: dict[str, list[Location]]
) -> tuple[list[Finding], list[tuple[Location, bool, Location]]]:
    """The examples of an OpenAPI document kept in other files (``speclint.analyses.api.api_examples``:
    path-item, response and parameter files, example files named by ``$ref`` or
    ``externalValue``), each judged as an inline one is, against the schema of the place that
    refers to it, and reported where it is written, that place related; an example failing two
    places alike is one finding. The references not followed are notes (coverage). Also the
    places where an example gives a ``null`` its schema refuses (and whether only a
    ``nullable`` schema's ``enum`` does), for the document's one note of them, and its
    ``format`` warnings, as an inline one's (``relative``: the document's ``uri`` values with
    no scheme, by member name)."""
    examples, unfollowed = api_examples(corpus, document)
    leftover = _leftovers_reported(corpus, document)
    dialect = validator_class_of(document)
    if oas30:
        dialect = _every_required(dialect)
    nulls: list[tuple[Location, bool, Location]] = []  # the null, in an enum, its example
    failed: dict[tuple[str, str, str], list[tuple[ApiExample, list[ValidationError]]]] = {}
    formats: list[Finding] = []
    judged: set[tuple[str, str]] = set()  # an example's forms, judged once however often used
    for example in examples:
        if _empty_allowed(example.holder_node, example.value):
            continue
        uri = f"{file_uri(example.holder.path)}#{example.schema_at}"
        validator = corpus.references.validator(dialect, uri)
        depth = _serialised_depth_of(example.holder_node, example.place)
        errors = _answerable(validator, example.value, depth, "")
        errors = _without_typos(corpus, errors)
        errors = _outside_direction(corpus, document, join_pointer(example.place, "schema"), errors)
        errors = [e for e in errors if explain(e).instance not in ELISIONS]
        errors, null, in_enum = _set_apart(errors, leftover)
        if null is not None:
            at = example.pointer + error_pointer(explain(null))
            example_at = example.file.location(example.pointer)
            nulls.append((example.file.location(at), in_enum, example_at))
        if (example.file.path, example.pointer) not in judged:
            judged.add((example.file.path, example.pointer))
            holder = f"{example.holder.path}#{example.schema_at}"
            formats += _format_findings(
                validator,
                example.value,
                errors,
                partial(_in_document, example.file, example.pointer),
                f"{example.pointer}@{holder}",
                f"the schema at `{holder}`",
                example.holder.location(
                    example.schema_at, note="the schema whose `format` it fails"
                ),
                _API_FORMATS,
                relative,
            )
        if errors:
            cause = (example.file.path, example.pointer, _describe(errors))
            failed.setdefault(cause, []).append((example, errors))
    found = [_kept_apart_finding(group) for group in failed.values()]
    found += formats
    found += [_unfollowed_note(item) for item in unfollowed]
    return found, nulls


def _kept_apart_finding(group: list[tuple[ApiExample, list[ValidationError]]]) -> Finding:
    """One example kept apart that fails the schema of each place in ``group`` alike."""
    (example, errors), others = group[0], group[1:]
    failure = _describe(errors)
    holder = f"{example.holder.path}#{example.schema_at}"
    fix = "fix the example, or the schema if the example shows what the API really does"
    places = "the places that refer to it" if others else "the place that refers to it"
    related: list[Location] = []
    for one, its_errors in group:
        at = _rejecting(one.schema_at, its_errors[0])
        related.append(one.holder.location(at, note="the schema it fails"))
        related.extend(one.referrals)
    related += [
        example.file.location(
            error_pointer(explain(e)),
            note=f"also at {error_pointer(explain(e)) or '/'}: {short_message(explain(e))}",
        )
        for e in errors[1:RELATED_ERRORS]
    ]
    return Finding(
        ID,
        # A schema's own example (`example: {$ref}` in a schema written in place) is a warning,
        # as in the document (`_schemas_own`): JSON Schema only recommends that it validate.
        Severity.WARNING if example.how == SCHEMA_REF else SEVERITY,
        within(
            f"{failure}; it fails the schema of {places} (`{holder}`): {fix}",
            f"{failure}; it fails the schema of {places} (a related location): {fix}",
            f"{failure}: {fix}",
            f"{failure}: fix the example, or the schema",
            failure,
        ),
        example.file.location(example.pointer),
        related=tuple(dict.fromkeys(related)),
        key=f"{example.pointer}@{holder}",
        heuristic=IN_DOCUMENT,
    )


def _unfollowed_note(item: Unfollowed) -> Finding:
    """A note (coverage, not a finding) that an example reference was not followed."""
    kind, why = _UNFOLLOWED[item.why]
    return Finding(
        ID,
        Severity.INFO,
        f"`{item.written}`: {why}; the example it names is not checked",
        item.location,
        key=f"{item.location.pointer}:{kind}",
        coverage=kind,
    )


def _file_findings(
    corpus: Context, document: Document, options: Mapping[str, Any]
) -> Iterator[Finding]:
    """An example file (a JSON or YAML file of an example folder, with no ``$schema``) against
    the definition its values or shape bind it to."""
    binding = example_file_binding(corpus, document, Binding.of(options))
    target = binding.target
    if target is None:
        return
    uri = f"{file_uri(target.document.path)}#{target.pointer}"
    validator = corpus.references.validator(validator_class_of(target.document), uri)
    # A `$ref` with members beside it merges a base example in (Matrix's event examples
    # name `core/state_event.json`): what it brings is not what the file shows.
    errors = [
        e
        for e in _without_typos(corpus, _judged(corpus, validator, target, document.data))
        if not (_stands_in(e) or _inside_reference(document.data, explain(e)))
    ]
    errors = [e for e in errors if not _sketched(e, by_shape=binding.how == BY_SHAPE)]
    phrase = (
        f"its {binding.evidence}"
        if binding.how == BY_VALUE
        else binding.evidence
        if binding.how == BY_REFERENCE
        else f"its members ({binding.evidence})"
    )
    convention = _convention_finding(
        corpus,
        target,
        document.data,
        errors,
        document.location,
        "file",
        f"`{target.label}`, which {phrase} {_bind(phrase)} the example file to",
    )
    if convention is not None:
        yield convention
    if not errors:
        return
    where = error_pointer(explain(errors[0]))
    yield Finding(
        ID,
        Severity.WARNING if binding.how == BY_SHAPE else SEVERITY,
        within(
            f"{_describe(errors)}; the example file fails `{target.label}`, which {phrase} "
            f"{_bind(phrase)} it to: fix the example, or the schema if the example shows what "
            "the protocol really does (or give the file a `$schema`)",
            f"{_describe(errors)}; {phrase} {_bind(phrase)} it to `{target.label}`: fix the "
            "example, or the schema",
            # The evidence stays said, and a fix with it, however short.
            f"{_describe(errors)}; {phrase} {_bind(phrase)} it to `{target.label}`: fix either",
            f"{_describe(errors)}; it fails `{target.label}` (a related location): fix either",
            f"{_describe(errors)}: fix the example, or the schema (a related location)",
            _describe(errors),
        ),
        document.location(where),
        related=(
            # What binds the file stays said when the message is too long to say it.
            target.document.location(
                _rejecting(target.pointer, errors[0]),
                note=f"the schema it fails ({phrase} {_bind(phrase)} the example here)",
            ),
            *(
                document.location(
                    error_pointer(explain(e)),
                    note=f"also at {error_pointer(explain(e)) or '/'}: {short_message(explain(e))}",
                )
                for e in errors[1:RELATED_ERRORS]
            ),
        ),
        key=f"file{where}",
        heuristic=heuristic(binding.how, binding.own_schema, target),
    )


# Strings that stand for values left out of an example.
ELISIONS = ("...", "…", "etc", "etc.")
# A placeholder where a value goes: `<task-id>`, `{{user}}`, `${TOKEN}`.
PLACEHOLDER = re.compile(r"^(?:<[^<>]+>|\{\{.*\}\}|\$\{[^}]+\})$", re.DOTALL)
# A type written where a value goes, in an example that sketches a payload's fields
# (`"runId": "string"`, `"tags": "string[] (optional)"`, `"at": "ISO8601"`), or the values it
# may take (`"status": "pending | running | ..."`).
TYPE_SKETCH = re.compile(
    r"^(?:string|str|integer|int(?:32|64)?|number|float|double|boolean|bool|object|array|any|"
    r"uri|url|uuid|iso[- ]?8601|date(?:-time)?|timestamp)(?:\[\])?(?:\s*[(,].*)?$"
    r"|^[\w.:/-]+\s*\|\s*[\w.:/-]+",
    re.IGNORECASE | re.DOTALL,
)


def _prose_for(instance: Any, types: Any) -> bool:
    """A string of words where only objects or arrays belong: what the value is, described."""
    wanted = types if isinstance(types, list) else [types]
    return (
        isinstance(instance, str)
        and len(instance.split()) >= 2
        and bool(wanted)
        and all(t in ("object", "array") for t in wanted)
    )


def _sketched(error: ValidationError, by_shape: bool = False) -> bool:
    """A ``required`` error at an object that lacks two or more of its schema's required members
    and gives under half of them (or, bound by shape, lacks two or more)."""
    if error.validator != "required" or not isinstance(error.instance, dict):
        return False
    required = error.validator_value if isinstance(error.validator_value, list) else []
    given = sum(1 for name in required if name in error.instance)
    # One member missing is a defect however few the object has; several, from an object that
    # gives under half, is a sketch. An example bound by its shape alone has less to say it is
    # meant whole: two members missing make it a sketch (an event shown with only the fields a
    # section discusses).
    missing = len(required) - given
    return missing >= 2 and (by_shape or given * 2 < len(required))


# "Meant to fail" is read from explicit markers only (issue 44, item 12): a *label* that says the
# example is one to reject, not a word of an ordinary sentence ("the server rejects any other
# role", "Reply to an invalid request", "When the request is invalid, the agent answers:").
# The marker words, as a label writes them.
_MARKER_WORDS = (
    r"(?:invalid|negative|bad|wrong|incorrect|rejected|not valid|"
    r"counter[- ]?examples?|anti-?patterns?)"
)
# A label: a marker word first, alone or followed by `example`, `case`, `test` or `sample`, then
# nothing but punctuation, or a separator and what it says: `invalid`, "Invalid example",
# "**Invalid**", "Negative: kind/contents mismatch", "Negative test cases", "Counter-example -
# no role", "Bad (no role)". Not "Bad Request" (an HTTP status), "Negative numbers", "Invalid
# SSVC" (a test's name).
_LABELLED = r"(?:\s+(?:examples?|(?:test )?cases?|tests?|samples?))?"
LABEL = re.compile(
    rf"{_MARKER_WORDS}{_LABELLED}(?:[^\w\s]*$|\s*[:(\u2013\u2014]|\s+-\s)",
    re.IGNORECASE,
)
# A label in brackets, in a caption: "Example 2 (invalid):", "*Example 1 (which fails the
# test):*".
BRACKETED = re.compile(
    rf"\((?:{_MARKER_WORDS}{_LABELLED}|(?:which |that )?fails?\b[^()]*)\)",
    re.IGNORECASE,
)
# What comes before a label's words: markup (`**`, `>`), a symbol ("❌ Bad"), a number ("6.1.").
_LEAD = re.compile(r"^(?:[^\w]|\d+(?:\.\d+)*\.?\s)*")
# What a section says of the examples in it that are not valid instances, in any of its
# paragraphs ("Even though not strictly a valid CloudEvent", "Invalid examples"); the bare word is
# no statement about an example ("400 Bad Request: invalid inputs").
NOT_VALID = re.compile(
    r"(?<![\w-])(not (strictly |necessarily |quite )?(a |an )?valid|counter-?examples?|"
    r"(invalid|negative) examples?|examples? (is|are) (invalid|negative))(?![\w-])",
    re.IGNORECASE,
)
# The comment syntax around a comment line of a fence (`// invalid`, `# invalid example`,
# `/* negative */`).
_COMMENT = re.compile(r"^(?://+|#+|/\*+|<!--)(.*?)(?:\*+/|-->)?$")
# An info string's attributes (`title="Invalid: no role"`) and highlighted lines (`{1,3-4}`).
_ATTRIBUTE = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))""")
_LINE_RANGES = re.compile(r"\{[\d,\s-]*\}")


def labelled(text: str) -> bool:
    """Whether ``text`` (a title, a heading, a comment, the line above a fence) is a label
    marking an example as one to reject: it begins with one (after markup and numbering), or
    holds one in brackets."""
    return bool(LABEL.match(_LEAD.sub("", text.strip()))) or BRACKETED.search(text) is not None


def _info_labels(fence: CodeFence) -> Iterator[str]:
    """The texts of a fence's info string after the language that may be a label: each
    attribute's value, and the rest (```` ```json invalid ````, ```` ```json Invalid example
    ````, Mintlify's title)."""
    rest = fence.info[len(fence.language) :]
    for match in _ATTRIBUTE.finditer(rest):
        yield next(value for value in match.groups()[1:] if value is not None)
    rest = _LINE_RANGES.sub(" ", _ATTRIBUTE.sub(" ", rest))
    yield " ".join(rest.replace("{", " ").replace("}", " ").replace(",", " ").split())


# What in a page's text is not its prose: comments (HTML, and MDX's JSX comments), where waivers
# are written (`{/* speclint-ignore example-invalid: ... */}`, issue 44, item 12), and code spans,
# which are names (`invalid_params`).
_NOT_PROSE = re.compile(r"<!--.*?(?:-->|\Z)|\{\s*/\*.*?(?:\*/\s*\}|\Z)|(`+).*?\1", re.DOTALL)


def _words(paragraph: Paragraph) -> str:
    """A paragraph's words as written, without its comments and code spans."""
    return _NOT_PROSE.sub(" ", paragraph.text)


# What the text says of an example that leaves members out on purpose. "Partial" says so ("a
# partial manifest", "partial response:"), but not where it names how a protocol delivers
# ("partial results as they are generated", "partial success": a section's subject, issue 46
# acceptance).
SHORTENED = re.compile(
    r"\b(for brevity|trimmed|omitted|abbreviated|simplified|excerpts?|truncated|elided|"
    r"shortened|partial(?!\s+(?:results?|updates?|success|failures?|progress|streaming)\b)|"
    r"excluded|left out|not shown|irrelevant)\b",
    re.IGNORECASE,
)


class _Surroundings:
    """What one page says around its fences, read once per page: each fence's run start and the
    paragraphs beside a line found by bisection. Asked of every fence, a walk back over the
    earlier fences and a scan of every paragraph made a page of many fences quadratic (issue 44,
    item 4: 20,000 fences took 25 s, 50,000 outlived the rule's time box)."""

    def __init__(self, document: Document) -> None:
        prose = document.prose
        # A comment (a waiver, a marker) between a fence and its paragraph does not part them.
        self.blocks = comment_blocks(document)
        paragraphs = prose.paragraphs if prose is not None else ()
        fences = sorted(prose.fences, key=lambda f: f.line) if prose is not None else []
        self.paragraphs = paragraphs
        # The last paragraph (in page order) ending before a line: indexes ordered by end line,
        # each with the latest index among those up to it.
        by_end = sorted(range(len(paragraphs)), key=lambda i: paragraphs[i].end_line)
        self.ends = [paragraphs[i].end_line for i in by_end]
        self.latest = _running(by_end, max)
        # The first paragraph starting after a line: indexes ordered by start line, each with
        # the earliest index among those from it on.
        by_start = sorted(range(len(paragraphs)), key=lambda i: paragraphs[i].line)
        self.starts = [paragraphs[i].line for i in by_start]
        self.earliest = _running(by_start[::-1], min)[::-1]
        # A run of fences (one statement for a run of examples): each fence's first line, or
        # the first line of the run it ends, fences at most two lines apart.
        self.run_start: dict[int, int] = {}
        for previous, fence in zip([None, *fences], fences, strict=False):
            if previous is not None and self.blocks.above(fence.line) - previous.end_line <= 2:
                self.run_start[fence.line] = self.run_start[previous.line]
            else:
                self.run_start[fence.line] = fence.line
        # The sections with a paragraph saying their examples are not valid ones.
        self.not_valid = {p.heading for p in paragraphs if NOT_VALID.search(_words(p))}

    def beside(self, first: int, last: int) -> tuple[Paragraph | None, Paragraph | None]:
        """The paragraph ending just before line ``first`` and the one starting just after line
        ``last`` (a blank line between at most, comments aside), where there is one."""
        first, last = self.blocks.above(first), self.blocks.below(last)
        found = bisect_left(self.ends, first)
        before = self.paragraphs[self.latest[found - 1]] if found else None
        found = bisect_right(self.starts, last)
        after = self.paragraphs[self.earliest[found]] if found < len(self.starts) else None
        return (
            before if before is not None and first - before.end_line <= 2 else None,
            after if after is not None and after.line - last <= 2 else None,
        )

    def shortened(self, fence: CodeFence) -> bool:
        """Whether the paragraph just before the fence (or before the run of fences it ends),
        or a comment line in it, says the example leaves members out."""
        # A comment line in the fence: `// irrelevant fields excluded`, `# WorkflowDefinition
        # (excerpt)`, `// ... other fields ...` (an elision written as a comment).
        for line in fence.content.split("\n"):
            stripped = line.strip()
            if stripped.startswith(("#", "//", "/*")) and (
                SHORTENED.search(stripped) or "..." in stripped or "…" in stripped
            ):
                return True
        start = self.run_start.get(fence.line, fence.line)
        before = self.beside(start, start)[0]
        return before is not None and SHORTENED.search(before.plain) is not None

    def counter_example(self, fence: CodeFence) -> bool:
        """Whether the example is marked as one to reject, by a label (:func:`labelled`): its
        info string's text or an attribute of it (```` ```json invalid ````, ``title="Negative:
        no role"``), a comment line in it that is a label (``// invalid: no such role``), its
        heading, or the line just above it ("Invalid example:", "Example 1 (which fails the
        test):"); or by its section saying its examples are not valid ("not strictly a valid
        CloudEvent"). A word in an ordinary sentence, a comment in the page (where a waiver
        is written) or a code span marks nothing."""
        if any(labelled(text) for text in _info_labels(fence)):
            return True
        for line in fence.content.split("\n"):
            comment = _COMMENT.match(line.strip())
            if comment and labelled(comment.group(1)):
                return True
        heading = fence.heading
        if heading is not None and (heading in self.not_valid or labelled(heading.text)):
            return True
        before = self.beside(fence.line, fence.end_line)[0]
        return before is not None and labelled(_words(before))


def _running(indexes: list[int], pick: Callable[[int, int], int]) -> list[int]:
    """Each position's ``pick`` (max or min) of ``indexes`` up to it."""
    found: list[int] = []
    for index in indexes:
        found.append(pick(found[-1], index) if found else index)
    return found


def _whole(target: SchemaTarget, example: Any) -> bool:
    """Whether an example tied by text gives at least half of the required members of the
    definition it is tied to (two or more), so it is meant as a whole instance."""
    node = resolve_pointer(target.document.data, target.pointer)
    required = node.get("required") if isinstance(node, dict) else None
    if not isinstance(example, dict) or not isinstance(required, list) or len(required) < 2:
        return False
    given = sum(1 for name in required if name in example)
    return given * 2 >= len(required)


def _stands_in(error: ValidationError) -> bool:
    """Whether ``error`` is about what an example stands in for rather than what it says: a
    placeholder or an elision where a value goes, a description where an object or array goes
    (``"details": "object (optional, error-specific)"``), or a member missing from an object
    that elides some (a ``"..."`` key or value)."""
    specific = explain(error)
    instance = specific.instance
    if isinstance(instance, str) and (instance in ELISIONS or PLACEHOLDER.match(instance)):
        return True
    # A type named where a value of another type goes (`"count": "integer"`), or the values a
    # member may take written as one (`"status": "pending | running"`); not a wrong value of
    # the right type that happens to be a type's name (`"kind": "object"` outside its enum).
    sketched = isinstance(instance, str) and TYPE_SKETCH.match(instance) is not None
    if sketched and (specific.validator in ("type", "format") or "|" in instance):
        return True
    if error.validator == "type" and _prose_for(instance, error.validator_value):
        return True
    if error.validator == "required" and isinstance(instance, dict):
        return any(
            key in ELISIONS or (isinstance(value, str) and value in ELISIONS)
            for key, value in instance.items()
        )
    return False


def _enum_of_nullable(error: Any) -> bool:
    """Whether ``null`` fails only an ``enum`` of a schema that says ``nullable: true`` (read
    in the 2020-12 form the OpenAPI 3.0 dialect is judged in: ``null`` among its types)."""
    schema = error.schema
    if error.validator != "enum" or not isinstance(schema, dict):
        return False
    types = schema.get("type")
    return (
        schema.get("nullable") is True
        or types == "null"
        or (isinstance(types, list) and "null" in types)
    )


def _leftovers_reported(corpus: Context, document: Document) -> bool:
    """Whether oas30-leftover reports this document's leftover ``nullable`` schemas (an
    OpenAPI 3.1 document, and the files its examples are kept in, when that rule runs): only
    then is a ``null`` they refuse left to it."""
    return (
        document.kind is DocumentKind.OPENAPI
        and document.dialect.startswith("OpenAPI 3.1")
        and corpus.runs(LEFTOVER_REPORTED_BY)
    )


def _null_for_leftover(error: Any) -> bool:
    """Whether ``null`` fails only a schema that says ``nullable: true`` where that is no keyword
    (OpenAPI 3.1, JSON Schema): the example says what the author meant, the schema does not, and
    oas30-leftover reports that schema once; the examples are not each a defect of their own."""
    schema = error.schema
    return (
        error.instance is None
        and isinstance(schema, dict)
        and schema.get("nullable") is True
        and error.validator in ("type", "enum", "const")
    )


def _set_apart(
    errors: list[ValidationError], leftover: bool
) -> tuple[list[ValidationError], ValidationError | None, bool]:
    """An API example's errors but those of a ``null`` its schema refuses, the first of those
    (for the document's one note, ``_null_examples``), and whether only the ``enum`` of a
    ``nullable`` schema refuses them. A ``null`` only a leftover ``nullable: true`` admits
    (OpenAPI 3.1) is oas30-leftover's, at the schema, and dropped here."""
    if leftover:
        errors = [e for e in errors if not _null_for_leftover(explain(e))]
    kept = [e for e in errors if explain(e).instance is not None]
    nulls = [e for e in errors if explain(e).instance is None]
    in_enum = bool(nulls) and all(_enum_of_nullable(explain(e)) for e in nulls)
    return kept, (nulls[0] if nulls else None), in_enum


# What a schema says to admit `null`, by OpenAPI family (`api_schemas.family`): Swagger 2.0 has
# none, `x-nullable` is the extension its generators (go-swagger, swagger-codegen) read.
_NULLABLE = {
    "2.0": "`x-nullable: true` to {schemas}",
    "3.0": "`nullable: true` to {schemas}",
    "3.1+": '`"null"` to the `type` of {schemas}',
}


def _null_examples(
    first: Location, places: list[Location], in_enums: int, version: str = "3.0"
) -> Finding:
    """One info for the examples of an OpenAPI document that give ``null`` to a value whose
    schema does not allow it (not ``nullable``, or an ``enum`` without ``null``): a generator's
    habit, shown once. The advice names what is missing: ``nullable: true`` (``_NULLABLE``: in
    3.1 ``"null"`` in the ``type``), or, where the schemas say it already, ``null`` in their
    ``enum`` (OpenAPI 3.0.3 §4.7.24.1: an ``enum`` restricts ``null`` too)."""
    many = len(places) > 1
    count = f"{len(places)} examples in this document give" if many else "an example gives"
    listed = "each listed as a related location" if many else "at this location"
    schemas = "those schemas" if many else "the schema"
    mark = _NULLABLE.get(version, _NULLABLE["3.0"]).format(schemas=schemas)
    # an `enum` restricts `null` too: OpenAPI 3.0.3 says so of `nullable`, JSON Schema of `type`
    asks = "as OpenAPI 3.0.3 asks" if version == "3.0" else "since an `enum` restricts `null` too"
    if in_enums == len(places):
        short = f"whose `enum` lacks `null` ({listed}): add `null` to the enum"
        what = (
            f"whose schema admits `null` but whose `enum` lacks it ({listed}): add "
            f"`null` to the enum, {asks}"
        )
    elif in_enums:
        short = f"its schema does not allow ({listed}): add {mark}, or `null` to an `enum`"
        what = (
            f"whose schema does not allow it ({listed}): add {mark}, and `null` to the `enum` of "
            f"the {in_enums} that admit `null` already, {asks}"
        )
    else:
        short = f"its schema does not allow ({listed}): add {mark}"
        what = f"whose schema does not allow it ({listed}): add {mark}"
    examples = "the examples" if many else "the example"
    return Finding(
        ID,
        Severity.INFO,
        within(
            f"{count} `null` to a value {what}, or leave the value out of {examples}",
            f"{count} `null` to a value {what}",
            f"{count} `null` to a value {short}",
        ),
        # at the first example (one note of the document), each refused `null` related
        first,
        related=tuple(
            Location(p.path, p.line, p.column, pointer=p.pointer, note="a `null` it refuses")
            for p in places
        ),
        key="null-for-not-nullable",
        heuristic=IN_DOCUMENT,
    )


def _page_findings(
    corpus: Context, document: Document, options: Mapping[str, Any]
) -> Iterator[Finding]:
    """One page's JSON code fences, against the schema each one is tied to; then the parameter
    values its requests give."""
    yield from _fence_findings(corpus, document, options)
    if Binding.of(options).operation:
        yield from _parameter_findings(corpus, document)


def _fence_findings(
    corpus: Context, document: Document, options: Mapping[str, Any]
) -> Iterator[Finding]:
    surroundings = _Surroundings(document)
    for tie in fence_ties(corpus, document, Binding.of(options)):
        fence = tie.fence
        indent = fence.margin  # a fence in a list item, an indented block's four spaces
        tie_location = Location(
            document.path,
            tie.line,
            1,
            pointer=fence.heading.anchor if fence.heading else "",
            note=f"the {tie.how} that ties this example to `{tie.named}`",
        )
        heading = f"#{fence.heading.anchor}" if fence.heading else ""
        if tie.target is None:
            if tie.explicit:
                yield Finding(
                    ID,
                    Severity.WARNING,
                    within(
                        f"the example is tied by {tie.how} to `{tie.named}`, which names no "
                        "schema in the corpus, so it is not checked: fix the name (a path "
                        "relative to this page or the corpus root, or a file name only one "
                        "schema has), or add the schema",
                        f"the example is tied by {tie.how} to `{tie.named}`, which names no "
                        "schema in the corpus, so it is not checked: fix the name (a path, or a "
                        "file name), or add the schema",
                        f"the example is tied to `{tie.named}`, which names no schema in the "
                        "corpus, so it is not checked: fix the name, or add the schema",
                    ),
                    Location(document.path, tie.line, 1, pointer=heading),
                    key=f"{fence.line}:unresolved",
                    heuristic=EXPLICIT,
                )
            continue
        try:
            parsed = fence_data(
                fence, lenient=tie.how in BY_EXAMPLE or tie.how in (BY_HEADING, BY_TITLE)
            )
        except ParseFailure as error:
            if tie.explicit:
                yield Finding(
                    ID,
                    Severity.WARNING,
                    within(
                        f"the example tied to `{tie.named}` is not {fence.language.upper()}: "
                        f"{error.message}; it cannot be checked. Make it complete JSON (use a "
                        "`jsonc` fence for comments), or drop the tie if it is only a sketch",
                        f"the example tied to `{tie.named}` is not {fence.language.upper()}: "
                        f"{error.message}; make it complete JSON, or drop the tie",
                    ),
                    Location(
                        document.path,
                        fence.line + error.line,
                        error.column + (indent if error.line > 0 else 0),
                        pointer=heading,
                    ),
                    related=(tie_location,) if tie.line != fence.line else (),
                    key=f"{fence.line}:not-json",
                    heuristic=EXPLICIT,
                )
            continue
        target = tie.target
        uri = f"{file_uri(target.document.path)}#{target.pointer}"
        dialect = validator_class_of(target.document)
        # A fragment's part (`/result`) is the instance; where errors are is said in the whole.
        instance = resolve_pointer(parsed.data, tie.part) if tie.part else parsed.data
        validator = corpus.references.validator(dialect, uri)
        errors = (
            _errors(validator, instance)
            if tie.part
            else _judged(corpus, validator, target, instance)
        )
        errors = _without_typos(corpus, errors)
        if tie.how in BY_TEXT and not _whole(target, instance):
            # A tie by text often shows one block of a larger document (the `compensation`
            # family of a capabilities document): check what the example says, not what it
            # leaves out. One that gives most of the definition's required members is meant
            # whole ("An example `AgentCard`:"), and what it lacks is its defect.
            # Under a heading that is the definition's name, every member shown is one of its
            # own (`_by_title`): the objects inside are shown whole, so only what the example
            # leaves out at its top is not judged.
            errors = (
                [e for e in errors if e.path] + _without_required(e for e in errors if not e.path)
                if tie.how == BY_TITLE
                else _without_required(errors)
            )
        if not tie.part and fence.content.lstrip().startswith('"'):
            # Members shown without their braces (`"min_turn_silence": 160, ...`: the settings
            # a section discusses), read as the object of those members (`fence_data`): a
            # fragment, so the other members of the object they belong to are not its defect.
            # The value a member shows is shown whole (`"payload": {...}`, an object page's
            # example): what it lacks is (issue 46 acceptance, a member-form example).
            errors = _member_form(errors)
        # What an example stands in for is not judged: a placeholder (`<task-id>`) where a
        # value goes, a member left out of an object that elides others (`"...": "..."`).
        errors = [
            e for e in errors if not (_stands_in(e) or _inside_reference(instance, explain(e)))
        ]
        if tie.fragment:
            # One member shown alone: the others its definition requires are elsewhere.
            root = [e for e in errors if not e.path]
            errors = [e for e in errors if e.path] + [
                e
                for e in _without_required(root)
                if e.validator not in ("dependentRequired", "minProperties")
                # An excerpt of a root document shows only members its root declares (what
                # binds it); `unevaluatedProperties` fails there only because the `oneOf`
                # branch declaring them wants members it leaves out, and a failed branch
                # evaluates nothing (JSON Schema 2020-12 Core §11.3).
                and not (tie.how in FRAGMENT_TIES and e.validator == "unevaluatedProperties")
            ]
        if tie.how == BY_PAGE:
            # Bound by its company on the page, not by what it gives: it shows one member's
            # part (`windows: {resources: ...}`), so what it leaves out is not its defect.
            errors = _without_required(errors)
        if tie.how in BY_EXAMPLE or tie.how in (BY_HEADING, BY_TITLE):
            if surroundings.counter_example(fence):
                continue  # shown to be rejected ("### Negative: ..."): its errors are the point
            # An object that gives under half of its required members is a sketch of a few of
            # them: what it leaves out is not its defect; nor is it in an example the text says
            # is shortened ("Unimportant fields trimmed for brevity.", "# ... (excerpt)").
            if surroundings.shortened(fence):
                errors = _without_required(errors)
            errors = [e for e in errors if not _sketched(e, by_shape=tie.how == BY_SHAPE)]
        verb = _bind(tie.phrase, "binds" if tie.how in BY_EXAMPLE else "ties")

        convention = _convention_finding(
            corpus,
            target,
            instance,
            errors,
            partial(_in_fence, document, fence, parsed, (indent, heading), tie.part),
            f"{fence.line}{tie.part}",
            f"`{target.label}`, which {tie.phrase} {verb} it to",
        )
        if convention is not None:
            yield convention
        yield from _format_findings(
            validator,
            instance,
            errors,
            partial(_in_fence, document, fence, parsed, (indent, heading), tie.part),
            f"{fence.line}{tie.part}",
            f"`{target.label}`, which {tie.phrase} {verb} it to",
            target.document.location(target.pointer, note="the schema whose `format` it fails"),
        )
        if not tie.part and not tie.fragment:
            yield from _payload_findings(corpus, document, fence, parsed, target, instance, heading)
        if not errors:
            continue
        failure = _describe(errors, tie.part) + _meant(tie.how, target, instance)
        where = tie.part + error_pointer(explain(errors[0]))
        line, column = parsed.positions.get(where, (1, 1))
        yield Finding(
            ID,
            Severity.WARNING if tie.how == BY_SHAPE else SEVERITY,
            within(
                f"{failure}; the example fails `{target.label}`, which {tie.phrase} {verb} it "
                "to: fix the example, or the schema if the example shows what the protocol "
                "really does",
                f"{failure}; {tie.phrase} {verb} it to `{target.label}`: fix the example, or "
                "the schema",
                # The evidence stays said, and a fix with it, however short.
                f"{failure}; {tie.phrase} {verb} it to `{target.label}`: fix either",
                f"{failure}; {tie.phrase} {verb} it to the schema: fix either",
                f"{failure}; {tie.phrase} {verb} it to the schema (a related location)",
                f"{failure}; it fails `{target.label}` (a related location): fix either",
                f"{failure}: fix the example, or the schema (a related location)",
                failure,
            ),
            Location(document.path, fence.line + line, column + indent, pointer=heading),
            related=(
                # What binds the example stays said when the message is too long to say it.
                target.document.location(
                    _rejecting(target.pointer, errors[0]),
                    note=f"the schema it fails ({tie.phrase} {verb} the example here)",
                ),
                *((tie_location,) if tie.line != fence.line else ()),
                *_other_errors(document, fence, parsed, tie.part, errors[1:], indent, heading),
            ),
            key=f"{fence.line}{where}",
            heuristic=heuristic(tie.how, tie.own_schema, target),
        )


RELATED_ERRORS = 10  # the example's other errors shown as related locations
# An envelope's open payload bound by the kind the example names (`"kind": "orderstatus"` and
# `orderstatus.schema.json`): a pairing the implementations make and no schema says, measured
# alone (issue 46, round 4).
ENVELOPE_KIND = f"{ID}/envelope-kind"


def _payload_findings(
    corpus: Context,
    document: Document,
    fence: CodeFence,
    parsed: Any,
    envelope: SchemaTarget,
    instance: Any,
    heading: str,
) -> Iterator[Finding]:
    """The example's payload against the schema its kind names (``speclint.analyses.api.envelopes``),
    where the envelope leaves the payload open: one finding, at the payload's first error."""
    bound = payload_schema(corpus, envelope, instance)
    if bound is None:
        return
    target = bound.target
    payload = instance[bound.member]
    validator = corpus.references.validator(
        validator_class_of(target.document), f"{file_uri(target.document.path)}#"
    )
    errors = _without_typos(corpus, _errors(validator, payload))
    errors = [e for e in errors if not (_stands_in(e) or _inside_reference(payload, explain(e)))]
    errors = [e for e in errors if not _sketched(e)]
    if not errors:
        return
    part = f"/{bound.member}"
    failure = _describe(errors, part)
    where = part + error_pointer(explain(errors[0]))
    line, column = parsed.positions.get(where, (1, 1))
    kind_line, kind_column = parsed.positions.get(bound.at, (1, 1))
    indent = fence.margin
    phrase = f'its `{bound.at[1:].replace("/", ".")}: "{bound.value}"` names'
    yield Finding(
        ID,
        SEVERITY,
        within(
            f"{failure}; the example's `{bound.member}` fails `{target.label}`, the schema "
            f"{phrase} (`{envelope.label}` leaves `{bound.member}` open): fix the example, or "
            "the schema if the example shows what the protocol really does",
            f"{failure}; its `{bound.member}` fails `{target.label}`, which {phrase}",
            f"{failure}; it fails `{target.label}` (a related location)",
            failure,
        ),
        Location(document.path, fence.line + line, column + indent, pointer=heading),
        related=(
            target.document.location("", note="the schema the example's kind names"),
            Location(
                document.path,
                fence.line + kind_line,
                kind_column + indent,
                pointer=heading,
                note="the kind that names the payload's schema",
            ),
        ),
        key=f"{fence.line}{where}:kind",
        heuristic=ENVELOPE_KIND,
    )


def _meant(how: str, target: SchemaTarget, instance: Any) -> str:
    """For an excerpt bound by its page (``page-root``) through a top-level member that misses
    one of its closed root's: which member it meant."""
    node = resolve_pointer(target.document.data, target.pointer)
    declared = node.get("properties") if isinstance(node, dict) else None
    if how != BY_PAGE or not isinstance(declared, dict) or not isinstance(instance, dict):
        return ""
    for key in instance:
        meant = (
            near_member(str(key), frozenset(map(str, declared))) if key not in declared else None
        )
        if meant is not None:
            return f" (did you mean `{meant}`?)"
    return ""


def _parameter_findings(corpus: Context, document: Document) -> Iterator[Finding]:
    """The query and path parameter values of the page's concrete requests that their
    operation's parameter schemas reject (``speclint.analyses.api.exchanges.parameter_values``).
    A value is read as its schema's type reads it (OpenAPI 3.1 §4.8.12.4: a ``simple`` or
    ``form`` value is the text of a primitive); one not of that form (`?limit=N`) is not judged,
    and neither is an array or object parameter (a serialised list)."""
    surroundings = _Surroundings(document)
    for given in parameter_values(corpus, document):
        if surroundings.counter_example(given.fence):
            continue
        operation = given.operation
        schema = _resolve_local(
            operation.document, resolve_pointer(operation.document.data, given.pointer)
        )
        value = _typed(given.value, schema)
        if value is None or _named_placeholder(given.value, schema):
            continue
        uri = f"{file_uri(operation.document.path)}#{given.pointer}"
        validator = corpus.references.validator(validator_class_of(operation.document), uri)
        errors = _errors(validator, value)
        if not errors:
            continue
        failure = short_message(explain(errors[0]))
        kind = "query" if given.place == "query" else "path"
        yield Finding(
            ID,
            SEVERITY,
            within(
                f"{kind} parameter `{given.name}` is `{given.value}` in the request: {failure}; "
                f"the request fails `{operation.label}`'s parameter schema: fix the example "
                "request, or the schema if the API takes the value",
                f"{kind} parameter `{given.name}` is `{given.value}`: {failure}; fix the "
                "request, or the parameter's schema",
                f"{kind} parameter `{given.name}`: {failure}",
            ),
            Location(
                document.path,
                given.line,
                given.column,
                pointer=f"#{given.fence.heading.anchor}" if given.fence.heading else "",
            ),
            related=(
                operation.document.location(
                    given.pointer, note=f"the schema of the parameter ({given.evidence})"
                ),
            ),
            key=f"{given.fence.line}:{given.place}:{given.name}",
            heuristic=PARAMETER_VALUE,
        )


# A word that names the value it stands for: in capitals (`?view=VIEW`, `/jobs/JOB_ID`), the
# reader's (`your-job-id`, `my_bucket`), or a type's name (`?since=string`).
_CAPITALS = re.compile(r"[A-Z][A-Z0-9_]*\Z")
_READERS_WORD = re.compile(
    r"(?:your|my|some|example)[-_]|(?:string|integer|number|boolean)\Z", re.I
)


def _named_placeholder(text: str, schema: Any) -> bool:
    """Whether a parameter's text is a word standing for its value, not a value: one in
    capitals where the schema's ``enum`` has none in capitals, a reader's, a type's name."""
    enum = schema.get("enum") if isinstance(schema, dict) else None
    capitals = isinstance(enum, list) and any(
        isinstance(v, str) and _CAPITALS.match(v) for v in enum
    )
    return bool((_CAPITALS.match(text) and not capitals) or _READERS_WORD.match(text))


def _typed(text: str, schema: Any) -> Any:
    """A parameter's text as its schema's type reads it, or None where it is not of that form
    (a word where a number goes is a placeholder as often as a defect) or the schema takes a
    list or an object (a serialised form, OpenAPI's ``style``)."""
    types = schema.get("type") if isinstance(schema, dict) else None
    wanted = types if isinstance(types, list) else [types] if isinstance(types, str) else []
    if any(t in ("array", "object") for t in wanted):
        return None
    for kind in wanted or ["string"]:
        if kind == "integer" and re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if kind == "number" and re.fullmatch(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", text):
            return float(text) if not re.fullmatch(r"[+-]?\d+", text) else int(text)
        if kind == "boolean" and text in ("true", "false"):
            return text == "true"
        if kind == "string":
            return text
    return None


FORMAT = f"{ID}/format"
# The formats whose values have one form that no reading disputes (RFC 4122's UUID, RFC 3339's
# date and date-time). `format` is an annotation unless a validator opts in to asserting it (JSON
# Schema 2020-12 Validation §7.2.1; draft 7 §7.2 leaves it to the implementation; OpenAPI 3.0 and
# 3.1 name formats for tools to use), so a value of another form fails no validator by default;
# but a reader copies the example as the form of the value, and a server that asserts formats
# rejects it. A preview heuristic, reported apart from the validation errors.
_FORMATS = FormatChecker(formats=("uuid", "date-time", "date"))
# An API document's examples are also judged as `uri`s (issue 52): a URI has a scheme (RFC 3986
# §3: `scheme ":" hier-part`; JSON Schema's and OpenAPI's `uri` is RFC 3986's URI), so a
# relative reference (`/v1/runs/1`) or a bare host (`www.example.com/x`) is a `uri-reference`'s
# example, not a `uri`'s. Only that, and whitespace, is asserted: a template's braces
# (`https://example.com/{id}`) are left to the reader. Not in prose, whose links are the page's.
_API_FORMATS = FormatChecker(formats=("uuid", "date-time", "date"))
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def _absolute_uri(value: object) -> bool:
    return not isinstance(value, str) or (
        _SCHEME.match(value) is not None and not any(c.isspace() for c in value)
    )


_API_FORMATS.checks("uri")(_absolute_uri)


def _format_findings(
    validator: Validator,
    example: Any,
    errors: list[ValidationError],
    located: Callable[[str], Location],
    key: str,
    bound: str,
    schema: Location,
    formats: FormatChecker = _FORMATS,
    relative: dict[str, list[Location]] | None = None,
) -> Iterator[Finding]:
    """The values of an example (in prose, or in an API document) whose form is not the
    ``format`` its schema names (``formats``: :data:`_FORMATS`, :data:`_API_FORMATS`), one
    finding for the example; a value already in error, a placeholder or an elision is not
    judged again."""
    if not _any_string(example, _has_digit) and not (
        formats is _API_FORMATS and _any_string(example, _may_fail_uri)
    ):
        return  # every value failing those forms has digits (or is no URI): no second pass
    failing = {error_pointer(explain(e)) for e in errors}
    found = [
        error
        for error in _errors(validator.evolve(format_checker=formats), example)
        if error.validator == "format"
        and error_pointer(error) not in failing
        and not _stands_in(error)
        and not _echoes_its_name(error)
        and not (
            _names_a_uri(error.instance)
            if error.validator_value == "uri"
            else _names_its_value(error.instance)
        )
    ]
    if relative is not None:
        # `uri` values given as relative references: gathered by member name (`relative`)
        for error in [e for e in found if e.validator_value == "uri"]:
            name = str(error.absolute_path[-1]) if error.absolute_path else ""
            relative.setdefault(name, []).append(located(error_pointer(error)))
        found = [e for e in found if e.validator_value != "uri"]
    if not found:
        return
    first = found[0]
    where = error_pointer(first) or "/"
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    yield Finding(
        ID,
        Severity.WARNING,
        within(
            f"example at {where}: {_shown(first.instance)} is not a `{first.validator_value}`, "
            f"the `format` of {bound}{more}; `format` is asserted only where a validator opts "
            "in, but readers copy the example as the value's form: give a value of that form",
            f"example at {where}: {_shown(first.instance)} is not a `{first.validator_value}` "
            f"(its `format`){more}; give a value of that form",
        ),
        located(where if where != "/" else ""),
        related=(schema, *(located(error_pointer(e)) for e in found[1:RELATED_ERRORS])),
        key=f"{key}:format{where}",
        heuristic=FORMAT,
    )


def _relative_uris(name: str, places: list[Location]) -> Finding:
    """One warning for the examples of a document that give the member ``name`` a value with
    no scheme where its schema says ``format: uri`` (the other places related)."""
    places = sorted(set(places), key=lambda at: (at.line, at.column))
    many = len(places) > 1
    if name:
        count = f"{len(places)} examples give" if many else "an example gives"
        said = f"{count} `{name}` a value that is no URI"
    else:
        said = f"{len(places)} examples are no URI" if many else "an example is no URI"
    return Finding(
        ID,
        Severity.WARNING,
        f"{said} (no scheme: a relative reference or a bare host; or a space), "
        "where its schema says `format: uri`, which RFC 3986 §3 gives a scheme: say "
        "`format: uri-reference` if relative links are what the API sends, or give absolute URIs",
        places[0],
        related=tuple(dataclasses.replace(at, note="the same") for at in places[1:RELATED_ERRORS]),
        key=f"format:uri:{name}",
        heuristic=FORMAT,
        members=tuple(
            Member(dataclasses.replace(at, note="the same"), f"{at.pointer}") for at in places
        )
        if len(places) > 1
        else (),
    )


def _any_string(value: Any, test: Callable[[str], bool], depth: int = 0) -> bool:
    """Whether ``value`` holds a string that passes ``test`` (at a bounded depth)."""
    if isinstance(value, str):
        return test(value)
    if depth > 32:
        return False
    if isinstance(value, dict):
        return any(_any_string(v, test, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(_any_string(v, test, depth + 1) for v in value)
    return False


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _may_fail_uri(text: str) -> bool:
    """Whether ``text`` may be a value given without a scheme (`/runs/1`, `api.example.com`)
    rather than a word that names one (`callback-url`). An empty string says "unset", as a
    default does (value-invalid's convention): 7 of 7 such findings were labelled noise."""
    return "/" in text or "." in text


# A shell variable the reader substitutes (`$ACCOUNT_ID`, `${RUN_ID}`).
_VARIABLE = re.compile(r"^\$\{?[A-Za-z_]\w*\}?$")


def _echoes_its_name(error: ValidationError) -> bool:
    """Whether the value is its member's own name, respelled (`Webhooks.OnChannelAdd.Url:
    webhooks.on_channel_add.url`, `updateTime: updateTime`): a generator's stand-in for the
    value, not a value of the wrong form."""
    name = str(error.absolute_path[-1]) if error.absolute_path else ""
    return bool(name) and isinstance(error.instance, str) and bare(name) == bare(error.instance)


def _names_a_uri(value: Any) -> bool:
    """Whether a string stands for a URI rather than being one: a shell variable, or a word
    (`callback-url`) or an empty string ("unset"); a path or a host is a value, relative."""
    return isinstance(value, str) and (bool(_VARIABLE.match(value)) or not _may_fail_uri(value))


def _names_its_value(value: Any) -> bool:
    """Whether a string stands for the value rather than being one: a shell variable, or words
    with no digit (`session-id`, `YOUR_UUID`, `now`), where every UUID, date and date-time has
    digits."""
    return isinstance(value, str) and (
        bool(_VARIABLE.match(value)) or not any(c.isdigit() for c in value)
    )


def _shown(value: Any) -> str:
    """A value as a message quotes it, cut short."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _convention_finding(
    corpus: Context,
    target: SchemaTarget,
    example: Any,
    errors: list[ValidationError],
    located: Callable[[str], Location],
    key: str,
    bound: str,
) -> Finding | None:
    """The members of an example spelt in another case convention than its schema declares them
    (``speclint.analyses.api.spellings``), one finding for the example: a member a closed object
    rejects is reported by its validation error already (one defect, one finding)."""
    schema = resolve_pointer(target.document.data, target.pointer)
    resolver = corpus.references.registry.resolver(base_uri=file_uri(target.document.path))
    found = [s for s in slips(schema, resolver, example) if not _rejected(s, errors)]
    if any(corpus.of_kind(DocumentKind.PROTO)):
        # A document of a proto API (a gateway's, generated from its protos): its server reads
        # the field's own name as its JSON name.
        found = [s for s in found if not protojson_alias(s.given, s.declared)]
    if not found:
        return None
    first, others = found[0], found[1:]
    fix = f"write `{first.declared}`"
    more = (
        f" ({len(others)} more member{'s' if len(others) > 1 else ''} of it alike, each a "
        "related location)"
        if others
        else ""
    )
    said = (
        f"example at {first.pointer}: `{first.given}` is `{first.declared}` in another case "
        f"convention{more}"
    )
    return Finding(
        ID,
        Severity.WARNING,
        within(
            f"{said}; {bound} declares `{first.declared}` and accepts any other member, so the "
            f"value is ignored: {fix}",
            f"{said}; the schema (a related location) declares `{first.declared}` and ignores "
            f"`{first.given}`: {fix}",
            f"{said}: {fix}",
            said,
        ),
        located(first.pointer),
        related=(
            target.document.location(target.pointer, note="the schema that declares the member"),
            *(
                dataclasses.replace(located(s.pointer), note=f"`{s.given}`: write `{s.declared}`")
                for s in others[:RELATED_ERRORS]
            ),
        ),
        key=f"{key}:convention{first.pointer}",
        heuristic=CASE_CONVENTION,
    )


def _in_document(document: Document, example: str, at: str) -> Location:
    """Where ``at`` of the example at ``example`` is in its document."""
    return document.location(example + at)


def _in_fence(
    document: Document,
    fence: CodeFence,
    parsed: Parsed,
    indented: tuple[int, str],
    part: str,
    at: str,
) -> Location:
    """Where ``at`` of the instance at ``part`` of a fence's example is on the page
    (``indented``: the fence's indent and its heading's anchor)."""
    indent, heading = indented
    line, column = parsed.positions.get(part + at, (1, 1))
    return Location(document.path, fence.line + line, column + indent, pointer=heading)


def _rejected(slip: Slip, errors: list[ValidationError]) -> bool:
    """Whether validation rejects the member already (a closed object's
    ``additionalProperties``/``unevaluatedProperties`` naming it)."""
    for error in errors:
        for one in (error, explain(error)):
            if (
                one.validator in ("additionalProperties", "unevaluatedProperties")
                and error_pointer(one) == slip.at
                and (repr(slip.given) in one.message or json.dumps(slip.given) in one.message)
            ):
                return True
    return False


# What the failure itself may take of a message's 200 characters, the rest for where and why.
FAILURE_ROOM = 160


def _other_errors(
    document: Document,
    fence: CodeFence,
    parsed: Parsed,
    part: str,
    errors: list[ValidationError],
    indent: int,
    heading: str,
) -> Iterator[Location]:
    """The example's other errors, each where it is in the fence (issue 28, item 2)."""
    for error in errors[:RELATED_ERRORS]:
        specific = explain(error)
        where = part + error_pointer(specific)
        line, column = parsed.positions.get(where, (1, 1))
        yield Location(
            document.path,
            fence.line + line,
            column + indent,
            pointer=heading,
            note=f"also at {where or '/'}: {short_message(specific)}",
        )


def _unmatched_configuration(corpus: Context, configured: Mapping[str, str]) -> Iterator[Finding]:
    """A configured fence tie whose page or heading does not exist checks nothing, silently:
    the heading was renamed, or the key misspelt."""
    for key, schema_name in sorted(configured.items()):
        page, _, anchor = key.partition("#")
        document = corpus.documents.get(page)
        where = Location(
            corpus.config_path(),
            corpus.config.line_of(f'"{key}"'),
            1,
            pointer=f"/rules/{ID}/fences/{escape_token(key)}",
        )
        if document is None or document.kind is not DocumentKind.MARKDOWN:
            yield Finding(
                ID,
                Severity.WARNING,
                f"the configured fence tie `{key}` names no Markdown page of the corpus, so no "
                f"example is checked against `{schema_name}`: fix the page path (relative to the "
                "corpus root) or remove the entry",
                where,
                key=f"config:{key}",
                heuristic=EXPLICIT,
            )
            continue
        anchors = [h.anchor for h in document.prose.headings] if document.prose else []
        if anchor and anchor not in anchors:
            close = difflib.get_close_matches(anchor, anchors, n=1)
            hint = f" (did you mean `#{close[0]}`?)" if close else ""
            yield Finding(
                ID,
                Severity.WARNING,
                f"the configured fence tie `{key}` matches no heading of `{page}`{hint}, so no "
                f"example is checked against `{schema_name}`: write the heading's anchor as "
                "GitHub makes it, or remove the entry",
                where,
                related=(Location(page, 1, 1, note="the page it names"),),
                key=f"config:{key}",
                heuristic=EXPLICIT,
            )


def _without_required(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """The errors a fragment is answerable for: what it says, not what it leaves out.

    ``required`` failures go, and so does an ``anyOf``/``oneOf`` failure when one of its branches
    failed only on ``required``. (A validator subclass cannot do this: jsonschema re-selects the
    class from each resource's ``$schema`` when it follows a ``$ref``.)
    """
    kept: list[ValidationError] = []
    for error in errors:
        if error.validator == "required":
            continue
        if error.validator in {"anyOf", "oneOf"} and error.context:
            branches: dict[Any, list[ValidationError]] = {}
            for inner in error.context:
                branch = inner.relative_schema_path[0] if inner.relative_schema_path else None
                branches.setdefault(branch, []).append(inner)
            if any(not _without_required(branch) for branch in branches.values()):
                continue
        kept.append(error)
    return kept


def _member_form(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """The errors of an example written as members without their braces: those inside the
    members' values, and those of the object the members belong to less what it leaves out."""
    errors = list(errors)
    return [e for e in errors if e.path] + _without_required(e for e in errors if not e.path)


def _without_typos(corpus: Context, errors: list[ValidationError]) -> list[ValidationError]:
    """The errors less each ``required`` failure for a name its schema declares nowhere:
    ``required-undeclared`` reports that typo, at the ``required`` list, and an example that
    lacks the misspelt name fails for it alone (one defect, one finding; issue 45). Its other
    errors stay."""
    if not corpus.runs(REPORTED_BY) or not any(e.validator == "required" for e in errors):
        return errors
    index = corpus.schemas
    return [
        e
        for e in errors
        if not (
            e.validator == "required"
            and any(
                f"{name!r} is a required property" == e.message for name in index.typos(e.schema)
            )
        )
    ]


@cache
def _every_required(dialect: Any) -> Any:
    """OpenAPI 3.0's dialect with JSON Schema's own ``required``: openapi-schema-validator's
    skips a ``readOnly`` or ``writeOnly`` member declared in place in both directions, and
    demands one declared through a ``$ref``; which direction lets one go is decided by
    :func:`_outside_direction`, wherever it is declared."""
    return validators.extend(dialect, {"required": Draft4Validator.VALIDATORS["required"]})


_ALTERNATIVES = ("oneOf", "anyOf")
# openapi-schema-validator's failure for an object without the Discriminator Object's
# `propertyName` member (reported under the `oneOf`/`anyOf` it selects among).
_DISCRIMINATOR_MISSING = re.compile(r"does not contain discriminating property '([^']*)'$")
# Where an OpenAPI document's example travels: what a client sends, or what the server answers.
_REQUEST = re.compile(r"/(?:requestBody|parameters)/|^/components/(?:requestBodies|parameters)/")
_RESPONSE = re.compile(r"/responses/|^/components/(?:responses|headers)/")


def _outside_direction(
    corpus: Context, document: Document, schema_pointer: str, errors: list[ValidationError]
) -> list[ValidationError]:
    """The errors less each ``required`` failure for a member the example's direction leaves
    out: a ``readOnly`` one in a request, a ``writeOnly`` one in a response.

    OpenAPI 3.0.3 §4.7.24.1 (Schema Object, ``readOnly``): "If the property is marked as
    readOnly being true and is in the required list, the required will take effect on the
    response only" (``writeOnly``: on the request only). OpenAPI 3.1 dropped that sentence for
    JSON Schema's annotations, whose Validation 2020-12 §9.4 lets the owning authority ignore
    or reject a ``readOnly`` value, and its "Validating readOnly and writeOnly" section leaves
    the check to the implementation (a MAY): a 3.1 request example that leaves out what the
    server manages is one the specification lets tools accept, so it is read the same way here
    rather than reported on a reading the document's own tools need not share. Swagger 2.0
    (``readOnly`` only, and "SHOULD NOT be in the required list") and JSON Schema files (no
    direction) keep every error."""
    if document.kind is not DocumentKind.OPENAPI or not document.dialect.startswith("OpenAPI 3"):
        return errors
    if _REQUEST.search(schema_pointer):
        keywords: tuple[str, ...] = ("readOnly",)
    elif _RESPONSE.search(schema_pointer):
        keywords = ("writeOnly",)
    elif document.dialect.startswith("OpenAPI 3.0"):
        # A component schema's own example travels both ways: as openapi-schema-validator's
        # 3.0 dialect reads it, neither kind of member is demanded of it.
        keywords = ("readOnly", "writeOnly")
    else:
        return errors
    if not any(e.validator in ("required", *_ALTERNATIVES) for e in errors):
        return errors
    index = corpus.schemas

    def marked(error: ValidationError) -> bool:
        missing = _DISCRIMINATOR_MISSING.search(error.message)
        if error.validator in _ALTERNATIVES and missing is not None:
            # The discriminating property a request leaves out because the server sets it
            # (`readOnly`, OpenAPI 3.0.3 §4.7.24.1; a response's `writeOnly` one): declared so
            # on the schema holding the discriminator, or on one of its branches.
            name = missing.group(1)
            alternatives = (
                error.schema.get(error.validator) if isinstance(error.schema, dict) else []
            )
            holders = [error.schema, *(alternatives if isinstance(alternatives, list) else [])]
            return any(index.marked(h, name, k) for h in holders for k in keywords)
        if error.validator in _ALTERNATIVES:
            # A `oneOf`/`anyOf` whose example fits a branch but for the members its direction
            # leaves out (a request body that omits the `readOnly` members every branch's
            # base requires) is satisfied by that branch.
            branches: dict[Any, list[ValidationError]] = {}
            for inner in error.context or []:
                branches.setdefault(inner.relative_schema_path[0], []).append(inner)
            return any(all(marked(e) for e in branch) for branch in branches.values())
        if error.validator != "required" or not isinstance(error.validator_value, list):
            return False
        named = [
            n
            for n in error.validator_value
            if isinstance(n, str) and f"{n!r} is a required property" == error.message
        ]
        return bool(named) and any(index.marked(error.schema, named[0], k) for k in keywords)

    return [e for e in errors if not marked(e)]


def _judged(
    corpus: Context, validator: Validator, target: SchemaTarget, example: Any
) -> list[ValidationError]:
    """The example's errors; a Helm chart's values override (an example of a chart's
    ``values.schema.json``) merged over the chart's default ``values.yaml`` first, as Helm
    validates it, and only the errors at what the override itself gives (a ``required`` member
    the defaults give is not missing; a default is not the override's to fix)."""
    defaults = chart_defaults(corpus, target.document, target.pointer)
    if defaults is None:
        return _errors(validator, example)
    merged = merged_values(defaults.data, example)
    return [e for e in _errors(validator, merged) if gives(example, error_pointer(explain(e)))]


def _errors(validator: Validator, value: Any) -> list[ValidationError]:
    """The errors of ``value``, each once: one failure reached along two paths of the schema
    (a subtype's `allOf` and its base's discriminator mapping back to it) is one error."""
    try:
        found: dict[tuple[tuple[str, ...], str, str], ValidationError] = {}
        for error in validator.iter_errors(value):
            key = (tuple(map(str, error.absolute_path)), str(error.validator), error.message)
            found.setdefault(key, error)  # the first, in the order the schema states them
        return sorted(found.values(), key=lambda e: list(map(str, e.absolute_path)))
    except Unresolvable:
        return []  # unresolved-ref reports the broken reference
    except MALFORMED_SCHEMA:
        return []  # an invalid schema (`type: objekt`) is schema-invalid's finding, not the example's


# Members that describe an example rather than belong to it (SchemaStore's
# `{"description": "In the example below ...", "inputs": {...}}`).
_CAPTIONS = ("description", "summary", "title", "comment")
# Media types whose values are serialised as form fields: an array is a repeated field or a
# comma-separated list (OpenAPI 3.0.3 §4.7.12.1 Style Values, `form`, and §4.7.14.1).
_FORM_MEDIA = ("application/x-www-form-urlencoded", "multipart/form-data")


def _answerable(
    validator: Validator, value: Any, serialised: int | None, name: str = ""
) -> list[ValidationError]:
    """The errors of ``value`` that its author can answer for.

    Not judged: an example that is a prose sentence where the schema wants an object or an
    array (a description of the value, CycloneDX's ``"a reference to a service (a bom-ref)"``);
    an example wrapped in a caption (``description`` beside the one member that is the example)
    or in its property's name (``{"scale": [1, 2]}`` for the ``scale`` property, ``name``) is
    judged by that member; the part of an example holding a ``$ref`` (an example merged from
    a file by the documentation build); and an array of a serialised parameter or form field
    exemplified by a single value or a comma-separated string (``serialised``: how deep its
    fields sit in the example, None when it is not serialised)."""
    errors = _errors(validator, value)
    if not errors:
        return errors
    explained = [explain(e) for e in errors]
    if (
        _prose(value)
        and not any(len(e.absolute_path) for e in explained)
        and any(_rejects_strings(e) and _structured(e) for e in explained)
    ):
        return []
    inner = _captioned(value, errors)
    if inner is None and isinstance(value, dict) and name and list(value) == [name]:
        inner = name
    if inner is not None:
        errors = _errors(validator, value[inner])
        for error in errors:
            error.path.appendleft(inner)  # where it is in the example as written
    return [
        e
        for e in errors
        if not _inside_reference(value, explain(e))
        and not (serialised is not None and _serialised_array(explain(e), serialised))
    ]


def _named(schema_pointer: str) -> str:
    """The property a schema object describes (``.../properties/scale``), or ""."""
    head, _, last = schema_pointer.rpartition("/")
    if not head.endswith("/properties") and head != "/properties":
        return ""
    return last.replace("~1", "/").replace("~0", "~")


# What lies between a schema and the property it describes: a branch of a combinator, the items
# of an array property, a conditional's outcome.
_WITHIN_PROPERTY = re.compile(
    r"(?:/(?:oneOf|anyOf|allOf|prefixItems)/\d+|/items(?:/\d+)?|/then|/else)$"
)
_NAMING = ("properties", "definitions", "$defs")


def _property_of(schema_pointer: str) -> str:
    """The property (or definition) a schema object describes, through the branches and items
    between them: ``.../properties/path/oneOf/1/items`` describes ``path``; or ""."""
    pointer = schema_pointer
    while (inner := _WITHIN_PROPERTY.search(pointer)) is not None:
        pointer = pointer[: inner.start()]
    head, _, last = pointer.rpartition("/")
    if head.rpartition("/")[2] not in _NAMING:
        return ""
    return last.replace("~1", "/").replace("~0", "~")


def _json_text(value: Any) -> Any:
    """The object or array a string holds as JSON text (``'{\\n  "path": "a.csv"\\n}\\n'``),
    or None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if (text[:1], text[-1:]) not in (("{", "}"), ("[", "]")):
        return None
    try:
        shown = json.loads(text)
    except ValueError:
        return None
    return shown if isinstance(shown, (dict, list)) else None


# A schema example of an API document written as JSON text: what is wrong, and the fix.
_AS_TEXT = (
    "example is a string of JSON text where the schema wants an {0} (API docs and mock "
    "servers show it as a quoted string)",
    "write the {0} itself, not its JSON text",
)


def _json_text_in_api(
    document: Document, validator: Validator, value: Any
) -> tuple[list[ValidationError], str]:
    """The errors of a schema example of an API document, or of the example of a JSON media
    type, that is the JSON text of an object or array where its schema wants an object or an
    array, and the type it wants (``object``, ``array``: the one the text shows, if wanted);
    else ``([], "")``. There the example is the value the API exchanges (OpenAPI 3.0.3
    §4.7.24.1 and 3.1.0 §4.8.24: "an example of what this schema should look like"; a media
    type's example "SHOULD match the specified schema and encoding properties", §4.8.14.1, and
    a string holds an example only for media types "that cannot naturally be represented in
    JSON or YAML", §4.8.19.1; AsyncAPI's payload example MUST validate), and the tools show a
    string as a string, where a JSON Schema file's block of JSON text may be a descriptor
    rendered by a docs site (``_shown_errors``). Not prose either (``_answerable``): its words
    are JSON's."""
    if document.kind not in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        return [], ""
    if not isinstance(value, str):
        return [], ""
    # Framed as an object's or an array's text, whether or not it parses: a string all the same.
    shown = _FRAMED.get((value.strip()[:1], value.strip()[-1:]))
    if shown is None or _TEMPLATE.search(value):
        return [], ""
    errors = [e for e in _errors(validator, value) if _rejects_strings(explain(e))]
    types = [t for e in errors for t in _types_of(explain(e)) if t in ("object", "array")]
    if not types:
        return [], ""
    # The JSON text of an object where an array is wanted: still a string where a value is.
    return errors, shown if shown in types else types[0]


_FRAMED = {("{", "}"): "object", ("[", "]"): "array"}
# A mock server's response template (Microcks' `{"id": "{{ uuid() }}"}`): text the server renders
# for each request, not the value of one example.
_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)


# The schema of a JSON media type's example (`content: {application/problem+json: {schema}}`),
# whose value is the JSON value itself (OpenAPI 3.1.0 §4.8.19.1: a string only for media types
# that JSON or YAML cannot represent).
_JSON_MEDIA = re.compile(r"/content/[^/]*json[^/]*/schema$", re.IGNORECASE)


def _types_of(error: ValidationError) -> list[str]:
    wanted = error.validator_value
    return [str(t) for t in (wanted if isinstance(wanted, list) else [wanted])]


def _shown_errors(validator: Validator, value: Any, name: str) -> list[ValidationError] | None:
    """The errors of what a failing string example shows, when it is documentation of how the
    value appears in a document rather than a value: the JSON text of a fragment holding a
    member named as the property (``'{"path": "file.csv"}'`` for ``path``: the member is
    judged), or a block of JSON text (laid out over lines, as a page renders it) of the
    object or array the schema describes (the parsed value is judged). None when the string
    shows neither, and is judged as the string it is: the JSON text of the value on one line
    (``"[]"`` for an array) is what an editor's completion would insert, a real defect."""
    shown = _json_text(value)
    if shown is None:
        return None
    if isinstance(shown, dict) and name and name in shown:
        errors = _errors(validator, shown[name])
        for error in errors:
            error.path.appendleft(name)  # where it is in the fragment the text shows
        return errors
    if "\n" not in value:
        return None
    errors = _errors(validator, shown)
    # A schema that wants no object or array (a string's pattern) is not what the text shows.
    return None if any(e.validator == "type" and not e.absolute_path for e in errors) else errors


def _prose(value: Any) -> bool:
    return isinstance(value, str) and len(value.split()) >= 4


def _rejects_strings(error: ValidationError) -> bool:
    """A ``type`` error at the example's root whose types leave strings out."""
    if error.validator != "type" or len(error.absolute_path):
        return False
    types = (
        error.validator_value
        if isinstance(error.validator_value, list)
        else [error.validator_value]
    )
    return "string" not in types


def _structured(error: ValidationError) -> bool:
    """Whether a ``type`` error wants an object or an array: what a sentence describes when
    the value is too large to show (CycloneDX's "a reference to a service"). A sentence where a
    number or a boolean goes ("2017-03-25 is epoch 2017.23" for a ``number``) stands in for a
    value one could have written: the wrong type, reported."""
    return any(t in ("object", "array") for t in _types_of(error))


def _captioned(value: Any, errors: list[ValidationError]) -> str | None:
    """The member that is the example, when ``value`` is a caption beside one other member and
    the schema rejects the caption (so it is not one of the schema's own members)."""
    if not isinstance(value, dict) or len(value) != 2:
        return None
    captions = [k for k in _CAPTIONS if _prose(value.get(k))]
    if len(captions) != 1:
        return None
    rejected = {str(explain(e).absolute_path[0]) for e in errors if explain(e).absolute_path}
    if captions[0] not in rejected:
        return None
    [inner] = [k for k in value if k != captions[0]]
    return str(inner)


def _inside_reference(value: Any, error: ValidationError) -> bool:
    """Whether the error lies in (or at) a part of the example written as a ``$ref`` with
    members beside it, or as an ``allOf`` of ``$ref``s and members (matrix-spec's example
    files assemble a PDU so): what the documentation build merges in is not what we see."""
    node = value
    for token in [None, *error.absolute_path]:
        if token is not None:
            found = (isinstance(node, dict) and token in node) or (
                isinstance(node, list) and isinstance(token, int) and token < len(node)
            )
            if not found:
                return False
            node = node[token]
        if isinstance(node, dict) and (
            isinstance(node.get("$ref"), str) or _assembled(node.get("allOf"))
        ):
            return True
    return False


def _assembled(branches: Any) -> bool:
    """Whether an example's ``allOf`` member merges other examples in by ``$ref``."""
    return isinstance(branches, list) and any(
        isinstance(b, dict) and isinstance(b.get("$ref"), str) for b in branches
    )


def _serialised_array(error: ValidationError, depth: int) -> bool:
    """An array or object exemplified as its serialised form (``pending,reserved``, one value,
    a JSON text in a form field)."""
    wanted = error.validator_value
    types = wanted if isinstance(wanted, list) else [wanted]
    as_array = "array" in types and not isinstance(error.instance, (dict, list))
    as_object = "object" in types and isinstance(error.instance, str)
    return (
        error.validator == "type" and (as_array or as_object) and len(error.absolute_path) == depth
    )


def _serialised_depth(document: Document, schema_pointer: str) -> int | None:
    """0 for the schema of a parameter or header (the example is the value), 1 for a form media
    type (the example's members are the fields); None for anything else."""
    if document.kind is not DocumentKind.OPENAPI:
        return None
    holder_pointer, _, last = schema_pointer.rpartition("/")
    if last != "schema":
        return None
    return _serialised_depth_of(resolve_pointer(document.data, holder_pointer), holder_pointer)


def _serialised_depth_of(holder: Any, holder_pointer: str) -> int | None:
    """:func:`_serialised_depth` of the holder ``holder`` at ``holder_pointer`` (of the API
    document, as its bundle reads)."""
    if isinstance(holder, dict) and ("in" in holder or "/headers/" in holder_pointer + "/"):
        return 0
    media = holder_pointer.rpartition("/")[2].replace("~1", "/").replace("~0", "~")
    return 1 if media.lower().startswith(_FORM_MEDIA) else None


def _bind(phrase: str, verb: str = "binds") -> str:
    """``verb`` agreeing with ``phrase``: "its members (…) bind", "its name binds"."""
    return verb[:-1] if phrase.startswith("its members") else verb


def _describe(errors: list[ValidationError], part: str = "") -> str:
    """The first error where it is in the example (``part``: where the instance judged sits in
    it), with how many more there are."""
    specific = explain(errors[0])
    where = part + error_pointer(specific) or "/"
    # A `oneOf`/`anyOf` failure is explained by the branch the example came closest to: say
    # which, by name, rather than print every branch.
    closest = closest_branch(errors[0], specific)
    within_branch = f" (in `{closest}`, the closest branch)" if closest else ""
    more = (
        f" (and {len(errors) - 1} more error{'s' if len(errors) > 2 else ''})"
        if len(errors) > 1
        else ""
    )
    # A run of names (unexpected members, an enum's values) and a value quoted are cut to what
    # a message can hold, more tightly when the failure is long (an object where a `oneOf`
    # wanted one of its branches).
    said = ""
    for room in (VALUE_SHOWN, VALUE_SHOWN // 2, VALUE_SHOWN // 4):
        failure = short_message(specific, names_room=room, value_room=room)
        said = f"example at {where}: {failure}{within_branch}{more}"
        if len(said) <= FAILURE_ROOM:
            break
    return said


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _written_at(document: Document, example_pointer: str, error: ValidationError) -> list[Location]:
    """Where the failing part of an example named by a same-document ``$ref``
    (``#/components/examples/x``) is written: the place to fix it, related to the place that
    uses it (``_holder_examples`` reports it there, against that place's schema)."""
    reference = _mapping(resolve_pointer(document.data, example_pointer)).get("$ref")
    if not (isinstance(reference, str) and reference.startswith("#/")):
        return []
    value = join_pointer(reference[1:], "value")
    return [document.location(value + error_pointer(explain(error)), note="the example's value")]


def _resolve_local(document: Document, node: Any) -> Any:
    """Follow a same-document ``$ref`` (``#/components/examples/x``)."""
    reference = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(reference, str) and reference.startswith("#/"):
        return resolve_pointer(document.data, reference[1:])
    return node


Example = tuple[str, str, Any, type[Validator]]  # schema pointer, example pointer, value, dialect


def document_examples(document: Document) -> Iterator[Example]:
    """Every example of a schema file or an API document, with the schema it illustrates and
    the validator for the dialect that schema is written in."""
    if document.kind is DocumentKind.OPENAPI:
        holder_dialect = validator_class_of(document)
        for at, holder in schema_holders(document):
            for schema_at, example_at, value in _holder_examples(document, holder, at):
                yield schema_at, example_at, value, holder_dialect
    if document.kind is DocumentKind.ASYNCAPI:
        for schema_at, example_at, value in asyncapi_message_examples(document):
            yield schema_at, example_at, value, validator_class_of(document)
    # OpenAPI 3.0 Schema Objects have `example` only; 3.1 and JSON Schema `examples` too.
    listed = not document.dialect.startswith("OpenAPI 3.0")
    api = document.kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
    for schema in schema_objects(document):
        node = schema.node
        examples = node.get("examples")
        vendor = _X_EXAMPLES in node and api
        if not (listed and isinstance(examples, list)) and "example" not in node and not vendor:
            continue  # most schema objects: their dialect is not looked up (SchemaStore: 224,000)
        dialect = validator_class_of(document, schema.declared)
        if vendor:
            for at, value in _vendor_examples(document, node, schema.pointer):
                yield schema.pointer, at, value, dialect
        if listed and isinstance(examples, list):
            for index, value in enumerate(examples):
                if not _is_reference(value):
                    at = join_pointer(join_pointer(schema.pointer, "examples"), index)
                    yield schema.pointer, at, value, dialect
        if "example" in node and not _is_reference(node["example"]):
            yield schema.pointer, join_pointer(schema.pointer, "example"), node["example"], dialect


def _schemas_own(schema_pointer: str, example_pointer: str) -> bool:
    """Whether the example is a schema object's own ``examples`` item (or legacy ``example``),
    not an OpenAPI media type's, parameter's or header's, nor an AsyncAPI message's. JSON
    Schema only recommends that these validate (Validation 2020-12 §9.5: "It is RECOMMENDED
    that these values be valid against the associated schema"; OpenAPI 3.0's Schema Object
    `example` asks nothing), where AsyncAPI's message example payload MUST validate."""
    listed = join_pointer(schema_pointer, "examples") + "/"
    vendor = join_pointer(schema_pointer, _X_EXAMPLES) + "/"
    return (
        (example_pointer.startswith(listed) and "/" not in example_pointer[len(listed) :])
        or example_pointer == join_pointer(schema_pointer, "example")
        or example_pointer.startswith(vendor)
    )


def _holder_examples(
    document: Document, holder: dict[str, Any], at: str
) -> Iterator[tuple[str, str, Any]]:
    """Examples of a media type, parameter or header object, against its ``schema``."""
    if "schema" not in holder:
        return
    schema_at = join_pointer(at, "schema")
    if "example" in holder and not _empty_allowed(holder, holder["example"]):
        yield schema_at, join_pointer(at, "example"), holder["example"]
    if family(document) == "2.0":
        # Swagger 2.0's Response Object: `examples` maps a MIME type to the example itself
        # (2.0 Example Object); a JSON one is an instance of the response's `schema`.
        for media, value in sorted(_mapping(holder.get("examples")).items()):
            if "json" in media.lower() and not _empty_allowed(holder, value):
                yield schema_at, join_pointer(join_pointer(at, "examples"), media), value
        return
    for name, example in sorted(_mapping(holder.get("examples")).items()):
        resolved = _resolve_local(document, example)
        if (
            isinstance(resolved, dict)
            and "value" in resolved
            and not _empty_allowed(holder, resolved["value"])
        ):
            pointer = join_pointer(join_pointer(at, "examples"), name)
            if "$ref" not in _mapping(example):
                pointer = join_pointer(pointer, "value")
            yield schema_at, pointer, resolved["value"]
    for pointer, value in _vendor_examples(document, holder, at):
        if not _empty_allowed(holder, value):
            yield schema_at, pointer, value


def _vendor_examples(
    document: Document, holder: dict[str, Any], at: str
) -> Iterator[tuple[str, Any]]:
    """The examples of a schema's or a media type's ``x-examples``: a map of name to example,
    each a value or, as some write it, an Example Object (``summary``, ``value``); a ``$ref``
    alone is followed within the document."""
    for name, example in sorted(_mapping(holder.get(_X_EXAMPLES)).items()):
        pointer = join_pointer(join_pointer(at, _X_EXAMPLES), name)
        value = _resolve_local(document, example) if _is_reference(example) else example
        if _is_reference(value):
            continue
        if isinstance(value, dict) and "value" in value and set(value) <= _EXAMPLE_OBJECT:
            if not _is_reference(example):
                pointer = join_pointer(pointer, "value")
            value = value["value"]
        yield pointer, value


_EXAMPLE_OBJECT = frozenset({"summary", "description", "value", "externalValue"})


def _vendor_example(example_pointer: str) -> bool:
    """Whether the example is an ``x-examples`` entry (its pointer names the map)."""
    return f"/{_X_EXAMPLES}/" in example_pointer


def _empty_allowed(holder: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` is the empty value of a query parameter that allows one: OpenAPI
    3.0.3 §4.7.12.1 ``allowEmptyValue`` "allows sending a parameter with an empty value"
    (``?detailed=``), whatever its schema's type, so ``example: ""`` shows a real request."""
    return value == "" and holder.get("in") == "query" and holder.get("allowEmptyValue") is True


def _is_reference(example: Any) -> bool:
    """An example written as ``{"$ref": ...}``: a reference to an example kept elsewhere (a common
    bundling convention, AsyncAPI's ``"example": {"$ref": ".../examples/3.0.0/channel.json"}``),
    not an example object with a ``$ref`` member."""
    return (
        isinstance(example, dict) and set(example) == {"$ref"} and isinstance(example["$ref"], str)
    )


def asyncapi_message_examples(document: Document) -> Iterator[tuple[str, str, Any]]:
    """Message ``examples[].payload`` against the message ``payload`` (AsyncAPI 2.x and 3.x)."""
    data = document.data
    messages: list[tuple[str, dict[str, Any]]] = []
    for name, message in sorted(_mapping(_mapping(data.get("components")).get("messages")).items()):
        messages.append((f"/components/messages/{escape_token(name)}", _mapping(message)))
    for channel, item in sorted(_mapping(data.get("channels")).items()):
        base = f"/channels/{escape_token(channel)}"
        for name, message in sorted(_mapping(_mapping(item).get("messages")).items()):
            messages.append((f"{base}/messages/{escape_token(name)}", _mapping(message)))
        # AsyncAPI 2.x: a channel's `publish`/`subscribe` operation carries one message, or a
        # `oneOf` of them (2.6.0 §4.3.4 Operation Object).
        for verb in ("publish", "subscribe"):
            message = _mapping(_mapping(item).get(verb)).get("message")
            at = f"{base}/{verb}/message"
            alternatives = _mapping(message).get("oneOf")
            if isinstance(alternatives, list):
                messages += [
                    (f"{at}/oneOf/{index}", _mapping(one)) for index, one in enumerate(alternatives)
                ]
            elif isinstance(message, dict):
                messages.append((at, message))
    for at, message in messages:
        payload = message.get("payload")
        if payload is None or "$ref" in message:
            continue
        # A Multi Format Schema Object (3.x) or a message `schemaFormat` (2.x) of another
        # schema language: not ours to judge.
        if isinstance(payload, dict) and "schemaFormat" in payload:
            continue
        if not str(message.get("schemaFormat", "application/schema")).startswith(
            ("application/schema", "application/vnd.aai.asyncapi")
        ):
            continue
        for index, example in enumerate(message.get("examples") or []):
            if isinstance(example, dict) and "payload" in example:
                where = join_pointer(join_pointer(join_pointer(at, "examples"), index), "payload")
                yield join_pointer(at, "payload"), where, example["payload"]
