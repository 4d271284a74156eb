"""Version folders in every spelling, and defects repeated in frozen released copies (issue 26).

A repository that keeps every released version of a schema (``schemas/1.0.0/``,
``schemas/1.1.0/``, ``schemas/2.0.0/``) repeats each defect of an old version in every later
copy; the frozen copies are history, so the defect is one finding at the newest copy, the others
its related locations (``released-versions``, default ``"newest"``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from speclint.common.findings import Finding
from speclint.model.config import ConfigError, load_config
from speclint.parsing.versions import names_version, newest_first, version_lines
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# path -> the version its path names ("" none). Folders and file names, every spelling.
SPELLINGS: dict[str, str] = {
    "schemas/1.0.2/run.json": "1.0.2",
    "schemas/1-0-2/run.json": "1-0-2",
    "schemas/v1_0/run.json": "v1_0",
    "schemas/v1_0_2/run.json": "v1_0_2",
    "schemas/v1.0/run.json": "v1.0",
    "schemas/2023-01/run.json": "2023-01",
    "schemas/2023-01-15/run.json": "2023-01-15",
    "schemas/v2/run.json": "v2",
    "schemas/1.x/run.json": "1.x",
    "apis/batch/v1beta1/job.yaml": "v1beta1",
    "apis/batch/v1alpha2/job.yaml": "v1alpha2",
    "schemas/schema-1.0.2.json": "1.0.2",
    "schemas/foo.v1.json": "v1",
    "schemas/foo.v2beta1.json": "v2beta1",
    # Numbers that are not versions.
    "protocols/http2/frames.md": "",
    "net/ipv6/address.json": "",
    "text/utf-8/encoding.md": "",
    "auth/2fa/flow.md": "",
    "auth/oauth2/flow.md": "",
    "docs/rfc-7231/notes.md": "",
    "docs/page-1-2/notes.md": "",
    "docs/2023/notes.md": "",
    "data/1234-56/notes.md": "",  # not a month
    "data/x_1_0/notes.md": "",  # an underscore version needs its `v`
}


@pytest.mark.parametrize(("path", "version"), SPELLINGS.items())
def test_version_spellings_in_folders_and_file_names(path: str, version: str) -> None:
    assert version_lines([path]).of(path) == version


def test_newest_is_semantic_then_dated_and_unreleased_folders_are_live() -> None:
    assert newest_first(["1.0.0", "1.10.0", "1.9.2", "2.0.0-rc1"]) == [
        "2.0.0-rc1",
        "1.10.0",
        "1.9.2",
        "1.0.0",
    ]
    assert newest_first(["2.0.0", "2.0.0-rc1", "2.0.0-beta"]) == [
        "2.0.0",
        "2.0.0-rc1",
        "2.0.0-beta",
    ]
    assert newest_first(["2024-11-05", "2025-06-18", "draft"])[:2] == ["draft", "2025-06-18"]
    assert newest_first(["v1", "v1beta1", "v1alpha2", "v2beta1"]) == [
        "v2beta1",
        "v1",
        "v1beta1",
        "v1alpha2",
    ]
    assert newest_first(["1-0-2", "1-0-10", "v1_0"]) == ["1-0-10", "1-0-2", "v1_0"]
    assert newest_first(["2023-01", "2022-12-31", "2023-02"]) == [
        "2023-02",
        "2023-01",
        "2022-12-31",
    ]


def schema(version: str, *, required: list[str], extra: bool = False) -> str:
    properties = {"id": {"type": "string"}, "mode": {"type": "string"}}
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://example.org/schemas/{version}/run.json",
        "type": "object",
        "properties": properties,
        "required": required,
    }
    if extra:  # a second defect, only in this copy
        body["$defs"] = {"Step": {"type": "object", "properties": {"a": {}}, "required": ["b"]}}
    return json.dumps(body, indent=2)


def released_tree(make_corpus: MakeCorpus, config: str = "") -> Path:
    files: dict[str, str | bytes] = {
        # `idd` is required in every released copy: one defect, repeated.
        "schemas/1.0.0/run.json": schema("1.0.0", required=["idd"]),
        "schemas/1.1.0/run.json": schema("1.1.0", required=["idd"]),
        "schemas/2.0.0/run.json": schema("2.0.0", required=["idd"], extra=True),
        # A file only the oldest version has: its defect is the oldest copy's alone.
        "schemas/1.0.0/legacy.json": schema("1.0.0", required=["gone"]),
        # A file of no version is reported as it is.
        "schemas/common.json": schema("common", required=["nope"]),
    }
    if config:
        files["speclint.toml"] = config
    return make_corpus(files)


def found(root: Path) -> list[Finding]:
    outcome = lint(root, Options(cache=False, rules=("required-undeclared",)))
    return outcome.findings


def test_a_defect_in_every_released_copy_is_one_finding_at_the_newest(
    make_corpus: MakeCorpus,
) -> None:
    findings = found(released_tree(make_corpus))
    repeated = [f for f in findings if "idd" in f.message]
    assert len(repeated) == 1
    [finding] = repeated
    assert finding.location.path == "schemas/2.0.0/run.json"
    assert {r.path for r in finding.related} >= {
        "schemas/1.0.0/run.json",
        "schemas/1.1.0/run.json",
    }
    # The defect only the newest copy has is its own finding; the one only a frozen file has
    # is still reported (nothing newer holds it).
    assert any(f.location.pointer == "/$defs/Step/required/0" for f in findings)
    assert any(f.location.path == "schemas/1.0.0/legacy.json" for f in findings)
    assert any(f.location.path == "schemas/common.json" for f in findings)
    assert len(findings) == 4


def test_released_versions_report_shows_every_copy(make_corpus: MakeCorpus) -> None:
    findings = found(released_tree(make_corpus, 'released-versions = "report"\n'))
    assert len([f for f in findings if "idd" in f.message]) == 3
    assert len(findings) == 6


def test_released_versions_ignore_reports_only_the_live_version(make_corpus: MakeCorpus) -> None:
    findings = found(released_tree(make_corpus, 'released-versions = "ignore"\n'))
    # `1.0.0/legacy.json` is no frozen copy: no newer version holds its counterpart.
    assert {f.location.path for f in findings} == {
        "schemas/2.0.0/run.json",
        "schemas/common.json",
        "schemas/1.0.0/legacy.json",
    }
    assert len(findings) == 4


def test_a_draft_folder_is_the_live_copy(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/2024-11-05/run.json": schema("2024-11-05", required=["idd"]),
            "schema/2025-06-18/run.json": schema("2025-06-18", required=["idd"]),
            "schema/draft/run.json": schema("draft", required=["idd"]),
        }
    )
    [finding] = found(root)
    assert finding.location.path == "schema/draft/run.json"
    assert len(finding.related) >= 2


def test_copies_renamed_between_versions_are_linked_by_their_id(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/1.0.0/run.json": schema("1.0.0", required=["idd"]),
            "schemas/2.0.0/workflow-run.json": schema("2.0.0", required=["idd"]),
        }
    )
    [finding] = found(root)
    assert finding.location.path == "schemas/2.0.0/workflow-run.json"
    assert [r.path for r in finding.related if r.note and "frozen" in r.note] == [
        "schemas/1.0.0/run.json"
    ]


def test_the_version_is_taken_out_of_a_message_only_where_it_stands_whole(
    make_corpus: MakeCorpus,
) -> None:
    # `1` and `2` are versions (file names ending in a number); `idd1` and `idd2` are two
    # different defects, not one with its version in it.
    root = make_corpus(
        {
            "schemas/run-1.json": schema("1", required=["idd1"]),
            "schemas/run-2.json": schema("2", required=["idd2"]),
        }
    )
    assert len(found(root)) == 2


def test_released_versions_is_validated_like_other_keys(tmp_path: Path) -> None:
    (tmp_path / "speclint.toml").write_text('released-versions = "newset"\n')
    with pytest.raises(ConfigError, match="released-versions"):
        load_config(tmp_path)
    (tmp_path / "speclint.toml").write_text('released-version = "newest"\n')
    with pytest.raises(ConfigError, match="released-versions"):
        load_config(tmp_path)
    (tmp_path / "speclint.toml").write_text('released-versions = "ignore"\n')
    assert load_config(tmp_path).released_versions == "ignore"


def test_the_command_line_reports_the_collapsed_finding(make_corpus: MakeCorpus) -> None:
    root = released_tree(make_corpus)
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "check", str(root), "--no-cache", "--format", "json",
         "--rule", "required-undeclared"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    paths = [f["location"]["path"] for f in report["findings"]]
    assert paths.count("schemas/2.0.0/run.json") == 2
    assert "schemas/common.json" in paths
    assert "schemas/1.1.0/run.json" not in paths


def shop(version: str, required: str) -> str:
    return (
        f"openapi: 3.1.0\ninfo: {{title: Shop, version: '{version}'}}\npaths: {{}}\n"
        "components:\n  schemas:\n    Pet:\n      type: object\n"
        f"      properties: {{name: {{type: string}}}}\n      required: [{required}]\n"
    )


@pytest.mark.parametrize(
    ("named", "declared", "names"),
    [
        ("v2", "2.3.1", True),  # a major names every 2.x
        ("1.2", "1.2.7", True),
        ("1.0", "1.0.0", True),
        ("1.0.0", "1.0", True),
        ("2025-06-18", "2025-06-18", True),
        ("3.1", "2.0.0", False),  # `shop-3.1.yaml`: the OpenAPI version it shows
        ("1.2.0", "1.2.1", False),
        ("2", "", False),
    ],
)
def test_named_for_its_version_is_one_test(named: str, declared: str, names: bool) -> None:
    # History's release lines and version-drift's own place of a copy ask the one helper.
    assert names_version(named, declared) is names


def test_a_file_named_for_a_version_it_does_not_declare_is_no_newer_release(
    make_corpus: MakeCorpus,
) -> None:
    # `shop-3.1.yaml` is named for the OpenAPI version it shows (its API is at 2.0.0): no newer
    # release of `shop-1.0.0.yaml`, whose defect is then its own, not a frozen copy's.
    files: dict[str, str | bytes] = {
        "demo/shop-1.0.0.yaml": shop("1.0.0", "gone"),
        "demo/shop-3.1.yaml": shop("2.0.0", "name"),
    }
    [finding] = found(make_corpus(files))
    assert finding.location.path == "demo/shop-1.0.0.yaml"
    assert finding.severity.name == "WARNING" and "released" not in finding.message
    # A file named for the version it declares is a release: the older copy is frozen.
    del files["demo/shop-3.1.yaml"]
    files["demo/shop-2.0.0.yaml"] = shop("2.0.0", "name")
    [finding] = found(make_corpus(files))
    assert finding.severity.name == "INFO" and "only released copies" in finding.message
