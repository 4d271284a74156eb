"""copy-drift: the special cases its docstring leaves out, each a test named after it.
Fixtures: two schema files of one folder defining `Channel`, written for these tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def channel(kind: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["kind", "to"],
        "properties": {"kind": kind, "to": {"type": "string"}},
        **more,
    }


def drift(make_corpus: MakeCorpus, first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """The copy-drift messages of `Channel` defined as ``first`` in one file and ``second`` in
    another of the same folder."""
    files: dict[str, str | bytes] = {
        "schemas/sms.schema.json": schema(**{"$defs": {"Channel": first}}),
        "schemas/mail.schema.json": schema(**{"$defs": {"Channel": second}}),
    }
    return [f.message for f in run_rule(make_corpus(files), "copy-drift")]


def test_copy_drift_reads_a_one_value_enum_as_that_const(make_corpus: MakeCorpus) -> None:
    const = channel({"const": "sms"})
    assert drift(make_corpus, const, channel({"enum": ["sms"]})) == []
    (message,) = drift(make_corpus, const, channel({"enum": ["sms", "mms"]}))
    assert "2 definitions of `Channel` disagree" in message
