"""A ``diff`` excerpt for the side a change edited (issue 48, item 4): what the change did within
the window an excerpt shows, from the base's text; on small texts we write, then on a real
two-commit repository."""

from __future__ import annotations

import textwrap
from pathlib import Path

from test_cli import cli
from test_grouped_comparisons import pull_request

from conftest import schema
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import Gate, Report
from speclint.outputs.reporters.markdown_report import (
    DIFF_SHOWN,
    EDITED,
    diff_excerpt,
    finding_section,
)

BASE = "".join(f"line {n}\n" for n in range(1, 21))


def edited(text: str, **lines: str) -> str:
    """``text`` with line ``n`` (``l7="..."``) replaced; ``""`` removes it."""
    rows = text.split("\n")
    for name, new in sorted(lines.items(), key=lambda item: -int(item[0][1:])):
        at = int(name[1:]) - 1
        rows[at : at + 1] = [new] if new else []
    return "\n".join(rows)


def test_a_line_rewritten_at_the_location_is_its_base_line_then_its_head_line() -> None:
    head = edited(BASE, l10="line ten")
    assert diff_excerpt(BASE, head, Location("a.md", 10, 1)) == [
        "```diff",
        "@@ -7,7 +7,7 @@",
        " line 7",
        " line 8",
        " line 9",
        "-line 10",
        "+line ten",
        " line 11",
        " line 12",
        " line 13",
        "```",
    ]


def test_an_edit_outside_the_window_gives_no_diff() -> None:
    head = edited(BASE, l2="line two")
    assert diff_excerpt(BASE, head, Location("a.md", 15, 1)) == []
    assert diff_excerpt(BASE, BASE, Location("a.md", 15, 1)) == []


def test_lines_removed_beside_the_window_are_shown_removed() -> None:
    head = edited(BASE, l13="", l14="")  # the head's line 13 is the base's 15
    diff = diff_excerpt(BASE, head, Location("a.md", 10, 1))
    assert diff[1] == "@@ -7,9 +7,7 @@"
    assert diff[5:10] == [" line 10", " line 11", " line 12", "-line 13", "-line 14"]
    assert diff[-2] == " line 15"


def test_lines_added_at_the_location_are_shown_added() -> None:
    head = edited(BASE, l10="line 10\nnew a\nnew b")
    diff = diff_excerpt(BASE, head, Location("a.md", 11, 1))
    # the window is the head's lines 8-14: two of them new, the others the base's 8-12
    assert diff[1] == "@@ -8,5 +8,7 @@"
    assert diff[2:-1] == [
        " line 8",
        " line 9",
        " line 10",
        "+new a",
        "+new b",
        " line 11",
        " line 12",
    ]


def test_a_table_row_s_diff_has_a_hunk_for_the_header_and_one_for_the_row() -> None:
    rows = "".join(f"| `v{n}` | value {n} |\n" for n in range(1, 21))
    base = "# T\n\n| value | meaning |\n| --- | --- |\n" + rows
    head = base.replace("| `v15` | value 15 |", "| `v15` | renamed |")
    # v15 is on line 19; the window is the header, the delimiter, lines 16-22
    diff = diff_excerpt(base, head, Location("t.md", 19, 1))
    assert diff == [
        "```diff",
        "@@ -3,2 +3,2 @@",
        " | value | meaning |",
        " | --- | --- |",
        "@@ -16,7 +16,7 @@",
        " | `v12` | value 12 |",
        " | `v13` | value 13 |",
        " | `v14` | value 14 |",
        "-| `v15` | value 15 |",
        "+| `v15` | renamed |",
        " | `v16` | value 16 |",
        " | `v17` | value 17 |",
        " | `v18` | value 18 |",
        "```",
    ]


def test_a_rewrite_longer_than_the_budget_is_cut_and_counted() -> None:
    base = "".join(f"old {n}\n" for n in range(60))
    head = "".join(f"new {n}\n" for n in range(60))
    diff = diff_excerpt(base, head, Location("a.txt", 30, 1))
    body = diff[1:-1]
    assert len([line for line in body if line[:1] in "-+"]) == DIFF_SHOWN
    assert body[-1] == f"… ({60 + 7 - DIFF_SHOWN} more lines of the diff)"


