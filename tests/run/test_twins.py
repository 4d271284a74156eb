"""Issue 26: one document published as JSON and as YAML (``json/x.json`` beside ``yaml/x.yaml``,
``src/x.yaml`` beside ``json/x.json``): a defect in both copies is one finding, at the YAML copy,
with the JSON copy as a related location; a defect only one copy has is kept; a pairing that could
go two ways is not made."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from speclint.run.twins import twins

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

JSON_COPY = (
    '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n'
    '  "type": "object",\n  "properties": {\n    "name": {"type": "string", "minLength": -1}%s\n'
    "  }\n}\n"
)
YAML_COPY = """\
$schema: https://json-schema.org/draft/2020-12/schema
type: object
properties:
  name:
    type: string
    minLength: -1
"""


def findings(root: Path) -> list[dict[str, object]]:
    run = cli("check", str(root), "--no-cache", "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    return list(json.loads(run.stdout)["findings"])


def test_a_defect_of_both_formats_is_one_finding_at_the_yaml_copy(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "models/json/thing.json": JSON_COPY
            % ',\n    "size": {"type": "integer", "minimum": "zero"}',
            "models/src/thing.yaml": YAML_COPY,
        }
    )
    found = [f for f in findings(root) if f["rule"] == "schema-invalid"]
    at = {(f["location"]["path"], f["location"]["pointer"]) for f in found}  # type: ignore[index]
    assert ("models/src/thing.yaml", "/properties/name/minLength") in at
    assert ("models/json/thing.json", "/properties/name/minLength") not in at
    # Only the JSON copy has this one: nothing to fold it with.
    assert ("models/json/thing.json", "/properties/size/minimum") in at
    (both,) = [f for f in found if f["location"]["path"] == "models/src/thing.yaml"]  # type: ignore[index]
    assert [r["path"] for r in both["related"]] == ["models/json/thing.json"]  # type: ignore[index]


def test_unpaired_and_ambiguous_copies_are_each_reported(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            # Two YAML candidates for one JSON file: which is its source is not known.
            "a/json/thing.json": JSON_COPY % "",
            "a/src/thing.yaml": YAML_COPY,
            "a/yaml/thing.yaml": YAML_COPY,
            # Folders two names apart are not a format pair.
            "b/one/json/other.json": JSON_COPY % "",
            "c/two/yaml/other.yaml": YAML_COPY,
        }
    )
    paths = {f["location"]["path"] for f in findings(root) if f["rule"] == "schema-invalid"}  # type: ignore[index]
    assert paths == {
        "a/json/thing.json",
        "a/src/thing.yaml",
        "a/yaml/thing.yaml",
        "b/one/json/other.json",
        "c/two/yaml/other.yaml",
    }


def test_the_preferred_twin_is_hand_written_then_yaml() -> None:
    pairs = twins(["s/json/a.json", "s/yaml/a.yaml", "t/a.json", "t/a.yml", "u.json"], {})
    assert pairs == {
        "s/json/a.json": "s/yaml/a.yaml",
        "s/yaml/a.yaml": "s/yaml/a.yaml",
        "t/a.json": "t/a.yml",
        "t/a.yml": "t/a.yml",
    }
    generated = {"s/yaml/a.yaml": "a `DO NOT EDIT` header"}
    assert twins(["s/json/a.json", "s/yaml/a.yaml"], generated)["s/yaml/a.yaml"] == "s/json/a.json"
