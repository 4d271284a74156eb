"""Issue 26: two editions of one schema (``x.json`` and ``x-strict.json``) share their ``$id`` on
purpose: one info, not a duplicate-id error; a copied ``$id`` between unrelated files stays an
error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from speclint.parsing.versions import newest_first

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def schema(identifier: str, closed: bool = False) -> str:
    body: dict[str, object] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": identifier,
        "type": "object",
        "properties": {"name": {"type": "string"}},
    }
    if closed:
        body["additionalProperties"] = False
    return json.dumps(body, indent=2) + "\n"


def test_editions_share_an_id_as_an_info_and_copies_stay_errors(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schema/bom-1.3.schema.json": schema("https://example.org/bom-1.3.schema.json"),
            "schema/bom-1.3-strict.schema.json": schema(
                "https://example.org/bom-1.3.schema.json", closed=True
            ),
            "schema/cvss_strict.json": schema("https://example.org/cvss.json", closed=True),
            "schema/cvss.json": schema("https://example.org/cvss.json"),
            # Not an edition: another schema that copied the `$id`.
            "schema/other.json": schema("https://example.org/thing.json", closed=True),
            "schema/thing.json": schema("https://example.org/thing.json"),
            # An edition word, but another folder: not known to be an edition.
            "legacy/thing-strict.json": schema("https://example.org/thing.json", closed=True),
        }
    )
    run = cli("check", str(root), "--no-cache", "--format", "json", "--rule", "duplicate-id")
    found = {
        (f["location"]["path"], f["severity"])
        for f in json.loads(run.stdout)["findings"]
        if f["rule"] == "duplicate-id"
    }
    assert ("schema/bom-1.3-strict.schema.json", "info") in found
    assert ("schema/cvss_strict.json", "info") in found
    assert ("schema/other.json", "error") in found
    assert ("legacy/thing-strict.json", "error") in found
    assert not any(
        severity == "error" and "strict" in path and path.startswith("schema/")
        for path, severity in found
    )


def test_a_publication_snapshot_folder_is_a_version(make_corpus: MakeCorpus) -> None:
    # W3C keeps each publication's files under `publication/ver10/`, `publication/ver11/`: the
    # snapshot declares the `$id` the working file declares, and is history, not a duplicate.
    same = schema("https://example.org/td-validation.json")
    root = make_corpus(
        {
            "validation/td-validation.json": same,
            "publication/ver11/resources/validation/td-validation.json": same.replace(
                '"object"', '"object", "title": "1.1"'
            ),
            "publication/ver10/resources/validation/td-validation.json": same.replace(
                '"object"', '"object", "title": "1.0"'
            ),
        }
    )
    run = cli("check", str(root), "--no-cache", "--format", "json", "--rule", "duplicate-id")
    assert json.loads(run.stdout)["findings"] == []


def test_publication_snapshots_are_ordered_by_number() -> None:
    assert newest_first(["ver9", "ver11", "ver10"]) == ["ver11", "ver10", "ver9"]


def test_a_proposal_reusing_a_published_id_is_a_draft_not_a_duplicate(
    make_corpus: MakeCorpus,
) -> None:
    """A schema in a proposals folder drafts a change to the published one under its `$id`;
    two drafts under one `$id` still conflict with each other."""
    published = "https://example.org/validation/thing.json"
    root = make_corpus(
        {
            "validation/thing.json": schema(published),
            "proposals/bigger-thing/tooling/full.schema.json": schema(published, closed=True),
            "proposals/bigger-thing/a.json": schema("https://example.org/draft.json"),
            "proposals/other-idea/b.json": schema("https://example.org/draft.json", closed=True),
        }
    )
    result = cli("check", str(root), "--no-cache", "--format", "json")
    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "duplicate-id"]
    assert [(f["location"]["path"], f["severity"]) for f in found] == [
        ("proposals/other-idea/b.json", "error")
    ], found
