"""The reviewer's report of a pull-request gate: new, fixed and waived first, the rest collapsed,
small enough for a pull-request comment."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from markdown_it import MarkdownIt
from test_cli import cli
from test_diff_base import git, repository
from test_reporters import DRIFT, DUPLICATE, NOTE, make_report

from conftest import write_files
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import FixedFinding, Gate, renderer
from speclint.outputs.reporters.markdown_report import GATE_BUDGET
from speclint.run.engine import FIXED_SHOWN
from speclint.run.waivers import Waived, Waiver

PR_COMMENT_LIMIT = 65_536  # GitHub's limit on an issue or pull-request comment body


def headings(markdown: str) -> list[str]:
    tokens = MarkdownIt("commonmark").parse(markdown)
    return [
        tokens[i + 1].content
        for i, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == "h2"
    ]


def test_gate_sections_lead_with_the_change() -> None:
    gate = Gate(
        "`origin/main`",
        known=(NOTE,),
        fixed=(FixedFinding("dup-key", "schemas/old.json", "/a", "key `a` twice"),),
    )
    report = replace(make_report([DRIFT, DUPLICATE]), gate=gate)
    text = renderer("markdown")(report)
    assert headings(text) == [
        "New in this change (2)",
        "Fixed by this change (1)",
        "Waived, with reasons (0)",
    ]
    assert "**2 new**, **1 fixed**, 0 changed, 0 waived, 1 unchanged" in text
    assert "**The change adds 1 error.**" in text
    # New findings carry their excerpts; the unchanged one is inside a collapsed block.
    assert text.index("> 3 |") < text.index("## Fixed by this change")
    details = text[text.index("<details>") :]
    assert "`prose-note`" in details and "</details>" in details
    assert "`prose-note`" not in text[: text.index("<details>")]
    assert "`dup-key` at `schemas/old.json` (`/a`)" in text


def test_a_gate_with_nothing_new_says_so() -> None:
    report = replace(make_report([]), gate=Gate("`main`", known=(DRIFT,)))
    text = renderer("markdown")(report)
    assert "Nothing new." in text and "**The change adds no error.**" in text


def test_a_huge_gate_report_still_fits_a_pull_request_comment() -> None:
    def finding(n: int) -> Finding:
        return Finding(
            "dup-key",
            Severity.ERROR,
            f"key `k{n}` appears twice " + "with a long explanation " * 20,
            Location("schemas/a.json", 3, 3, pointer=f"/k{n}"),
            related=(Location("schemas/a.json", 2, 3, pointer="/type"),),
        )

    new = [finding(n) for n in range(400)]
    known = tuple(finding(n) for n in range(400, 2400))
    fixed = tuple(FixedFinding("dup-key", "schemas/a.json", f"/f{n}", "gone") for n in range(50))
    report = replace(make_report(new), gate=Gate("`main`", known=known, fixed=fixed))
    text = renderer("markdown")(report)
    assert len(text) <= GATE_BUDGET < PR_COMMENT_LIMIT
    # Every section is still there; what did not fit is counted, not silently dropped.
    assert headings(text)[:3] == [
        "New in this change (400)",
        "Fixed by this change (50)",
        "Waived, with reasons (0)",
    ]
    assert "More new findings (" in text and "more: see the SARIF or JSON report" in text
    assert text.rstrip().endswith("</details>")


ESC = "\x1b"


def test_escapes_count_in_the_gate_reports_budget() -> None:
    """Issue 44 review, item 7: a name of control characters is four times as long once escaped
    (``\\x1b``); the budget counts the report as written. Before, it counted the raw text and
    escaped the whole afterwards: 2,000 findings in a file so named made 138,752 characters."""
    hostile = f"docs/{ESC * 240}.md"

    def finding(n: int) -> Finding:
        return Finding(
            "broken-link",
            Severity.WARNING,
            f"`{ESC * 40}{n}.md` does not exist",
            Location(hostile, n, 1, heading=f"h{ESC * 40}"),
            related=(Location(hostile, n + 1, 1, note=f"{ESC * 40}"),),
        )

    new = [finding(n) for n in range(1, 2001)]
    known = tuple(finding(n) for n in range(2001, 4001))
    report = replace(make_report(new), gate=Gate("`main`", known=known))
    text = renderer("markdown")(report)
    assert len(text) <= GATE_BUDGET < PR_COMMENT_LIMIT
    assert ESC not in text and "\\x1b" in text
    assert "more: see the SARIF or JSON report" in text


def test_the_fixed_and_waived_lists_of_a_gate_report_are_budgeted_too() -> None:
    """Issue 44 review, item 7: a commit that deletes a page of 3,000 broken links fixes 3,000
    findings; listed whole, they made a 526,073-character report. What does not fit is
    counted."""
    fixed = tuple(
        FixedFinding("broken-link", f"docs/{ESC * 20}links.md", f"#h{n}", "`x.md` " * 60)
        for n in range(3000)
    )
    waiver = Waiver(
        ("enum-drift",), "a.json", "", f"accepted {ESC * 30} " * 20, "", None, Location("a.json"),
        "inSource",
    )  # fmt: skip
    waived = [Waived(replace(DRIFT, message=f"m{n}"), waiver) for n in range(3000)]
    report = replace(
        make_report([DRIFT]), gate=Gate("`main`", known=(NOTE,), fixed=fixed), waived=waived
    )
    text = renderer("markdown")(report)
    assert len(text) <= GATE_BUDGET
    assert headings(text) == [
        "New in this change (1)",
        "Fixed by this change (3000)",
        "Waived, with reasons (3000)",
    ]
    listed = text[text.index("## Fixed by this change") : text.index("## Waived")]
    shown = listed.count("- `broken-link` at ")
    assert 0 < shown < 3000
    assert f"- … and {3000 - shown} more: see the JSON report" in listed
    listed = text[text.index("## Waived") :]
    shown = listed.count("- `enum-drift` at ")
    assert 0 < shown < 3000
    assert f"- … and {3000 - shown} more: see the SARIF or JSON report" in listed
    assert text.rstrip().endswith("</details>")  # the unchanged block still has its room


def test_the_fixed_lines_on_stderr_are_counted_past_the_first(tmp_path: Path) -> None:
    """Issue 44 review, item 7: the notes name the first fixed findings and count the rest
    (before: one line for each of 3,000)."""
    repo = tmp_path / "repo"
    links = "".join(f"[l{n}](missing-{n}.md)\n\n" for n in range(60))
    write_files(repo, {"corpus/docs/a.md": "# A\n", "corpus/docs/links.md": f"# L\n\n{links}"})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "corpus/docs/links.md").unlink()
    git(repo, "commit", "-q", "-am", "fix")
    result = cli("check", "corpus", "--no-cache", "--diff-base", "HEAD~1", cwd=repo)
    assert result.returncode == 0, result.stderr
    assert "60 fixed" in result.stderr
    fixed = [line for line in result.stderr.splitlines() if line.startswith("  fixed: ")]
    assert len(fixed) == FIXED_SHOWN < 60
    assert f"  … and {60 - FIXED_SHOWN} more fixed" in result.stderr


def test_diff_base_writes_the_gate_report(tmp_path: Path) -> None:
    repo = repository(tmp_path)  # adds a duplicate key, fixes an undocumented field
    result = cli("check", "corpus", "--diff-base", "HEAD~1", "--format", "markdown", cwd=repo)
    assert result.returncode == 1, result.stderr
    text = result.stdout
    new = text[text.index("## New in this change") : text.index("## Fixed by this change")]
    fixed = text[text.index("## Fixed by this change") : text.index("## Waived")]
    assert "`duplicate-key`" in new and "heartbeat-ack.schema.json" in new
    assert "`undocumented-field` at `spec/capabilities.md`" in fixed
    assert "<summary>Unchanged: " in text
    assert "against `HEAD~1`" in text


def test_the_json_report_carries_the_gate() -> None:
    import json

    gate = Gate(
        "`origin/main`",
        known=(NOTE,),
        fixed=(FixedFinding("dup-key", "schemas/old.json", "/a", "key `a` twice"),),
    )
    document = json.loads(renderer("json")(replace(make_report([DRIFT]), gate=gate)))
    assert [f["rule"] for f in document["findings"]] == ["enum-drift"]
    assert document["gate"]["against"] == "origin/main"
    assert document["gate"]["fixed"] == [
        {"rule": "dup-key", "path": "schemas/old.json", "where": "/a", "message": "key `a` twice"}
    ]
    assert [f["rule"] for f in document["gate"]["unchanged"]] == ["prose-note"]


def test_the_documented_workflow_runs_the_gate(tmp_path: Path) -> None:
    """docs/github-action.md: the commands the action runs, as the page spells them out for a
    repository that runs them itself, work on a real pull-request repository and write the SARIF
    file the action uploads."""
    import re
    import shlex

    import yaml

    from conftest import REPOSITORY

    doc = (REPOSITORY / "docs/github-action.md").read_text(encoding="utf-8")
    (commands,) = re.findall(r"```sh\n(.*?)\n```", doc, re.S)
    joined = commands.replace("\\\n", " ")
    (command,) = [line.strip() for line in joined.splitlines() if line.startswith("speclint ")]
    action = yaml.safe_load((REPOSITORY / "action.yml").read_text(encoding="utf-8"))
    (upload,) = [s for s in action["runs"]["steps"] if "upload-sarif" in s.get("uses", "")]
    (lint,) = [s for s in action["runs"]["steps"] if s.get("id") == "check"]
    # The page writes the reports where the action's lint step does, and the action uploads
    # the SARIF that step names in its outputs.
    assert "sarif=$reports/speclint.sarif" in lint["run"]
    assert '--format sarif --output "$sarif"' in lint["run"]
    assert '--format sarif --output "$reports/speclint.sarif"' in command
    assert upload["with"]["sarif_file"] == "${{ steps.check.outputs.sarif-file }}"

    repo = repository(tmp_path)
    command = command.replace('"$reports/', '"')  # the reports folder: the repository's here
    arguments = shlex.split(command.replace('"$BASE"', "HEAD~1"))[1:]
    arguments[arguments.index(".")] = "corpus"
    result = cli(*arguments, cwd=repo)
    assert result.returncode == 1, result.stderr  # the change adds a duplicate key
    assert "::error file=corpus/schemas/heartbeat-ack.schema.json" in result.stdout
    report = (repo / "speclint.md").read_text(encoding="utf-8")
    assert report.startswith("# speclint: what this change does to the spec")
    assert '"version": "2.1.0"' in (repo / "speclint.sarif").read_text(encoding="utf-8")
