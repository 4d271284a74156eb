"""Issue 45, batch 2: API sources a bundler merges (``speclint.analyses.api.merging``). A document
whose local pointers name what a sibling fragment defines, the two merged by the repository's
build (``asyncapi bundle``, ``redocly join``, ``openapi-merge``...) or shown so by the files'
structure (a fragment with no ``info`` beside it), is checked as merged: its pointers resolve,
the fragment is not validated alone, an error in the fragment is reported there. A pointer
that the merged document lacks too is still an error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_cache import folder_of
from test_provenance import listing

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.repository.downloads import build_outputs, downloads
from speclint.model.config import load_config
from speclint.model.corpus import Corpus
from speclint.parsing.reading import LoadProblem
from speclint.run.cache import RuleCache, run_key
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def report(root: Path) -> dict[str, Any]:
    run = run_cli("check", str(root), "--no-cache", "--format", "json")
    found, _ = json.JSONDecoder().raw_decode(run.output)  # the summary line follows it
    assert isinstance(found, dict)
    return found


def rules_at(found: dict[str, Any]) -> list[tuple[str, str, int]]:
    return sorted(
        (f["rule"], f["location"]["path"], f["location"]["line"]) for f in found["findings"]
    )


# An AsyncAPI 3 service whose operations name channels a shared file holds (our own example).
SERVICE = {
    "asyncapi": "3.0.0",
    "info": {"title": "Oven", "version": "1.0.0"},
    "operations": {
        "start": {"action": "receive", "channel": {"$ref": "#/channels/start"}},
        "done": {"action": "send", "channel": {"$ref": "#/channels/done"}},
    },
}
COMMON = {
    "asyncapi": "3.0.0",
    "channels": {
        "start": {
            "address": "start",
            "messages": {"go": {"payload": {"$ref": "#/components/schemas/empty"}}},
        },
        "done": {"address": "done"},
    },
    "components": {"schemas": {"empty": {"type": "object"}}},
}
SCRIPT = "cd schema\nasyncapi bundle service.json common.json -o bundled/service.json\n"


def oven(make_corpus: MakeCorpus, **changes: Any) -> Path:
    files: dict[str, str | bytes] = {
        "oven/schema/service.json": json.dumps(changes.get("service", SERVICE), indent=2),
        "oven/schema/common.json": json.dumps(changes.get("common", COMMON), indent=2),
    }
    script = changes.get("script", SCRIPT)
    if script is not None:
        files["oven/bundle.sh"] = script
    return make_corpus(files)


def test_local_pointers_resolve_in_the_merged_document(make_corpus: MakeCorpus) -> None:
    found = report(oven(make_corpus))
    assert rules_at(found) == []
    # The fragment is not validated as a document of its own ("info" is required), and the
    # run says so among what it did not check.
    notes = [n for n in found["not_checked"]["notes"] if n["kind"] == "merged-fragment"]
    assert [n["path"] for n in notes] == ["oven/schema/common.json"]
    shown = listing(oven(make_corpus))["oven/schema/common.json"]
    assert "merged into `oven/schema/service.json`" in shown
    assert "asyncapi bundle service.json common.json" in shown


def test_without_the_merge_the_pointers_are_unresolved(make_corpus: MakeCorpus) -> None:
    # The same files, the fragment's `info` given and no script: two documents, each whole,
    # and the service's pointers name nothing (the control for the test above).
    common = {**COMMON, "info": {"title": "Shared", "version": "1.0.0"}}
    found = report(oven(make_corpus, common=common, script=None))
    assert [r for r, _, _ in rules_at(found)] == ["unresolved-ref", "unresolved-ref"]


def test_a_pointer_the_merged_document_lacks_stays_an_error(make_corpus: MakeCorpus) -> None:
    service = json.loads(json.dumps(SERVICE))
    service["operations"]["done"]["channel"]["$ref"] = "#/channels/dnoe"
    found = report(oven(make_corpus, service=service))
    assert rules_at(found) == [("unresolved-ref", "oven/schema/service.json", 17)]
    message = found["findings"][0]["message"]
    assert "/channels/dnoe" in message
    assert "nor does `oven/schema/common.json`, merged with it" in message


def test_an_error_in_the_fragment_is_reported_there(make_corpus: MakeCorpus) -> None:
    common = json.loads(json.dumps(COMMON))
    common["channels"]["done"]["bindings"] = 12
    found = report(oven(make_corpus, common=common))
    [finding] = found["findings"]
    where = finding["location"]
    assert (finding["rule"], where["path"]) == ("asyncapi-invalid", "oven/schema/common.json")
    assert where["line"] == 16  # the line of `"bindings": 12` in the fragment
    assert "/channels/done/bindings" in finding["message"]
    assert "`oven/schema/service.json` merges this file" in finding["message"]


def test_fragment_merged_into_two_documents_reports_once(make_corpus: MakeCorpus) -> None:
    common = json.loads(json.dumps(COMMON))
    common["channels"]["done"]["bindings"] = 12
    user = {**SERVICE, "info": {"title": "Oven user", "version": "1.0.0"}}
    root = make_corpus(
        {
            "api/service.json": json.dumps(SERVICE, indent=2),
            "api/user.json": json.dumps(user, indent=2),
            "api/common.json": json.dumps(common, indent=2),
            "Makefile": (
                "bundle:\n"
                "\tcd api && npx @asyncapi/cli bundle user.json common.json -o out/user.json\n"
                "\tcd api && npx @asyncapi/cli bundle service.json common.json -o out/s.json\n"
            ),
        }
    )
    assert [(r, p) for r, p, _ in rules_at(report(root))] == [
        ("asyncapi-invalid", "api/common.json")
    ]


# --- OpenAPI: by structure, by a join, by an openapi-merge configuration ---------------------

API = (
    "openapi: 3.0.3\ninfo:\n  title: Pets\n  version: 1.0.0\npaths:\n  /pets:\n    get:\n"
    "      responses:\n        '200':\n          description: The pets.\n          content:\n"
    "            application/json:\n              schema:\n"
    "                $ref: '#/components/schemas/Pet'\n"
)
COMPONENTS = (
    "openapi: 3.0.3\ncomponents:\n  schemas:\n    Pet:\n      type: object\n"
    "      properties:\n        name:\n          type: string\n"
)


def test_a_fragment_beside_the_document_is_merged_by_structure(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"spec/api.yaml": API, "spec/components.yaml": COMPONENTS})
    found = report(root)
    assert rules_at(found) == []
    assert [n["path"] for n in found["not_checked"]["notes"] if n["kind"] == "merged-fragment"] == [
        "spec/components.yaml"
    ]
    assert "no `info`" in listing(root)["spec/components.yaml"]


def test_structure_needs_a_fragment_beside_it(make_corpus: MakeCorpus) -> None:
    # The fragment in another folder, or a document that uses it by file reference: the local
    # pointer is a mistake (it should name the file), not a merge.
    elsewhere = make_corpus({"spec/api.yaml": API, "shared/components.yaml": COMPONENTS})
    found = rules_at(report(elsewhere))
    assert ("unresolved-ref", "spec/api.yaml", 14) in found
    assert {p for r, p, _ in found if r == "openapi-invalid"} == {"shared/components.yaml"}


def test_structure_not_when_the_document_references_the_fragment_by_file(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    by_file = API + "        '404':\n          $ref: 'components.yaml#/components/responses/No'\n"
    components = COMPONENTS + "  responses:\n    No:\n      description: Not found.\n"
    root = make_corpus({"spec/api.yaml": by_file, "spec/components.yaml": components})
    assert ("unresolved-ref", "spec/api.yaml", 14) in rules_at(report(root))


def test_redocly_join_in_a_package_script(make_corpus: MakeCorpus) -> None:
    # Two whole documents joined: each is validated alone, and the first's pointer into the
    # second resolves in the joined document.
    other = COMPONENTS.replace(
        "openapi: 3.0.3\n", "openapi: 3.0.3\ninfo:\n  title: P\n  version: '1'\n"
    )
    other += "paths: {}\n"
    package = {"scripts": {"join": "redocly join spec/api.yaml lib/pets.yaml -o dist/all.yaml"}}
    root = make_corpus(
        {"spec/api.yaml": API, "lib/pets.yaml": other, "package.json": json.dumps(package)}
    )
    found = report(root)
    assert rules_at(found) == []
    assert not [n for n in found["not_checked"]["notes"] if n["kind"] == "merged-fragment"]


def test_openapi_merge_configuration(make_corpus: MakeCorpus) -> None:
    config = {
        "inputs": [{"inputFile": "./spec/api.yaml"}, {"inputFile": "./parts/components.yaml"}],
        "output": "./dist/merged.yaml",
    }
    root = make_corpus(
        {
            "spec/api.yaml": API,
            "parts/components.yaml": COMPONENTS,
            "openapi-merge.json": json.dumps(config),
        }
    )
    assert rules_at(report(root)) == []


# --- the evidence read -------------------------------------------------------------------------


def merged(root: Path) -> dict[str, tuple[str, ...]]:
    found = Context.of(Corpus.load(root)).merges
    return {path: merge.fragments for path, merge in found.by_document.items()}


def test_command_lines_read(make_corpus: MakeCorpus) -> None:
    # The shared file whole (its own `info`): no evidence from the structure, only the command.
    common = {**COMMON, "info": {"title": "Shared", "version": "1.0.0"}}
    files: dict[str, str | bytes] = {
        "a/service.json": json.dumps(SERVICE),
        "a/common.json": json.dumps(common),
    }
    # Not a merge: another subcommand, a jq filter that does not merge, an input not in the
    # corpus, a single input.
    for script in (
        "asyncapi validate a/service.json a/common.json\n",
        "jq -s '.[0].info' a/service.json a/common.json > x.json\n",
        "asyncapi bundle a/service.json a/missing.json -o out.json\n",
        "asyncapi bundle a/service.json -o out.json\n",
        "echo 'asyncapi bundle a/service.json a/common.json'\n",
    ):
        root = make_corpus({**files, "build.sh": script})
        assert merged(root) == {}, script
    for script in (
        "npx -y @asyncapi/cli@2 bundle ./a/service.json a/common.json --output x.json\n",
        "yq eval-all '. as $i ireduce ({}; . * $i)' a/service.json a/common.json > x.yaml\n",
        "jq -s '.[0] * .[1]' a/service.json a/common.json > x.json\n",
        "cd a && asyncapi bundle \\\n  service.json \\\n  common.json -o ../x.json\n",
    ):
        root = make_corpus({**files, "build.sh": script})
        assert merged(root) == {"a/service.json": ("a/common.json",)}, script


def test_a_command_continued_on_the_next_line_is_one_command(make_corpus: MakeCorpus) -> None:
    # A CI job's shell reads a line ending in `&&` on with the next: `cd a &&` enters the folder
    # for the command it continues into (the same reading as the downloads').
    common = {**COMMON, "info": {"title": "Shared", "version": "1.0.0"}}
    job = "cd a &&\n      asyncapi bundle service.json common.json -o ../x.json\n"
    files: dict[str, str | bytes] = {
        "a/service.json": json.dumps(SERVICE),
        "a/common.json": json.dumps(common),
        ".gitlab-ci.yml": "bundle:\n  script:\n    - |\n      " + job,
    }
    assert merged(make_corpus(files)) == {"a/service.json": ("a/common.json",)}


def test_a_script_edit_changes_the_cache_keys(make_corpus: MakeCorpus) -> None:
    # The shared file whole: the script is the only evidence of the merge.
    root = oven(make_corpus, common={**COMMON, "info": {"title": "Shared", "version": "1.0.0"}})
    assert Context.of(Corpus.load(root)).merges.by_document
    before = Context.of(Corpus.load(root))
    keys = (
        RuleCache.key(before, "unresolved-ref", all_rules()["unresolved-ref"]),
        run_key(root, before.config, {}, ["x"], before.tree),
    )
    (root / "oven/bundle.sh").write_text("echo nothing to merge\n")
    after = Context.of(Corpus.load(root))
    assert after.merges.by_document == {}
    again = (
        RuleCache.key(after, "unresolved-ref", all_rules()["unresolved-ref"]),
        run_key(root, after.config, {}, ["x"], after.tree),
    )
    assert keys[0] != again[0]
    assert keys[1] != again[1]


def test_the_cache_keys_read_what_the_build_commands_merge_not_their_text(
    make_corpus: MakeCorpus,
) -> None:
    # Build files that merge nothing (a Makefile, a CI workflow): editing them keeps the cached
    # results of the rules that do not read the merges, and of those that do (what is merged
    # is the same). Editing the merge command drops the results of the rules that read the
    # merges, and only theirs.
    root = make_corpus(
        {
            "schema/service.json": json.dumps(SERVICE, indent=2),
            "shared/common.json": json.dumps(COMMON, indent=2),
            "bundle.sh": "asyncapi bundle schema/service.json shared/common.json -o out.json\n",
            "Makefile": "test:\n\tpytest\n",
            ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    steps:\n      - run: make\n",
            "README.md": "# Oven\n\nSee [the service](schema/service.json).\n\n```sh\nmake\n```\n",
        }
    )
    rules = all_rules()
    whole = {r for r, info in rules.items() if info.reads == "structured"}
    reading = {r for r in whole if "merges" in rules[r].facts}
    # Rules of pages that read none of the JSON/YAML documents whole (the workflow is one).
    pages = {r for r, info in rules.items() if info.reads == "page" and info.shared is not None}
    assert "unresolved-ref" in reading and "duplicate-key" in whole and "broken-link" in pages

    def hits() -> set[str]:
        corpus = Context.load(root, load_config(root))
        cache = RuleCache(folder_of(root))
        found = {
            r for r in whole if cache.get(RuleCache.key(corpus, r, rules[r]) or "") is not None
        }
        for rule in pages:
            keys = RuleCache.unit_keys(corpus, rule, rules[rule]) or {}
            if keys and all(cache.get(key) is not None for key in keys.values()):
                found.add(rule)
        return found

    run_cli("check", str(root), "--format", "json")
    assert hits() == whole | pages
    (root / "Makefile").write_text("test:\n\tpytest -x\n")
    assert hits() == whole | pages
    workflow = root / ".github/workflows/ci.yml"
    workflow.write_text(workflow.read_text() + "      - run: make test\n")
    assert hits() == pages  # a corpus document: the JSON/YAML rules read it
    run_cli("check", str(root), "--format", "json")
    (root / "bundle.sh").write_text("asyncapi validate schema/service.json\n")
    assert hits() == (whole - reading) | pages


def test_a_cached_run_after_a_script_edit_reports_what_a_fresh_run_does(
    make_corpus: MakeCorpus,
) -> None:
    # The fragment in a folder of its own: the script is the only evidence of the merge, and
    # no corpus document changes when it is edited.
    root = make_corpus(
        {
            "schema/service.json": json.dumps(SERVICE, indent=2),
            "shared/common.json": json.dumps(COMMON, indent=2),
            "bundle.sh": "asyncapi bundle schema/service.json shared/common.json -o out.json\n",
            "README.md": "# Oven\n",
        }
    )

    def cached() -> list[tuple[str, str, int]]:
        return rules_at(
            json.JSONDecoder().raw_decode(run_cli("check", str(root), "--format", "json").output)[0]
        )

    assert cached() == rules_at(report(root)) == []
    (root / "bundle.sh").write_text("asyncapi validate schema/service.json\n")
    fresh = rules_at(report(root))
    assert {r for r, _, _ in fresh} == {"asyncapi-invalid", "unresolved-ref"}
    assert cached() == fresh
    # Back: the cached results of the merged run are used again, and still right.
    (root / "bundle.sh").write_text("asyncapi bundle schema/service.json shared/common.json\n")
    assert cached() == rules_at(report(root)) == []


def test_a_cached_run_after_the_document_starts_merging_reports_what_a_fresh_run_does(
    make_corpus: MakeCorpus,
) -> None:
    # No script: the fragment is merged by structure once the document names what it defines,
    # an edit of the document alone; the fragment's own result changes with it.
    alone = {**SERVICE, "operations": {}}
    root = make_corpus(
        {
            "api/service.json": json.dumps(alone, indent=2),
            "api/common.json": json.dumps(COMMON, indent=2),
        }
    )

    def cached() -> list[tuple[str, str, int]]:
        return rules_at(
            json.JSONDecoder().raw_decode(run_cli("check", str(root), "--format", "json").output)[0]
        )

    assert cached() == rules_at(report(root)) == [("asyncapi-invalid", "api/common.json", 1)]
    (root / "api/service.json").write_text(json.dumps(SERVICE, indent=2))
    assert cached() == rules_at(report(root)) == []


def test_the_build_files_are_read_once_a_run(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Merges, downloads and build outputs all read the build command lines: from one reading.
    root = oven(make_corpus, script=SCRIPT + "curl -sSL https://vendor.example/a.json -o a.json\n")
    reads: list[str] = []

    read_file = Corpus.read_file

    def counted(corpus: Corpus, path: str, *args: Any, **kwargs: Any) -> bytes | LoadProblem:
        reads.append(path)
        return read_file(corpus, path, *args, **kwargs)

    monkeypatch.setattr(Corpus, "read_file", counted)
    corpus = Context.of(Corpus.load(root))
    assert corpus.merges.by_document and corpus.provenance is not None
    downloads(corpus), build_outputs(corpus)
    assert reads.count("oven/bundle.sh") == 1
