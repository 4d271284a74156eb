"""``arazzo-unresolved-operation`` on fixtures written here, one test a case, named after it. The
rule: an Arazzo step whose `operationId`, `operationPath` or `workflowId` names nothing its"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_arazzo_response_pointer import HEAD, PETS, flows

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.workflows.arazzo import RESOLVED, UNCHECKED, step_bindings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_source_naming_no_file_names_the_document_meant(make_corpus: MakeCorpus) -> None:
    files = flows("      - {stepId: find, operationId: getPet}\n", HEAD.replace("../api/", "./"))
    root = make_corpus(files)
    (finding,) = run_rule(root, "arazzo-unresolved-source")
    assert finding.location.pointer == "/sourceDescriptions/0/url"
    assert finding.location.line == 4
    assert "flows/pets.yaml" in finding.message and "`api/pets.yaml`" in finding.message
    assert [r.path for r in finding.related] == ["api/pets.yaml"]
    # One defect, one finding: the step calling that source is not reported again.
    assert run_rule(root, "arazzo-unresolved-operation") == []


def test_a_remote_source_is_a_coverage_note_not_a_finding(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace("../api/pets.yaml", "https://example.com/pets.yaml")
    root = make_corpus(flows("      - {stepId: find, operationId: nope}\n", head))
    (note,) = run_rule(root, "arazzo-unresolved-source")
    assert note.coverage == "arazzo-remote-source"
    (binding,) = step_bindings(Context.load(root))
    assert binding.status == UNCHECKED
    assert run_rule(root, "arazzo-unresolved-operation") == []


def test_an_operation_id_in_the_wrong_case_names_the_operation_meant(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(flows("      - {stepId: find, operationId: getpet}\n"))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/0/operationId"
    assert "did you mean `getPet` (GET /pets/{petId})" in finding.message
    assert [(r.path, r.line) for r in finding.related] == [("api/pets.yaml", 21)]


def test_a_qualified_operation_id_resolves_in_its_source(make_corpus: MakeCorpus) -> None:
    steps = (
        "      - {stepId: a, operationId: $sourceDescriptions.pets.addPet}\n"
        "      - {stepId: b, operationId: $sourceDescriptions.pet.addPet}\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/1/operationId"
    assert "no source description named `pet`" in finding.message
    assert "did you mean `pets`" in finding.message
    first = step_bindings(Context.load(root))[0]
    assert first.operation is not None and first.operation.label == "POST /pets"
    assert first.evidence == "operationId `addPet` of api/pets.yaml"


def test_a_source_name_for_its_url_in_operation_paths_is_one_warning_per_document(
    make_corpus: MakeCorpus,
) -> None:
    """`pets#/paths/~1pets/get` (a generator's form) for `{$sourceDescriptions.pets.url}#...`:
    every step of the document written so is one warning at the first, the others related,
    and each step is bound to its operation."""
    steps = (
        "      - {stepId: a, operationPath: 'pets#/paths/~1pets/get'}\n"
        "      - {stepId: b, operationPath: 'pets#/paths/~1pets~1{petId}/get'}\n"
        "      - {stepId: c, operationPath: 'pets#/paths/~1pets/put'}\n"
    )
    root = make_corpus(flows(steps))
    warning, error = sorted(
        run_rule(root, "arazzo-unresolved-operation"), key=lambda f: f.location.line
    )
    assert warning.severity.name == "WARNING" and error.severity.name == "ERROR"
    assert warning.location.pointer == "/workflows/0/steps/0/operationPath"
    assert "(and 1 more step of this document)" in warning.message
    assert "write `{$sourceDescriptions.pets.url}#/paths/~1pets/get`" in warning.message
    assert [r.pointer for r in warning.related][1:] == ["/workflows/0/steps/1/operationPath"]
    assert error.location.pointer == "/workflows/0/steps/2/operationPath"
    bound = [b.operation.label for b in step_bindings(Context.load(root)) if b.operation]
    assert bound == ["GET /pets", "GET /pets/{petId}"]


def test_an_operation_path_written_without_the_braces_or_url_is_one_warning_not_an_error(
    make_corpus: MakeCorpus,
) -> None:
    """`$sourceDescriptions.pets#/paths/...` and `$sourceDescriptions.pets.url#/paths/...`
    (Redocly's runner reads both) name the operation plainly: bound, and one warning saying
    how Arazzo 1.0 writes it, not an error that the operation does not exist."""
    steps = (
        "      - {stepId: a, operationPath: '$sourceDescriptions.pets#/paths/~1pets/get'}\n"
        "      - {stepId: b, operationPath: '$sourceDescriptions.pets.url#/paths/~1pets/get'}\n"
    )
    root = make_corpus(flows(steps))
    [warning] = run_rule(root, "arazzo-unresolved-operation")
    assert warning.severity.name == "WARNING"
    assert "write `{$sourceDescriptions.pets.url}#/paths/~1pets/get`" in warning.message
    bound = [b.operation.label for b in step_bindings(Context.load(root)) if b.operation]
    assert bound == ["GET /pets", "GET /pets"]


def test_a_bare_operation_id_two_sources_hold_is_ambiguous(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace(
        "workflows:", "  - {name: copy, url: ../api/copy.yaml, type: openapi}\nworkflows:"
    )
    files = flows("      - {stepId: find, operationId: getPet}\n", head)
    files["api/copy.yaml"] = PETS
    (finding,) = run_rule(make_corpus(files), "arazzo-unresolved-operation")
    assert "ambiguous" in finding.message and "$sourceDescriptions.<name>.getPet" in finding.message
    assert sorted(r.path for r in finding.related) == ["api/copy.yaml", "api/pets.yaml"]


def test_an_operation_path_with_unescaped_slashes_names_the_pointer_meant(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - stepId: list\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/pets/get'\n"
        "      - stepId: add\n"
        "        operationPath: '{$sourceDescriptions.pets.url}#/paths/~1pets/post'\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/0/operationPath"
    assert "did you mean `/paths/~1pets/get`" in finding.message
    added = step_bindings(Context.load(root))[1]
    assert added.status == RESOLVED and added.operation is not None
    assert added.operation.identifier == "addPet"


def test_a_workflow_id_resolves_locally_or_names_the_workflow_meant(
    make_corpus: MakeCorpus,
) -> None:
    steps = (
        "      - {stepId: a, workflowId: other}\n"
        "      - {stepId: b, workflowId: Other}\n"
        "  - workflowId: other\n    steps:\n      - {stepId: c, operationId: getPet}\n"
    )
    root = make_corpus(flows(steps))
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert finding.location.pointer == "/workflows/0/steps/1/workflowId"
    assert "did you mean `other`" in finding.message
    called = step_bindings(Context.load(root))[0]
    assert called.called is not None and called.called.workflow_id == "other"


def test_a_workflow_id_of_an_arazzo_source_resolves_there(make_corpus: MakeCorpus) -> None:
    head = HEAD.replace(
        "workflows:", "  - {name: shared, url: ./shared.arazzo.yaml, type: arazzo}\nworkflows:"
    )
    files = flows(
        "      - {stepId: a, workflowId: $sourceDescriptions.shared.login}\n"
        "      - {stepId: b, workflowId: $sourceDescriptions.shared.logon}\n",
        head,
    )
    files["flows/shared.arazzo.yaml"] = HEAD.replace("main", "login") + (
        "      - {stepId: c, operationId: listPets}\n"
    )
    root = make_corpus(files)
    (finding,) = run_rule(root, "arazzo-unresolved-operation")
    assert "flows/shared.arazzo.yaml has no workflow `logon`" in finding.message
    assert [r.path for r in finding.related] == ["flows/shared.arazzo.yaml"]


def test_redoclys_workflows_segment_in_a_qualified_workflow_id_is_a_warning_saying_how_to_write_it(
    make_corpus: MakeCorpus,
) -> None:
    """`$sourceDescriptions.shared.workflows.login` is Redocly Respect's form for
    `$sourceDescriptions.shared.login`: bound to the workflow, one warning with the standard
    form (not "no workflow `workflows.login`"); a `workflows.` prefix before a workflow the
    source lacks is still unresolved, and a local `workflows.x` is not read so."""
    head = HEAD.replace(
        "workflows:", "  - {name: shared, url: ./shared.arazzo.yaml, type: arazzo}\nworkflows:"
    )
    files = flows(
        "      - {stepId: a, workflowId: $sourceDescriptions.shared.workflows.login}\n"
        "      - {stepId: b, workflowId: $sourceDescriptions.shared.workflows.logon}\n"
        "      - {stepId: c, workflowId: workflows.main}\n",
        head,
    )
    files["flows/shared.arazzo.yaml"] = HEAD.replace("main", "login") + (
        "      - {stepId: c, operationId: listPets}\n"
    )
    root = make_corpus(files)
    findings = sorted(run_rule(root, "arazzo-unresolved-operation"), key=lambda f: f.location.line)
    assert [(f.location.pointer, f.severity.name) for f in findings] == [
        ("/workflows/0/steps/0/workflowId", "WARNING"),
        ("/workflows/0/steps/1/workflowId", "ERROR"),
        ("/workflows/0/steps/2/workflowId", "ERROR"),
    ]
    warning = findings[0]
    assert "names workflow `login` of flows/shared.arazzo.yaml" in warning.message
    assert "write `$sourceDescriptions.shared.login`" in warning.message
    assert [r.path for r in warning.related] == ["flows/shared.arazzo.yaml"]
    bound = step_bindings(Context.load(root))[0]
    assert bound.status == RESOLVED and bound.called is not None
    assert bound.called.workflow_id == "login"
