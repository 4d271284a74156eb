"""An Arazzo runtime expression naming an input, step, output, workflow, source or component
that the document does not declare.

What it does
    Reads every runtime expression (Arazzo 1.0.1 §4.7) of an Arazzo document: bare field values
    (`value: $inputs.petId`), expressions embedded in strings (`Bearer {$inputs.token}`),
    those inside `simple` and JSONPath conditions (§4.6.9), criterion `context` and the
    `reference` of Reusable Objects (§4.6.14). Each must name what is declared where it is
    written: `$inputs.<name>` a property of its workflow's `inputs` schema (a `$ref` to
    `components.inputs` followed); `$steps.<stepId>.outputs.<name>` a step of the same
    workflow and an output that step declares; `$workflows.<id>.outputs.<name>` (or
    `.inputs.<name>`) a workflow of the document or of an Arazzo source and what it declares;
    `$sourceDescriptions.<name>` a declared source; `$components.<kind>.<name>` a declared
    component, of the kind the reference needs (a Success Action's `reference` a
    `successActions` entry). A misspelt root (`$input.x`, `$statuscode`) is reported too,
    and so are `$inputs.<name>` where the workflow's `inputs` schema is no object
    (`type: string` has no property), `$response` in a parameter value or request body (the
    request is built before any response exists) and, in an output, a body read with a dot
    (`$response.body.id`: §4.7's body reference is `$response.body#/id`; several runners
    accept the dot, so it is one warning per document, its other places related).
    The finding is at the string holding the expression; the fix names the nearest declared
    name (letter case, word joins, close spelling). One missing name read in several places of
    a document is one finding, at the first read, the others related.

Why is this bad?
    A runner evaluates an expression that names nothing to nothing: the step sends an empty
    parameter, the workflow's output is missing, a condition compares against null and the
    workflow takes the wrong branch, all without an error at the place of the mistake.

Example
    ::

        - workflowId: adopt
          inputs:
            type: object
            properties: {petId: {type: string}}
          steps:
            - stepId: find
              operationId: getPet
              parameters:
                - {name: petId, in: path, value: $inputs.pet_id}

    FAIL: `$inputs.pet_id`: workflow `adopt` has no input `pet_id`; did you mean `petId`?

Use instead
    ::

                - {name: petId, in: path, value: $inputs.petId}

    PASS.

Options
    None.

Limitations
    The ABNF's `name` may hold any character, so a declared name matches when it is a prefix
    of what follows up to a `.`, `[` or `#` (`$inputs.page[size]` is the input
    `page[size]`, or `page` indexed). An `inputs` schema with no `properties`, or with
    `additionalProperties`, `patternProperties`, `oneOf` or `anyOf`, takes any name.
    `$outputs.*` (whose scope §4.7 leaves open) is not judged, nor `$inputs` and `$steps`
    inside `components` (the workflow they run in is not known there), nor a workflow of an
    Arazzo source that is not read. What a `$response` expression reads of the operation's
    responses is `arazzo-response-pointer`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo_expressions import NAME, Problem, expression_problems
from speclint.common.findings import Finding, Severity, headed

ID = "arazzo-unresolved-expression"
SEVERITY = Severity.ERROR
# speclint.analyses.context: response schemas are followed through the corpus's `$ref` index.
FACTS = ("references",)


# Places of a dialect's spelling listed beside the one finding of a document.
RELATED_DIALECT = 20


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    dialect: dict[str, list[Problem]] = defaultdict(list)
    # One missing name read in several places of a document is one defect (declare it, or
    # fix the one spelling): one finding at the first read, the others related.
    repeated: dict[tuple[str, str], list[Problem]] = defaultdict(list)
    for problem in expression_problems(corpus):
        if problem.concern != NAME:
            continue
        if problem.dialect:
            dialect[problem.use.arazzo.path].append(problem)
            continue
        repeated[(problem.use.arazzo.path, problem.problem)].append(problem)
    for problems in repeated.values():
        yield _finding(corpus, problems)
    for path, problems in sorted(dialect.items()):
        yield _dialect_finding(corpus, path, problems)


def _finding(corpus: Context, problems: list[Problem]) -> Finding:
    """The finding of an expression naming what is not declared, at its first read in the
    document; the other places reading the same name are related."""
    first, rest = problems[0], problems[1:]
    use = first.use
    document = corpus.documents[use.arazzo.path]
    where = f"step `{use.step.step_id}`: " if use.step is not None else ""
    more = (
        f" (read in {len(rest)} more place{'s' if len(rest) > 1 else ''}, related)" if rest else ""
    )
    return Finding(
        ID,
        SEVERITY,
        headed(f"{where}{first.problem}{more}", first.fix),
        document.location(use.pointer),
        related=(
            *first.related,
            *(
                document.location(p.use.pointer, note="read here too")
                for p in rest[:RELATED_DIALECT]
            ),
        ),
        key=f"{use.pointer}:{use.expression.text}",
    )


def _dialect_finding(corpus: Context, path: str, problems: list[Problem]) -> Finding:
    """One warning for a document's body reads with a dot (`$response.body.id`): runners that
    accept the spelling (several do) make a finding per place a flood, and the fix is one
    decision for the whole document; the other places are related locations."""
    document = corpus.documents[path]
    first, rest = problems[0], problems[1:]
    more = f" (and {len(rest)} more like it, related)" if rest else ""
    return Finding(
        ID,
        Severity.WARNING,
        headed(
            f"{first.problem}{more}; some runners read the dot, a runner that follows the "
            "specification reads nothing",
            first.fix + (" (the same for each related place)" if rest else ""),
        ),
        document.location(first.use.pointer),
        related=tuple(
            document.location(p.use.pointer, note=f"`{p.use.expression.text}`")
            for p in rest[:RELATED_DIALECT]
        ),
        key=f"dialect:{path}",
    )
