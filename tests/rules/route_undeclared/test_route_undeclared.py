"""route-undeclared (issue 46, item 7): the routes running text names, held to the OpenAPI
operations of its version."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from test_example_api_definitions import ORDERS
from test_fence_invalid import JOB

from conftest import run_cli, run_rule
from speclint.analyses.api.routes import written_shape
from speclint.common.findings import Finding
from speclint.parsing.routes import (
    curl_requests,
    request_lines,
    segments_in_text,
    sequence_steps,
    split_target,
)

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


API = """\
openapi: 3.1.0
info: {title: Jobs, version: 2.0.0}
servers:
  - url: https://api.jobs.example.net/api/v2
paths:
  /jobs:
    get: {operationId: listJobs, responses: {'200': {description: ok}}}
    post: {operationId: createJob, responses: {'201': {description: ok}}}
  /jobs/{jobId}:
    get: {operationId: getJob, responses: {'200': {description: ok}}}
    delete: {operationId: deleteJob, responses: {'204': {description: ok}}}
  /jobs/{jobId}:cancel:
    post: {operationId: cancelJob, responses: {'202': {description: ok}}}
"""


# Routes the API has, so that the page is bound to it (two of its routes, and half, found).
BOUND = """\
# Jobs

- `GET /api/v2/jobs` lists the jobs.
- `POST /api/v2/jobs` creates one.
- `GET /api/v2/jobs/{jobId}` reads one.
"""


def found(root: Path) -> list[tuple[str, int, str]]:
    return [(f.location.path, f.location.line, f.severity.label) for f in _run(root)]


def _run(root: Path) -> list[Finding]:
    return run_rule(root, "route-undeclared")


def corpus(make_corpus: MakeCorpus, page: str, path: str = "docs/jobs.md") -> Path:
    return make_corpus({"api/openapi.yaml": API, path: BOUND + "\n" + page})


def test_a_bullet_list_entry_with_another_method_names_the_right_one(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "## Endpoints\n\n- GET /jobs\n- PUT /jobs/{jobId}\n- POST /jobs\n")
    (finding,) = _run(root)
    assert (finding.location.line, finding.severity.label) == (10, "warning")
    assert "`PUT /jobs/{jobId}` is no operation of `api/openapi.yaml`" in finding.message
    assert "the nearest is `GET /jobs/{jobId}`, which is GET, DELETE" in finding.message
    assert finding.related[0].pointer == "/paths/~1jobs~1{jobId}/get"


def test_a_code_span_route_the_document_lacks_is_reported(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "Clear a job's logs with `DELETE /jobs/{id}/logs`.\n")
    (finding,) = _run(root)
    assert (finding.location.line, finding.location.column) == (7, 25)
    assert "`DELETE /jobs/{id}/logs` is no operation" in finding.message
    assert finding.severity.label == "warning"


def test_a_concrete_path_with_a_query_below_the_base_path_is_the_operation(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "Read it: `GET /api/v2/jobs/job-42?view=FULL`.\n")
    assert found(root) == []


def test_a_curl_command_to_a_wrong_path_is_reported(make_corpus: MakeCorpus) -> None:
    page = (
        "```bash\n"
        "curl -X POST https://api.jobs.example.net/api/v2/jobs/job-42/cancel \\\n"
        "  -H 'Authorization: Bearer $TOKEN'\n"
        "curl https://api.jobs.example.net/api/v2/jobs/job-42\n"
        "```\n"
    )
    (finding,) = _run(corpus(make_corpus, page))
    assert finding.location.line == 8
    assert "the nearest is `POST /jobs/{jobId}:cancel`" in finding.message
    assert "custom method as `:cancel`" in finding.message


def test_a_sequence_diagram_step_is_held_to_the_operations(make_corpus: MakeCorpus) -> None:
    page = (
        "```mermaid\nsequenceDiagram\n"
        "  Client->>API: POST /api/v2/jobs\n"
        "  API-->>Client: 201 Created\n"
        "  Client->>API: PATCH /api/v2/jobs/job-42\n"
        "```\n"
    )
    (finding,) = _run(corpus(make_corpus, page))
    assert (finding.location.line, finding.location.column) == (11, 17)
    assert "`PATCH /api/v2/jobs/job-42` is no operation" in finding.message


def test_a_route_under_a_roadmap_heading_is_no_claim(make_corpus: MakeCorpus) -> None:
    page = "## Roadmap\n\n- `PATCH /api/v2/jobs/{jobId}` to edit a job.\n"
    assert found(corpus(make_corpus, page)) == []
    page = "## Today\n\n- `PATCH /api/v2/jobs/{jobId}` to edit a job.\n"
    assert len(found(corpus(make_corpus, page))) == 1


def test_a_line_that_says_a_route_is_removed_sets_it_aside(make_corpus: MakeCorpus) -> None:
    # Read as saying it of the route (coarse, on purpose): a line's "removed" may be the logs'.
    root = corpus(make_corpus, "Logs are removed with `DELETE /jobs/{id}/logs` once read.\n")
    assert found(root) == []
    root = corpus(make_corpus, "Logs are cleared with `DELETE /jobs/{id}/logs` once read.\n")
    assert found(root) == [("docs/jobs.md", 7, "warning")]


def test_a_route_under_a_deprecated_or_known_issues_heading_is_no_claim(
    make_corpus: MakeCorpus,
) -> None:
    for heading in ("Deprecated", "Known issues"):
        page = f"## {heading}\n\n- `DELETE /api/v2/jobs/{{jobId}}/logs` clears the logs.\n"
        assert found(corpus(make_corpus, page)) == [], heading
    page = "## Logs\n\n- `DELETE /api/v2/jobs/{jobId}/logs` clears the logs.\n"
    assert found(corpus(make_corpus, page)) == [("docs/jobs.md", 9, "warning")]


def test_a_changelogs_and_a_design_folders_routes_are_no_claims(make_corpus: MakeCorpus) -> None:
    page = "- `DELETE /api/v2/jobs/{jobId}/logs` clears the logs.\n"
    for path in ("CHANGELOG.md", "design/jobs.md"):
        assert found(corpus(make_corpus, page, path)) == [], path
    assert found(corpus(make_corpus, page, "docs/logs.md")) == [("docs/logs.md", 7, "warning")]


def test_a_route_to_another_host_is_a_third_party_api(make_corpus: MakeCorpus) -> None:
    page = "```sh\ncurl -X DELETE https://hooks.partner.io/api/v2/jobs/abc\n```\n"
    assert found(corpus(make_corpus, page)) == []
    page = "```sh\ncurl -X PATCH http://localhost:8080/api/v2/jobs/abc\n```\n"
    assert len(found(corpus(make_corpus, page))) == 1


def test_a_page_in_an_rfc_folder_is_a_proposal(make_corpus: MakeCorpus) -> None:
    page = "- `PATCH /api/v2/jobs/{jobId}` edits a job.\n"
    assert found(corpus(make_corpus, page, "rfcs/0007-edit-jobs.md")) == []
    assert len(found(corpus(make_corpus, page, "guides/edit-jobs.md"))) == 1


def test_an_http_fence_request_line_is_read_with_its_host(make_corpus: MakeCorpus) -> None:
    page = "```http\nPUT /api/v2/jobs/job-42 HTTP/1.1\nHost: api.jobs.example.net\n```\n"
    (finding,) = _run(corpus(make_corpus, page))
    assert "which is GET, DELETE" in finding.message
    page = "```http\nPUT /api/v2/jobs/job-42 HTTP/1.1\nHost: api.github.com\n```\n"
    assert found(corpus(make_corpus, page)) == []


def test_a_page_that_mostly_names_another_api_is_bound_to_nothing(
    make_corpus: MakeCorpus,
) -> None:
    page = (
        "# Webhooks\n\n- `GET /hooks`\n- `POST /hooks`\n- `DELETE /jobs/{id}/logs`\n- `GET /jobs`\n"
    )
    root = make_corpus({"api/openapi.yaml": API, "docs/hooks.md": page})
    assert found(root) == []


def test_no_api_document_no_finding(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/jobs.md": BOUND + "\n- `DELETE /jobs/{id}/logs`\n"})
    assert found(root) == []


def test_another_version_prefix_is_named(make_corpus: MakeCorpus) -> None:
    (finding,) = _run(corpus(make_corpus, "Cancel with `POST /api/v1/jobs/{jobId}:cancel`.\n"))
    assert "whose base path is `/api/v2` where this says `/api/v1`" in finding.message


def test_a_route_of_no_path_the_api_starts_with_is_another_apis(make_corpus: MakeCorpus) -> None:
    assert found(corpus(make_corpus, "Get a token with `POST /oauth/token`.\n")) == []


def test_a_route_in_a_sentence_is_an_info(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "A client sends PATCH /api/v2/jobs/{jobId} to edit a job.\n")
    assert found(root) == [("docs/jobs.md", 7, "info")]


def test_a_path_alone_below_the_base_path_is_an_info(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "The logs are at `/api/v2/jobs/{jobId}/logs`.\n")
    assert found(root) == [("docs/jobs.md", 7, "info")]
    assert found(corpus(make_corpus, "See `/usr/local/bin/jobs`.\n")) == []


def test_a_table_of_methods_and_paths_is_read_row_by_row(make_corpus: MakeCorpus) -> None:
    page = "| Method | Path |\n| --- | --- |\n| GET | `/jobs` |\n| PUT | `/jobs/{jobId}` |\n"
    (finding,) = _run(corpus(make_corpus, page))
    assert (finding.location.line, finding.severity.label) == (10, "warning")


def test_head_is_served_by_get(make_corpus: MakeCorpus) -> None:
    assert found(corpus(make_corpus, "Check with `HEAD /api/v2/jobs/job-1`.\n")) == []


def test_curl_reads_the_method_from_its_options() -> None:
    text = "$ curl -sS -d '{\"a\": 1}' \\\n   http://localhost/jobs\ncurl -I /jobs\ncurl -XPUT x.io/a/b"
    assert [(r.method, r.target, r.line) for r in curl_requests(text)] == [
        ("POST", "http://localhost/jobs", 1),
        ("HEAD", "/jobs", 2),
        ("PUT", "http://x.io/a/b", 3),
    ]


def test_a_json_fence_is_read_as_requests_only_when_it_starts_with_one() -> None:
    assert [r.target for r in request_lines("json", "GET /jobs\n\n{}")] == ["/jobs"]
    assert list(request_lines("json", '{"a": "GET /jobs"}\nGET /jobs')) == []


def test_sequence_steps_and_notes() -> None:
    text = "sequenceDiagram\nA->>B: GET /a/{id}\nNote over A: POST /b\nA -> B : PUT /c"
    assert [(r.method, r.target) for r in sequence_steps(text)] == [
        ("GET", "/a/{id}"),
        ("PUT", "/c"),
    ]


def test_a_target_split_into_host_and_path() -> None:
    assert split_target("https://API.x.io:8443/v2/jobs?x=1#f") == split_target(
        "https://api.x.io/v2/jobs"
    )
    assert split_target("{{baseUrl}}/jobs").host == "{}"
    assert split_target("$API/jobs").path == "/jobs"


def test_a_word_of_a_written_template_is_no_variables_value(make_corpus: MakeCorpus) -> None:
    # `/jobs/{id}/runs` is no `/jobs/{jobId}/{x}`: a template's words are words
    page = "- `GET /jobs/{jobId}/runs`\n"
    (finding,) = _run(corpus(make_corpus, page))
    assert "`GET /jobs/{jobId}/runs` is no operation" in finding.message


def test_a_collection_named_for_its_members_operations_is_no_claim(
    make_corpus: MakeCorpus,
) -> None:
    # a sentence's "DELETE /jobs" for the operations on `/jobs/{jobId}`: the family's name
    assert found(corpus(make_corpus, "Each DELETE /api/v2/jobs call is logged.\n")) == []
    # set apart, it is a route, and the document has no operation on the collection
    (finding,) = _run(corpus(make_corpus, "- `DELETE /api/v2/jobs`\n"))
    assert "the nearest is `GET /jobs`, which is GET, POST" in finding.message
    api = API.replace(
        "  /jobs:\n    get: {operationId: listJobs, responses: {'200': {description: ok}}}\n", ""
    )
    api = api.replace(
        "    post: {operationId: createJob, responses: {'201': {description: ok}}}\n", ""
    )
    page = "- `GET /jobs/{jobId}`\n- `DELETE /jobs/{jobId}`\n- `GET /jobs`\n"
    (finding,) = _run(make_corpus({"api/openapi.yaml": api, "docs/jobs.md": page}))
    assert "the nearest is `GET /jobs/{jobId}`, which acts on one of its members" in finding.message


def test_a_sample_folders_page_and_route_patterns_are_aside(make_corpus: MakeCorpus) -> None:
    page = "- `PATCH /api/v2/jobs/{jobId}`\n"
    assert found(corpus(make_corpus, page, "examples/edit/README.md")) == []
    assert found(corpus(make_corpus, "- `PATCH /api/v2/jobs/*`\n- `POST /`\n")) == []


def test_a_custom_method_is_named_only_where_the_document_writes_one(
    make_corpus: MakeCorpus,
) -> None:
    (finding,) = _run(corpus(make_corpus, "- `POST /api/v2/jobs/job-1/pause`\n"))
    assert "nearest" not in finding.message


def test_a_prefix_the_servers_do_not_declare_is_a_deployments(make_corpus: MakeCorpus) -> None:
    api = API.replace("servers:\n  - url: https://api.jobs.example.net/api/v2\n", "")
    page = BOUND.replace("/api/v2", "") + "- `GET /v3/jobs/{jobId}`\n- `PUT /jobs/{jobId}`\n"
    root = make_corpus({"api/openapi.yaml": api, "docs/jobs.md": page})
    assert [f.location.line for f in _run(root)] == [7]


def test_bindings_lists_each_route_with_its_operation_or_why_not(make_corpus: MakeCorpus) -> None:
    page = "- `PUT /jobs/{jobId}`\n\n## Roadmap\n\n- `PATCH /jobs/{jobId}`\n"
    root = corpus(make_corpus, page)
    output = run_cli("bindings", str(root)).output
    assert (
        "docs/jobs.md:3 code route `GET /api/v2/jobs`\n    -> `GET /jobs` of api/openapi.yaml"
        in output
    )
    assert (
        "docs/jobs.md:7 code route `PUT /jobs/{jobId}`\n    (no operation of api/openapi.yaml; nearest `GET /jobs/{jobId}`)"
        in output
    )
    assert '(not checked: under the heading "Roadmap")' in output
    assert "speclint: 3 route binding(s); 2 route(s) bound to no operation" in output


def test_an_illustration_and_a_test_harness_route_are_aside(make_corpus: MakeCorpus) -> None:
    page = "Registration (e.g. on `POST /api/v2/jobs/{jobId}/register` or equivalent) checks it.\n"
    assert found(corpus(make_corpus, page)) == []
    assert found(corpus(make_corpus, "- `POST /api/v2/jobs/sample/seed`\n")) == []


def test_a_placeholder_glued_to_a_curl_url_is_a_path_variable_not_a_redirection() -> None:
    # `curl http://host/runs/<run_id>`: shell syntax would read `<run_id` as input redirection
    # and cut the URL at `/runs/`; documentation means a value to fill in.
    text = "curl http://localhost:8000/runs/<run_id>\ncurl -d x=<v> https://h/a < body.json"
    assert [r.target for r in curl_requests(text)] == [
        "http://localhost:8000/runs/{run_id}",
        "https://h/a",
    ]


API_SENTENCES = """\
openapi: 3.1.0
info: {title: Tasks, version: 1.0.0}
paths:
  /tasks:
    post: {operationId: create_task, responses: {'201': {description: ok}}}
  /tasks/{task_id}:
    get: {operationId: get_task, responses: {'200': {description: ok}}}
  /tasks/{task_id}/events:
    get:
      operationId: watch_task
      description: Follows a task as the /tasks/TASK_ID/feed endpoint does.
      responses: {'200': {description: ok}}
  /tasks/{task_id}/result:
    get: {operationId: task_result, responses: {'200': {description: ok}}}
