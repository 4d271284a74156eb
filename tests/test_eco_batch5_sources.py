"""Classes found at the first read of ecosystem batch 5 (issue 45): sources of an API the
repository's own build assembles, a tooling package's version, a list contrasted with an enum,
a ``$ref`` to a file the build writes. Each on a fixture of ours."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import yaml

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# --- openapi-invalid: the pieces of an API a merge step of the repository's own assembles ---


def _piece(name: str, real_error: bool = False) -> str:
    """One namespace of an API kept in pieces, named by the repository's own convention
    (`name@200`, `name::query.x`), which its merger renames; responses without descriptions."""
    operation: dict[str, object] = {
        "operationId": f"{name}.get",
        "parameters": [
            {"$ref": f"#/components/parameters/{name}::query.{p}"} for p in ("a", "b", "c")
        ],
        "responses": {
            "200": {"$ref": f"#/components/responses/{name}@200"},
            "404": {"$ref": f"#/components/responses/{name}@404"},
        },
    }
    if real_error:
        operation["parameters"].append(  # type: ignore[attr-defined]
            {"name": "q", "in": "body", "schema": {"type": "string"}}
        )
    data = {
        "openapi": "3.1.0",
        "info": {"title": f"The {name} API", "version": "1.0.0"},
        "paths": {f"/{name}": {"get": operation}},
        "components": {
            "parameters": {
                f"{name}::query.{p}": {"name": p, "in": "query", "schema": {"type": "string"}}
                for p in ("a", "b", "c")
            },
            "responses": {
                f"{name}@{code}": {"content": {"application/json": {"schema": {}}}}
                for code in ("200", "404")
            },
        },
    }
    return yaml.safe_dump(data, sort_keys=False)


PIECES = {
    "api/namespaces/plants.yaml": _piece("plants", real_error=True),
    "api/namespaces/seeds.yaml": _piece("seeds"),
    "package.json": json.dumps(
        {"name": "garden-api-tools", "scripts": {"merge": "node tools/merger/merge.js"}}
    ),
}
WORKFLOW = """\
name: Build
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci && npm run merge -- --source ./api --output build/garden.yaml
"""


def test_a_key_naming_convention_is_one_finding_per_components_map(
    make_corpus: MakeCorpus,
) -> None:
    """Without evidence of a merge, the component keys that break the name pattern the same way
    are one convention: one finding per components map of a document, the other keys related,
    not one finding a key (2,723 in one repository)."""
    root = make_corpus(dict(PIECES))
    found = [f for f in run_rule(root, "openapi-invalid") if f.coverage is None]
    plants = [f for f in found if f.location.path == "api/namespaces/plants.yaml"]
    keys = [f for f in plants if "does not match" in f.message]
    assert sorted(f.message.split(":")[0] for f in keys) == [
        "/components/parameters",
        "/components/responses",
    ]
    [parameters] = [f for f in keys if f.message.startswith("/components/parameters")]
    assert len(parameters.related) == 2
    assert "3 keys" in parameters.message
    assert any("'body' is not one of" in f.message or '"body"' in f.message for f in plants)


def test_the_pieces_a_merge_step_takes_are_not_judged_for_what_the_merge_fixes(
    make_corpus: MakeCorpus,
) -> None:
    """A workflow runs the repository's own merge over the folder (`npm run merge -- --source
    ./api`): its API documents are pieces of the API the build assembles. What a merger
    rewrites (component key names, a response's missing description) is not reported there;
    a real error in a piece still is, and the piece is listed as coverage."""
    root = make_corpus({**PIECES, ".github/workflows/build.yml": WORKFLOW})
    found = run_rule(root, "openapi-invalid")
    errors = [f for f in found if f.coverage is None]
    assert not [f for f in errors if "does not match" in f.message], errors
    assert not [f for f in errors if '"description" is a required' in f.message], errors
    [real] = errors
    assert real.location.path == "api/namespaces/plants.yaml"
    assert "body" in real.message
    notes = [f for f in found if f.coverage == "build-source"]
    assert sorted(f.location.path for f in notes) == [
        "api/namespaces/plants.yaml",
        "api/namespaces/seeds.yaml",
    ]


def test_a_merge_command_on_a_folder_without_api_documents_changes_nothing(
    make_corpus: MakeCorpus,
) -> None:
    workflow = WORKFLOW.replace("--source ./api", "--source ./docs")
    root = make_corpus(
        {**PIECES, ".github/workflows/build.yml": workflow, "docs/readme.md": "# Docs\n"}
    )
    found = [f for f in run_rule(root, "openapi-invalid") if f.coverage is None]
    assert [f for f in found if '"description" is a required' in f.message]


# --- version-drift: a tooling package.json is not the specification's version ---------------

CHANGELOG = "# Changelog\n\n## [Unreleased]\n\n## [0.3.0] - 2026-01-05\n\n## [0.2.0] - 2025-06-01\n"
API = yaml.safe_dump(
    {"openapi": "3.1.0", "info": {"title": "Garden", "version": "0.3.0"}, "paths": {}}
)


def _package(**fields: object) -> str:
    return json.dumps({"version": "1.0.0", "dependencies": {"yaml": "^2.0.0"}, **fields})


def test_a_package_at_npm_inits_version_ahead_of_every_release_is_no_claim(
    make_corpus: MakeCorpus,
) -> None:
    """Not private, runtime dependencies, no `main`, still at `npm init`'s 1.0.0 while the
    specification's changelog is at 0.3.0: it was never released at 1.0.0."""
    root = make_corpus(
        {
            "package.json": _package(name="garden"),
            "CHANGELOG.md": CHANGELOG,
            "spec/garden.yaml": API,
        }
    )
    assert not [f for f in run_rule(root, "version-drift") if f.location.path == "package.json"]


def test_a_package_named_for_tools_is_no_claim(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": _package(name="garden_api_tools", version="1.4.0"),
            "CHANGELOG.md": CHANGELOG,
            "spec/garden.yaml": API,
        }
    )
    assert not [f for f in run_rule(root, "version-drift") if f.location.path == "package.json"]


def test_a_package_left_behind_a_release_after_1_0_0_is_still_drift(
    make_corpus: MakeCorpus,
) -> None:
    changelog = "# Changelog\n\n## [1.1.0] - 2026-01-05\n\n## [1.0.0] - 2025-06-01\n"
    root = make_corpus(
        {"package.json": _package(name="garden"), "CHANGELOG.md": changelog, "spec/a.yaml": API}
    )
    [finding] = [f for f in run_rule(root, "version-drift") if f.location.path == "package.json"]
    assert "1.1.0" in finding.message


# --- enum-drift: a list of another format's values, contrasted with the enum ------------------

FIELD_SCHEMA = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["string", "number", "integer", "boolean"]}
        },
    }
)


def _types_page(lead: str, last: str) -> str:
    return (
        "# Ledger sheets\n\n### Data Types\n\n"
        f"{lead}\n\n"
        "- `number` is a subset of our number\n"
        "- `boolean` is the same as our boolean\n"
        "- `string` is limited to 400 characters\n"
        f"- `translated` maps language codes to strings.\n  {last}\n"
    )


def test_a_list_of_another_formats_values_contrasted_with_ours_documents_no_enum(
    make_corpus: MakeCorpus,
) -> None:
    """A guide comparing another format lists that format's types, one of which "is not
    supported in" ours: the list documents the other format, not the enum."""
    page = _types_page(
        "Ledger sheets support four data types that overlap with [Field types](field.md):",
        "This type is not supported in Field types.",
    )
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert not [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


def test_a_value_said_unsupported_in_what_the_intro_names_is_no_drift(
    make_corpus: MakeCorpus,
) -> None:
    page = _types_page(
        "Ledger sheets have these data types, written as in Field types:",
        "This type is not supported in Field types.",
    )
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert not [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


def test_a_list_of_our_values_is_still_bound(make_corpus: MakeCorpus) -> None:
    page = _types_page("A field has one of these data types:", "It holds an object.")
    root = make_corpus({"schemas/field.schema.json": FIELD_SCHEMA, "docs/ledger.md": page})
    assert [f for f in run_rule(root, "enum-drift") if "translated" in f.message]


# --- unresolved-ref: a `$ref` to a file a build program of the repository writes ------------

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
