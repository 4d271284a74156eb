"""An Arazzo runtime expression naming an input, step, output, workflow, source or component
that the document does not declare.

What it does
    Reads every runtime expression (Arazzo 1.0.1 §4.7) of an Arazzo document, in values, strings
    (`Bearer {$inputs.token}`), conditions and each `reference`. Each must name what is declared
    where it is written: `$inputs.<name>` a property of its workflow's `inputs` schema;
    `$steps.<stepId>.outputs.<name>` a step of the same workflow and an output it declares;
    `$workflows.<id>.outputs.<name>` a workflow of the document or of an Arazzo source and its
    output; `$sourceDescriptions.<name>` a declared source; `$components.<kind>.<name>` a declared
    component of that kind. Also reported: a misspelt root (`$input.x`), and `$response` in a
    parameter value or request body (built before any response exists); a body read with a dot
    (`$response.body.id` for `$response.body#/id`) is one warning per document. The fix names the
    nearest declared name; one missing name read in several places is one finding, the others
    related.

Why is this bad?
    An expression that names nothing evaluates to nothing: the step sends an empty parameter, an
    output is missing, a condition compares against null and takes the wrong branch, with no error
    where the mistake is.

Example
    ::

        - workflowId: adopt
          inputs: {type: object, properties: {petId: {type: string}}}
          steps:
            - stepId: find
              operationId: getPet
              parameters: [{name: petId, in: path, value: $inputs.pet_id}]

    FAIL: `$inputs.pet_id`: workflow `adopt` has no input `pet_id`; did you mean `petId`?

Use instead
    ``value: $inputs.petId``. PASS.

Options
    None.

Limitations
    A name may hold any character (§4.7's ABNF), so a declared name matches a prefix of what
    follows (`$inputs.page[size]`). An `inputs` schema that takes any property takes any name.
    Not judged: `$outputs.*` (whose scope §4.7 leaves open), `$inputs` and `$steps` inside
    `components`, a workflow of an Arazzo source that is not read.
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
