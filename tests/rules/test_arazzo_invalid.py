"""arazzo-invalid: an Arazzo document against the official Arazzo 1.0 schema (issue 49, item 1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import (
    PETS,
    PLACE,
    flows_expressions,
    lend,
)

from conftest import run_rule, write_files
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


HEAD = """\
arazzo: 1.0.1
info: {title: Adopt a pet, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ./pets.yaml, type: openapi}
workflows:
  - workflowId: adopt
    steps:
"""


def test_a_step_naming_two_operations_is_reported_at_the_step(make_corpus: MakeCorpus) -> None:
    step = (
        "      - stepId: find\n        operationId: findPet\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets/get'\n"
    )
    root = make_corpus({"adopt.arazzo.yaml": HEAD + step})
    findings = run_rule(root, "arazzo-invalid")
    assert findings, "two operations in one step pass"
    assert {f.location.pointer for f in findings} == {"/workflows/0/steps/0"}
    assert findings[0].location.line == 8
    assert "names `operationId` and `operationPath`" in findings[0].message
    root = make_corpus({"adopt.arazzo.yaml": HEAD + "      - {stepId: find, operationId: a}\n"})
    assert run_rule(root, "arazzo-invalid") == []


def test_a_member_the_specification_does_not_define_is_reported_there(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"adopt.arazzo.yaml": HEAD + "      - {stepId: find, operationId: a, retries: 3}\n"}
    )
    (finding,) = run_rule(root, "arazzo-invalid")
    assert finding.location.pointer.startswith("/workflows/0/steps/0")
    assert "retries" in finding.message


def test_a_source_name_outside_the_recommended_characters_is_a_warning(
    make_corpus: MakeCorpus,
) -> None:
    """The schema's pattern on a source name is a SHOULD of Arazzo 1.0.1 §4.6.3 (a generator
    names the source by its file path): a warning saying why it matters, not an error; a
    MUST of the schema next to it stays an error."""
    head = HEAD.replace("{name: pets, url", "{name: api/pets.yaml, url")
    root = make_corpus(
        {"adopt.arazzo.yaml": head + "      - {stepId: find, operationId: a, retries: 3}\n"}
    )
    name, member = sorted(run_rule(root, "arazzo-invalid"), key=lambda f: f.location.line)
    assert name.location.pointer == "/sourceDescriptions/0/name"
    assert name.severity.name == "WARNING"
    assert "recommends letters, digits" in name.message
    assert member.severity.name == "ERROR"


def test_a_later_release_is_not_checked_and_a_wrong_version_is_reported(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"adopt.arazzo.yaml": HEAD.replace("1.0.1", "1.1.0") + "      - 3\n"})
    (note,) = run_rule(root, "arazzo-invalid")
    assert note.coverage == "no-schema" and "1.1.0" in note.message
    root = make_corpus({"adopt.arazzo.yaml": HEAD.replace("1.0.1", "latest") + "      - 3\n"})
    (finding,) = run_rule(root, "arazzo-invalid")
    assert finding.location.pointer == "/arazzo" and finding.coverage is None


# A step calling operation `a`; `actions` writes its success or failure actions after it.
STEP = "      - stepId: find\n        operationId: a\n"


def actions(member: str, *items: str) -> str:
    return STEP + f"        {member}:\n" + "".join(f"          - {item}\n" for item in items)


def test_a_retry_without_a_step_or_workflow_retries_the_step_341(make_corpus: MakeCorpus) -> None:
    """The published schema demands `stepId` or `workflowId` of a retry (OAI/Arazzo-Specification
    #341); §4.6.8 retries the current step without one."""
    step = actions("onFailure", "{name: again, type: retry, retryAfter: 1, retryLimit: 3}")
    root = make_corpus({"adopt.arazzo.yaml": HEAD + step})
    assert run_rule(root, "arazzo-invalid") == []


def test_a_retry_without_retry_after_is_valid_342(make_corpus: MakeCorpus) -> None:
    """The published schema requires `retryAfter` on a retry (#342); §4.6.8 does not."""
    step = actions("onFailure", "{name: again, type: retry, stepId: find, retryLimit: 2}")
    components = "components:\n  failureActions:\n    later: {name: later, type: retry}\n"
    root = make_corpus({"adopt.arazzo.yaml": HEAD + step + components})
    assert run_rule(root, "arazzo-invalid") == []


def test_a_criterion_type_given_as_an_expression_type_object_is_valid_336(
    make_corpus: MakeCorpus,
) -> None:
    """`type: {type: jsonpath, version: ...}` is a Criterion Expression Type Object (§4.6.10),
    which the published schema applied to the Criterion itself (#336); what the text forbids
    (an unknown type, a JSONPath version that does not exist) is still reported."""
    criterion = (
        "        successCriteria:\n"
        "          - context: $response.body\n"
        "            condition: $[?(@.name)]\n"
        "            type: {type: jsonpath, version: draft-goessner-dispatch-jsonpath-00}\n"
    )
    root = make_corpus({"adopt.arazzo.yaml": HEAD + STEP + criterion})
    assert run_rule(root, "arazzo-invalid") == []
    for wrong in ("{type: jsonpath, version: rfc1}", "sql"):
        text = (
            HEAD
            + STEP
            + criterion.replace(
                "{type: jsonpath, version: draft-goessner-dispatch-jsonpath-00}", wrong
            )
        )
        root = make_corpus({"adopt.arazzo.yaml": text})
        findings = run_rule(root, "arazzo-invalid")
        assert findings, wrong
        assert all(
            f.location.pointer.startswith("/workflows/0/steps/0/successCriteria/0")
            for f in findings
        )


def test_a_goto_naming_no_target_or_both_says_which_it_needs(make_corpus: MakeCorpus) -> None:
    """The schema's `oneOf` of `required: [workflowId]` and `required: [stepId]` named only
    `workflowId`: the message names both, and says so when both are given."""
    root = make_corpus({"adopt.arazzo.yaml": HEAD + actions("onFailure", "{name: x, type: goto}")})
    (finding,) = run_rule(root, "arazzo-invalid")
    assert finding.location.pointer == "/workflows/0/steps/0/onFailure/0"
    assert "names no `stepId` or `workflowId`" in finding.message
    step = actions("onSuccess", "{name: x, type: goto, stepId: find, workflowId: adopt}")
    (finding,) = run_rule(make_corpus({"adopt.arazzo.yaml": HEAD + step}), "arazzo-invalid")
    assert "names both `stepId` and `workflowId`" in finding.message


def test_the_schema_errata_are_those_of_the_vendored_schema() -> None:
    """Each erratum checks the member it corrects is as published, so a newer vendored schema
    (one with the fix, or changed otherwise) fails here rather than being patched blind."""
    from speclint.analyses.schemas.validation import ARAZZO_ERRATA, arazzo_schema

    schema = arazzo_schema("1.0")
    failure = schema["$defs"]["failure-action-object"]
    assert failure["allOf"][0]["if"]["properties"]["type"]["enum"] == ["goto"]
    assert len(failure["allOf"]) == 1
    assert "anyOf" not in schema["$defs"]["criterion-object"]
    assert {e.issue.rsplit("/", 1)[1] for e in ARAZZO_ERRATA["1.0"]} == {"336", "341", "342"}


def test_steps_copied_verbatim_are_arazzo_duplicate_ids_not_a_unique_items_error(
    make_corpus: MakeCorpus,
) -> None:
    """Identical step objects fail the schema's `uniqueItems` on `steps`; arazzo-duplicate-id
    reports the repeated stepId at the copy, with its fix, so the schema's error adds nothing.
    Identical items with no id (two equal `successCriteria`) are still the schema's."""
    step = "      - {stepId: find, operationId: a}\n"
    root = make_corpus({"adopt.arazzo.yaml": HEAD + step + step})
    assert run_rule(root, "arazzo-invalid") == []
    (duplicate,) = run_rule(root, "arazzo-duplicate-id")
    assert duplicate.location.pointer == "/workflows/0/steps/1"
    criteria = "        successCriteria: [{condition: $statusCode == 200}, {condition: $statusCode == 200}]\n"
    root = make_corpus(
        {"adopt.arazzo.yaml": HEAD + "      - stepId: find\n        operationId: a\n" + criteria}
    )
    (invalid,) = run_rule(root, "arazzo-invalid")
    assert "non-unique" in invalid.message


def test_an_arazzo_draft_in_a_proposals_folder_is_told_at_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    draft = (
        "arazzo: 1.0.1\ninfo: {title: Draft, version: 1.0.0}\n"
        "sourceDescriptions: [{name: pets, url: ./pets.yaml, type: openapi}]\n"
        "workflows:\n  - workflowId: adopt\n    steps:\n"
        "      - {stepId: find, operationId: a, operationPath: x}\n"
    )
    root = make_corpus({"proposals/adopt.arazzo.yaml": draft})
    findings = run_rule(root, "arazzo-invalid")
    assert findings
    assert {f.severity for f in findings} == {Severity.INFO}
    assert all("(a design record's file: a draft, not the specification)" in f.message
               for f in findings)  # fmt: skip
    root = write_files(tmp_path / "kept", {"workflows/adopt.arazzo.yaml": draft})
    assert {f.severity for f in run_rule(root, "arazzo-invalid")} == {Severity.ERROR}


HEAD_STEPS = """\
arazzo: 1.0.1
info: {title: Adopt, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ../api/pets.yaml, type: openapi}
workflows:
  - workflowId: main
    steps:
"""


def flows(steps: str, head: str = HEAD_STEPS) -> dict[str, str | bytes]:
    """The pet store at api/pets.yaml and a workflow at flows/main.arazzo.yaml with ``steps``
    (indented as list items of ``steps``)."""
    return {"api/pets.yaml": PETS, "flows/main.arazzo.yaml": head + steps}


def test_a_parameter_in_body_is_arazzo_invalids_not_an_unknown_parameter(
    make_corpus: MakeCorpus,
) -> None:
    """`in: body` is no Arazzo place (§4.6.6: path, query, header, cookie): the schema's
    finding; "takes no such parameter" would mislead (the value belongs in `requestBody`)."""
    root = make_corpus(
        flows(
            "      - stepId: add\n        operationId: addPet\n"
            "        parameters: [{name: pet, in: body, value: {name: Rex}}]\n"
        )
    )
    assert run_rule(root, "arazzo-unknown-parameter") == []
    (invalid,) = run_rule(root, "arazzo-invalid")
    assert invalid.location.pointer == "/workflows/0/steps/0/parameters/0/in"


def test_output_names_outside_the_pattern_are_reported_at_the_output(
    make_corpus: MakeCorpus,
) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          book id: $response.body#/id
          book.id-2_x: $response.body#/id
    outputs:
      'copies/left': $steps.add.outputs.book.id-2_x
"""
    found = run_rule(make_corpus(lend(steps)), "arazzo-invalid")
    assert [(f.location.pointer, f.location.line) for f in found] == [
        ("/workflows/0/steps/0/outputs/book id", 11),
        ("/workflows/0/outputs/copies~1left", 14),
    ]
    assert "rename it `book_id`" in found[0].message
    assert "§4.6.5" in found[0].message and "§4.6.4" in found[1].message


def test_a_constant_output_value_is_reported(make_corpus: MakeCorpus) -> None:
    steps = """\
    steps:
      - stepId: add
        operationId: addBook
        outputs:
          state: Done
          id: '{$response.body#/id}'
    outputs:
      status: success
      book: 'book {$steps.add.outputs.id}'
"""
    found = run_rule(make_corpus(lend(steps)), "arazzo-invalid")
    assert [f.location.pointer for f in found] == [
        "/workflows/0/steps/0/outputs/state",
        "/workflows/0/outputs/status",
    ]
    assert "the constant `Done`, not a runtime expression" in found[0].message


def test_names_holding_spaces_resolve_as_declared_and_prose_after_a_name_does_not(
    make_corpus: MakeCorpus,
) -> None:
    """`$inputs.Unit Price` reads the input `Unit Price` (§4.7: `name = *( CHAR )`), and
    `$steps.place.outputs.Order (id)` the output so named (its name is arazzo-invalid's to
    judge, once); white space still ends a name nothing declares (`Unit Cost`)."""
    steps = PLACE.replace(
        "        outputs:", "        outputs:\n          'Order (id)': $response.body#/orderId"
    ) + (
        "      - stepId: read\n        operationId: getOrder\n        parameters:\n"
        "          - {name: id, in: path, value: '$steps.place.outputs.Order (id)'}\n"
        "          - {name: q, in: query, value: '$inputs.Unit Price'}\n"
        "          - {name: r, in: query, value: '{$inputs.Unit Price}'}\n"
        "          - {name: s, in: query, value: '$inputs.Unit Cost'}\n"
    )
    files = flows_expressions(steps)
    files["flows/buy.arazzo.yaml"] = str(files["flows/buy.arazzo.yaml"]).replace(
        "        sku: {type: string}\n", "        sku: {type: string}\n        Unit Price: {}\n"
    )
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-expression")
    assert finding.location.pointer == "/workflows/0/steps/1/parameters/3/value"
    assert "has no input `Unit`" in finding.message
