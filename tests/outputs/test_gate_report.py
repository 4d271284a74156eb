"""The reviewer's report of a pull-request gate: new, fixed and waived first, the rest collapsed,
small enough for a pull-request comment."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from test_cli import cli
from test_diff_base import git, repository
from test_reporters import DRIFT, DUPLICATE, NOTE, make_report

from conftest import REPOSITORY, write_files
from speclint.analyses.changes.contract_change import Change
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import FixedFinding, Gate, Report, renderer
from speclint.outputs.reporters.markdown_report import GATE_BUDGET, contract_section
from speclint.run.engine import FIXED_SHOWN, Options, lint
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
    # No section with nothing in it: nothing was waived (issue 48, item 5).
    assert headings(text) == ["New in this change (2)", "Fixed by this change (1)"]
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
    assert headings(text) == ["New in this change (400)", "Fixed by this change (50)"]
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
    # The links taken out of the page, not the page deleted: a finding whose file is gone is no
    # longer checked, not fixed (tests/run/test_no_longer_checked.py).
    (repo / "corpus/docs/links.md").write_text("# L\n", encoding="utf-8")
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
    fixed = text[text.index("## Fixed by this change") : text.index("<details>")]
    assert "`duplicate-key`" in new and "heartbeat-ack.schema.json" in new
    # Under the file the change edited that caused it (issue 48, item 5).
    assert "### Your change to `corpus/schemas/heartbeat-ack.schema.json` (1)" in new
    assert "`undocumented-field` at `spec/capabilities.md`" in fixed
    assert "<summary>Unchanged: " in text
    assert "against `HEAD~1`" in text


def test_the_json_report_carries_the_gate() -> None:

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
    # Not compared (a baseline, or a run not asked to): null, not an empty list.
    assert document["gate"]["changes"] is None and document["gate"]["no_longer_checked"] == []


def test_the_documented_workflow_runs_the_gate(tmp_path: Path) -> None:
    """docs/github-action.md: the commands the action runs, as the page spells them out for a
    repository that runs them itself, work on a real pull-request repository and write the SARIF
    file the action uploads."""

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


# --- issue 48: contract changes first, grouped by cause, no empty section, a short commit -------

ROLES = '[roles]\n"schemas/run.schema.json" = "client-submitted"\n'
RUN_SCHEMA = """{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.org/run.schema.json",
  "type": "object",
  "properties": {
    "status": {"type": "string", "enum": ["running", "paused", "done"]},
    "links": {"type": "object"}
  }
}
"""


def renamed_enum_value(tmp_path: Path) -> Path:
    """A two-commit repository whose change renames a request's enum value (`paused` becomes
    `suspended`) and adds a duplicate key beside it."""
    repo = write_files(
        tmp_path / "repo",
        {
            "speclint.toml": ROLES,
            "schemas/run.schema.json": RUN_SCHEMA,
            "docs/runs.md": "# Runs\n\nA run is described by [its schema](../schemas/run.schema.json).\n",
        },
    )
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    changed = RUN_SCHEMA.replace('"paused"', '"suspended"').replace(
        '"type": "object",\n  "properties"',
        '"type": "object",\n  "type": "object",\n  "properties"',
    )
    (repo / "schemas/run.schema.json").write_text(changed, encoding="utf-8")
    git(repo, "commit", "-q", "-am", "rename paused")
    return repo


def test_the_gate_report_opens_with_what_the_change_does_to_the_contract(tmp_path: Path) -> None:
    """An enum value renamed in a request schema: the first section lists the value removed
    (breaking: old requests are rejected) and the value added (additive), one row each, before
    the findings; the base is named by a short commit id."""
    repo = renamed_enum_value(tmp_path)
    base = git(repo, "rev-parse", "HEAD~1")
    result = cli("check", ".", "--no-cache", "--diff-base", base, "--format", "markdown", cwd=repo)
    assert result.returncode == 0, result.stderr  # the duplicate key is a warning
    text = result.stdout
    assert headings(text)[:2] == [
        "What the change does to the contract (2 changes: 1 breaking, 1 additive)",
        "New in this change (1)",
    ]
    contract = text[text.index("## What the change") : text.index("## New in this change")]
    rows = [line for line in contract.splitlines() if line.startswith("| `schemas/")]
    assert rows == [
        "| `schemas/run.schema.json:7` (`/properties/status/enum`) | `status`: `paused` removed "
        "| **breaking** (client-submitted) |",
        "| `schemas/run.schema.json:7` (`/properties/status/enum`) | `status`: `suspended` added "
        "| additive (client-submitted) |",
    ]
    assert f"against `{base[:12]}`" in text and base not in text
    assert "### Your change to `schemas/run.schema.json` (1)" in text
    # Nothing fixed, waived or unchanged: no section says so.
    assert "Fixed by this change" not in text and "Waived" not in text and "<details>" not in text


def test_without_a_markdown_report_the_run_does_not_compare_the_contract(tmp_path: Path) -> None:
    """The contract comparison costs time: a plain gate (the text report) does not make it."""

    repo = renamed_enum_value(tmp_path)
    plain = lint(repo, Options(diff_base="HEAD~1", cache=False))
    assert plain.gate is not None and plain.gate.changes is None and plain.gate.changed_files == ()
    asked = lint(repo, Options(diff_base="HEAD~1", cache=False, describe_change=True))
    assert asked.gate is not None and asked.gate.changed_files == ("schemas/run.schema.json",)
    assert [c.summary for c in asked.gate.changes or ()] == [
        "`status`: `suspended` added",
        "`status`: `paused` removed",
    ]


def test_the_json_report_carries_what_the_change_does_to_the_contract(tmp_path: Path) -> None:
    """`gate.changes`: the contract comparison a Markdown report opens with, asked for by a JSON
    report with a base too, one object per change, sorted by place, kind and description."""
    repo = renamed_enum_value(tmp_path)
    result = cli("check", ".", "--no-cache", "--diff-base", "HEAD~1", "--format", "json", cwd=repo)
    assert result.returncode == 0, result.stderr
    changes = json.loads(result.stdout)["gate"]["changes"]
    assert [(c["kind"], c["effect"], c["breaking"], c["role"], c["what"]) for c in changes] == [
        ("enum value added", "additive", False, "client-submitted", "`status`: `suspended` added"),
        ("enum value removed", "breaking", True, "client-submitted", "`status`: `paused` removed"),
    ]
    for change in changes:
        assert change["location"]["path"] == "schemas/run.schema.json"
        assert change["location"]["pointer"] == "/properties/status/enum"
        assert change["location"]["line"] == 7
        assert change["base_location"]["path"] == "schemas/run.schema.json"
        assert "`status`" in change["description"]
    again = cli("check", ".", "--no-cache", "--diff-base", "HEAD~1", "--format", "json", cwd=repo)
    assert again.stdout == result.stdout


def test_an_enum_renamed_where_both_verdicts_agree_is_one_row() -> None:
    """A server's enum renamed: both changes break validating clients; one row says both."""

    at = Location("schemas/event.json", 4, 5, pointer="/properties/state/enum")
    changes = (
        Change(
            "enum value added", True, "server-emitted", "long", at, summary="`state`: `b` added"
        ),
        Change(
            "enum value removed", True, "server-emitted", "long", at, summary="`state`: `a` removed"
        ),
    )
    report = replace(make_report([]), gate=Gate("`main`", changes=changes))
    text = renderer("markdown")(report)
    assert "| `state`: `b` added, `a` removed | **breaking** (server-emitted) |" in text
    assert "(2 changes in 1 place: 2 breaking, 0 additive)" in text


