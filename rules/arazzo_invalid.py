"""An Arazzo workflow document that fails the official Arazzo JSON Schema of its release.

What it does
    Validates each Arazzo 1.0.x document offline against the JSON Schema the OpenAPI
    Initiative publishes for Arazzo 1.0 (shipped inside speclint, see
    `speclint/data/arazzo/PROVENANCE.json`), each violation at its JSON pointer with the most
    specific reason the schema gives. An `arazzo` value that is no release number (`latest`)
    is reported. At most 50 errors are reported per document; the run says how many more.
    Two MUSTs the schema cannot express are checked too, at the output: an output name matches
    `^[a-zA-Z0-9._-]+$`, and an output value is a runtime expression (`status: success` is a
    constant; §4.6.4, §4.6.5). A source name outside `[A-Za-z0-9_-]+`, which §4.6.3
    recommends (a SHOULD), is a warning.

Why is this bad?
    Arazzo tooling (runners, documentation generators, Spectral's `spectral:arazzo` ruleset)
    refuses or misreads an invalid document, and the schema is where the specification's
    structure is machine-checkable. What the schema cannot say (an `operationId` the API does
    not have) is for the other `arazzo-*` rules.

Example
    ::

        workflows:
          - workflowId: adopt
            steps:
              - stepId: find
                operationId: findPet
                operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets/get'

    FAIL: `/workflows/0/steps/0`: a step names one operation (`operationId`,
    `operationPath` or `workflowId`), not two.

Use instead
    ::

              - stepId: find
                operationId: findPet

    PASS.

Options
    None.

Limitations
    A release speclint ships no schema for (a later 1.x) is told at `info`, not checked by any
    `arazzo-*` rule. The three known bugs of the published 1.0 schema are corrected in
    speclint's copy (OAI/Arazzo-Specification#336, #341, #342). A draft in a design folder
    (`proposals/`, `rfcs/`) or a record in an archive is told at `info`. A step copied verbatim
    is `arazzo-duplicate-id`'s finding, not a `uniqueItems` error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.schemas.validation import (
    ARAZZO_RELEASES,
    ERRORS_COUNTED,
    arazzo_judge,
    arazzo_validator,
    capped,
    judged_valid,
    located,
    standing,
)
from speclint.analyses.units import check_by_unit
from speclint.common.findings import Finding, Severity, headed
from speclint.model.arazzo import Output, arazzo_document, is_expression
from speclint.model.corpus import Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import resolve_pointer

ID = "arazzo-invalid"
SEVERITY = Severity.ERROR
# One Arazzo document at a time (speclint.analyses.units).
READS = "document"
NEEDS_INDEXES = False  # reads no shared index (speclint.run.runner.prime)
# A release as Arazzo numbers them (`1.0.1`): one whose schema is not shipped is a document not
# checked; anything else (`1.0`, `latest`) is a wrong `arazzo` value.
RELEASE = re.compile(r"^(\d+\.\d+)\.\d+(?:-.+)?$")


# What a Step Object calls: exactly one of these (Arazzo 1.0.1 §4.6.5 Fixed Fields).
_CALLS = ("operationId", "operationPath", "workflowId")


# Arazzo 1.0.1 §4.6.4 / §4.6.5 (`outputs` of a Workflow and a Step Object): "The name MUST use
# keys that match the regular expression: `^[a-zA-Z0-9\.\-_]+$`". The official schema lists
# the pattern in `patternProperties` without forbidding other keys, so it cannot see a name
# that breaks it. (The Components Object's keys, §4.6.13, the schema does check.)
OUTPUT_NAME = re.compile(r"[a-zA-Z0-9.\-_]+")
_NOT_IN_NAME = re.compile(r"[^a-zA-Z0-9.\-_]+")


_SOURCE_NAME = re.compile(r"^/sourceDescriptions/\d+/name$")
# The arrays whose items arazzo-duplicate-id tells apart by an id (Arazzo 1.0.1 §4.6.3 a source
# description's `name`, §4.6.4 a `workflowId`, §4.6.5 a `stepId`): the key that names an item.
_NAMED_ARRAYS = (
    (re.compile(r"^/sourceDescriptions$"), "name"),
    (re.compile(r"^/workflows$"), "workflowId"),
    (re.compile(r"^/workflows/\d+/steps$"), "stepId"),
)


def _repeats_named(pointer: str, node: Any) -> bool:
    """Whether the array at ``pointer`` repeats an item (the schema's `uniqueItems`) only as
    items of the same id, which arazzo-duplicate-id reports at the repeat: a step copied
    verbatim is one defect, told there."""
    key = next((k for pattern, k in _NAMED_ARRAYS if pattern.match(pointer)), None)
    if key is None or not isinstance(node, list):
        return False
    repeated = [item for i, item in enumerate(node) if item in node[:i]]
    return bool(repeated) and all(
        isinstance(item, dict) and isinstance(item.get(key), str) and item[key] for item in repeated
    )


def _called(step: Any) -> list[str]:
    return [name for name in _CALLS if name in step] if isinstance(step, dict) else []


# What the schema says of a `goto` naming neither target: "'workflowId' is a required property"
# (its first `oneOf` branch), or, where an action may be a Reusable Object too (a step's
# `onFailure`), "'reference' is a required property" (that branch).
_NAMES_TARGET = re.compile(r"[\"'](?:workflowId|stepId|reference)[\"'] is a required property")


def _goes_to(node: Any) -> list[str] | None:
    """For a `goto` action (§4.6.7, §4.6.8): the targets it names, of `stepId` and `workflowId`
    (None for anything else)."""
    if not isinstance(node, dict) or node.get("type") != "goto":
        return None
    return [name for name in ("stepId", "workflowId") if name in node]


def unit_reach(corpus: Context, document: Document) -> list[str]:
    """What one unit reads besides its document (``speclint.analyses.units``): nothing; its
    sources are other rules' concern."""
    return []


def units(corpus: Context) -> list[Document]:
    return [d for d in corpus.of_kind(DocumentKind.ARAZZO) if d.usable]


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    return check_by_unit(corpus, options, check_unit, units=units)


def check_unit(corpus: Context, document: Document, options: Mapping[str, Any]) -> list[Finding]:
    declared = str(document.data.get("arazzo", ""))
    release = RELEASE.match(declared)
    # A proposal's draft or an archived record: told, not an error (``standing``).
    severity, advice = standing(document.path, SEVERITY)
    if release is None:
        shipped = ", ".join(f"{r}.x" for r in ARAZZO_RELEASES)
        return [
            Finding(
                ID,
                severity,
                f"`arazzo: {declared}` is no Arazzo release number; declare the release the "
                f"document follows ({shipped}, such as `1.0.1`){advice}",
                document.location("/arazzo"),
                key="unknown-version",
            )
        ]
    if release.group(1) not in ARAZZO_RELEASES:
        # A release the OpenAPI Initiative publishes later, whose schema speclint does not
        # ship: not checked, which is no defect of the document.
        return [
            Finding(
                ID,
                Severity.INFO,
                f"`arazzo: {declared}`: not checked: speclint ships the official Arazzo schema of "
                f"{', '.join(f'{r}.x' for r in ARAZZO_RELEASES)} only, and no Arazzo rule judges "
                "it; the document is not known to be invalid",
                document.location("/arazzo"),
                key="not-checked",
                coverage="no-schema",
            )
        ]
    if judged_valid(arazzo_judge(release.group(1)), document.data):
        # Valid by the schema; what the specification's text says and the schema cannot check
        # still is (output names and values).
        return list(_output_text(document, severity, advice))
    validator = arazzo_validator(release.group(1))
    found = []
    for pointer, message, key in located(
        validator.iter_errors(document.data), limit=ERRORS_COUNTED
    ):
        fix = f"; fix it so the document is valid Arazzo {release.group(1)}"
        node = resolve_pointer(document.data, pointer)
        if "non-unique" in message and _repeats_named(pointer, node):
            continue  # arazzo-duplicate-id reports the repeat, at it, with its fix
        called = _called(node)
        goes_to = _goes_to(node)
        if len(called) > 1 and "oneOf" in message:
            # The schema's `oneOf` of the three kinds of step says only "2 branches match".
            message = f"the step names {' and '.join(f'`{c}`' for c in called)}"
            fix = "; a step calls one operation or workflow (Arazzo 1.0.1 §4.6.5): keep one"
        elif (
            goes_to is not None
            and len(goes_to) != 1
            and ("oneOf" in message or _NAMES_TARGET.search(message))
        ):
            # The schema's `oneOf` of `required: [workflowId]` and `required: [stepId]` names
            # only the first when neither is there, and says "valid under each" when both are.
            if len(goes_to) == 2:
                message = "the `goto` action names both `stepId` and `workflowId`"
                fix = (
                    "; it goes to one step or one workflow (Arazzo 1.0.1 §4.6.7, §4.6.8): keep one"
                )
            else:
                message = "the `goto` action names no `stepId` or `workflowId`"
                fix = (
                    "; name the step (`stepId`) or the workflow (`workflowId`) it goes to "
                    "(Arazzo 1.0.1 §4.6.7, §4.6.8)"
                )
        level = severity
        if _SOURCE_NAME.match(pointer) and "`pattern`" in message:
            # Arazzo 1.0.1 §4.6.3: the name SHOULD match `[A-Za-z0-9_\-]+` (the schema makes it
            # a pattern): a recommendation, though `$sourceDescriptions.<name>.x` cannot name
            # a source whose name holds a `.` or a `/`.
            level = min(severity, Severity.WARNING)
            fix = (
                "; Arazzo 1.0.1 §4.6.3 recommends letters, digits, `_` and `-` (a "
                "`$sourceDescriptions.<name>` expression cannot name it otherwise): rename it"
            )
        found.append(
            Finding(
                ID,
                level,
                headed(f"{pointer or '/'}: {message}", fix + advice, message),
                document.location(pointer),
                key=f"{pointer}:{key}",
            )
        )
    checked = capped(ID, document, found, f"against the Arazzo {release.group(1)} schema")
    return checked + list(_output_text(document, severity, advice))


def _output_text(document: Document, severity: Severity, advice: str) -> Iterator[Finding]:
    """What the specification's text says of `outputs` and the schema cannot check: each name
    matches ``OUTPUT_NAME``, each value is a runtime expression (§4.6.4, §4.6.5:
    `Map[string, {expression}]`; a string embedding one, `{$...}`, is one too, §4.7)."""
    arazzo = arazzo_document(document)
    if arazzo is None:
        return
    for workflow in arazzo.workflows:
        for step in workflow.steps:
            for output in step.outputs:
                yield from _output(document, output, "§4.6.5", severity, advice)
        for output in workflow.outputs:
            yield from _output(document, output, "§4.6.4", severity, advice)


def _output(
    document: Document, output: Output, section: str, severity: Severity, advice: str
) -> Iterator[Finding]:
    if not OUTPUT_NAME.fullmatch(output.name):
        renamed = _NOT_IN_NAME.sub("_", output.name).strip("_")
        yield Finding(
            ID,
            severity,
            headed(
                f"{output.pointer}: output name `{output.name}` does not match "
                f"`^[a-zA-Z0-9.\\-_]+$` (Arazzo 1.0.1 {section}: names MUST)",
                (f"; rename it `{renamed}`" if renamed else "; rename it")
                + " (letters, digits, `.`, `-`, `_`), and the expressions that read it"
                + advice,
            ),
            output.location,
            key=f"{output.pointer}:output-name",
        )
    if isinstance(output.value, str) and not is_expression(output.value):
        yield Finding(
            ID,
            severity,
            headed(
                f"{output.pointer}: output `{output.name}` is the constant `{output.value}`, "
                f"not a runtime expression (Arazzo 1.0.1 {section}: output values are)",
                "; write the expression the value is read from (`$response.body#/status`, "
                "`$steps.<stepId>.outputs.<name>`)" + advice,
            ),
            output.location,
            key=f"{output.pointer}:output-constant",
        )