def test_backticks_in_the_text_lengthen_the_fence_and_controls_are_escaped() -> None:
    base = "# T\n\n```json\n{}\n```\n"
    head = '# T\n\n```json\n{"a": "\x1b[31m"}\n```\n'
    diff = diff_excerpt(base, head, Location("a.md", 4, 1))
    assert diff[0] == "````diff" and diff[-1] == "````"
    assert '+{"a": "\\x1b[31m"}' in diff


def test_a_location_past_the_head_s_end_gives_no_diff() -> None:
    assert diff_excerpt(BASE, "line 1\n", Location("a.md", 9, 1)) == []


# --- in a finding's section ---------------------------------------------------------------------

HEAD_PAGE = edited(BASE, l10="line ten")
DRIFT = Finding(
    "enum-drift",
    Severity.WARNING,
    "`x` lacks `ten`",
    Location("schemas/a.json", 2, 3, pointer="/enum"),
    related=(Location("docs/a.md", 10, 1, note="documents `ten`"),),
)


def report(base_sources: dict[str, str], gate: bool = True) -> Report:
    return Report(
        findings=[DRIFT],
        rules={},
        sources={"docs/a.md": HEAD_PAGE, "schemas/a.json": '{\n  "enum": ["a"]\n}\n'},
        root=".",
        tool_version="0",
        gate=Gate("`main`", changed_files=tuple(base_sources), base_sources=base_sources)
        if gate
        else None,
    )


def test_the_side_the_change_edited_shows_its_diff_in_place_of_its_excerpt() -> None:
    lines = finding_section(report({"docs/a.md": BASE}), DRIFT)
    at = lines.index(f"  {EDITED}")
    assert lines[at + 2 : at + 4] == ["  ```diff", "  @@ -7,7 +7,7 @@"]
    assert "  -line 10" in lines and "  +line ten" in lines
    # The head's lines are shown once, in the diff: no plain excerpt of the same window.
    assert not any(line.startswith("  > 10 |") for line in lines)
    assert lines.count(EDITED) == 0  # the schema side was not edited: its excerpt, no diff
    assert any(line.startswith("> ") and "| " in line for line in lines)


def test_no_diff_without_a_base_or_for_a_file_the_change_added() -> None:
    for made in (report({"docs/a.md": BASE}, gate=False), report({})):
        assert not any(EDITED in line for line in finding_section(made, DRIFT))


# --- end to end ---------------------------------------------------------------------------------

RUN = schema(
    title="Run",
    type="object",
    properties={"status": {"enum": ["queued", "running", "paused", "done"]}},
)
PAGE = textwrap.dedent(
    """\
    # Runs

    The `status` of a run:

    | `status` | Meaning |
    | --- | --- |
    | `queued` | waiting |
    | `running` | working |
    | `paused` | held |
    | `done` | finished |
    """
)


def test_a_pull_request_s_report_shows_the_diff_of_the_table_row_it_renamed(
    tmp_path: Path,
) -> None:
    before = {"schemas/run.schema.json": RUN, "spec/runs.md": PAGE}
    after = dict(
        before, **{"spec/runs.md": PAGE.replace("| `paused` | held |", "| `held` | held |")}
    )
    repo = pull_request(tmp_path, before, after)
    result = cli(
        "check", ".", "--no-cache", "--diff-base", "HEAD~1", "--format", "markdown", cwd=repo
    )
    text = result.stdout
    assert "lacks `held`" in text, result.stderr
    diff = text[text.index(f"  {EDITED}") :]
    diff = diff[: diff.index("  ```\n", diff.index("```diff")) + 5]
    assert diff.splitlines()[2:] == [
        "  ```diff",
        "  @@ -5,6 +5,6 @@",
        "   | `status` | Meaning |",
        "   | --- | --- |",
        "   | `queued` | waiting |",
        "   | `running` | working |",
        "  -| `paused` | held |",
        "  +| `held` | held |",
        "   | `done` | finished |",
        "  ```",
    ]
    # the schema, which the change did not edit, has its excerpt and no diff
    assert text.count("```diff") == 1


def test_a_report_without_a_base_has_no_diff(tmp_path: Path) -> None:
    root = pull_request(
        tmp_path,
        {"schemas/run.schema.json": RUN, "spec/runs.md": PAGE},
        {"spec/runs.md": PAGE.replace("`paused`", "`held`"), "schemas/run.schema.json": RUN},
    )
    result = cli("check", ".", "--no-cache", "--format", "markdown", cwd=root)
    assert "lacks `held`" in result.stdout and "```diff" not in result.stdout
