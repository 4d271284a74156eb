"""Decisions against the resources one schema reaches (issue 29, item 4): the registry a
decision is made against holds what its ``$ref``s reach, of a large API document only the parts
reached, so the rule's cost grows with the corpus, not with its square; the verdicts are the
same."""

from __future__ import annotations

from speclint.analyses.schemas.satisfiability import NO, YES, Decider, skeleton

API = {
    "openapi": "3.1.0",
    "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/A"}}}}}}},
    "components": {"schemas": {
        "A": {"allOf": [{"$ref": "#/components/schemas/B"}, {"required": ["x"]}]},
        "B": {"type": "object", "properties": {"y": {}}, "additionalProperties": False},
        "Unrelated": {"type": "string"},
    }},
}  # fmt: skip


def test_a_skeleton_keeps_the_parts_reached_at_their_pointers() -> None:
    kept = skeleton(API, ("/components/schemas/A", "/components/schemas/B"))
    assert kept == {"components": {"schemas": {"A": API["components"]["schemas"]["A"],
                                               "B": API["components"]["schemas"]["B"]}}}  # fmt: skip
    # An ancestor kept whole holds its descendants; the source is never changed.
    whole = skeleton(API, ("/components", "/components/schemas/A"))
    assert whole == {"components": API["components"]}
    assert "Unrelated" in API["components"]["schemas"]
    assert skeleton(API, ("",)) is API


def test_a_focused_decision_gives_the_whole_corpus_verdict() -> None:
    uri = "file:///corpus/api.json"
    probe = {"$ref": f"{uri}#/components/schemas/A"}
    base = "file:///corpus/.probe.json"
    with Decider([(uri, API)]) as whole:
        assert whole.decide(probe, base, stand_in=True) == NO
    reached = ((uri, ("/components/schemas/A", "/components/schemas/B")),)
    with Decider([(uri, API)]) as focused:
        focused.focus(reached)
        assert focused.decide(probe, base, stand_in=True) == NO
        # A scope that misses what the schema reaches cannot decide it: the whole corpus does.
        focused.focus(((uri, ("/components/schemas/A",)),))
        assert focused.decide(probe, base, stand_in=True) == NO
        focused.focus(((uri, ("/components/schemas/Unrelated",)),))
        assert focused.decide({"$ref": f"{uri}#/components/schemas/Unrelated"}, base, True) == YES


def test_a_reference_out_of_the_scope_is_decided_by_the_whole_corpus() -> None:
    # `a` reaches `b`, which accepts nothing; a scope holding `a` alone must not answer "yes"
    # (a stand-in for `b`): the reference out of it is an error, and the whole corpus decides.
    a, b = "file:///corpus/a.json", "file:///corpus/b.json"
    resources = [
        (a, {"allOf": [{"$ref": "b.json"}]}),
        (b, {"allOf": [{"type": "string"}, {"type": "integer"}]}),
    ]
    probe, base = {"$ref": a}, "file:///corpus/.probe.json"
    with Decider(resources) as whole:
        assert whole.decide(probe, base, stand_in=True) == NO
    with Decider(resources) as focused:
        focused.focus(((a, ()),))
        assert focused.decide(probe, base, stand_in=True) == NO
