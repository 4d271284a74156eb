"""Validating documents against their official schemas, offline, with located explanations.

Every validator here is given an explicit ``referencing`` registry: jsonschema's default falls back
to fetching unknown ``$ref`` URLs over HTTP, which a linter that gates pull requests must never do.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

import jsonschema
import jsonschema_rs
import jsonschema_specifications
import regex
from jsonschema import _keywords, _legacy_keywords, _utils, validators
from jsonschema._utils import equal
from jsonschema.exceptions import SchemaError, UnknownType, ValidationError, relevance
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry
from referencing.jsonschema import DRAFT7, DRAFT202012

from speclint.common.findings import VALUE_SHOWN, Finding, Severity, json_value
from speclint.model.corpus import Document
from speclint.parsing.kinds import draft_of, in_design_folder, in_record_folder
from speclint.parsing.regex_cost import compiled_elements, oversized
from speclint.parsing.sketches import JSON_STRING
from speclint.parsing.structured import join_pointer

ASYNCAPI_DATA = "data/asyncapi"


# A `pattern` is run against untrusted strings (examples, generated witnesses): a nested
# quantifier like ``^(a+)+$`` makes Python's backtracking `re` take exponential time. Patterns
# are searched with the `regex` module instead (the same syntax as `re`, plus Unicode property
# classes that ECMA-262 patterns use), under a time limit; a timeout is a validation error that
# names the pattern, not a hung linter.
PATTERN_TIMEOUT = 0.25  # seconds per search
# The limit is per search, and a rule searches one pattern against every example: 600 long
# values against `(a+)+$` were 150 s, past the rule's time box, and all its findings were lost
# (issue 25, item 7). So a pattern that has timed out once gets SLOW_PATTERN_TIMEOUT per search
# from then on (a value it is quick on is still judged: that takes microseconds), and once
# PATTERN_BUDGET seconds have gone on timeouts in this process, so does every pattern (many
# different slow patterns). Within a `patterns_judged_once` scope (one document of a rule), a
# pattern that timed out is not searched again at all, and reported once.
SLOW_PATTERN_TIMEOUT = 0.01
PATTERN_BUDGET = 10.0
_SLOW: set[str] = set()  # the patterns that have timed out in this process
_SPENT = [0.0]  # seconds spent on searches that timed out, in this process


@dataclass
class PatternScope:
    """What one ``patterns_judged_once`` scope (one document of a rule) learnt of its patterns."""

    not_judged: set[str] = field(default_factory=set)  # timed out, or reported uncompiled
    # The compile budget, counted for this document alone (see COMPILE_BUDGET).
    spent: float = 0.0
    charged: set[str] = field(default_factory=set)  # the patterns its `spent` counts
    uncompiled: set[str] = field(default_factory=set)  # the large ones the budget left out
    # What was not judged for want of compiling: coverage, not a finding (``not_compiled``).
    notes: list[str] = field(default_factory=list)


_SCOPES: list[PatternScope] = []  # the open scopes, innermost last


# What validating against a schema its metaschema rejects raises, besides a ValidationError:
# SchemaError and UnknownType (`type: objekt`), and a TypeError or AttributeError from inside a
# keyword (`type: null` is iterated, `properties: 1` asked for its items; opengeospatial's
# ogcapi-features has the first). Such a schema is schema-invalid's finding: an example, instance
# or value judged against it is left unjudged, and the rule goes on with the others.
MALFORMED_SCHEMA: tuple[type[Exception], ...] = (
    SchemaError,
    UnknownType,
    TypeError,
    AttributeError,
)


class PatternTimeout(ValidationError):  # type: ignore[misc]
    """A pattern that took longer than ``PATTERN_TIMEOUT`` on one value."""


class PatternNotCompiled(ValidationError):  # type: ignore[misc]
    """A value not judged against a pattern that the compile budget left uncompiled."""


@contextmanager
def patterns_judged_once() -> Iterator[PatternScope]:
    """A scope (a rule's one document) where a pattern that times out is reported at the first
    value it times out on, and not judged against the scope's later values: reported once, its
    time spent once. A scope per document, not per run, so that a document's findings are the
    same whether it is checked alone or with the others (the rule cache keeps them per
    document): the compile budget too is the document's own, and what it leaves unjudged is
    the scope's ``notes`` (coverage), not an error."""
    scope = PatternScope()
    _SCOPES.append(scope)
    try:
        yield scope
    finally:
        _SCOPES.pop()


def swagger_2_read(version: Any) -> str:
    """What a Swagger 2.0 document's coverage note says, in openapi-invalid's report and in
    ``speclint files`` alike: validated, but not read by the rules that read OpenAPI 3."""
    return (
        f"`swagger: {version}`: validated as Swagger 2.0, but its responses, examples and roles "
        "are not read by the other rules, which read OpenAPI 3; convert the document to "
        "OpenAPI 3 to have it checked as a whole"
    )


def not_compiled(rule: str, document: Document, scope: PatternScope) -> list[Finding]:
    """The scope's notes of values not judged for want of compiling a pattern, as findings the
    run moves to what it did not check (``speclint.run.coverage``, kind "pattern-not-compiled"):
    the value may well be valid, and no edit of the data makes it judged."""
    return [
        Finding(
            rule,
            Severity.INFO,
            note,
            document.location(""),
            key=f"pattern-not-compiled:{note}",
            coverage="pattern-not-compiled",
        )
        for note in scope.notes
    ]


def search(pattern: str, text: str) -> bool | None:
    """Does ``pattern`` match somewhere in ``text``? None: it ran out of time. True for a pattern
    that cannot be compiled (:func:`compiled_pattern`): a pattern is the schema rules' finding,
    not every value's."""

    compiled = compiled_pattern(pattern)
    if compiled is None:
        return True
    if not isinstance(compiled, regex.Pattern):  # one `regex` refuses but `re` takes: no
        return compiled.search(text) is not None  # backtracking guard, as before
    quick = pattern in _SLOW or _SPENT[0] >= PATTERN_BUDGET
    timeout = SLOW_PATTERN_TIMEOUT if quick else PATTERN_TIMEOUT
    started = time.monotonic()
    try:
        return regex.search(compiled, text, timeout=timeout) is not None
    except TimeoutError:
        _SLOW.add(pattern)
        _SPENT[0] += time.monotonic() - started
        return None


# Compiling is bounded as matching is (issue 44, items 2 and 3). A pattern `oversized` refuses is
# never compiled: a count no engine takes, or counted repeats that compile to gigabytes. The
# others are compiled here and kept in a cache bounded by what they hold in memory (the compiled
# program's size, which `regex` and `re` give `sys.getsizeof`): `regex`'s own cache keeps 500
# patterns whatever their size, and 40 patterns of 100,000 elements held 580 MB. The least
# recently used goes first, so that patterns used in turn stay compiled: a cache of 200,000
# elements compiled 30 alternations of 7,602 elements (0.1 MB each) again for each of 600 schemas.
#
# Compiling has a budget of time per process, COMPILE_BUDGET seconds, charged what each compile
# takes: hundreds of distinct patterns just under the bound (up to 0.05 s each, from 15 bytes
# each) would take a rule's time box, and so would a few of them used in turn past the cache (a
# compile again after the cache let a pattern go is charged again, or a 10 KB file cycling five
# of them over its values would compile them without end). Past the budget, a pattern that
# compiles to more than LARGE_PATTERN elements and more than its own length is not compiled, and
# a value not judged against it is an error that says so (PatternNotCompiled), never a silent
# pass. A pattern that costs about its length is always compiled; ordinary schemas, whose patterns
# compile in a millisecond or less (500 distinct `^k0[a-z]{5000}$` take 0.25 s), never come near.
CACHED_BYTES = 32_000_000
CACHED_PATTERNS = 2_000
LARGE_PATTERN = 1_000
COMPILE_BUDGET = 20.0  # seconds
# pattern -> (its compiled form, or None: neither module reads it; the bytes it holds; the
# seconds compiling it took)
_COMPILED: dict[str, tuple[Any, int, float]] = {}
_CACHE_SIZE = [0]  # the bytes of the patterns in _COMPILED
_COMPILING = [0.0]  # seconds spent compiling patterns in this process
_UNCOMPILED: set[str] = set()  # the patterns the budget left uncompiled in this process
_clock = time.perf_counter


def compiled_pattern(pattern: str) -> Any:
    """``pattern`` compiled by `regex` (else by `re`, for the rare pattern only `re` reads), or
    None: it is not to be compiled (``oversized``), neither module reads it, or the compile
    budget is spent and it is a large pattern (:func:`left_uncompiled` says which). Every pattern
    from the repository is compiled here.

    Within a ``patterns_judged_once`` scope the budget is the scope's: each pattern is charged
    once there what compiling it took (when it was compiled, for one the cache holds), so a
    document gets the same whether an earlier one compiled its patterns or not."""
    scope = _SCOPES[-1] if _SCOPES else None
    uncompiled = scope.uncompiled if scope is not None else _UNCOMPILED
    if pattern in uncompiled or oversized(pattern) is not None:
        return None
    if scope is None and pattern in _COMPILED:  # the process's budget: one compiled is kept
        cached = _COMPILED.pop(pattern)
        _COMPILED[pattern] = cached  # the most recently used last
        return cached[0]
    spent = scope.spent if scope is not None else _COMPILING[0]
    charged = scope is not None and pattern in scope.charged
    if (
        not charged
        and spent >= COMPILE_BUDGET
        and compiled_elements(pattern) > max(LARGE_PATTERN, len(pattern))
    ):
        uncompiled.add(pattern)
        return None
    if pattern in _COMPILED:
        cached = _COMPILED.pop(pattern)
        _COMPILED[pattern] = cached  # the most recently used last
        if scope is not None and not charged:
            scope.spent += cached[2]
            scope.charged.add(pattern)
        return cached[0]
    started = _clock()
    compiled: Any
    try:
        compiled = regex.compile(pattern, cache_pattern=False)
    except (regex.error, RecursionError, OverflowError, ValueError):
        try:
            compiled = re.compile(pattern)
        except (re.error, RecursionError, OverflowError, ValueError):
            compiled = None
    took = _clock() - started
    _COMPILING[0] += took
    if scope is not None:  # compiled again after the cache let it go: charged again
        scope.spent += took
        scope.charged.add(pattern)
    size = sys.getsizeof(compiled)
    while _COMPILED and (
        len(_COMPILED) >= CACHED_PATTERNS or _CACHE_SIZE[0] + size > CACHED_BYTES
    ):  # the least recently used out first
        _CACHE_SIZE[0] -= _COMPILED.pop(next(iter(_COMPILED)))[1]
    _COMPILED[pattern] = (compiled, size, took)
    _CACHE_SIZE[0] += size
    return compiled


def left_uncompiled(pattern: str) -> bool:
    """Whether the compile budget left ``pattern`` uncompiled (in the open scope, else in this
    process; asked after :func:`compiled_pattern` returned None)."""
    return pattern in (_SCOPES[-1].uncompiled if _SCOPES else _UNCOMPILED)


def _not_judged(pattern: str) -> bool:
    """Whether ``pattern`` has timed out (or was reported uncompiled) in the current scope, so is
    not searched again there."""
    return bool(_SCOPES) and pattern in _SCOPES[-1].not_judged


def _judged(pattern: str, text: str) -> bool | None:
    """:func:`search`, but True for a pattern not judged in the current scope (no error on a
    guess); a timeout is remembered there."""
    scope = _SCOPES[-1].not_judged if _SCOPES else None
    if scope is not None and pattern in scope:
        return True
    found = search(pattern, text)
    if found is None and scope is not None:
        scope.add(pattern)
    return found


class _BoundedRe:
    """The `re` that jsonschema's own keyword code sees: its `search` is :func:`_judged`.

    jsonschema finds the keys ``patternProperties`` covers with a bare ``re.search`` inside
    ``additionalProperties`` and ``unevaluatedProperties`` (``jsonschema._utils``), which no
    keyword override reaches: ``^(a|a)*$`` against a 26-character key took 8 s there, and twice
    that per further character. A search that runs out of time counts as a match, so a key is
    never called an extra property on a guess (our ``patternProperties``, which sees the same
    patterns, reports the timeout)."""

    def search(self, pattern: Any, string: Any, flags: int = 0) -> Any:
        if flags or not isinstance(pattern, str) or not isinstance(string, str):
            return re.search(pattern, string, flags)
        found = _judged(pattern, string)
        return True if found is None else (found or None)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


def _additional_members(instance: Any, schema: Any) -> Iterator[Any]:
    """The members of ``instance`` that neither ``properties`` nor ``patternProperties`` of
    ``schema`` cover, for ``additionalProperties``.

    jsonschema's own (``_utils.find_additional_properties``) joins the patterns with ``|`` and
    skips the search when the join is empty, so ``patternProperties: {"": ...}`` (the empty
    pattern, which matches every name: 2020-12 Validation §6.3.3, ECMA-262 `search`) covered no
    member and each was called an additional property. Each pattern is searched on its own."""
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    search = _BoundedRe().search
    for name in instance:
        if name not in properties and not any(search(p, name) for p in patterns):
            yield name


def _too_slow(pattern: str, text: str) -> PatternTimeout:
    shown = text if len(text) <= 40 else text[:37] + "..."
    again = ", and is not judged against it again in this file" if _SCOPES else ""
    return PatternTimeout(
        f"pattern {pattern!r} runs out of time on {shown!r} (catastrophic backtracking: over "
        f"{PATTERN_TIMEOUT} s on a value){again}: rewrite it without nested or overlapping "
        "quantifiers"
    )


def _uncompiled(pattern: str, what: str) -> PatternNotCompiled | None:
    """The error saying ``what`` (a value, or the names of an object's members, with its verb)
    is not judged against ``pattern``, which the compile budget left uncompiled. Within a scope
    that is no error of the value but a note of the scope (coverage: the schema may well be
    right), once per pattern: None then, and None when it was compiled."""
    if compiled_pattern(pattern) is not None or not left_uncompiled(pattern):
        return None
    if _not_judged(pattern):
        return None
    budget = (
        f"compiling it was left out, as the {COMPILE_BUDGET:g} s for compiling patterns went "
        "on others that `regex` expands to thousands of elements each"
    )
    if _SCOPES:
        _SCOPES[-1].not_judged.add(pattern)
        _SCOPES[-1].notes.append(
            json_spelled(
                f"{what} not judged against pattern {pattern!r}, nor are this file's other "
                f"values: {budget}; write fewer or smaller counted repeats"
            )
        )
        return None
    return PatternNotCompiled(
        f"{what} not judged against pattern {pattern!r}: {budget} in this run; write fewer or "
        "smaller counted repeats"
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    shown = instance if len(instance) <= 40 else instance[:37] + "..."
    uncompiled = _uncompiled(pattern, f"the value {shown!r} is")
    if uncompiled is not None:
        yield uncompiled
        return
    found = _judged(pattern, instance)
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
        names = "the names of its members are"
        uncompiled = _uncompiled(pattern, names) if instance else None
        if uncompiled is not None:
            yield uncompiled
        if _not_judged(pattern) or compiled_pattern(pattern) is None:
            continue  # whether it covers a key is unknown: its subschema is not applied on a guess
        for key, value in instance.items():
            found = _judged(pattern, key)
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


def _multiple_of(
    validator: Any, factor: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``multipleOf`` on the decimal numbers the document wrote (JSON Schema 2020-12 validation
    §6.2.1 speaks of numbers, not binary floats): 2.9 is a multiple of 0.1, though
    ``2.9 / 0.1`` is 28.999999999999996 in floating point, which jsonschema's own check reports."""
    if not validator.is_type(instance, "number") or not validator.is_type(factor, "number"):
        return
    try:
        failed = bool(Decimal(repr(instance)) % Decimal(repr(factor)))
    except (InvalidOperation, ValueError):  # a zero or non-finite factor: the metaschema's
        return
    if failed:
        yield ValidationError(f"{instance!r} is not a multiple of {factor}")


@cache
def install_safe_patterns() -> None:
    """Register, for every JSON Schema draft, a validator class whose `pattern` and
    `patternProperties` are time-limited. Registration (``jsonschema.validators.validates``) is
    what ``validator_for`` and a ``$ref`` into a resource with its own ``$schema`` consult, so
    every validation in the process uses them."""

    # The bare `re.search` calls left in jsonschema's keyword code (see _BoundedRe).
    for module in (_keywords, _legacy_keywords, _utils):
        vars(module)["re"] = _BoundedRe()
    vars(_keywords)["find_additional_properties"] = _additional_members
    for cls in (
        jsonschema.Draft3Validator,
        jsonschema.Draft4Validator,
        jsonschema.Draft6Validator,
        jsonschema.Draft7Validator,
        jsonschema.Draft201909Validator,
        jsonschema.Draft202012Validator,
    ):
        keywords: dict[str, Any] = {"pattern": _pattern, "enum": _enum}
        if "multipleOf" in cls.VALIDATORS:
            keywords["multipleOf"] = _multiple_of
        if "patternProperties" in cls.VALIDATORS:
            keywords["patternProperties"] = _pattern_properties
        safe = validators.extend(cls, keywords)
        dialect = cls.META_SCHEMA.get("$schema", "")
        version = str(cls.ID_OF(cls.META_SCHEMA) or dialect)
        validators.validates(version)(safe)


def safe_validator_class(schema: Any, default: Any = None) -> Any:
    """``validator_for`` with time-limited patterns (default: 2020-12)."""

    install_safe_patterns()
    return validator_for(
        schema if isinstance(schema, dict) else {},
        default=default
        or validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    )


def metaschema_registry() -> Registry[Any]:

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
    return judged_valid(metaschema_judge(validator_cls), schema)


def judged_valid(judge: Any, instance: Any) -> bool:
    """Whether the jsonschema-rs validator ``judge`` finds ``instance`` valid: then the Python
    validator, slower by far, need not be asked. False when it cannot tell (no judge)."""
    if judge is None:
        return False
    try:
        return bool(judge.is_valid(instance))
    except Exception:  # a value it cannot take (a YAML date, a huge integer): Python judges
        return False


def error_pointer(error: ValidationError) -> str:
    pointer = ""
    for token in error.absolute_path:
        pointer = join_pointer(pointer, token)
    return pointer


def explain(error: ValidationError) -> ValidationError:
    """The most specific error behind a ``oneOf``/``anyOf`` failure.

    A branch whose discriminator the instance does not match (a ``const`` or ``enum`` of one of
    its members) is set aside first; of the others, the branch whose error lies deepest in the
    instance is the one the author was writing (an AsyncAPI channel that is not a ``$ref`` fails
    the Reference branch at the channel itself, and the Channel branch at the bad field inside
    it); ties go to jsonschema's ``relevance``.
    """
    if not error.context:
        return error
    context = _matching_branches(error)
    # How deep a branch's error reaches counts its own branches too: an AsyncAPI message
    # without `$ref` fails `oneOf [Reference, Message]` at the message in both branches, the
    # Message one through a nested `oneOf` whose errors lie inside the message ("`$ref` is a
    # required property" is never what is wrong there).
    deepest = max(_reach(e) for e in context)
    # In a stable order first: jsonschema builds some contexts by iterating a set (evaluated
    # property names, under `unevaluatedProperties`), so their order, and `relevance`'s pick
    # among equally relevant errors, changed with the process's hash seed.
    candidates = sorted(
        (e for e in context if _reach(e) == deepest),
        key=lambda e: (
            list(map(str, e.absolute_path)),
            list(map(str, e.absolute_schema_path)),
            e.message,
        ),
    )
    # `relevance` picks one of them, and `explain` goes on into its branches: `best_match` would
    # descend into them by relevance alone, past the discriminator and depth tests above (a
    # Swagger 2.0 query parameter explained by the body parameter branch, "`in`: not `body`").
    return explain(max(candidates, key=relevance))


def _reach(error: ValidationError) -> int:
    """The depth in the instance of ``error``'s deepest error, its branches' included."""
    deepest, stack = 0, [error]
    while stack:
        current = stack.pop()
        deepest = max(deepest, len(current.absolute_path))
        stack.extend(current.context or ())
    return deepest


def _matching_branches(error: ValidationError) -> list[ValidationError]:
    """The errors of the branches whose discriminator the instance matches: a branch that
    fails a ``const`` (or a one-value ``enum``) on a member of the instance itself (``kind: "text"`` for a
    part whose ``kind`` is ``"file"``) is another kind of thing, and what else it says is beside
    the point. All of them where every branch fails that way, or none does."""
    if not isinstance(error.instance, dict):
        return list(error.context)  # only an object's member discriminates (not an array item)
    depth = len(error.absolute_path) + 1
    other_kinds = {
        e.relative_schema_path[0]
        for e in error.context
        if (
            e.validator == "const"
            or (
                e.validator == "enum"
                and isinstance(e.validator_value, list)
                and len(e.validator_value) == 1
            )
        )
        and len(e.absolute_path) == depth
        and isinstance(e.absolute_path[-1], str)
        and e.relative_schema_path
    }
    kept = [
        e
        for e in error.context
        if not e.relative_schema_path or e.relative_schema_path[0] not in other_kinds
    ]
    return kept or list(error.context)


class LocatedError(NamedTuple):
    pointer: str  # where in the instance
    message: str  # as a finding says it (:func:`short_message`)
    key: str  # the finding's identity (:func:`message_key`)


def located_errors(validator: Validator, instance: Any, limit: int = 50) -> Iterator[LocatedError]:
    """Each distinct error, most specific first, at most ``limit``."""
    return located(validator.iter_errors(instance), limit)


def located(errors: Iterable[ValidationError], limit: int = 50) -> Iterator[LocatedError]:
    """Each distinct error of ``errors`` (one validation's), most specific first, at most
    ``limit``."""
    seen: set[tuple[str, str]] = set()
    errors = sorted(errors, key=lambda e: (list(map(str, e.absolute_path)), e.message))
    for error in errors:
        specific = explain(error)
        found = (error_pointer(specific), short_message(specific))
        if found not in seen:
            seen.add(found)
            yield LocatedError(*found, message_key(specific))
        if len(seen) >= limit:
            return


# Errors a validation rule reports per document at most (the first, in document order): past
# them a document is usually of another format or version, and fifty say so. How many more
# there were is said among what the run did not check (coverage ``errors-not-shown``), never
# dropped silently (issue 45).
ERRORS_SHOWN = 50
# How many distinct errors a validation collects before counting stops (a bound on the work).
ERRORS_COUNTED = 10_000


def capped(rule: str, document: Document, errors: list[Finding], against: str) -> list[Finding]:
    """The first :data:`ERRORS_SHOWN` of one document's ``errors``, and when there were more,
    an ``info`` saying how many more errors ``against`` what were not reported."""
    if len(errors) <= ERRORS_SHOWN:
        return errors
    more = len(errors) - ERRORS_SHOWN
    return [
        *errors[:ERRORS_SHOWN],
        Finding(
            rule,
            Severity.INFO,
            f"{more} more errors {against} not reported (the first {ERRORS_SHOWN} are); fix "
            "those, and the run shows the rest",
            document.location(""),
            key="errors-not-shown",
            coverage="errors-not-shown",
        ),
    ]


class Standing(NamedTuple):
    """How a document's failures of its official schema are told: the severity, and the
    advice appended to each finding's fix ("" for a document of neither kind below)."""

    severity: Severity
    advice: str


# parse-error's words for a document in a design folder (speclint.rules.parse_error).
DESIGN_DRAFT = " (a design record's file: a draft, not the specification)"
ARCHIVED_RECORD = " (an archived file: the record of what was, kept as it was and not maintained)"


def standing(path: str, severity: Severity) -> Standing:
    """How ``overlay-invalid`` and ``arazzo-invalid`` tell a document's schema failures: at
    ``info`` for a document in a design folder (``in_design_folder``: a proposal's draft, in
    the draft's syntax, as parse-error tells one that does not parse; OAI/OpenAPI-Specification's
    ``proposals/Overlays/``, issue 49) or in an archive (``in_record_folder``: a record nobody
    edits, seqeralabs/docs' ``overlays_archive/``); else at ``severity``."""
    if in_design_folder(path):
        return Standing(Severity.INFO, DESIGN_DRAFT)
    if in_record_folder(path):
        return Standing(Severity.INFO, ARCHIVED_RECORD)
    return Standing(severity, "")


# The conventions of a schema's `default` (value-invalid, and openapi-invalid for Swagger 2.0,
# whose defaults value-invalid does not read): what fails its schema by design, not by mistake.


def default_by_convention(keyword: str, value: Any, error: ValidationError) -> bool:
    """Defaults that say "none" rather than a value: ``default: null`` (no default), and an empty
    ``{}`` or ``[]`` whose members come from their own defaults; they fail ``type``,
    ``required`` or ``minItems`` by design (SchemaStore has a thousand of them), not by mistake."""
    if keyword != "default":
        return False
    if value is None:
        return True
    empty = value == {} or value == []
    return empty and error.validator in {"required", "minItems", "minProperties"}


# The largest (smallest) value of a machine integer type: what a generator writes as the
# default of "no limit", against the `maximum` of 2^53 - 1 it writes for JSON numbers.
_MACHINE_BOUNDS = frozenset({2**31 - 1, 2**32 - 1, 2**63 - 1, 2**64 - 1, -(2**31), -(2**63)})
_VERSION = re.compile(r"v?\d+(?:[._-]\d+)*(?:-[0-9A-Za-z.]+)?")
# Keywords an empty string fails when it stands for "not set" rather than for a value.
_EMPTY_FAILS = frozenset({"enum", "pattern", "minLength", "format", "const"})


def placeholder_default(error: ValidationError) -> bool:
    """A default that says "unset" or "the newest" rather than a value: an empty string
    outside the ``enum``, ``pattern`` or ``minLength`` (its type is right), a machine integer's
    largest value above ``maximum``, ``latest`` beside an ``enum`` of version numbers. True to
    the letter, and no maintainer will change them: one info per file."""
    instance, keyword = error.instance, error.validator
    if instance == "" and keyword in _EMPTY_FAILS:
        return True
    if (
        keyword in {"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"}
        and isinstance(instance, int)
        and not isinstance(instance, bool)
    ):
        return instance in _MACHINE_BOUNDS
    members = error.validator_value
    return (
        keyword == "enum"
        and instance == "latest"
        and isinstance(members, list)
        and bool(members)
        and all(isinstance(m, str) and _VERSION.fullmatch(m) for m in members)
    )


def error_places(errors: Iterable[ValidationError]) -> Iterator[tuple[str, Any]]:
    """(pointer, value there) of each error and of each error inside it: the errors of every
    branch of a ``oneOf``/``anyOf`` (``error.context``), where :func:`explain` names one. A
    ``$ref`` a bundler inlines is often rejected only inside a branch (an AsyncAPI message's
    ``examples: [{$ref: ...}]`` fails the message's ``oneOf``, whose Message branch says
    ``examples/0`` has no member ``$ref``): ``speclint.analyses.api.inlining`` reads them all."""
    stack = list(errors)
    while stack:
        error = stack.pop()
        yield error_pointer(error), error.instance
        stack.extend(error.context or ())


def message_key(error: ValidationError) -> str:
    """``error`` as a finding's ``key`` (its fingerprint) holds it: the library's own message,
    cut at 240 characters and with its keyword, as findings said it before their messages were
    spelled as JSON (issue 44, item 13). SARIF's ``partialFingerprints`` and GitLab's
    ``fingerprint`` come from the key: had it followed the message, every such finding would
    have been closed and opened again as new on upgrading."""
    message = error.message
    if len(message) > 240:
        try:
            rendered = json.dumps(error.instance, sort_keys=True, default=str)
        except (ValueError, RecursionError):  # a value nested too deep, or a cycle
            rendered = ""
        shown = _python_repr(error.instance)
        if len(rendered) > 80 and shown:
            message = message.replace(shown, rendered[:77] + "...")
        message = message[:237] + "..." if len(message) > 240 else message
    keyword = error.validator if isinstance(error.validator, str) else ""
    return f"{message} (keyword `{keyword}`)" if keyword else message


def short_message(
    error: ValidationError, names_room: int | None = None, value_room: int = VALUE_SHOWN
) -> str:
    """The library's message for ``error``, as a message of speclint says it: values as JSON
    (:func:`json_spelled`), a long instance or keyword value shown by its start
    (:func:`speclint.common.findings.json_value`), a long list of names by its first ones and
    how many more (with ``names_room``, as many as fit in that many characters; a value in
    ``value_room`` characters); then the
    keyword. Nothing but a quoted value is shortened, and the branches
    of a ``oneOf``/``anyOf`` are named (:func:`branch_name`), never printed whole (jsonschema
    prints each: 2,749 characters for one example, issue 45)."""
    branches = _branches_named(error, value_room)
    if branches is not None:
        return branches
    message = error.message
    for value in (error.instance, error.validator_value):
        shown = _python_repr(value)
        if len(shown) > value_room and shown in message:
            message = message.replace(shown, json_value(value, value_room))
    message = _fewer_names(json_spelled(message), names_room)
    if names_room is not None:
        # A long string the library quotes itself (a discriminator's unresolved reference):
        # its start, as a value is shown.
        message = JSON_STRING.sub(lambda m: _shown(m.group(0), names_room), message)
    # An error the library built itself has no keyword: jsonschema's `<unset>` sentinel.
    keyword = error.validator if isinstance(error.validator, str) else ""
    return f"{message} (keyword `{keyword}`)" if keyword else message


BRANCHES_NAMED = 3  # branches a message names before "and N more"


def branch_name(keyword: str, index: int, branch: Any) -> str:
    """How a message names a ``oneOf``/``anyOf``/``allOf`` branch: by its ``title``, else the
    last segment of the ``$ref`` it is (``#/components/schemas/Email``: ``Email``), else where
    it is (``oneOf/2``)."""
    if isinstance(branch, dict):
        title = branch.get("title")
        if isinstance(title, str) and title.strip() and len(title) <= 40:
            return title.strip()
        reference = branch.get("$ref")
        if isinstance(reference, str) and reference.rstrip("/"):
            return reference.rstrip("/").rsplit("/", 1)[-1]
    return f"{keyword}/{index}"


def _listed(names: list[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:BRANCHES_NAMED])
    more = len(names) - BRANCHES_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def _branches_named(error: ValidationError, value_room: int = VALUE_SHOWN) -> str | None:
    """The message of a ``oneOf``/``anyOf`` failure that names its branches rather than printing
    them (None for any other error): the branches an instance matches where ``oneOf`` wants one,
    or that it matches none of."""
    keyword, branches = error.validator, error.validator_value
    if keyword not in ("oneOf", "anyOf") or not isinstance(branches, list):
        return None
    value = json_value(error.instance, value_room)
    if " is valid under each of " in error.message:
        # jsonschema lists the matching branches by their repr: the branches named are those.
        matched = [
            branch_name(keyword, i, b)
            for i, b in enumerate(branches)
            if _python_repr(b) and _python_repr(b) in error.message
        ]
        # The keyword is named in the sentence: no "(keyword ...)" after it.
        return (
            f"{value} matches {len(matched) or 'several'} branches of `{keyword}`, not one: "
            f"{_listed(matched)}"
        )
    if not error.message.endswith(" is not valid under any of the given schemas"):
        return None  # another failure of the keyword (a discriminator's): the library's words
    named = [branch_name(keyword, i, b) for i, b in enumerate(branches)]
    return f"{value} matches none of the branches of `{keyword}`: {_listed(named)}"


def closest_branch(error: ValidationError, specific: ValidationError) -> str:
    """The ``oneOf``/``anyOf`` branch of ``error`` that ``specific`` (what :func:`explain` chose
    of it) lies in, named (:func:`branch_name`): the branch the instance came closest to; "" when
    ``error`` has no branches or ``specific`` is ``error`` itself."""
    if specific is error or error.validator not in ("oneOf", "anyOf"):
        return ""
    prefix = list(error.absolute_schema_path)
    path = list(specific.absolute_schema_path)
    branches = error.validator_value
    if path[: len(prefix)] != prefix or len(path) <= len(prefix) or not isinstance(branches, list):
        return ""
    index = path[len(prefix)]
    if not isinstance(index, int) or not 0 <= index < len(branches):
        return ""
    return branch_name(str(error.validator), index, branches[index])


def _python_repr(value: Any) -> str:
    try:
        return repr(value)
    except RecursionError:  # a value nested past the interpreter's limit: nothing to replace
        return ""


# jsonschema writes the values in its messages as Python literals (``'on' is not one of ['a',
# 'b']``, ``True is not of type 'string'``, ``None``); a message speaks JSON, the language of the
# documents it is about. A quoted literal stands as a value when no letter or quote touches it
# (an apostrophe in "operation's" is English); ``False schema`` is the library's wording.
_PYTHON_VALUE = re.compile(
    r"""(?<![\w'"])(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?![\w'"])"""
    r"|\b(?:True|None|False(?! schema))\b"
)
_WORDS = {"True": "true", "False": "false", "None": "null"}


def json_spelled(message: str) -> str:
    """``message`` (a validation library's) with its Python literals written as JSON:
    ``'on'`` as ``"on"``, ``True`` as ``true``, ``None`` as ``null``."""

    def spell(match: re.Match[str]) -> str:
        text = match.group(0)
        if text in _WORDS:
            return _WORDS[text]
        if "\\" not in text:  # no escape: the characters between the quotes are the value
            return json.dumps(text[1:-1], ensure_ascii=False)
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return text
        return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else text

    return _PYTHON_VALUE.sub(spell, message)


NAMES_SHOWN = 8
# A run of quoted names (``"a", "b", ... were unexpected``, an `enum`'s members): the first few
# and how many more, when the run is long; the words around it stay.
_NAME_RUN = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:, "(?:[^"\\\n]|\\.)*")+')


def _shown(quoted: str, room: int) -> str:
    """A quoted string of a message, shown by its start when it is longer than ``room``."""
    if len(quoted) <= room:
        return quoted
    try:
        return json_value(json.loads(quoted), room)
    except ValueError:  # not a JSON string after all: as it is
        return quoted


def _fewer_names(message: str, room: int | None = None) -> str:
    """``message`` with each long run of names shortened to its first :data:`NAMES_SHOWN`;
    with ``room``, to the first ones that fit in ``room`` characters (one at least)."""

    def fewer(match: re.Match[str]) -> str:
        names = JSON_STRING.findall(match.group(0))
        if room is not None and len(match.group(0)) > room:
            kept = 1
            while kept < len(names) and len(", ".join(names[: kept + 1])) <= room:
                kept += 1
            return ", ".join(names[:kept]) + f", \u2026 {len(names) - kept} more"
        if len(names) <= NAMES_SHOWN or len(match.group(0)) <= VALUE_SHOWN:
            return match.group(0)
        return ", ".join(names[:NAMES_SHOWN]) + f", \u2026 {len(names) - NAMES_SHOWN} more"

    return _NAME_RUN.sub(fewer, message)


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

    if isinstance(declared, str) and declared:
        # `https://json-schema.org/draft-07/schema` (no `#`, https) names draft-07 too.
        named = draft_of(declared)
        return safe_validator_class({"$schema": _DRAFT_URIS[named] if named else declared})
    if (kind == "openapi" and version.startswith("3.0")) or (
        kind == "schema" and version == "OpenAPI 3.0"  # a file of 3.0 Schema Objects (`refine`)
    ):
        return _oas30_validator_class()
    if kind == "asyncapi":
        return safe_validator_class({"$schema": "http://json-schema.org/draft-07/schema#"})
    return safe_validator_class({"$schema": _DRAFT_URIS[version]} if version in _DRAFT_URIS else {})


@cache
def _oas30_validator_class() -> Any:
    """openapi-schema-validator's OpenAPI 3.0 dialect, with time-limited patterns: its own
    `pattern` runs the `regress` engine, which backtracks without a limit (``^(a|a)*$`` took
    43 s on 29 characters)."""
    # Deferred: openapi-schema-validator takes 0.35 s to import; only OpenAPI 3.0 needs it here.
    from openapi_schema_validator import OAS30Validator
    from openapi_schema_validator import _keywords as oas_keywords

    install_safe_patterns()
    vars(oas_keywords)["find_additional_properties"] = _additional_members
    keywords: dict[str, Any] = {"pattern": _pattern, "multipleOf": _multiple_of}
    keywords["$ref"] = _nullable_beside(OAS30Validator.VALIDATORS["$ref"])
    for keyword, plain in (
        ("allOf", _keywords.allOf),
        ("anyOf", _keywords.anyOf),
        ("oneOf", _keywords.oneOf),
    ):
        keywords[keyword] = _nullable_beside(
            _discriminator_once(OAS30Validator.VALIDATORS[keyword], plain)
        )
    return validators.extend(OAS30Validator, keywords)


class _Discriminating(threading.local):
    """The (instance, schema) pairs whose discriminator is being followed, in this thread."""

    def __init__(self) -> None:
        self.pairs: set[tuple[int, int]] = set()


_DISCRIMINATING = _Discriminating()


def _discriminator_once(keyword: Any, plain: Any) -> Any:
    """``keyword`` (a combinator of openapi-schema-validator, which follows a ``discriminator``
    beside it to the schema its value maps to), but followed once per instance and schema.

    The inheritance pattern of 3.0.3 §4.7.25.1 (a base with a discriminator that each subtype
    extends with ``allOf: [$ref: Base, ...]``) maps the value back to the subtype, whose ``allOf``
    reaches the base again: the library then follows the discriminator for ever (a
    RecursionError after minutes; python-openapi/openapi-spec-validator#400 is the same loop).
    Met again for the same instance, the discriminator has already chosen: the combinator is then
    judged as JSON Schema does, which 3.0.3 §4.7.25 says the discriminator only hints at."""

    def judged(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(schema, dict) or "discriminator" not in schema:
            yield from keyword(validator, value, instance, schema)
            return
        pair = (id(instance), id(schema))
        if pair in _DISCRIMINATING.pairs:
            yield from plain(validator, value, instance, schema)
            return
        # Judged whole before the first error is handed on: a caller that stops at the first
        # error (`is_valid`) and keeps the generator would otherwise leave the pair marked, and
        # the next validation of the same instance in this thread would skip the discriminator.
        _DISCRIMINATING.pairs.add(pair)
        try:
            errors = list(keyword(validator, value, instance, schema))
        finally:
            _DISCRIMINATING.pairs.discard(pair)
        yield from errors

    return judged


def _nullable_beside(keyword: Any) -> Any:
    """``keyword`` (``$ref`` or a combinator), but a ``null`` is accepted where ``nullable: true``
    stands beside it with no ``type`` of its own.

    3.0.3 §4.7.24 makes ``nullable`` act only with a ``type`` of the same Schema Object, and
    §4.7.25 has the siblings of a ``$ref`` ignored, so ``{$ref: ..., nullable: true}`` is, to the
    letter, not nullable. Generators write it everywhere (a nullable enum kept in components),
    its intent is plain, and every 3.0 tool honours it (3.1 dropped the keyword for this
    ambiguity): a ``null`` there is what the author meant, not a defect of the example."""

    def judged(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if (
            instance is None
            and isinstance(schema, dict)
            and schema.get("nullable") is True
            and "type" not in schema
        ):
            return iter(())
        return keyword(validator, value, instance, schema)

    return judged


_DRAFT_URIS = {
    "draft-03": "http://json-schema.org/draft-03/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}


ARAZZO_DATA = "data/arazzo"
# The Arazzo releases whose official schema speclint ships (``ARAZZO_DATA``/<minor>.json): the
# schema of a minor release judges its patch releases (its `arazzo` pattern is `^1\.0\.\d+`).
ARAZZO_RELEASES = ("1.0",)


@cache
def arazzo_validator(release: str) -> Validator:
    """The validator for the official Arazzo schema of ``release`` (``1.0``; vendored from the
    OpenAPI Initiative's Arazzo-Specification repository, see PROVENANCE.json), its known bugs
    corrected (:data:`ARAZZO_ERRATA`): JSON Schema 2020-12, its patterns time-limited as every
    schema's are here."""
    schema = arazzo_schema(release)
    registry = metaschema_registry().with_resource(
        schema["$id"], DRAFT202012.create_resource(schema)
    )
    validator: Validator = safe_validator_class(schema)(schema, registry=registry.crawl())
    return validator


@cache
def arazzo_judge(release: str) -> Any:
    """A jsonschema-rs validator of the same schema (:func:`arazzo_schema`) over the same
    metaschema registry, or None where it cannot be built. Most documents are valid, and it
    says so in milliseconds where the Python validator took 0.6 s a document (its
    ``$dynamicRef`` into the 2020-12 metaschema, for every workflow's `inputs`, re-crawls the
    registry each time): 379 documents of jentic/jentic-public-apis were 230 s. Only a document
    it rejects goes to :func:`arazzo_validator`, for the pointers and messages of the findings."""
    try:
        registry = metaschema_registry()
        rs_registry = jsonschema_rs.Registry([(uri, registry.contents(uri)) for uri in registry])
        return jsonschema_rs.validator_for(arazzo_schema(release), registry=rs_registry)
    except Exception:  # a schema it cannot build: the Python validator judges alone
        return None


def arazzo_schema(release: str) -> dict[str, Any]:
    """The vendored official Arazzo schema of ``release``, :data:`ARAZZO_ERRATA` applied (a new
    copy each call: callers may keep it)."""
    text = resources.files("speclint").joinpath(ARAZZO_DATA, f"{release}.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    for erratum in ARAZZO_ERRATA.get(release, ()):
        erratum.apply(schema["$defs"])
    return schema


@dataclass(frozen=True)
class SchemaErratum:
    """A known bug of an official schema, where it rejects what its specification's text allows,
    and the correction speclint applies to its copy (the vendored file stays as published)."""

    issue: str  # the upstream issue that reports it
    says: str  # what the schema wrongly demands, and what the text says
    definition: str  # the `$defs` entry it corrects
    expected: Any  # the entry's member as published (`at`), so a new copy is not patched blind
    at: tuple[str | int, ...]  # where in the entry
    corrected: Any  # what replaces it (``_NONE``: removed)

    def apply(self, definitions: dict[str, Any]) -> None:
        holder: Any = definitions[self.definition]
        for step in self.at[:-1]:
            holder = holder[step]
        last = self.at[-1]
        present = holder.get(last, _NONE) if isinstance(holder, dict) else holder[last]
        if present != self.expected:
            raise AssertionError(f"the Arazzo schema no longer has the bug of {self.issue}")
        if self.corrected is _NONE:
            del holder[last]
        else:
            holder[last] = self.corrected


_NONE = object()  # a member that is not there (expected), or is to be removed (corrected)
_EXPRESSION_TYPE = {"$ref": "#/$defs/criterion-expression-type-object"}
# The Arazzo 1.0 schema's bugs that the OpenAPI Initiative has acknowledged: each makes a document
# the Arazzo 1.0.1 text allows invalid, so arazzo-invalid reported the schema's defect as the
# document's (ecosystem batch 7: 7 false findings of 9). The fixes follow upstream's (merged on the
# v1.0-dev branch for #341 and #342, proposed in PR #338 for #336); the published schema
# (2024-08-01) has them all.
ARAZZO_ERRATA: dict[str, tuple[SchemaErratum, ...]] = {
    "1.0": (
        SchemaErratum(
            "https://github.com/OAI/Arazzo-Specification/issues/341",
            "a `retry` Failure Action needs no `stepId` or `workflowId` (§4.6.8: without one "
            "the current step is retried); only `goto` names one",
            "failure-action-object",
            ["goto", "retry"],
            ("allOf", 0, "if", "properties", "type", "enum"),
            ["goto"],
        ),
        SchemaErratum(
            "https://github.com/OAI/Arazzo-Specification/issues/342",
            "`retryAfter` is optional on a `retry` Failure Action (§4.6.8 requires only `name` "
            "and `type`)",
            "failure-action-object",
            {
                "if": {"properties": {"type": {"const": "retry"}}},
                "then": {"required": ["retryAfter"]},
            },
            ("allOf", 1),
            _NONE,
        ),
        SchemaErratum(
            "https://github.com/OAI/Arazzo-Specification/issues/336",
            "a Criterion's `type` is a string or a Criterion Expression Type Object (§4.6.9: "
            "`type: {type: jsonpath, version: draft-goessner-dispatch-jsonpath-00}`); the schema "
            "applied that object to the Criterion itself",
            "criterion-object",
            [
                {
                    "type": "object",
                    "properties": {
                        "type": {
                            "description": "The type of condition to be applied",
                            "enum": ["simple", "regex", "jsonpath", "xpath"],
                            "default": "simple",
                        }
                    },
                },
                _EXPRESSION_TYPE,
            ],
            ("anyOf",),
            _NONE,
        ),
        SchemaErratum(
            "https://github.com/OAI/Arazzo-Specification/issues/336",
            "(the same correction: the `type` member itself is a string or that object)",
            "criterion-object",
            _NONE,
            ("properties", "type"),
            {
                "description": "The type of condition to be applied",
                "default": "simple",
                "anyOf": [{"enum": ["simple", "regex", "jsonpath", "xpath"]}, _EXPRESSION_TYPE],
            },
        ),
    )
}
