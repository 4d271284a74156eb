"""``no-success-response`` (issue 52, item 6) on fixtures written here, one test a case."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(responses: str, version: str = "3.0.3") -> str:
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n"
        f"paths:\n  /runs:\n    post:\n      responses:\n{responses}"
    )


def found(root: Path) -> list[tuple[str, str | None, Severity]]:
    return [
        (f.location.path, f.location.pointer, f.severity)
        for f in run_rule(root, "no-success-response")
    ]


def test_an_operation_answering_only_errors_is_a_warning(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api.yaml": api("        '400': {description: bad}\n        '500': {description: down}\n")}
    )
    findings = run_rule(root, "no-success-response")
    assert [(f.location.pointer, f.severity) for f in findings] == [
        ("/paths/~1runs/post/responses", Severity.WARNING)
    ]
    assert "POST /runs" in findings[0].message


def test_a_2xx_range_counts_as_success(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": api(
                "        2XX: {description: ok}\n        '400': {description: bad}\n", "3.1.0"
            )
        }
    )
    assert found(root) == []


def test_a_redirect_counts_as_success(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api.yaml": api("        '303': {description: see the run}\n")})
    assert found(root) == []


def test_a_default_response_counts_as_success(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": api(
                "        '400': {description: bad}\n        default: {description: any}\n"
            )
        }
    )
    assert found(root) == []


def test_an_integer_status_key_counts_as_its_code(make_corpus: MakeCorpus) -> None:
    # An unquoted `201:` is a YAML integer: wrong (another rule's), but it is a success code.
    root = make_corpus({"api.yaml": api("        201: {description: made}\n")})
    assert found(root) == []


def test_an_operation_in_a_path_item_file_is_reported_in_that_file(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\npaths:\n  /runs:\n    $ref: runs.yaml\n",
            "runs.yaml": "delete:\n  responses:\n    '404': {description: no run}\n",
        }
    )
    assert found(root) == [("runs.yaml", "/delete/responses", Severity.WARNING)]


def test_a_path_item_file_two_documents_reach_is_reported_once(make_corpus: MakeCorpus) -> None:
    head = "info: {title: Runs, version: 1.0.0}\npaths:\n  /runs:\n    $ref: runs.yaml\n"
    root = make_corpus(
        {
            "a.yaml": "openapi: 3.1.0\n" + head,
            "b.yaml": "openapi: 3.0.3\n" + head,
            "runs.yaml": "delete:\n  responses:\n    '404': {description: no run}\n",
        }
    )
    assert found(root) == [("runs.yaml", "/delete/responses", Severity.WARNING)]


def test_extensions_and_missing_responses_are_not_reported(make_corpus: MakeCorpus) -> None:
    text = (
        "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\npaths:\n  /runs:\n"
        "    get: {}\n    post:\n      responses:\n        x-note: only an extension\n"
    )
    assert found(make_corpus({"api.yaml": text})) == []


def test_a_paths_map_kept_in_a_file_is_followed(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": "openapi: 3.0.3\ninfo: {title: Runs, version: 1.0.0}\npaths:\n  $ref: paths.yaml\n",
            "paths.yaml": "/runs:\n  delete:\n    responses:\n      '404': {description: no run}\n",
        }
    )
    assert found(root) == [("paths.yaml", "/~1runs/delete/responses", Severity.WARNING)]


def test_a_method_documented_as_not_implemented_is_not_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api.yaml": api(
                "        '405': {description: no}\n        '501': {description: not implemented}\n"
            )
        }
    )
    assert found(root) == []


def test_a_405_alone_is_still_reported(make_corpus: MakeCorpus) -> None:
    # The classic pet store writes `405: Invalid input` on an operation that does succeed.
    root = make_corpus({"api.yaml": api("        '405': {description: Invalid input}\n")})
    assert [pointer for _, pointer, _ in found(root)] == ["/paths/~1runs/post/responses"]
