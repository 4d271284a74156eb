"""The subsumption proof: yes only when sure, within its step budget."""

from __future__ import annotations

from typing import Any

from speclint.analyses.schemas.subsumption import At, Prover


def proves(a: Any, b: Any, steps: int = 4000) -> bool:
    prover = Prover(lambda path, pointer: None, steps)
    return prover.subsumes(At("s.json", "/a", a), At("s.json", "/b", b))


def test_annotations_and_unknown_formats_do_not_separate_schemas() -> None:
    a = {"type": "string", "format": "order-id", "title": "A", "x-kind": 1}
    assert proves(a, {"type": "string", "description": "B"})
    assert proves({"type": "string"}, a)


def test_known_format_is_a_constraint() -> None:
    assert not proves({"type": "string"}, {"type": "string", "format": "uuid"})
    assert proves({"type": "string", "format": "uuid"}, {"type": "string"})


def test_integer_is_within_number_not_the_other_way() -> None:
    assert proves({"type": "integer"}, {"type": "number"})
    assert not proves({"type": "number"}, {"type": "integer"})


def test_nullable_is_proved_in_both_readings() -> None:
    # 3.0 reads `nullable` (adds null), 3.1 ignores it: proved only when both agree.
    assert not proves({"type": "string", "nullable": True}, {"type": "string"})
    assert proves({"type": "string"}, {"type": "string", "nullable": True})


def test_open_object_does_not_fit_a_declared_member_it_leaves_free() -> None:
    b = {"type": "object", "properties": {"id": {"type": "string"}}}
    assert not proves({"type": "object"}, b)
    closed = {"type": "object", "additionalProperties": False}
    assert proves(closed, b)


def test_unevaluated_keywords_are_never_proved() -> None:
    b = {"type": "object", "unevaluatedProperties": False}
    assert not proves(b, b)


def test_unresolved_ref_is_no_proof() -> None:
    assert not proves({"$ref": "#/nowhere"}, {"type": "string"})


def test_a_proof_past_its_budget_is_no_proof() -> None:
    deep: Any = {"type": "string"}
    for _ in range(30):
        deep = {"type": "object", "properties": {"x": deep}, "required": ["x"]}
    assert proves(deep, deep)
    assert not proves(deep, deep, steps=5)
