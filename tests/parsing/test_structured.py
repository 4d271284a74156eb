"""The position-tracking JSON/YAML reader: data, positions, duplicates, and bounded failure."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from speclint.parsing.structured import (
    LOCAL_HOPS,
    MAX_DEPTH,
    ParseFailure,
    follow_local,
    join_pointer,
    local_pointer,
    parse_json,
    parse_yaml,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


def pointers(value: Any, base: str = "") -> list[str]:
    found = [base]
    if isinstance(value, dict):
        for key, child in value.items():
            found += pointers(child, join_pointer(base, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += pointers(child, join_pointer(base, index))
    return found


@settings(derandomize=True, max_examples=300)
@given(json_values, st.sampled_from([None, 1, 2, 4]))
def test_json_reader_agrees_with_the_standard_library(value: Any, indent: int | None) -> None:
    text = json.dumps(value, indent=indent)
    parsed = parse_json(text)
    assert parsed.data == json.loads(text)
    assert set(pointers(parsed.data)) <= set(parsed.positions)


@settings(derandomize=True, max_examples=300)
@given(json_values, st.data())
def test_truncated_or_corrupted_json_fails_with_a_location(value: Any, data: st.DataObject) -> None:
    text = json.dumps(value, indent=2)
    cut = data.draw(st.integers(0, len(text)))
    broken = text[:cut] + data.draw(st.sampled_from(["", ",", "}", "]", ":", '"', "x"]))
    try:
        parse_json(broken)
    except ParseFailure as failure:
        lines = broken.split("\n")
        assert 1 <= failure.line <= len(lines)
        assert 1 <= failure.column <= len(lines[failure.line - 1]) + 1


def test_positions_point_at_keys_and_items() -> None:
    text = '{\n  "a": {\n    "b": [10,\n      20]\n  }\n}\n'
    parsed = parse_json(text)
    assert parsed.positions["/a"] == (2, 3)
    assert parsed.positions["/a/b"] == (3, 5)
    assert parsed.positions["/a/b/1"] == (4, 7)


def test_pointer_escaping_for_keys_with_slash_and_tilde() -> None:
    parsed = parse_json('{"paths": {"/v1/runs": {"~x": 1}}}')
    assert "/paths/~1v1~1runs/~0x" in parsed.positions


def test_json_duplicate_keys_are_recorded_and_last_value_kept() -> None:
    parsed = parse_json('{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}')
    assert parsed.data == {"a": 3, "b": 2}
    [duplicate] = parsed.duplicates
    assert (duplicate.pointer, duplicate.first, duplicate.again) == ("/a", (2, 3), (4, 3))


def test_json_syntax_error_location() -> None:
    with pytest.raises(ParseFailure) as caught:
        parse_json('{\n  "type": "object",\n  "required": ["id"],\n}\n')
    # At the trailing comma, which is the fault, not at the `}` after it (issue 25, item 16).
    assert (caught.value.line, caught.value.column) == (3, 21)


def test_deep_json_nesting_is_a_parse_failure_not_a_recursion_error() -> None:
    with pytest.raises(ParseFailure, match=f"deeper than {MAX_DEPTH}"):
        parse_json("[" * 10_000 + "]" * 10_000)


def test_yaml_is_read_as_yaml_1_2() -> None:
    parsed = parse_yaml("on: push\nno: 1\nversion: 1.10\ndate: 2026-06-11\n")
    assert parsed.data == {"on": "push", "no": 1, "version": 1.1, "date": "2026-06-11"}
    assert parsed.positions["/no"] == (2, 1)


def test_yaml_duplicate_key() -> None:
    parsed = parse_yaml("info:\n  title: a\n  title: b\n")
    assert parsed.data == {"info": {"title": "b"}}
    assert [(d.pointer, d.first, d.again) for d in parsed.duplicates] == [
        ("/info/title", (2, 3), (3, 3))
    ]


def test_yaml_alias_bomb_is_refused() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        refs = ", ".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    with pytest.raises(ParseFailure, match="alias bomb"):
        parse_yaml("\n".join(lines) + "\n")


def test_yaml_syntax_error_location() -> None:
    with pytest.raises(ParseFailure) as caught:
        parse_yaml("a:\n  b: [1, 2\nc: 3\n")
    assert caught.value.line >= 2


def test_yaml_multiple_documents_rejected() -> None:
    with pytest.raises(ParseFailure, match="more than one YAML document"):
        parse_yaml("a: 1\n---\nb: 2\n")


@settings(derandomize=True, max_examples=200)
@given(json_values, st.sampled_from([None, 2]))
def test_a_document_read_by_the_c_decoder_has_the_scanners_data_and_positions(
    value: Any, indent: int | None
) -> None:
    """`fast_json` skips the position scanner; the positions found later are the scanner's."""
    from speclint.model.corpus import parse_document

    text = json.dumps(value, indent=indent)
    document = parse_document("a.json", text)
    scanned = parse_json(text)
    assert document.data == scanned.data
    if document.positions_from:
        assert document.positions == {}  # not yet: nothing asked for one
    for pointer in pointers(scanned.data):
        assert document.position(pointer) == scanned.positions[pointer]


