"""overlay-breaks-document: the cases its documentation leaves to the tests, each named after it.

The rule validates the document as the actions leave it; these pin how an action changes it
(Overlay 1.0.0 and 1.1.0 §4.4.3), which decides what the result is judged on.
"""

from __future__ import annotations

from typing import Any

from speclint.analyses.workflows.overlays import Action, actions_of, apply_action


def action(release: str, target: str, **fields: object) -> Action:
    overlay = {"overlay": release, "actions": [{"target": target, **fields}]}
    return actions_of(overlay)[0]


def document() -> dict[str, Any]:
    return {"info": {"title": "A", "tags": ["x"]}, "paths": {"/a": {"get": {}}, "/b": {"put": {}}}}


def test_overlay_breaks_document_replaces_an_array_member_in_a_1_0_merge_and_concatenates_it_in_1_1() -> (
    None
):
    update = {"tags": ["y"]}
    replaced = apply_action(document(), action("1.0.0", "$.info", update=update))
    assert replaced["info"]["tags"] == ["y"]
    concatenated = apply_action(document(), action("1.1.0", "$.info", update=update))
    assert concatenated["info"]["tags"] == ["x", "y"]


def test_overlay_breaks_document_applies_a_copy_only_when_it_selects_exactly_one_node() -> None:
    one = apply_action(document(), action("1.1.0", "$.paths['/a']", copy="$.info"))
    assert one["paths"]["/a"] == {"get": {}, "title": "A", "tags": ["x"]}
    several = apply_action(document(), action("1.1.0", "$.info", copy="$.paths.*"))
    assert several == document()
    none = apply_action(document(), action("1.1.0", "$.info", copy="$.missing"))
    assert none == document()
