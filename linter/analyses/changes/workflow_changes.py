"""What a change of an API document breaks in the corpus's Arazzo workflows (issue 49, item 6),
for ``speclint changes`` beside the schema changes (``speclint.analyses.changes.compat``).

Each step of an Arazzo document at the head revision that was bound, at the base revision, to an
operation (``speclint.analyses.workflows.arazzo.step_bindings``; the step paired by file, ``workflowId`` and
``stepId``) is read against the operation it calls at each revision. A change is breaking *for
the workflow* when what the head's step uses was the base operation's and is not the head's:

=============================  ==============================================================
kind                           what the step uses
=============================  ==============================================================
workflow operation renamed     its ``operationId``, the same method and path now declaring
                               another one (the new one named)
workflow operation removed     its ``operationId`` or ``operationPath``, the operation gone
                               (an ``operationPath`` whose operation moved: its new path named)
workflow parameter removed     a parameter it passes (``name`` and ``in``; header names in any
                               case, RFC 9110 §5.1), its own or its workflow's
workflow request property      a property its ``requestBody.payload`` sets, or a
removed                        ``replacements`` target
workflow response property     a ``$response.body#/pointer`` its ``outputs``,
removed                        ``successCriteria`` or ``onSuccess``/``onFailure`` criteria
                               read (Arazzo 1.0.1 §4.7), no 2xx JSON response schema declaring
                               it any more
workflow response header       a ``$response.header.<name>`` they read, no response declaring
removed                        it any more
=============================  ==============================================================

A workflow edited in the same change to match (the step naming the new ``operationId``, the
parameter dropped) is not broken: only what the head's step still uses is weighed. What the
base's operation did not have either is no change (``arazzo-unknown-parameter`` and the other
Arazzo rules report it as it is). A step whose call at the head names another operation than the
base's is the workflow's own edit, checked by those rules. Each change is located at the API
document's changed place (where the head has lost it; the base's place beside it) with the step,
and the use in it, as related locations.

Limitations: a ``jsonpath`` or ``xpath`` criterion is not read; a property declared only through
``additionalProperties`` is no declared property; a ``$ref`` that cannot be followed makes a
property unknown, never removed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from speclint.analyses.api.operations import Operation, api_operations
from speclint.analyses.changes.contract_change import Change
from speclint.analyses.context import Context
from speclint.analyses.schemas.shapes import Site, follow_once, resolve
from speclint.analyses.workflows.arazzo import (
    AMBIGUOUS,
    RESOLVED,
    UNRESOLVED,
    StepBinding,
    effective_parameter,
    operation_parameters,
    step_bindings,
)
from speclint.common.findings import Location
from speclint.model.arazzo import ArazzoDocument, Parameter, Step
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import (
    follow_local,
    join_pointer,
    pointer_of,
    resolve_pointer,
    split_pointer,
)

ROLE = "workflow"
# Arazzo 1.0.1 §4.7: `$response.body#/json-pointer` and `$response.header.<token>` (RFC 9110
# §5.6.2 tchar, less `'`: a condition quotes with it). A pointer ends where the expression does:
# at white space, at the `}` of an embedded `{$...}`, or at a quote, comma or bracket of the
# condition around it.
_BODY = re.compile(r"\$response\.body#(/[^\s{}'\"(),\[\]]*)")
_HEADER = re.compile(r"\$response\.header\.([A-Za-z0-9!#$%&*+.^_`|~-]+)")
# An embedded runtime expression written unquoted in a JSON template (`"age": {$inputs.age}`).
_UNQUOTED = re.compile(r'(?<!")\{\$[^{}"]*\}(?!")')
_MAX_DEPTH = 32

# How a pointer reads in a schema.
DECLARED = "declared"
ABSENT = "absent"
UNKNOWN = "unknown"  # a `$ref` that cannot be followed on the way


def workflow_changes(base: Context, head: Context) -> list[Change]:
    """The changes from ``base`` to ``head`` that break a step of the head's Arazzo workflows."""
    if not any(True for _ in head.of_kind(DocumentKind.ARAZZO)):
        return []  # no workflow to break: the bindings are not made
    before = {_key(b): b for b in step_bindings(base) if b.status == RESOLVED and b.operation}
    if not before:
        return []
    changes: list[Change] = []
    for binding in step_bindings(head):
        was = before.get(_key(binding))
        if was is None or was.operation is None:
            continue  # a new step, or one that called no operation: the Arazzo rules' to judge
        step = _Step(base, head, was, binding)
        changes.extend(step.changes())
    return changes


