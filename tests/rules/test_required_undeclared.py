"""``required-undeclared`` on fixtures written here, one test a case, named after it. The rule: a
``required`` name that no ``properties`` or ``patternProperties`` in scope declares."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from speclint.common.findings import Finding, Severity
from speclint.parsing.versions import maintained_copies, version_lines, version_place
from speclint.run.engine import Options, lint

# Released snapshots kept beside the maintained text (issue 45, batch 6), each on a fixture of ours.
#
# A folder named for a release that copies its parent's files (``examples/2026-04-17/`` beside
# ``examples/``, ``documents/v1.1-document-set/`` beside ``documents/``, Docusaurus's
# ``versioned_docs/version-X/`` beside ``docs/``) is frozen: a defect it shares with the maintained
# copy is one finding there, with the snapshot a related location; one only the snapshot has is
# history (``released-versions``, ``speclint.run.history``).


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


# required-undeclared classes found at the first read of ecosystem batch 6 (issue 45).


def test_a_required_item_holding_a_comma_separated_list_is_said_to_be_one(
    make_corpus: MakeCorpus,
) -> None:
    """`required: ["accountId, created, updated"]` is one item: the message says a list was
    written as one name, and which of its names no property declares, not "declare
    `accountId, created, updated` in `properties`"."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"accountId": {"type": "string"}, "created": {"type": "string"}},
        "required": ["accountId, created, updated"],
    }
    root = make_corpus({"schemas/account.json": json.dumps(schema, indent=2)})
    result = run_cli("check", str(root), "--no-cache", "--quiet", "--format", "json")
    (finding,) = json.loads(result.output)["findings"]
    assert finding["rule"] == "required-undeclared"
    message = finding["message"]
    assert "one `required` item holding 3 comma-separated names" in message
    assert "declare `updated` in `properties`" in message
    assert "`accountId`," not in message.split("declare")[-1]
