"""Validating documents against their official schemas, offline, with located explanations.

Every validator here is given an explicit ``referencing`` registry: jsonschema's default falls back
to fetching unknown ``$ref`` URLs over HTTP, which a linter that gates pull requests must never do.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import DRAFT7

from .structured import join_pointer

ASYNCAPI_DATA = "data/asyncapi"


# A `pattern` is run against untrusted strings (examples, generated witnesses): a nested
# quantifier like ``^(a+)+$`` makes Python's backtracking `re` take exponential time. Patterns
# are searched with the `regex` module instead (the same syntax as `re`, plus Unicode property
# classes that ECMA-262 patterns use), under a time limit; a timeout is a validation error that
# names the pattern, not a hung linter.
PATTERN_TIMEOUT = 0.25  # seconds per search


class PatternTimeout(ValidationError):  # type: ignore[misc]
    """A pattern that took longer than ``PATTERN_TIMEOUT`` on one value."""


def search(pattern: str, text: str) -> bool | None:
    """Does ``pattern`` match somewhere in ``text``? None: it ran out of time."""
    import re

    import regex

    try:
        return regex.search(pattern, text, timeout=PATTERN_TIMEOUT) is not None
    except TimeoutError:
        return None
    except regex.error:
        try:  # a pattern `regex` refuses but `re` takes: no backtracking guard, as before
            return re.search(pattern, text) is not None
        except re.error:
            return True  # an invalid pattern is schema-invalid's finding, not every value's


def _too_slow(pattern: str, text: str) -> PatternTimeout:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return PatternTimeout(
        f"pattern {pattern!r} takes longer than {PATTERN_TIMEOUT} s on {shown!r} "
        "(catastrophic backtracking): rewrite it without nested or overlapping quantifiers"
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    found = search(pattern, instance)
    if found is None:
        yield _too_slow(pattern, instance)
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, properties: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in properties.items():
        for key, value in instance.items():
            found = search(pattern, key)
            if found is None:
                yield _too_slow(pattern, key)
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


# Large enums (SchemaStore has enums of thousands of values) judged by hashing, not by comparing
# the instance with each member: checking each member of a 5,000-value enum against its own
# schema was 12 million comparisons. Keyed by the list's identity, which the cache pins.
_ENUM_SETS: dict[int, tuple[list[Any], frozenset[Any], list[Any]]] = {}
_HASHED_FROM = 16  # members; below this the plain scan is as fast


def _enum_key(value: Any) -> tuple[Any, ...] | None:
    """A hashable key with JSON Schema's equality (2020-12 Validation §6.1.2 via jsonschema's
    `equal`): `1` equals `1.0`, `true` is not `1`; None for arrays and objects."""
    if isinstance(value, str):
        return ("s", value)
    if value is None:
        return ("n",)
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)) and value == value:  # NaN equals nothing
        return ("x", value)
    return None


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    from jsonschema._utils import equal

    if not isinstance(enums, list) or len(enums) < _HASHED_FROM:
        if all(not equal(each, instance) for each in enums):
            yield ValidationError(f"{instance!r} is not one of {enums!r}")
        return
    entry = _ENUM_SETS.get(id(enums))
    if entry is None or entry[0] is not enums:
        keys = [_enum_key(each) for each in enums]
        hashed = frozenset(key for key in keys if key is not None)
        others = [each for each, key in zip(enums, keys, strict=True) if key is None]
        entry = _ENUM_SETS[id(enums)] = (enums, hashed, others)
    key = _enum_key(instance)
    found = key in entry[1] if key is not None else any(equal(e, instance) for e in entry[2])
    if not found:
        yield ValidationError(f"{instance!r} is not one of {enums!r}")


@cache
def install_safe_patterns() -> None:
    """Register, for every JSON Schema draft, a validator class whose `pattern` and
    `patternProperties` are time-limited. Registration (``jsonschema.validators.validates``) is
    what ``validator_for`` and a ``$ref`` into a resource with its own ``$schema`` consult, so
    every validation in the process uses them."""
    from jsonschema import validators

    for cls in (
        jsonschema.Draft3Validator,
        jsonschema.Draft4Validator,
        jsonschema.Draft6Validator,
        jsonschema.Draft7Validator,
        jsonschema.Draft201909Validator,
        jsonschema.Draft202012Validator,
    ):
        keywords: dict[str, Any] = {"pattern": _pattern, "enum": _enum}
        if "patternProperties" in cls.VALIDATORS:
            keywords["patternProperties"] = _pattern_properties
        safe = validators.extend(cls, keywords)
        dialect = cls.META_SCHEMA.get("$schema", "")
        version = str(cls.ID_OF(cls.META_SCHEMA) or dialect)
        validators.validates(version)(safe)


def safe_validator_class(schema: Any, default: Any = None) -> Any:
    """``validator_for`` with time-limited patterns (default: 2020-12)."""
    from jsonschema.validators import validator_for

    install_safe_patterns()
    return validator_for(
        schema if isinstance(schema, dict) else {},
        default=default
        or validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    )


def metaschema_registry() -> Registry[Any]:
    import jsonschema_specifications

    registry: Registry[Any] = jsonschema_specifications.REGISTRY
    return registry


_METASCHEMA_JUDGES: dict[Any, Any] = {}


def metaschema_judge(validator_cls: Any) -> Any:
    """A jsonschema-rs validator of ``validator_cls``'s metaschema (a jsonschema draft class),
    formats asserted, over the same metaschema registry; None where it cannot be built.

    A schema it accepts is one ``validator_cls.check_schema`` accepts too, so callers ask
    jsonschema only about the schemas it rejects, for the paths and messages of the findings:
    jsonschema-rs is the stricter of the two where they differ (it asserts formats in draft-07
    and older), never the other way (schema-invalid, issue 16: no disagreement on 2,528 Schema
    Store schemas and mutants). 40 schemas took the Python validator 0.5 s."""
    if validator_cls not in _METASCHEMA_JUDGES:
        try:
            import jsonschema_rs

            registry = metaschema_registry()
            rs_registry = jsonschema_rs.Registry(
                [(uri, registry.contents(uri)) for uri in registry]
            )
            _METASCHEMA_JUDGES[validator_cls] = jsonschema_rs.validator_for(
                validator_cls.META_SCHEMA, registry=rs_registry, validate_formats=True
            )
        except Exception:  # a metaschema it cannot build: the Python validator judges alone
            _METASCHEMA_JUDGES[validator_cls] = None
    return _METASCHEMA_JUDGES[validator_cls]


def accepted_fast(validator_cls: Any, schema: Any) -> bool:
    """Whether :func:`metaschema_judge` accepts ``schema`` (False when it cannot tell)."""
    judge = metaschema_judge(validator_cls)
    if judge is None:
        return False
    try:
        return bool(judge.is_valid(schema))
    except Exception:  # a value it cannot take (a YAML date, a huge integer): Python judges
        return False


def error_pointer(error: ValidationError) -> str:
    pointer = ""
    for token in error.absolute_path:
        pointer = join_pointer(pointer, token)
    return pointer


def explain(error: ValidationError) -> ValidationError:
    """The most specific error behind a ``oneOf``/``anyOf`` failure.

    The branch whose error lies deepest in the instance is the one the author was writing (an
    AsyncAPI channel that is not a ``$ref`` fails the Reference branch at the channel itself, and
    the Channel branch at the bad field inside it); ties go to jsonschema's ``best_match``.
    """
    if not error.context:
        return error
    deepest = max(len(e.absolute_path) for e in error.context)
    candidates = [e for e in error.context if len(e.absolute_path) == deepest]
    return explain(best_match(candidates))


def located_errors(
    validator: Validator, instance: Any, limit: int = 50
) -> Iterator[tuple[str, str]]:
    """(pointer, message) for each distinct error, most specific first, at most ``limit``."""
    seen: set[tuple[str, str]] = set()
    errors = sorted(
        validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    for error in errors:
        specific = explain(error)
        found = (error_pointer(specific), short_message(specific))
        if found not in seen:
            seen.add(found)
            yield found
        if len(seen) >= limit:
            return


def short_message(error: ValidationError) -> str:
    """jsonschema messages quote whole instances; keep them to one readable line."""
    message = error.message
    if len(message) > 240:
        rendered = json.dumps(error.instance, sort_keys=True, default=str)
        if len(rendered) > 80:
            message = message.replace(repr(error.instance), rendered[:77] + "...")
        message = message[:237] + "..." if len(message) > 240 else message
    # An error the library built itself has no keyword: jsonschema's `<unset>` sentinel.
    keyword = error.validator if isinstance(error.validator, str) else ""
    return f"{message} (keyword `{keyword}`)" if keyword else message


def asyncapi_versions() -> list[str]:
    folder = resources.files("speclint").joinpath(ASYNCAPI_DATA)
    return sorted(
        p.name[:-5] for p in folder.iterdir() if p.name[0].isdigit() and p.name.endswith(".json")
    )


@cache
def asyncapi_validator(version: str) -> Validator:
    """The validator for the official AsyncAPI schema of ``version`` (vendored, see PROVENANCE.json)."""
    text = resources.files("speclint").joinpath(ASYNCAPI_DATA, f"{version}.json").read_text("utf-8")
    schema = json.loads(text)
    # The published files are draft-07 and embed their definitions with their own $ids.
    registry = (
        metaschema_registry().with_resource(schema["$id"], DRAFT7.create_resource(schema)).crawl()
    )
    validator: Validator = jsonschema.Draft7Validator(schema, registry=registry)
    return validator


def validator_class_at(kind: str, version: str, declared: str | None) -> Any:
    """The validator class for a schema object: its nearest ``$schema`` when it names one, else
    its document's dialect (``kind``: ``schema``, ``openapi`` or ``asyncapi``; ``version``: the
    API document's version, or the schema file's discovered dialect such as ``draft-07``).

    OpenAPI 3.0 Schema Objects are their own dialect (3.0.3 §4.7.24: ``nullable``, boolean
    ``exclusiveMinimum``), which openapi-schema-validator implements; OpenAPI 3.1 defaults to the
    OAS dialect, a 2020-12 superset (§4.8.24); the AsyncAPI Schema Object is a draft-07 superset
    (2.6.0 §4.3.21, 3.0.0 §3.3.30).
    """
    from .kinds import draft_of

    if isinstance(declared, str) and declared:
        # `https://json-schema.org/draft-07/schema` (no `#`, https) names draft-07 too.
        named = draft_of(declared)
        return safe_validator_class({"$schema": _DRAFT_URIS[named] if named else declared})
    if kind == "openapi" and version.startswith("3.0"):
        from openapi_schema_validator import OAS30Validator

        return OAS30Validator
    if kind == "asyncapi":
        return safe_validator_class({"$schema": "http://json-schema.org/draft-07/schema#"})
    return safe_validator_class({"$schema": _DRAFT_URIS[version]} if version in _DRAFT_URIS else {})


_DRAFT_URIS = {
    "draft-03": "http://json-schema.org/draft-03/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}
