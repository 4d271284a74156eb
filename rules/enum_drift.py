"""A value set stated in prose and the schema enum it describes disagree.

What it does
    Reads every value set the Markdown states (a union of code spans, "one of `a`, `b` or `c`",
    "Supported values are: `a`, `b`" in a reference-table row, a table column of distinct code
    spans headed by the field (`` `RunSnapshot.status` ``, ``status``, ``Status``, or "Value"
    under a sentence naming it), a bullet list of code spans, code spans joined by ``/``, commas
    or "or" after the field ("`status` flips to `a` / `b` / `c`": a few of its values, never
    its complete set), a TypeScript literal union in a code fence, "the eight `kind`
    discriminators (`a`, `b`, ...)") and binds each to the schema property it describes: by
    ``[bindings]`` in the configuration, by a reference next to it (`` `RunSnapshot.status` ``,
    or a schema file named with the field), or by the field name the text gives matched against
    every enumerated property of that name whose values overlap; not by name alone on a
    proposal's page (an RFC or SEP states a change, not the contract), nor to an enum in a
    ``then``/``else`` (a conditional narrowing). Values named in passing (a list not given as
    complete) bind, where several schemas have the field, to those that hold them all.
    ``speclint bindings`` lists every binding with its evidence and confidence. Prose binds only
    to schemas of its own version (``speclint.parsing.versions``: the 3.2 pages do not describe the
    3.0 schema), and a ``const``, or a one-value ``enum`` that tags one variant (in a union, or in
    one of several schemas fixing the field to different values), is never bound by name: a ``oneOf``/``anyOf`` whose every branch fixes the field to one value
    (`` `TABLE` `` in one, `` `TASK` `` in the other) lists the union of those values, and prose
    listing them binds to the union as one set.

    Two findings can come of a binding:

    - values the prose documents that the schema does not list: one finding at the schema's
      ``enum``, naming every prose place that documents them (RFC 0094 §B: ``cancelling``);
    - values the schema lists that a complete prose set leaves out: one finding at the prose
      (a set introduced with "e.g." or "such as" is not complete, and is not checked this way;
      nor is a set bound by name alone that lists under half the schema's values: a table of a
      feature's two methods is not the whole ``method`` vocabulary).

    An API document's inline object is a projection of a schema's when its properties are a
    subset of the schema object's, and not only ``title``, ``description``, ``type`` and the like.

    A forward-compatible enum (``anyOf`` of an ``enum`` and a pattern) is compared on its
    ``enum``. A value the schema's own description mentions (``card`` "is excluded here") is a
    deliberate difference and is not reported. Severity follows the binding's evidence:
    bindings by reference or configuration ("high") give errors; bindings by name alone
    ("medium") and API projections are inferred, and give warnings. The first line names up to
    four values and the binding's evidence as far as it fits about 200 characters; every place,
    every value it documents and the evidence are on the related locations.

Why is this bad?
    RFC 0094 §B and §E: ``cancelling`` was documented in rest-endpoints.md and the OpenAPI cancel
    responses but missing from run-snapshot's ``status`` enum, so a snapshot read during a cancel
    failed validation; interrupt.md defined eight interrupt kinds and the schema union four.

Example
    ::

        <!-- spec/rest-endpoints.md -->
        `RunSnapshot.status` is one of `queued` | `running` | `cancelling` | `cancelled`.

        // schemas/run-snapshot.schema.json
        "status": {"enum": ["queued", "running", "cancelled"]}

    FAIL: ``error [enum-drift] `status` of `schemas/run-snapshot.schema.json` lacks `cancelling`,
    which the prose documents (1 place) ...`` (with ``The `status` is one of ...``, bound by the
    field name alone: a warning).

Use instead
    ::

        "status": {"enum": ["queued", "running", "cancelling", "cancelled"]}

    PASS.

Options
    None; bind prose the heuristics miss with ``[bindings]`` at the top level of the
    configuration: ``"spec/page.md#heading-anchor@field" = "schemas/x.schema.json#/properties/field"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.enumerations import (
    Binder,
    Binding,
    ProseSet,
    all_prose_sets,
    page_value_lists,
)
from speclint.analyses.shapes import Site, ValueSet, resolve, value_set
from speclint.common.findings import Finding, Location, Severity, as_written, first_fitting
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import escape_token, join_pointer

_EXCLUSION = re.compile(
    r"\b(exclud\w*|omit\w*|not (?:allowed|listed|included|part of))\b",
    re.IGNORECASE,
)
ID = "enum-drift"
SEVERITY = Severity.ERROR
FACTS = ("references",)  # speclint.analyses.context
# Reads the schemas, and of the prose only its value sets and whether a page is a proposal
# (speclint.analyses.units).
READS = "extract"


extract = page_value_lists


@dataclass(frozen=True)
class _Source:
    """One place that lists values a schema enum lacks."""

    location: Location
    what: str  # "union", "table", or "inline schema"
    missing: tuple[str, ...]
    severity: Severity
    evidence: str


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    binder = Binder(corpus)
    missing_in_schema: dict[tuple[str, str], tuple[Binding | _Target, list[_Source]]] = {}

    def note(target: Binding | _Target, source: _Source) -> None:
        holder = target.values.holder
        key = (holder.document.path, holder.pointer)
        missing_in_schema.setdefault(key, (target, []))[1].append(source)

    for prose in all_prose_sets(corpus):
        for binding in binder.bindings(prose):
            listed = [as_written(v) for v in binding.values.values]
            prose_only = [v for v in prose.values if v not in listed and not _explained(binding, v)]
            schema_only = [v for v in listed if v not in prose.values]
            if prose_only:
                note(
                    binding,
                    _Source(
                        prose.location(
                            note=f"documents {_quote(prose_only, len(prose_only))} ({prose.form})"
                        ),
                        prose.form,
                        tuple(prose_only),
                        _severity([binding], prose.values),
                        binding.evidence,
                    ),
                )
            if schema_only and prose.complete and _whole(binding, listed, prose.values):
                yield _missing_in_prose(prose, binding, schema_only)
    for projected, source in _projections(corpus, binder):
        note(projected, source)
    for _, (target, sources) in sorted(missing_in_schema.items()):
        yield _missing_in_schema(target, sources)


@dataclass(frozen=True)
class _Target:
    """A schema property an API document's inline enum projects (duck-types ``Binding``)."""

    target: Site
    values: ValueSet