def _key(binding: StepBinding) -> tuple[str, str, str]:
    return (binding.arazzo.path, binding.workflow.workflow_id, binding.step.step_id)


@dataclass(frozen=True)
class _Use:
    """One thing a step uses of its operation: where the step says it, and what it is."""

    what: str  # "parameter" | "request property" | "response property" | "response header"
    name: str  # the parameter's or header's name, or the property's JSON pointer
    where: str  # a parameter's `in` ("" elsewhere)
    location: Location  # in the Arazzo document


class _Step:
    """One step, bound at the base to ``was.operation``, as the head reads it (``now``)."""

    def __init__(self, base: Context, head: Context, was: StepBinding, now: StepBinding) -> None:
        self.base, self.head, self.was, self.now = base, head, was, now
        assert was.operation is not None
        self.operation: Operation = was.operation

    @property
    def named(self) -> str:
        """The step as a reader finds it: "step `cancel-run` of workflow `cancel`
        (`workflows/cancel.arazzo.yaml`)"."""
        now = self.now
        return (
            f"step `{now.step.step_id}` of workflow `{now.workflow.workflow_id}` "
            f"(`{now.arazzo.path}`)"
        )

    def related(self, use: Location | None = None, note: str = "") -> tuple[Location, ...]:
        """The step, and where in it the use is (a parameter, an output), as related locations."""
        step = self.now.step
        found = [
            replace(
                step.location,
                note=f"step `{step.step_id}` of workflow `{self.now.workflow.workflow_id}`",
            )
        ]
        if use is not None and use.pointer != step.pointer:
            found.append(replace(use, note=note or None))
        return tuple(found)

    def changes(self) -> list[Change]:
        now, was = self.now, self.was
        if now.status == RESOLVED and now.operation is not None:
            if not _same_operation(self.operation, now.operation):
                return []  # the step now calls another operation: the workflow's own edit
            return list(self.uses_gone(now.operation))
        if now.status in (AMBIGUOUS, RESOLVED):
            return []  # another document holds the id too (arazzo-unresolved-operation's), or
            # the step calls a workflow now
        if (now.field, now.written) != (was.field, was.written):
            return []  # the step was edited to name something else: the Arazzo rules' to judge
        gone = self.operation_gone()
        return [gone] if gone is not None else []

    # --- the operation ------------------------------------------------------------------------

    def operation_gone(self) -> Change | None:
        operation = self.operation
        path = operation.document.path
        document = self.head.documents.get(path)
        if self.now.status != UNRESOLVED and document is not None:
            return None  # its source is not read at the head (edited, or unreadable): unknown
        at_head = [op for op in api_operations(self.head) if op.document.path == path]
        same_place = next((op for op in at_head if op.pointer == operation.pointer), None)
        called = f"`{self.now.written}`"
        if same_place is not None:
            if self.now.field != "operationId" or same_place.identifier == operation.identifier:
                return None  # still there: the binding failed for another reason
            if same_place.identifier:
                return self.renamed(same_place)
        moved = [
            op for op in at_head if operation.identifier and op.identifier == operation.identifier
        ]
        if document is None:
            fix = f"`{path}` was removed"
        elif same_place is not None:
            fix = f"`{operation.label}` of `{path}` no longer has an operationId"
        elif moved:
            fix = f"operationId `{operation.identifier}` is now `{moved[0].label}` of `{path}`"
        else:
            fix = f"`{operation.label}` was removed from `{path}`"
        if moved:
            advice = f"call it at `#{moved[0].pointer}`"
        elif same_place is not None:
            advice = "restore its operationId, or call it by `operationPath`"
        else:
            advice = "restore the operation, or change the workflow"
        holder = document if document is not None else operation.document
        line, column = holder.position(operation.pointer)
        return Change(
            "workflow operation removed",
            True,
            ROLE,
            f"{fix}: {self.named} calls {called} (`{operation.label}` at the base) and "
            f"breaks; {advice}",
            Location(path, line, column, pointer=operation.pointer),
            operation.document.location(operation.pointer, note="at the base revision"),
            f"{self.short}: `{operation.label}` gone",
            self.related(),
        )

    def renamed(self, now: Operation) -> Change:
        """The step's operationId renamed: the same method and path declare another one."""
        operation = self.operation
        where = join_pointer(now.pointer, "operationId")
        return Change(
            "workflow operation renamed",
            True,
            ROLE,
            f"`{operation.label}` of `{operation.document.path}` is now `{now.identifier}` "
            f"(operationId `{operation.identifier}` renamed): {self.named} still calls "
            f"`{self.now.written}` and breaks; write `{self._renamed(now.identifier)}` in the "
            "step, or keep the old operationId",
            now.document.location(where),
            operation.document.location(where, note="at the base revision"),
            f"{self.short}: `{operation.identifier}` renamed `{now.identifier}`",
            self.related(),
        )

    def _renamed(self, renamed: str) -> str:
        """The step's ``operationId`` with the new name, qualified as the step qualifies it."""
        qualified = self.now.written.startswith("$sourceDescriptions.")
        return "operationId: " + (
            f"{self.now.written.rsplit('.', 1)[0]}.{renamed}" if qualified else renamed
        )

    @property
    def short(self) -> str:
        """The step in a table cell: "`workflows/cancel.arazzo.yaml` step `cancel-run` →
        `cancelRun`"."""
        return f"`{self.now.arazzo.path}` step `{self.now.step.step_id}` → `{self.now.written}`"

    # --- what the step uses ---------------------------------------------------------------------

    def uses_gone(self, now: Operation) -> Iterator[Change]:
        was = self.operation
        for use in _uses(self.now.arazzo, self.now.workflow.parameters, self.now.step):
            if use.what == "parameter":
                change = self.parameter_gone(use, was, now)
            elif use.what == "response header":
                change = self.header_gone(use, was, now)
            else:
                change = self.property_gone(use, was, now)
            if change is not None:
                yield change

    def parameter_gone(self, use: _Use, was: Operation, now: Operation) -> Change | None:
        before, _ = operation_parameters(was)
        after, whole = operation_parameters(now)
        held = [p for p in before if _same_parameter(p.name, p.in_, use)]
        if not held or any(_same_parameter(p.name, p.in_, use) for p in after):
            return None
        if not whole:
            return None  # it may be the one a `$ref` to another file declares
        declared = held[0]
        elsewhere = [p for p in after if p.name == use.name]
        fix = (
            f"it is now in `{elsewhere[0].in_}`: write `in: {elsewhere[0].in_}` in the step"
            if elsewhere
            else "restore the parameter, or drop it from the step"
        )
        # At the list (or map) that held it: an index of the list names another one now.
        place = _nearest(now.document, declared.pointer.rsplit("/", 1)[0])
        label = f"`{use.name}` (in: {declared.in_})"
        return Change(
            "workflow parameter removed",
            True,
            ROLE,
            f"parameter {label} was removed from `{now.label}` of `{now.document.path}`: "
            f"{self.named} passes it; {fix}",
            now.document.location(place),
            was.document.location(declared.pointer, note="at the base revision"),
            f"{self.short}: parameter {label} gone",
            self.related(use.location, f"passes `{use.name}`"),
        )

    def header_gone(self, use: _Use, was: Operation, now: Operation) -> Change | None:
        before = _headers(was)
        if use.name.lower() not in before:
            return None
        if use.name.lower() in _headers(now):
            return None
        return Change(
            "workflow response header removed",
            True,
            ROLE,
            f"response header `{use.name}` is no longer declared by `{now.label}` of "
            f"`{now.document.path}`: {self.named} reads `$response.header.{use.name}`; "
            "restore the header, or stop reading it",
            now.document.location(_nearest(now.document, before[use.name.lower()])),
            was.document.location(before[use.name.lower()], note="at the base revision"),
            f"{self.short}: response header `{use.name}` gone",
            self.related(use.location, f"reads `$response.header.{use.name}`"),
        )

    def property_gone(self, use: _Use, was: Operation, now: Operation) -> Change | None:
        direction = "request" if use.what == "request property" else "response"
        tokens = split_pointer(use.name)
        before = [_find(self.base, _body(b), tokens) for b in was.of(direction)]
        held = next((site for state, site in before if state == DECLARED), None)
        if held is None:
            return None
        after = [_find(self.head, _body(b), tokens) for b in now.of(direction)]
        if any(state != ABSENT for state, _ in after):
            return None  # declared still, or not known (a `$ref` not followed)
        if after:
            lacking = after[0][1]
            node = lacking.node
            place = (
                lacking.at("properties")
                if isinstance(node, dict) and "properties" in node
                else lacking.location()
            )
        else:
            place = now.document.location(now.pointer)  # the body itself is gone
        name = use.name
        if direction == "request":
            says, fix = "its payload sets", "restore the property, or drop it from the payload"
        else:
            says = f"reads `$response.body#{name}`"
            fix = "restore the property, or read another"
        return Change(
            f"workflow {use.what} removed",
            True,
            ROLE,
            f"{direction} property `{name}` of `{now.label}` (`{now.document.path}`) was "
            f"removed: {self.named} {says}; {fix}",
            place,
            held.location(note="at the base revision"),
            f"{self.short}: {direction} property `{name}` gone",
            self.related(use.location, f"{says} `{name}`" if direction == "request" else says),
        )


