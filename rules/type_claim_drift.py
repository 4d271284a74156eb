"""A field reference in the prose states a type or requiredness that the bound schema contradicts.

What it does
    Reads what the prose says of an object's members and holds it to the schema object it is
    bound to (``speclint bindings`` shows each binding and its evidence):

    - field tables (a name column and a ``Type`` or ``Required`` column) and field lists
      (``- `url` (string, REQUIRED): ...``), bound to the object their heading or lead-in
      names, else to the one declaring most of their fields;
    - object listings in code blocks (a pseudo-schema, a Python model, a TypeScript
      interface) and an API client generator's model pages, bound to the schema they name;
    - sentences: "`x` is `null`", "`path` is required", "`name` is a string", "one of `a` or
      `b` MUST be given", "its value MUST be an object or URI string";
    - a member the prose names (``Object.member``, "the `rule` field") that the object does not
      declare, or declares in a near spelling (a plural for a singular);
    - in an API document, a property description saying one of two members is required, and a
      required parameter whose description says what happens when it is not given.

    A type word (``integer``, ``array of T``, a schema's name) is held to ``type``, ``items``
    and the ``$ref`` target; REQUIRED and OPTIONAL to the ``required`` lists that apply (one in
    a branch or condition is not contradicted), and to a proto field's
    ``google.api.field_behavior`` where ``proto-message-drift`` pairs it with the property.

Why is this bad?
    Readers implement the field reference, validators the schema: a client that sends the
    ``integer`` the prose documents is rejected by the ``string`` the schema demands.

Example
    ::

        - `retries` (integer, OPTIONAL): how often to retry.

        "Job": {"properties": {"retries": {"type": "string"}}, "required": ["retries"]}

    FAIL: ``warning [type-claim-drift] `retries` is documented as `integer`, but
    `schemas/job.json#/properties/retries` says `type: string` ...``

Use instead
    ``- `retries` (string, REQUIRED)``, or change the schema. PASS.

Options
    None.

Limitations
    Not judged: unions in a field list or table (``string or number``), ``any``, nullable
    forms, a schema without a ``type``, a cell with a footnote mark (``Yes*``), operation
    parameter tables, proposals, design folders, migration guides and changelogs. Where
    several objects fit a reference alike, only a claim every one contradicts is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protojson import message_pairs
from speclint.analyses.prose.enumerations import schema_names
from speclint.analyses.prose.type_claims import (
    LEAD_REQUIRED,
    Claim,
    ClaimBinder,
    ClaimGroup,
    GroupBinding,
    ObjectView,
    ParameterClaim,
    SentenceClaim,
    TypeClaim,
    contradiction,
    described_claims,
    every_group,
    every_member_claim,
    every_section_group,
    every_sentence_claim,
    field_behaviors,
    heading_name,
    near_misses,
    parameter_claims,
    schema_type,
    union_types,
)
from speclint.analyses.schemas.declarations import Node
from speclint.analyses.schemas.schema_objects import types_of
from speclint.analyses.schemas.shapes import Site, follow, is_closed_false
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.dialects import has_nullable
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer

ID = "type-claim-drift"
SEVERITY = Severity.WARNING
PREVIEW = True  # new: no labelled finding of the ecosystem check yet (speclint.run.preview)
FACTS = ("derived", "references", "schemas")


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    binder = ClaimBinder(corpus)
    known = schema_names(corpus)
    for group in every_group(corpus):
        binding = binder.bind(group)
        if binding.message is not None:
            yield from _proto_findings(corpus, binding)
        led: list[tuple[Claim, Finding]] = []
        for claim in group.claims:
            found = [
                *_type_finding(corpus, binding, claim, known),
                *_required_finding(binding, claim),
                *_undeclared_documented(binding, claim),
            ]
            if claim.said == LEAD_REQUIRED:
                led += [(claim, f) for f in found if f.key and f.key.endswith(":required")]
                found = [f for f in found if not (f.key and f.key.endswith(":required"))]
            yield from (_regenerate(f) for f in found) if group.generated else found
        yield from _one_lead_finding(led)
    for group in every_section_group(corpus):
        yield from _undeclared_sections(binder.bind(group))
    yield from _pair_findings(corpus, binder)
    yield from _sentence_findings(corpus, binder)
    yield from _member_findings(binder)


def _one_lead_finding(led: list[tuple[Claim, Finding]]) -> Iterator[Finding]:
    """The members a sentence before a list requires all at once ("Each item in the list must
    have two keys:") that the object does not require: one finding for the sentence, at the
    first of them (one defect, one finding)."""
    if len(led) < 2:
        yield from (finding for _, finding in led)
        return
    claim, first = led[0]
    names = [f"`{c.name}`" for c, _ in led]
    shown = ", ".join(names[:-1]) + f" and {names[-1]}"
    where = first.related[0].path if first.related else ""
    said = (
        first.message.split("but `", 1)[-1].split("`", 1)[0] if "but `" in first.message else where
    )
    yield replace(
        first,
        message=(
            f"{shown} are documented as REQUIRED ({LEAD_REQUIRED}), but `{said}` requires none "
            f"of them: add them to its `required`, or correct the sentence"
            + first.message[first.message.rfind(" (bound by") :]
        ),
        shortened=None,
        key=f"{claim.line}:{'+'.join(c.name for c, _ in led)}:required",
    )


def _regenerate(finding: Finding) -> Finding:
    """A generator's model page that disagrees with its component is stale: regenerating it
    from the API document is the fix (``speclint.run.inventory.stale_output`` keeps it)."""
    return replace(
        finding,
        message=f"{finding.message}; the page is a client generator's model page: regenerate it",
        shortened=None,
    )


def _where(group: ClaimGroup, claim: Claim) -> Location:
    anchor = f"#{group.heading.anchor}" if group.heading else ""
    return Location(claim.path, claim.line, claim.column, pointer=anchor)


def _type_finding(
    corpus: Context, binding: GroupBinding, claim: Claim, known: Mapping[str, Any]
) -> Iterator[Finding]:
    if claim.type is None:
        return
    sites = [view.declared[claim.name] for view in binding.views if claim.name in view.declared]
    verdicts = [(site, contradiction(corpus, claim.type, site, known)) for site in sites]
    if not verdicts or any(said is None for _, said in verdicts):
        return  # not declared there (another rule's), or some binding agrees
    site, said = verdicts[0]
    written = claim.type.written.strip()
    where = site.label
    yield Finding(
        ID,
        SEVERITY,
        f"`{claim.name}` is documented as `{written}`, but `{where}` says {said}: correct the "
        f"type in the prose, or change the schema if `{written}` is meant "
        f"(bound by {binding.evidence})",
        _where(binding.group, claim),
        related=(site.location(note=f"the schema says {said}"),),
        key=f"{claim.line}:{claim.name}:type",
    )


def _required_finding(binding: GroupBinding, claim: Claim) -> Iterator[Finding]:
    if claim.required is None:
        return
    views = [view for view in binding.views if claim.name in view.declared]
    if not views:
        yield from _undeclared_required(binding, claim)
        return
    if claim.required:
        if any(claim.name in view.maybe for view in views):
            return
        view = views[0]
        raw = view.root.raw
        pointer = join_pointer(view.root.pointer, "required") if "required" in raw else ""
        at = view.root.document.location(pointer or view.root.pointer, note="no `required` here")
        where = view.root.label
        message = (
            f"`{claim.name}` is documented as REQUIRED ({claim.said}), but `{where}` does not "
            f"require it: add `{claim.name}` to its `required`, or document it as OPTIONAL "
            f"(bound by {binding.evidence})"
        )
    else:
        if not all(claim.name in view.always for view in views):
            return
        view = views[0]
        held = view.always[claim.name]
        position = held.node.index(claim.name) if isinstance(held.node, list) else 0
        at = held.document.location(join_pointer(held.pointer, position), note="required here")
        where = held.label
        message = (
            f"`{claim.name}` is documented as OPTIONAL ({claim.said}), but `{where}` requires "
            f"it: document it as REQUIRED, or remove it from that `required` "
            f"(bound by {binding.evidence})"
        )
    yield Finding(
        ID,
        SEVERITY,
        message,
        _where(binding.group, claim),
        related=(at,),
        key=f"{claim.line}:{claim.name}:required",
    )


def _undeclared_required(binding: GroupBinding, claim: Claim) -> Iterator[Finding]:
    """A member documented as REQUIRED that the one object the reference is bound to neither
    declares nor requires (an open object lets it through, but never asks for it): the
    reference documents a member of another level or another version."""
    if not claim.required or len(binding.views) != 1 or binding.message is not None:
        return
    if binding.group.operation is not None:
        return  # "Requires `Authorization`": a row may name a header or a parameter
    view = binding.views[0]
    if not view.complete or claim.name in view.maybe:
        return  # a `required` unread, or one a branch has: not judged
    root = view.root
    if isinstance(root.raw, dict) and "patternProperties" in root.raw:
        return  # a member by pattern: what the table names may be one
    if binding.confidence != "high" and not _named_by_page(binding.group, root):
        return  # bound by shared members only: the other members may be another object's
    where = root.label
    yield Finding(
        ID,
        SEVERITY,
        f"`{claim.name}` is documented as REQUIRED ({claim.said}), but `{where}` neither "
        f"declares nor requires it: declare and require it there, or move it to the object "
        f"that has it (bound by {binding.evidence})",
        _where(binding.group, claim),
        related=(root.document.location(root.pointer, note="not declared here"),),
        key=f"{claim.line}:{claim.name}:required",
    )


def _undeclared_documented(binding: GroupBinding, claim: Claim) -> Iterator[Finding]:
    """A member a field reference documents with a type (not as REQUIRED: that is
    :func:`_undeclared_required`'s) that the object the reference names neither declares nor
    lets through by a pattern or a schema for other members: the reference documents a member
    the schema lost, or one of another object. Judged only where the page names the object as
    the schema does (its heading or lead-in: ``The `Task` object has the following
    properties``, the binding's ``high`` confidence) and the reference's other members are
    nearly all declared there, so that the binding is the object's and not a look-alike's, and
    only for a JSON type word (a type written as another schema's name, a generated proto
    reference's link, may document another notation's message); where several objects fit
    alike (copies of one definition), every one of them must lack it. A closed object
    (``additionalProperties: false``) rejects the member: a warning; an open one lets it
    through undescribed: an info."""
    if claim.required or claim.type is None or claim.type.types is None or not binding.views:
        return  # a schema's name for its type (`[Subject](#…)`): another notation's reference
    if binding.confidence != "high":
        return  # bound by shared members: a look-alike object may lack what the page's has
    if binding.message is not None or binding.group.operation is not None:
        return
    if binding.group.form not in ("field table", "field list"):
        return
    names = {c.name for c in binding.group.claims}
    if len(names) < 3:
        return
    closed = []
    for view in binding.views:
        if claim.name in view.declared or not view.complete or claim.name in view.maybe:
            return
        raw = view.root.raw if isinstance(view.root.raw, dict) else {}
        if "patternProperties" in raw or isinstance(raw.get("additionalProperties"), dict):
            return  # members by pattern or by any name: the one documented may be one of them
        if not _named_by_page(binding.group, view.root):
            return  # bound by shared members only: the member may be another object's
        if sum(name not in view.declared for name in names) * 4 > len(names):
            return  # a quarter of the reference undeclared: another object, or another version
        closed.append(is_closed_false(raw) is not None)
    root = binding.views[0].root
    where = root.label
    written = claim.type.written.strip().strip("`")
    shut = all(closed)
    effect = "and rejects it (a closed object)" if shut else "(an open object lets it through)"
    yield Finding(
        ID,
        SEVERITY if shut else Severity.INFO,
        f"`{claim.name}` is documented as a member (`{written}`), but `{where}` does not "
        f"declare it {effect}: declare it there, or remove it from the reference "
        f"(bound by {binding.evidence})",
        _where(binding.group, claim),
        related=(root.document.location(root.pointer, note="not declared here"),),
        key=f"{claim.line}:{claim.name}:undeclared",
    )


def _sentence_findings(corpus: Context, binder: ClaimBinder) -> Iterator[Finding]:
    """What a sentence says of one object's fields (``type_claims.sentence_claims``), held to
    the only schema object that declares them."""
    for claim in every_sentence_claim(corpus):
        view, evidence = binder.sole_object(claim)
        if view is None:
            continue
        if claim.kind == "null":
            yield from _null_finding(corpus, view, evidence, claim)
        elif claim.kind == "type":
            yield from _type_said_finding(corpus, view, evidence, claim)
        elif claim.kind == "required":
            yield from _required_said_finding(view, evidence, claim)
        elif claim.kind == "union":
            yield from _union_finding(corpus, view, evidence, claim)
        else:
            yield from _one_of_finding(view, evidence, claim)
    for parameter in parameter_claims(corpus):
        yield _left_out_finding(corpus, parameter)
    for described in described_claims(corpus):
        view = binder.view(binder.top(described.holder))
        if view is not None:
            evidence = "the object whose description says it"
            yield from _one_of_finding(view, evidence, described.claim)


_MAX_NEAR_HOLDERS = 3  # objects declaring the near-miss spelling, at most
_MAX_DATA_NODES = 200_000  # nodes of the data files read for their keys, at most


def _data_keys(corpus: Context) -> frozenset[str]:
    """The keys the repository's data files (JSON and YAML that are no schema or API
    document: rule files, configurations, instances) use: a member the text names that is one
    of them belongs to those files' format, which no schema here describes (a BIDS rule's
    `value`), and is no misspelling of a declared member."""
    found: set[str] | None = corpus.memo.get("type-claim-drift:data-keys")
    if found is None:
        found = set()
        budget = _MAX_DATA_NODES
        for document in corpus.of_kind(DocumentKind.DATA, DocumentKind.INSTANCE):
            pending: list[Any] = [document.data]
            while pending and budget > 0:
                node = pending.pop()
                budget -= 1
                if isinstance(node, dict):
                    found.update(k for k in node if isinstance(k, str))
                    pending.extend(node.values())
                elif isinstance(node, list):
                    pending.extend(node)
        corpus.memo["type-claim-drift:data-keys"] = found
    return frozenset(found)


def _member_findings(binder: ClaimBinder) -> Iterator[Finding]:
    """A member the prose names ("the `rule` field") that no schema of its version declares,
    where one spelling away (a plural or singular ending) a member is declared: the text's
    misspelling of that member (``rules``), held to the objects that declare it."""
    declared = binder.by_member
    for claim in every_member_claim(binder.corpus):
        (name,) = claim.names
        if binder.is_proposal(claim.path):
            continue
        if claim.kind == "dotted":
            yield from _dotted_finding(binder, claim)
            continue
        if any(binder.comparable(claim.path, n.document.path) for n in declared.get(name, [])):
            continue  # declared (somewhere of its version): the text may speak of that one
        if name in _data_keys(binder.corpus):
            continue  # a key of the repository's own data files: theirs, not a misspelling
        near = sorted(
            other
            for other in near_misses(name)
            if any(binder.comparable(claim.path, n.document.path) for n in declared.get(other, []))
        )
        if len(near) != 1:
            continue
        (other,) = near
        holders = sorted(
            {
                binder.top(n).label: binder.top(n)
                for n in declared[other]
                if binder.comparable(claim.path, n.document.path)
            }.items()
        )
        if len(holders) > _MAX_NEAR_HOLDERS:
            continue  # a member most objects have (`message`): the text may mean another thing
        label, root = holders[0]
        more = f" (and {len(holders) - 1} more)" if len(holders) > 1 else ""
        yield Finding(
            ID,
            SEVERITY,
            f'the text names the member `{name}` ("{claim.written}"), but no schema declares '
            f"`{name}`; `{label}`{more} declares `{other}`: correct the text to `{other}`, or "
            f"declare `{name}`",
            Location(claim.path, claim.line, claim.column),
            related=(root.document.location(root.pointer, note=f"declares `{other}`"),),
            key=f"{claim.line}:{name}:member",
        )


def _dotted_finding(binder: ClaimBinder, claim: SentenceClaim) -> Iterator[Finding]:
    """``Object.member`` where the one object of that name (its copies aside) declares every
    member it has (no map of further keys, every ``$ref`` read) and not this one."""
    (name,) = claim.names
    holder = claim.holder or ""
    views: dict[tuple[str, str], ObjectView] = {}
    for site in schema_names(binder.corpus).get(holder.lower(), []):
        node = binder.index.nodes.get((site.document.path, site.pointer))
        if node is None or not binder.comparable(claim.path, site.document.path):
            continue
        raw = node.raw if isinstance(node.raw, dict) else {}
        named = {site.pointer.rsplit("/", 1)[-1], str(raw.get("title", ""))}
        if holder not in named:
            continue  # `Job` names the schema `job`: a word of the text, not surely the name
        view = binder.view(node)
        if view is not None:
            views[node.key] = view
    if not views:
        return
    # copies of one definition (one file name, one pointer: a published copy under `docs/`)
    # are one: the one nearest the root is the source (issue 46, item 4)
    copies = {(key[0].rsplit("/", 1)[-1], key[1]) for key in views}
    first = views[min(views, key=lambda key: (key[0].count("/"), key[0]))]
    if len(copies) > 1 and any(v.root.raw != first.root.raw for v in views.values()):
        return  # several objects of that name: which one the text means is not known
    root = first.root
    raw = root.raw if isinstance(root.raw, dict) else {}
    if not first.complete or isinstance(raw.get("additionalProperties"), dict):
        return  # a member unread, or a map whose keys are any names
    if "patternProperties" in raw or name in first.declared:
        return
    near = sorted(n for n in near_misses(name) if n in first.declared)
    hint = f"`{near[0]}`" if near else "a member it declares"
    yield Finding(
        ID,
        SEVERITY,
        f"the text names `{holder}.{name}`, but `{root.label}` declares no `{name}`: correct the "
        f"text to {hint}, or declare `{name}` (bound by the schema named `{holder}`)",
        Location(claim.path, claim.line, claim.column),
        related=(root.document.location(root.pointer, note=f"`{holder}` here"),),
        key=f"{claim.line}:{holder}.{name}:dotted",
    )


def _null_finding(
    corpus: Context, view: ObjectView, evidence: str, claim: SentenceClaim
) -> Iterator[Finding]:
    site = view.declared[claim.names[0]]
    said = schema_type(corpus, site)
    if said.types is None or _admits_null(corpus, said.site, 0):
        return  # any value, or null among them
    where = said.site.label
    types = " | ".join(sorted(said.types))
    yield Finding(
        ID,
        SEVERITY,
        f'the text says `{claim.names[0]}` may be null ("{claim.written}"), but `{where}` says '
        f'`type: {types}`, which rejects null: allow null there (`type: [{types}, "null"]`, '
        f"or `nullable: true` in OpenAPI 3.0), or say the field is omitted instead "
        f"(bound by {evidence})",
        Location(claim.path, claim.line, claim.column),
        related=(said.site.location(note=f"`type: {types}` here"),),
        key=f"{claim.line}:{claim.names[0]}:null",
    )


def _admits_null(corpus: Context, site: Site, depth: int) -> bool:
    node = site.node
    if not isinstance(node, dict) or depth > 4:
        return True
    if "null" in types_of(node) or node.get("x-nullable") is True:
        return True
    if node.get("nullable") is True and _reads_nullable(corpus, site):
        return True
    if None in (node.get("enum") or []) or ("const" in node and node["const"] is None):
        return True
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if isinstance(branches, list):
            for index, branch in enumerate(branches):
                at = Site(
                    site.document, join_pointer(join_pointer(site.pointer, keyword), index), branch
                )
                if _admits_null(corpus, follow(corpus, at), depth + 1):
                    return True
    return False


def _reads_nullable(corpus: Context, site: Site) -> bool:
    """Whether ``nullable`` is a keyword where it is written: OpenAPI 3.0 and Swagger's Schema
    Objects; OpenAPI 3.1 dropped it (3.1.0 §4.8.24, a 2020-12 dialect), so there ``nullable:
    true`` admits no null. Unknown where the schema index holds no node there."""
    node = corpus.schemas.nodes.get((site.document.path, site.pointer))
    return node is None or has_nullable(node.dialect)


_ASKS_FOR_SOME = ("anyOf", "oneOf", "if", "dependentRequired", "dependentSchemas",
                  "minProperties")  # fmt: skip


def _forbids_only(node: Any) -> bool:
    """Whether a ``not`` holds only presence conditions (``required`` lists, combined), so that
    it forbids members (``not: {allOf: [{required: [a]}, {required: [b]}]}``: not both) and
    never asks for one."""
    if not isinstance(node, dict):
        return False
    if set(node) - {"required", "allOf", "anyOf", "oneOf", "description"}:
        return False
    return all(
        _forbids_only(branch)
        for keyword in ("allOf", "anyOf", "oneOf")
        for branch in _listed(node.get(keyword))
    )


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _type_said_finding(
    corpus: Context, view: ObjectView, evidence: str, claim: SentenceClaim
) -> Iterator[Finding]:
    """A sentence that says one member is of a JSON type ("`x` is a string"), held to the
    member's declaration in the object it is about."""
    (name,) = claim.names
    site = view.declared[name]
    said = contradiction(corpus, TypeClaim(claim.written, frozenset({claim.written})), site, {})
    if said is None:
        return
    yield Finding(
        ID,
        SEVERITY,
        f"the text says `{name}` is a{'n' if claim.written[0] in 'aeiou' else ''} "
        f"{claim.written}, but `{site.label}` says {said}: correct the text, or change the "
        f"schema (bound by {evidence})",
        Location(claim.path, claim.line, claim.column),
        related=(site.location(note=f"the schema says {said}"),),
        key=f"{claim.line}:{name}:type-said",
    )


def _union_finding(
    corpus: Context, view: ObjectView, evidence: str, claim: SentenceClaim
) -> Iterator[Finding]:
    """A sentence that says a member is one of two types ("an object or URI string"): each
    alternative is a set of JSON types, and one the schema admits none of is a drift."""
    (name,) = claim.names
    site = view.declared[name]
    said = schema_type(corpus, site)
    if said.types is None:
        return
    allowed = set(said.types) | ({"integer"} if "number" in said.types else set())
    rejected = [
        word
        for word in claim.written.split(" or ")
        if union_types(word) and not union_types(word) & allowed
    ]
    if not rejected:
        return
    types = " | ".join(sorted(said.types))
    yield Finding(
        ID,
        SEVERITY,
        f"the text says `{name}` is either {claim.written}, but `{said.site.label}` says "
        f"`type: {types}`, which rejects {' and '.join(rejected)}: correct the text, or allow "
        f"it in the schema (bound by {evidence})",
        Location(claim.path, claim.line, claim.column),
        related=(said.site.location(note=f"`type: {types}` here"),),
        key=f"{claim.line}:{name}:union",
    )


def _required_said_finding(
    view: ObjectView, evidence: str, claim: SentenceClaim
) -> Iterator[Finding]:
    """A sentence that says one member is required, held to the object it is about."""
    (name,) = claim.names
    root = view.root
    if not view.complete or name in view.maybe:
        return  # a `required` unread, or one that asks for it (in a branch, too)
    raw = root.raw if isinstance(root.raw, dict) else {}
    if "minProperties" in raw or "not" in raw:
        return  # asks for some member, or forbids some: not read as a `required`
    where = root.label
    pointer = join_pointer(root.pointer, "required") if "required" in raw else root.pointer
    yield Finding(
        ID,
        SEVERITY,
        f'the text says `{name}` is required ("{claim.written}"), but `{where}` does not require '
        f"it: add `{name}` to its `required`, or correct the text (bound by {evidence})",
        Location(claim.path, claim.line, claim.column),
        related=(root.document.location(pointer, note="not required here"),),
        key=f"{claim.line}:{name}:required-said",
    )


def _one_of_finding(view: ObjectView, evidence: str, claim: SentenceClaim) -> Iterator[Finding]:
    root = view.root
    if not view.complete or any(name in view.maybe for name in claim.names):
        return  # a `required` unread, or one that asks for one of them
    raw = root.raw if isinstance(root.raw, dict) else {}
    if any(k in raw for k in _ASKS_FOR_SOME) or not _forbids_only(raw.get("not", {})):
        return  # a combination that may ask for one of them
    first, second = claim.names
    where = root.label
    yield Finding(
        ID,
        SEVERITY,
        f'the text says one of `{first}` or `{second}` must be given ("{claim.written}"), but '
        f"`{where}` requires neither (no `required`, `anyOf` or `oneOf` asks for one): add "
        f"`anyOf: [{{required: [{first}]}}, {{required: [{second}]}}]` there, or correct the "
        f"text (bound by {evidence})",
        Location(claim.path, claim.line, claim.column),
        related=(root.document.location(root.pointer, note="requires neither here"),),
        key=f"{claim.line}:{first}:{second}:one-of",
    )


def _left_out_finding(corpus: Context, claim: ParameterClaim) -> Finding:
    document = corpus.documents[claim.path]
    is_path = claim.place == "path"
    required = "an `in: path` parameter, always required" if is_path else "`required: true`"
    fix = (
        "give a route without it for the default, or correct the text"
        if is_path
        else "make it `required: false`, or correct the text"
    )
    return Finding(
        ID,
        SEVERITY,
        f'the description of parameter `{claim.name}` says it may be left out ("{claim.written}"), '
        f"but it is {required}: {fix}",
        Location(claim.path, claim.line, claim.column, pointer=claim.pointer),
        related=(document.location(claim.pointer, note=f"`{claim.name}` is required here"),),
        key=f"{claim.line}:{claim.name}:left-out",
    )


def _undeclared_sections(binding: GroupBinding) -> Iterator[Finding]:
    """A section of a page whose sibling sections are the members of one closed object (``##
    annotations``, ``## attach``, ... of a service) that names a member the object does not
    declare: the page documents a member the schema lacks (or one it lost). Judged where the
    sections are nearly all the object's members (three quarters and more, each alike object
    bound lacking it) and the object is closed: an open one lets the member through, and its
    other sections may be another notation's."""
    group = binding.group
    names = {claim.name for claim in group.claims}
    if not binding.views or binding.message is not None:
        return
    for view in binding.views:
        if sum(_has(view, name) for name in names) * 4 < len(names) * 3 or not view.complete:
            return
        raw = view.root.raw if isinstance(view.root.raw, dict) else {}
        if is_closed_false(raw) is None:
            return
    for claim in group.claims:
        lacking = []
        for view in binding.views:
            if _has(view, claim.name):
                break
            lacking.append(view)
        else:
            root = lacking[0].root
            yield Finding(
                ID,
                SEVERITY,
                f"the section `{claim.name}` documents a member of `{root.label}`, whose other "
                f"sections are its members, but it does not declare `{claim.name}` and rejects "
                f"it (a closed object): declare it there, or remove the section "
                f"(bound by {binding.evidence})",
                _where(group, claim),
                related=(root.document.location(root.pointer, note="not declared here"),),
                key=f"{claim.line}:{claim.name}:section",
            )


def _has(view: ObjectView, name: str) -> bool:
    """Whether the object declares ``name``, requires it somewhere, or lets it by a pattern."""
    if name in view.declared or name in view.maybe:
        return True
    raw = view.root.raw if isinstance(view.root.raw, dict) else {}
    patterns = raw.get("patternProperties")
    return isinstance(patterns, dict) and any(_matches(p, name) for p in patterns)


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return True  # a pattern not read: it may match


def _named_by_page(group: ClaimGroup, root: Node) -> bool:
    """Whether the heading, a heading above it (the page's title) or the lead-in names the
    object as its schema does: the member that holds it (``/properties/method``) or its
    ``title``."""
    said = {word.lower() for word in group.context.split()}
    for text in group.heading.path if group.heading else ():
        said.update(name.lower() for name in heading_name(text))
    title = root.raw.get("title") if isinstance(root.raw, dict) else None
    last = root.pointer.rsplit("/", 1)[-1] if root.pointer else ""
    return any(isinstance(n, str) and n.lower() in said for n in (title, last) if n)


def _proto_findings(corpus: Context, binding: GroupBinding) -> Iterator[Finding]:
    assert binding.message is not None
    proto, message = binding.message
    document = corpus.documents.get(proto.path)
    fields = {**{f.name: f for f in message.fields}, **{f.json_name: f for f in message.fields}}
    for claim in binding.group.claims:
        found = fields.get(claim.name)
        if found is None or claim.required is None:
            continue
        behaviors = field_behaviors(document, found)
        if claim.required and "OPTIONAL" in behaviors:
            said, fix = "OPTIONAL", "make it REQUIRED there, or document it as OPTIONAL"
        elif not claim.required and "REQUIRED" in behaviors:
            said, fix = "REQUIRED", "document it as REQUIRED, or drop REQUIRED from the proto"
        else:
            continue
        written = "REQUIRED" if claim.required else "OPTIONAL"
        yield Finding(
            ID,
            SEVERITY,
            f"`{claim.name}` is documented as {written} ({claim.said}), but proto message "
            f"`{message.name}` marks it `(google.api.field_behavior) = {said}`: {fix} "
            f"(bound by {binding.proto_evidence})",
            _where(binding.group, claim),
            related=(
                Location(proto.path, found.line, found.column, note=f"field_behavior {said} here"),
            ),
            key=f"{claim.line}:{claim.name}:proto",
        )


def _pair_findings(corpus: Context, binder: ClaimBinder) -> Iterator[Finding]:
    """A proto field's ``field_behavior`` against the requiredness of the JSON Schema property
    ``proto-message-drift`` pairs it with (the two surfaces of one message)."""
    for pair in message_pairs(corpus):
        document = corpus.documents.get(pair.proto.path)
        if not pair.compared or document is None or document.kind is not DocumentKind.PROTO:
            continue  # a proto fence's lines are its page's: its prose is judged there
        node = binder.index.node_at(pair.definition.document.path, pair.definition.pointer)
        view = binder.view(binder.top(node)) if node is not None else None
        if view is None:
            continue
        for proto_field, prop in pair.shared:
            behaviors = field_behaviors(document, proto_field)
            name = prop.name
            if "REQUIRED" in behaviors and name not in view.maybe:
                root = view.root
                pointer = join_pointer(root.pointer, "required") if "required" in root.raw else ""
                related = root.document.location(pointer or root.pointer, note="not required here")
                said = (
                    "REQUIRED",
                    f"the JSON Schema definition `{pair.definition.label}` does not require `{name}`",
                )
                fix = f"add `{name}` to its `required`, or drop REQUIRED from the proto field"
            elif "OPTIONAL" in behaviors and name in view.always:
                held = view.always[name]
                position = held.node.index(name) if isinstance(held.node, list) else 0
                related = held.document.location(
                    join_pointer(held.pointer, position), note="required here"
                )
                said = (
                    "OPTIONAL",
                    f"the JSON Schema definition `{pair.definition.label}` requires `{name}`",
                )
                fix = f"mark the proto field REQUIRED, or remove `{name}` from that `required`"
            else:
                continue
            yield Finding(
                ID,
                SEVERITY,
                f"proto field `{proto_field.name}` of `{pair.message.name}` is "
                f"`(google.api.field_behavior) = {said[0]}`, but {said[1]}: {fix}",
                Location(pair.proto.path, proto_field.line, proto_field.column),
                related=(related,),
                key=f"{pair.message.name}.{proto_field.name}:field_behavior",
            )
