"""``undocumented-field`` on fixtures written here, one test a case, named after it. The rule: a
field the prose documents as part of a shape that the (closed) schema of that shape rejects."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import dedented as page
from conftest import run_rule, schema

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


CAPABILITIES = schema(
    title="Capabilities",
    type="object",
    properties={
        "limits": {
            "type": "object",
            "properties": {"maxRuns": {"type": "integer"}},
            "additionalProperties": False,
        },
        "grpc": {"type": "object"},
        "type": {"enum": ["host.started", "host.stopped"]},
    },
    additionalProperties=False,
)


@pytest.mark.parametrize(
    ("span", "sentence", "reported"),
    [
        ("limits.maxBodyBytes", "The capabilities document carries {span}.", True),
        ("capabilities.limits.maxBodyBytes", "A host sets {span}.", True),
        ("capabilities.extra", "A host sets {span}.", True),
        ("limits.maxRuns", "The capabilities document carries {span}.", False),
        ("grpc.service", "The capabilities document carries {span}.", False),  # open object
        ("host.started", "The capabilities host emits {span}.", False),  # an enum value
        ("limits.maxBodyBytes", "A future capabilities revision MAY add {span}.", False),
        ("limits.maxBodyBytes", "Unrelated prose about {span}.", False),  # schema not named
        ("run.started", "The capabilities document has {span}.", False),  # binds to nothing
    ],
)
def test_undocumented_field_validates_a_minimal_instance(
    make_corpus: MakeCorpus, span: str, sentence: str, reported: bool
) -> None:
    text = page(
        f"""
        # Limits

        See [the schema](../schemas/capabilities.schema.json).

        {sentence.format(span=f"`{span}`")}
        """
    )
    root = make_corpus({"schemas/capabilities.schema.json": CAPABILITIES, "spec/caps.md": text})
    found = run_rule(root, "undocumented-field")
    assert bool(found) is reported, [f.message for f in found]
    if found:
        [finding] = found
        row = text.split("\n")[finding.location.line - 1]
        assert row[finding.location.column - 1 :].startswith(f"`{span}`")
        assert finding.related[0].path == "schemas/capabilities.schema.json"
        assert finding.related[0].pointer.endswith("additionalProperties")


def test_openwop_removing_max_request_body_bytes_is_found(openwop: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c"
    shutil.copytree(openwop, copy)
    target = copy / "schemas/capabilities.schema.json"
    document = json.loads(target.read_text(encoding="utf-8"))
    limits = document["properties"]["limits"]
    assert limits.get("additionalProperties") is False
    del limits["properties"]["maxRequestBodyBytes"]
    target.write_text(json.dumps(document, indent=2), encoding="utf-8")
    found = [
        f
        for f in run_rule(copy, "undocumented-field")
        if "`limits.maxRequestBodyBytes`" in f.message
    ]
    on_page = [f for f in found if f.location.path == "spec/v1/capabilities.md"]
    assert on_page, "the documented limits.maxRequestBodyBytes must be reported"
    lines = (copy / "spec/v1/capabilities.md").read_text(encoding="utf-8").split("\n")
    for finding in on_page:
        assert "limits.maxRequestBodyBytes" in lines[finding.location.line - 1]
        assert finding.related[0].path == "schemas/capabilities.schema.json"
    assert run_rule(openwop, "undocumented-field") == [
        f for f in run_rule(openwop, "undocumented-field") if "maxRequestBodyBytes" not in f.message
    ]  # the unmodified snapshot has the field: nothing about it there