def test_what_only_the_scanner_can_judge_is_left_to_it() -> None:
    from speclint.parsing.structured import fast_json

    assert fast_json('{"a": 1, "b": [true, null]}') == ({"a": 1, "b": [True, None]},)
    for text in (
        '{"a": 1, "a": 2}',  # a duplicate key: the scanner records where
        '{"a": NaN}',  # not JSON
        "\ufeff{}",  # a byte-order mark
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),  # deeper than the scanner allows
        '{"a": }',  # broken: the scanner says where
    ):
        assert fast_json(text) is None, text


def test_yaml_core_schema_scalars_through_libyaml() -> None:
    """YAML 1.2.2 §10.3.2: 1.1's `yes`/`on` and `017` octal are gone; `0o17` and `0x1F` are
    integers; a value that is not what its explicit tag says is a parse failure."""
    parsed = parse_yaml("a: yes\nb: 017\nc: 0o17\nd: 0x1F\ne: .inf\nf: ~\ng: TRUE\nh: '3'\n")
    assert parsed.data == {
        "a": "yes",
        "b": 17,
        "c": 15,
        "d": 31,
        "e": float("inf"),
        "f": None,
        "g": True,
        "h": "3",
    }
    with pytest.raises(ParseFailure) as failure:
        parse_yaml("x: !!int abc\n")
    assert (failure.value.line, failure.value.column) == (1, 4)


def test_without_libyaml_ruamel_composes_the_same_document(monkeypatch: pytest.MonkeyPatch) -> None:
    import speclint.parsing.structured as structured

    text = "on: push\nb: 017\nlist:\n  - {x: 1, y: [a, b]}\nq: 'yes'\na: 1\na: 2\n"
    fast = parse_yaml(text)
    monkeypatch.setattr(structured, "_libyaml_loader", lambda: None)
    slow = parse_yaml(text)
    assert (slow.data, slow.positions, slow.duplicates) == (
        fast.data,
        fast.positions,
        fast.duplicates,
    )


def test_local_references_are_followed_to_where_they_lead() -> None:
    data = {
        "components": {
            "responses": {"Alias": {"$ref": "#/components/responses/Job"}, "Job": {"a": 1}},
            "a b": {"x": 2},
            "loop": {"$ref": "#/components/loop"},
            "other": {"$ref": "other.yaml#/Job"},
            "anchor": {"$ref": "#job"},
        },
        "job": {"wrong": True},
    }
    # A chain of references, each hop followed, with the pointer where it ends.
    assert follow_local(data, {"$ref": "#/components/responses/Alias"}, "/x") == (
        "/components/responses/Job",
        {"a": 1},
    )
    assert follow_local(data, {"$ref": "#/components/a%20b"}) == ("/components/a b", {"x": 2})
    assert follow_local(data, {"$ref": "#"}) == ("", data)
    # No reference: the node where it is.
    assert follow_local(data, {"a": 1}, "/p") == ("/p", {"a": 1})
    # Nowhere, and around a loop: None.
    assert follow_local(data, {"$ref": "#/missing"}) == ("/missing", None)
    assert follow_local(data, {"$ref": "#/components/loop"})[1] is None
    # Another document, an anchor: not followed here (an anchor is no pointer: not `/job`).
    other = data["components"]["other"]
    assert follow_local(data, other) == ("", other)
    assert follow_local(data, {"$ref": "#/components/anchor"})[1] == {"$ref": "#job"}
    assert local_pointer("#job") is None and local_pointer("other.yaml#/a") is None


def test_a_chain_longer_than_the_hops_allowed_is_a_loop() -> None:
    data: dict[str, object] = {f"r{n}": {"$ref": f"#/r{n + 1}"} for n in range(LOCAL_HOPS + 1)}
    data[f"r{LOCAL_HOPS + 1}"] = {"a": 1}  # the chain ends somewhere: only the hop limit refuses it
    assert follow_local(data, data["r0"])[1] is None
    short: dict[str, object] = {f"r{n}": {"$ref": f"#/r{n + 1}"} for n in range(LOCAL_HOPS - 1)}
    short[f"r{LOCAL_HOPS - 1}"] = {"a": 1}
    assert follow_local(short, short["r0"])[1] == {"a": 1}


def test_a_tab_in_a_block_scalars_content_is_yaml_12_though_libyaml_refuses_it() -> None:
    # YAML 1.2.2 §8.1.1.2: once the indentation is given by spaces, a tab is content. libyaml
    # refuses it; the document is read (by ruamel's YAML 1.2 reader) and keeps its positions.
    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML built without libyaml: ruamel reads every document here")
    text = "env:\n  - name: A\n    note: >\n      \tone\n  - name: B\n"
    with pytest.raises(yaml.YAMLError):
        yaml.load(text, Loader=yaml.CSafeLoader)  # the case: libyaml refuses it
    parsed = parse_yaml(text)
    assert parsed.data == {"env": [{"name": "A", "note": "\tone\n"}, {"name": "B"}]}
    assert parsed.positions["/env/1/name"] == (5, 5)


def test_a_document_both_readers_refuse_is_still_a_parse_failure() -> None:
    with pytest.raises(ParseFailure):
        parse_yaml("a: [1, 2\nb: 3\n")
