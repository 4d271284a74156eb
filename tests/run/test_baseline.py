"""Baselines: known findings are accepted, new ones fail, fixed ones are listed for removal."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import cli

from conftest import copy_bundled_corpus, write_files


def copy_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    return root


def test_baseline_accepts_known_findings_and_fails_on_new_ones(tmp_path: Path) -> None:
    root = copy_corpus(tmp_path)
    baseline = tmp_path / "baseline.json"
    written = cli("baseline", "write", str(root), "--output", str(baseline))
    assert written.returncode == 0, written.stderr
    entries = json.loads(baseline.read_text())["entries"]
    assert entries == sorted(entries, key=lambda e: (e["path"], e["rule"], e["where"], e["id"]))
    assert cli("check", str(root)).returncode == 1
    clean = cli("check", str(root), "--baseline", str(baseline))
    assert clean.returncode == 0 and "no new findings" in clean.stdout
    assert f"{len(entries)} known finding(s) not shown, 0 new" in clean.stderr

    # Lines move above a known finding: it is still the same finding.
    error = root / "schemas/error.schema.json"
    error.write_text("\n\n\n" + error.read_text())
    assert cli("check", str(root), "--baseline", str(baseline)).returncode == 0

    # A new defect fails the run on its own; a fixed one is listed for removal.
    ack = root / "schemas/heartbeat-ack.schema.json"
    ack.write_text(ack.read_text().replace('"title":', '"title": "Ack",\n  "title":', 1))
    capabilities = root / "spec/capabilities.md"
    capabilities.write_text(
        capabilities.read_text().replace(
            "| `limits.maxRequestBodyBytes` | integer | largest request body the host accepts |\n",
            "",
        )
    )
    gated = cli("check", str(root), "--baseline", str(baseline))
    assert gated.returncode == 1
    reported = [line for line in gated.stdout.splitlines() if "] " in line and ": " in line]
    assert len(reported) == 1 and "heartbeat-ack.schema.json" in reported[0], gated.stdout
    assert "[duplicate-key]" in reported[0]
    assert "fixed: [undocumented-field] spec/capabilities.md" in gated.stderr


def test_no_rule_crashes_on_a_schema_with_an_unknown_type(tmp_path: Path) -> None:
    root = copy_corpus(tmp_path)
    snapshot = root / "schemas/run-snapshot.schema.json"
    snapshot.write_text(snapshot.read_text().replace('"type": "object"', '"type": "objekt"', 1))
    result = cli("check", str(root))
    assert "internal-error" not in result.stdout, result.stdout
    assert "[schema-invalid]" in result.stdout


def test_a_broken_baseline_is_a_usage_error(tmp_path: Path) -> None:
    root = copy_corpus(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = cli("check", str(root), "--baseline", str(bad))
    assert result.returncode == 2 and "not a speclint baseline" in result.stderr
    missing = cli("check", str(root), "--baseline", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "no such baseline file" in missing.stderr
    assert "Traceback" not in result.stderr + missing.stderr


def test_entries_of_rules_that_did_not_run_are_neither_fixed_nor_unchanged(
    tmp_path: Path,
) -> None:
    """Issue 44 review, item 9: `--select`, `--ignore` and `--rule` leave rules out; their
    baseline entries were reported fixed (and listed under "Fixed by this change"). They are not
    judged, as the waivers of those rules are not; a broken link fixed is still fixed when its
    rule runs."""
    root = tmp_path / "corpus"
    write_files(
        root,
        {
            "docs/p.md": "# P\n\nSee [a](missing-a.md) and [b](missing-b.md).\n",
            "docs/q.md": "# Q\n",
        },
    )
    baseline = tmp_path / "baseline.json"
    assert cli("baseline", "write", str(root), "--output", str(baseline)).returncode == 0
    assert [e["rule"] for e in json.loads(baseline.read_text())["entries"]] == ["broken-link"] * 2
    for narrowed in (("--select", "enum-drift"), ("--ignore", "broken-link"), ("--rule", "enum")):
        gated = cli(
            "check", str(root), "--no-cache", "--baseline", str(baseline), "--format", "markdown",
            *narrowed,
        )  # fmt: skip
        assert gated.returncode == 0, gated.stderr
        assert "fixed:" not in gated.stderr and "entries are fixed" not in gated.stderr, narrowed
        assert "2 baseline entries of rules that did not run" in gated.stderr, narrowed
        # Nothing fixed: counted, and no empty section says so (issue 48, item 5).
        assert "**0 fixed**" in gated.stdout and "## Fixed by this change" not in gated.stdout
    # The rule that ran judges its own entries.
    (root / "docs/p.md").write_text("# P\n\nSee [a](q.md).\n")
    fixed = cli("check", str(root), "--no-cache", "--baseline", str(baseline), "--rule", "broken")
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stderr.count("fixed: [broken-link] docs/p.md") == 2