def _same_operation(was: Operation, now: Operation) -> bool:
    """Is ``now`` (at the head) the operation ``was`` (at the base): the same file and place, or
    the same operationId moved within the file?"""
    if was.document.path != now.document.path:
        return False
    return was.pointer == now.pointer or bool(was.identifier and was.identifier == now.identifier)


def _same_parameter(name: str, where: str, use: _Use) -> bool:
    if use.where and use.where != where:
        return False
    # RFC 9110 §5.1: field names are case-insensitive.
    return name.lower() == use.name.lower() if where == "header" else name == use.name


# --- reading the step ---------------------------------------------------------------------------


def _uses(
    arazzo: ArazzoDocument, workflow_parameters: tuple[Parameter, ...], step: Step
) -> Iterator[_Use]:
    """What ``step`` uses of its operation, in document order, each once."""
    seen: set[tuple[str, str, str]] = set()
    for use in _all_uses(arazzo, workflow_parameters, step):
        key = (use.what, use.name.lower() if use.what == "response header" else use.name, use.where)
        if key not in seen:
            seen.add(key)
            yield use


def _all_uses(
    arazzo: ArazzoDocument, workflow_parameters: tuple[Parameter, ...], step: Step
) -> Iterator[_Use]:
    # Arazzo 1.0.1 §4.6.4: a workflow's parameters apply to each of its steps (a step's own, of
    # the same name and place, overrides them: either is passed).
    for written in (*step.parameters, *workflow_parameters):
        parameter = effective_parameter(arazzo, written)
        if parameter is not None:
            yield _Use("parameter", parameter.name, parameter.in_, written.location)
    body = step.request_body
    if body is not None:
        payload = _as_json(body.payload)
        for tokens in _set_properties(payload, []):
            yield _Use("request property", pointer_of(tokens), "", body.location)
        for replacement in body.replacements:
            if replacement.target.startswith("/"):
                yield _Use("request property", replacement.target, "", replacement.location)
    read: list[tuple[str, Location]] = [(str(o.value), o.location) for o in step.outputs]
    read += [(c.condition, c.location) for c in step.success_criteria]
    read += [(c.context, c.location) for c in step.success_criteria]
    for action in (*step.on_success, *step.on_failure):
        read += [(c.condition, c.location) for c in action.criteria]
    for text, location in read:
        for pointer in _BODY.findall(text):
            if pointer.strip("/"):
                yield _Use("response property", pointer, "", location)
        for header in _HEADER.findall(text):
            yield _Use("response header", header, "", location)


