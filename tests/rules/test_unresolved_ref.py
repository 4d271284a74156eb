"""``unresolved-ref`` on fixtures written here, one test a case, named after it. The rule: a
``$ref`` that does not resolve inside the corpus."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from test_openapi_invalid import LIST_OPERATION, SPLIT_API, split_api
from test_version_drift import not_checked

from conftest import dedented as yaml_text
from conftest import findings_of, run_rule, schema
from conftest import run_rule as run
from speclint.analyses.context import Context
from speclint.common.findings import Severity
from speclint.rules import unresolved_ref
from speclint.run.catalog import all_rules
from speclint.run.coverage import Note, of_corpus
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_pointer_that_leaves_a_keys_slash_unescaped_is_told_how_to_write_it(
    make_corpus: MakeCorpus,
) -> None:
    # An exported AsyncAPI document names `components/messages/v1/Hello` for the key `v1/Hello`:
    # the pointer misses (RFC 6901 writes that `/` as `~1`), and the advice says so rather than
    # "check the spelling". A key that does not exist keeps the usual advice.
    api = yaml_text(
        """
        asyncapi: 3.0.0
        info: {title: Mirror, version: 1.0.0}
        channels:
          hello:
            address: hello
            messages:
              hello: {$ref: '#/components/messages/v1/Hello'}
              bye: {$ref: '#/components/messages/v1/Bye'}
        components:
          messages:
            v1/Hello: {payload: {type: string}}
        """
    )
    found = {
        f.message.split("`")[1]: f.message
        for f in run_rule(make_corpus({"asyncapi.yaml": api}), "unresolved-ref")
    }
    assert (
        "write the pointer `#/components/messages/v1~1Hello`"
        in found["#/components/messages/v1/Hello"]
    )
    assert "check the spelling" in found["#/components/messages/v1/Bye"]


PAGES = "https://acme.github.io/models.Rain"


def schema_text(identifier: str, **extra: object) -> str:
    return json.dumps(
        {"$schema": "http://json-schema.org/draft-07/schema#", "$id": identifier, **extra}
    )


def rain_corpus(**drizzle: object) -> dict[str, str | bytes]:
    """A project-pages corpus (`https://OWNER.github.io/REPO/`): three folders published where
    their `$id`s say, and `Drizzle/` whose schema keeps a stale `$id` from another repository."""
    files: dict[str, str | bytes] = {
        f"{name}/schema.json": schema_text(f"{PAGES}/{name}/schema.json", type="object")
        for name in ("Shower", "Storm", "Hail")
    }
    files["Drizzle/schema.json"] = schema_text(
        "https://acme.github.io/models.Fog/Drizzle/schema.json", type="object", **drizzle
    )
    files["Drizzle/model.yaml"] = yaml_text(
        """
        Drizzle:
          type: object
        """
    )
    return files


def test_a_url_to_a_sibling_repository_on_the_pages_host_is_remote(
    make_corpus: MakeCorpus,
) -> None:
    # `acme.github.io/shared/` is another repository of the owner: a remote reference, not
    # followed, not an `$id` the corpus failed to declare.
    files = rain_corpus()
    files["Shower/schema.json"] = schema_text(
        f"{PAGES}/Shower/schema.json",
        allOf=[
            {"$ref": "https://acme.github.io/shared/common.json#/definitions/Place"},
            {"$ref": "https://acme.github.io/models.Fog/Fog-schema.json#/definitions/Mist"},
        ],
    )
    assert run_rule(make_corpus(files), "unresolved-ref") == []


def test_a_lone_stale_id_does_not_move_its_folder(make_corpus: MakeCorpus) -> None:
    # Drizzle/model.yaml is published under models.Rain/ like every other folder: the lone
    # `$id` under models.Fog/ neither makes that repository ours nor moves the folder's URL.
    files = rain_corpus()
    files["Drizzle/openapi.yaml"] = yaml_text(
        f"""
        openapi: 3.0.3
        info: {{title: Drizzle, version: '1'}}
        paths: {{}}
        components:
          schemas:
            Drizzle:
              $ref: {PAGES}/Drizzle/model.yaml#/Drizzle
        """
    )
    assert run_rule(make_corpus(files), "unresolved-ref") == []


def test_a_vendored_schema_keeps_its_publishers_folder(make_corpus: MakeCorpus) -> None:
    # The repository publishes its own schemas on one host and vendors another publisher's
    # under `vendor/cvss/`: that `$id` is the publisher's, not a stale one of the repository's,
    # and the publisher's sibling file is found in that folder.
    own = "https://raw.githubusercontent.com/acme/advisories/main"
    files: dict[str, str | bytes] = {
        f"{name}/schema.json": schema_text(f"{own}/{name}/schema.json", type="object")
        for name in ("notice", "bulletin", "digest")
    }
    files["vendor/cvss/meta.json"] = schema_text("https://scores.example.org/cvss/meta.json")
    files["vendor/cvss/cvss-v3.json"] = schema_text(
        "https://scores.example.org/cvss/cvss-v3.json?2021"
    )
    files["vendor/cvss/cvss-v2.json"] = schema_text(
        "https://scores.example.org/cvss/cvss-v2.json?2019"
    )
    files["notice/schema.json"] = schema_text(
        f"{own}/notice/schema.json",
        properties={"score": {"$ref": "https://scores.example.org/cvss/cvss-v2.json"}},
    )
    assert run_rule(make_corpus(files), "unresolved-ref") == []


def test_a_file_published_away_from_its_folder_on_the_same_host_keeps_it(
    make_corpus: MakeCorpus,
) -> None:
    # One host, one owner: `store/all.json` is published under `/store/` on purpose, and the
    # files beside it that declare no `$id` are served there too.
    files: dict[str, str | bytes] = {
        f"definitions/2.0.0/{name}.json": schema_text(
            f"https://acme.example.org/definitions/2.0.0/{name}.json", type="object"
        )
        for name in ("info", "server", "channel")
    }
    files["store/2.0.0-plain.json"] = json.dumps({"type": "object"})
    files["store/all.json"] = schema_text(
        "https://acme.example.org/schema-store/all.json",
        oneOf=[{"$ref": "https://acme.example.org/schema-store/2.0.0-plain.json"}],
    )
    assert run_rule(make_corpus(files), "unresolved-ref") == []


def test_a_missing_id_in_the_published_namespace_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    files = rain_corpus()
    files["Storm/schema.json"] = schema_text(
        f"{PAGES}/Storm/schema.json", allOf=[{"$ref": f"{PAGES}/Storm/gusts.json"}]
    )
    (finding,) = run_rule(make_corpus(files), "unresolved-ref")
    assert "Storm/gusts.json" in finding.message


def test_a_trailing_slash_is_told_to_be_dropped(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": yaml_text(
            """
            openapi: 3.0.3
            info: {title: Sessions, version: '1'}
            paths: {}
            components:
              schemas:
                Session:
                  $ref: ./session.yml/
            """
        ),
        "api/session.yml": "type: object\n",
    }
    (finding,) = run_rule(make_corpus(files), "unresolved-ref")
    assert "`api/session.yml` exists: drop the trailing `/`" in finding.message
    assert "Add the file" not in finding.message


GENERATOR = """\
import fs from "fs"

