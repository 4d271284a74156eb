"""route-undeclared (issue 46, round 4): routes a sentence names with a placeholder of any style,
and an API document's descriptions copied into a generated client's pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.api.routes import written_shape

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = """\
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

BOUND = """\
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
    page = BOUND + (
        "Results stream like the /tasks/__TASK_ID__/output endpoint, and clients then call\n"
        "/tasks/ID_HERE/result. The /etc/tasks/conf path is a file, and /tasks/x/y is a word.\n"
    )
    root = make_corpus({"openapi.yaml": API, "docs/tasks.md": page})
    found = [f for f in run_rule(root, "route-undeclared") if f.location.path == "docs/tasks.md"]
    assert [(f.location.line, f.location.column) for f in found] == [(6, 25)]
    assert "`/tasks/__TASK_ID__/output` is the path of no operation" in found[0].message


def test_a_sentence_that_says_a_path_is_gone_is_no_claim(make_corpus: MakeCorpus) -> None:
    page = BOUND + "The /tasks/{task_id}/output endpoint was removed. Nothing else.\n"
    root = make_corpus({"openapi.yaml": API, "docs/tasks.md": page})
    assert [f.location.path for f in run_rule(root, "route-undeclared")] == ["openapi.yaml"]


def test_a_generated_clients_copy_of_a_description_is_one_finding_at_the_source(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": API, "client/docs/TasksApi.md": CLIENT})
    found = sorted(run_rule(root, "route-undeclared"), key=lambda f: f.location.path, reverse=True)
    at = [(f.location.path, f.location.line) for f in found]
    # the description's route, once, at the API document, the generated copy related; the
    # route only the generated page names is the page's own
    assert at == [("openapi.yaml", 11), ("client/docs/TasksApi.md", 15)]
    assert "`/tasks/TASK_ID/feed`" in found[0].message
    assert ("client/docs/TasksApi.md", 11) in [(r.path, r.line) for r in found[0].related]
    assert "`/tasks/{task_id}/outcome`" in found[1].message
