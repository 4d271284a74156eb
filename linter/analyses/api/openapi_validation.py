"""How ``openapi-invalid`` judges an OpenAPI document: openapi-spec-validator against the official
schema of the document's declared version, with its semantic checks, on the document as its
bundle reads (``speclint.analyses.api.inlining``), each error placed at its node in the file it is
written in; and every schema object judged by its dialect's metaschema where it is written.

The rule ``openapi-invalid`` (``speclint.rules.openapi_invalid``, whose docstring says what is
reported and why) reports :func:`openapi_findings` of each OpenAPI document;
``overlay-breaks-document`` compares them on a document before and after an Overlay's actions
(issue 49), so that both judge a document the same way. The findings carry the rule id
``openapi-invalid``; a caller that reports them under its own id says so.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any, cast
from urllib.parse import unquote

import jsonschema_rs
from jsonschema import validators
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for
from referencing.exceptions import NoSuchResource, Unresolvable

from speclint.analyses.api.api_roles import (
    REFERENCE_ALLOWED,
    REFERENCE_ALLOWED_32,
    Part,
    parts_in_role,
    ref_sites,
)
from speclint.analyses.api.inlining import (
    InlinedView,
    bundle_reach,
    corpus_target,
    inline_merged,
    misplaced_refs_of,
    schema_map_refs,
    written_at,
)
from speclint.analyses.api.merging import build_source_note, fragment_note
from speclint.analyses.context import Context, UndeclaredFact
from speclint.analyses.schemas.references import CORPUS_BASE, file_uri
from speclint.analyses.schemas.schema_objects import (
    openapi_schema_roots,
    referenced_schema_maps,
    refused_patterns,
    structure_refs,
)
from speclint.analyses.schemas.validation import (
    default_by_convention,
    explain,
    json_spelled,
    message_key,
    metaschema_judge,
    placeholder_default,
    short_message,
    swagger_2_read,
)
from speclint.common.findings import Finding, Location, Member, Severity, headed, left_out
from speclint.common.stack import DEEP_RECURSION
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
    holds_pointer,
    join_pointer,
    pointer_of,
    pointer_within,
    resolve_pointer,
    split_pointer,
)

ID = "openapi-invalid"
SEVERITY = Severity.ERROR
# A version as each specification numbers its releases (`3.3.0`; Swagger's `1.2`): one the
# validator has no schema for is a document not checked; `openapi: 3.0` is a wrong value.
RELEASE = {"openapi": re.compile(r"^\d+\.\d+\.\d+$"), "swagger": re.compile(r"^\d+\.\d+$")}
# The keys of one naming convention listed as related locations of its one finding, at most.
_RELATED_KEYS = 200
# The ways to a finding (speclint.run.preview): the document as its bundle reads, judged by the
# validator; each part of another file its structure reaches by `$ref`, judged in the role of
# the place that names it (`_part_errors`); and a JSON Schema file's fragments an OpenAPI 3.0
# document reads as Schema Objects (`_dialect_findings`).
HEURISTICS = (f"{ID}/document", f"{ID}/referenced-part", f"{ID}/json-schema-as-3.0")


def openapi_findings(corpus: Context, document: Document) -> list[Finding]:
    """What ``openapi-invalid`` reports on ``document``: its errors against the official schema
    of its declared version and the validator's semantic checks, as its bundle reads, each at
    its node (in the file it is written in), and the notes of what was not checked. Made once
    for each document the rule checks, and for each version of a document an Overlay makes
    (``overlay-breaks-document``: a document of the corpus whose data is the overlaid copy,
    read in a context of its own, since the memos here are kept by path)."""
    # Deferred (here and below): openapi-spec-validator takes 0.6 s to import, and a corpus
    # without an OpenAPI document never needs it.
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    from openapi_spec_validator.versions.exceptions import OpenAPIVersionNotFound
    from openapi_spec_validator.versions.shortcuts import get_spec_version

    found: list[Finding] = []
    if isinstance(document.data, dict) and "swagger" in document.data:
        found.append(_partly_read(document))
    try:
        get_spec_version(document.data)
    except (OpenAPIVersionNotFound, ValidatorDetectError, TypeError):  # `openapi:` empty
        declared = document.data.get("openapi", document.data.get("swagger"))
        field = "openapi" if "openapi" in document.data else "swagger"
        if RELEASE[field].match(str(declared)):
            # A release whose official schema the validator does not ship (Swagger 1.2, a
            # later OpenAPI): not checked, which is no defect of the document (issue 45).
            return [
                Finding(
                    ID,
                    Severity.INFO,
                    f"`{field}: {declared}`: not checked: openapi-spec-validator ships the "
                    "official schemas of Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 only; the "
                    "document is not known to be invalid",
                    document.location(f"/{field}"),
                    key="not-checked",
                    coverage="no-schema",
                )
            ]
        found.append(
            Finding(
                ID,
                SEVERITY,
                f"`openapi: {declared}` is not a version openapi-spec-validator knows; declare "
                "one of 2.0, 3.0.x, 3.1.x or 3.2.x",
                document.location("/openapi"),
                key="unknown-version",
            )
        )
        return found
    try:
        # The runner runs rules on a deep stack (speclint.common.stack): a valid document nested
        # deeply is not "invalid" because Python's recursion limit says so (issue 13).
        merges = corpus.merges
        whole = document.path not in merges.partial
        if not whole:
            # Half of a document: its bundler merges it into another, which is validated whole
            # (`speclint.analyses.api.merging`); alone it lacks what only the merge gives (`info`).
            # Its schema objects are still judged where they are written.
            found.append(fragment_note(ID, document, merges))
        left = [0]  # the errors left to the merge step of a piece it reads (`built_sources`)
        found += list(_validate(corpus, document, whole, left))
        if left[0]:
            found.append(build_source_note(ID, document, merges, left[0]))
        found += _refused_patterns(corpus, document)
        if whole:
            found += _dialect_findings(corpus, document)
    except RecursionError:
        found.append(_too_deep(document))
    except UndeclaredFact:
        raise  # speclint's own mistake (a fact the rule does not declare), never the document's
    except Exception as error:
        # openapi-spec-validator assumes a document that is whole: `openapi:` with no value,
        # or a truncated document without `paths`, raises instead of reporting.
        found.append(_cannot_check(document, error))
    return [f if f.heuristic else replace(f, heuristic=HEURISTICS[0]) for f in found]


def _validate(
    corpus: Context, document: Document, whole: bool = True, left: list[int] | None = None
) -> Iterator[Finding]:
    # Deferred: openapi-spec-validator (see openapi_findings).
    from openapi_spec_validator.shortcuts import get_validator_cls

    def corpus_only(uri: str) -> Any:
        # Only documents the corpus loaded. Anything else (a remote URL, a missing file)
        # resolves to nothing, which ends only the check of the object that names it: an
        # empty object in its place is no *parameter* (the library crashed on its `name`).
        path = uri.split("#", 1)[0][len(CORPUS_BASE) :] if uri.startswith(CORPUS_BASE) else None
        target = corpus.documents.get(unquote(path)) if path is not None else None
        if target is None or not target.usable:
            raise NoSuchResource(uri)  # type: ignore[call-arg]  # attrs' __init__, unread by mypy
        return target.data

    base = get_validator_cls(document.data)
    keywords = dict(base.keyword_validators)
    swagger = _swagger(document)
    if "schema" in keywords:
        # OpenAPI 3's schema objects are judged below, each where it is written, the library's
        # walk reaching only some of them (`_schema_errors`); Swagger 2.0's stay with the walk,
        # its defaults too (draft-04 with OpenAPI's words, which value-invalid does not read).
        keywords["schema"] = cast(
            Any,
            _linear(cast(Any, keywords["schema"]), judge_defaults=True) if swagger else _Unwalked,
        )
    for name in TOLERANT_KEYWORDS:
        if name in keywords:
            keywords[name] = _placing(cast(Any, keywords[name]))
    validator_cls = type(
        f"CorpusOnly{base.__name__}",
        (base,),
        {
            "resolver_handlers": {
                scheme: corpus_only for scheme in ("file", "http", "https", "<all_urls>")
            },
            "keyword_validators": keywords,
            "schema_validator": _first_judged(base),
        },
    )
    # Validated as its bundle reads: each `$ref` where the specification allows none (an
    # operation, a description kept in another file) replaced by its target (`inlining`).
    view = _inlined(corpus, document)
    merged = corpus.merges.partners(document.path)
    validator = validator_cls(view.data, base_uri=file_uri(document.path))
    seen: set[tuple[str, str, str]] = set()
    left_said: set[str] = set()
    # Errors placed through a `$ref` the view keeps (``written_at``), the first of each place:
    # Swagger 2.0's validator judges a definition where it is written and again through each
    # schema's `$ref` to it, each time by another branch of its schema (another message);
    # said where it is written, the defect is one finding.
    direct: set[tuple[str, str]] = set()
    through: dict[tuple[str, str], Finding] = {}

    def said_through() -> Iterator[Finding]:  # at the end, however the walk ends
        return (finding for place, finding in through.items() if place not in direct)

    # An operation's path parameters the library could not match, by the operation's pointer:
    # a misnamed one is reported from both sides, the template's `{name}` and the parameter,
    # and is one defect (issue 45, item 7).
    unmatched: dict[str, list[tuple[str, Finding]]] = {}
    # The keys of one components map that break the key pattern: one naming convention, one
    # finding (the first key), the other keys related (issue 45, batch 5: 2,220 findings of
    # `name@200` and `name::query.x` keys in one repository).
    conventions: dict[tuple[str, str], list[tuple[str, Document, Finding]]] = {}
    # A piece a merge step of the repository's own reads: what the merger rewrites is its.
    sourced = document.path in corpus.merges.built

    def errors() -> Iterator[tuple[Document, Any]]:
        if whole:
            for error in validator.iter_errors():
                yield document, error
        if not swagger:
            yield from _schema_errors(corpus, document)
            if whole:
                yield from _part_errors(corpus, document)

    try:
        for holder, error in errors():
            specific = explain(error)
            pointer = ""
            for token in getattr(specific, "absolute_path", ()):
                pointer = join_pointer(pointer, token)
            # The message as findings say it; the key as the library says it (`message_key`).
            judged = hasattr(specific, "validator")
            message = short_message(specific) if judged else json_spelled(str(specific))
            key = message_key(specific) if judged else str(specific)
            related: tuple[Location, ...] = ()
            at_left = ""
            relocated = False  # placed through a `$ref` the view keeps
            # The pointer as the library names it, in the root document's terms (a misnamed
            # path parameter's template is read from it).
            named_at = pointer
            if holder is document:
                at_left = pointer if pointer in view.left else ""
                pointer, related = _second_of_pair(corpus, view, specific, pointer)
                named_at = pointer
                # In the file it is written in: inlined from, or reached by a `$ref` the
                # library followed (a path item kept in its own file).
                inlined_from, at = view.locate(pointer)
                holder, pointer = written_at(corpus, view, pointer)
                relocated = (holder.path, pointer) != (inlined_from.path, at)
            if (holder.path, pointer, message) in seen:
                continue
            seen.add((holder.path, pointer, message))
            inlined = _inlined_text(corpus, holder, pointer)
            if inlined is not None:
                if inlined:  # the file it names is missing: that is worth fixing
                    yield inlined[0]
                continue
            marker = (
                _build_marker(corpus, holder, pointer)
                if judged and specific.instance is None
                else None
            )
            if marker is not None:
                yield _placeholder_note(holder, pointer, *marker)
                continue
            missing_paths = pointer == "" and message.startswith('"paths" is a required')
            if missing_paths and holder is document and _docs_only(document.data):
                yield _docs_only_notice(document, message)
                continue
            domain = _domain_evidence(corpus, document) if missing_paths else None
            if domain is not None and holder is document:
                yield _domain_note(document, domain)
                continue
            if at_left:
                # A `$ref` where no Reference Object is allowed, not inlined: one defect, said
                # once (not also as the members its target would have given), and not here at
                # all when its target is missing (unresolved-ref's, or remote-ref's).
                if view.left[at_left] != "missing" and at_left not in left_said:
                    left_said.add(at_left)
                    yield _not_inlined(document, holder, pointer, view.left[at_left])
                continue
            named = _key_name(specific, pointer) if judged else None
            if sourced and (named is not None or (judged and _no_description(specific, pointer))):
                if left is not None:
                    left[0] += 1
                continue
            kind = "DuplicateTagName" if message.startswith("Duplicate tag name") else ""
            fix = _FIXES.get(
                kind or type(specific).__name__, "fix it so the document is valid {spec}"
            ).format(spec=_spec(document))
            ignored = _ignored_siblings(specific) if judged else []
            severity = SEVERITY
            if ignored:
                repeated = _repeated_siblings(corpus, holder, pointer, specific.instance, ignored)
                fix = _sibling_fix(document, ignored, repeated)
                # Members that only repeat the target lose nothing: the document still fails
                # the official schema, so it is said, as a warning (issue 47's label reading).
                severity = Severity.WARNING if repeated else SEVERITY
            if holder is not document:
                how = "merges this file" if holder.path in merged else "reaches this file by `$ref`"
                fix += f" (`{document.path}` {how})"
                message = view.as_written(holder, message)
            finding = Finding(
                ID,
                severity,
                headed(f"{pointer or '/'}: {message}", f"; {fix}", message),
                holder.location(pointer),
                related=related,
                key=f"{pointer}:{key}",
                heuristic=getattr(error, "speclint_heuristic", None),
            )
            if named is not None:
                conventions.setdefault((holder.path, pointer), []).append((named, holder, finding))
                continue
            unresolved = _UNRESOLVED_PARAMETER.match(message)
            if unresolved and not kind and type(specific).__name__ == "UnresolvableParameterError":
                unmatched.setdefault(named_at, []).append((unresolved.group(1), finding))
                continue
            if relocated:
                through.setdefault((holder.path, pointer), finding)
                continue
            direct.add((holder.path, pointer))
            yield finding
        for pointer, found in unmatched.items():
            yield from _misnamed(document, view, pointer, found)
        yield from said_through()
        for (_, pointer), keys in conventions.items():
            yield _one_convention(pointer, keys)
    except Unresolvable:
        # Raised outside every keyword (``_unresolvable_stops_here``): nothing is left to check,
        # and what was found through a `$ref` is still said.
        yield from said_through()
        return
    except RecursionError:
        yield from said_through()
        yield _too_deep(document)
    except UndeclaredFact:
        raise  # speclint's own mistake (a fact the rule does not declare), never the document's
    except Exception as error:
        yield from said_through()
        if not seen:  # otherwise the structural errors already say why
            yield _cannot_check(document, error)


def _key_name(error: Any, pointer: str) -> str | None:
    """The key of a components map that breaks the pattern OpenAPI gives its keys
    (``^[a-zA-Z0-9._-]+$``, 3.1 §4.8.7.1: ``propertyNames`` in the official schema), or None."""
    tokens = split_pointer(pointer)
    if (
        getattr(error, "validator", None) == "pattern"
        and "propertyNames" in getattr(error, "absolute_schema_path", ())
        and isinstance(error.instance, str)
        and len(tokens) == 2
        and tokens[0] == "components"
    ):
        return error.instance
    return None


def _no_description(error: Any, pointer: str) -> bool:
    """Whether ``error`` is a response's missing ``description`` (a Response Object's one
    required field, OpenAPI 3 §4.8.17.1), which a merger of pieces fills in."""
    tokens = split_pointer(pointer)
    return (
        getattr(error, "validator", None) == "required"
        and isinstance(error.instance, dict)
        and "description" not in error.instance
        and "description" in (error.validator_value or ())
        and len(tokens) >= 2
        and tokens[-2] == "responses"
    )


def _one_convention(pointer: str, keys: list[tuple[str, Document, Finding]]) -> Finding:
    """The keys of one components map that break the key pattern, as one finding: the first
    key's (its fingerprint kept), the others related, each at its own line (a waiver at one
    covers that key: ``members``)."""
    _, _, first = keys[0]
    if len(keys) == 1:
        return first
    places = [(h.location(join_pointer(pointer, k)), f.key) for k, h, f in keys[1:]]
    listed = places[:_RELATED_KEYS]
    return Finding(
        first.rule,
        first.severity,
        f"{first.message}; {len(keys)} keys of this map break the pattern the same way (the "
        "others are related locations): rename them, and the `$ref`s that name them"
        + left_out(len(listed), len(places) - len(listed), "other keys"),
        first.location,
        related=(*first.related, *(location for location, _ in listed)),
        key=first.key,
        members=(
            Member(first.location, first.key),
            *(Member(location, key) for location, key in places),
        ),
    )


def _refused_patterns(corpus: Context, document: Document) -> list[Finding]:
    """Each pattern of the document's schema objects (and of the parts kept in other files,
    ``_api_parts``) that is not compiled (``schema_objects.refused_patterns``): valid to
    the metaschema, and a defect of the schema all the same. In a Swagger 2.0 document, also
    each one no engine reads (``^a(b$``), which its validator does not judge; OpenAPI 3's
    asserts ``format: "regex"`` (``_schema_checker``) and reports it as its own error."""
    found: list[Finding] = []
    checked: set[int] = set()
    view = _inlined(corpus, document)
    swagger = _swagger(document)
    for holder, at, node in _api_parts(corpus, document):
        if holder is not document and holder.kind is DocumentKind.OPENAPI:
            continue  # an API document judges its own
        for root, value in openapi_schema_roots(node, at):
            if id(value) in checked:  # one object at two places (a YAML alias): judged once
                continue
            checked.add(id(value))
            for pointer, kind, message in refused_patterns(value, root, unreadable=swagger):
                place, pointer = view.locate(pointer) if holder is document else (holder, pointer)
                found.append(
                    Finding(
                        ID, SEVERITY, message, place.location(pointer), key=f"{pointer}:{kind}"
                    )
                )  # fmt: skip
    return found


def _spec(document: Document) -> str:
    """The specification and version the document declares, as its messages name it: a
    Swagger 2.0 document's was "valid OpenAPI " (its `openapi:` is absent)."""
    data = document.data if isinstance(document.data, dict) else {}
    if "openapi" not in data and "swagger" in data:
        return f"Swagger {data['swagger']}"
    return f"OpenAPI {data.get('openapi', '')}".rstrip()


def _swagger(document: Document) -> bool:
    return isinstance(document.data, dict) and str(document.data.get("swagger", "")).startswith("2")


class _Unwalked:
    """The library's schema keyword, for OpenAPI 3: it walks nothing. The library reaches the
    schemas of operations' parameters and responses and ``components/schemas``, not those of
    request bodies, headers, callbacks, webhooks or the other components, and judged the
    files a schema's ``$ref`` names at that ``$ref``; ``_schema_errors`` judges every schema
    object where it is written instead."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def __call__(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return iter(())


def _schema_errors(corpus: Context, document: Document) -> Iterator[tuple[Document, Any]]:
    """(file, error) for each schema object of an OpenAPI 3 document that its dialect's
    metaschema rejects: every ``schema`` and ``components/schemas`` entry of the document, and
    of the files its path items, parameters and responses are kept in (``_api_parts``), each
    judged once, as the library judges one (``_schema_checker``). A ``$ref`` to a schema file is
    not followed: schema-invalid judges that file, in its own dialect (an OpenAPI 3.0 Schema
    Object's when only 3.0 documents name it: ``speclint.model.corpus.refine``), so an error
    is reported once, where it is written, and a schema edit re-judges that file alone."""
    # Deferred: imported with openapi-spec-validator (see openapi_findings).
    from jsonschema.exceptions import ValidationError
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    data = document.data
    version = str(data.get("openapi", ""))
    checked: set[int] = set()
    view = _inlined(corpus, document)
    merged = set(corpus.merges.partners(document.path))
    for holder, at, node in _api_parts(corpus, document):
        if holder is not document and holder.kind is DocumentKind.OPENAPI:
            continue  # an API document judges its own
        for pointer, value in openapi_schema_roots(node, at):
            if id(value) in checked:  # one object at two places (a YAML alias): judged once
                continue
            if holder is document and merged:
                written = view.locate(pointer)[0]
                if written.path in merged and written.kind is DocumentKind.OPENAPI:
                    continue  # merged in from an API document, which judges its own
            checked.add(id(value))
            error: Any = None
            if not isinstance(value, (Mapping, bool)):
                # Written as the library writes its messages (`short_message` spells them as
                # JSON), so that its key is what it was (`message_key`).
                error = OpenAPIValidationError(
                    f"{value!r} is not of type 'object', 'boolean'", instance=value
                )
            else:
                try:
                    _metaschema_check(version, data, value)(value)
                except ValueError as unknown:  # a `$schema` that names no dialect known here
                    error = OpenAPIValidationError(str(unknown))
                except (SchemaError, ValidationError) as invalid:
                    error = OpenAPIValidationError.create_from(invalid)
            if error is not None:
                error.path.extendleft(reversed(split_pointer(pointer)))
                yield holder, error


# The official schema's name of each role (``speclint.analyses.api.api_roles``): OpenAPI 3.0's
# schema names its definitions in CamelCase; 3.1's and 3.2's `$defs` are the roles' own names.
_ROLES_30 = {
    "path-item": "PathItem", "operation": "Operation", "parameter": "Parameter",
    "request-body": "RequestBody", "response": "Response", "header": "Header",
    "example": "Example", "link": "Link", "callbacks": "Callback",
    "security-scheme": "SecurityScheme", "media-type": "MediaType", "encoding": "Encoding",
    "schema": "Schema",
}  # fmt: skip
_ROLE_JUDGES: dict[tuple[str, str], _FirstJudged | None] = {}


def _role_judge(official: Mapping[str, Any], role: str) -> _FirstJudged | None:
    """The official schema of a version (``official``) judging one object in ``role``: its
    definition of that object, with every definition it names. None for a role it lacks."""
    key = (str(official.get("$id", official.get("id"))), role)
    if key not in _ROLE_JUDGES:
        if "$defs" in official:
            defs, name, where = official["$defs"], role, "#/$defs/"
        else:
            defs, name, where = (
                official.get("definitions", {}),
                _ROLES_30.get(role, ""),
                "#/definitions/",
            )
        judge = None
        if name in defs:
            schema = {
                "$schema": official["$schema"],
                where.split("/")[1]: defs,
                "allOf": [{"$ref": where + str(name)}],
            }
            judge = _FirstJudged(_Schema(schema))
        _ROLE_JUDGES[key] = judge
    return _ROLE_JUDGES[key]


class _Schema:
    """What ``_FirstJudged`` reads of a library's validator: its schema."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema


def _parts(corpus: Context, document: Document) -> list[Part]:
    """The parts of other files the document's structure reaches by ``$ref``, each with the
    role it is read in (``api_roles``); those of API documents and of the pieces merged with it
    are judged with them."""
    memo: dict[str, list[Part]] = corpus.memo.setdefault(f"{ID}:roles", {})
    if document.path not in memo:
        view = _inlined(corpus, document)
        merged = set(corpus.merges.partners(document.path))

        def judged(file: Document) -> bool:
            return file.kind is DocumentKind.OPENAPI or file.path in merged

        def resolve(holder: Document, pointer: str) -> tuple[Document, str, Any] | None:
            return corpus_target(corpus, holder, pointer)

        memo[document.path] = parts_in_role(document, view.data, view.locate, resolve, judged)
    return memo[document.path]


def _part_errors(corpus: Context, document: Document) -> Iterator[tuple[Document, Any]]:
    """(file, error) for each part of another file the document's structure reaches by ``$ref``
    (a path item, a parameter, a response...) that the official schema of the document's
    version rejects in the role of the place naming it: that schema takes a Reference Object as
    it is and never follows it, and a bundle puts the part in its place. Each part is judged
    once, however many places name it; its schema objects are ``_schema_errors``' and a
    ``$ref`` where the role allows none is its bundler's (its target is judged on its own)."""
    # Deferred: openapi-spec-validator (see openapi_findings).
    from openapi_spec_validator.shortcuts import get_validator_cls

    version = str(document.data.get("openapi", ""))
    if not version.startswith("3"):
        return
    official = get_validator_cls(document.data).schema_validator.schema
    allowed = REFERENCE_ALLOWED_32 if version.startswith("3.2") else REFERENCE_ALLOWED
    for part in _parts(corpus, document):
        judge = _role_judge(official, part.role)
        if judge is None:
            continue
        errors = list(judge.iter_errors(part.node))
        if not errors:
            continue
        schemas = [pointer for pointer, _ in openapi_schema_roots(part.node, part.pointer)]
        sites = {pointer: role for pointer, _, role in ref_sites(part.role, part.node, "")}
        for error in errors:
            inner = pointer_of(explain(error).absolute_path)
            if any(pointer_within(part.pointer + inner, at) for at in schemas):
                continue
            if _bundled_ref(part.node, inner, sites, allowed):
                continue
            error.path.extendleft(reversed(split_pointer(part.pointer)))
            error.speclint_heuristic = HEURISTICS[1]
            yield part.holder, error


def _bundled_ref(
    node: Any, pointer: str, sites: Mapping[str, str], allowed: frozenset[str]
) -> bool:
    """Whether ``pointer`` of a part is at or inside an object with a ``$ref`` member where its
    role allows no Reference Object (an operation, a description kept in a file): a bundler's
    convention, which the bundle replaces by what it names."""
    tokens = split_pointer(pointer)
    at, current = "", node
    for depth in range(len(tokens) + 1):
        if isinstance(current, dict) and isinstance(current.get("$ref"), str) and at:
            return sites.get(at) not in allowed
        if depth == len(tokens):
            break
        token = tokens[depth]
        at = join_pointer(at, token)
        if isinstance(current, dict):
            current = current.get(token)
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            break
    return False


# The members OpenAPI 3.1 reads of a Reference Object (§4.8.23; its schema's `reference`).
_REFERENCE_FIELDS = ("$ref", "summary", "description")


def _ignored_siblings(error: Any) -> list[str]:
    """The members beside ``$ref`` that OpenAPI 3.1's schema rejects of a Reference Object."""
    instance = getattr(error, "instance", None)
    schema = getattr(error, "schema", None)
    if (
        getattr(error, "validator", None) != "unevaluatedProperties"
        or not (isinstance(instance, dict) and isinstance(instance.get("$ref"), str))
        or not isinstance(schema, Mapping)
        or set(schema.get("properties") or ()) != set(_REFERENCE_FIELDS)
    ):
        return []
    return [str(key) for key in instance if key not in _REFERENCE_FIELDS]


def _repeated_siblings(
    corpus: Context, holder: Document, pointer: str, instance: Any, ignored: list[str]
) -> bool:
    """Whether every member ``ignored`` beside the ``$ref`` at ``pointer`` says what the object
    the ``$ref`` names already says (``{$ref: BlockId, name: block_id, in: path}`` beside a
    parameter of that name and place): nothing is lost, only the official schema's form."""
    target = corpus_target(corpus, holder, pointer)
    for _ in range(_REF_HOPS):  # a `$ref` to a `$ref` (components pointing at a file)
        if target is None or not (isinstance(target[2], dict) and "$ref" in target[2]):
            break
        target = corpus_target(corpus, target[0], target[1])
    if target is None or not isinstance(target[2], dict) or not isinstance(instance, dict):
        return False
    return all(key in target[2] and target[2][key] == instance[key] for key in ignored)


_REF_HOPS = 8


def _sibling_fix(document: Document, ignored: list[str], repeated: bool = False) -> str:
    names = ", ".join(f"`{name}`" for name in ignored)
    them = "it" if len(ignored) == 1 else "them"
    reads = (
        f"{_spec(document)} reads only `$ref`, `summary` and `description` of a Reference "
        f"Object and ignores {names} (§4.8.23)"
    )
    if repeated:
        return (
            f"{reads}, which the object the `$ref` names already says: nothing is lost, but "
            f"the official schema rejects the object; remove {them}"
        )
    return f"{reads}: set {them} in the object the `$ref` names, or write that object here in full"


# The JSON Schema keywords an OpenAPI 3.0 Schema Object spells otherwise (3.0.3 §4.7.24).
_IN_30 = {
    "examples": "`example: …` for `examples`",
    "const": "`enum: [value]` for `const`",
    "type": "one `type` with `nullable: true` for a list of types",
    "$defs": "`components/schemas` entries for `$defs`",
    "definitions": "`components/schemas` entries for `definitions`",
    "exclusiveMinimum": "`minimum` with `exclusiveMinimum: true` for a numeric one",
    "exclusiveMaximum": "`maximum` with `exclusiveMaximum: true` for a numeric one",
}
# Fragments followed from one document at most (a JSON Schema file's `$ref`s to others).
_DIALECT_FRAGMENTS = 5_000


def _dialect_findings(corpus: Context, document: Document) -> list[Finding]:
    """One finding per JSON Schema file (one that declares a JSON Schema ``$schema``) whose
    schemas an OpenAPI 3.0 document reads, by ``$ref``, as its Schema Objects, where they use
    keywords an OpenAPI 3.0 Schema Object does not have (3.0.3 §4.7.24: an extended subset of
    JSON Schema Wright draft 00): the file is valid in its own dialect (schema-invalid), the
    document's bundle, which copies them into ``components/schemas``, is not. The places are
    related locations."""
    # Deferred: openapi-spec-validator (see openapi_findings).
    from openapi_spec_validator.shortcuts import get_validator_cls

    version = str(document.data.get("openapi", ""))
    if not version.startswith("3.0"):
        return []
    judge = _role_judge(get_validator_cls(document.data).schema_validator.schema, "schema")
    if judge is None:
        return []
    view = _inlined(corpus, document)
    holders: list[tuple[Document, str, Any]] = [(document, "", document.data)]
    for holder, at in view.origins.values():
        if holder is not document:
            holders.append((holder, at, resolve_pointer(holder.data, at)))
    holders += [(h, at, node) for h, at, node in _api_parts(corpus, document) if h is not document]
    # (file, fragment pointer) -> the place in the document (or its parts) that reaches it
    reached: dict[tuple[str, str], Location] = {}
    pending: list[tuple[str, str, Location | None]] = []
    for holder, at, node in holders:
        pending += [(holder.path, root, None) for root, _ in openapi_schema_roots(node, at)]
    while pending and len(reached) < _DIALECT_FRAGMENTS:
        path, pointer, origin = pending.pop(0)
        for reference in corpus.references.within(path, pointer):
            target = corpus.documents.get(reference.target_path or "")
            if (
                reference.outcome != "ok"
                or target is None
                or reference.target_pointer is None
                or not _json_schema_file(target)
            ):
                continue
            key = (target.path, reference.target_pointer)
            if key in reached:
                continue
            holder = corpus.documents[path]
            site = origin or holder.location(reference.pointer)
            reached[key] = site
            pending.append((target.path, reference.target_pointer, site))
    places: dict[str, dict[str, str]] = {}  # file -> pointer of a keyword -> the keyword
    sites: dict[str, list[Location]] = {}
    for (path, pointer), site in reached.items():
        target = corpus.documents[path]
        node = resolve_pointer(target.data, pointer)
        if not isinstance(node, dict) or isinstance(node.get("$ref"), str):
            continue  # a Reference Object: what it names is judged on its own
        for error in judge.iter_errors(node):
            for keyword, at in _foreign_keywords(error, pointer):
                places.setdefault(path, {}).setdefault(at, keyword)
        if path in places and site not in sites.setdefault(path, []):
            sites[path].append(site)
    made = (
        _dialect_finding(document, corpus.documents[path], found, sites[path])
        for path, found in sorted(places.items())
    )
    return [finding for finding in made if finding is not None]


def _json_schema_file(document: Document) -> bool:
    """A file that declares a JSON Schema dialect (``$schema``), not an OpenAPI document."""
    data = document.data
    declared = data.get("$schema") if isinstance(data, dict) else None
    return (
        document.kind is not DocumentKind.OPENAPI
        and isinstance(declared, str)
        and "json-schema.org" in declared
    )


def _foreign_keywords(error: Any, base: str) -> Iterator[tuple[str, str]]:
    """(keyword, its pointer) of each keyword the 3.0 Schema Object definition rejects: the
    names it does not declare, a value of a keyword 3.0 spells otherwise (a list of types);
    inside a ``oneOf [Schema, Reference]``, the Schema branch's."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        for branch in error.context:
            if list(branch.relative_schema_path)[:1] == [0]:
                yield from _foreign_keywords(branch, base)
        return
    at = base + pointer_of(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = set((error.schema or {}).get("properties") or ())
        for key in error.instance:
            if str(key) not in known and not str(key).startswith("x-"):
                yield str(key), join_pointer(at, str(key))
        return
    path = list(error.absolute_path)
    yield (str(path[-1]) if path else str(error.validator)), at


_RELATED_PLACES = 20


# Keywords that say what a schema is, not what it means: a file's `$schema` or `$comment`, or the
# `$defs` that hold its schemas. Listed when a finding names the file, never a finding alone.
_BOOKKEEPING = frozenset({"$schema", "$id", "id", "$comment", "$anchor", "$defs", "definitions"})


def _dialect_finding(
    document: Document, schema_file: Document, found: Mapping[str, str], sites: list[Location]
) -> Finding | None:
    """One finding in ``schema_file``, at its first keyword 3.0 does not have, the same from
    every 3.0 document that reads it (the run keeps one); None where it has only bookkeeping."""
    if set(found.values()) <= _BOOKKEEPING:
        return None
    keywords = sorted(set(found.values()), key=lambda k: (k in _BOOKKEEPING, k.lstrip("$"), k))
    counts = {k: sum(1 for v in found.values() if v == k) for k in keywords}
    listed = ", ".join(f"`{k}` ({counts[k]})" for k in keywords)
    hints = "; ".join(_IN_30[k] for k in keywords if k in _IN_30)
    declared = schema_file.data.get("$schema")
    places = sorted(
        found, key=lambda p: (found[p] in _BOOKKEEPING, schema_file.location(p).line, p)
    )
    shown = places[1:_RELATED_PLACES]
    return Finding(
        ID,
        SEVERITY,
        headed(
            f"`{places[0]}`: this file is JSON Schema (`$schema: {declared}`), and the OpenAPI "
            f"3.0 document `{document.path}` reads its schemas by `$ref` as Schema Objects, "
            f"which in 3.0 have no {listed}",
            f": its bundle, which copies them into `components/schemas`, fails OpenAPI "
            f"{document.data.get('openapi')} (3.0.3 §4.7.24). Write them as 3.0 does"
            + (f" ({hints})" if hints else "")
            + ", or move the document to OpenAPI 3.1, whose Schema Object is JSON Schema "
            "2020-12 (the other places and the `$ref`s are related)"
            + left_out(len(shown), len(places) - 1 - len(shown), "other places"),
            f"read as OpenAPI 3.0 Schema Objects, which have no {listed}",
        ),
        schema_file.location(places[0]),
        related=(
            *(schema_file.location(p, note=f"`{found[p]}`") for p in shown),
            *(replace(site, note="the `$ref` that reads it") for site in sites[:_RELATED_PLACES]),
        ),
        key=f"{places[0]}:json-schema-as-3.0",
        heuristic=HEURISTICS[2],
    )


def _metaschema_check(version: str, data: Mapping[str, Any], value: Any) -> Callable[[Any], None]:
    """The check openapi-spec-validator makes of a schema object of an OpenAPI ``version``
    document: OpenAPI 3.0's one dialect; in 3.1 and later, the dialect its ``$schema`` names,
    else the document's ``jsonSchemaDialect``, else the OAS base dialect (3.1.1 §4.8.24.1)."""
    # Deferred: imported with openapi-spec-validator (see openapi_findings).
    from openapi_schema_validator import (
        OAS31_BASE_DIALECT_ID,
        OAS32_BASE_DIALECT_ID,
        OAS30Validator,
        oas31_format_checker,
        oas32_format_checker,
    )

    if version.startswith("3.0"):
        return _schema_checker(OAS30Validator, None, OAS30Validator.check_schema)
    later = version.startswith("3.2")
    declared = value.get("$schema") if isinstance(value, Mapping) else None
    if isinstance(value, Mapping) and "$schema" in value and not isinstance(declared, str):
        raise ValueError(f"Unknown JSON Schema dialect: {declared!r}")
    default = data.get("jsonSchemaDialect")
    if not isinstance(default, str):
        default = OAS32_BASE_DIALECT_ID if later else OAS31_BASE_DIALECT_ID
    dialect = declared if isinstance(declared, str) else default
    validator_cls = validator_for({"$schema": dialect}, default=cast(Any, None))
    if validator_cls is None:
        raise ValueError(f"Unknown JSON Schema dialect: {dialect!r}")
    formats = oas32_format_checker if later else oas31_format_checker
    return _schema_checker(
        validator_cls,
        formats,
        functools.partial(validator_cls.check_schema, format_checker=formats),
    )


def _api_parts(corpus: Context, document: Document) -> list[tuple[Document, str, Any]]:
    """The document, and each part of another corpus file that its structure reaches by a
    ``$ref`` outside its schema objects (a path item, parameter or response kept apart, the
    layout Redocly recommends), transitively: (file, pointer, node). A reference that does not
    resolve here is ``unresolved-ref``'s. The files are what one unit of this rule reads
    (``unit_reach``), with the schema files they name left out (schema-invalid's)."""
    # Memoised for the run: the document's check asks more than once (parts, inlining, text).
    memo: dict[str, list[tuple[Document, str, Any]]] = corpus.memo.setdefault(f"{ID}:parts", {})
    if document.path in memo:
        return memo[document.path]
    view = _inlined(corpus, document)
    parts: list[tuple[Document, str, Any]] = [(document, "", view.data)]
    memo[document.path] = parts
    seen = {(document.path, "")}
    for holder, at, node in parts:  # grows as it goes
        schemas = frozenset(pointer for pointer, _ in openapi_schema_roots(node, at))
        for site in structure_refs(node, at, schemas):
            # Resolved where it is written: the view's pointers are not its files'.
            written, pointer = view.locate(site) if holder is document else (holder, site)
            target = corpus_target(corpus, written, pointer)
            if target is None or (target[0].path, target[1]) in seen:
                continue
            seen.add((target[0].path, target[1]))
            if target[0].path != document.path:  # the document is walked whole already
                parts.append(target)
    return parts


def _inlined(corpus: Context, document: Document) -> InlinedView:
    """The document as its bundle reads (``speclint.analyses.api.inlining``): the places where the
    OpenAPI version's own schema rejects an object holding a ``$ref`` (an Operation, a string)
    are the places it allows no Reference Object, and each is replaced by its target. Made
    once per run: the check's parts, inlining and text tests all ask."""
    memo: dict[str, InlinedView] = corpus.memo.setdefault(f"{ID}:inlined", {})
    if document.path not in memo:
        # Deferred: openapi-spec-validator (see openapi_findings).
        from openapi_spec_validator.shortcuts import get_validator_cls

        judge = _first_judged(get_validator_cls(document.data))

        def misplaced(data: Any) -> Iterator[str]:
            yield from misplaced_refs_of(judge.places(data))
            # A schema map kept in a file (`properties: {$ref: …}`): OpenAPI 3.1's own schema
            # does not look inside schema objects, their dialect's metaschema does.
            for at, schema in openapi_schema_roots(data):
                yield from schema_map_refs(schema, at)
            # The map itself kept in a file (`components: {schemas: {$ref: …}}`).
            yield from referenced_schema_maps(data)

        memo[document.path] = inline_merged(corpus, document, misplaced, corpus.merges)
    return memo[document.path]


def _not_inlined(document: Document, holder: Document, pointer: str, why: str) -> Finding:
    """One finding for a ``$ref`` where no Reference Object is allowed that was not inlined: a
    defect when its target contains it (no bundler can replace it), and only a note that the
    content was not checked when inlining it would pass the size read for one document."""
    if why == "budget":
        return Finding(
            ID,
            Severity.INFO,
            f"{pointer or '/'}: not checked: the content this `$ref` names would pass the size "
            "speclint inlines for one document (a bundler replaces it); it is not known to be "
            "invalid",
            holder.location(pointer),
            key=f"{pointer}:not-inlined",
            coverage="not-inlined",
        )
    return Finding(
        ID,
        SEVERITY,
        f"{pointer or '/'}: `$ref` where {_spec(document)} allows no Reference Object, and its "
        "target contains it, so a bundler cannot replace it: write the object here, or point "
        "the `$ref` at a piece that does not contain it",
        holder.location(pointer),
        key=f"{pointer}:not-inlined",
    )


# What one unit reads besides its document (``speclint.analyses.units``): the files its bundle
# reads, which hold those of ``_api_parts`` and every file a misplaced ``$ref`` inlines.
unit_reach = bundle_reach


# A `$ref` to a file that is no JSON or YAML, where the format wants a string
# (`description: {$ref: ./tags/intro.md}`), is a bundler's source convention: Redocly and others
# put the file's text in its place, and the bundle they publish is valid. Judged in the bundle.
_STRUCTURED_SUFFIXES = (".json", ".yaml", ".yml")


def _inlined_text(corpus: Context, document: Document, pointer: str) -> list[Finding] | None:
    """None when the node at ``pointer`` is no such reference; else what to report about it:
    nothing when the file is in the corpus, one finding when it is missing. As the reference
    index resolved it (its outcome "text": a file that is no JSON or YAML)."""
    node = resolve_pointer(document.data, pointer)
    if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
        return None  # no `$ref` here: the index is not asked (nor built)
    reference = corpus.references.at(document.path, join_pointer(pointer, "$ref"))
    if reference is None or reference.target_path is None or "://" in reference.value:
        return None
    if reference.outcome == "text":
        return []
    if reference.outcome != "missing-file" or reference.target_path.lower().endswith(
        _STRUCTURED_SUFFIXES
    ):
        return None
    return [
        Finding(
            ID,
            SEVERITY,
            f"{pointer}: `$ref: {reference.value}` names a text file for a bundler to inline, "
            f"but `{reference.target_path}` does not exist: fix the path, or write the text in "
            "place",
            document.location(join_pointer(pointer, "$ref")),
            key=f"{pointer}:inlined-missing",
        )
    ]


def _docs_only(data: Any) -> bool:
    """An OpenAPI 3.0 document with no `paths`, `components` or `webhooks`: prose pages
    (an `info` and `tags` with descriptions) rendered by an API reference tool."""
    return isinstance(data, dict) and not any(
        key in data for key in ("paths", "components", "webhooks")
    )


def _docs_only_notice(document: Document, message: str) -> Finding:
    return Finding(
        ID,
        Severity.INFO,
        f"/: {message}: this document holds no operations or components (prose for an API "
        "reference renderer); OpenAPI 3.0 still requires `paths: {}` for tools that validate it",
        document.location(""),
        key="docs-only",
    )


# A SwaggerHub domain's URL (`https://api.swaggerhub.com/domains/OWNER/NAME/VERSION`, or the
# app's `app.swaggerhub.com/domains/OWNER/NAME`): NAME is the domain.
_DOMAIN_URL = re.compile(r"swaggerhub\.com/domains/[^/\s]+/([^/\s#'\")\]]+)")
_DOMAIN_COMMENT = re.compile(r"^\s*#(?=.*\b(?:openapi|swaggerhub)\b).*\bdomains?\b", re.IGNORECASE)


def _domain_evidence(corpus: Context, document: Document) -> str | None:
    """What shows a components-only OpenAPI 3.0 document to be a SwaggerHub *domain* (a library
    of components other APIs reference, which SwaggerHub keeps and validates without `paths`),
    else None: a URL of the corpus naming it as a domain (by its folder or file name), or its
    leading comment (SwaggerHub's domain template says "required for OpenAPI 3.0 domains").

    A components-only document published for any OpenAPI 3.0 tool, referenced by a plain URL,
    is no domain: 3.0 requires `paths` (§4.7.1; 3.1 made it optional), and its tools reject it."""
    data = document.data
    if not (isinstance(data, dict) and "components" in data and "paths" not in data):
        return None
    folder, _, name = document.path.rpartition("/")
    names = {posixpath.basename(folder), name.rsplit(".", 1)[0]} - {""}
    for other in corpus.documents.values():
        for match in _DOMAIN_URL.finditer(other.text or ""):
            if match.group(1) in names:
                return f"`{other.path}` names it as the domain `{match.group(0)}`"
    for line in (document.text or "").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break
        if _DOMAIN_COMMENT.match(line):
            return f"its comment: `{line.strip()[:80]}`"
    return None


def _build_marker(corpus: Context, holder: Document, pointer: str) -> tuple[str, str] | None:
    """The marker comment a member left empty holds (``responses:`` over ``#REF_RESPONSES``)
    when a build script of the repository names it (``sed '/#REF_RESPONSES/{r part.yml' -e
    'd}'`` fills it in), with that script: the file is a template, that member the build's."""
    if not pointer or resolve_pointer(holder.data, pointer) is not None or not holder.text:
        return None
    made = corpus.provenance.get(holder.path)
    for source in (*made.sources, *made.inputs) if made is not None else ():
        # a bundle of the template (`swagger-cli bundle src/cloud.yml`) keeps the empty member,
        # not the comment: the template's marker says whose it is
        written = corpus.documents.get(source)
        if written is not None and written.usable and holds_pointer(written.data, pointer):
            found = _build_marker(corpus, written, pointer)
            if found is not None:
                return found
    line = holder.location(pointer).line
    following = [text.strip() for text in holder.text.splitlines()[line : line + 3]]
    comment = next((text for text in following if text), "")
    marker = comment.lstrip("#").strip()
    if not comment.startswith("#") or len(marker) < 4 or " " in marker:
        return None
    script = corpus.merges.markers.get(marker)
    return (marker, script) if script is not None else None


def _placeholder_note(holder: Document, pointer: str, marker: str, script: str) -> Finding:
    """A member a build script fills in: what the run did not judge (coverage)."""
    return Finding(
        ID,
        Severity.INFO,
        f"`{pointer}` holds only the marker `#{marker}`, which {script} fills in: judged in the "
        "document the build writes, not here",
        holder.location(pointer),
        key=f"build-placeholder:{pointer}",
        coverage="build-placeholder",
    )


def _domain_note(document: Document, evidence: str) -> Finding:
    """A SwaggerHub domain's missing `paths`: what the run did not require (coverage)."""
    return Finding(
        ID,
        Severity.INFO,
        f"`paths` not required of a SwaggerHub domain, a library of components ({evidence}); "
        "an OpenAPI 3.0 validator given the file alone wants `paths: {}`",
        document.location(""),
        key="swaggerhub-domain",
        coverage="component-library",
    )


# What to do about the library's semantic errors (its messages say only what is wrong).
_UNRESOLVED_PARAMETER = re.compile(r'Path parameter "([^"]+)" for "[^"]+" operation in "([^"]+)"')


def _misnamed(
    document: Document, view: InlinedView, pointer: str, found: list[tuple[str, Finding]]
) -> Iterator[Finding]:
    """The library's unmatched path parameters of one operation (``pointer``, in the root
    document's terms): a `{name}` of the template with no parameter and a parameter the
    template does not name are one misnamed parameter, one finding, at the operation where it
    is written, with the template's path key related when that is in another file; anything
    else as the library said it."""
    template = unquote(split_pointer(pointer)[1]) if len(split_pointer(pointer)) > 1 else ""
    named = set(re.findall(r"\{([^{}]+)\}", template))
    in_template = [(n, f) for n, f in found if n in named]
    declared = [(n, f) for n, f in found if n not in named]
    if len(in_template) != 1 or len(declared) != 1:
        yield from (f for _, f in found)
        return
    (wanted, first), (given, _) = in_template[0], declared[0]
    key_at = join_pointer("/paths", template)
    holder, written = view.locate(key_at)  # the Paths Object may be kept in its own file
    related = (
        ()
        if first.location.path == holder.path
        else (holder.location(written, note="the template"),)
    )
    at = first.location.pointer or pointer
    yield Finding(
        ID,
        SEVERITY,
        headed(
            f"{at}: the path parameter `{given}` is not in the template `{template}`, whose "
            f"`{{{wanted}}}` has no parameter",
            f"; rename the parameter to `{wanted}` (or the template's `{{{wanted}}}` to "
            f"`{{{given}}}`): a path parameter's name is the template's, as OpenAPI "
            f"{document.data.get('openapi', '')} requires",
            f"the path parameter `{given}` is not in the template, whose `{{{wanted}}}` has none",
        ),
        first.location,
        related=related,
        key=first.key,
    )


_FIXES = {
    "DuplicateOperationIDError": "give this operation an operationId of its own (code generators "
    "name methods by it), as {spec} requires",
    "ParameterDuplicateError": "remove the repeated parameter (name and location are unique per "
    "operation), as {spec} requires",
    "DuplicateTagName": "remove or rename the repeated tag (tag names are unique), as "
    "{spec} requires",
    "UnresolvableParameterError": "declare each `{{name}}` of the path as an `in: path` parameter "
    "(`required: true`) and no other, as {spec} requires",
}

# The library's semantic checks that yield errors without a path (a duplicate operationId, an
# undeclared path parameter, a repeated tag): each is placed at the object it was checking.
PLACED_KEYWORDS = ("operation", "parameters", "parameter", "path", "paths", "tags", "components")
# The keywords that step through `$ref`s: each one stops alone at a reference that does not
# resolve (see ``_unresolvable_stops_here``), and the others go on.
TOLERANT_KEYWORDS = (
    *PLACED_KEYWORDS, "responses", "response", "content", "mediaType", "schemas"
)  # fmt: skip


@functools.cache
def _placing(keyword: type[Any]) -> type[Any]:
    """A keyword validator whose path-less errors are placed at the object it was called on.

    openapi-spec-validator's keyword validators receive a ``SchemaPath`` (its ``parts`` are the
    object's place in the document) but raise their own errors without one, so every one of them
    was reported at ``1:1``. The innermost validator places an error, once, like ``_linear`` does
    for schema objects.
    """

    class Placing(keyword):  # type: ignore[misc, valid-type]
        def __call__(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
            at = next((a for a in args if hasattr(a, "parts")), None)
            for error in _unresolvable_stops_here(super().__call__(*args, **kwargs)):
                if at is not None and not getattr(error, "speclint_placed", False):
                    if not error.path:
                        error.path.extendleft(reversed(tuple(at.parts)))
                    error.speclint_placed = True
                yield error

    Placing.__name__ = Placing.__qualname__ = f"Placing{keyword.__name__}"
    return Placing


def _unresolvable_stops_here(errors: Iterator[Any]) -> Iterator[Any]:
    """The errors of one keyword's check, ending quietly where it meets a ``$ref`` that does not
    resolve (a missing file's pointer, a pointer to nothing: ``unresolved-ref`` reports it once).

    The library follows references as it checks, and one that does not resolve raised out of
    the whole document: a missing parameter file silenced the duplicate-operationId and
    path-parameter checks of every operation. Caught at the innermost keyword, it ends only the
    check of the object holding that reference (one operation's path parameters, which are
    unknown while one of its parameters is), and every other object is still checked."""
    try:
        yield from errors
    except Unresolvable:
        return


def _second_of_pair(
    corpus: Context, view: InlinedView, error: Any, pointer: str
) -> tuple[str, tuple[Location, ...]]:
    """A uniqueness error, at the repetition, with the first occurrence as related.

    The library says "Operation ID 'x' ... is not unique" at the second operation, "Duplicate
    parameter 'x'" at a ``parameters`` list and "Duplicate tag name 'x'" at ``tags``; the finding
    goes to the repeated name itself, and the first one is named (OpenAPI 3.1 §4.8.10:
    operationIds are unique among all operations; §4.8.12 and §4.8.22: parameter and tag names).
    Pointers are the view's (an operation inlined from its own file, or a path item the library
    reached by its `$ref`, is read where it is written: ``written_at``); the first occurrence is
    placed in the file it is written in.
    """
    # Deferred: openapi-spec-validator (see openapi_findings).
    from openapi_spec_validator.validation.exceptions import (
        DuplicateOperationIDError,
        ParameterDuplicateError,
    )

    def first(at: str) -> tuple[Location, ...]:
        holder, written = written_at(corpus, view, at)
        return (holder.location(written, note="first occurrence"),)

    def node(at: str) -> Any:  # what is at `at`, its own `$ref` followed too
        holder, written = written_at(corpus, view, at)
        value = resolve_pointer(holder.data, written)
        target = corpus_target(corpus, holder, written) if isinstance(value, dict) else None
        return value if target is None else target[2]

    message = str(getattr(error, "message", ""))
    if isinstance(error, DuplicateOperationIDError):
        name = _quoted(message)
        here = join_pointer(pointer, "operationId")
        for at in _operation_id_pointers(view.data, name, node):
            if at != here:
                return here, first(at)
            break
        return here, ()
    entries = node(pointer)
    if isinstance(entries, list) and (
        isinstance(error, ParameterDuplicateError) or message.startswith("Duplicate tag name")
    ):
        name = _quoted(message)
        seen: dict[tuple[Any, ...], int] = {}
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or entry.get("name") != name:
                continue
            key = (entry.get("name"), entry.get("in"))
            if key in seen:
                here = join_pointer(join_pointer(pointer, index), "name")
                return here, first(join_pointer(join_pointer(pointer, seen[key]), "name"))
            seen[key] = index
    return pointer, ()


def _quoted(message: str) -> str:
    start = message.find("'")
    end = message.find("'", start + 1)
    return message[start + 1 : end] if 0 <= start < end else ""


def _operation_id_pointers(data: Any, name: str, node: Callable[[str], Any]) -> Iterator[str]:
    """Where operations declare ``operationId: name``, in document order (the library's order);
    a path item kept in its own file is read there (``node``: what is at a pointer of the
    view, where it is written)."""
    paths = data.get("paths") if isinstance(data, dict) else None
    for route, item in (paths or {}).items() if isinstance(paths, dict) else ():
        if isinstance(item, dict) and "$ref" in item:
            item = node(join_pointer("/paths", route))
        if not isinstance(item, dict):
            continue
        for method, operation in item.items():
            if isinstance(operation, dict) and operation.get("operationId") == name:
                yield join_pointer(
                    join_pointer(join_pointer("/paths", route), method), "operationId"
                )


_JUDGES: dict[str, _FirstJudged] = {}


def _first_judged(spec_validator: type[Any]) -> _FirstJudged:
    """One structural judge per OpenAPI version, built once: each document reuses it."""
    key = f"{spec_validator.__module__}.{spec_validator.__qualname__}"
    if key not in _JUDGES:
        _JUDGES[key] = _FirstJudged(spec_validator.schema_validator)
    return _JUDGES[key]


class _FirstJudged:
    """The structural check (the OpenAPI specification's own JSON Schema), judged first by
    jsonschema-rs: the Python validator alone took 7.6 s on a 2 MB document, crawling its
    registry at every ``$dynamicRef``. A document jsonschema-rs accepts has no structural errors
    to report; one it rejects goes to jsonschema, whose errors carry the instance path and
    keyword the findings need. (The library's own jsonschema-rs backend reports neither, and it
    picks its backend from a process-wide setting at first use; this does not depend on it.)"""

    def __init__(self, library: Any) -> None:
        self.library = library  # the library's validator: only its schema is read
        self.judges: tuple[Any, Any] | None = None
        self.last: tuple[Any, list[Any]] | None = None  # the last instance rejected, its errors

    def places(self, instance: Any) -> Iterator[tuple[str, Any]]:
        """(pointer, value) of every error of ``instance``, the branches of a ``oneOf`` or
        ``anyOf`` that failed included: where the schema rejects what (``_inlined``). From
        jsonschema-rs, whose errors carry their branches, in milliseconds (jsonschema took
        seconds on a document whose 600 operations were inlined); else from jsonschema."""
        self._build()
        fast = self.judges[0] if self.judges is not None else None
        try:
            if fast is not None:
                stack = list(fast.iter_errors(instance))
                while stack:
                    error = stack.pop()
                    yield pointer_of(error.instance_path), error.instance
                    for branch in getattr(error.kind, "context", None) or ():
                        stack.extend(branch)
                return
        except Exception:  # a value it cannot take (a YAML date): jsonschema says where
            pass
        for error in self.iter_errors(instance):
            for each in dict.fromkeys((error, explain(error))):
                yield pointer_of(each.absolute_path), each.instance

    def _build(self) -> None:
        if self.judges is None:
            schema = dict(self.library.schema)
            try:
                fast = jsonschema_rs.validator_for(schema)
            except Exception:  # a schema it cannot build: jsonschema alone judges
                fast = None
            self.judges = (fast, validator_for(schema)(schema))

    def iter_errors(self, instance: Any) -> Iterator[Any]:

        self._build()
        assert self.judges is not None
        last = self.last
        if last is not None and last[0] is instance:
            # The same document judged again: finding where it needs inlining (`_inlined`)
            # judged it first, and a document with nothing to inline is that very object.
            yield from last[1]
            return
        fast, slow = self.judges
        try:
            if fast is not None and fast.is_valid(instance):
                return
        except Exception:  # a value it cannot take (a YAML date): jsonschema judges
            pass
        errors = list(slow.iter_errors(instance))
        self.last = (instance, errors)
        yield from errors


class _Ids(set[int]):
    """The visited-schema registry of openapi-spec-validator, as a set: it is a list there."""

    def append(self, schema_id: int) -> None:
        self.add(schema_id)


# What every jsonschema draft validator class checks its schemas with. Each class
# ``jsonschema.validators.create`` makes (the drafts, and the time-limited ones
# ``install_safe_patterns`` registers in every run) has a function of its own, all of one code.
_JSONSCHEMA_CHECK = getattr(validators.Draft202012Validator.check_schema, "__func__", None)


def _checks_like_jsonschema(validator_cls: Any) -> bool:
    """Whether ``validator_cls`` checks schemas with jsonschema's own ``check_schema``: a
    draft class, or one extended from it (``validators.extend``), which reads its metaschema."""
    judged_by = getattr(validator_cls.check_schema, "__func__", None)
    return judged_by is not None and getattr(judged_by, "__code__", None) is getattr(
        _JSONSCHEMA_CHECK, "__code__", False
    )


@functools.cache
def _library_checker() -> tuple[Any, Any]:
    """The registry ``check_openapi_schema`` builds its validators on, and that function; both
    None where openapi-schema-validator lays them out otherwise (its own checker then judges).
    Deferred, and guarded: the library's private layout may change."""
    try:
        from openapi_schema_validator._specifications import REGISTRY
        from openapi_schema_validator.validators import check_openapi_schema
    except ImportError:
        return None, None
    return REGISTRY, check_openapi_schema


_FAST_JUDGES: dict[type[Any], Any] = {}
_ORDERED_CHECKS: dict[tuple[type[Any], Any], Callable[[Any], None] | None] = {}


def _fast_judge(validator_cls: type[Any]) -> Any:
    """A jsonschema-rs validator of the metaschema ``validator_cls`` checks schemas against, over
    the registry the library checks them with; None where the library's checker is not the one
    known here, or jsonschema-rs cannot build it (the library then judges alone)."""
    registry_, library_check = _library_checker()
    judged_by = getattr(validator_cls.check_schema, "__func__", None)
    if _checks_like_jsonschema(validator_cls):
        # A schema object that names a JSON Schema dialect (`$schema`: 2020-12): judged as
        # schema-invalid judges schema files.
        return metaschema_judge(validator_cls)
    if registry_ is None or judged_by is not library_check:
        return None
    if validator_cls not in _FAST_JUDGES:
        try:
            registry = jsonschema_rs.Registry([(uri, registry_.contents(uri)) for uri in registry_])
            _FAST_JUDGES[validator_cls] = jsonschema_rs.validator_for(
                validator_cls.META_SCHEMA, registry=registry, validate_formats=True
            )
        except Exception:  # a metaschema jsonschema-rs cannot build: the library judges
            _FAST_JUDGES[validator_cls] = None
    return _FAST_JUDGES[validator_cls]


def _schema_checker(
    validator_cls: type[Any], formats: Any, slow: Callable[[Any], None]
) -> Callable[[Any], None]:
    """The library's metaschema check of a schema object (``slow``: it raises the first error),
    judged first by jsonschema-rs (1,900 schemas in 30 ms) against the same metaschema and
    registry. Only a schema it rejects goes to the library's checker, which says why with the
    library's own message, in the order the schema is written (``_first_in_document_order``);
    so a schema is reported exactly when the library reports it, except that a ``pattern`` is
    judged as the ECMA-262 regular expression JSON Schema says it is (Python's ``re`` rejects
    valid ones such as ``\\p{L}``). ``formats``: the format checker the library asserts (OpenAPI
    3.1's: an ECMA-262 ``regex``), None for the class's own."""
    judge = _fast_judge(validator_cls)
    if judge is None:
        return slow
    if (validator_cls, formats) not in _ORDERED_CHECKS:
        registry_, library_check = _library_checker()
        _ORDERED_CHECKS[(validator_cls, formats)] = _first_in_document_order(
            validator_cls, registry_, library_check, formats
        )
    ordered = _ORDERED_CHECKS[(validator_cls, formats)]

    def check(value: Any) -> None:
        try:
            if judge.is_valid(value):
                return
        except Exception:  # a value it cannot take (a YAML date): the library judges
            pass
        (ordered or slow)(value)

    return check


@functools.cache
def _linear(schema_keyword: type[Any], judge_defaults: bool = False) -> type[Any]:
    """openapi-spec-validator's schema walker, with the same verdicts in linear time (issue 13):
    Swagger 2.0's (OpenAPI 3's schema objects are judged by ``_schema_errors``).

    The walker keeps the schemas it has visited in lists, and checks every schema object against
    the dialect's metaschema with a new Python validator over a new, uncrawled registry: about
    10 ms a schema, so a 20 MB document did not finish in the rule's time box. Here the visited
    schemas are sets, and each schema is judged by :func:`_schema_checker`.
    """

    class Linear(schema_keyword):  # type: ignore[misc, valid-type]
        def __init__(self, registry: Any) -> None:
            super().__init__(registry)
            self.visited_schema_ids = _Ids()
            self.meta_checked_schema_ids = _Ids()

        def __call__(self, schema: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
            parts = tuple(getattr(schema, "parts", ()))
            if parts[-1:] == ("items",) and isinstance(schema.read_value(), list):
                # Swagger 2.0 takes `items` from JSON Schema draft 4, where a list of schemas
                # is a tuple (2.0 §Schema Object; the official 2.0 schema accepts it): each
                # is a schema object, where the library refused the list.
                for index in range(len(schema.read_value())):
                    yield from self(schema / index, *args, **kwargs)
                return
            # The library's errors about a schema object (its metaschema, a `required` name with
            # no property, a `default` that breaks it) carry paths inside that schema, or none:
            # all were reported at the document's root. Each is placed under the schema here,
            # once, by the innermost schema that raised it.
            for error in _unresolvable_stops_here(super().__call__(schema, *args, **kwargs)):
                if not getattr(error, "speclint_placed", False):
                    error.path.extendleft(reversed(tuple(schema.parts)))
                    error.speclint_placed = True
                yield error

        @property
        def default_validator(self) -> Callable[[Any, Any], Iterator[Any]]:
            # value-invalid judges every `default` where it is written: a component's once,
            # not at each operation that reaches it, and all of OpenAPI 3.1's (the library
            # judged a parameter's, not a property's in a request body), with its conventions
            # for "unset" defaults.
            def validate(schema: Any, value: Any) -> Iterator[Any]:
                return iter(())

            if judge_defaults:
                judge = super().default_validator

                def placed(schema: Any, value: Any) -> Iterator[Any]:
                    for error in judge(schema, value):
                        # value-invalid's conventions: `default: null`, an empty `""` for
                        # "unset" (outside a `format`, an `enum`...) fail by design.
                        if default_by_convention("default", value, error) or placeholder_default(
                            explain(error)
                        ):
                            continue
                        error.path.appendleft("default")
                        yield error

                return placed
            return validate

        def _get_schema_checker(self, schema: Any, schema_value: Any) -> Callable[[Any], None]:
            slow = cast(Callable[[Any], None], super()._get_schema_checker(schema, schema_value))
            validator_cls = getattr(self, "schema_validator_cls", None)
            if validator_cls is None:
                return slow
            return _schema_checker(validator_cls, None, slow)

    Linear.__name__ = Linear.__qualname__ = f"Linear{schema_keyword.__name__}"
    return Linear


def _first_in_document_order(
    validator_cls: Any, registry: Any, library_check: Any, formats: Any = None
) -> Callable[[Any], None] | None:
    """The metaschema check the library makes of a schema object (it raises the first error its
    metaschema validator yields), raising instead the error that comes first in the schema as
    written. jsonschema yields the errors of ``additionalProperties`` in the order of a set of
    property names, which changes with the process's hash seed: a schema with two bad
    properties was reported at one or the other from run to run. None where the library's
    checker is not the one known here (it then judges alone)."""
    judged_by = getattr(validator_cls.check_schema, "__func__", None)
    if judged_by is library_check and registry is not None:
        meta = validators.validator_for(validator_cls.META_SCHEMA, default=validator_cls)(
            validator_cls.META_SCHEMA,
            format_checker=validator_cls.FORMAT_CHECKER,
            registry=registry,
        )
    elif _checks_like_jsonschema(validator_cls):
        meta = validators.validator_for(validator_cls.META_SCHEMA, default=validator_cls)(
            validator_cls.META_SCHEMA,
            format_checker=validator_cls.FORMAT_CHECKER if formats is None else formats,
        )
    else:
        return None

    def check(value: Any) -> None:
        errors = list(meta.iter_errors(value))
        if errors:
            first = min(errors, key=lambda e: (_written_order(value, e.absolute_path), e.message))
            raise SchemaError.create_from(first)

    return check


def _written_order(value: Any, path: Any) -> tuple[int, ...]:
    """Where ``path`` lies in ``value`` as written: each step's position among its siblings."""
    place: list[int] = []
    node = value
    for token in path:
        if isinstance(node, Mapping):
            keys = list(node)
            place.append(keys.index(token) if token in keys else len(keys))
            node = node.get(token)
        elif isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node):
            place.append(token)
            node = node[token]
        else:
            break
    return tuple(place)


def _partly_read(document: Document) -> Finding:
    """Swagger 2.0 is validated here, but the other rules read OpenAPI 3 (`requestBody`,
    `content`): said once per document, so a quiet report is not taken for a clean one."""
    return Finding(
        ID,
        Severity.INFO,
        swagger_2_read(document.data.get("swagger")),
        document.location("/swagger"),
        key="swagger-2",
        coverage="swagger-2",
    )


def _too_deep(document: Document) -> Finding:
    """Unknown, not invalid: the validator recursed past even the runner's deep stack."""
    return Finding(
        ID,
        Severity.INFO,
        "/: not checked past this point: openapi-spec-validator recursed deeper than "
        f"{DEEP_RECURSION:,} frames following this document's references and nesting; the "
        "document is not known to be invalid. Shorten the `$ref` chains to have it checked",
        document.location(""),
        key="too-deep",
        coverage="too-deep",
    )


def _cannot_check(document: Document, error: Exception) -> Finding:
    version = document.data.get("openapi") if isinstance(document.data, dict) else None
    return Finding(
        ID,
        SEVERITY,
        f"/: openapi-spec-validator cannot check this document ({type(error).__name__}: "
        f"{error}); it is probably incomplete: complete it so it is valid OpenAPI"
        + (f" {version}" if isinstance(version, (str, int, float)) else ""),
        document.location(""),
        key=f"crash:{type(error).__name__}",
    )