const SOURCE_DIR = "profiles"
const TARGET_DIR = "public/profiles"
const words = {}
fs.writeFileSync(`${TARGET_DIR}/words.json`, JSON.stringify(words))
for (const name of fs.readdirSync(SOURCE_DIR)) {
  fs.copyFileSync(`${SOURCE_DIR}/${name}`, `${TARGET_DIR}/${name}`)
}
"""


PROFILE = json.dumps({"$ref": "words.json#/definitions/card"})


def test_a_ref_to_a_file_the_build_program_writes_is_coverage(make_corpus: MakeCorpus) -> None:
    """`npm run generate` runs `scripts/generate.js`, which writes `words.json` beside copies of
    the profiles: a `$ref` to it names a build output, not a missing file."""
    root = make_corpus(
        {
            "package.json": json.dumps({"scripts": {"generate": "node scripts/generate.js"}}),
            "scripts/generate.js": GENERATOR,
            "profiles/card.json": PROFILE,
        }
    )
    found = run_rule(root, "unresolved-ref")
    assert [f.coverage for f in found] == ["build-output"], found
    assert "scripts/generate.js" in found[0].message


def test_a_ref_to_a_file_no_build_program_writes_is_still_missing(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"scripts": {"generate": "node scripts/generate.js"}}),
            "scripts/generate.js": GENERATOR.replace("words.json", "terms.json"),
            "profiles/card.json": PROFILE,
        }
    )
    [finding] = run_rule(root, "unresolved-ref")
    assert finding.coverage is None


def test_a_program_no_command_runs_proves_nothing(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"scripts/generate.js": GENERATOR, "profiles/card.json": PROFILE})
    [finding] = run_rule(root, "unresolved-ref")
    assert finding.coverage is None


def test_a_program_is_found_from_the_folder_of_the_command_that_runs_it(
    make_corpus: MakeCorpus,
) -> None:
    # `tools/package.json` runs `gen/generate.js`: `tools/gen/generate.js`, no document of the
    # corpus (a program is found in the repository's file listing).
    root = make_corpus(
        {
            "tools/package.json": json.dumps({"scripts": {"generate": "node gen/generate.js"}}),
            "tools/gen/generate.js": GENERATOR,
            "profiles/card.json": PROFILE,
        }
    )
    found = run_rule(root, "unresolved-ref")
    assert [f.coverage for f in found] == ["build-output"], found
    assert "tools/gen/generate.js" in found[0].message


DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _schema(identifier: str, **members: object) -> str:
    return json.dumps({"$schema": DRAFT, "$id": identifier, **members})


def _errors(found: list) -> list:  # type: ignore[type-arg]
    return [f for f in found if f.coverage is None]


def _plugins(**extra: str) -> dict[str, str | bytes]:
    """Core schemas under `core/` declaring bare relative `$id`s, and two plug-in folders whose
    schemas name them by those `$id`s (resolved by the build's schema search path)."""
    files: dict[str, str | bytes] = {
        "core/common/base.schema.json": _schema(
            "base.schema.json", type="object", properties={"extras": {"type": "object"}}
        ),
        "core/item.schema.json": _schema(
            "item.schema.json", allOf=[{"$ref": "base.schema.json"}], type="object"
        ),
        "plugins/lamp/schema/lamp.schema.json": _schema(
            "lamp.schema.json",
            allOf=[{"$ref": "base.schema.json"}],
            properties={"item": {"$ref": "item.schema.json"}},
        ),
        "plugins/fan/schema/fan.schema.json": _schema(
            "fan.schema.json", allOf=[{"$ref": "base.schema.json"}]
        ),
    }
    files.update(extra)
    return files


BUNDLE = textwrap.dedent(
    """\
    openapi: 3.0.3
    info: {title: Places, version: '1'}
    paths:
      /visits:
        post:
          requestBody:
            content:
              application/json:
                schema:
                  type: object
                  properties:
                    where:
                      allOf:
                        - $ref: '#/components/schemas/Place'
                    again:
                      $ref: '#/paths/~1visits/post/requestBody/content/application~1json/schema/properties/where/allOf/0/properties/spot'
          responses:
            '204': {description: stored}
    components:
      schemas:
        Place:
          type: object
          properties:
            spot: {type: string}
    """
)


def _extension(readme: str, ref: str = "base.schema.json") -> dict[str, str | bytes]:
    """An extension's schemas naming a base specification's schema by bare file name."""
    return {
        "README.md": readme,
        "ext/lamp/schema/lamp.schema.json": _schema(
            "lamp.schema.json", allOf=[{"$ref": ref}], properties={"on": {"type": "boolean"}}
        ),
        "ext/lamp/schema/lamp-colour.schema.json": _schema("lamp-colour.schema.json"),
    }


LINKS_THE_BASE = (
    "# Lamp\n\nThe base schemas:\n\n* https://github.com/acme/core/tree/main/spec/schema\n"
)


def test_a_bare_name_another_folders_schema_declares_as_its_id_is_a_search_path_note(
    make_corpus: MakeCorpus,
) -> None:
    found = run_rule(make_corpus(_plugins()), "unresolved-ref")
    assert _errors(found) == [], found
    assert {f.coverage for f in found} == {"search-path"}, found
    notes = {f.message for f in found}
    assert any("core/common/base.schema.json" in m for m in notes), notes
    assert any("core/item.schema.json" in m for m in notes), notes


def test_a_bare_name_no_schema_declares_is_still_missing(make_corpus: MakeCorpus) -> None:
    files = _plugins(
        **{
            "plugins/fan/schema/blade.schema.json": _schema(
                "blade.schema.json", **{"$ref": "bse.json"}
            )
        }
    )
    found = _errors(run_rule(make_corpus(files), "unresolved-ref"))
    assert [f.location.path for f in found] == ["plugins/fan/schema/blade.schema.json"], found


def test_a_search_path_name_with_a_pointer_it_lacks_is_still_missing(
    make_corpus: MakeCorpus,
) -> None:
    files = _plugins(
        **{
            "plugins/fan/schema/blade.schema.json": _schema(
                "blade.schema.json", properties={"x": {"$ref": "base.schema.json#/$defs/nope"}}
            )
        }
    )
    found = _errors(run_rule(make_corpus(files), "unresolved-ref"))
    assert [f.location.path for f in found] == ["plugins/fan/schema/blade.schema.json"], found


def test_one_missing_name_in_several_folders_is_one_finding(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        f"plugins/{name}/schema/{name}.schema.json": _schema(
            f"{name}.schema.json", allOf=[{"$ref": "shared.schema.json"}]
        )
        for name in ("lamp", "fan", "heater")
    }
    found = _errors(run_rule(make_corpus(files), "unresolved-ref"))
    assert len(found) == 1, found
    [finding] = found
    assert "3 folders" in finding.message, finding.message
    assert len(finding.related) == 2


def test_different_missing_names_stay_apart(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        f"plugins/{name}/schema/{name}.schema.json": _schema(
            f"{name}.schema.json", allOf=[{"$ref": f"{name}-base.schema.json"}]
        )
        for name in ("lamp", "fan")
    }
    assert len(_errors(run_rule(make_corpus(files), "unresolved-ref"))) == 2


def test_a_pointer_through_a_ref_names_the_target_it_means(make_corpus: MakeCorpus) -> None:
    found = _errors(run_rule(make_corpus({"api/bundle.yaml": BUNDLE}), "unresolved-ref"))
    [finding] = found
    assert "#/components/schemas/Place/properties/spot" in finding.message, finding.message
    assert "check the spelling" not in finding.message


def test_a_pointer_that_names_nothing_even_through_the_ref_keeps_the_spelling_advice(
    make_corpus: MakeCorpus,
) -> None:
    text = BUNDLE.replace("/allOf/0/properties/spot", "/allOf/0/properties/spto")
    [finding] = _errors(run_rule(make_corpus({"api/bundle.yaml": text}), "unresolved-ref"))
    assert "check the spelling" in finding.message, finding.message


def test_a_bare_name_from_a_schema_set_the_readme_links_is_a_coverage_note(
    make_corpus: MakeCorpus,
) -> None:
    found = run_rule(make_corpus(_extension(LINKS_THE_BASE)), "unresolved-ref")
    assert [f.coverage for f in found] == ["external-schema"], found
    assert "https://github.com/acme/core/tree/main/spec/schema" in found[0].message


def test_a_bare_name_without_a_linked_schema_set_is_still_missing(make_corpus: MakeCorpus) -> None:
    found = run_rule(make_corpus(_extension("# Lamp\n")), "unresolved-ref")
    assert [f.coverage for f in found] == [None], found


def test_a_misspelt_name_of_the_repositorys_own_schema_is_still_missing(
    make_corpus: MakeCorpus,
) -> None:
    files = _extension(LINKS_THE_BASE, ref="lamp-color.schema.json")
    found = run_rule(make_corpus(files), "unresolved-ref")
    assert [f.coverage for f in found] == [None], found


def test_a_link_to_the_repositorys_own_schema_folder_is_no_base_schema_set(
    make_corpus: MakeCorpus,
) -> None:
    readme = "# Lamp\n\n* https://github.com/acme/lamp/tree/main/ext/lamp/schema\n"
    found = run_rule(make_corpus(_extension(readme)), "unresolved-ref")
    assert [f.coverage for f in found] == [None], found


def test_a_bare_name_under_the_repositorys_own_id_is_still_missing(
    make_corpus: MakeCorpus,
) -> None:
    files = _extension(LINKS_THE_BASE)
    files["ext/lamp/schema/lamp.schema.json"] = _schema(
        "https://acme.example/lamp/lamp.schema.json", allOf=[{"$ref": "base.schema.json"}]
    )
    found = run_rule(make_corpus(files), "unresolved-ref")
    assert [f.coverage for f in found] == [None], found


def test_a_url_whose_host_is_a_bare_word_is_a_warning_with_the_url_meant(
    make_corpus: MakeCorpus,
) -> None:
    body = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "filter": {"$ref": "https://schemas/example.org/filter/filter.json"},
            "local": {"$ref": "http://localhost:8080/dev.json"},
            "remote": {"$ref": "https://schemas.example.org/other.json"},
        },
    }
    root = make_corpus({"schemas/query.json": json.dumps(body, indent=2)})
    [warning] = run(root, "unresolved-ref")
    assert warning.severity is Severity.WARNING
    assert "host `schemas` is not a domain name" in warning.message
    assert "did you mean `https://schemas.example.org/filter/filter.json`?" in warning.message
    assert warning.location.pointer == "/properties/filter/$ref"
    # The other two are not followed: coverage, and the broken one is not said twice.
    notes = not_checked(root, "remote-ref")
    assert [n.what.split("`")[1] for n in notes] == [
        "http://localhost:8080/dev.json",
        "https://schemas.example.org/other.json",
    ]