def _projections(corpus: Context, binder: Binder) -> Iterator[tuple[_Target, _Source]]:
    """Machine-to-machine drift: an inline object in an API document whose properties are a
    subset of a schema object's (a projection of that shape, like a cancel response carrying
    ``runId`` and ``status`` of the run snapshot) and whose enum lists values the schema's lacks."""
    index = binder.index
    for document in corpus.of_kind(DocumentKind.OPENAPI, DocumentKind.ASYNCAPI):
        for site in _inline_objects(document, document.data, ""):
            names = set(site.node["properties"])
            if len(names) < 2 or names <= _ANNOTATIONS:
                continue  # `title`, `description`, `type`: every definition object has them
            for name in sorted(names):
                own = value_set(
                    corpus,
                    Site(
                        document,
                        f"{site.pointer}/properties/{escape_token(name)}",
                        site.node["properties"][name],
                    ),
                )
                if own is None or own.holder.document is not document:
                    continue
                for schema_site, values in index.by_field.get(name, []):
                    if schema_site.document.kind is not DocumentKind.SCHEMA:
                        continue
                    parent = resolve(
                        schema_site.document, schema_site.pointer.rsplit("/properties/", 1)[0]
                    )
                    properties = parent.get("properties") if isinstance(parent, dict) else None
                    if not isinstance(properties, dict) or not names <= set(properties):
                        continue
                    listed = [as_written(v) for v in values.values]
                    ours = [as_written(v) for v in own.values]
                    if not set(ours) & set(listed):
                        continue
                    extra = [v for v in ours if v not in listed]
                    target = _Target(schema_site, values)
                    if extra and not any(_explained(target, v) for v in extra):
                        yield (
                            target,
                            _Source(
                                own.holder.location(
                                    note=f"lists {_quote(extra, len(extra))} (inline schema)"
                                ),
                                "inline schema",
                                tuple(extra),
                                # Bound by a shape that looks like a projection: inferred.
                                Severity.WARNING,
                                f"`{document.path}#{site.pointer}` has properties "
                                f"{', '.join(sorted(names))}, all of `{schema_site.document.path}`'s",
                            ),
                        )