def _as_json(payload: Any) -> Any:
    """A payload written as a JSON template string, read as JSON (its unquoted ``{$...}``
    placeholders as strings); the payload as it is otherwise."""
    if not isinstance(payload, str):
        return payload
    try:
        return json.loads(_UNQUOTED.sub('"$placeholder"', payload))
    except ValueError:
        return payload


def _set_properties(node: Any, tokens: list[str]) -> Iterator[list[str]]:
    """The paths of the object members a payload sets, outermost first (an array's items read
    as its first item's place: a schema's ``items`` is the same for all)."""
    if isinstance(node, dict):
        for key, value in node.items():
            path = [*tokens, str(key)]
            yield path
            yield from _set_properties(value, path)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _set_properties(item, [*tokens, str(index)])


# --- reading the operation ----------------------------------------------------------------------


def _nearest(document: Document, pointer: str) -> str:
    """``pointer``, or its nearest ancestor ``document`` has: where a node gone was."""
    tokens = split_pointer(pointer)
    while tokens and resolve_pointer(document.data, pointer_of(tokens)) is None:
        tokens.pop()
    return pointer_of(tokens)


def _body(body: Any) -> Site:
    return Site(body.document, body.pointer, resolve(body.document, body.pointer))


def _headers(operation: Operation) -> dict[str, str]:
    """The response headers the operation declares (any status), by lower-cased name (RFC 9110
    §5.1), with the pointer of each."""
    data = operation.document.data
    found: dict[str, str] = {}
    node = resolve(operation.document, operation.pointer)
    responses = node.get("responses") if isinstance(node, dict) else None
    for status, response in sorted(responses.items()) if isinstance(responses, dict) else ():
        at = join_pointer(join_pointer(operation.pointer, "responses"), str(status))
        at, response = follow_local(data, response, at)
        headers = response.get("headers") if isinstance(response, dict) else None
        for name in sorted(headers) if isinstance(headers, dict) else ():
            found.setdefault(str(name).lower(), join_pointer(join_pointer(at, "headers"), name))
    return found


