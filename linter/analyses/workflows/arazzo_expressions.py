"""The runtime expressions of Arazzo documents, resolved against what the document and the
operations its steps call declare (issue 49, item 4).

Each expression (Arazzo 1.0.1 §4.7, read by ``speclint.parsing.runtime_expressions``) in a
parameter value, a request payload or replacement, an output, a criterion's ``condition`` or
``context``, or a ``reference`` is judged where it is written:

- ``$inputs.<name>``: a property of its workflow's ``inputs`` schema (a ``$ref`` to
  ``components.inputs`` followed, ``allOf`` members merged; a schema with no ``properties``, or
  with ``additionalProperties`` / ``patternProperties``, takes any name; one whose ``type``
  is no object names none);
- ``$steps.<stepId>.outputs.<name>``: a step of the same workflow (§4.6.5: stepIds are unique
  within their workflow) and an output that step declares;
- ``$workflows.<id>.outputs.<name>`` / ``.inputs.<name>``: a workflow of the document, or of
  one of its Arazzo sources, and its declared output or input;
- ``$sourceDescriptions.<name>``: a declared source; ``$components.<kind>.<name>``: a declared
  component (a ``reference`` of a Success Action to ``successActions``, of a Failure Action to
  ``failureActions``, of a parameter to ``parameters``: §4.6.14);
- ``$response.body#<pointer>`` and ``$response.header.<name>`` in a step's outputs and criteria:
  against the responses of the operation the step calls (its 2xx responses for outputs and
  success criteria, when it declares any; every response for failure criteria;
  ``Content-Type``, which OpenAPI never declares, always there). In a parameter value or a
  request body ``$response`` names nothing (no response exists while the request is built); in
  an output, ``$response.body.id`` is no body reference (§4.7: ``body#/id``).

Names may hold dots and brackets (the ABNF's ``name`` is any character), so a declared name
matches when it is a prefix of what follows the root up to a ``.``, ``[`` or ``#``
(``$inputs.page[size]`` is the input ``page[size]`` or ``page`` indexed). ``$url``,
``$method``, ``$statusCode`` and ``$request.*`` always resolve; ``$outputs.*`` (whose scope
§4.7 leaves open) is not judged. A step whose call does not resolve, or whose source is not
read, has its ``$response`` expressions left unjudged: the unresolved call is a finding of
its own, the unread source a coverage note.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from speclint.analyses.api.operations import Operation
from speclint.analyses.context import Context
from speclint.analyses.schemas.shapes import Site, follow_once
from speclint.analyses.workflows.arazzo import (
    RESOLVED,
    ResolvedSource,
    StepBinding,
    listed,
    mapping_at,
    near_names,
    resolved_sources,
    step_bindings,
)
from speclint.common.findings import Location
from speclint.model.arazzo import (
    ARAZZO_SOURCE,
    Action,
    ArazzoDocument,
    Criterion,
    Step,
    Workflow,
    arazzo_document,
    arazzo_documents,
)
from speclint.model.corpus import Document
from speclint.parsing.runtime_expressions import (
    ROOTS,
    Expression,
    expressions_in,
    expressions_in_condition,
    name_prefixes,
)
from speclint.parsing.structured import follow_local, join_pointer, resolve_pointer, split_pointer

# What a problem is about: a name the document declares, or the response of an operation.
NAME = "name"
RESPONSE = "response"

# Where an expression is written (what `$response` means there).
PARAMETER = "parameter"
PAYLOAD = "payload"
OUTPUT = "output"
SUCCESS_CRITERION = "success-criterion"  # a step's successCriteria, a success action's criteria
FAILURE_CRITERION = "failure-criterion"  # a failure action's criteria
CONTEXT = "context"
REFERENCE = "reference"

# §4.6.14: what the `reference` of each kind of Reusable Object names.
_REFERENCE_KINDS = {
    "parameter": "parameters",
    "success": "successActions",
    "failure": "failureActions",
}
_COMPONENT_KINDS = ("inputs", "parameters", "successActions", "failureActions")
# `$sourceDescriptions.<name>.<workflowId>` (§4.7: a source name is `[A-Za-z0-9_\-]+`).
_QUALIFIED = re.compile(r"^\$sourceDescriptions\.([A-Za-z0-9_\-]+)\.(.+)$")
_TYPES_WITHOUT_MEMBERS = frozenset({"string", "number", "integer", "boolean", "null"})
_MAX_ALTERNATIVES = 64
_STATUS = re.compile(r"\b[1-5]\d\d\b")
# OpenAPI 3.1.0 §4.8.17 (Response Object, fixed field `headers`): "If a response header is
# defined with the name "Content-Type", it SHALL be ignored": `content` declares the body's
# media type, so no document declares this header and a response may always carry it. Lower
# case (RFC 9110 §5.1: field names are case-insensitive).
UNDECLARABLE_RESPONSE_HEADERS = frozenset({"content-type"})
_MAX_DEPTH = 24


@dataclass(frozen=True)
class Use:
    """One runtime expression where it is written."""

    arazzo: ArazzoDocument
    workflow: Workflow | None  # None in `components`
    step: Step | None  # None outside a step
    pointer: str  # the string holding it
    expression: Expression
    place: str  # PARAMETER, PAYLOAD, OUTPUT, SUCCESS_CRITERION, ... or REFERENCE
    reference_kind: str = ""  # for a REFERENCE: "parameter" | "success" | "failure"


@dataclass(frozen=True)
class Problem:
    """An expression that names what is not declared."""

    use: Use
    concern: str  # NAME or RESPONSE
    problem: str  # what is wrong
    fix: str  # how to fix it (starts with "; ")
    related: tuple[Location, ...] = ()
    meant: tuple[str, ...] = field(default=())
    # A spelling several tools accept though §4.7's grammar has no such form (a body read with
    # a dot): reported once per document, its other places related, not once per place.
    dialect: bool = False
    # A body read from responses whose API document declares no content for any of them: the
    # codes read (the document is silent, not shown wrong; arazzo-response-pointer groups them).
    silent_codes: tuple[str, ...] = ()


def expression_problems(corpus: Context) -> tuple[Problem, ...]:
    """Every runtime expression of the corpus's Arazzo documents that does not resolve, in
    document order. Built once per run."""
    cached = corpus.memo.get("arazzo.expression_problems")
    if cached is not None:
        return cast(tuple[Problem, ...], cached)
    bindings = {(b.arazzo.path, b.step.pointer): b for b in step_bindings(corpus)}
    found: list[Problem] = []
    for arazzo in arazzo_documents(corpus):
        judge = _Judge(corpus, arazzo, bindings)
        for use in expression_uses(arazzo):
            found.extend(judge.judge(use))
    result = tuple(found)
    corpus.memo["arazzo.expression_problems"] = result
    return result


# --- where expressions are ---------------------------------------------------------------------


def expression_uses(arazzo: ArazzoDocument) -> Iterator[Use]:
    """Every runtime expression of the document, where it is written, in document order."""
    for name in sorted(arazzo.components.parameters):
        parameter = arazzo.components.parameters[name]
        yield from _values(
            arazzo, None, None, f"{parameter.pointer}/value", parameter.value, PARAMETER
        )
    for kind, actions, place in (
        ("success", arazzo.components.success_actions, SUCCESS_CRITERION),
        ("failure", arazzo.components.failure_actions, FAILURE_CRITERION),
    ):
        for name in sorted(actions):
            yield from _action(arazzo, None, None, actions[name], kind, place)
    for workflow in arazzo.workflows:
        for parameter in workflow.parameters:
            yield from _parameter(arazzo, workflow, None, parameter)
        for action in workflow.success_actions:
            yield from _action(arazzo, workflow, None, action, "success", SUCCESS_CRITERION)
        for action in workflow.failure_actions:
            yield from _action(arazzo, workflow, None, action, "failure", FAILURE_CRITERION)
        for step in workflow.steps:
            yield from _step(arazzo, workflow, step)
        for output in workflow.outputs:
            yield from _values(arazzo, workflow, None, output.pointer, output.value, OUTPUT)


def _step(arazzo: ArazzoDocument, workflow: Workflow, step: Step) -> Iterator[Use]:
    for parameter in step.parameters:
        yield from _parameter(arazzo, workflow, step, parameter)
    body = step.request_body
    if body is not None:
        yield from _values(arazzo, workflow, step, f"{body.pointer}/payload", body.payload, PAYLOAD)
        for replacement in body.replacements:
            at = f"{replacement.pointer}/value"
            yield from _values(arazzo, workflow, step, at, replacement.value, PAYLOAD)
    for criterion in step.success_criteria:
        yield from _criterion(arazzo, workflow, step, criterion, SUCCESS_CRITERION)
    for action in step.on_success:
        yield from _action(arazzo, workflow, step, action, "success", SUCCESS_CRITERION)
    for action in step.on_failure:
        yield from _action(arazzo, workflow, step, action, "failure", FAILURE_CRITERION)
    for output in step.outputs:
        yield from _values(arazzo, workflow, step, output.pointer, output.value, OUTPUT)


def _parameter(
    arazzo: ArazzoDocument, workflow: Workflow, step: Step | None, parameter: Any
) -> Iterator[Use]:
    if parameter.reference:
        yield from _reference(
            arazzo, workflow, step, parameter.pointer, parameter.reference, "parameter"
        )
    yield from _values(
        arazzo, workflow, step, f"{parameter.pointer}/value", parameter.value, PARAMETER
    )


def _action(
    arazzo: ArazzoDocument,
    workflow: Workflow | None,
    step: Step | None,
    action: Action,
    kind: str,
    place: str,
) -> Iterator[Use]:
    if action.reference:
        yield from _reference(arazzo, workflow, step, action.pointer, action.reference, kind)
    for criterion in action.criteria:
        yield from _criterion(arazzo, workflow, step, criterion, place)


def _reference(
    arazzo: ArazzoDocument,
    workflow: Workflow | None,
    step: Step | None,
    pointer: str,
    written: str,
    kind: str,
) -> Iterator[Use]:
    for expression in expressions_in(written):
        yield Use(arazzo, workflow, step, f"{pointer}/reference", expression, REFERENCE, kind)


def _criterion(
    arazzo: ArazzoDocument,
    workflow: Workflow | None,
    step: Step | None,
    criterion: Criterion,
    place: str,
) -> Iterator[Use]:
    if criterion.context:
        for expression in expressions_in(criterion.context):
            yield Use(arazzo, workflow, step, f"{criterion.pointer}/context", expression, CONTEXT)
    kind = criterion.type or "simple"
    if kind not in ("simple", "jsonpath"):
        return  # a regex or an XPath expression: no runtime expression inside (§4.6.9)
    at = f"{criterion.pointer}/condition"
    for expression in expressions_in_condition(criterion.condition):
        if kind == "jsonpath" and not expression.known:
            continue  # JSONPath's own syntax, not a misspelt root
        # A JSONPath condition is applied to its `context`: a `$response` in it is the same
        # response, judged like a simple condition's.
        yield Use(arazzo, workflow, step, at, expression, place)


def _values(
    arazzo: ArazzoDocument,
    workflow: Workflow | None,
    step: Step | None,
    pointer: str,
    value: Any,
    place: str,
) -> Iterator[Use]:
    """The expressions of a value written as a string, or of the strings inside a payload."""
    if isinstance(value, str):
        for expression in expressions_in(value):
            if place == PAYLOAD and not expression.known:
                continue  # `$set` in a payload is the API's own syntax, not a misspelt root
            yield Use(arazzo, workflow, step, pointer, expression, place)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _values(arazzo, workflow, step, join_pointer(pointer, str(key)), item, place)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _values(arazzo, workflow, step, join_pointer(pointer, index), item, place)


# --- judging ------------------------------------------------------------------------------------


class _Judge:
    """Judges the expressions of one Arazzo document."""

    def __init__(
        self, corpus: Context, arazzo: ArazzoDocument, bindings: dict[tuple[str, str], StepBinding]
    ) -> None:
        self.corpus = corpus
        self.arazzo = arazzo
        self.document = corpus.documents[arazzo.path]
        self.bindings = bindings
        self.sources = resolved_sources(corpus, arazzo)

    def judge(self, use: Use) -> Iterator[Problem]:
        expression = use.expression
        root = expression.root
        if use.place == REFERENCE:
            yield from self.reference(use)
            return
        if root in ("request", "response") and use.place == OUTPUT:
            yield from self.body_reference(use)
        if root in ("url", "method", "statusCode", "request", "outputs"):
            return
        if root == "inputs":
            yield from self.inputs(use)
        elif root == "steps":
            yield from self.steps(use)
        elif root == "workflows":
            yield from self.workflows(use)
        elif root == "sourceDescriptions":
            yield from self.source(use)
        elif root == "components":
            yield from self.component(use, expression.rest)
        elif root == "response":
            yield from self.response(use)
        elif root:
            yield from self.unknown_root(use)

    def problem(self, use: Use, problem: str, fix: str, **more: Any) -> Problem:
        return Problem(use, NAME, problem, fix, **more)

    # --- roots the ABNF does not have ---

    def unknown_root(self, use: Use) -> Iterator[Problem]:
        root = use.expression.root
        same = [r for r in ROOTS if r.lower() == root.lower()]
        close = same or difflib.get_close_matches(root, ROOTS, n=1, cutoff=0.8)
        if not close:
            return  # another tool's placeholder, not a runtime expression gone wrong
        meant = "$" + close[0] + use.expression.text[len(root) + 1 :]
        yield self.problem(
            use,
            f"`${root}` is no runtime expression (Arazzo 1.0.1 §4.7)",
            f"; did you mean `{meant}`?",
            meant=(meant,),
        )

    # --- $inputs ---

    def inputs(self, use: Use) -> Iterator[Problem]:
        workflow = use.workflow
        rest = use.expression.rest
        if workflow is None or not rest:
            return  # in `components`: the workflow it runs in is not known here
        yield from self._input_of(use, workflow, self.arazzo, rest, f"`$inputs.{rest}`")

    def _input_of(
        self, use: Use, workflow: Workflow, holder: ArazzoDocument, rest: str, written: str
    ) -> Iterator[Problem]:
        document = self.corpus.documents[holder.path]
        if workflow.inputs is None:
            yield self.problem(
                use,
                f"{written}: workflow `{workflow.workflow_id}` declares no `inputs`",
                "; declare an `inputs` schema with this property, or pass the value another way",
                related=(workflow.location,),
            )
            return
        scalar = _scalar_schema(document.data, workflow.inputs, workflow.inputs_pointer)
        if scalar is not None:
            at, kinds = scalar
            yield self.problem(
                use,
                f"{written}: the `inputs` of workflow `{workflow.workflow_id}` are of type "
                f"{kinds}, which has no properties to name",
                f"; declare `inputs` as `type: object` with a property `{_first_name(rest)}`",
                related=(document.location(at, note=f"the inputs of `{workflow.workflow_id}`"),),
            )
            return
        names, at = _input_names(document.data, workflow.inputs, workflow.inputs_pointer)
        if names is None:
            return  # a schema that takes any name, or one not read here
        if any(name in names for name in name_prefixes(rest)):
            return
        if _spaced(names, rest, use.expression.tail):
            return
        name = _first_name(rest)
        meant = near_names(name, names)
        fix = (
            f"; did you mean `{meant[0]}`?"
            if meant
            else f"; its inputs: {listed(names, most=6)}"
            if names
            else "; declare it in `inputs.properties`"
        )
        yield self.problem(
            use,
            f"{written}: workflow `{workflow.workflow_id}` has no input `{name}`",
            fix,
            related=(document.location(at, note=f"the inputs of `{workflow.workflow_id}`"),),
            meant=tuple(meant),
        )

    # --- $steps ---

    def steps(self, use: Use) -> Iterator[Problem]:
        workflow = use.workflow
        rest = use.expression.rest
        if workflow is None or not rest:
            return
        ids = [s.step_id for s in workflow.steps if s.step_id]
        step_id = _longest_id(rest, ids)
        if step_id is None:
            name = rest.split(".", 1)[0]
            meant = near_names(name, ids)
            elsewhere = [
                w.workflow_id
                for w in self.arazzo.workflows
                if w is not workflow and any(s.step_id == name for s in w.steps)
            ]
            if meant:
                fix = f"; did you mean `{meant[0]}`?"
            elif elsewhere:
                fix = (
                    f"; `{name}` is a step of workflow `{elsewhere[0]}`: a step reads only the "
                    f"steps of its own workflow (use `$workflows.{elsewhere[0]}.outputs.<name>`)"
                )
            else:
                fix = f"; its steps: {listed(ids, most=6)}" if ids else ""
            yield self.problem(
                use,
                f"`{use.expression.text}`: workflow `{workflow.workflow_id}` has no step `{name}`",
                fix or "; name a step of this workflow",
                related=(workflow.location,),
                meant=tuple(meant),
            )
            return
        step = next(s for s in workflow.steps if s.step_id == step_id)
        after = rest[len(step_id) + 1 :]
        if not after.startswith("outputs."):
            return  # the step as a whole, or a part §4.7 does not name
        yield from self._output_of(use, f"step `{step_id}`", step.outputs, after[8:], step.location)

    def _output_of(
        self, use: Use, owner: str, outputs: tuple[Any, ...], rest: str, where: Location
    ) -> Iterator[Problem]:
        names = [o.name for o in outputs]
        if any(name in names for name in name_prefixes(rest)):
            return
        if _spaced(names, rest, use.expression.tail):
            return  # a name with spaces, read as declared (arazzo-invalid judges the name)
        name = _first_name(rest)
        meant = near_names(name, names)
        others = [
            s.step_id
            for s in (use.workflow.steps if use.workflow is not None else ())
            if owner.startswith("step") and any(o.name == name for o in s.outputs)
        ]
        if meant:
            fix = f"; did you mean `{meant[0]}`?"
        elif others:
            fix = f"; did you mean `$steps.{others[0]}.outputs.{name}` (step `{others[0]}` declares it)?"
        elif names:
            fix = f"; its outputs: {listed(names, most=6)}"
        else:
            fix = f"; declare `{name}` in its `outputs`"
        related = next((o.location for o in outputs if meant and o.name == meant[0]), where)
        yield self.problem(
            use,
            f"`{use.expression.text}`: {owner} "
            + (f"has no output `{name}`" if names else "declares no outputs"),
            fix,
            related=(related,),
            meant=tuple(meant),
        )

    # --- $workflows ---

    def workflows(self, use: Use) -> Iterator[Problem]:
        rest = use.expression.rest
        if not rest:
            return
        found = self._workflow(rest)
        if found is None:
            return  # it may be in an Arazzo source that is not read
        if isinstance(found, _Miss):
            yield self.problem(use, found.problem, found.fix, meant=found.meant)
            return
        workflow, holder = found
        after = rest[len(workflow.workflow_id) + 1 :]
        owner = f"workflow `{workflow.workflow_id}`"
        if after.startswith("outputs."):
            yield from self._output_of(use, owner, workflow.outputs, after[8:], workflow.location)
        elif after.startswith("inputs."):
            written = f"`{use.expression.text}`"
            yield from self._input_of(use, workflow, holder, after[7:], written)

    def _workflow(self, rest: str) -> tuple[Workflow, ArazzoDocument] | _Miss | None:
        """The workflow ``rest`` starts with: local, else of an Arazzo source; a problem when
        no document holds it; None when an Arazzo source is not read."""
        local = [w.workflow_id for w in self.arazzo.workflows if w.workflow_id]
        workflow_id = _longest_id(rest, local)
        if workflow_id is not None:
            workflow = self.arazzo.workflow(workflow_id)
            assert workflow is not None
            return workflow, self.arazzo
        held = list(local)
        for source in self.sources.values():
            other = _arazzo_of(source)
            if other is None:
                if source.description.type == ARAZZO_SOURCE and not source.checked:
                    return None
                continue
            ids = [w.workflow_id for w in other.workflows if w.workflow_id]
            workflow_id = _longest_id(rest, ids)
            if workflow_id is not None:
                workflow = other.workflow(workflow_id)
                assert workflow is not None
                return workflow, other
            held.extend(ids)
        name = rest.split(".", 1)[0]
        meant = near_names(name, held)
        return _Miss(
            f"`$workflows.{rest}`: no workflow `{name}` in {self.arazzo.path} or its Arazzo "
            "sources",
            f"; did you mean `{meant[0]}`?"
            if meant
            else f"; its workflows: {listed(local, most=6)}",
            meant=tuple(meant),
        )

    # --- $sourceDescriptions ---

    def source(self, use: Use) -> Iterator[Problem]:
        rest = use.expression.rest
        if not rest:
            return
        name = re.split(r"[.\[#]", rest, maxsplit=1)[0]
        names = [s.name for s in self.arazzo.source_descriptions if s.name]
        if name in names:
            return
        meant = near_names(name, names)
        yield self.problem(
            use,
            f"`{use.expression.text}`: the document declares no source description `{name}`",
            f"; did you mean `{meant[0]}`?" if meant else f"; its sources: {listed(names, most=6)}",
            meant=tuple(meant),
        )

    # --- $components ---

    def component(self, use: Use, rest: str, want: str = "") -> Iterator[Problem]:
        kind, _, name = rest.partition(".")
        if kind not in _COMPONENT_KINDS:
            meant_kind = difflib.get_close_matches(kind, _COMPONENT_KINDS, n=1, cutoff=0.8)
            if meant_kind or want:
                right = want or meant_kind[0]
                yield self.problem(
                    use,
                    f"`{use.expression.text}`: the Components Object has no `{kind}` "
                    "(§4.6.13: inputs, parameters, successActions, failureActions)",
                    f"; did you mean `$components.{right}.{name}`?",
                )
            return
        if want and kind != want:
            yield self.problem(
                use,
                f"`{use.expression.text}` names a {_KIND_WORDS[kind]} where a "
                f"{_KIND_WORDS[want]} is expected (§4.6.14)",
                f"; name one of `components.{want}`",
            )
            return
        if not name:
            return
        held = {
            "inputs": self.arazzo.components.inputs,
            "parameters": self.arazzo.components.parameters,
            "successActions": self.arazzo.components.success_actions,
            "failureActions": self.arazzo.components.failure_actions,
        }[kind]
        names = sorted(held)
        if any(n in held for n in name_prefixes(name)):
            return
        first = _first_name(name)
        meant = near_names(first, names)
        yield self.problem(
            use,
            f"`{use.expression.text}`: `components.{kind}` has no `{first}`",
            f"; did you mean `{meant[0]}`?"
            if meant
            else f"; it holds {listed(names, most=6)}"
            if names
            else f"; declare it in `components.{kind}`",
            meant=tuple(meant),
        )

    def reference(self, use: Use) -> Iterator[Problem]:
        want = _REFERENCE_KINDS[use.reference_kind]
        expression = use.expression
        if expression.root != "components":
            yield self.problem(
                use,
                f"`{expression.text}`: a reference names a component (§4.6.14)",
                f"; write `$components.{want}.<name>`",
            )
            return
        yield from self.component(use, expression.rest, want)

    # --- $response ---

    def body_reference(self, use: Use) -> Iterator[Problem]:
        """A body read with a dot (``$response.body.id``) in a value: §4.7's ABNF has
        ``body-reference = "body" ["#" json-pointer]`` only (a condition's ``.`` is the condition
        language's dereference, §4.6.9, and is not judged here)."""
        rest = use.expression.rest
        if not rest.startswith("body") or rest == "body" or rest.startswith("body#"):
            return
        tail = rest[4:].lstrip("./")
        pointer = "/" + re.sub(r"\[(\d+)\]", r".\1", tail).strip(".").replace(".", "/")
        meant = f"${use.expression.root}.body#{pointer}"
        yield self.problem(
            use,
            f"`{use.expression.text}` is no body reference: a part of the body is named by a "
            "JSON pointer after `#` (Arazzo 1.0.1 §4.7, `body-reference`)",
            f"; write `{meant}`",
            meant=(meant,),
            dialect=True,
        )

    def in_request(self, use: Use) -> Iterator[Problem]:
        """``$response`` in a parameter value or a request body: the request is built before
        any response exists (§4.7: `$response` is the response of the step's own call)."""
        yield self.problem(
            use,
            f"`{use.expression.text}` in a request: the step's response does not exist while "
            "its request is built (Arazzo 1.0.1 §4.7)",
            "; pass a value an earlier step read from its response "
            "(`$steps.<stepId>.outputs.<name>`, declared in that step's `outputs`)",
        )

    def response(self, use: Use) -> Iterator[Problem]:
        if use.place in (PARAMETER, PAYLOAD):
            yield from self.in_request(use)
            return
        if use.step is None or use.place not in (OUTPUT, SUCCESS_CRITERION, FAILURE_CRITERION):
            return
        binding = self.bindings.get((self.arazzo.path, use.step.pointer))
        if binding is None or binding.status != RESOLVED or binding.operation is None:
            return  # the call does not resolve (its own finding) or its source is not read
        rest = use.expression.rest
        operation = binding.operation
        responses = _responses(
            operation, every=use.place == FAILURE_CRITERION, also=asserted_codes(use.step)
        )
        if responses is None:
            return
        if rest.startswith("header."):
            yield from self.header(use, operation, responses, rest[7:])
        elif rest.startswith("body#"):
            yield from self.body(use, operation, responses, rest[5:])

    def header(
        self, use: Use, operation: Operation, responses: list[tuple[str, str, Any]], name: str
    ) -> Iterator[Problem]:
        declared: dict[str, str] = {}
        for _code, at, response in responses:
            headers = response.get("headers")
            for header in headers if isinstance(headers, dict) else ():
                declared.setdefault(str(header).lower(), join_pointer(f"{at}/headers", str(header)))
        if name.lower() in declared:  # RFC 9110 §5.1: field names are case-insensitive
            return
        if name.lower() in UNDECLARABLE_RESPONSE_HEADERS:
            return  # no API can declare it, so every API may send it
        codes = ", ".join(code for code, _at, _response in responses)
        meant = near_names(name.lower(), sorted(declared))
        yield Problem(
            use,
            RESPONSE,
            f"`{use.expression.text}`: {operation.label} declares no response header `{name}` "
            f"(responses {codes})",
            f"; did you mean `{meant[0]}`?"
            if meant
            else "; declare it in the operation's response `headers`, or read another header",
            related=(operation.document.location(operation.pointer, note=operation.label),),
            meant=tuple(meant),
        )

    def body(
        self, use: Use, operation: Operation, responses: list[tuple[str, str, Any]], pointer: str
    ) -> Iterator[Problem]:
        document = operation.document
        schemas: list[Site] = []
        for _code, at, response in responses:
            found = _response_schemas(document.data, response, at)
            if found is None:
                return  # a media type whose schema is in another file, or none given
            schemas.extend(Site(document, p, node) for p, node in found)
        codes = ", ".join(code for code, _at, _response in responses)
        if not schemas:
            if all(not _has_content(r) for _c, _a, r in responses):
                yield Problem(
                    use,
                    RESPONSE,
                    f"`{use.expression.text}`: {operation.label} declares no response body "
                    f"(responses {codes})",
                    "; declare the response's `content` schema, or read the value elsewhere",
                    related=(operation.document.location(operation.pointer, note=operation.label),),
                    silent_codes=tuple(code for code, _at, _response in responses),
                )
            return
        missing = _missing_token(self.corpus, schemas, split_pointer(pointer))
        if missing is None:
            return
        index, properties, schema_at = missing
        tokens = split_pointer(pointer)
        token = tokens[index]
        prefix = "/" + "/".join(tokens[:index]) if index else ""
        meant = near_names(token, properties)
        fix = (
            f"; did you mean `#{prefix}/{meant[0]}`?"
            if meant
            else f"; read a member the schema has there: {listed(properties, most=6)}"
            if properties
            else "; point into the response schema"
        )
        yield Problem(
            use,
            RESPONSE,
            f"`{use.expression.text}`: the response schema of {operation.label} (responses "
            f"{codes}) has no `{token}`" + (f" at `#{prefix}`" if prefix else ""),
            fix,
            related=(schema_at.location(note=f"the schema at `#{prefix}`"),),
            meant=tuple(meant),
        )


@dataclass(frozen=True)
class _Miss:
    """A name that resolves nowhere: what is wrong, the fix, the names meant."""

    problem: str
    fix: str
    meant: tuple[str, ...]


_KIND_WORDS = {
    "inputs": "component input",
    "parameters": "parameter",
    "successActions": "success action",
    "failureActions": "failure action",
}


def _api_kind(source: ResolvedSource) -> str:
    if source.is_openapi:
        return f"an OpenAPI document ({source.path})"
    return f"declared `type: {source.description.type}`"


def _arazzo_of(source: ResolvedSource) -> ArazzoDocument | None:
    if not source.checked or source.document is None:
        return None
    return arazzo_document(source.document)


def _spaced(names: list[str], rest: str, tail: str) -> bool:
    """Whether the expression, with what white space cut off after it (``tail``), names a
    declared name holding white space: `$inputs.Unit Price` reads the input `Unit Price`,
    whole or followed by a `.`, `[` or `#` part (§4.7: `name = *( CHAR )`)."""
    if not tail:
        return False
    whole = rest + tail
    return any(
        re.search(r"\s", name) is not None
        and whole.startswith(name)
        and (len(whole) == len(name) or whole[len(name)] in ".[#")
        for name in names
    )


def _longest_id(rest: str, ids: list[str]) -> str | None:
    """The longest of ``ids`` that ``rest`` is, or starts with before a ``.``."""
    matching = [i for i in ids if rest == i or rest.startswith(i + ".")]
    return max(matching, key=len) if matching else None


def _first_name(rest: str) -> str:
    """The name ``rest`` most plainly starts with (up to a ``.``, ``[`` or ``#``)."""
    return re.split(r"[.\[#]", rest, maxsplit=1)[0] or rest


def _input_names(data: Any, inputs: Any, pointer: str) -> tuple[list[str] | None, str]:
    """The property names an ``inputs`` schema declares (``allOf`` members merged, local
    ``$ref`` followed) and where; None when it takes any name or is not read here."""
    at, schema = follow_local(data, inputs, pointer)
    if not isinstance(schema, dict) or "$ref" in schema:
        return None, at
    names: list[str] = []
    for _member_at, member in [(at, schema)] + [
        follow_local(data, m, f"{at}/allOf/{i}")
        for i, m in enumerate(schema.get("allOf") or [])
        if isinstance(schema.get("allOf"), list)
    ]:
        if not isinstance(member, dict) or "$ref" in member:
            return None, at
        if _open(member) or any(k in member for k in ("oneOf", "anyOf", "if")):
            return None, at
        properties = member.get("properties")
        if isinstance(properties, dict):
            names.extend(str(p) for p in properties)
    if not names:
        return None, at  # no properties: an open schema takes any name
    return sorted(set(names)), f"{at}/properties" if "properties" in schema else at


def _scalar_schema(data: Any, inputs: Any, pointer: str) -> tuple[str, str] | None:
    """Where an ``inputs`` schema (local ``$ref`` followed), or one of its ``allOf`` members,
    says its instance is no object (``type: string``), and that type as written; None when an
    object may match. ``$inputs.<name>`` names a property (§4.7), which only an object has."""
    at, schema = follow_local(data, inputs, pointer)
    if not isinstance(schema, dict):
        return None
    members = [(at, schema)]
    listed = schema.get("allOf")
    for index, member in enumerate(listed if isinstance(listed, list) else ()):
        members.append(follow_local(data, member, f"{at}/allOf/{index}"))
    for member_at, member in members:
        kinds = member.get("type") if isinstance(member, dict) else None
        named = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
        if named and all(isinstance(k, str) for k in named) and "object" not in named:
            return f"{member_at}/type", ", ".join(f"`{k}`" for k in named)
    return None


def _open(schema: dict[str, Any]) -> bool:
    """Whether an object schema takes names it does not list."""
    extra = schema.get("additionalProperties")
    return (extra is not None and extra is not False) or "patternProperties" in schema


# --- the responses of an operation --------------------------------------------------------------


def asserted_codes(step: Step) -> set[str]:
    """The status codes a step's success criteria compare ``$statusCode`` with: the step
    succeeds on those responses (``$statusCode == 400`` in a test of an error)."""
    codes: set[str] = set()
    for criterion in step.success_criteria:
        if "$statusCode" in criterion.condition:
            codes.update(_STATUS.findall(criterion.condition))
    return codes


def _responses(
    operation: Operation, *, every: bool, also: set[str]
) -> list[tuple[str, str, Any]] | None:
    """The operation's Response Objects (local ``$ref`` followed) as (code, pointer, object):
    its 2xx ones (``2XX`` included) and those of the codes ``also`` (or of their ``4XX``
    range), unless ``every`` or it declares none of them; None when one is in another file
    (what it declares is unknown here)."""
    data = operation.document.data
    node = mapping_at(data, operation.pointer)
    responses = node.get("responses") if isinstance(node, dict) else None
    if not isinstance(responses, dict) or not responses:
        return None
    codes = [str(c) for c in responses]
    ranges = {f"{c[0]}XX" for c in also}
    success = [c for c in codes if c.startswith("2") or c in also or c.upper() in ranges]
    chosen = codes if every or not success else success
    found: list[tuple[str, str, Any]] = []
    for code in sorted(chosen):
        at, response = follow_local(
            data,
            responses.get(code, responses.get(_int(code))),
            f"{operation.pointer}/responses/{code}",
        )
        if not isinstance(response, dict) or "$ref" in response:
            return None
        found.append((code, at, response))
    return found


def _int(code: str) -> Any:
    return int(code) if code.isdigit() else code


def _has_content(response: dict[str, Any]) -> bool:
    return "content" in response or "schema" in response


def _response_schemas(data: Any, response: dict[str, Any], at: str) -> list[tuple[str, Any]] | None:
    """The schemas of a response's media types (OpenAPI 3: ``content``; Swagger 2.0:
    ``schema``); None when one has no schema or its media type is in another file."""
    if "schema" in response:
        return [(f"{at}/schema", response["schema"])]
    content = response.get("content")
    if not isinstance(content, dict):
        return []
    found: list[tuple[str, Any]] = []
    for media, item in content.items():
        item_at, media_object = follow_local(data, item, join_pointer(f"{at}/content", str(media)))
        if not isinstance(media_object, dict) or "schema" not in media_object:
            return None  # a body of any shape
        found.append((f"{item_at}/schema", media_object["schema"]))
    return found


@dataclass
class _Shape:
    """One alternative of a schema, its ``allOf`` members merged: the names it lists, its
    items, whether it takes other names (``additionalProperties``, ``patternProperties``) and
    whether it says nothing of its members at all (``{}``, ``type: object`` alone)."""

    properties: dict[str, Site]
    items: list[Site]
    open: bool
    vague: bool
    at: Site

    @property
    def loose(self) -> bool:
        """Whether anything may be at a name it does not list."""
        return self.open or self.vague


def _follow(corpus: Context, site: Site) -> Site | None:
    """The schema ``site`` leads to, its ``$ref``\\s followed through the corpus (another file
    included); None when one leads nowhere, out of the corpus or around a loop."""
    seen = {(site.document.path, site.pointer)}
    while isinstance(site.node, dict) and isinstance(site.node.get("$ref"), str):
        target = follow_once(corpus, site)
        if target is None or (target.document.path, target.pointer) in seen:
            return None
        seen.add((target.document.path, target.pointer))
        site = target
    return site


def _shapes(corpus: Context, start: Site, depth: int = 0) -> list[_Shape] | None:
    """The alternatives a schema allows (``oneOf``/``anyOf`` members each one, ``allOf``
    members merged into each); None when one is not read here (a ``$ref`` to another file, too
    deep, too many)."""
    site = _follow(corpus, start) if depth <= _MAX_DEPTH else None
    if site is None:
        return None
    at, schema = site.pointer, site.node
    document = site.document
    if isinstance(schema, bool):
        return [_Shape({}, [], schema, False, site)]
    if not isinstance(schema, dict):
        return None
    properties = schema.get("properties")
    items: list[Site] = []
    if isinstance(schema.get("items"), dict):
        items.append(Site(document, f"{at}/items", schema["items"]))
    for index, item in enumerate(_list(schema.get("prefixItems"))):
        items.append(Site(document, f"{at}/prefixItems/{index}", item))
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    named = {
        str(k): Site(document, join_pointer(f"{at}/properties", str(k)), v)
        for k, v in (properties.items() if isinstance(properties, dict) else ())
    }
    # A scalar type has no members: a pointer into it names nothing.
    scalar = bool(kinds) and all(k in _TYPES_WITHOUT_MEMBERS for k in kinds)
    shapes = [_Shape(named, items, _open(schema), not (named or items or scalar), site)]
    for index, member in enumerate(_list(schema.get("allOf"))):
        member_shapes = _shapes(corpus, Site(document, f"{at}/allOf/{index}", member), depth + 1)
        if member_shapes is None:
            return None
        shapes = [_merge(a, b) for a in shapes for b in member_shapes]
        if len(shapes) > _MAX_ALTERNATIVES:
            return None
    for keyword in ("oneOf", "anyOf"):
        alternatives: list[_Shape] = []
        for index, member in enumerate(_list(schema.get(keyword))):
            member_shapes = _shapes(
                corpus, Site(document, f"{at}/{keyword}/{index}", member), depth + 1
            )
            if member_shapes is None:
                return None
            alternatives.extend(member_shapes)
        if alternatives:
            shapes = [_merge(a, b) for a in shapes for b in alternatives]
            if len(shapes) > _MAX_ALTERNATIVES:
                return None
    return shapes


def _merge(one: _Shape, other: _Shape) -> _Shape:
    """Two schemas an instance meets both of: the names either lists; vague only when both
    are (`allOf: [{$ref: Base}, {description: ...}]` is Base's shape)."""
    properties = dict(one.properties)
    for name, value in other.properties.items():
        properties.setdefault(name, value)
    return _Shape(
        properties,
        one.items + other.items,
        one.open or other.open,
        one.vague and other.vague,
        one.at if not one.vague else other.at,
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _missing_token(
    corpus: Context, schemas: list[Site], tokens: list[str]
) -> tuple[int, list[str], Site] | None:
    """Where a JSON pointer leaves every schema: the index of the first token no alternative
    has, the names the schemas list there, and where the first of them is; None when some
    alternative holds the whole pointer or one is open (anything may be there)."""
    current = schemas
    for index, token in enumerate(tokens):
        following: list[Site] = []
        names: set[str] = set()
        unknown = False
        first_at: Site | None = None
        for schema in current:
            shapes = _shapes(corpus, schema)
            if shapes is None:
                return None
            for shape in shapes:
                first_at = first_at or shape.at
                if token in shape.properties:
                    following.append(shape.properties[token])
                elif shape.items and (token.isdigit() or token == "-"):
                    following.extend(shape.items)
                elif shape.loose:
                    unknown = True
                names.update(shape.properties)
        if unknown:
            return None
        if not following:
            return index, sorted(names), first_at or current[0]
        current = following
    return None


# --- targets and identifiers ---------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A name an action or a workflow's ``dependsOn`` gives, that names nothing."""

    arazzo: ArazzoDocument
    pointer: str  # of the field
    field: str  # "stepId" | "workflowId" | "dependsOn"
    written: str
    problem: str
    fix: str
    related: tuple[Location, ...] = ()


def unknown_targets(corpus: Context) -> Iterator[Target]:
    """The ``stepId`` and ``workflowId`` of each Success and Failure Action (§4.6.7, §4.6.8: a
    stepId of the current workflow; a workflowId of the document or, qualified, of an Arazzo
    source) and each ``dependsOn`` entry (§4.6.4) that name nothing."""
    for arazzo in arazzo_documents(corpus):
        sources = resolved_sources(corpus, arazzo)
        for name in sorted(arazzo.components.success_actions):
            yield from _action_targets(
                arazzo, sources, None, arazzo.components.success_actions[name]
            )
        for name in sorted(arazzo.components.failure_actions):
            yield from _action_targets(
                arazzo, sources, None, arazzo.components.failure_actions[name]
            )
        for workflow in arazzo.workflows:
            depends = _depends_pointers(corpus.documents[arazzo.path], workflow)
            for at, written in depends:
                yield from _workflow_target(arazzo, sources, at, "dependsOn", written)
            for action in (*workflow.success_actions, *workflow.failure_actions):
                yield from _action_targets(arazzo, sources, workflow, action)
            for step in workflow.steps:
                for action in (*step.on_success, *step.on_failure):
                    yield from _action_targets(arazzo, sources, workflow, action)


def _depends_pointers(document: Document, workflow: Workflow) -> list[tuple[str, str]]:
    holder = resolve_pointer(document.data, workflow.pointer)
    node = holder.get("dependsOn") if isinstance(holder, dict) else None
    return [
        (f"{workflow.pointer}/dependsOn/{index}", item)
        for index, item in enumerate(node if isinstance(node, list) else [])
        if isinstance(item, str)
    ]


def _action_targets(
    arazzo: ArazzoDocument,
    sources: dict[str, ResolvedSource],
    workflow: Workflow | None,
    action: Action,
) -> Iterator[Target]:
    if action.step_id and workflow is not None:
        ids = [s.step_id for s in workflow.steps if s.step_id]
        if action.step_id not in ids:
            meant = near_names(action.step_id, ids)
            yield Target(
                arazzo,
                f"{action.pointer}/stepId",
                "stepId",
                action.step_id,
                f"action `{action.name}` goes to step `{action.step_id}`, which workflow "
                f"`{workflow.workflow_id}` does not have (§4.6.7: a step of the current workflow)",
                f"; did you mean `{meant[0]}`?" if meant else f"; its steps: {listed(ids, most=6)}",
                (workflow.location,),
            )
    if action.workflow_id:
        yield from _workflow_target(
            arazzo, sources, f"{action.pointer}/workflowId", "workflowId", action.workflow_id,
            f"action `{action.name}`",
        )  # fmt: skip


def _workflow_target(
    arazzo: ArazzoDocument,
    sources: dict[str, ResolvedSource],
    pointer: str,
    field_name: str,
    written: str,
    who: str = "",
) -> Iterator[Target]:
    qualified = _QUALIFIED.match(written)
    holder = arazzo
    identifier = written
    if qualified is not None:
        source = sources.get(qualified.group(1))
        if source is None:
            names = sorted(sources)
            meant = near_names(qualified.group(1), names)
            yield Target(
                arazzo,
                pointer,
                field_name,
                written,
                f"{who or field_name} `{written}`: the document declares no source description "
                f"`{qualified.group(1)}`",
                f"; did you mean `{meant[0]}`?"
                if meant
                else f"; its sources: {listed(names, most=6)}",
            )
            return
        other = _arazzo_of(source)
        if other is None:
            if source.holds_no_workflows:
                local = [w.workflow_id for w in arazzo.workflows if w.workflow_id]
                name = qualified.group(2)
                meant = [name] if name in local else near_names(name, local)
                yield Target(
                    arazzo,
                    pointer,
                    field_name,
                    written,
                    f"{who or field_name} `{written}`: source `{source.description.name}` is "
                    f"{_api_kind(source)}, which holds no workflows (Arazzo 1.0.1 §4.6.3: "
                    "workflows are in `arazzo` sources)",
                    f"; did you mean `{meant[0]}` of this document?"
                    if meant
                    else "; name a workflow of this document or of an Arazzo source",
                    (source.description.location,),
                )
            return  # not read, or no Arazzo document (arazzo-unresolved-source's)
        holder, identifier = other, qualified.group(2)
    if holder.workflow(identifier) is not None:
        return
    ids = [w.workflow_id for w in holder.workflows if w.workflow_id]
    meant = near_names(identifier, ids)
    yield Target(
        arazzo,
        pointer,
        field_name,
        written,
        f"{who or field_name} `{written}`: {holder.path} has no workflow `{identifier}`",
        f"; did you mean `{meant[0]}`?" if meant else f"; its workflows: {listed(ids, most=6)}",
        tuple(w.location for w in holder.workflows if w.workflow_id in meant[:1]),
    )


@dataclass(frozen=True)
class Duplicate:
    """A stepId, workflowId or source description name given twice where it must be unique."""

    arazzo: ArazzoDocument
    what: str  # "stepId" | "workflowId" | "source description name"
    name: str
    scope: str  # "workflow `x`" | "the document"
    repeat: Location
    first: Location


def duplicate_ids(arazzo: ArazzoDocument) -> Iterator[Duplicate]:
    """Each repeat of a workflowId (§4.6.4: unique among the document's workflows), a stepId
    (§4.6.5: unique within its workflow) or a source description name (§4.6.3: unique)."""
    named = [(s.name, s.location) for s in arazzo.source_descriptions]
    yield from _repeats(arazzo, "source description name", "the document", named)
    # In document order: a workflow's repeat, then its steps' repeats.
    flows = [(w.workflow_id, w.location) for w in arazzo.workflows]
    repeated = {d.repeat: d for d in _repeats(arazzo, "workflowId", "the document", flows)}
    for workflow in arazzo.workflows:
        if workflow.location in repeated:
            yield repeated[workflow.location]
        steps = [(s.step_id, s.location) for s in workflow.steps]
        yield from _repeats(arazzo, "stepId", f"workflow `{workflow.workflow_id}`", steps)


def _repeats(
    arazzo: ArazzoDocument, what: str, scope: str, named: list[tuple[str, Location]]
) -> Iterator[Duplicate]:
    """Each later place of a name given first at another (an empty name is no name)."""
    seen: dict[str, Location] = {}
    for name, location in named:
        if name in seen:
            yield Duplicate(arazzo, what, name, scope, location, seen[name])
        elif name:
            seen[name] = location