"""


BOUND_SENTENCES = """\
# Tasks

- `POST /tasks` starts a task.
- `GET /tasks/{task_id}` reads one.

"""


# What OpenAPI Generator writes for a client: a method table, then a section per operation with
# the operation's description copied.
CLIENT = """\
# TasksApi

Method | HTTP request | Description
------------- | ------------- | -------------
[**create_task**](TasksApi.md#create_task) | **POST** /tasks | Start
[**get_task**](TasksApi.md#get_task) | **GET** /tasks/{task_id} | Read
[**watch_task**](TasksApi.md#watch_task) | **GET** /tasks/{task_id}/events | Watch

# **watch_task**

Follows a task as the /tasks/TASK_ID/feed endpoint does.

# **task_result**

Waits as the /tasks/{task_id}/outcome endpoint does.
"""


def test_a_placeholder_of_every_style_is_a_variable_as_a_whole_segment() -> None:
    for path in ("/a/{id}/b", "/a/:id/b", "/a/<id>/b", "/a/{{id}}/b", "/a/$ID/b",
                 "/a/__ID__/b", "/a/TASK_ID/b", "/a/ID_HERE/b", "/a/YOUR_TASK_ID/b"):  # fmt: skip
        assert written_shape(path) == ("a", "{}", "b"), path
    # a word in capitals with no underscore may be a real segment; a snake-case word is one
    assert written_shape("/v1/SMS/send") == ("v1", "SMS", "send")
    assert written_shape("/a/task_id/b") == ("a", "task_id", "b")


def test_a_path_a_sentence_calls_an_endpoint_is_held_to_the_api(make_corpus: MakeCorpus) -> None:
    page = BOUND_SENTENCES + (
        "Results stream like the /tasks/__TASK_ID__/output endpoint, and clients then call\n"
        "/tasks/ID_HERE/result. The /etc/tasks/conf path is a file, and /tasks/x/y is a word.\n"
    )
    root = make_corpus({"openapi.yaml": API_SENTENCES, "docs/tasks.md": page})
    found = [f for f in run_rule(root, "route-undeclared") if f.location.path == "docs/tasks.md"]
    assert [(f.location.line, f.location.column) for f in found] == [(6, 25)]
    assert "`/tasks/__TASK_ID__/output` is the path of no operation" in found[0].message


def test_a_sentence_that_says_a_path_is_gone_is_no_claim(make_corpus: MakeCorpus) -> None:
    page = BOUND_SENTENCES + "The /tasks/{task_id}/output endpoint was removed. Nothing else.\n"
    root = make_corpus({"openapi.yaml": API_SENTENCES, "docs/tasks.md": page})
    assert [f.location.path for f in run_rule(root, "route-undeclared")] == ["openapi.yaml"]


def test_a_generated_clients_copy_of_a_description_is_one_finding_at_the_source(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": API_SENTENCES, "client/docs/TasksApi.md": CLIENT})
    found = sorted(run_rule(root, "route-undeclared"), key=lambda f: f.location.path, reverse=True)
    at = [(f.location.path, f.location.line) for f in found]
    # the description's route, once, at the API document, the generated copy related; the
    # route only the generated page names is the page's own
    assert at == [("openapi.yaml", 11), ("client/docs/TasksApi.md", 15)]
    assert "`/tasks/TASK_ID/feed`" in found[0].message
    assert ("client/docs/TasksApi.md", 11) in [(r.path, r.line) for r in found[0].related]
    assert "`/tasks/{task_id}/outcome`" in found[1].message


RULE = "route-undeclared"


SENTENCE = "A handle for the export, to be polled via {route} until the archive is ready."


def api(route: str, sentence: str = SENTENCE) -> str:
    """An OpenAPI 3.1 document written as JSON (the style of a generated specification)."""
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Archive", "version": "4"},
        "paths": {
            "/exports": {
                "post": {"responses": {"202": {"description": "accepted"}}},
            },
            "/exportstate/{export_id}": {
                "get": {
                    "parameters": [
                        {
                            "name": "export_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {"200": {"description": "the state"}},
                }
            },
        },
        "components": {
            "schemas": {
                "ExportAccepted": {
                    "type": "object",
                    "properties": {
                        "export_id": {
                            "type": "string",
                            "description": sentence.format(route=route),
                        }
                    },
                }
            }
        },
    }
    return json.dumps(document, indent=2)


REFERENCE = """\
# Archive reference

## ExportAccepted

| Field | Type | Description |
|---|---|---|
| export_id | `string` | {sentence} |
"""


CLIENT_PAGE = """\
# ExportsApi

Method | HTTP request | Description
------------- | ------------- | -------------
[**start_export**](ExportsApi.md#start_export) | **POST** /exports | Start
[**export_state**](ExportsApi.md#export_state) | **GET** /exportstate/{{export_id}} | State

# **start_export**

Returns an ExportAccepted:

{sentence}
"""


STREAMED = "A handle for the export, whose progress streams from the {route} endpoint as it runs."


def test_a_description_names_a_route_by_its_misspelt_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"archive.json": api("/export_state")})
    (finding,) = run_rule(root, RULE)
    assert finding.location.path == "archive.json"
    assert "`GET /exportstate/{export_id}`" in finding.message
    assert "says `exportstate` where this says `export_state`" in finding.message


def test_a_generated_reference_page_copying_the_description_is_related(
    make_corpus: MakeCorpus,
) -> None:
    sentence = SENTENCE.format(route="/export_state")
    root = make_corpus(
        {
            "archive.json": api("/export_state"),
            "docs/reference.md": REFERENCE.format(sentence=sentence),
        }
    )
    (finding,) = run_rule(root, RULE)
    copies = [r for r in finding.related if r.path == "docs/reference.md"]
    assert [(r.line, r.note) for r in copies] == [
        (7, "the same description, copied into this page")
    ]


def test_the_right_root_and_other_paths_stay_silent(make_corpus: MakeCorpus) -> None:
    for route in ("/exportstate", "/exportstate/{export_id}", "/tmp", "/scratch_area"):
        root = make_corpus({"archive.json": api(route)})
        assert run_rule(root, RULE) == [], route


def test_a_generated_client_page_copy_is_related_once(make_corpus: MakeCorpus) -> None:
    sentence = STREAMED.format(route="/exports/{export_id}/progress")
    root = make_corpus(
        {
            "archive.json": api("/exports/{export_id}/progress", STREAMED),
            "client/docs/ExportsApi.md": CLIENT_PAGE.format(sentence=sentence),
        }
    )
    (finding,) = run_rule(root, RULE)
    copies = [r for r in finding.related if r.path == "client/docs/ExportsApi.md"]
    assert [r.line for r in copies] == [12]


LIBRARY = """\
openapi: 3.0.3
info: {title: Library, version: 1.0.0}
servers:
  - url: /library/2
paths:
  /shelf/about:
    get: {operationId: about, responses: {'200': {description: ok}}}
  /shelf/{id}:
    get: {operationId: book, responses: {'200': {description: ok}}}
  /shelf/{id}/notes:
    get: {operationId: notes, responses: {'200': {description: ok}}}
"""


LIBRARY_PAGE = """\
# Library

Read a book with `GET /shelf/{id}` and its notes with `GET /shelf/{id}/notes`.

The server describes itself at `GET /shelf/about`.

## Example request

```
GET /about
```
"""


def _routes(root: Path) -> list[Finding]:
    return run_rule(root, "route-undeclared")


AGENTS = """\
openapi: 3.0.1
info: {title: Agents, version: 1.0.0}
servers:
  - url: 'http://0.0.0.0:8000'
paths:
  /xy/v1/robot/jobs:
    get: {operationId: listJobs, responses: {'200': {description: ok}}}
    post: {operationId: createJob, responses: {'200': {description: ok}}}
  /xy/v1/robot/jobs/{job_id}/moves:
    get: {operationId: listMoves, responses: {'200': {description: ok}}}
    post: {operationId: addMove, responses: {'200': {description: ok}}}
"""


AGENTS_PAGE = """\
# Agents

- `GET /xy/v1/robot/jobs` lists the jobs.
- `POST /xy/v1/robot/jobs` creates one.
- `GET /xy/v1/robot/jobs/{job_id}/moves` lists its moves.
"""


PARTNERS = """\
openapi: 3.0.3
info: {title: Partners, version: 1.0.0}
paths:
  /accounts/{ID}:
    get: {operationId: account, responses: {'200': {description: ok}}}
  /accounts/{ID}/error:
    put: {operationId: accountError, responses: {'200': {description: ok}}}
  /partnerRequests/grants/{ID}:
    put: {operationId: grant, responses: {'200': {description: ok}}}
  /partnerRequests/grants/{ID}/error:
    put: {operationId: grantError, responses: {'200': {description: ok}}}
"""


PARTNER_PAGE = """\
# Partners

- `GET /accounts/{ID}` reads an account.
- `PUT /accounts/{ID}/error` reports an error.
- `PUT /partnerRequests/grants/{ID}` answers a grant.

The **PUT /partnerRequests/grants/{ID}/error** callback carries the same content as the
**PUT /grants/{ID}/error** callback of the core API.
"""


def test_a_route_with_its_leading_segment_left_off_names_the_operation(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": LIBRARY, "docs/library.md": LIBRARY_PAGE})
    (finding,) = _routes(root)
    assert finding.location.line == 10
    assert "`GET /about` is no operation" in finding.message
    assert "the nearest is `GET /shelf/about`, whose path has `/shelf` before it" in finding.message


def test_a_route_below_a_prefix_the_page_names_is_no_slip(make_corpus: MakeCorpus) -> None:
    page = LIBRARY_PAGE.replace("# Library\n", "# Library\n\nPaths below are under `/shelf`.\n")
    root = make_corpus({"api/openapi.yaml": LIBRARY, "docs/library.md": page})
    assert _routes(root) == []


def test_a_method_in_brackets_before_a_path_is_a_route(make_corpus: MakeCorpus) -> None:
    page = AGENTS_PAGE + (
        "\nTo change the order, override the router of **[POST]** `/robot/jobs/{job_id}/moves`.\n"
    )
    root = make_corpus({"api/openapi.yaml": AGENTS, "docs/agents.md": page})
    (finding,) = _routes(root)
    assert finding.location.line == 7
    assert "`POST /robot/jobs/{job_id}/moves` is no operation" in finding.message
    assert "whose path has `/xy/v1` before it" in finding.message


def test_a_route_of_one_collection_among_several_left_off_may_be_another_apis(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"api/openapi.yaml": PARTNERS, "docs/partners.md": PARTNER_PAGE})
    assert _routes(root) == []


# An API document's own prose and vendor examples (issue 46's missed classes).
#
# - ``x-examples`` (a map of name to example, as Stoplight and others write it on a schema or a
#   media type) is validated against its schema as ``examples`` are: a preview heuristic of
#   ``example-invalid``.
# - The ``description`` text of an OpenAPI or AsyncAPI document is CommonMark (OpenAPI 3.1 §4.3):
#   its fences and the routes it names are read as a page's are, and reported at the line of the
#   YAML or JSON file they are written on.


def api_descriptions(
    paths: str = "", schemas: str = JOB, top: str = "", version: str = "3.1.0", info: str = ""
) -> str:
    """An OpenAPI document: ``info`` (YAML members of ``info``), ``top`` (YAML members after
    ``info``), ``paths`` (under ``paths:``) and ``schemas`` (under ``components/schemas``)."""
    return (
        f"openapi: {version}\ninfo:\n  title: Jobs\n  version: 1.0.0\n"
        + textwrap.indent(textwrap.dedent(info), "  ")
        + textwrap.dedent(top)
        + ("paths:\n" + textwrap.indent(textwrap.dedent(paths), "  ") if paths else "paths: {}\n")
        + "components:\n  schemas:\n"
        + schemas
    )


def test_a_route_an_operations_description_names_is_held_to_its_document(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api_descriptions(ORDERS)})
    found = run_rule(root, "route-undeclared")
    assert [(f.location.line, f.location.column, f.location.pointer) for f in found] == [
        (19, 42, "/paths/~1orders~1{orderId}/post/description"),  # the code span
        (28, 24, "/paths/~1.well-known~1jobs/get/description"),
    ]
    assert "`POST /order` is no operation" in found[0].message
    assert "the nearest is `POST /orders`" in found[0].message
    assert "the nearest is `GET /.well-known/jobs`" in found[1].message


def test_a_fence_left_open_in_one_description_does_not_swallow_the_next(
    make_corpus: MakeCorpus,
) -> None:
    top = "tags:\n  - name: jobs\n    description: |\n      Jobs.\n\n      ```text\n      open\n"
    root = make_corpus({"openapi.yaml": api_descriptions(ORDERS, top=top)})
    found = run_rule(root, "route-undeclared")
    assert [f.location.line for f in found] == [26, 35]


def test_a_descriptions_placeholder_is_its_own_unless_it_misspells_the_apis(
    make_corpus: MakeCorpus,
) -> None:
    paths = """\
    /parties/{Type}/{SubId}:
      get:
        description: |-
          Send `PUT /parties/{Type}/{SubI}` to answer, as `GET /parties/:type/:id` asks.
        responses:
          '200': {description: OK}
      put:
        responses:
          '200': {description: OK}
    """
    root = make_corpus({"openapi.yaml": api_descriptions(paths)})
    found = run_rule(root, "route-undeclared")
    assert [(f.location.line, f.severity.label) for f in found] == [(9, "info")]
    assert "names its parameter `SubI` where the API names this parameter `SubId`" in (
        found[0].message
    )


def test_route_undeclared_reads_a_one_segment_path_only_where_it_joins_words() -> None:
    # `/order_status` and `/meta-graph` are spelt as routes are; `/tmp` is as often a folder
    text = "Poll /order_status or /meta-graph; scratch files go to /tmp and /archive."
    assert [path for path, _ in segments_in_text(text)] == ["/order_status", "/meta-graph"]
    # a path after a method is a route of its own, read elsewhere
    assert list(segments_in_text("Send GET /order_status to poll.")) == []
