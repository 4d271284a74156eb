"""`speclint changes` says what an API change breaks in the corpus's Arazzo workflows (issue 49,
item 6): ``speclint.analyses.changes.workflow_changes``, on fixtures written here."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import cli
from test_diff_base import git

from conftest import write_files
from speclint.analyses.changes.contract_change import Change
from speclint.analyses.changes.proto_changes import contract_changes
from speclint.analyses.changes.workflow_changes import workflow_changes
from speclint.analyses.context import Context

API = """\
openapi: 3.1.0
info: {title: Runs, version: 1.0.0}
paths:
  /runs/{runId}/cancel:
    post:
      operationId: cancelRun
      parameters:
        - {name: runId, in: path, required: true, schema: {type: string}}
        - {name: force, in: query, schema: {type: boolean}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                reason: {type: string}
                notify: {type: boolean}
      responses:
        "200":
          description: cancelled
          headers:
            X-Request-Id: {schema: {type: string}}
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Run"}
  /health:
    get:
      operationId: health
      responses:
        "200": {description: ok}
components:
  schemas:
    Run:
      type: object
      properties:
        id: {type: string}
        status: {type: string}
        owner:
          type: object
          properties:
            name: {type: string}
"""

WORKFLOW = """\
arazzo: 1.0.1
info: {title: Cancel a run, version: 1.0.0}
sourceDescriptions:
  - name: runs
    url: ../openapi.yaml
    type: openapi
workflows:
  - workflowId: cancel
    inputs: {type: object, properties: {runId: {type: string}}}
    steps:
      - stepId: cancel-run
        operationId: cancelRun
        parameters:
          - {name: runId, in: path, value: $inputs.runId}
          - {name: force, in: query, value: true}
        requestBody:
          contentType: application/json
          payload: {reason: user asked}
        successCriteria:
          - condition: $statusCode == 200
          - condition: $response.body#/status == 'cancelled'
        outputs:
          owner: $response.body#/owner/name
          request: $response.header.X-Request-Id
"""

FLOW = "workflows/cancel.arazzo.yaml"


def compared(
    api: tuple[str, str] | None = None, flow: tuple[str, str] | None = None, *more: tuple[str, str]
) -> list[Change]:
    """The workflow changes from the fixture to it with each (old, new) edit applied: the API
    document's, the workflow's, and further API edits."""
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW})
    texts = {"openapi.yaml": API, FLOW: WORKFLOW}
    for path, edit in (("openapi.yaml", api), (FLOW, flow), *(("openapi.yaml", e) for e in more)):
        if edit is not None:
            assert edit[0] in texts[path], edit[0]
            texts[path] = texts[path].replace(*edit)
    return workflow_changes(base, Context.from_texts(texts))


RENAME = ("operationId: cancelRun", "operationId: cancelARun")
NO_FORCE = ("        - {name: force, in: query, schema: {type: boolean}}\n", "")
NO_STATUS = ("        status: {type: string}\n", "")


def two_commits(tmp_path: Path, *edits: tuple[str, str, str]) -> Path:
    """A repository whose base commit is the fixture and whose head applies each (file, old,
    new) edit."""
    repo = write_files(tmp_path / "repo", {"openapi.yaml": API, FLOW: WORKFLOW})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for path, old, new in edits:
        text = (repo / path).read_text()
        assert old in text, old
        (repo / path).write_text(text.replace(old, new))
    git(repo, "commit", "-q", "-am", "head")
    return repo


def listed(repo: Path) -> list[str]:
    result = cli("changes", ".", "--diff-base", "HEAD~1", cwd=repo)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


# --- on two-commit repositories -------------------------------------------------------------


def test_an_operation_id_renamed_under_a_workflow_is_breaking_for_its_step(tmp_path: Path) -> None:
    lines = listed(two_commits(tmp_path, ("openapi.yaml", *RENAME)))
    (at,) = [i for i, line in enumerate(lines) if "[workflow operation renamed]" in line]
    line = lines[at]
    assert line.startswith("openapi.yaml:6:7: breaking [workflow operation renamed] ")
    assert "is now `cancelARun` (operationId `cancelRun` renamed)" in line
    assert "step `cancel-run` of workflow `cancel` (`workflows/cancel.arazzo.yaml`)" in line
    assert "write `operationId: cancelARun` in the step" in line
    assert lines[at + 1] == (
        "    related: workflows/cancel.arazzo.yaml:11:9 step `cancel-run` of workflow `cancel`"
    )


def test_an_operation_id_renamed_with_the_workflow_updated_breaks_no_workflow(
    tmp_path: Path,
) -> None:
    repo = two_commits(tmp_path, ("openapi.yaml", *RENAME), (FLOW, *RENAME))
    assert not [line for line in listed(repo) if "workflow" in line]


def test_a_parameter_a_step_passes_removed_is_breaking_for_the_step(tmp_path: Path) -> None:
    lines = listed(two_commits(tmp_path, ("openapi.yaml", *NO_FORCE)))
    (line,) = [line for line in lines if "[workflow parameter removed]" in line]
    assert line.startswith("openapi.yaml:7:7: breaking [workflow parameter removed] ")
    assert "parameter `force` (in: query) was removed from `POST /runs/{runId}/cancel`" in line
    assert "step `cancel-run` of workflow `cancel`" in line
    related = lines[lines.index(line) + 1 : lines.index(line) + 3]
    assert related == [
        "    related: workflows/cancel.arazzo.yaml:11:9 step `cancel-run` of workflow `cancel`",
        "    related: workflows/cancel.arazzo.yaml:15:13 passes `force`",
    ]


def test_a_response_property_a_step_reads_removed_is_breaking_for_the_step(tmp_path: Path) -> None:
    lines = listed(two_commits(tmp_path, ("openapi.yaml", *NO_STATUS)))
    (line,) = [line for line in lines if "[workflow response property removed]" in line]
    # At the schema that no longer has it (the component the response's `$ref` leads to).
    assert line.startswith("openapi.yaml:35:7: breaking [workflow response property removed] ")
    assert "response property `/status` of `POST /runs/{runId}/cancel`" in line
    assert "reads `$response.body#/status`" in line
    assert any("[property removed]" in other for other in lines)  # the schema diff says it too


def test_an_operation_no_workflow_calls_removed_says_nothing_of_workflows(tmp_path: Path) -> None:
    removed = "  /health:\n    get:\n      operationId: health\n      responses:\n"
    lines = listed(
        two_commits(tmp_path, ("openapi.yaml", removed + '        "200": {description: ok}\n', ""))
    )
    assert [line.split(" [")[1].split("]")[0] for line in lines if " [" in line] == [
        "operation removed"
    ]
    assert "related:" not in "\n".join(lines)


def test_the_gate_reports_list_the_workflow_change_with_its_step(tmp_path: Path) -> None:
    repo = two_commits(tmp_path, ("openapi.yaml", *RENAME))
    result = cli("check", ".", "--no-cache", "--diff-base", "HEAD~1", "--format", "json", cwd=repo)
    assert result.returncode in (0, 1), result.stderr
    (change,) = json.loads(result.stdout)["gate"]["changes"]
    assert (change["kind"], change["effect"], change["role"]) == (
        "workflow operation renamed",
        "breaking",
        "workflow",
    )
    assert change["what"] == (
        "`workflows/cancel.arazzo.yaml` step `cancel-run` → `cancelRun`: `cancelRun` renamed "
        "`cancelARun`"
    )
    assert change["location"]["path"] == "openapi.yaml"
    assert change["location"]["pointer"] == "/paths/~1runs~1{runId}~1cancel/post/operationId"
    assert change["base_location"]["path"] == "openapi.yaml"
    assert [(r["path"], r["line"], r["pointer"]) for r in change["related"]] == [
        (FLOW, 11, "/workflows/0/steps/0")
    ]
    markdown = cli(
        "check", ".", "--no-cache", "--diff-base", "HEAD~1", "--format", "markdown", cwd=repo
    )
    rows = [line for line in markdown.stdout.splitlines() if line.startswith("| `openapi.yaml")]
    assert (
        len(rows) == 1 and "step `cancel-run`" in rows[0] and "**breaking** (workflow)" in rows[0]
    )


# --- the cases, in memory --------------------------------------------------------------------


def kinds(changes: list[Change]) -> list[str]:
    return [c.kind for c in changes]


def test_nothing_changed_is_no_workflow_change() -> None:
    assert compared() == []


def test_a_parameter_the_workflow_drops_alongside_breaks_nothing() -> None:
    assert compared(NO_FORCE, ("          - {name: force, in: query, value: true}\n", "")) == []


def test_a_parameter_moved_to_another_place_says_where_it_is_now() -> None:
    (change,) = compared(("{name: force, in: query,", "{name: force, in: header,"))
    assert change.kind == "workflow parameter removed"
    assert "it is now in `header`: write `in: header` in the step" in change.description


def test_a_parameter_the_base_lacked_too_is_not_a_change() -> None:
    flow = ("value: true}\n", "value: true}\n          - {name: dryRun, in: query, value: true}\n")
    assert compared(NO_FORCE, flow) == compared(NO_FORCE)


def test_a_request_property_the_payload_sets_removed_is_breaking() -> None:
    (change,) = compared(("                reason: {type: string}\n", ""))
    assert change.kind == "workflow request property removed"
    assert "request property `/reason`" in change.description
    assert change.location.pointer == (
        "/paths/~1runs~1{runId}~1cancel/post/requestBody/content/application~1json/schema"
        "/properties"
    )
    assert change.related[-1].pointer == "/workflows/0/steps/0/requestBody"


def test_a_request_property_the_payload_does_not_set_removed_breaks_no_workflow() -> None:
    assert compared(("                notify: {type: boolean}\n", "")) == []


def test_a_nested_response_property_read_by_an_output_removed_is_breaking() -> None:
    (change,) = compared(
        ("            name: {type: string}\n", "            nick: {type: string}\n")
    )
    assert change.kind == "workflow response property removed"
    assert "`/owner/name`" in change.description
    assert change.location.pointer == "/components/schemas/Run/properties/owner/properties"
    assert change.base is not None
    assert change.base.pointer == "/components/schemas/Run/properties/owner/properties/name"
    assert change.related[-1].pointer == "/workflows/0/steps/0/outputs/owner"


def test_a_response_header_read_by_an_output_removed_is_breaking() -> None:
    (change,) = compared(("X-Request-Id: {schema", "X-Trace-Id: {schema"))
    assert change.kind == "workflow response header removed"
    assert "`$response.header.X-Request-Id`" in change.description


def test_a_response_header_renamed_only_in_letter_case_is_the_same_header() -> None:
    assert compared(("X-Request-Id: {schema", "x-request-id: {schema")) == []


def test_an_operation_removed_under_a_workflow_is_breaking_for_its_step() -> None:
    old = API[API.index("  /runs/{runId}/cancel:") : API.index("  /health:")]
    (change,) = compared((old, ""))
    assert change.kind == "workflow operation removed"
    assert "`POST /runs/{runId}/cancel` was removed from `openapi.yaml`" in change.description
    assert change.location.pointer == "/paths/~1runs~1{runId}~1cancel/post"


def test_an_operation_path_whose_operation_moved_names_the_new_path() -> None:
    flow = (
        "operationId: cancelRun",
        "operationPath: '{$sourceDescriptions.runs.url}#/paths/~1runs~1{runId}~1cancel/post'",
    )
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW.replace(*flow)})
    head = Context.from_texts(
        {
            "openapi.yaml": API.replace("/runs/{runId}/cancel:", "/runs/{runId}/stop:"),
            FLOW: WORKFLOW.replace(*flow),
        }
    )
    (change,) = workflow_changes(base, head)
    assert change.kind == "workflow operation removed"
    assert "operationId `cancelRun` is now `POST /runs/{runId}/stop`" in change.description


def test_an_operation_id_dropped_says_to_call_it_by_path() -> None:
    (change,) = compared(("      operationId: cancelRun\n", ""))
    assert change.kind == "workflow operation removed"
    assert "no longer has an operationId" in change.description
    assert "call it by `operationPath`" in change.description


def test_a_step_edited_to_call_another_operation_is_the_workflows_own_change() -> None:
    assert compared(NO_FORCE, ("operationId: cancelRun", "operationId: health")) == []


def test_a_source_removed_with_its_operations_breaks_the_step() -> None:
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW})
    (change,) = workflow_changes(base, Context.from_texts({FLOW: WORKFLOW}))
    assert change.kind == "workflow operation removed"
    assert "`openapi.yaml` was removed" in change.description


def test_workflow_changes_are_contract_changes() -> None:
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW})
    head = Context.from_texts({"openapi.yaml": API.replace(*RENAME), FLOW: WORKFLOW})
    assert [c.kind for c in contract_changes(base, head)] == ["workflow operation renamed"]


def test_a_qualified_operation_id_renamed_is_named_qualified_in_the_fix() -> None:
    qualified = ("operationId: cancelRun", "operationId: $sourceDescriptions.runs.cancelRun")
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW.replace(*qualified)})
    head = Context.from_texts(
        {"openapi.yaml": API.replace(*RENAME), FLOW: WORKFLOW.replace(*qualified)}
    )
    (change,) = workflow_changes(base, head)
    assert "write `operationId: $sourceDescriptions.runs.cancelARun`" in change.description


def test_a_workflow_level_parameter_removed_breaks_each_step() -> None:
    flow = (
        "    steps:\n",
        "    parameters:\n      - {name: X-Tenant, in: header, value: acme}\n    steps:\n",
    )
    header = (
        "        - {name: force, in: query, schema: {type: boolean}}\n",
        "        - {name: force, in: query, schema: {type: boolean}}\n"
        "        - {name: x-tenant, in: header, schema: {type: string}}\n",
    )
    base = Context.from_texts({"openapi.yaml": API.replace(*header), FLOW: WORKFLOW.replace(*flow)})
    head = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW.replace(*flow)})
    (change,) = workflow_changes(base, head)
    assert change.kind == "workflow parameter removed"
    assert "parameter `X-Tenant` (in: header)" in change.description
    assert change.related[-1].pointer == "/workflows/0/parameters/0"


def test_a_payload_written_as_a_json_template_is_read_as_json() -> None:
    template = (
        "payload: {reason: user asked}",
        'payload: \'{"reason": "user asked", "by": {$inputs.runId}}\'',
    )
    base = Context.from_texts({"openapi.yaml": API, FLOW: WORKFLOW.replace(*template)})
    head = Context.from_texts(
        {
            "openapi.yaml": API.replace("                reason: {type: string}\n", ""),
            FLOW: WORKFLOW.replace(*template),
        }
    )
    assert [c.kind for c in workflow_changes(base, head)] == ["workflow request property removed"]


def test_a_response_schema_in_another_file_is_followed() -> None:
    run = "type: object\nproperties:\n  id: {type: string}\n  status: {type: string}\n"
    api = API.replace('"#/components/schemas/Run"', "schemas/run.yaml")
    base = Context.from_texts({"openapi.yaml": api, "schemas/run.yaml": run, FLOW: WORKFLOW})
    head = Context.from_texts(
        {
            "openapi.yaml": api,
            "schemas/run.yaml": run.replace("  status: {type: string}\n", ""),
            FLOW: WORKFLOW,
        }
    )
    (change,) = workflow_changes(base, head)
    assert change.kind == "workflow response property removed"
    assert (change.location.path, change.location.pointer) == ("schemas/run.yaml", "/properties")


def test_a_response_header_removed_is_located_where_the_head_lost_it() -> None:
    (change,) = compared(("X-Request-Id: {schema", "X-Trace-Id: {schema"))
    assert change.location.pointer == "/paths/~1runs~1{runId}~1cancel/post/responses/200/headers"
    assert change.base is not None and change.base.pointer.endswith("/headers/X-Request-Id")
