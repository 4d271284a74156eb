"""A client-submitted schema that no instance can satisfy.

What it does
    Decides, for every client-submitted schema (OpenAPI 3.x request bodies and parameters, payloads
    of AsyncAPI messages the client sends), whether any JSON value can pass it, with jsonschema-rs's
    canonicaliser (2020-12, ``unevaluatedProperties`` included; ``$ref``\\s resolved in the corpus
    only). Other dialects (draft-04 to -07, OpenAPI 3.0, AsyncAPI 2) are translated to 2020-12
    first, with advice that fits the dialect. The finding names the killing keyword and the property
    it rejects; a closed branch rejecting a declared property of a satisfiable schema is reported
    too.

Why is this bad?
    RFC 0094 §A: a ``createRun`` body was ``allOf`` of two objects with ``additionalProperties:
    false``. In 2020-12 that sees only its sibling ``properties``, so each branch forbade the
    other's fields and no request could pass.

Example
    ::

        schema:   # the createRun request body
          allOf:
            - {type: object, required: [workflowId], properties: {workflowId: {type: string}},
               additionalProperties: false}
            - $ref: '../schemas/run-options.schema.json'   # additionalProperties: false

    FAIL: ``error [unsatisfiable-schema] POST /v1/runs (createRun) request body: no instance can
    satisfy this schema: `allOf/1/additionalProperties` ... forbids `workflowId` ...``

Use instead
    Open the branches and close the composition, where 2020-12 sees every branch's properties::

        schema:
          allOf:
            - {type: object, required: [workflowId], properties: {workflowId: {type: string}}}
            - $ref: '../schemas/run-options.schema.json'   # no additionalProperties
          unevaluatedProperties: false

    PASS.

Options
    ``scope``: ``"client-submitted"`` (default) or ``"all"`` (every schema file too); ``budget``:
    seconds one decision may take (default 2.0; past it the schema is listed as not checked).

Limitations
    Not decided: a schema whose references do not resolve, a dialect it cannot translate (draft-03).
    A ``required`` name nothing declares is ``required-undeclared``'s, an ``enum`` member its
    keywords reject ``value-invalid``'s, unless that rule does not run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from referencing.exceptions import Unresolvable

from speclint.analyses.context import Context
from speclint.analyses.schemas.declarations import REPORTED_BY, closed_typos
from speclint.analyses.schemas.references import located
from speclint.analyses.schemas.roles import Role, openapi_uses
from speclint.analyses.schemas.satisfiability import (
    CRASHED,
    NO,
    TIMED_OUT,
    Decider,
    Scope,
    corpus_resources,
    in_place_uri,
    missing_targets,
    standalone,
    translated,
)
from speclint.analyses.schemas.schema_objects import validator_class_of
from speclint.analyses.schemas.shapes import use_sites
from speclint.analyses.schemas.subsumption import At, Prover, dead_branches, describe, resolver
from speclint.analyses.schemas.validation import MALFORMED_SCHEMA, safe_validator_class
from speclint.analyses.schemas.witnesses import find_rejected, relax_closure
from speclint.common.findings import Finding, Location, Severity, headed
from speclint.common.progress import tracked
from speclint.model.corpus import Document
from speclint.parsing.dialects import has_unevaluated, translatable
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer

ID = "unsatisfiable-schema"
# Probes reference the schema where it stands instead of copying it: a copied schema's `$ref: "#"`
# would point at the probe (JSON Schema 2020-12 §8.2.1), changing what it means.
PROBE_BASE = "file:///corpus/.speclint-probe.json"


SEVERITY = Severity.ERROR
# An example that fails only for a misspelt `required` member, a schema unsatisfiable only for one,
# is required-undeclared's finding when it runs (one defect, one finding).
# A schema whose every `enum` member (or `const`) its other keywords reject (`type: string` with
# `enum: [0, 1]`) is value-invalid's finding, at each member, when that rule runs.
VALUES_REPORTED_BY = "value-invalid"
# A `oneOf` whose branches a value always matches twice is oneof-subsumed-branch's (issue 52).
OVERLAP_REPORTED_BY = "oneof-subsumed-branch"
LEAVES_TO = (REPORTED_BY, VALUES_REPORTED_BY, OVERLAP_REPORTED_BY)
_OVERLAP_ADVICE = (
    "Tell the branches apart with a keyword that validates, or use `anyOf` if a value may "
    "match more than one"
)
FACTS = ("references", "schemas")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    budget = float(options.get("budget", 2.0))
    missing = missing_targets(corpus)
    resources, holders = corpus_resources(corpus)
    with Decider(resources, budget, missing) as decider:
        targets = list(_targets(corpus, str(options.get("scope", "client-submitted"))))
        for document, pointer, label in tracked(targets, f"{ID}: deciding schemas"):
            # Against the resources this document reaches, not the whole corpus (issue 29).
            decider.focus(_scope(corpus, holders, document.path, pointer))
            node = resolve_pointer(document.data, pointer)
            if not isinstance(node, (dict, bool)):
                continue
            in_place = {"$ref": in_place_uri(document, pointer)}
            other = _other_dialect(document)
            if other:
                # The decider reads 2020-12 only: another dialect is "unknown", never a "no"
                # that its own rules would not give (issue 14).
                yield _undecided(document, pointer, label, budget, other)
                continue
            verdict = decider.decide(in_place, PROBE_BASE, stand_in=True)
            if verdict in (TIMED_OUT, CRASHED):
                yield _undecided(document, pointer, label, budget, verdict)
                continue
            if verdict != NO:
                yield from _unreachable_properties(corpus, decider, document, pointer, node, label)
                continue
            # A missing schema was replaced by `true`; decide again with `false` and report only
            # when the verdict does not depend on what the missing schema says.
            if _reaches_unresolved(corpus, document.path, pointer) and (
                decider.decide(in_place, PROBE_BASE, stand_in=False) != NO
            ):
                continue
            reasons, related = _explain(corpus, document, pointer, node)
            advice = _closure_advice(document) if reasons else ""
            if not reasons:
                typos = closed_typos(corpus.schemas, document.path, pointer)
                if typos and corpus.runs(REPORTED_BY):
                    # A closed schema's `required` names a member it declares nowhere:
                    # required-undeclared reports that typo, at error, where it is written
                    # (one defect, one finding; issue 45).
                    continue
                if corpus.runs(VALUES_REPORTED_BY) and _rejects_its_values(
                    corpus, document, pointer, node
                ):
                    # Every value the schema lists fails its other keywords: value-invalid
                    # reports each, where it is written (one defect, one finding; issue 45).
                    continue
                reasons, related, advice = _typo_reasons(typos)
            if not reasons:
                overlap = _one_of_cause(corpus, document, pointer, node)
                if overlap and corpus.runs(OVERLAP_REPORTED_BY):
                    # Branches a value always matches twice: oneof-subsumed-branch reports it,
                    # on every role (one defect, one finding; issue 52).
                    continue
                if overlap:
                    reasons, advice = [overlap], _OVERLAP_ADVICE
            why = "; ".join(reasons) if reasons else "its constraints contradict each other"
            witness = (
                "" if translated(document) else _witness(corpus, decider, document, pointer, node)
            )
            if witness:
                why = f"{why} ({witness})"
            yield Finding(
                ID,
                SEVERITY,
                headed(
                    f"{label}: no instance can satisfy this schema",
                    f": {why}. {advice}".rstrip(),
                    "no instance can satisfy this schema",
                ),
                document.location(pointer),
                related=tuple(related),
                key=pointer,
            )


def _undecided(
    document: Document, pointer: str, label: str, budget: float, verdict: str
) -> Finding:
    """The schema whose decision outlived its budget or killed the decider: unknown, said as such
    (never silence, never a verdict), and the rule goes on with the next schema."""
    if verdict == TIMED_OUT:
        why = (
            f"took longer than its budget of {budget:g} s (a large composition). Raise `budget` "
            "under `[rules.unsatisfiable-schema]` to decide it, or simplify the composition"
        )
    elif verdict == CRASHED:
        why = (
            "stopped the decider (jsonschema-rs) without a verdict, as a `$ref` chain thousands "
            "of schemas deep does. Shorten the chain to have it checked"
        )
    else:
        why = (
            f"is not supported: the schema is {verdict}, and the decider reads JSON Schema 2020-12"
        )
    return Finding(
        ID,
        Severity.INFO,
        f"{label}: not checked: deciding whether any instance satisfies this schema {why}",
        document.location(pointer),
        key=f"{pointer}#undecided",
        # The decider's limit, not the schema's defect: coverage (issue 45), not a finding.
        coverage="undecided",
    )


def _other_dialect(document: Document) -> str:
    """The dialect of a document the decider cannot read even translated ("" when it can:
    2020-12 and its supersets as they are, draft-04/06/07, OpenAPI 3.0 and AsyncAPI 2 through
    ``speclint.parsing.dialects.to_2020_12``), from what discovery recorded
    (``Document.dialect``)."""
    dialect = document.dialect
    if dialect in ("", "2020-12", "2019-09") or translatable(dialect):
        return ""
    if dialect.startswith(("OpenAPI 3.", "AsyncAPI 3")):
        return ""
    return dialect


# What keeps value-invalid from judging a value (a reference that does not resolve, a schema
# the validator cannot read): the schema is then reported here.
_NOT_JUDGED: tuple[type[BaseException], ...] = (Unresolvable, *MALFORMED_SCHEMA, RecursionError)


def _rejects_its_values(corpus: Context, document: Document, pointer: str, node: Any) -> bool:
    """Whether the schema (or the one its lone ``$ref`` names) lists values, in ``enum`` or
    ``const``, and its own keywords reject every one: then nothing can pass it, and
    value-invalid reports each value. An empty ``enum`` has no value to report: not this."""
    reference = corpus.references.at(document.path, join_pointer(pointer, "$ref"))
    if isinstance(node, dict) and set(node) == {"$ref"} and reference is not None:
        holder = corpus.documents.get(reference.target_path or "")
        if holder is None or reference.target_pointer is None:
            return False
        document, pointer = holder, reference.target_pointer
        node = resolve_pointer(document.data, pointer)
    if not isinstance(node, dict):
        return False
    members = node.get("enum")
    values = members if isinstance(members, list) else [node["const"]] if "const" in node else []
    if not values:
        return False
    try:
        validator = corpus.references.validator_at(
            validator_class_of(document), in_place_uri(document, pointer)
        )
        return not any(validator.is_valid(value) for value in values)
    except _NOT_JUDGED:
        return False  # not judged by value-invalid either: reported here


def _typo_reasons(
    typos: list[tuple[Location, list[str]]],
) -> tuple[list[str], list[Location], str]:
    """The explanation of a schema unsatisfiable because a closed ``required`` names members it
    does not declare (never an ``allOf`` branch it does not have), its related locations and
    the advice."""
    reasons = [
        f"{', '.join(f'`{n}`' for n in names)} "
        f"{'is' if len(names) == 1 else 'are'} required at `{where.pointer or '/'}` but not "
        "declared, and `additionalProperties: false` forbids every undeclared member"
        for where, names in typos
    ]
    related = [dataclasses.replace(where, note="the `required` list") for where, _ in typos]
    advice = "Declare them in `properties`, or remove them from `required`" if typos else ""
    return reasons, related, advice


def _closure_advice(document: Document) -> str:
    dialect = document.dialect or "JSON Schema 2020-12"
    if has_unevaluated(document.dialect or "2020-12"):
        return (
            f"In {dialect} `additionalProperties` sees only its sibling `properties`, so a "
            "closed `allOf` branch closes only itself: remove `additionalProperties: false` "
            "from the branches and put `unevaluatedProperties: false` next to the `allOf`"
        )
    return (
        f"In {dialect} `additionalProperties` sees only its sibling `properties` and there is "
        "no `unevaluatedProperties`, so a closed `allOf` branch closes only itself: remove "
        "`additionalProperties: false` from the branches, or write the composition as one "
        "closed schema that lists every property"
    )


def _witness(corpus: Context, decider: Decider, document: Document, pointer: str, node: Any) -> str:
    """A generated instance that one branch (or the composition with its closure keywords
    relaxed) accepts and the real composition rejects. Never trusted from the generator alone:
    both judgements come from a 2020-12 validator."""

    branches = node.get("allOf") if isinstance(node, dict) else None
    if not isinstance(branches, list):
        return ""
    composed = corpus.references.validator(
        safe_validator_class({}), in_place_uri(document, pointer)
    )
    for index, branch in enumerate(branches):
        alone = standalone(decider, document, branch)
        if alone is None:
            continue
        witness = find_rejected(alone, composed)
        if witness is not None:
            return witness.describe(f"allOf/{index}")
    whole = standalone(decider, document, node)
    if whole is not None:
        relaxed = relax_closure(whole)
        witness = find_rejected(relaxed, composed)
        if witness is not None:
            return witness.describe("the composition with its closure keywords relaxed")
    return ""


PROPERTY_EXAMPLES = 5  # generated instances tried for a property's witness


def _property_witness(
    corpus: Context, decider: Decider, document: Document, pointer: str, node: Any, name: str
) -> str:
    """An instance carrying ``name`` that the relaxed composition accepts and the real one
    rejects: the evidence that the property is unreachable."""

    whole = standalone(decider, document, node)
    if whole is None:
        return ""
    relaxed = {"allOf": [relax_closure(whole), {"type": "object", "required": [name]}]}
    composed = corpus.references.validator(
        safe_validator_class({}), in_place_uri(document, pointer)
    )
    # The property is unreachable (the decider said so): every instance of the relaxed
    # composition that carries it is rejected, so a few generated ones are evidence enough.
    witness = find_rejected(relaxed, composed, PROPERTY_EXAMPLES)
    return witness.describe("the composition with its closure keywords relaxed") if witness else ""


def _declared(
    corpus: Context, document: Document, pointer: str, node: Any
) -> dict[str, tuple[str, Document, str]]:
    """Property names the schema declares (its own ``properties`` and its ``allOf`` branches'):
    name -> (where it is declared, the declaring document, the pointer of its subschema)."""
    declared: dict[str, tuple[str, Document, str]] = {}
    if not isinstance(node, dict):
        return declared
    for name in node.get("properties", {}) or {}:
        at = join_pointer(join_pointer(pointer, "properties"), name)
        declared.setdefault(name, ("", document, at))
    branches = node.get("allOf")
    for index, branch in enumerate(branches if isinstance(branches, list) else []):
        at = join_pointer(join_pointer(pointer, "allOf"), index)
        resolved, where = _branch(corpus, document, at, branch)
        if isinstance(resolved, dict):
            holder = corpus.documents[where.path]
            for name in resolved.get("properties", {}) or {}:
                sub = join_pointer(join_pointer(where.pointer or "", "properties"), name)
                declared.setdefault(name, (f"allOf/{index}", holder, sub))
    return declared


def _unreachable_properties(
    corpus: Context, decider: Decider, document: Document, pointer: str, node: Any, label: str
) -> Iterator[Finding]:
    """A satisfiable schema can still reject a property it declares (RFC 0094 §A's cousin: a
    closed ``allOf`` branch that does not list a sibling branch's optional field)."""
    missing_reachable = _reaches_unresolved(corpus, document.path, pointer)
    in_place = {"$ref": in_place_uri(document, pointer)}
    for name, (origin, holder, sub) in sorted(_declared(corpus, document, pointer, node).items()):
        probe = {"allOf": [in_place, {"type": "object", "required": [name]}]}
        if decider.decide(probe, PROBE_BASE, stand_in=True) != NO:
            continue
        # `name: false` or `name: {not: {}}` forbids the property on purpose: not a defect.
        if decider.decide({"$ref": in_place_uri(holder, sub)}, PROBE_BASE, stand_in=True) == NO:
            continue
        if missing_reachable and decider.decide(probe, PROBE_BASE, stand_in=False) != NO:
            continue
        blockers = _closed_branches_without(corpus, document, pointer, node, name)
        why = (
            "; ".join(b for b, _ in blockers) if blockers else "the schema's constraints reject it"
        )
        where = f" (declared in `{origin}`)" if origin else ""
        overlap = "" if blockers else _one_of_cause(corpus, document, pointer, node)
        if overlap:
            why = overlap
        fix = (
            # No closed branch forbids it: advice about closed branches would blame one the
            # schema does not have (issue 52).
            _OVERLAP_ADVICE
            if overlap
            else "No closed branch forbids it: find the keyword that rejects it (a `not`, a "
            "`false` subschema, a composition) and loosen it, or remove the property"
            if not blockers
            else "Close the composition with `unevaluatedProperties: false` instead of closing "
            "a branch, or list the property in the closed branch"
            if has_unevaluated(document.dialect or "2020-12")
            else f"{document.dialect} has no `unevaluatedProperties`: list the property in "
            "the closed branch, or write the composition as one closed schema"
        )
        witness = (
            ""
            if translated(document)
            else _property_witness(corpus, decider, document, pointer, node, name)
        )
        if witness:
            why = f"{why} ({witness})"
        yield Finding(
            ID,
            SEVERITY,
            headed(
                f"{label}: property `{name}`{where} is declared but no valid instance may carry it",
                f": {why}. {fix}",
                f"property `{name}`{where} is declared but no valid instance may carry it",
                f"property `{name}` is declared but no valid instance may carry it",
            ),
            document.location(pointer),
            related=tuple(location for _, location in blockers),
            key=f"{pointer}#{name}",
        )


def _closed_branches_without(
    corpus: Context, document: Document, pointer: str, node: Any, name: str
) -> list[tuple[str, Location]]:
    found: list[tuple[str, Location]] = []
    branches = node.get("allOf") if isinstance(node, dict) else None
    for index, branch in enumerate(branches if isinstance(branches, list) else []):
        at = join_pointer(join_pointer(pointer, "allOf"), index)
        resolved, where = _branch(corpus, document, at, branch)
        if not isinstance(resolved, dict) or name in (resolved.get("properties") or {}):
            continue
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            if resolved.get(keyword) is False and not resolved.get("patternProperties"):
                source = "" if where.path == document.path else f" (from `{where.path}`)"
                target = corpus.documents[where.path].location(
                    join_pointer(where.pointer or "", keyword), note=f"allOf/{index} is closed here"
                )
                found.append((f"`allOf/{index}/{keyword}`{source} forbids it", target))
    return found


def _targets(corpus: Context, scope: str) -> Iterator[tuple[Document, str, str]]:
    for document in corpus.of_kind(DocumentKind.OPENAPI):
        if not str(document.data.get("openapi", "")).startswith("3."):
            continue  # Swagger 2.0: openapi-invalid says what is not checked
        for pointer, role, origin in openapi_uses(document):
            if role is Role.CLIENT_SUBMITTED and pointer.endswith("/schema"):
                yield document, pointer, origin
    for use in use_sites(corpus):
        if use.site.document.kind is DocumentKind.ASYNCAPI and use.role is Role.CLIENT_SUBMITTED:
            yield use.site.document, use.site.pointer, use.label
    if scope == "all":
        for document in corpus.of_kind(DocumentKind.SCHEMA):
            yield document, "", f"schema {document.path}"


def _scope(corpus: Context, holders: Mapping[str, list[str]], path: str, pointer: str) -> Scope:
    """The resources a decision about the schema at ``pointer`` of ``path`` may reach: the
    documents the ``$ref``\\s under it reach, followed pointer by pointer, each by its URIs; of
    an API document only the parts reached (a request body of a large document reaches a few of
    its schemas, not every one it holds)."""
    index = corpus.references
    seen = {(path, pointer)}
    stack = [(path, pointer)]
    while stack:
        where, at = stack.pop()
        for reference in index.within(where, at):
            if reference.target_path not in corpus.documents:
                continue  # not local, or a file the corpus lacks (a stand-in answers it)
            target = (reference.target_path, reference.target_pointer or "")
            if target not in seen:
                seen.add(target)
                stack.append(target)
    parts: dict[str, set[str]] = {}
    for where, at in seen:
        parts.setdefault(where, set()).add(at)
    scope: list[tuple[str, tuple[str, ...]]] = []
    for where in sorted(parts):
        api = corpus.documents[where].kind in (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
        pointers = tuple(sorted(parts[where])) if api else ()
        scope.extend((uri, pointers) for uri in holders.get(where, ()))
    return tuple(scope)


def _reaches_unresolved(corpus: Context, path: str, pointer: str) -> bool:
    """Does the schema at path#pointer reach, through ``$ref``s, one that does not resolve?"""
    if corpus.references.all_resolved:
        return False
    pending = [(path, pointer)]
    seen: set[tuple[str, str]] = set()
    while pending:
        where, at = pending.pop()
        if (where, at) in seen:
            continue
        seen.add((where, at))
        for reference in corpus.references.within(where, at):
            target = located(corpus, reference)
            if target is None:
                return True  # not resolved, or not to be placed: not known to be satisfiable
            pending.append(target)
    return False


def _branch(corpus: Context, document: Document, pointer: str, node: Any) -> tuple[Any, Location]:
    """A branch's schema with its ``$ref`` followed (through the corpus), and where it is defined."""
    if isinstance(node, dict) and isinstance(node.get("$ref"), str):
        reference = corpus.references.at(document.path, join_pointer(pointer, "$ref"))
        where = located(corpus, reference) if reference is not None else None
        if where is not None and where[0] in corpus.documents:
            target = corpus.documents[where[0]]
            return resolve_pointer(target.data, where[1]), target.location(where[1])
    return node, document.location(pointer)


def _requirements(branch: dict[str, Any]) -> Iterator[tuple[str, list[str]]]:
    """Where a branch requires names: its own ``required`` and its ``then``/``else`` (2020-12 §10.2.2)."""
    for place, holder in (
        ("", branch),
        ("/then", branch.get("then")),
        ("/else", branch.get("else")),
    ):
        if isinstance(holder, dict):
            names = [r for r in holder.get("required", []) or [] if isinstance(r, str)]
            if names:
                yield place, names


def _explain(
    corpus: Context, document: Document, pointer: str, node: Any
) -> tuple[list[str], list[Location]]:
    """Name each closed ``allOf`` branch that forbids a property another branch requires."""
    branches = node.get("allOf") if isinstance(node, dict) else None
    if not isinstance(branches, list):
        return [], []
    resolved = [
        _branch(corpus, document, join_pointer(join_pointer(pointer, "allOf"), i), b)
        for i, b in enumerate(branches)
    ]
    reasons: list[str] = []
    related: list[Location] = []
    for i, (closed, where) in enumerate(resolved):
        if not isinstance(closed, dict) or closed.get("additionalProperties") is not False:
            continue
        if closed.get("patternProperties"):
            continue  # which names a pattern admits is beyond this explanation
        allowed = set(closed.get("properties", {}) or {})
        source = "" if where.path == document.path else f" (from `{where.path}`)"
        for j, (other, _) in enumerate(resolved):
            if i == j or not isinstance(other, dict):
                continue
            for place, names in _requirements(other):
                forbidden = [name for name in names if name not in allowed]
                if not forbidden:
                    continue
                listed = ", ".join(f"`{n}`" for n in forbidden)
                reasons.append(
                    f"`allOf/{i}/additionalProperties`{source} forbids {listed}, which "
                    f"`allOf/{j}{place}` requires"
                )
                keyword = join_pointer(where.pointer or "", "additionalProperties")
                closing = corpus.documents[where.path].location(
                    keyword, note=f"allOf/{i} is closed here"
                )
                if closing not in related:
                    related.append(closing)
    return reasons, related


def _one_of_cause(corpus: Context, document: Document, pointer: str, node: Any) -> str:
    """Why a ``oneOf`` of the schema rejects values: branches whose every value another
    branch accepts too ("" when none is proved, ``speclint.analyses.schemas.subsumption``)."""
    one_of = node.get("oneOf") if isinstance(node, dict) else None
    if not isinstance(one_of, list):
        return ""
    at = At(document.path, join_pointer(pointer, "oneOf"), one_of)
    prover = Prover(resolver(corpus))
    return describe(prover, at, dead_branches(prover, at))
