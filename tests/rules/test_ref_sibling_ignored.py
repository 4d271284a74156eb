"""ref-sibling-ignored (issue 52): members beside a Swagger 2.0 / OpenAPI 3.0 schema `$ref`,
which the Reference Object ignores (OpenAPI 3.0.4 §4.7.23)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, link: str, target: str = "{type: string}") -> str:
    return (
        f"openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n"
        "paths:\n  /runs:\n    get:\n      responses:\n        '200':\n"
        "          description: A run.\n          content:\n            application/json:\n"
        "              schema: {$ref: '#/components/schemas/Run'}\n"
        "components:\n  schemas:\n"
        f"    Link: {target}\n"
        f"    Run:\n      type: object\n      properties:\n        self: {link}\n"
    )


def test_read_only_beside_a_ref_is_ignored_in_30(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api/openapi.yaml": api("3.0.3", "{$ref: '#/components/schemas/Link', readOnly: true}")}
    )
    [found] = run_rule(root, "ref-sibling-ignored")
    assert found.location.pointer == "/components/schemas/Run/properties/self/readOnly"
    assert "allOf" in found.message


def test_in_31_a_ref_is_a_keyword_beside_others(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api/openapi.yaml": api("3.1.0", "{$ref: '#/components/schemas/Link', readOnly: true}")}
    )
    assert run_rule(root, "ref-sibling-ignored") == []


@pytest.mark.parametrize(
    "link",
    [
        "{$ref: '#/components/schemas/Link', description: The run's own address.}",
        "{$ref: '#/components/schemas/Link', type: string}",
        "{$ref: '#/components/schemas/Link', x-order: 1}",
        "{$ref: '#/components/schemas/Link', nullable: true}",  # nullable-without-type's
    ],
)
def test_annotations_and_what_other_rules_say_are_not_reported(
    make_corpus: MakeCorpus, link: str
) -> None:
    root = make_corpus({"api/openapi.yaml": api("3.0.3", link)})
    assert run_rule(root, "ref-sibling-ignored") == []


def test_a_member_the_target_repeats_loses_nothing(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": api(
                "3.0.3",
                "{$ref: '#/components/schemas/Link', maxLength: 200}",
                "{type: string, maxLength: 200}",
            )
        }
    )
    assert run_rule(root, "ref-sibling-ignored") == []


def test_the_other_ignored_members_are_named(make_corpus: MakeCorpus) -> None:
    link = "{$ref: '#/components/schemas/Link', readOnly: true, default: x, maxLength: 9}"
    root = make_corpus({"api/openapi.yaml": api("3.0.3", link)})
    [found] = run_rule(root, "ref-sibling-ignored")
    assert "(and `default`, `maxLength`)" in found.message


def test_swagger_20_definitions_too(make_corpus: MakeCorpus) -> None:
    doc = (
        "swagger: '2.0'\ninfo: {title: Runs, version: 1.0.0}\n"
        "paths:\n  /runs:\n    get:\n      responses:\n        '200':\n"
        "          description: A run.\n          schema: {$ref: '#/definitions/Run'}\n"
        "definitions:\n  Link: {type: string}\n"
        "  Run:\n    type: object\n    properties:\n"
        "      self: {$ref: '#/definitions/Link', enum: [a, b]}\n"
    )
    root = make_corpus({"api/swagger.yaml": doc})
    [found] = run_rule(root, "ref-sibling-ignored")
    assert found.location.pointer == "/definitions/Run/properties/self/enum"
