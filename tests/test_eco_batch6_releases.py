"""Released snapshots kept beside the maintained text (issue 45, batch 6), each on a fixture of ours.

A folder named for a release that copies its parent's files (``examples/2026-04-17/`` beside
``examples/``, ``documents/v1.1-document-set/`` beside ``documents/``, Docusaurus's
``versioned_docs/version-X/`` beside ``docs/``) is frozen: a defect it shares with the maintained
copy is one finding there, with the snapshot a related location; one only the snapshot has is
history (``released-versions``, ``speclint.run.history``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from speclint.common.findings import Finding, Severity
from speclint.parsing.versions import maintained_copies, version_lines, version_place
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def schema(*required: str) -> str:
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": list(required),
        },
        indent=2,
    )


def found(root: Path, *rules: str) -> list[Finding]:
    return lint(root, Options(cache=False, rules=rules)).findings


def test_a_dated_snapshot_folder_folds_into_the_maintained_copy_beside_it(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            # The parent's file is the one still edited; `2026-04-17/` is its copy at release.
            "examples/order.json": schema("idd"),
            "examples/2026-04-17/order.json": schema("idd"),
            "examples/2026-01-30/order.json": schema("idd", "gone"),
        }
    )
    findings = found(root, "required-undeclared")
    [repeated] = [f for f in findings if "`idd`" in f.message]
    assert repeated.location.path == "examples/order.json"
    assert repeated.severity is Severity.WARNING
    assert {r.path for r in repeated.related if r.note and "frozen" in r.note} == {
        "examples/2026-04-17/order.json",
        "examples/2026-01-30/order.json",
    }
    # What only a release has is said once, at info: the release does not change.
    [gone] = [f for f in findings if "`gone`" in f.message]
    assert gone.location.path == "examples/2026-01-30/order.json"
    assert gone.severity is Severity.INFO
    assert len(findings) == 2


def test_a_release_folder_with_no_maintained_copy_is_reported_as_it_is(
    make_corpus: MakeCorpus,
) -> None:
    # Nothing newer holds `legacy.json`: its defect is its own (issue 45, item 6's premise).
    root = make_corpus(
        {
            "examples/order.json": schema(),
            "examples/2026-04-17/order.json": schema(),
            "examples/2026-04-17/legacy.json": schema("idd"),
        }
    )
    [finding] = found(root, "required-undeclared")
    assert finding.location.path == "examples/2026-04-17/legacy.json"
    assert finding.severity is Severity.WARNING


def test_an_unreleased_folder_is_no_snapshot_of_its_parent(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "examples/order.json": schema("idd"),
            "examples/2026-04-17/order.json": schema(),
            "examples/unreleased/order.json": schema("idd"),
        }
    )
    findings = found(root, "required-undeclared")
    assert sorted(f.location.path for f in findings) == [
        "examples/order.json",
        "examples/unreleased/order.json",
    ]
    assert {f.severity for f in findings} == {Severity.WARNING}


PAGE = """\
# Guide

## Setup