def test_new_findings_are_grouped_under_the_changed_file_that_caused_them() -> None:
    """A finding in a changed file goes under it; one in an untouched file whose other side is
    in a changed file goes under that file; the rest under "Elsewhere"."""
    in_schema = replace(DUPLICATE, location=Location("schemas/run.json", 3, 3, pointer="/a"))
    in_prose = replace(
        DRIFT,
        location=Location("docs/runs.md", 5, 1, heading="runs"),
        related=(Location("schemas/run.json", 7, 5, pointer="/properties/status"),),
    )
    untouched = replace(NOTE, location=Location("docs/other.md", 2, 1), related=())
    report = replace(
        make_report([in_prose, untouched, in_schema]),
        gate=Gate("`main`", changes=(), changed_files=("schemas/run.json", "schemas/zz.json")),
    )
    text = renderer("markdown")(report)
    mine = text.index("### Your change to `corpus/schemas/run.json` (2)")
    elsewhere = text.index("### Elsewhere (in files this change did not touch) (1)")
    assert mine < text.index("#### `corpus/docs/runs.md:5`") < elsewhere
    assert mine < text.index("#### `corpus/schemas/run.json:3`") < elsewhere
    assert elsewhere < text.index("#### `corpus/docs/other.md:2`")
    assert "schemas/zz.json" not in text  # a changed file that caused nothing has no heading
    assert "The contract is as it was: no schema, API or proto change." in text


def test_unchanged_findings_are_counted_by_rule_and_file_not_listed() -> None:
    known = tuple(
        replace(NOTE, location=Location(f"docs/page{n % 3}.md", n + 1, 1), message=f"note {n}")
        for n in range(300)
    )
    report = replace(make_report([DRIFT]), gate=Gate("`main`", known=known))
    text = renderer("markdown")(report)
    details = text[text.index("<details>") :]
    assert "| `prose-note` | 0 | 0 | 300 | 300 |" in details
    assert "| `docs/page0.md` | 100 |" in details
    assert "note 17" not in text  # no one-liner per finding


