"""yaml-indentation (issue 52): YAML flow values continued on lines indented too little, which
strict YAML 1.2 readers refuse (§8.2.3) and libyaml accepts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.parsing.structured import parse_json, parse_yaml

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

API = "openapi: 3.1.0\ninfo: {title: Runs, version: 1.0.0}\npaths: {}\n"


@pytest.mark.parametrize(
    ("value", "line"),
    [
        ('  example: {\n    "a": 1\n  }\n', 4),  # the closing brace at the key's column
        ('  example: {\n  "a": 1 }\n', 3),  # a member at the key's column
        ("  example: [1,\n    2\n  ]\n", 4),  # a flow sequence
        ('  example: "one\n  two"\n', 3),  # a double-quoted string
        ("  example: 'one\n  two'\n", 3),  # a single-quoted string
        ("  list:\n  - {\n    a: 1\n  }\n", 5),  # a block list item: the `-`'s column
    ],
)
def test_a_line_at_the_parents_column_is_deficient(value: str, line: int) -> None:
    parsed = parse_yaml("schema:\n" + value)
    [(pointer, found_line, column, parent)] = parsed.deficient_indents
    assert (found_line, column, parent) == (line, 3, 3)
    assert pointer.startswith("/schema/")


@pytest.mark.parametrize(
    "value",
    [
        '  example: {\n    "a": 1\n   }\n',  # one space past the key: valid YAML 1.2
        '  example: {"a": 1}\n',  # one line
        "  example: [1,\n# a comment line may start anywhere\n    2]\n",
        '  example: {\n\n    "a": 1}\n',  # an empty line may be indented less
        "  example: |\n    text\n",  # a block scalar: indentation decides where it ends
        '  example: "one\n   two"\n',
    ],
)
def test_valid_indentation_is_not_reported(value: str) -> None:
    assert parse_yaml("schema:\n" + value).deficient_indents == []


def test_inside_a_flow_collection_only_the_outer_value_is_judged() -> None:
    # The nested mapping's lines are measured against the block key, not against the `{`.
    parsed = parse_yaml('a:\n  b: {\n    "c": {\n     "d": 1\n    }\n   }\n')
    assert parsed.deficient_indents == []


def test_an_alias_is_judged_once_where_its_anchor_is_written() -> None:
    parsed = parse_yaml('a:\n  b: &x {\n  "c": 1}\n  d: *x\n')
    assert [pointer for pointer, *_ in parsed.deficient_indents] == ["/a/b"]


def test_a_json_document_cannot_have_it() -> None:
    assert parse_json('{"a": {\n"b": 1\n}}').deficient_indents == []


def test_one_finding_per_file_at_the_first_place(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/keys.yaml": (
                "$schema: https://json-schema.org/draft/2020-12/schema\ntype: object\n"
                'properties:\n  a:\n    example: {\n      "k": 1\n    }\n'
                '  b:\n    example: {\n      "k": 2\n    }\n'
            )
        }
    )
    [found] = run_rule(root, "yaml-indentation")
    assert (found.location.path, found.location.line, found.location.pointer) == (
        "schemas/keys.yaml",
        7,
        "/properties/a/example",
    )
    assert [r.line for r in found.related] == [11]
    assert "and 1 more value like it" in found.message
    assert "indent the line" in found.message


def test_a_yaml_file_an_api_document_refs_is_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": API.replace(
                "paths: {}\n",
                "paths: {}\ncomponents:\n  schemas:\n    Keys: {$ref: parts/keys.yaml}\n",
            ),
            "api/parts/keys.yaml": 'type: object\nexample: {\n  "k": 1\n}\n',
        }
    )
    [found] = run_rule(root, "yaml-indentation")
    assert found.location.path == "api/parts/keys.yaml"


def test_a_yaml_file_no_spec_document_reads_is_not_judged(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/openapi.yaml": API,
            "ci/config.yaml": 'jobs:\n  build: {\n  "k": 1}\n',
        }
    )
    # read, and indented too little: left out because nothing of the spec reads it
    assert Context.load(root).documents["ci/config.yaml"].deficient_indents
    assert run_rule(root, "yaml-indentation") == []
