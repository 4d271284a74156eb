"""path-key-invalid (issue 52, item 6): an empty template, a variable twice, a query in a path key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.rules import path_key_invalid
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

OPERATION = "    get:\n      responses: {'200': {description: done}}\n"


def api(paths: list[str], head: str = "openapi: 3.1.0", tail: str = "") -> str:
    """An API document with ``head`` as its version line whose Paths Object has ``paths``."""
    body = "".join(f"  '{p}':\n{OPERATION}" for p in paths)
    return f"{head}\ninfo: {{title: Jobs, version: 1.0.0}}\npaths:\n{body}{tail}"


def found(root: Path) -> list[tuple[str | None, int, str]]:
    return [
        (f.location.pointer, f.location.line, f.severity.label)
        for f in run_rule(root, "path-key-invalid")
    ]


def test_an_empty_template_is_an_error_at_the_key(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{}"])})
    (finding,) = run_rule(root, "path-key-invalid")
    assert (finding.location.pointer, finding.location.line) == ("/paths/~1jobs~1{}", 4)
    assert finding.severity.label == "error" and "empty template" in finding.message


def test_a_variable_twice_is_a_warning_before_32(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{id}/steps/{id}"], "openapi: 3.0.3")})
    (finding,) = run_rule(root, "path-key-invalid")
    assert finding.severity.label == "warning"
    assert "`{id}` appears twice" in finding.message


def test_a_variable_twice_is_an_error_in_32(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{id}/steps/{id}"], "openapi: 3.2.0")})
    assert [s for *_, s in found(root)] == ["error"]


def test_a_query_in_a_path_key_names_its_parameters(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs?state=open&limit=5"])})
    (finding,) = run_rule(root, "path-key-invalid")
    assert finding.severity.label == "warning"
    assert "write the path as `/jobs` and describe `state`, `limit`" in finding.message


def test_a_query_in_a_path_key_is_an_error_in_32(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs?all"], "openapi: 3.2.0")})
    assert [s for *_, s in found(root)] == ["error"]


def test_a_swagger_20_document_gets_warnings_only(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"swagger.yaml": api(["/a/{}", "/b/{x}/{x}", "/c?d"], "swagger: '2.0'")})
    assert [s for *_, s in found(root)] == ["warning"] * 3


def test_distinct_variables_and_a_plain_path_are_fine(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{jobId}/steps/{stepId}", "/jobs/{id}.json"])})
    assert found(root) == []


def test_extension_keys_of_the_paths_object_are_not_paths(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs"]) + "  x-note?{}: {a: b}\n"})
    assert found(root) == []


def test_callback_expressions_with_a_query_are_not_paths(make_corpus: MakeCorpus) -> None:
    callbacks = (
        "      callbacks:\n        done:\n"
        "          '{$request.query.url}?event={$request.body#/id}':\n"
        "            post: {responses: {'200': {description: ok}}}\n"
    )
    document = api(["/jobs"]).replace(
        "responses: {'200': {description: done}}\n",
        "responses: {'200': {description: done}}\n" + callbacks,
    )
    root = make_corpus({"openapi.yaml": document})
    assert found(root) == []


def test_webhook_names_are_not_paths(make_corpus: MakeCorpus) -> None:
    tail = "webhooks:\n  job?done: {post: {responses: {'200': {description: ok}}}}\n"
    root = make_corpus({"openapi.yaml": api(["/jobs"], tail=tail)})
    assert found(root) == []


def test_a_paths_file_is_judged_with_the_version_of_the_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": "openapi: 3.2.0\ninfo: {title: Jobs, version: 1.0.0}\n"
            "paths: {$ref: './paths.yaml'}\n",
            "paths.yaml": "/jobs?all:\n  get: {responses: {'200': {description: done}}}\n",
        }
    )
    findings = run_rule(root, "path-key-invalid")
    assert [(f.location.path, f.location.line, f.severity.label) for f in findings] == [
        ("paths.yaml", 1, "error")
    ]


def test_the_rule_is_a_preview_rule_until_it_is_measured() -> None:
    assert preview.why_preview("path-key-invalid") == (
        "declared preview by its module: new, not yet measured"
    )


def test_an_rfc_6570_query_expansion_is_a_query_named_as_such(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/all{?job_id*,page:2}"])})
    (finding,) = run_rule(root, "path-key-invalid")
    assert "RFC 6570 query expansion `{?job_id*,page:2}`" in finding.message
    assert "write the path as `/jobs/all` and describe `job_id`, `page`" in finding.message


def test_a_paths_file_is_read_with_the_facts_the_rule_declares(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": "openapi: 3.2.0\ninfo: {title: Jobs, version: 1.0.0}\n"
            "paths: {$ref: './paths.yaml'}\n",
            "paths.yaml": "/a/{x}?all:\n  get: {responses: {'200': {description: done}}}\n"
            "/a/{y}?all:\n  get: {responses: {'200': {description: done}}}\n",
        }
    )
    view = Context.load(root).reading(path_key_invalid.FACTS)  # as the engine runs it
    assert [f.location.path for f in path_key_invalid.check(view, {})][:1] == ["paths.yaml"]
