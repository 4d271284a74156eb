"""`duplicate-item`: arrays of an instance that repeat a key their schema says is unique."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
RULE = "duplicate-item"


def run(root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()[RULE].check(Context.load(root), options or {}))


def entries_schema(**array: Any) -> str:
    item = {"type": "object", "properties": {"id": {"type": "string"}, "n": {}}}
    return schema(type="object", properties={"entries": {"type": "array", "items": item, **array}})


def instance(entries: list[Any], **extra: Any) -> str:
    return json.dumps({"$schema": "./registry.schema.json", **extra, "entries": entries}, indent=2)


def build(make_corpus: MakeCorpus, schema_text: str, data: str) -> Path:
    return make_corpus({"data/registry.schema.json": schema_text, "data/registry.json": data})


def test_docstring_example_fail_and_pass(make_corpus: MakeCorpus) -> None:
    data = instance([{"id": "a"}, {"id": "b"}, {"id": "a"}])
    root = build(make_corpus, entries_schema(**{"x-unique-keys": ["id"]}), data)
    [finding] = run(root)
    assert finding.severity is Severity.ERROR
    assert finding.location.pointer == "/entries/2/id"
    assert (finding.location.path, finding.location.line) == ("data/registry.json", 11)
    assert finding.message.startswith('`/entries/2` repeats `id` = "a" of `/entries/0` (line 5)')
    assert "`x-unique-keys`" in finding.message
    first, claim = finding.related
    assert (first.pointer, first.line, first.note) == ("/entries/0/id", 5, "first occurrence")
    assert claim.path == "data/registry.schema.json"
    assert claim.pointer == "/properties/entries/x-unique-keys"
    (root / "data/registry.json").write_text(instance([{"id": "a"}, {"id": "b"}, {"id": "c"}]))
    assert run(root) == []


def test_one_finding_per_repetition_at_each_later_item(make_corpus: MakeCorpus) -> None:
    data = instance([{"id": "a"}, {"id": "a"}, {"id": "b"}, {"id": "a"}])
    found = run(build(make_corpus, entries_schema(**{"x-unique-keys": ["id"]}), data))
    assert [f.location.pointer for f in found] == ["/entries/1/id", "/entries/3/id"]
    assert all(f.related[0].pointer == "/entries/0/id" for f in found)


def test_duplicate_item_compound_and_pointer_keys_compare_values_as_json_so_1_equals_1_0(
    make_corpus: MakeCorpus,
) -> None:
    compound = entries_schema(**{"x-unique-keys": [["id", "n"]]})
    data = instance([{"id": "a", "n": 1}, {"id": "a", "n": 2}, {"id": "a", "n": 1.0}])
    [finding] = run(build(make_corpus, compound, data))
    assert finding.location.pointer == "/entries/2/id"
    assert "the compound key" in finding.message
    nested = entries_schema(**{"x-unique-keys": ["/meta/id"]})
    data = instance([{"meta": {"id": 7}}, {"meta": {}}, {"meta": {"id": 7}}])
    root = build(make_corpus, nested, data)
    [finding] = run(root)
    assert finding.location.pointer == "/entries/2/meta/id"


def test_items_without_the_key_are_not_compared(make_corpus: MakeCorpus) -> None:
    data = instance([{"n": 1}, {"n": 1}, "not an object", "not an object", {"id": None}])
    assert run(build(make_corpus, entries_schema(**{"x-unique-keys": ["id"]}), data)) == []


def test_a_malformed_annotation_is_ignored(make_corpus: MakeCorpus) -> None:
    data = instance([{"id": "a"}, {"id": "a"}])
    for bad in ([1], [["id", 2]], {"id": True}, [[]]):
        root = build(make_corpus, entries_schema(**{"x-unique-keys": bad}), data)
        assert run(root) == [], bad


def test_the_array_description_says_which_key_is_unique(make_corpus: MakeCorpus) -> None:
    data = instance([{"id": "a"}, {"id": "a"}])
    for text in (
        "Entries of the registry. Each MUST have a unique `id` within the registry.",
        "Entries; `id` must be unique.",
        "Entries, each with a unique id.",
    ):
        root = build(make_corpus, entries_schema(description=text), data)
        [finding] = run(root)
        assert finding.severity is Severity.WARNING, text
        assert finding.related[1].pointer == "/properties/entries/description"
    for text in (
        "Entries. `id` need not be unique.",
        "Entries, each with a unique identifier.",  # no `identifier` property
        "Entries with non-unique `id` values allowed.",
        "Unique `name` per entry.",  # no `name` property
    ):
        root = build(make_corpus, entries_schema(description=text), data)
        assert run(root) == [], text


def test_duplicate_item_reads_an_item_property_unique_among_the_items_not_globally_unique_nor_a_narrower_scope_nor_a_negated_claim(
    make_corpus: MakeCorpus,
) -> None:
    def with_id(description: str) -> str:
        item = {
            "type": "object",
            "properties": {"id": {"type": "string", "description": description}},
        }
        return schema(
            type="object",
            properties={"entries": {"type": "array", "items": {"$ref": "#/$defs/entry"}}},
            **{"$defs": {"entry": item}},
        )

    data = instance([{"id": "a"}, {"id": "a"}])
    for claim in (
        "Stable id, unique within the registry.",
        "The id MUST be unique among all entries.",
        "An id that must be unique.",
    ):
        [finding] = run(build(make_corpus, with_id(claim), data))
        assert finding.severity is Severity.WARNING, claim
        assert finding.related[1].pointer == "/$defs/entry/properties/id/description"
    for no_claim in (
        "Globally unique id.",
        "Host-unique id.",
        "A unique identifier.",
        "Id, unique within its parent group.",
        "Id; MUST be unique per tenant.",
        "Id. It does not need to be unique within the registry.",
        "Id, unique within the same group only.",
    ):
        assert run(build(make_corpus, with_id(no_claim), data)) == [], no_claim


def test_an_annotation_and_a_description_make_one_error(make_corpus: MakeCorpus) -> None:
    text = "Each MUST have a unique `id`."
    both = entries_schema(description=text, **{"x-unique-keys": ["id"]})
    [finding] = run(build(make_corpus, both, instance([{"id": "a"}, {"id": "a"}])))
    assert finding.severity is Severity.ERROR


def test_options(make_corpus: MakeCorpus) -> None:
    text = "Each MUST have a unique `id`."
    root = build(make_corpus, entries_schema(description=text), instance([{"id": 1}, {"id": 1}]))
    assert run(root, {"descriptions": False}) == []
    root = build(
        make_corpus,
        entries_schema(**{"x-keys": ["id"]}),
        instance([{"id": 1}, {"id": 1}]),
    )
    assert run(root) == []
    [finding] = run(root, {"annotation": "x-keys"})
    assert finding.severity is Severity.ERROR


def test_the_walk_follows_refs_allof_and_additional_properties(make_corpus: MakeCorpus) -> None:
    array = {"type": "array", "items": {"type": "object"}, "x-unique-keys": ["id"]}
    body = {
        "type": "object",
        "allOf": [{"properties": {"groups": {"$ref": "#/$defs/groups"}}}],
        "$defs": {
            "groups": {"type": "object", "additionalProperties": {"$ref": "other.schema.json"}}
        },
    }
    root = make_corpus(
        {
            "data/registry.schema.json": schema(**body),
            "data/other.schema.json": schema(**array),
            "data/registry.json": json.dumps(
                {
                    "$schema": "./registry.schema.json",
                    "groups": {"x": [{"id": 1}, {"id": 2}], "y": [{"id": 3}, {"id": 3}]},
                },
                indent=2,
            ),
        }
    )
    [finding] = run(root)
    assert finding.location.pointer == "/groups/y/1/id"
    assert finding.related[1].path == "data/other.schema.json"


def test_oneof_is_entered_only_through_the_branch_the_value_matches(
    make_corpus: MakeCorpus,
) -> None:
    unique = {"type": "array", "x-unique-keys": ["id"]}

    def branch(kind: str, entries: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"const": kind}, "entries": entries},
        }

    determinable = schema(oneOf=[branch("a", unique), branch("b", {"type": "array"})])
    data = instance([{"id": 1}, {"id": 1}], kind="a")
    [finding] = run(build(make_corpus, determinable, data))
    assert finding.location.pointer == "/entries/1/id"
    assert run(build(make_corpus, determinable, instance([{"id": 1}, {"id": 1}], kind="b"))) == []
    # Both branches accept the value: which one applies is ambiguous, so neither is entered.
    ambiguous = schema(oneOf=[{"properties": {"entries": unique}}, {"type": "object"}])
    assert run(build(make_corpus, ambiguous, data)) == []


def test_draft07_tuple_items_and_yaml_instances(make_corpus: MakeCorpus) -> None:
    draft07 = json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "pair": {
                    "type": "array",
                    "items": [{"type": "string"}, {"$ref": "#/definitions/list"}],
                }
            },
            "definitions": {"list": {"type": "array", "x-unique-keys": ["name"]}},
        },
        indent=2,
    )
    data = (
        "# yaml-language-server: $schema=./registry.schema.json\n"
        "pair:\n  - first\n  - - name: x\n    - name: y\n    - name: x\n"
    )
    root = make_corpus({"data/registry.schema.json": draft07, "data/registry.yaml": data})
    [finding] = run(root)
    assert finding.location.pointer == "/pair/1/2/name"
    assert (finding.location.line, finding.location.column) == (6, 7)


def test_recursive_schemas_and_deep_instances_do_not_recurse(make_corpus: MakeCorpus) -> None:
    tree = schema(
        **{
            "$ref": "#/$defs/node",
            "$defs": {
                "node": {
                    "type": "object",
                    "properties": {
                        "children": {
                            "type": "array",
                            "items": {"$ref": "#/$defs/node"},
                            "x-unique-keys": ["name"],
                        },
                        "loop": {"$ref": "#/$defs/loop"},
                    },
                },
                "loop": {"$ref": "#/$defs/loop"},
            },
        }
    )
    node: dict[str, Any] = {"name": "leaf", "children": [{"name": "x"}, {"name": "x"}]}
    for depth in range(100):  # 200 levels: the JSON reader's limit is 256
        node = {"name": f"n{depth}", "children": [node], "loop": {}}
    data = json.dumps({"$schema": "./registry.schema.json", **node})
    [finding] = run(build(make_corpus, tree, data))
    assert finding.location.pointer.endswith("/children/1/name")
    assert finding.location.pointer.count("/children/0") == 100


def test_an_instance_whose_schema_is_missing_is_left_to_instance_invalid(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"data/registry.json": instance([{"id": 1}, {"id": 1}])})
    assert run(root) == []


def test_a_cached_result_follows_an_edit_of_the_schema_the_instance_names(
    make_corpus: MakeCorpus,
) -> None:
    """The unit cache keys each instance's result on the schema it names too (``unit_inputs``):
    moving the claim in the schema moves the related location of a warm run's finding."""
    # Deferred: the engine, only for this test of the caches.
    from speclint.run.engine import Options, lint

    data = instance([{"id": "a"}, {"id": "a"}])
    root = build(make_corpus, entries_schema(**{"x-unique-keys": ["id"]}), data)
    [before] = [f for f in lint(root, Options()).findings if f.rule == RULE]
    schema_file = root / "data/registry.schema.json"
    schema_file.write_text("\n" * 5 + schema_file.read_text())
    warm = [f for f in lint(root, Options()).findings if f.rule == RULE]
    cold = [f for f in lint(root, Options(cache=False)).findings if f.rule == RULE]
    assert warm == cold
    assert warm[0].related[1].line == before.related[1].line + 5