def test_the_notes_follow_the_files_order(make_corpus: MakeCorpus) -> None:
    properties = {f"p{n}": {"$ref": f"https://example.net/{n}.json"} for n in range(12)}
    body = {"type": "object", "properties": properties}
    root = make_corpus({"schemas/many.json": json.dumps(body, indent=2)})
    notes = not_checked(root, "remote-ref")
    assert len(notes) == 12 and [n.line for n in notes] == sorted(n.line for n in notes)
    assert notes[0].what.startswith("`https://example.net/0.json`")


def test_a_ref_where_the_bundler_inlines_it_is_not_an_error(make_corpus: MakeCorpus) -> None:
    # `get: {$ref: ops/list.yaml}` and `description: {$ref: texts.yaml#/intro}`: no Reference
    # Object is allowed there, and redocly/swagger-cli bundle replace them by their targets.
    # Each operation was two errors ("$ref" not allowed, "responses" missing); the missing
    # operation file is unresolved-ref's, not also two errors here.
    root = make_corpus(split_api())
    assert run_rule(root, "openapi-invalid") == []
    [missing] = run_rule(root, "unresolved-ref")
    assert "ops/missing.yaml" in missing.message


def test_a_target_reached_through_ref_map_is_inlined_and_checked(make_corpus: MakeCorpus) -> None:
    # The operation is named by its published URL, which `[ref-map]` maps to the corpus: the
    # reference index resolves it ("ok"), so it is inlined and checked like a relative one.
    # Resolved apart, it was "missing", and its errors were dropped as unresolved-ref's, which
    # had nothing to say: a silent gap.
    broken = LIST_OPERATION.replace("    description: The widgets.\n", "")
    files = split_api(broken)
    files["api/openapi.yaml"] = files["api/openapi.yaml"].replace(
        "$ref: ops/list.yaml", "$ref: https://widgets.example/api/ops/list.yaml"
    )
    files["speclint.toml"] = '[ref-map]\n"https://widgets.example/api/" = "api/"\n'
    root = make_corpus(files)
    assert [
        f.message for f in run_rule(root, "unresolved-ref") if "widgets.example" in f.message
    ] == []
    [finding] = run_rule(root, "openapi-invalid")
    assert finding.location.path == "api/ops/list.yaml"
    assert '"description" is a required property' in finding.message


