"""``overlay-invalid`` on fixtures written here, one test a case, named after it. The rule: an
OpenAPI Overlay that fails the official Overlay JSON Schema of its release."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_overlay_breaks_document import API, API_ARCHIVED, overlay, overlay_archived

from conftest import run_rule, write_files
from speclint.common.findings import Severity
from speclint.parsing.kinds import archive_folder, in_record_folder

# OpenAPI Overlays checked against the documents they apply to (issue 49, item 5): the official
# Overlay 1.0 schema (``overlay-invalid``), targets evaluated as RFC 9535 JSONPath
# (``overlay-target-unmatched``), and the actions applied and the result validated as
# ``openapi-invalid`` validates (``overlay-breaks-document``). Fixtures written here.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def corpus(make_corpus: MakeCorpus, *actions: str, **kwargs: str | None) -> Path:
    return make_corpus({"openapi.yaml": API, "overlay.yaml": overlay(*actions, **kwargs)})


def test_a_misspelt_action_field_is_reported_at_the_action(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remvoe: true\n")
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/actions/0"
    assert "'remvoe'" in finding.message or '"remvoe"' in finding.message
    assert "valid Overlay 1.0" in finding.message


def test_a_valid_overlay_passes_the_schema(make_corpus: MakeCorpus) -> None:
    root = corpus(make_corpus, "  - target: $.paths['/pets']\n    remove: true\n    x-why: old\n")
    assert run_rule(root, "overlay-invalid") == []


def test_an_overlay_of_a_release_without_a_shipped_schema_is_not_checked(
    make_corpus: MakeCorpus,
) -> None:
    root = corpus(make_corpus, "  - target: $.info\n    copy: $.x\n", version="1.2.0")
    [note] = run_rule(root, "overlay-invalid")
    assert note.coverage == "no-schema"


# Issue 49's precision classes of the Overlay rules (and arazzo-invalid's design folders), each a
# case on a fixture written here: archived overlays are records (not applied), a proposal's draft is
# told at info, Overlay 1.1 is validated by its own schema (and 1.1's `info.description` is no
# defect of a 1.0 overlay), and a release-to-release overlay applies to its first release.


DRAFT = """overlay: 1.0.0
info: {title: A proposal's example, version: 1.0.0}
updates:
  - target: $.info
    merge: {x-draft: true}
"""


@pytest.mark.parametrize(
    "name",
    ["archive", "_archive_", "archived", "archives", "overlays_archive", "overlay-archives",
     "old_archive", "Docs.Archive", "archive-2019", "archive_v1"],
)  # fmt: skip
def test_an_archive_word_qualified_in_a_folder_name_is_an_archive(name: str) -> None:
    assert archive_folder(name)
    assert in_record_folder(f"scripts/{name}/fix.yaml")


@pytest.mark.parametrize(
    "name",
    ["archiver", "archive-utils", "archive.org", "archive_test", "myarchive", "archives-api"],
)
def test_a_name_that_only_begins_with_an_archive_word_is_no_archive(name: str) -> None:
    assert not archive_folder(name)
    assert not in_record_folder(f"scripts/{name}/fix.yaml")


def test_a_file_named_like_an_archive_is_not_in_one() -> None:
    assert not in_record_folder("scripts/overlays_archive.yaml")


def test_an_invalid_overlay_in_an_archive_folder_is_told_at_info(make_corpus: MakeCorpus) -> None:
    misspelt = "  - target: $.paths['/pets']\n    remvoe: true\n"
    root = make_corpus(
        {"openapi.yaml": API_ARCHIVED, "old_archive/fix.yaml": overlay_archived(misspelt)}
    )
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.severity is Severity.INFO
    assert finding.message.endswith("(an archived file: the record of what was, kept as it was "
                                    "and not maintained)")  # fmt: skip


def test_a_draft_overlay_in_a_proposals_folder_is_told_at_info(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = make_corpus({"proposals/Overlays/Changes.yml": DRAFT})
    findings = run_rule(root, "overlay-invalid")
    assert findings
    assert {f.severity for f in findings} == {Severity.INFO}
    assert all(
        f.message.endswith("(a design record's file: a draft, not the specification)")
        for f in findings
    )
    root = write_files(tmp_path / "kept", {"overlays/Changes.yml": DRAFT})
    assert {f.severity for f in run_rule(root, "overlay-invalid")} == {Severity.ERROR}


def test_an_overlay_1_0_with_the_1_1_info_description_is_valid(make_corpus: MakeCorpus) -> None:
    fix = overlay_archived("  - target: $.info\n    update: {x-a: 1}\n", info=", description: Why")
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": fix})
    assert run_rule(root, "overlay-invalid") == []
    # Not a string: what the 1.1 schema would reject too.
    fix = overlay_archived(
        "  - target: $.info\n    update: {x-a: 1}\n", info=", description: [Why]"
    )
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": fix})
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/info"


def test_an_overlay_1_0_with_a_1_1_copy_action_still_fails(make_corpus: MakeCorpus) -> None:
    fix = overlay_archived("  - target: $.info\n    copy: $.paths\n")
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": fix})
    [finding] = run_rule(root, "overlay-invalid")
    assert "'copy'" in finding.message or '"copy"' in finding.message


def test_an_overlay_1_1_is_validated_against_the_1_1_schema(make_corpus: MakeCorpus) -> None:
    valid = overlay_archived(
        "  - target: $.info\n    copy: $.paths\n", version="1.1.0", info=", description: Why"
    )
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": valid})
    assert run_rule(root, "overlay-invalid") == []
    wrong = overlay_archived("  - target: $.info\n    copy: [$.paths]\n", version="1.1.0")
    root = make_corpus({"openapi.yaml": API_ARCHIVED, "overlay.yaml": wrong})
    [finding] = run_rule(root, "overlay-invalid")
    assert finding.location.pointer == "/actions/0/copy"
    assert "valid Overlay 1.1" in finding.message
