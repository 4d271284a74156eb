"""component-name-invalid (issue 52, item 6d): OpenAPI 3.0 component keys out of the pattern."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, components: str) -> str:
    return (
        f"openapi: {version}\ninfo: {{title: Garden, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n{components}"
    )


BAD = "  schemas:\n    Plant Kind: {type: string}\n    Seed: {type: string}\n"


def test_a_key_with_a_space_in_a_30_document_is_an_error_at_the_key(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"openapi.yaml": api("3.0.3", BAD)})
    [finding] = run_rule(root, "component-name-invalid")
    assert (finding.location.pointer, finding.location.line) == (
        "/components/schemas/Plant Kind",
        6,
    )
    assert finding.severity.label == "error"
    assert "`Plant Kind`" in finding.message and "rename" in finding.message


def test_keys_of_one_map_that_break_the_pattern_are_one_finding(make_corpus: MakeCorpus) -> None:
    components = "  parameters:\n    a::b: {name: a, in: query}\n    c@d: {name: c, in: query}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", components)})
    [finding] = run_rule(root, "component-name-invalid")
    assert "2 component names" in finding.message
    assert [r.pointer for r in finding.related] == ["/components/parameters/c@d"]


def test_dots_dashes_and_underscores_are_allowed(make_corpus: MakeCorpus) -> None:
    components = "  schemas:\n    v1.Plant-kind_2: {type: string}\n"
    root = make_corpus({"openapi.yaml": api("3.0.3", components)})
    assert run_rule(root, "component-name-invalid") == []


def test_a_31_document_is_left_to_openapi_invalid(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": api("3.1.0", BAD)})
    assert run_rule(root, "component-name-invalid") == []


WORKFLOW = """\
name: Build
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci && npm run merge -- --source ./api --output build/garden.yaml
"""


def test_pieces_a_merge_step_of_the_repository_assembles_are_not_judged(
    make_corpus: MakeCorpus,
) -> None:
    """The repository's own merger rewrites such keys when it builds the API (OpenSearch's
    namespaces): the piece as committed is not the API."""
    root = make_corpus(
        {
            "api/plants.yaml": api("3.0.3", BAD),
            "api/seeds.yaml": api("3.0.3", BAD),
            ".github/workflows/build.yml": WORKFLOW,
        }
    )
    assert run_rule(root, "component-name-invalid") == []


def test_the_same_pieces_without_a_merge_step_are_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"api/plants.yaml": api("3.0.3", BAD), "api/seeds.yaml": api("3.0.3", BAD)})
    assert len(run_rule(root, "component-name-invalid")) == 2