def _find(corpus: Context, site: Site, tokens: list[str], depth: int = 0) -> tuple[str, Site]:
    """Whether the schema at ``site`` declares the instance location ``tokens`` (an object's
    ``properties``, an array's ``items`` or ``prefixItems``, through ``$ref``\\s and the
    members of ``allOf``/``anyOf``/``oneOf``): DECLARED with the schema there, ABSENT with the
    schema that lacks the next token, or UNKNOWN (a ``$ref`` not followed on the way)."""
    if depth > _MAX_DEPTH:
        return UNKNOWN, site
    node = site.node
    if not tokens:
        return DECLARED, site
    if not isinstance(node, dict):
        return ABSENT, site
    token, rest = tokens[0], tokens[1:]
    found: list[tuple[str, Site]] = []
    properties = node.get("properties")
    if isinstance(properties, dict) and token in properties:
        inner = Site(
            site.document,
            join_pointer(join_pointer(site.pointer, "properties"), token),
            properties[token],
        )
        found.append(_find(corpus, inner, rest, depth + 1))
    if token.isdigit():
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and int(token) < len(prefix):
            at = join_pointer(join_pointer(site.pointer, "prefixItems"), token)
            found.append(
                _find(corpus, Site(site.document, at, prefix[int(token)]), rest, depth + 1)
            )
        elif isinstance(node.get("items"), dict):
            at = join_pointer(site.pointer, "items")
            found.append(_find(corpus, Site(site.document, at, node["items"]), rest, depth + 1))
    matched = bool(found)
    if isinstance(node.get("$ref"), str):
        target = follow_once(corpus, site)
        found.append(
            (UNKNOWN, site) if target is None else _find(corpus, target, tokens, depth + 1)
        )
    for keyword in ("allOf", "anyOf", "oneOf"):
        members = node.get(keyword)
        for index, member in enumerate(members if isinstance(members, list) else ()):
            at = join_pointer(join_pointer(site.pointer, keyword), index)
            found.append(_find(corpus, Site(site.document, at, member), tokens, depth + 1))
    for state in (DECLARED, UNKNOWN):
        reached = next((s for st, s in found if st == state), None)
        if reached is not None:
            return state, reached
    if matched or (found and "properties" not in node):
        # The token is here and what is below it lacks the rest, or the schema a `$ref` or a
        # member leads to lacks it: said there.
        return found[0]
    return ABSENT, site
