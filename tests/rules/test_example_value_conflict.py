"""example-value-conflict (issue 52, item 6c): an OpenAPI 3.0 Example Object with `value` and
`externalValue`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

HEAD = "openapi: {version}\ninfo: {{title: Runs, version: 1.0.0}}\n"
BOTH = "value: {id: 1}\nexternalValue: https://example.org/run.json\n"


def test_component_example_with_both_is_an_error_at_external_value(
    make_corpus: MakeCorpus,
) -> None:
    text = HEAD.format(version="3.0.3") + (
        "paths: {}\ncomponents:\n  examples:\n    Run:\n"
        "      value: {id: 1}\n      externalValue: https://example.org/run.json\n"
    )
    root = make_corpus({"openapi.yaml": text})
    [finding] = run_rule(root, "example-value-conflict")
    assert (finding.location.pointer, finding.location.line) == (
        "/components/examples/Run/externalValue",
        8,
    )
    assert finding.severity.label == "error"
    assert [r.pointer for r in finding.related] == ["/components/examples/Run/value"]


def media(version: str, example: str) -> str:
    return HEAD.format(version=version) + (
        "paths:\n  /runs:\n    get:\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        f"              examples:\n                one: {example}\n"
    )


def test_media_type_example_with_both_is_reported(make_corpus: MakeCorpus) -> None:
    example = "{value: 1, externalValue: 'https://example.org/one.json'}"
    root = make_corpus({"openapi.yaml": media("3.0.3", example)})
    [finding] = run_rule(root, "example-value-conflict")
    assert finding.location.pointer == (
        "/paths/~1runs/get/responses/200/content/application~1json/examples/one/externalValue"
    )


def test_example_kept_in_its_own_file_is_reported_there(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"openapi.yaml": media("3.0.3", "{$ref: './one.yaml'}"), "one.yaml": BOTH})
    [finding] = run_rule(root, "example-value-conflict")
    assert (finding.location.path, finding.location.pointer) == ("one.yaml", "/externalValue")


def test_value_alone_and_external_value_alone_are_fine(make_corpus: MakeCorpus) -> None:
    text = HEAD.format(version="3.0.3") + (
        "paths: {}\ncomponents:\n  examples:\n    A: {value: 1}\n"
        "    B: {externalValue: 'https://example.org/b.json'}\n"
    )
    root = make_corpus({"openapi.yaml": text})
    assert run_rule(root, "example-value-conflict") == []


def test_a_schema_property_named_value_is_no_example_object(make_corpus: MakeCorpus) -> None:
    text = HEAD.format(version="3.0.3") + (
        "paths: {}\ncomponents:\n  schemas:\n    Pair:\n      properties:\n"
        "        value: {type: string}\n        externalValue: {type: string}\n"
    )
    root = make_corpus({"openapi.yaml": text})
    assert run_rule(root, "example-value-conflict") == []


def test_a_31_document_is_left_to_openapi_invalid(make_corpus: MakeCorpus) -> None:
    example = "{value: 1, externalValue: 'https://example.org/one.json'}"
    root = make_corpus({"openapi.yaml": media("3.1.0", example)})
    assert run_rule(root, "example-value-conflict") == []
