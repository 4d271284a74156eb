"""In a GitHub Actions run the Markdown report links each place to its line in the file at the head
commit (issue 48, item 4); anywhere else it has no links, and is what it always was."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from test_cli import cli
from test_grouped_comparisons import pull_request
from test_markdown_diff_excerpts import PAGE, RUN
from test_reporters import DRIFT, make_report

from speclint.frontends.cli import head_files_url
from speclint.outputs.reporters import renderer

SHA = "0123456789abcdef0123456789abcdef01234567"
ACTIONS = {
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "owner/specs",
    "GITHUB_SHA": SHA,
}
BLOB = f"https://github.com/owner/specs/blob/{SHA}"
LINK = re.compile(r"\]\((https?://[^)]*)\)")


def test_the_head_files_url_is_made_from_what_actions_sets() -> None:
    assert head_files_url(ACTIONS) == BLOB
    enterprise = dict(ACTIONS, GITHUB_SERVER_URL="https://git.example.org:8443/")
    assert head_files_url(enterprise) == f"https://git.example.org:8443/owner/specs/blob/{SHA}"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GITHUB_SHA", None),
        ("GITHUB_REPOSITORY", None),
        ("GITHUB_SERVER_URL", None),
        ("GITHUB_SHA", "main"),  # a branch name is not the commit the report was made at
        ("GITHUB_SERVER_URL", "https://github.com/x)[y](javascript:alert(1)"),
        ("GITHUB_REPOSITORY", "owner/specs tail"),
    ],
)
def test_no_url_when_a_variable_is_unset_or_not_what_github_sets(
    name: str, value: str | None
) -> None:
    environment = {k: v for k, v in ACTIONS.items() if k != name}
    if value is not None:
        environment[name] = value
    assert head_files_url(environment) == ""


def test_each_place_links_to_its_line_at_the_head_commit() -> None:
    report = replace(make_report([DRIFT], root="corpus"), in_repository="specs", blob_url=BLOB)
    text = renderer("markdown")(report)
    links = LINK.findall(text)
    # the finding's heading and its "at" line, then its related locations
    assert links == [
        f"{BLOB}/specs/schemas/a.json#L6",
        f"{BLOB}/specs/schemas/a.json#L6",
        f"{BLOB}/specs/docs/guide.md#L6",
        f"{BLOB}/specs/api/openapi.yaml#L4",
    ]
    assert f"at [`corpus/schemas/a.json:6:7`]({BLOB}/specs/schemas/a.json#L6)" in text


def test_a_path_is_percent_encoded_in_its_link() -> None:
    spaced = replace(
        DRIFT, related=(), location=replace(DRIFT.location, path="my specs/a (v2).json")
    )
    report = replace(make_report([spaced], root="."), in_repository="", blob_url=BLOB)
    assert (
        LINK.findall(renderer("markdown")(report))[0] == f"{BLOB}/my%20specs/a%20%28v2%29.json#L6"
    )


def test_without_the_url_or_the_repository_s_top_there_are_no_links() -> None:
    plain = renderer("markdown")(make_report([DRIFT]))
    assert LINK.findall(plain) == []
    for report in (
        replace(make_report([DRIFT]), in_repository="specs"),
        replace(make_report([DRIFT]), blob_url=BLOB),  # where the repository's top is: unknown
    ):
        assert renderer("markdown")(report) == plain


def test_the_gate_report_links_in_actions_and_not_elsewhere(tmp_path: Path) -> None:
    # the corpus is a folder of the repository (its speclint.toml makes it the root): the links
    # name each file from the repository's top
    before = {"specs/speclint.toml": "", "specs/schemas/run.schema.json": RUN}
    before["specs/spec/runs.md"] = PAGE
    after = dict(before)
    after["specs/spec/runs.md"] = PAGE.replace("| `paused` | held |", "| `held` | held |")
    repo = pull_request(tmp_path, before, after)
    args = ("check", "specs", "--no-cache", "--diff-base", "HEAD~1", "--format", "markdown")
    linked = cli(*args, cwd=repo, env={**os.environ, **ACTIONS}).stdout
    plain = cli(*args, cwd=repo).stdout
    assert "lacks `held`" in plain
    assert f"[`specs/spec/runs.md:9:1`]({BLOB}/specs/spec/runs.md#L9)" in linked
    assert f"({BLOB}/specs/schemas/run.schema.json#L" in linked
    assert LINK.findall(plain) == []
    # the links aside, the reports are the same
    assert re.sub(r"\[(`[^`]*`)\]\([^)]*\)", r"\1", linked) == plain
