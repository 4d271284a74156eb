"""A catalog of unrelated schemas (SchemaStore's layout) is many specifications, not one (issue 14).

Each test is a false positive or a crash found by reading speclint's findings on a full checkout
of SchemaStore/schemastore, rebuilt on a small fixture written here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.parsing.versions import version_lines
from speclint.run.coverage import of_corpus

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def form(name: str, extra: dict[str, Any]) -> str:
    """An issue-form schema: GitHub's and Gitea's both define `body`, not quite alike."""
    body: dict[str, Any] = {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"type": "string"}, "id": {"type": "string"}, **extra},
    }
    document: dict[str, Any] = {
        "$schema": DRAFT_07,
        "$id": f"https://json.example.org/{name}.json",
        "definitions": {"body": body},
        "type": "object",
        "properties": {"body": {"$ref": "#/definitions/body"}},
    }
    return json.dumps(document, indent=2)


def catalog(*names: str) -> str:
    return json.dumps(
        {
            "$schema": "https://json.schemastore.org/schema-catalog.json",
            "version": 1,
            "schemas": [
                {"name": n, "url": f"https://json.example.org/{n}.json", "fileMatch": [f"{n}.yml"]}
                for n in names
            ],
        }
    )


def test_schemas_a_catalog_lists_are_separate_specifications(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/github-form.json": form("github-form", {"labels": {"type": "array"}}),
        "schemas/gitea-form.json": form("gitea-form", {"ref": {"type": "string"}}),
    }
    # Without a catalog, two same-named definitions in one folder are copies that drifted.
    assert len(run_rule(make_corpus(files), "copy-drift")) == 1
    files["api/catalog.json"] = catalog("github-form", "gitea-form")
    assert run_rule(make_corpus(files), "copy-drift") == []
    # One listed schema referring to the other makes them one specification again.
    files["schemas/gitea-form.json"] = json.dumps(
        {
            **json.loads(form("gitea-form", {"ref": {"type": "string"}})),
            "properties": {
                "body": {"$ref": "#/definitions/body"},
                "base": {"$ref": "github-form.json"},
            },
        }
    )
    assert len(run_rule(make_corpus(files), "copy-drift")) == 1


def test_a_dependencies_map_of_schemas_and_name_lists_is_not_a_crash(
    make_corpus: MakeCorpus,
) -> None:
    # `referencing` judges draft-07 `dependencies` by its first value: a schema first, then a
    # list, made every rule die with "'list' object has no attribute 'get'".
    root = make_corpus(
        {
            "schemas/grammar.json": json.dumps(
                {
                    "$schema": DRAFT_07,
                    "type": "object",
                    "properties": {"begin": {"type": "string"}, "end": {"type": "string"}},
                    "dependencies": {"begin": {"required": ["end"]}, "end": ["begin"]},
                    "definitions": {"rule": {"$ref": "#/definitions/missing"}},
                }
            )
        }
    )
    [finding] = run_rule(root, "unresolved-ref")
    assert "/definitions/missing" in finding.message


def test_a_same_document_reference_stays_in_its_document_when_another_file_has_its_id(
    make_corpus: MakeCorpus,
) -> None:
    def strict(name: str) -> str:
        return json.dumps(
            {
                "$schema": DRAFT_07,
                "$id": "https://json.example.org/strict.json",  # both declare one `$id`
                "definitions": {name: {"type": "object"}},
                "properties": {"a": {"$ref": f"#/definitions/{name}"}},
            }
        )

    user = {"$schema": DRAFT_07, "$ref": "https://json.example.org/strict.json#/definitions/config"}
    root = make_corpus(
        {
            "schemas/bigconfig.json": strict("config"),
            "schemas/metaschema.json": strict("entity"),
            "schemas/user.json": json.dumps(user),
        }
    )
    assert run_rule(root, "unresolved-ref") == []
    # Another file's reference by the contested `$id` goes to the first file, on every run.
    corpus = Context.load(root)
    [by_id] = [r for r in corpus.references.references if r.path == "schemas/user.json"]
    assert (by_id.outcome, by_id.target_path) == ("ok", "schemas/bigconfig.json")


def test_an_id_on_a_shared_host_does_not_own_the_host(make_corpus: MakeCorpus) -> None:
    def pointing_at(url: str, own_id: str) -> str:
        return json.dumps({"$schema": DRAFT_07, "$id": own_id, "allOf": [{"$ref": url}]})

    root = make_corpus(
        {
            # A defective root-level `$id` on a code host, and one under an owner's repository
            "schemas/spice.json": json.dumps(
                {"$schema": DRAFT_07, "$id": "https://raw.githubusercontent.com/spice.json", "type": "object"}
            ),
            "schemas/sarif.json": json.dumps(
                {"$schema": DRAFT_07, "$id": "https://raw.githubusercontent.com/oasis/sarif/main/sarif.json", "type": "object"}
            ),
            "schemas/block.json": pointing_at(
                "https://raw.githubusercontent.com/wordpress/gutenberg/trunk/block.json",
                "https://json.example.org/block.json",
            ),
            "schemas/mine.json": pointing_at(
                "https://json.example.org/missing.json", "https://json.example.org/mine.json"
            ),
        }
    )  # fmt: skip
    unresolved = {f.location.path for f in run_rule(root, "unresolved-ref")}
    corpus = Context.load(root, load_config(root))
    remote = {n.path for n in of_corpus(corpus) if n.kind == "remote-ref"}
    # Another owner's schema on the same host is remote, not a missing schema of ours ...
    assert "schemas/block.json" in remote and "schemas/block.json" not in unresolved
    # ... and a missing file beside our own `$id`s is ours.
    assert "schemas/mine.json" in unresolved


def test_pre_releases_named_by_their_stage_are_versions_of_their_own() -> None:
    lines = version_lines(
        [
            "s/sarif-2.1.0-rtm.4.json",
            "s/sarif-2.1.0-rtm.5.json",
            "s/sarif-2.1.0.json",
            "s/sarif-2.0.0-csd.2.beta.2019-01-24.json",
            "s/1.0.0-beta/x.json",
            "schemas/3.1.0-without-$id.json",
        ]
    )
    assert lines.of("s/sarif-2.1.0-rtm.4.json") == "2.1.0-rtm.4"
    assert lines.of("s/sarif-2.0.0-csd.2.beta.2019-01-24.json") == "2.0.0-csd.2.beta.2019-01-24"
    assert lines.of("s/1.0.0-beta/x.json") == "1.0.0-beta"
    assert lines.of("schemas/3.1.0-without-$id.json") == "3.1.0"
    assert not lines.same_line("s/sarif-2.1.0-rtm.4.json", "s/sarif-2.1.0-rtm.5.json")
    assert not lines.same_line("s/sarif-2.1.0-rtm.5.json", "s/sarif-2.1.0.json")
