"""Identity and structure of a schema corpus: duplicate-id and required-undeclared."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from test_cli import cli

from conftest import schema
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.versions import newest_first
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


DRAFT_04 = "http://json-schema.org/draft-04/schema#"


DRAFT_07 = "http://json-schema.org/draft-07/schema#"


BASE = "https://example.org/schemas/"


def findings_of(rule: str, root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    corpus = Context.load(root)
    chosen = corpus.config.rule_options.get(rule, {}) if options is None else options
    return sorted(all_rules()[rule].check(corpus, chosen), key=Finding.sort_key)


def ided(path: str, identifier: str | None = None, **body: Any) -> str:
    """A 2020-12 schema file whose `$id` names its own path under BASE (or ``identifier``)."""
    return schema(**{"$id": identifier or BASE + path.removeprefix("schemas/"), **body})


def test_duplicate_id_fail_at_the_copied_id_and_pass(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run.schema.json": ided("schemas/run.schema.json", type="object"),
            # path order puts run-request first; its `$id` is the copied one
            "schemas/run-request.schema.json": ided(
                "x", BASE + "run.schema.json", type="object", required=["a"]
            ),
        }
    )
    [finding] = findings_of("duplicate-id", root)
    assert finding.severity is Severity.ERROR
    assert finding.location.path == "schemas/run-request.schema.json"
    assert finding.location.pointer == "/$id"
    assert finding.location.line == 3
    assert "is also declared by schemas/run.schema.json" in finding.message
    assert f"`{BASE}run-request.schema.json`" in finding.message  # the id it should have
    assert [r.path for r in finding.related] == ["schemas/run.schema.json"]
    assert finding.related[0].note
    (root / "schemas/run-request.schema.json").write_text(
        ided("schemas/run-request.schema.json", type="object")
    )
    assert findings_of("duplicate-id", root) == []


def test_duplicate_id_reports_the_second_in_path_order(make_corpus: MakeCorpus) -> None:
    same = BASE + "event.json"
    root = make_corpus(
        {
            "a/event.json": schema(**{"$id": same, "type": "object"}),
            "b/event.json": schema(**{"$id": same, "type": "string"}),
        }
    )
    [finding] = findings_of("duplicate-id", root)
    assert finding.location.path == "b/event.json"
    assert finding.related[0].path == "a/event.json"


def test_duplicate_id_across_version_lines_is_history(make_corpus: MakeCorpus) -> None:
    same = "https://example.org/definitions/x.json"
    files: dict[str, str | bytes] = {
        "definitions/2.0.0/x.json": schema(**{"$id": same, "type": "object"}),
        "definitions/3.0.0/x.json": schema(**{"$id": same, "type": "string"}),
    }
    assert findings_of("duplicate-id", make_corpus(files)) == []


def test_duplicate_id_within_one_version_line_is_reported(make_corpus: MakeCorpus) -> None:
    same = "https://example.org/definitions/2.0.0/a.json"
    root = make_corpus(
        {
            "definitions/2.0.0/a.json": schema(**{"$id": same, "type": "object"}),
            "definitions/2.0.0/b.json": schema(**{"$id": same, "type": "string"}),
        }
    )
    [finding] = findings_of("duplicate-id", root)
    assert finding.location.path == "definitions/2.0.0/b.json"
    assert "https://example.org/definitions/2.0.0/b.json" in finding.message


def test_duplicate_id_ignores_bundles_copies_metaschemas_and_fixtures(
    make_corpus: MakeCorpus,
) -> None:
    def source(name: str) -> dict[str, Any]:
        return {"$id": f"https://example.org/definitions/1.0.0/{name}.json", "type": "object"}

    names = ("info", "tag", "server")
    metaschema = {"id": DRAFT_04, "$schema": DRAFT_04, "type": "object"}
    files: dict[str, str | bytes] = {
        f"definitions/1.0.0/{name}.json": json.dumps(source(name)) for name in names
    }
    # A generated bundle embeds its sources under their `$id`s (speclint.analyses.repository.lineage).
    files["schemas/1.0.0.json"] = json.dumps(
        {
            "type": "object",
            "definitions": {source(n)["$id"]: {**source(n), "title": n} for n in names},
        }
    )
    # Two schemas that embed (differently trimmed) copies of the draft-04 metaschema.
    for index, extra in enumerate(({}, {"title": "trimmed"})):
        files[f"formats/f{index}.json"] = json.dumps(
            {"$schema": DRAFT_07, "definitions": {"meta": {**metaschema, **extra}}}
        )
    # The same resource vendored twice, byte for byte.
    vendored = {"$id": "https://vendor.example/common.json", "type": "string"}
    files["vendor/a/common.json"] = json.dumps(vendored)
    files["vendor/b/common.json"] = json.dumps(vendored)
    # A test fixture that copies an `$id` on purpose.
    files["tests/fail/info.json"] = json.dumps({**source("info"), "type": "string"})
    assert findings_of("duplicate-id", make_corpus(files)) == []


def test_duplicate_id_of_a_compound_bundle_that_marks_its_source(make_corpus: MakeCorpus) -> None:
    """A bundler (helm-values-schema-json) embeds a file under that file's own URI
    (`"$id": "config.json"`) and hoists its `$defs`, relative `$id`s and all, to the bundle's
    root: the same `$id`s in the same folder are the bundling (JSON Schema 2020-12 §9.3), not a
    copied `$id`. Without the mark, the same layout is a duplicate."""
    names = ("Rest", "Stomp", "Tiled")

    def defs(extra: dict[str, Any]) -> dict[str, Any]:
        return {n: {"$id": n, "type": "object", **extra} for n in names}

    config = schema(**{"$defs": defs({"title": "source"})})
    mark = {"$id": "config.json", "$ref": "#/$defs/Rest"}
    bundle = schema(properties={"worker": {"$ref": "config.json"}})
    marked = json.loads(bundle)
    marked["$defs"] = {**defs({}), "config.json": mark}
    root = make_corpus({"chart/config.json": config, "chart/values.json": json.dumps(marked)})
    assert findings_of("duplicate-id", root) == []
    del marked["$defs"]["config.json"]
    (root / "chart/values.json").write_text(json.dumps(marked))
    found = findings_of("duplicate-id", root)
    assert len(found) == len(names)
    assert {f.location.path for f in found} == {"chart/values.json"}


def test_duplicate_id_of_an_embedded_resource_and_a_draft04_root(make_corpus: MakeCorpus) -> None:
    shared = BASE + "shared.json"
    root = make_corpus(
        {
            "schemas/shared.json": json.dumps(
                {"$schema": DRAFT_04, "id": shared, "type": "object"}
            ),
            "schemas/bundle.json": schema(
                **{"$defs": {"shared": {"$id": shared, "type": "string"}}, "type": "object"}
            ),
        }
    )
    [finding] = findings_of("duplicate-id", root)
    # the root that names its own file keeps the `$id`; the embedded copy is reported
    assert (finding.location.path, finding.location.pointer) == (
        "schemas/bundle.json",
        "/$defs/shared/$id",
    )
    assert finding.related[0].path == "schemas/shared.json"
    assert finding.related[0].pointer == "/id"


def _corpus_of_ids(extra: dict[str, str]) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        f"schemas/{name}.schema.json": ided(f"schemas/{name}.schema.json", type="object")
        for name in ("agent", "capabilities", "event", "manifest", "snapshot")
    }
    files.update(extra)
    return files


def test_duplicate_id_infers_the_pattern_and_names_the_expected_id(
    make_corpus: MakeCorpus,
) -> None:
    copied = ided("x", BASE + "capability.schema.json", type="object")
    root = make_corpus(_corpus_of_ids({"schemas/run-request.schema.json": copied}))
    [finding] = findings_of("duplicate-id", root)
    assert finding.severity is Severity.WARNING
    assert finding.location.path == "schemas/run-request.schema.json"
    assert f"expected `{BASE}run-request.schema.json`" in finding.message
    assert findings_of("duplicate-id", root, {"infer": False}) == []


def test_duplicate_id_infers_nothing_without_a_strong_majority(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        f"schemas/{n}.json": ided(f"schemas/{n}.json", type="object") for n in ("a", "b", "c")
    }
    files["schemas/d.json"] = ided("x", BASE + "other.json", type="object")
    assert findings_of("duplicate-id", make_corpus(files)) == []  # 4 schemas: below `minimum`
    files["schemas/e.json"] = ided("x", BASE + "else.json", type="object")
    files["schemas/f.json"] = ided("schemas/f.json", type="object")
    assert findings_of("duplicate-id", make_corpus(files)) == []  # 4 of 6 agree: not 80 %
    # an `$id` that names a folder, not a file, follows another convention: left alone
    files = dict(_corpus_of_ids({"schemas/folder.schema.json": ided("x", BASE + "things/")}))
    assert findings_of("duplicate-id", make_corpus(files)) == []


def test_duplicate_id_version_folder_left_from_a_copy(make_corpus: MakeCorpus) -> None:
    host = "https://example.org/"
    files: dict[str, str | bytes] = {}
    for version in ("1.0.0", "2.0.0"):
        for name in ("info", "tag", "server"):
            path = f"definitions/{version}/{name}.json"
            files[path] = schema(**{"$id": host + path, "type": "object"})
    files["definitions/2.0.0/contact.json"] = schema(
        **{"$id": host + "definitions/1.0.0/contact.json", "type": "object"}
    )
    [finding] = findings_of("duplicate-id", make_corpus(files))
    assert finding.location.path == "definitions/2.0.0/contact.json"
    assert f"expected `{host}definitions/2.0.0/contact.json`" in finding.message
    assert "version folder `2.0.0`" in finding.message


def test_duplicate_id_published_elsewhere_on_purpose_is_left_alone(
    make_corpus: MakeCorpus,
) -> None:
    # A file whose `$id` is its published address on another host (Swagger 2.0's
    # `http://swagger.io/v2/schema.json` in `v2.0/`): no other file maps there.
    host = "https://example.org/"
    files: dict[str, str | bytes] = {
        f"schemas/v1.2/{n}.json": schema(**{"$id": f"{host}schemas/v1.2/{n}.json"})
        for n in ("a", "b", "c", "d", "e")
    }
    files["schemas/v2.0/schema.json"] = schema(**{"$id": "http://other.example/v2/schema.json"})
    assert findings_of("duplicate-id", make_corpus(files)) == []


def test_duplicate_id_configured_pattern(make_corpus: MakeCorpus) -> None:
    options = {"pattern": "https://example.org/spec/{path}", "folder": "schemas"}
    root = make_corpus(
        {
            "schemas/ok.schema.json": schema(**{"$id": "https://example.org/spec/ok.schema.json"}),
            "schemas/sub/bad.schema.json": schema(**{"$id": "https://example.org/bad.schema.json"}),
            "schemas/none.schema.json": schema(type="object"),
            "elsewhere/free.schema.json": schema(**{"$id": "urn:free"}),
        }
    )
    found = {f.location.path: f for f in findings_of("duplicate-id", root, options)}
    assert sorted(found) == ["schemas/none.schema.json", "schemas/sub/bad.schema.json"]
    assert found["schemas/sub/bad.schema.json"].severity is Severity.WARNING
    assert (
        "`https://example.org/spec/sub/bad.schema.json`"
        in found["schemas/sub/bad.schema.json"].message
    )
    assert found["schemas/none.schema.json"].severity is Severity.INFO
    [bad_option] = findings_of("duplicate-id", root, {"pattern": "https://x/{file}"})
    assert "`pattern`" in bad_option.message and "`{file}`" in bad_option.message
    [bad_format] = findings_of("duplicate-id", root, {"pattern": "https://x/{path:d}"})
    assert "cannot fill" in bad_format.message


# Issue 26: two editions of one schema (``x.json`` and ``x-strict.json``) share their ``$id`` on
# purpose: one info, not a duplicate-id error; a copied ``$id`` between unrelated files stays an
# error.


def schema_editions(identifier: str, closed: bool = False) -> str:
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
            "schema/bom-1.3.schema.json": schema_editions(
                "https://example.org/bom-1.3.schema.json"
            ),
            "schema/bom-1.3-strict.schema.json": schema_editions(
                "https://example.org/bom-1.3.schema.json", closed=True
            ),
            "schema/cvss_strict.json": schema_editions(
                "https://example.org/cvss.json", closed=True
            ),
            "schema/cvss.json": schema_editions("https://example.org/cvss.json"),
            # Not an edition: another schema that copied the `$id`.
            "schema/other.json": schema_editions("https://example.org/thing.json", closed=True),
            "schema/thing.json": schema_editions("https://example.org/thing.json"),
            # An edition word, but another folder: not known to be an edition.
            "legacy/thing-strict.json": schema_editions(
                "https://example.org/thing.json", closed=True
            ),
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
    same = schema_editions("https://example.org/td-validation.json")
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
            "validation/thing.json": schema_editions(published),
            "proposals/bigger-thing/tooling/full.schema.json": schema_editions(
                published, closed=True
            ),
            "proposals/bigger-thing/a.json": schema_editions("https://example.org/draft.json"),
            "proposals/other-idea/b.json": schema_editions(
                "https://example.org/draft.json", closed=True
            ),
        }
    )
    result = cli("check", str(root), "--no-cache", "--format", "json")
    found = [f for f in json.loads(result.stdout)["findings"] if f["rule"] == "duplicate-id"]
    assert [(f["location"]["path"], f["severity"]) for f in found] == [
        ("proposals/other-idea/b.json", "error")
    ], found