See [the steps](#steps){extra}.

## Usage

Read [the reference](reference.md).
"""


def test_docusaurus_versioned_docs_are_frozen_copies_of_docs(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "website/versions.json": '["1.2.0"]\n',
            "website/docs/guide.md": PAGE.format(extra=""),
            "website/versioned_docs/version-1.2.0/guide.md": PAGE.format(
                extra=", and [the old steps](#old-steps)"
            ),
        }
    )
    findings = found(root, "broken-link")
    # `#steps` and `reference.md` are dead in both: one finding each, at `docs/`, the frozen
    # copy related (its message names its own folder's `reference.md`: the same defect).
    assert sorted(f.location.path for f in findings) == ["website/docs/guide.md"] * 2
    for finding in findings:
        assert [r.path for r in finding.related if r.note and "frozen" in r.note] == [
            "website/versioned_docs/version-1.2.0/guide.md"
        ]
    # `#old-steps` is dead only in the released page: history, not reported.
    assert not any("old-steps" in f.message for f in findings)


GUIDE = PAGE.format(extra="").replace("reference.md", "manual.md")


def test_a_document_set_folder_is_a_snapshot_of_its_parent_in_another_spelling(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            # The maintained text, named with underscores; the sets' copies with spaces.
            "api/documents/Spec_v1.1.md": PAGE.format(extra=""),
            "api/documents/v1.1-document-set/Spec v1.1.md": PAGE.format(
                extra=", and [table 6](#table-6)"
            ),
            "api/documents/v1.0-document-set/Spec v1.0.md": PAGE.format(extra=""),
            # A patch release kept in the set, and maintained beside it.
            "api/documents/Guide_v1.1.1.md": GUIDE,
            "api/documents/v1.1-document-set/Guide_v1.1.1.md": GUIDE,
        }
    )
    findings = found(root, "broken-link")
    assert sorted(f.location.path for f in findings) == [
        "api/documents/Guide_v1.1.1.md",
        "api/documents/Guide_v1.1.1.md",
        "api/documents/Spec_v1.1.md",
        "api/documents/Spec_v1.1.md",
    ]
    [steps] = [f for f in findings if "#steps" in f.message and "Spec" in f.location.path]
    assert {r.path for r in steps.related if r.note and "frozen" in r.note} == {
        "api/documents/v1.1-document-set/Spec v1.1.md",
        "api/documents/v1.0-document-set/Spec v1.0.md",
    }


def test_an_api_line_folder_is_no_snapshot_of_its_parent(make_corpus: MakeCorpus) -> None:
    # `v1/` beside `users.json` may be a line still served: both are reported.
    root = make_corpus({"api/users.json": schema("idd"), "api/v1/users.json": schema("idd")})
    assert sorted(f.location.path for f in found(root, "required-undeclared")) == [
        "api/users.json",
        "api/v1/users.json",
    ]


def test_a_version_in_the_folder_and_the_file_name_lines_the_sets_up() -> None:
    first = "api/v1.0-set/Spec v1.0.md"
    second = "api/v1.1-set/Spec v1.1.md"
    lines = version_lines([first, second])
    assert version_place(first, lines.of(first)) == version_place(second, lines.of(second))


def test_maintained_copies_need_the_parent_to_hold_the_file() -> None:
    paths = [
        "examples/2026-04-17/order.json",
        "examples/order.json",
        "examples/2026-04-17/only-then.json",
        "website/versioned_docs/version-2.0/intro.md",
        "website/docs/intro.md",
        "community_versioned_docs/version-2.0/faq.md",
        "community/faq.md",
    ]
    snapshots = maintained_copies(paths, version_lines(paths))
    assert {path: s.live for path, s in snapshots.items()} == {
        "examples/2026-04-17/order.json": "examples/order.json",
        "website/versioned_docs/version-2.0/intro.md": "website/docs/intro.md",
        "community_versioned_docs/version-2.0/faq.md": "community/faq.md",
    }
    assert snapshots["website/versioned_docs/version-2.0/intro.md"].folder == (
        "website/versioned_docs/version-2.0/"
    )
    assert snapshots["website/versioned_docs/version-2.0/intro.md"].home == "website/docs/"


def test_a_version_folders_own_page_is_no_snapshot_of_its_parents(
    make_corpus: MakeCorpus,
) -> None:
    # `schemas/README.md` lists the versions; `schemas/1.0.0/README.md` describes 1.0.0: two
    # pages with the same name, not a copy (a dead link in each is each one's own).
    root = make_corpus(
        {
            "schemas/README.md": "# Schemas\n\nEvery version: see [the list](#versions).\n",
            "schemas/1.0.0/README.md": "# Release 1.0.0\n\nFirst release; [notes](#versions).\n",
            "schemas/2.0.0/README.md": "# Release 2.0.0\n\nSecond release; [notes](#versions).\n",
        }
    )
    paths = sorted(f.location.path for f in found(root, "broken-link"))
    assert "schemas/README.md" in paths
    assert "schemas/2.0.0/README.md" in paths


def test_the_newest_release_beside_a_snapshot_is_not_frozen_by_the_parent(
    make_corpus: MakeCorpus,
) -> None:
    # `next/1.1/` is a copy of `next/` (the same text); `next/2.0/` is the release being
    # written, no copy of anything: a dead link only it has is its own, at warning.
    page = "# Next\n\nThe next release is being written; see the drafts below.\n"
    root = make_corpus(
        {
            "next/README.md": page,
            "next/1.1/README.md": page,
            "next/2.0/README.md": "# 2.0\n\nNew features: [voxels](#voxels).\n",
        }
    )
    [finding] = found(root, "broken-link")
    assert finding.location.path == "next/2.0/README.md"
    assert finding.severity is Severity.WARNING
