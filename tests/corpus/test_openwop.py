"""speclint on the real OpenWOP snapshot in ../shared (skipped, saying why, when it is absent).

The expectations are derived from the snapshot's own files, not hard-coded: which $ref targets exist
on disk decides which references must be reported unresolved.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.openwop

REF = re.compile(r"""\$ref:\s*['"]?(\.\./schemas/[^'"#\s]+)""")


@pytest.fixture(scope="module")
def report(openwop_root: Path) -> dict[str, object]:
    openwop = openwop_root
    result = subprocess.run(
        [sys.executable, "-m", "speclint", "check", str(openwop), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    parsed: dict[str, object] = json.loads(result.stdout)
    return parsed


@pytest.fixture(scope="module")
def openwop_root() -> Path:
    from conftest import OPENWOP

    if not (OPENWOP / "SNAPSHOT.md").is_file():
        pytest.skip(f"the shared OpenWOP snapshot is not at {OPENWOP}")
    return OPENWOP


def test_every_missing_schema_file_is_one_finding_listing_all_its_sites(
    report: dict[str, object], openwop_root: Path
) -> None:
    sites: dict[str, int] = defaultdict(int)
    for name in ("openapi.yaml", "asyncapi.yaml"):
        for target in REF.findall((openwop_root / "api" / name).read_text(encoding="utf-8")):
            if not (openwop_root / "api" / target).resolve().is_file():
                sites[target[len("../") :]] += 1
    findings = [f for f in report["findings"] if f["rule"] == "unresolved-ref"]  # type: ignore[index]
    by_target = {}
    for finding in findings:
        match = re.search(r"→ `([^`]+)` does not exist", finding["message"])
        if match:
            by_target[match.group(1)] = finding
    assert sites, "the snapshot is expected to miss some referenced schemas"
    assert "schemas/error-envelope.schema.json" in sites
    for target, count in sites.items():
        finding = by_target[target]
        # Sites in schemas may add to the API documents' count; never fewer.
        assert 1 + len(finding["related"]) >= count, target


def test_checks_independent_of_missing_files_still_run(report: dict[str, object]) -> None:
    rules = Counter(f["rule"] for f in report["findings"])  # type: ignore[index]
    assert rules["parse-error"] == 0
    assert "internal-error" not in rules
