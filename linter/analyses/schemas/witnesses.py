"""Concrete evidence for a satisfiability finding: instances a branch accepts and the whole rejects.

hypothesis-jsonschema generates instances from one ``allOf`` branch; each is validated against that
branch and then against the real composed schema with a 2020-12 validator. The generator alone is
never trusted: it ignores ``unevaluatedProperties`` (and cannot know what the other branches say),
so only instances the real validator has judged are quoted. Generation is derandomized and bounded,
so the same corpus gives the same witness, byte for byte.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry

from speclint.analyses.schemas.validation import (
    compiled_pattern,
    json_spelled,
    safe_validator_class,
    search,
)
from speclint.parsing.regex_cost import compiled_elements, oversized

MAX_EXAMPLES = 25
# Hypothesis builds the strings a pattern's counted repeats ask for, slowly: 25 strings of
# `^[a-z]{2000}$` took 55 s, and `(?:a{3000}){3000}` had it build nine-million-character ones
# for minutes (issue 44, item 3). A schema with a pattern whose repeats add more elements than
# this (``regex_cost.compiled_elements``, past what is written) is not generated from.
GENERATED_REPEATS = 1_000


@dataclass(frozen=True)
class Witness:
    instance: Any
    keyword_path: str  # where in the composed schema the instance is rejected, e.g. allOf/1/additionalProperties
    message: str

    @property
    def shown(self) -> str:
        """The instance as canonical JSON, cut at 120 characters."""
        shown = json.dumps(self.instance, sort_keys=True, ensure_ascii=True)
        return shown if len(shown) <= 120 else shown[:117] + "..."

    def describe(self, origin: str) -> str:
        source = origin if " " in origin else f"`{origin}`"  # a keyword path, or words
        return (
            f"e.g. `{self.shown}` (valid for {source}) is rejected at `{self.keyword_path}`: "
            f"{self.message}"
        )


def generate(schema: Any, count: int = MAX_EXAMPLES) -> list[Any]:
    """Up to ``count`` instances of a self-contained schema; none when it cannot be generated
    from, or holds a pattern whose counted repeats ask for long strings (``GENERATED_REPEATS``)
    or that is not compiled at all (``regex_cost.oversized``)."""
    if asks_long_strings(schema):
        return []
    # hypothesis-jsonschema warns (while building the strategy) about patterns it cannot handle;
    # speclint's own output stays clean.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _generate(schema, count)


def _generate(schema: Any, count: int) -> list[Any]:
    # Hypothesis keeps files (and reads them back) in `.hypothesis` under the working directory,
    # the repository under check, unless told otherwise: the run tells it before it is imported
    # (``speclint.run.cache.keep_hypothesis_private``). Called outside a run with nothing chosen: a
    # folder of this process's own.
    if "hypothesis" not in sys.modules and not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        own = tempfile.mkdtemp(prefix="speclint-hypothesis-")
        atexit.register(shutil.rmtree, own, True)
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = own
    # Deferred: Hypothesis and hypothesis-jsonschema take a second to import, and most corpora
    # never need a generated witness.
    from hypothesis import HealthCheck, given, settings
    from hypothesis_jsonschema import from_schema

    found: list[Any] = []
    try:

        @settings(
            derandomize=True,
            max_examples=count,
            database=None,  # no example database: nothing is read back from an earlier run
            deadline=None,
            # All but `filter_too_much`: a schema whose instances hypothesis-jsonschema can
            # only find by filtering (a `not` of a `not`) gave none after a thousand draws and
            # 27 s; failing that check early gives none at once.
            suppress_health_check=[h for h in HealthCheck if h != HealthCheck.filter_too_much],
        )
        @given(from_schema(schema))
        def collect(instance: Any) -> None:
            found.append(instance)

        collect()
    except Exception:  # an unsupported keyword or format: no witnesses, and no verdict from them
        return []
    return found


def find_rejected(
    branch: Any, composed: Draft202012Validator, count: int = MAX_EXAMPLES
) -> Witness | None:
    """The witness for ``branch``: first the smallest instance built by hand (:func:`minimal`),
    which settles the common case (a closed branch and a field another branch requires) in
    microseconds; hypothesis-jsonschema's generated instances (``count`` of them) only when that
    one is not evidence (0.1 to 0.3 s a schema: 13 s of a 1,000-schema corpus's run, issue 16;
    seconds where the branch keeps ``unevaluatedProperties``, ``not`` or ``anyOf``)."""
    quick = minimal(branch)
    if quick is not _NONE:
        witness = first_rejected(branch, composed, [quick])
        if witness is not None:
            return witness
    return first_rejected(branch, composed, generate(branch, count))


class _Nothing:
    """No instance could be built by hand (distinct from the instance ``null``)."""


_NONE: Any = _Nothing()
_DEPTH = 16


# Strings tried against a ``pattern``, shortest first: most identifiers' patterns accept one.
_TRIED_STRINGS = ("a", "aaaa", "a1", "a-1", "a_1", "0", "0000", "A", "AAAA", "a" * 16, "a.a")


def _least_string(schema: dict[str, Any]) -> Any:
    """The shortest simple string a schema's ``minLength``, ``maxLength`` and ``pattern``
    allow, or ``_NONE`` (a ``format``, an encoding, a pattern none of a few strings meets)."""
    if "format" in schema or "contentEncoding" in schema:
        return _NONE
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
    if not isinstance(shortest, int) or not 0 <= shortest <= 1024:
        return _NONE
    pattern = schema.get("pattern")
    if pattern is None:
        return "a" * shortest
    if not isinstance(pattern, str) or compiled_pattern(pattern) is None:
        return _NONE
    for tried in ("", *_TRIED_STRINGS):
        fits = len(tried) >= shortest and (not isinstance(longest, int) or len(tried) <= longest)
        if fits and search(pattern, tried) is True:
            return tried
    return _NONE


def asks_long_strings(schema: Any) -> bool:
    """Does a ``pattern`` of ``schema`` (or a ``patternProperties`` key) ask for strings longer
    than Hypothesis builds quickly (``GENERATED_REPEATS``), or is it not compiled at all?"""
    return any(_long_strings(pattern) for pattern in _patterns(schema))


def built_by_hand(schema: Any) -> list[Any]:
    """The smallest instance of ``schema`` built by hand (:func:`minimal`), or none."""
    quick = minimal(schema)
    return [] if quick is _NONE else [quick]


def _long_strings(pattern: str) -> bool:
    return (
        oversized(pattern) is not None
        or compiled_elements(pattern) - len(pattern) > GENERATED_REPEATS
    )


def _patterns(schema: Any) -> Iterator[str]:
    """Every ``pattern`` and ``patternProperties`` key in ``schema``, at any depth (a member
    named ``pattern`` under ``properties`` is a schema, not a string, and is passed over)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            keyed = node.get("patternProperties")
            if isinstance(keyed, dict):
                yield from (key for key in keyed if isinstance(key, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _least_number(schema: dict[str, Any]) -> Any:
    """The number nearest zero that a simple numeric schema's bounds allow, or ``_NONE``
    (a ``multipleOf``, a bound that is not a number). A candidate only, like all of these."""
    if "multipleOf" in schema:
        return _NONE
    bounds = [schema.get(k) for k in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")]
    if any(
        b is not None
        and (isinstance(b, bool) or not isinstance(b, (int, float)) or not math.isfinite(b))
        for b in bounds
    ):
        return _NONE
    low, low_open, high, high_open = bounds
    value = 0
    if low is not None and value < low:
        value = math.ceil(low)
    if low_open is not None and value <= low_open:
        value = math.floor(low_open) + 1
    if high is not None and value > high:
        value = math.floor(high)
    if high_open is not None and value >= high_open:
        value = math.ceil(high_open) - 1
    return value


# What an ``allOf`` branch may say and still be merged into its parent by hand: its shape, and
# words that constrain nothing (a closure keyword the caller relaxed is gone already).
_MERGEABLE = frozenset(
    {"type", "required", "properties", "allOf", "title", "description", "$comment", "examples",
     "default", "deprecated", "readOnly", "writeOnly", "$id", "$schema", "$defs", "definitions"}
)  # fmt: skip
# Closure keywords that close nothing: `unevaluatedProperties: true` is no constraint.
_OPEN = frozenset({"additionalProperties", "unevaluatedProperties"})


def _merged(schema: dict[str, Any], depth: int = 0) -> dict[str, Any] | None:
    """``schema`` with its ``allOf`` branches (and theirs) merged in: their ``required`` and
    ``properties`` (a property the schema declares itself wins), or None where a branch says
    more than that or two branches disagree on the type."""
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for branch in schema.get("allOf") or ():
        if not isinstance(branch, dict) or depth > _DEPTH:
            return None
        if any(k not in _MERGEABLE and not (k in _OPEN and branch[k] is True) for k in branch):
            return None
        inner = _merged(branch, depth + 1)
        if inner is None:
            return None
        if "type" in inner:
            if "type" in merged and merged["type"] != inner["type"]:
                return None
            merged["type"] = inner["type"]
        merged["required"] = [*merged.get("required", []), *inner.get("required", [])]
        merged["properties"] = {**inner.get("properties", {}), **merged.get("properties", {})}
    return merged


def minimal(schema: Any, root: Any = None, depth: int = 0) -> Any:
    r"""The smallest instance of a simple schema, or ``_NONE``: an object of its required
    properties, each the least value of its type (``""``, ``0``, ``false``, ``null``, ``[]``; a
    string of ``minLength`` letters, or one of a few that meets its ``pattern``; the number
    nearest zero within its bounds), a ``const``, the first ``enum`` member; through local
    ``$ref``\s and ``allOf``. A format, another pattern, a ``multipleOf``, an array bound or a
    choice (``anyOf``, ``oneOf``, ``not``, ``if``) gives up: hypothesis knows those. The result
    is only a candidate, judged by a validator."""
    root = schema if root is None else root
    if depth > _DEPTH or not isinstance(schema, dict):
        return {} if schema is True and depth else _NONE
    if any(k in schema for k in ("anyOf", "oneOf", "not", "if", "$dynamicRef", "dependentSchemas")):
        return _NONE
    reference = schema.get("$ref")
    if isinstance(reference, str):
        if not reference.startswith("#/") or len(schema) > 1:
            return _NONE
        target: Any = root
        for token in reference[2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        return minimal(target, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    members = schema.get("enum")
    if isinstance(members, list):
        return members[0] if members else _NONE
    merged = _merged(schema)
    if merged is None:
        return _NONE
    kind = merged.get("type")
    if kind is None and ("properties" in merged or "required" in merged):
        kind = "object"
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind == "object":
        if merged.get("minProperties") or merged.get("propertyNames"):
            return _NONE
        declared = merged.get("properties")
        properties: dict[str, Any] = declared if isinstance(declared, dict) else {}
        built: dict[str, Any] = {}
        for name in merged.get("required") or ():
            value = minimal(properties.get(name, True), root, depth + 1)
            if value is _NONE or not isinstance(name, str):
                return _NONE
            built[name] = value
        return built
    if kind == "string":
        return _least_string(merged)
    if kind in ("integer", "number"):
        return _least_number(merged)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "array":
        return [] if not merged.get("minItems") and "contains" not in merged else _NONE
    return _NONE


def first_rejected(
    branch: Any, composed: Draft202012Validator, generated: list[Any]
) -> Witness | None:
    """The smallest generated instance the branch accepts and the composition rejects."""
    try:
        # An empty registry: a reference left in place (a cycle) must fail, not be fetched.
        branch_validator = safe_validator_class(branch)(branch, registry=Registry())
    except Exception:  # a branch jsonschema cannot compile: no witness from it
        return None
    return smallest_rejected(branch_validator, composed, generated)


def smallest_rejected(accepting: Any, rejecting: Any, generated: list[Any]) -> Witness | None:
    """The smallest of the ``generated`` instances that the validator ``accepting`` accepts and
    ``rejecting`` rejects (smallest as canonical JSON, so the same instances give the same
    witness); None when there is none, or a validator fails (an unresolvable reference)."""
    candidates: list[tuple[str, Any, ValidationError]] = []
    for instance in generated:
        try:
            if not accepting.is_valid(instance):
                continue
            error = next(iter(rejecting.iter_errors(instance)), None)
        except Exception:  # an unresolvable reference inside the composition: no witness
            return None
        if error is not None:
            candidates.append((json.dumps(instance, sort_keys=True), instance, error))
    if not candidates:
        return None
    _, instance, error = min(candidates, key=lambda c: (len(c[0]), c[0]))
    specific = _deepest(error)
    path = "/".join(str(p) for p in specific.absolute_schema_path if p != "$ref")
    return Witness(instance, path, json_spelled(specific.message))


CLOSURE_KEYWORDS = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems")


def relax_closure(schema: Any) -> Any:
    """The schema with every closure keyword that is ``false`` removed, at any depth.

    Instances of the relaxed schema carry the fields the author meant to allow; the real
    composition then shows which closing keyword rejects them (RFC 0094 §A)."""
    if isinstance(schema, list):
        return [relax_closure(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: relax_closure(value)
        for key, value in schema.items()
        if not (key in CLOSURE_KEYWORDS and value is False)
    }


def _deepest(error: ValidationError) -> ValidationError:
    while error.context:
        error = min(error.context, key=lambda e: (-len(e.absolute_schema_path), e.message))
    return error
