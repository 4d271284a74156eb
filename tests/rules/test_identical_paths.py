"""identical-paths (issue 52, item 6): paths that differ only in their template variables' names."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.rules import identical_paths
from speclint.run import preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

OPERATION = "    get:\n      responses: {'200': {description: done}}\n"


def api(paths: list[str], head: str = "openapi: 3.1.0", tail: str = "") -> str:
    """An API document with ``head`` as its version line whose Paths Object has ``paths``."""
    body = "".join(f"  {p}:\n{OPERATION}" for p in paths)
    return f"{head}\ninfo: {{title: Jobs, version: 1.0.0}}\npaths:\n{body}{tail}"


def found(root: Path) -> list[tuple[str, str | None, int, str]]:
    return [
        (f.location.path, f.location.pointer, f.location.line, f.severity.label)
        for f in run_rule(root, "identical-paths")
    ]


def test_paths_differing_only_in_variable_names_are_an_error_at_the_later_key(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{id}", "/jobs/{jobId}"])})
    (finding,) = run_rule(root, "identical-paths")
    assert (finding.location.pointer, finding.location.line) == ("/paths/~1jobs~1{jobId}", 7)
    assert finding.severity.label == "error"
    assert [r.pointer for r in finding.related] == ["/paths/~1jobs~1{id}"]
    assert "MUST NOT exist" in finding.message and "move its operations" in finding.message


def test_a_30_document_is_judged_like_31_and_32(make_corpus: MakeCorpus) -> None:
    for version in ("3.0.3", "3.2.0"):
        root = make_corpus({"openapi.yaml": api(["/a/{x}/b", "/a/{y}/b"], f"openapi: {version}")})
        assert [s for *_, s in found(root)] == ["error"]


def test_a_swagger_20_document_gets_a_warning(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"swagger.yaml": api(["/a/{x}", "/a/{y}"], "swagger: '2.0'")})
    (finding,) = run_rule(root, "identical-paths")
    assert finding.severity.label == "warning" and "MUST NOT" not in finding.message


def test_three_identical_paths_are_each_related_to_the_first(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/a/{x}", "/a/{y}", "/a/{z}"])})
    findings = run_rule(root, "identical-paths")
    assert [f.location.pointer for f in findings] == ["/paths/~1a~1{y}", "/paths/~1a~1{z}"]
    assert {r.pointer for f in findings for r in f.related} == {"/paths/~1a~1{x}"}


def test_dotted_variable_names_of_a_generator_are_variable_names_too(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api(["/v1/items/{item.id}", "/v1/items/{id}"])})
    assert len(found(root)) == 1


def test_ambiguous_paths_with_variables_in_other_places_are_not_identical(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api(["/{a}/b", "/a/{b}", "/a/b"])})
    assert found(root) == []


def test_a_concrete_path_beside_a_templated_one_is_fine(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api(["/jobs/{id}", "/jobs/latest", "/jobs/{id}/"])})
    assert found(root) == []


def test_webhook_names_and_callback_expressions_are_not_paths(make_corpus: MakeCorpus) -> None:
    tail = textwrap.dedent(
        """\
        webhooks:
          /done/{a}: {post: {responses: {'200': {description: ok}}}}
          /done/{b}: {post: {responses: {'200': {description: ok}}}}
        """
    )
    callbacks = (
        "      callbacks:\n        done:\n"
        "          '{$request.body#/a}': {post: {responses: {'200': {description: ok}}}}\n"
        "          '{$request.body#/b}': {post: {responses: {'200': {description: ok}}}}\n"
    )
    document = api(["/jobs"], tail=tail).replace(
        "responses: {'200': {description: done}}\n",
        "responses: {'200': {description: done}}\n" + callbacks,
    )
    root = make_corpus({"openapi.yaml": document})
    assert found(root) == []


def test_a_paths_object_in_its_own_file_is_reported_there(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": "openapi: 3.0.3\ninfo: {title: Jobs, version: 1.0.0}\n"
            "paths: {$ref: './paths.yaml'}\n",
            "paths.yaml": "/a/{x}:\n  get: {responses: {'200': {description: done}}}\n"
            "/a/{y}:\n  get: {responses: {'200': {description: done}}}\n",
        }
    )
    assert found(root) == [("paths.yaml", "/~1a~1{y}", 3, "error")]


def test_path_items_kept_in_files_are_judged_by_their_keys_in_the_root(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "openapi.yaml": "openapi: 3.1.0\ninfo: {title: Jobs, version: 1.0.0}\npaths:\n"
            "  /a/{x}: {$ref: './item.yaml'}\n  /a/{y}: {$ref: './item.yaml'}\n",
            "item.yaml": "get:\n  responses: {'200': {description: done}}\n",
        }
    )
    assert found(root) == [("openapi.yaml", "/paths/~1a~1{y}", 5, "error")]


def test_the_rule_is_a_preview_rule_until_it_is_measured() -> None:
    assert preview.why_preview("identical-paths") == (
        "declared preview by its module: new, not yet measured"
    )


def test_a_paths_file_is_read_with_the_facts_the_rule_declares(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "openapi.yaml": "openapi: 3.2.0\ninfo: {title: Jobs, version: 1.0.0}\n"
            "paths: {$ref: './paths.yaml'}\n",
            "paths.yaml": "/a/{x}?all:\n  get: {responses: {'200': {description: done}}}\n"
            "/a/{y}?all:\n  get: {responses: {'200': {description: done}}}\n",
        }
    )
    view = Context.load(root).reading(identical_paths.FACTS)  # as the engine runs it
    assert [f.location.path for f in identical_paths.check(view, {})][:1] == ["paths.yaml"]
