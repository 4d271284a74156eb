"""An Arazzo workflowId, stepId or source description name given twice where it must be unique.

What it does
    Reports each repeat of a `workflowId` among the document's workflows (Arazzo 1.0.1
    §4.6.4: unique amongst all workflows described in the document), of a `stepId` within its
    workflow (§4.6.5: unique amongst all steps described in the workflow), and of a source
    description `name` (§4.6.3: a unique name). The finding is at the repeat, the first
    occurrence related.

Why is this bad?
    Every reference to the name (`$steps.<id>.outputs`, a `goto`, a `workflowId`,
    `$sourceDescriptions.<name>`) can mean either: a runner picks one, and which one differs
    between tools, so the workflow does what its author did not read.

Example
    ::

        steps:
          - {stepId: find, operationId: findPets}
          - {stepId: find, operationId: getPet}

    FAIL: stepId `find` is given twice in workflow `adopt`.

Use instead
    ::

          - {stepId: find, operationId: findPets}
          - {stepId: read, operationId: getPet}

    PASS.

Options
    None.

Limitations
    A missing or non-string id is `arazzo-invalid`'s; ids are compared as written (letter
    case counts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo_expressions import duplicate_ids
from speclint.common.findings import Finding, Severity
from speclint.model.arazzo import arazzo_documents

ID = "arazzo-duplicate-id"
SEVERITY = Severity.ERROR


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for arazzo in arazzo_documents(corpus):
        duplicates = list(duplicate_ids(arazzo))
        # Each repeat is a finding; the message says how often the name is given in all.
        given = Counter((d.what, d.scope, d.name) for d in duplicates)
        for duplicate in duplicates:
            times = given[(duplicate.what, duplicate.scope, duplicate.name)] + 1
            how = "twice" if times == 2 else f"{times} times"
            either = "either" if times == 2 else "any of them"
            yield Finding(
                ID,
                SEVERITY,
                f"{duplicate.what} `{duplicate.name}` is given {how} in {duplicate.scope}: "
                f"every reference to it can mean {either}; rename one",
                duplicate.repeat,
                related=(replace(duplicate.first, note="the first"),),
                key=f"{duplicate.what}:{duplicate.scope}:{duplicate.name}:{duplicate.repeat.pointer}",
            )