def test_a_huge_gate_report_with_contract_changes_and_groups_still_fits() -> None:
    """Thousands of contract changes, hundreds of changed files each with new findings, and
    names of control characters: the comment stays within the budget."""

    long = ESC * 200
    changes = tuple(
        Change(
            "enum value removed",
            n % 2 == 0,
            "client-submitted",
            f"`f{n}` of `x` no longer accepts `{long}`",
            Location(f"schemas/{long}{n}.json", n + 1, 1, pointer=f"/properties/f{n}{long}"),
        )
        for n in range(3000)
    )
    changed = tuple(f"docs/{long}{n:04}.md" for n in range(600))
    new = [
        Finding(
            "broken-link",
            Severity.WARNING,
            f"`{long}` does not exist " + "with a long explanation " * 20,
            Location(path, 3, 1, heading="h"),
        )
        for path in changed
        for _ in range(3)
    ]
    report = replace(make_report(new), gate=Gate("`main`", changes=changes, changed_files=changed))
    text = renderer("markdown")(report)
    assert len(text) <= GATE_BUDGET < PR_COMMENT_LIMIT
    assert "more: `speclint changes` lists them all." in text
    assert "more new findings: see the SARIF or JSON report" in text


def test_a_corpus_summary_with_no_base_fits_a_comment() -> None:
    """``--format markdown-summary`` with no base: counts by rule and the top files, within the
    budget however many findings and however long their paths."""
    findings = [
        Finding(
            "broken-link",
            Severity.WARNING if n % 2 else Severity.ERROR,
            "x " * 200,
            Location(f"docs/{ESC * 300}{n}.md", 1, 1),
        )
        for n in range(20_000)
    ]
    text = renderer("markdown-summary")(make_report(findings))
    assert len(text) <= GATE_BUDGET
    assert text.startswith("# speclint summary")
    assert "| `broken-link` | 10000 | 10000 | 0 | 20000 |" in text
    assert ESC not in text
    # With a gate it is the gate's report.
    gated = replace(make_report([DRIFT]), gate=Gate("`main`"))
    assert renderer("markdown-summary")(gated) == renderer("markdown")(gated)


def test_a_new_finding_grouped_by_its_cause_names_its_rule_and_a_whole_clause() -> None:
    """Grouped under the changed file that caused them, the new findings have no rule heading:
    each section names its rule (a waiver needs it), and its heading, cut to a few words of the
    message, ends at a clause, not on the first word of the next one ("…; its…")."""
    failing = Finding(
        "example-invalid",
        Severity.WARNING,
        'example at /done: "no" is not of type "boolean" (keyword `type`); its shape binds it '
        "to `schemas/a.json#/$defs/Job`",
        Location("examples/job.json", 3, 3, pointer="/done"),
    )
    report = replace(
        make_report([failing, DUPLICATE]),
        gate=Gate("`main`", changed_files=("examples/job.json", "schemas/a.json")),
    )
    text = renderer("markdown")(report)
    assert "**warning** `example-invalid` at `corpus/examples/job.json:3:3` (`/done`)" in text
    assert "**error** `dup-key` at `corpus/schemas/a.json:3:3` (`/type`)" in text
    heading = next(line for line in text.splitlines() if line.startswith("#### `corpus/examples"))
    assert heading.endswith("(keyword `type`)…"), heading


def test_the_contract_heading_counts_the_places_when_a_row_holds_several_changes() -> None:
    """Two additive changes of one server-emitted enum share a row ("`suspended` added,
    `paused` removed"): the heading says "2 changes in 1 place", not a count the table seems
    to miss a row of."""
    at = Location("schemas/run.schema.json", 7, 5, pointer="/properties/status/enum")
    changes = [
        Change(
            "enum value added",
            False,
            "server-emitted",
            "`suspended` added",
            at,
            summary="`status`: `suspended` added",
        ),
        Change(
            "enum value removed",
            False,
            "server-emitted",
            "`paused` removed",
            at,
            summary="`status`: `paused` removed",
        ),
    ]
    lines: list[str] = []
    made = Report(findings=[], rules={}, sources={}, root=".", tool_version="0")
    contract_section(lines, made, changes, 10_000)
    assert (
        "## What the change does to the contract (2 changes in 1 place: 0 breaking, 2 additive)"
        in lines
    )
    [row] = [line for line in lines if line.startswith("| `schemas/")]
    assert "`status`: `suspended` added, `paused` removed" in row
