"""Arazzo runtime expressions (issue 49, item 4): what they name resolves to declared inputs,
steps, outputs, workflows, sources and components (arazzo-unresolved-expression), to the
response of the step's operation (arazzo-response-pointer); action targets and dependsOn name
existing steps and workflows (arazzo-unknown-target); ids are unique (arazzo-duplicate-id).
Fixtures: a small shop API and workflows written for these tests."""

from __future__ import annotations

from speclint.parsing.runtime_expressions import (
    expressions_in,
    expressions_in_condition,
    name_prefixes,
)


def test_bare_and_embedded_expressions_are_read() -> None:
    (bare,) = expressions_in("$steps.place.outputs.orderId")
    assert (bare.root, bare.rest) == ("steps", "place.outputs.orderId")
    embedded = expressions_in("Bearer {$inputs.token} for {$inputs.user}")
    assert [e.text for e in embedded] == ["$inputs.token", "$inputs.user"]
    # A literal dollar amount and a JSONPath root are no runtime expressions.
    assert expressions_in("$100") == [] and expressions_in("plain") == []


def test_an_embedded_expression_ends_at_white_space() -> None:
    (expression,) = expressions_in("{$steps.a.outputs.b || 'fallback'}")
    assert expression.text == "$steps.a.outputs.b"


def test_a_condition_yields_its_expressions_not_its_literals() -> None:
    found = expressions_in_condition(
        "$statusCode == 200 && ($response.body#/state != '$inputs.x') && $inputs.page[size] > 1"
    )
    assert [e.text for e in found] == ["$statusCode", "$response.body#/state", "$inputs.page[size]"]
    (inside,) = expressions_in_condition("$[?@.id == $steps.a.outputs.id]")
    assert inside.text == "$steps.a.outputs.id"


def test_names_may_hold_dots_and_brackets() -> None:
    assert list(name_prefixes("page[size]")) == ["page[size]", "page"]
    assert list(name_prefixes("list.items[0]#/id")) == [
        "list.items[0]#/id",
        "list.items[0]",
        "list.items",
        "list",
    ]
