"""A ``required`` name that no ``properties`` or ``patternProperties`` in scope declares.

What it does
    For every ``required`` list of every schema object (schema files, and the schemas of
    OpenAPI, Swagger and AsyncAPI documents), looks each name up in everything that applies
    to the same instance: the schema's own ``properties`` and ``patternProperties``, its
    ``allOf``/``anyOf``/``oneOf``/``if``/``then``/``else``/``dependentSchemas`` subschemas,
    the schema its ``$ref`` names (followed through the corpus), the parent when the
    ``required`` sits in one of those branches (2020-12 writes ``then: {required: [x]}`` to
    make a declared property conditional), and the schemas that ``$ref`` this one, each in
    its own dialect (in draft-07 and OpenAPI 3.0 a ``$ref`` makes its siblings ignored).

    A name nothing declares is reported at its ``required`` item: an ``error`` when the shape
    is closed (``additionalProperties: false`` or ``unevaluatedProperties: false``: no valid
    instance can carry the name; a ``warning`` inside an ``if``), a ``warning`` when it is
    open (most likely a misspelling of a declared name, which the message suggests).

Why is this bad?
    ``required`` and ``properties`` are independent keywords: a name required but not declared takes
    any value, so a typo (``workflowID`` for ``workflowId``) silently makes the real property
    optional and unvalidated. Under ``additionalProperties: false`` every instance fails.

Example
    ::

        {"type": "object",
         "properties": {"workflowId": {"type": "string"}},
         "required": ["workflowID"]}

    FAIL: ``warning [required-undeclared] `workflowID` is required but no `properties` in
    scope declares it; did you mean `workflowId`? ...``

Use instead
    ``"required": ["workflowId"]``. PASS.

Options
    ``suggest`` (default 0.75): how close (``difflib`` ratio, 0 to 1) a declared name must be
    to be suggested; ``1`` turns suggestions off.

Limitations
    Nothing is guessed: a scope with an unresolved ``$ref``, a ``$dynamicRef``, a
    ``propertyNames`` or a map (``additionalProperties: {type: string}``), one that declares
    no property at all, and a ``required`` under ``not`` are skipped. A closed schema's
    undeclared name is this rule's one finding (not also ``unsatisfiable-schema``'s).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.declarations import Node, Scope, undeclared
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.structured import join_pointer

ID = "required-undeclared"  # speclint.analyses.schemas.declarations.REPORTED_BY
SEVERITY = Severity.WARNING
# The schema index is speclint.analyses.schemas.declarations'; derived: bundles judged at their sources.
FACTS = ("derived", "schemas")  # speclint.analyses.context
# Reads JSON/YAML documents only: its cached result stands while only prose changes.
READS = "structured"


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    cutoff = float(options.get("suggest", 0.75))
    index = corpus.schemas
    derived = corpus.derived
    for node in index.ordered():
        if node.document.path in derived:
            continue
        found = undeclared(index, node)
        if found is None:
            continue
        scope, names = found
        conditional = index.in_condition(node)
        for position, name in names:
            closing = scope.closing
            if (
                closing is not None
                and closing[1] == "unevaluatedProperties"
                and scope.evaluates_all
            ):
                closing = None  # `additionalProperties: true` somewhere evaluated every name
            severity = Severity.ERROR if closing is not None and not conditional else SEVERITY
            yield _finding(node, position, name, scope, closing, severity, cutoff, conditional)


def _finding(
    node: Node,
    position: int,
    name: str,
    scope: Scope,
    closing: tuple[Node, str] | None,
    severity: Severity,
    cutoff: float,
    conditional: bool,
) -> Finding:
    suggestion = _nearest(name, sorted(scope.declared), cutoff)
    hint = f"; did you mean `{suggestion}`?" if suggestion else "."
    related: list[Location] = []
    holder = scope.holders[0] if scope.holders else None
    if holder is not None:
        shown = sorted(scope.declared)
        listed = ", ".join(f"`{n}`" for n in shown[:8]) + (" ..." if len(shown) > 8 else "")
        related.append(
            holder.document.location(
                join_pointer(holder.pointer, "properties"),
                note=f"the properties in scope: {listed}",
            )
        )
    fix = (
        f"rename it to `{suggestion}` in `required`, or declare `{name}` in `properties`"
        if suggestion
        else f"declare `{name}` in `properties`, or remove it from `required`"
    )
    if closing is not None:
        closer, keyword = closing
        where = join_pointer(closer.pointer, keyword)
        related.append(closer.document.location(where, note=f"`{keyword}: false` closes the shape"))
        if conditional:
            outcome = "so this condition never holds"
        else:
            outcome = "so no valid instance can meet this `required`"
        asked = f" (did you mean `{suggestion}`?)" if suggestion else ""
        what = (
            f"`{name}` is required but not declared{asked}, and `{keyword}: false` at "
            f"`{where or '/'}` forbids it, {outcome}"
        )
    else:
        what = (
            f"`{name}` is required but no `properties` in scope declares it{hint} It is "
            "accepted with any value and nothing checks it"
        )
    parts = _listed_in_one(name)
    if parts:
        # `required: ["id, name"]` is one item, a name with commas in it: a list was meant.
        left = ", ".join(f"`{part}`" for part in parts if part not in scope.declared)
        what = (
            f"`{name}` is one `required` item holding {len(parts)} comma-separated names, so "
            "an instance needs a member of that whole name"
        )
        fix = "write each name as an item of its own in `required`" + (
            f", and declare {left} in `properties` or leave it out" if left else ""
        )
    pointer = join_pointer(join_pointer(node.pointer, "required"), position)
    return Finding(
        ID,
        severity,
        f"{what}: {fix}",
        node.document.location(pointer),
        related=tuple(related),
        key=f"{node.pointer}/required:{name}",
    )


def _listed_in_one(name: str) -> list[str]:
    """The names of ``a, b, c`` written as one ``required`` item; empty for a plain name."""
    parts = [part.strip() for part in name.split(",")]
    if len(parts) < 2 or not all(part and " " not in part for part in parts):
        return []
    return parts


def _nearest(name: str, declared: list[str], cutoff: float) -> str | None:
    if cutoff >= 1:
        return None
    for candidate in declared:
        if candidate.lower() == name.lower():
            return candidate
    found = difflib.get_close_matches(name, declared, n=1, cutoff=cutoff)
    return found[0] if found else None
