"""The official JSON-Schema-Test-Suite (draft 2020-12 allOf, additionalProperties and
unevaluatedProperties) as a property check of unsatisfiable-schema: a schema with a listed valid
instance is never reported unsatisfiable, no property a valid instance carries is reported
unreachable, and every listed valid instance validates through speclint's own validation path.

The three files are the suite's, copied unchanged from the copy jsonschema's sdist vendors (see
tests/data/json-schema-test-suite/PROVENANCE.json; a test checks the hashes).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from speclint.analyses.context import Context
from speclint.run.catalog import all_rules
from conftest import DATA

SUITE = DATA / "json-schema-test-suite"


def groups() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted((SUITE / "draft2020-12").glob("*.json")):
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            found.append((f"{path.stem}-{index}", group))
    return found


def test_suite_files_match_their_provenance() -> None:
    provenance = json.loads((SUITE / "PROVENANCE.json").read_text(encoding="utf-8"))
    for name, digest in provenance["files"].items():
        assert hashlib.sha256((SUITE / name).read_bytes()).hexdigest() == digest


def test_no_schema_with_a_valid_instance_is_reported(tmp_path: Path) -> None:
    files = {f"schemas/{name}.schema.json": group["schema"] for name, group in groups()}
    for relative, content in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(json.dumps(content), encoding="utf-8")
    findings = list(
        all_rules()["unsatisfiable-schema"].check(Context.load(tmp_path), {"scope": "all"})
    )
    by_file: dict[str, list[str]] = {}
    for finding in findings:
        by_file.setdefault(finding.location.path, []).append(finding.message)
    checked = 0
    for name, group in groups():
        valid = [test["data"] for test in group["tests"] if test["valid"]]
        if not valid:
            continue
        checked += 1
        messages = by_file.get(f"schemas/{name}.schema.json", [])
        assert not any("no instance can satisfy" in m for m in messages), (name, messages)
        carried = {key for instance in valid if isinstance(instance, dict) for key in instance}
        for message in messages:
            assert not any(f"property `{key}`" in message for key in carried), (name, message)
    assert checked >= 50  # 53 of the 62 groups list a valid instance


@pytest.mark.parametrize(("name", "group"), groups(), ids=[name for name, _ in groups()])
def test_listed_instances_validate_as_the_suite_says(name: str, group: dict[str, Any]) -> None:
    from referencing import Registry

    validator = Draft202012Validator(group["schema"], registry=Registry())
    for test in group["tests"]:
        assert validator.is_valid(test["data"]) is test["valid"], (name, test["description"])


@pytest.mark.parametrize("schema", [False, {"allOf": [True, False]}])
def test_false_and_allof_true_false_are_unsatisfiable(schema: Any) -> None:
    from speclint.analyses.schemas.satisfiability import NO, Decider

    with Decider([]) as decider:
        assert decider.decide(schema, "file:///corpus/x.json", stand_in=True) == NO
