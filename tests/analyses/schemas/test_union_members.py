"""Union members paired by meaning (``union_members``) and the changes ``speclint changes``
reports for them: a member added or removed, and every other member compared with itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_diff_base import git

from conftest import cli_in_process as cli  # what `speclint changes` prints: no process needed
from speclint.analyses.changes.schema_assertions import covers
from speclint.analyses.schemas.union_members import (
    MemberReading,
    member_name,
    member_reading,
    pair_members,
)

# --- the pairing -------------------------------------------------------------------------------


def shape(kind: str, *properties: str, **extra: Any) -> dict[str, Any]:
    """An object member told apart by ``kind``, with ``properties`` beside it."""
    return {
        "type": "object",
        "properties": {"kind": {"const": kind}, **{p: {"type": "string"} for p in properties}},
        "required": ["kind"],
        **extra,
    }


def read(*members: Any) -> list[MemberReading]:
    return [member_reading(m) for m in members]


def test_members_pair_by_target_whatever_their_order() -> None:
    base = [
        member_reading({}, target="a.json#/$defs/A"),
        member_reading({}, target="a.json#/$defs/B"),
    ]
    head = [member_reading({"x": 1}, target=f"a.json#/$defs/{n}") for n in ("C", "B", "A")]
    pairing = pair_members(base, head)
    assert pairing.pairs == ((0, 2), (1, 1))
    assert (pairing.removed, pairing.added) == ((), (0,))


def test_a_moved_target_with_the_same_content_is_the_same_member() -> None:
    circle = shape("circle", "radius")
    base = [member_reading(circle, target="s.json#/$defs/Circle")]
    head = [member_reading(shape("dot"), target="t.json#/$defs/Dot")]
    head.append(member_reading(circle, target="t.json#/$defs/Round"))
    assert pair_members(base, head).pairs == ((0, 1),)


def test_a_target_name_pairs_across_definitions_and_defs() -> None:
    base = [member_reading(shape("a", "x"), target="s.json#/definitions/Text")]
    head = [member_reading(shape("b", "y"), target="s.json#/$defs/Text")]
    assert pair_members(base, head).pairs == ((0, 0),)


def test_a_discriminator_pairs_before_similarity() -> None:
    # The head's first member is the base's second by its `kind`, though it looks more like
    # the base's first.
    base = read(shape("circle", "radius", "unit"), shape("square", "side"))
    head = read(shape("square", "radius", "unit"), shape("circle", "side"))
    assert pair_members(base, head).pairs == ((0, 1), (1, 0))


def test_a_value_every_member_has_is_no_discriminator() -> None:
    base = read(
        {"properties": {"jsonrpc": {"const": "2.0"}, "a": {}}, "required": ["a"]},
        {"properties": {"jsonrpc": {"const": "2.0"}, "b": {}}, "required": ["b"]},
    )
    head = read({"properties": {"jsonrpc": {"const": "2.0"}, "c": {}}, "required": ["c"]})
    pairing = pair_members(base, head)
    assert pairing.pairs == ()
    assert (pairing.removed, pairing.added) == ((0, 1), (0,))


def test_members_told_apart_by_their_discriminator_are_not_paired_by_likeness() -> None:
    # Every JSON-RPC request has the same members; `method` says which request it is.
    base = read(shape("initialize", "id", "params"), shape("ping", "id"))
    head = read(shape("discover", "id", "params"), shape("ping", "id"))
    pairing = pair_members(base, head)
    assert pairing.pairs == ((1, 1),)
    assert (pairing.removed, pairing.added) == ((0,), (0,))


def test_a_title_pairs_a_member_whose_content_changed() -> None:
    base = read({"title": "Point", "type": "array"}, {"title": "Label", "type": "string"})
    head = read({"title": "Label", "type": "string", "maxLength": 9}, {"title": "Point"})
    assert pair_members(base, head).pairs == ((0, 1), (1, 0))


def test_similar_members_pair_and_unrelated_ones_do_not() -> None:
    base = read(
        {"type": "object", "properties": {"x": {}, "y": {}}, "required": ["x", "y"]},
        {"type": "object", "properties": {"name": {}, "email": {}}},
    )
    head = read(
        {"type": "object", "properties": {"street": {}, "city": {}}},
        {"type": "object", "properties": {"x": {}, "y": {}, "z": {}}, "required": ["x", "y"]},
    )
    pairing = pair_members(base, head)
    assert pairing.pairs == ((0, 1),)
    assert (pairing.removed, pairing.added) == ((1,), (0,))


def test_an_openapi_mapping_is_a_discriminator() -> None:
    base = [
        member_reading({"type": "object"}, mapped=[("petType", "cat")]),
        member_reading({"type": "object"}, mapped=[("petType", "dog")]),
    ]
    head = [
        member_reading({"type": "object", "required": ["bark"]}, mapped=[("petType", "dog")]),
        member_reading({"type": "object", "required": ["purr"]}, mapped=[("petType", "cat")]),
    ]
    assert pair_members(base, head).pairs == ((0, 1), (1, 0))


def test_a_member_is_named_by_what_sets_it_apart() -> None:
    members = [
        member_reading({}, target="s.json#/$defs/Circle"),
        member_reading({"properties": {"v": {"const": 1}, "kind": {"const": "dot"}}}),
        member_reading({"properties": {"v": {"const": 1}}, "title": "Blank"}),
        member_reading({"type": ["string", "null"]}),
        member_reading({"type": "object", "properties": {p: {} for p in "abcde"}}),
        member_reading({"required": ["amount"]}),
    ]
    assert [member_name(members, i) for i in range(6)] == [
        "`Circle`",
        "`kind: dot`",
        "`Blank`",
        "#3 (`null`, `string`)",
        "#4 (`object` with `a`, `b`, `c` and 2 more)",
        "#5 (requiring `amount`)",
    ]


# --- the changes, end to end on a git repository ------------------------------------------------

DEFS = {
    "Circle": shape("circle", "radius"),
    "Square": shape("square", "side"),
    "Triangle": shape("triangle", "base", "height"),
}


def schema(union: dict[str, Any], defs: dict[str, Any] | None = None) -> str:
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.org/shapes/shape.schema.json",
            **union,
            "$defs": DEFS if defs is None else defs,
        },
        indent=2,
    )


def refs(*names: str) -> list[dict[str, str]]:
    return [{"$ref": f"#/$defs/{name}"} for name in names]


def history(tmp_path: Path, base: str, head: str, role: str, **more: str) -> Path:
    """A repository whose last commit changes ``shapes/shape.schema.json`` from ``base`` to
    ``head``; the schema has ``role`` (``[roles]``)."""
    repo = tmp_path / "spec-repo"
    (repo / "shapes").mkdir(parents=True)
    (repo / "speclint.toml").write_text(f'[roles]\n"shapes/shape.schema.json" = "{role}"\n')
    for name, text in more.items():
        (repo / name).write_text(text)
    schema_file = repo / "shapes/shape.schema.json"
    schema_file.write_text(base)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    schema_file.write_text(head)
    git(repo, "commit", "-q", "-am", "head")
    return repo


def changes(repo: Path, *options: str) -> list[str]:
    listed = cli("changes", ".", "--diff-base", "HEAD~1", *options, cwd=repo)
    assert listed.returncode in (0, 1), listed.stderr
    return [line.split(": ", 1)[1] for line in listed.stdout.splitlines()]


def test_a_member_inserted_at_the_front_of_a_result_union_is_the_one_change(
    tmp_path: Path,
) -> None:
    repo = history(
        tmp_path,
        schema({"anyOf": refs("Circle", "Square")}),
        schema({"anyOf": refs("Triangle", "Circle", "Square")}),
        "server-emitted",
    )
    assert changes(repo) == [
        "breaking [union member added] `anyOf` of server-emitted `shapes/shape.schema.json#/` "
        "has a new member `Triangle`: a client validating against the base rejects values "
        "that match only it, and no ignore-unknown statement covers it"
    ]


def test_a_new_member_an_ignore_unknown_statement_covers_is_additive(tmp_path: Path) -> None:
    repo = history(
        tmp_path,
        schema({"anyOf": refs("Circle", "Square")}),
        schema({"anyOf": refs("Triangle", "Circle", "Square")}),
        "server-emitted",
        **{"COMPATIBILITY.md": "# Compatibility\n\nClients MUST ignore unknown enum values.\n"},
    )
    (line,) = changes(repo)
    assert line.startswith("additive [union member added]")


def test_a_variant_removed_from_a_request_one_of_is_breaking(tmp_path: Path) -> None:
    repo = history(
        tmp_path,
        schema({"oneOf": refs("Circle", "Square", "Triangle")}),
        schema({"oneOf": refs("Circle", "Square")}),
        "client-submitted",
    )
    assert changes(repo) == [
        "breaking [union member removed] `oneOf` of client-submitted "
        "`shapes/shape.schema.json#/` no longer has member `Triangle`: requests that match "
        "only it are rejected"
    ]
    gated = cli("changes", ".", "--diff-base", "HEAD~1", "--fail-on", "breaking", cwd=repo)
    assert gated.returncode == 1, gated.stdout + gated.stderr


def test_a_variant_added_to_a_request_union_is_additive(tmp_path: Path) -> None:
    repo = history(
        tmp_path,
        schema({"oneOf": refs("Circle", "Square")}),
        schema({"oneOf": refs("Circle", "Square", "Triangle")}),
        "client-submitted",
    )
    (line,) = changes(repo)
    assert line.startswith("additive [union member added]")
    gated = cli("changes", ".", "--diff-base", "HEAD~1", "--fail-on", "breaking", cwd=repo)
    assert gated.returncode == 0, gated.stdout + gated.stderr


def test_reordered_members_are_no_change(tmp_path: Path) -> None:
    repo = history(
        tmp_path,
        schema({"oneOf": [*refs("Circle", "Square"), {"type": "null"}]}),
        schema({"oneOf": [{"type": "null"}, *refs("Square", "Circle")]}),
        "both",
    )
    assert changes(repo) == []


def test_a_member_paired_by_its_discriminator_reports_its_own_change_in_place(
    tmp_path: Path,
) -> None:
    # Inline members, reordered, and the circle's `unit` loses `mm`: the change is the circle's.
    def measured(kind: str, *units: str) -> dict[str, Any]:
        member = shape(kind, "size")
        member["properties"]["unit"] = {"enum": list(units)}
        return member

    square = measured("square", "cm", "mm")
    repo = history(
        tmp_path,
        schema({"oneOf": [measured("circle", "cm", "mm"), square]}, {}),
        schema({"oneOf": [square, measured("circle", "cm")]}, {}),
        "client-submitted",
    )
    (line,) = changes(repo)
    assert line.startswith("breaking [enum value removed] `unit` of client-submitted ")
    assert "`shapes/shape.schema.json#/oneOf/1/properties/unit` no longer accepts `mm`" in line


def test_unrelated_members_are_a_removal_and_an_addition_not_a_change_of_one(
    tmp_path: Path,
) -> None:
    point = {"type": "object", "properties": {"x": {}, "y": {}}, "required": ["x", "y"]}
    address = {"type": "object", "properties": {"street": {}, "city": {}}, "required": ["city"]}
    repo = history(
        tmp_path,
        schema({"anyOf": [point, {"type": "null"}]}, {}),
        schema({"anyOf": [address, {"type": "null"}]}, {}),
        "both",
    )
    assert [line.split(" `", 1)[0] for line in changes(repo)] == [
        "breaking [union member removed]",
        "breaking [union member added]",
    ]


def test_a_plain_schema_that_becomes_a_union_gains_members(tmp_path: Path) -> None:
    repo = history(
        tmp_path,
        schema({"$ref": "#/$defs/Circle"}),
        schema({"anyOf": refs("Circle", "Square")}),
        "server-emitted",
    )
    (line,) = changes(repo)
    assert line.startswith("breaking [union member added] `anyOf` of server-emitted ")
    assert "has a new member `Square`" in line


def test_a_member_added_to_all_of_narrows_a_request(tmp_path: Path) -> None:
    named = {"type": "object", "properties": {"name": {"type": "string"}}}
    dated = {"type": "object", "properties": {"date": {"type": "string"}}, "required": ["date"]}
    repo = history(
        tmp_path,
        schema({"allOf": [named]}, {}),
        schema({"allOf": [named, dated]}, {}),
        "client-submitted",
    )
    (line,) = changes(repo)
    assert line.startswith("breaking [union member added] `allOf` of client-submitted ")
    assert "now also requires member #1 (`object` with `date`)" in line


def test_a_title_beside_a_ref_names_the_member(tmp_path: Path) -> None:
    # A generated union titles each member beside its `$ref`; the target has no title. The
    # acknowledgement was `null` and is an object now: a change of that member, in place.
    ack = {"type": "object", "properties": {"_meta": {}}}
    repo = history(
        tmp_path,
        schema({"anyOf": [{"title": "Ack", "type": "null"}, *refs("Circle")]}),
        schema(
            {"anyOf": [*refs("Circle"), {"$ref": "#/$defs/Ack", "title": "Ack"}]},
            {**DEFS, "Ack": ack},
        ),
        "server-emitted",
    )
    assert sorted(line.split("] ", 1)[0] for line in changes(repo)) == [
        "additive [definition added",  # `$defs/Ack` is new
        "additive [property added",
        "additive [type narrowed",
        "breaking [type widened",
    ]


def test_a_union_of_bare_constraints_is_not_read_as_members(tmp_path: Path) -> None:
    # `type` beside a oneOf of `required` lists: no member is the whole schema, so dropping the
    # oneOf is not "two members removed, one added".
    either = {"oneOf": [{"required": ["x"]}, {"required": ["y"]}]}
    repo = history(
        tmp_path,
        schema({"type": "object", **either}, {}),
        schema({"type": "object"}, {}),
        "both",
    )
    assert not any("[union member" in line for line in changes(repo))


def test_a_member_that_gained_a_property_and_nested_its_required_list_is_the_same() -> None:
    base = read(
        {"properties": {"token": {}, "next": {}}, "required": ["token", "next"]},
        {"properties": {"link": {}, "next": {}}, "required": ["link", "next"]},
    )
    head = read(
        {"properties": {"link": {}, "next": {}}, "required": ["link", "next"]},
        {
            "properties": {"token": {}, "next": {}, "subject": {}},
            "anyOf": [{"required": ["token"]}, {"required": ["subject"]}],
        },
    )
    assert pair_members(base, head).pairs == ((0, 1), (1, 0))


# --- a member one side's union already covers ------------------------------------------------

OPEN_RESULT = {"type": "object", "properties": {"_meta": {"type": "object"}}}
LISTING = {"type": "object", "properties": {"rows": {"type": "array"}}, "required": ["rows"]}
ANSWER = {
    "type": "object",
    "properties": {"_meta": {"type": "object"}, "answer": {"enum": ["yes", "no"]}},
    "required": ["answer"],
}


def test_covers_reads_an_open_object_as_accepting_every_narrower_object() -> None:
    assert covers(OPEN_RESULT, ANSWER)
    assert covers({"type": "number"}, {"type": "integer", "minimum": 0})
    # it requires what the member may leave out
    assert not covers({**OPEN_RESULT, "required": ["_meta"]}, ANSWER)
    # it constrains a property the member leaves free, or differently
    assert not covers(OPEN_RESULT, {"type": "object", "properties": {"answer": {}}})
    assert not covers(OPEN_RESULT, {"type": "object", "properties": {"_meta": {"type": "string"}}})
    # closed, or asserting what the structural reading does not follow
    assert not covers({**OPEN_RESULT, "additionalProperties": False}, ANSWER)
    assert not covers({"$ref": "#/$defs/Result"}, ANSWER)
    assert not covers({"type": "object"}, {"properties": {"a": {}}})  # any type
    assert covers({"enum": ["a", "b"]}, {"const": "a"})
    assert not covers({"enum": ["a"]}, {"enum": ["a", "b"]})


# `Listing` with one more property: a change in a sibling member of the union.
LISTING_WITH_NEXT = {**LISTING, "properties": {**LISTING["properties"], "next": {"type": "string"}}}


def test_a_member_added_that_an_open_base_member_covers_is_no_widening_beside_a_changed_sibling(
    tmp_path: Path,
) -> None:
    # The Model Context Protocol's 2025-06-18 result union gained `ElicitResult` beside an open
    # `Result`. A change in another member (here `Listing` gains `next`), walked first through
    # the union, kept the witnesses from judging the union itself: the structure answers.
    defs = {"Result": OPEN_RESULT, "Listing": LISTING}
    repo = history(
        tmp_path,
        schema({"anyOf": refs("Result", "Listing")}, defs),
        schema(
            {"anyOf": refs("Result", "Listing", "Answer")},
            {"Result": OPEN_RESULT, "Listing": LISTING_WITH_NEXT, "Answer": ANSWER},
        ),
        "server-emitted",
    )
    assert changes(repo)[0] == (
        "additive [union member added] `anyOf` of server-emitted `shapes/shape.schema.json#/` "
        "has a new member `Answer`, covered by the base's member `Result`: every value it "
        "accepts, the base accepted"
    )
    assert not any(line.startswith("breaking") for line in changes(repo))


def test_a_request_member_removed_that_a_remaining_member_covers_is_no_narrowing(
    tmp_path: Path,
) -> None:
    repo = history(
        tmp_path,
        schema(
            {"anyOf": refs("Result", "Listing", "Answer")},
            {"Result": OPEN_RESULT, "Listing": LISTING, "Answer": ANSWER},
        ),
        schema(
            {"anyOf": refs("Result", "Listing")},
            {"Result": OPEN_RESULT, "Listing": LISTING_WITH_NEXT},
        ),
        "client-submitted",
    )
    lines = changes(repo)
    assert (
        "additive [union member removed] `anyOf` of client-submitted "
        "`shapes/shape.schema.json#/` no longer has member `Answer`, which its member `Result` "
        "still accepts: no value is rejected"
    ) in lines
    assert not any(line.startswith("breaking [union member") for line in lines)


def test_a_member_added_to_a_one_of_is_not_read_as_covered(tmp_path: Path) -> None:
    # Under oneOf a value two members accept is rejected: an open member covers nothing.
    defs = {"Result": OPEN_RESULT, "Listing": LISTING}
    repo = history(
        tmp_path,
        schema({"oneOf": refs("Result", "Listing")}, defs),
        schema(
            {"oneOf": refs("Result", "Listing", "Answer")},
            {"Result": OPEN_RESULT, "Listing": LISTING_WITH_NEXT, "Answer": ANSWER},
        ),
        "server-emitted",
    )
    assert "covered by" not in changes(repo)[0]