def _inline_objects(document: Document, node: Any, pointer: str) -> Iterator[Site]:
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and "$ref" not in node:
            yield Site(document, pointer, node)
        for key, child in node.items():
            if key not in {"enum", "const", "example", "examples", "default"}:
                yield from _inline_objects(document, child, join_pointer(pointer, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _inline_objects(document, child, join_pointer(pointer, index))


def _whole(binding: Binding, listed: list[str], prose: tuple[str, ...]) -> bool:
    """Whether the prose can be read as the field's whole vocabulary: bound for certain, or
    listing at least half the schema's values. A table of two methods on a feature's page,
    bound by the name `method` to the union of every method, documents that feature."""
    return binding.confidence == "high" or 2 * len(set(listed) & set(prose)) >= len(listed)


# Property names every schema-like object has: a shape sharing only these is no projection.
_ANNOTATIONS = frozenset({"title", "description", "type", "name", "summary", "format", "default"})


def _explained(binding: Binding | _Target, value: str) -> bool:
    """The schema's own description (of the property, its values, or the object holding it)
    names the value: a deliberate difference, not drift."""
    parent_pointer = binding.target.pointer.rsplit("/properties/", 1)[0]
    parent = resolve(binding.target.document, parent_pointer)
    for node in (binding.target.node, binding.values.holder.node, parent):
        description = node.get("description") if isinstance(node, dict) else None
        if not isinstance(description, str):
            continue
        for sentence in re.split(r"(?<=[.;])\s+", description):
            if f"`{value}`" in sentence and _EXCLUSION.search(sentence):
                return True
    return False


def _severity(bindings: list[Binding], prose_values: tuple[str, ...]) -> Severity:
    """An error when a binding is certain (configured, or the text names the schema), a
    warning when it is inferred from a field name and overlapping values: the finding is only
    as sure as the binding it rests on (issue 26)."""
    if any(b.confidence == "high" for b in bindings):
        return SEVERITY
    return Severity.WARNING


def _field(target: Binding | _Target) -> str:
    """The property the values are of: the last token of its pointer, or for a union of
    one-value branches (a site that is no property) the field the prose names."""
    head, _, name = target.target.pointer.rpartition("/")
    if head.endswith("/properties") or head == "/properties":
        return name
    prose = target.prose if isinstance(target, Binding) else None
    return prose.field if prose is not None and prose.field else name


def _quote(values: list[str], shown: int = 8) -> str:
    text = ", ".join(f"`{v}`" for v in values[:shown])
    return text + (f" and {len(values) - shown} more" if len(values) > shown else "")


def _brief(evidence: str) -> str:
    """The evidence without its target: "[bindings] `page.md#a`" for a configured binding."""
    return evidence.split(" = ")[0].split(" and the field")[0]


def _them(values: list[str]) -> str:
    return "it" if len(values) == 1 else "them"


def _missing_in_schema(target: Binding | _Target, sources: list[_Source]) -> Finding:
    values: list[str] = []
    for source in sources:
        values += [v for v in source.missing if v not in values]
    holder = target.values.holder
    keyword = target.values.keyword
    closed = " (its closed part)" if target.values.open else ""
    field = _field(target)
    path = target.target.document.path
    side = (
        "the prose documents"
        if any(s.what != "inline schema" for s in sources)
        else "an API document lists"
    )
    evidence = "; ".join(sorted({s.evidence for s in sources}))
    places = f"{len(sources)} place{'s' if len(sources) > 1 else ''}"
    them = _them(values)
    fixes = (
        f"add {them} to the enum{closed} at `{holder.pointer}/{keyword}`, or remove {them} from "
        "the other side",
        f"add {them} to the enum{closed}, or remove {them} from the other side",
    )
    # Every place, what it documents and the binding's evidence are on the related locations;
    # the first line says as much of it as fits (issue 26), the evidence before the pointer.
    related = tuple(
        replace(s.location, note=f"{s.location.note}; bound by: {s.evidence}") for s in sources
    )
    tags = (f" [binding: {evidence}]", f" [binding: {_brief(evidence)}]", "")
    candidates = [
        f"`{field}`{of} lacks {_quote(values, shown)}, which {side} ({places}): {fix}{tag}"
        for shown, tiers in ((8, tags[:1]), (4, tags), (3, tags), (1, tags))
        for tag in tiers
        for of in (f" of `{path}`", "")
        for fix in fixes
    ]
    return Finding(
        ID,
        max(s.severity for s in sources),
        first_fitting(*candidates),
        holder.at(keyword),
        related=related,
        key=f"schema:{holder.pointer}",
    )


def _missing_in_prose(prose: ProseSet, binding: Binding, values: list[str]) -> Finding:
    holder = binding.values.holder
    path = binding.target.document.path
    fix = f"document {_them(values)} here, or remove {_them(values)} from the schema"
    evidence = binding.evidence
    tags = (f" [binding: {evidence}]", f" [binding: {_brief(evidence)}]", "")
    candidates = [
        f"this {prose.form} lists {len(prose.values)} values of `{_field(binding)}`, but "
        f"{where} also allows {_quote(values, shown)}: {fix}{tag}"
        for shown, tiers in ((8, tags[:1]), (4, tags), (3, tags), (1, tags))
        for tag in tiers
        for where in (f"`{path}`", "the schema")
    ]
    return Finding(
        ID,
        _severity([binding], prose.values),
        first_fitting(*candidates),
        prose.location(),
        related=(
            holder.document.location(
                f"{holder.pointer}/{binding.values.keyword}",
                note=f"the schema enum, which also allows {_quote(values, len(values))}; "
                f"bound by: {binding.evidence}",
            ),
        ),
        key=f"prose:{prose.line}:{holder.document.path}{holder.pointer}",
    )