def test_a_default_response_kept_in_a_missing_file_is_unresolved(make_corpus: MakeCorpus) -> None:
    # A Responses Object's `default` is a response, not a schema's default value: its `$ref`
    # is indexed (and so resolved, inlined and reported) like any other response's.
    api = SPLIT_API.replace("      $ref: ops/missing.yaml\n", "      $ref: ops/list.yaml\n")
    operation = LIST_OPERATION + "  default:\n    $ref: ../responses/gone.yaml\n"
    files = {**split_api(operation), "api/openapi.yaml": yaml_text(api)}
    [missing] = run_rule(make_corpus(files), "unresolved-ref")
    assert "responses/gone.yaml" in missing.message


def released_api(version: str, facets: list[str], broken: str = "") -> str:
    properties = {name: {"$ref": f"facets/{name}.json"} for name in facets}
    if broken:
        properties["live"] = {"$ref": f"facets/{broken}.json"}
    return schema(**{"$id": f"https://example.org/spec/{version}/Api.json"}, properties=properties)


def test_a_defect_only_frozen_copies_have_is_one_info(make_corpus: MakeCorpus) -> None:
    # 1-0-4 and 1-0-5 refer to facet files never published beside them; 2-0-0, the live
    # version, dropped those references. A released file cannot change: one info, not 5 errors.
    # A defect of the live version is an error as before.
    root = make_corpus(
        {
            "spec/1-0-4/Api.json": released_api("1-0-4", ["Sql", "Owner"]),
            "spec/1-0-5/Api.json": released_api("1-0-5", ["Sql", "Owner", "Tags"]),
            "spec/2-0-0/Api.json": released_api("2-0-0", [], broken="Gone"),
            "spec/2-0-0/facets/Kept.json": schema(type="object"),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    [live] = [f for f in found if f.severity is Severity.ERROR]
    assert live.location.path == "spec/2-0-0/Api.json"
    [frozen] = [f for f in found if f.severity is not Severity.ERROR]
    assert frozen.severity is Severity.INFO
    assert frozen.location.path == "spec/1-0-5/Api.json"
    assert len(frozen.terminal_message.split("\n")[0]) <= 200
    assert "released" in frozen.message
    # `Sql` and `Owner` are missing from both released folders: each is one finding for both
    # (unresolved-ref groups one name missing in several folders), related here at its first.
    others = {(r.path, r.pointer) for r in frozen.related}
    assert others == {
        ("spec/1-0-4/Api.json", "/properties/Sql/$ref"),
        ("spec/1-0-4/Api.json", "/properties/Owner/$ref"),
    }
    assert all("in none of the 2 folders" in str(r.note) for r in frozen.related)
    assert len(found) == 2


def test_a_file_no_newer_version_has_is_not_a_frozen_copy(make_corpus: MakeCorpus) -> None:
    # 1-0-5 has `Extra.json`, 2-0-0 has no counterpart of it (neither its path nor its `$id`):
    # nothing newer holds it, so it is no frozen copy of anything, and its defect stays an error.
    # `Api.json`, which 2-0-0 has, is frozen as before.
    extra = schema(
        **{"$id": "https://example.org/spec/1-0-5/Extra.json"},
        properties={"x": {"$ref": "facets/Gone.json"}},
    )
    root = make_corpus(
        {
            "spec/1-0-5/Api.json": released_api("1-0-5", ["Sql"]),
            "spec/1-0-5/Extra.json": extra,
            "spec/2-0-0/Api.json": released_api("2-0-0", []),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    assert sorted((f.location.path, f.severity) for f in found) == [
        ("spec/1-0-5/Api.json", Severity.INFO),
        ("spec/1-0-5/Extra.json", Severity.ERROR),
    ]
    assert "released" not in next(f for f in found if "Extra" in f.location.path).message


def test_one_slip_frozen_into_every_file_of_a_release_is_one_info(make_corpus: MakeCorpus) -> None:
    # Every schema of the released 1-0-5 refers to a file never published; the live 2-0-0
    # fixed them all. One info for the rule, whatever the number of files, not one per file.
    def released(version: str, name: str, broken: bool) -> str:
        refs = {"facet": {"$ref": f"facets/{name}Facet.json"}} if broken else {}
        return schema(**{"$id": f"https://example.org/spec/{version}/{name}.json"}, properties=refs)

    names = ("Api", "Run", "Job")
    files: dict[str, str | bytes] = {
        f"spec/1-0-5/{n}.json": released("1-0-5", n, True) for n in names
    }
    files.update({f"spec/2-0-0/{n}.json": released("2-0-0", n, False) for n in names})
    found = lint(make_corpus(files), Options(cache=False, rules=("unresolved-ref",))).findings
    [only] = found
    assert only.severity is Severity.INFO
    assert {r.path for r in only.related} >= {"spec/1-0-5/Run.json", "spec/1-0-5/Job.json"}


def test_a_defect_of_an_api_line_beside_a_newer_one_is_not_frozen(make_corpus: MakeCorpus) -> None:
    # `numbers_v1` and `numbers_v2` are two API lines, both served: the older one is no
    # released snapshot, and its defects stay what they are.
    root = make_corpus(
        {
            "spec/numbers_v1.json": released_api("v1", ["Sql"]),
            "spec/numbers_v2.json": released_api("v2", []),
        }
    )
    found = lint(root, Options(cache=False, rules=("unresolved-ref",))).findings
    assert [(f.location.path, f.severity) for f in found] == [
        ("spec/numbers_v1.json", Severity.ERROR)
    ]


def test_a_ref_by_url_to_a_file_served_beside_the_document_resolves(
    make_corpus: MakeCorpus,
) -> None:
    # `all.json` says it is served at https://example.org/store/; its `$ref`s name files of
    # that folder by URL, and the files are beside it in the repository (one declares another
    # `$id`: a URL serves the file there all the same).
    store = {
        "$id": "https://example.org/store/all.json",
        "oneOf": [
            {"$ref": "https://example.org/store/one-plain.json"},
            {"$ref": "https://example.org/store/two-plain.json"},
            {"$ref": "https://example.org/store/gone.json"},
        ],
    }
    root = make_corpus(
        {
            "schemas/all.json": schema(**store),
            "schemas/one-plain.json": schema(type="object"),
            "schemas/two-plain.json": schema(**{"$id": "https://example.org/defs/two.json"}),
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "gone.json" in finding.message


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


OPENAPI_HEAD = "openapi: 3.1.0\ninfo:\n  title: Runs\n  version: 1.0.0\n"


def remote_notes(corpus: Context) -> list[Note]:
    return [note for note in of_corpus(corpus) if note.kind == "remote-ref"]


def test_unresolved_ref_groups_sites_per_missing_file(make_corpus: MakeCorpus) -> None:
    refs = "".join(
        f"  /v1/r{i}:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content: {{application/json: {{schema: {{$ref: '../schemas/error-envelope.schema.json'}}}}}}\n"
        for i in range(3)
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI_HEAD + "paths:\n" + refs})
    [finding] = findings_of("unresolved-ref", root)
    assert "schemas/error-envelope.schema.json` does not exist" in finding.message
    assert len(finding.related) == 2
    (root / "schemas").mkdir()
    (root / "schemas/error-envelope.schema.json").write_text(schema(type="object"))
    assert findings_of("unresolved-ref", root) == []


def test_unresolved_ref_past_its_related_limit_counts_the_sites_left_out(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(unresolved_ref, "RELATED_LIMIT", 2)
    refs = "".join(
        f"  /v1/r{i}:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content: {{application/json: {{schema: {{$ref: '../schemas/gone.json'}}}}}}\n"
        for i in range(5)
    )
    root = make_corpus({"api/openapi.yaml": OPENAPI_HEAD + "paths:\n" + refs})
    [finding] = findings_of("unresolved-ref", root)
    assert "5 `$ref`s point to it." in finding.message
    assert "all listed" not in finding.message
    assert finding.message.endswith(
        "\nThe related locations list 2 of its 4 other `$ref`s, and 2 more are not listed"
    )
    assert len(finding.related) == 2
    # `$id`s no schema declares, one generated family under one folder: the same
    (root / "api/openapi.yaml").unlink()
    refs = [{"$ref": f"https://example.org/store/{v}.json"} for v in range(4)]
    root = make_corpus(
        {"schemas/all.json": schema(**{"$id": "https://example.org/all.json", "oneOf": refs})}
    )
    [family] = findings_of("unresolved-ref", root)
    assert "and 3 more). Add the schemas" in family.message
    assert family.message.endswith("list 2 of its 3 other `$ref`s, and 1 more is not listed")


def test_unresolved_ref_missing_pointer_and_id_base(make_corpus: MakeCorpus) -> None:
    common = schema(
        **{
            "$id": "https://acme.example/schemas/common.schema.json",
            "$defs": {"Id": {"type": "string"}},
        }
    )
    run = schema(
        **{
            "$id": "https://acme.example/schemas/run.schema.json",
            "properties": {
                "id": {"$ref": "common.schema.json#/$defs/Id"},
                "x": {"$ref": "common.schema.json#/$defs/Idd"},
            },
        }
    )
    root = make_corpus({"schemas/common.schema.json": common, "schemas/run.schema.json": run})
    [finding] = findings_of("unresolved-ref", root)
    assert finding.location.pointer == "/properties/x/$ref"
    assert "`/$defs/Idd`" in finding.message


def test_unresolved_ref_reports_a_cycle_once(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(**{"$ref": "b.schema.json"}),
            "schemas/b.schema.json": schema(**{"$ref": "a.schema.json"}),
            "schemas/tree.schema.json": schema(
                type="object", properties={"children": {"type": "array", "items": {"$ref": "#"}}}
            ),
        }
    )
    [finding] = findings_of("unresolved-ref", root)
    assert "circular $ref chain" in finding.message
    assert "a.schema.json" in finding.message and "b.schema.json" in finding.message


def test_a_remote_ref_is_not_followed_and_ref_map_maps_it(make_corpus: MakeCorpus) -> None:
    doc = schema(properties={"envelope": {"$ref": "https://schemas.example.net/envelope.json"}})
    root = make_corpus({"schemas/run.schema.json": doc})
    [note] = remote_notes(Context.load(root))
    assert (note.path, note.line) == ("schemas/run.schema.json", 5)
    assert findings_of("unresolved-ref", root) == []
    (root / "speclint.toml").write_text(
        'include = ["schemas/**/*.json"]\n[ref-map]\n"https://schemas.example.net/" = "vendor/"\n'
    )
    (root / "vendor").mkdir()
    (root / "vendor/envelope.json").write_text(schema(type="object"))
    from speclint.model.config import load_config

    corpus = Context.load(root, load_config(root))
    assert remote_notes(corpus) == []
    [missing] = all_rules()["unresolved-ref"].check(corpus, {})
    assert "did not load (check `include`)" in missing.message  # vendor/ is outside the globs
    (root / "speclint.toml").write_text(
        'include = ["schemas/**/*.json", "vendor/**/*.json"]\n'
        '[ref-map]\n"https://schemas.example.net/" = "vendor/"\n'
    )
    corpus = Context.load(root, load_config(root))
    assert remote_notes(corpus) == []
    assert list(all_rules()["unresolved-ref"].check(corpus, {})) == []
