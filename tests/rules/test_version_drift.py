"""version-drift on the evidence a version is the spec's (issue 45, item 7): a monorepo's
package.json, a `next` placeholder, a released copy in a folder named for its version.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from conftest import dedented as yaml_text
from conftest import run_rule, schema
from speclint.analyses.context import Context
from speclint.model.config import load_config
from speclint.run.catalog import all_rules
from speclint.run.coverage import Note, of_corpus, sorted_notes

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(version: str, title: str = "Shop") -> str:
    return f"openapi: 3.1.0\ninfo: {{title: {title}, version: '{version}'}}\npaths: {{}}\n"


def test_a_monorepos_package_version_is_not_the_specs(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "package.json": json.dumps(
            {"name": "tools", "version": "4.2.0", "workspaces": ["packages/*"]}
        ),
        "api/openapi.yaml": api("1.0.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # A package of the spec's own (no workspaces) speaks for it.
    files["package.json"] = json.dumps({"name": "shop-spec", "version": "4.2.0"})
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "api/openapi.yaml"
    ]


def test_a_pnpm_workspace_root_is_a_monorepo_too(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "tools", "version": "4.2.0"}),
            "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
            "api/openapi.yaml": api("1.0.0"),
        }
    )
    assert run_rule(root, "version-drift") == []


def test_a_next_placeholder_is_not_a_release(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": "# Changelog\n\n## [1.2.0] - 2026-05-01\n",
        "api/openapi.yaml": api("next"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    files["api/openapi.yaml"] = api("1.0.0")
    assert len(run_rule(make_corpus(files), "version-drift")) == 1


def test_a_released_copy_in_the_folder_of_its_version_agrees_with_itself(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": "# Changelog\n\n## [1.2.0] - 2026-05-01\n",
        "api/openapi.yaml": api("1.2.0"),
        "releases/v1.1/openapi.yaml": api("1.1.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # A copy whose folder names another version than it declares is still reported.
    files["releases/v1.1/openapi.yaml"] = api("1.0.0")
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "releases/v1.1/openapi.yaml"
    ]


@pytest.mark.parametrize(
    "package",
    [
        # npm init's skeleton beside an API: its entry point is a file the repository lacks
        {"name": "shop-api", "version": "4.2.0", "main": "index.js", "dependencies": {"x": "1"}},
        {"name": "shop-lint", "version": "4.2.0", "devDependencies": {"some-linter": "^1.0.0"}},
        {"name": "shop-docs", "version": "4.2.0", "dependencies": {"@docusaurus/core": "^3"}},
    ],
    ids=["entry-point-absent", "dev-dependencies-only", "docs-site"],
)
def test_a_tooling_package_json_is_not_the_specs_version(
    make_corpus: MakeCorpus, package: dict[str, object]
) -> None:
    files: dict[str, str | bytes] = {
        "package.json": json.dumps(package),
        "api/openapi.yaml": api("1.2.1"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []


def test_a_package_that_publishes_the_spec_speaks_for_it(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "package.json": json.dumps(
            {
                "name": "shop-spec",
                "version": "4.2.0",
                "main": "api/openapi.yaml",
                "files": ["api"],
                "devDependencies": {"some-linter": "^1.0.0"},
            }
        ),
        "api/openapi.yaml": api("1.2.1"),
    }
    [finding] = run_rule(make_corpus(files), "version-drift")
    assert "the corpus is at 4.2.0 (package.json)" in finding.message


@pytest.mark.parametrize(
    "path",
    ["demo/examples/pets.yaml", "site/static/examples/store.yaml", "src/__fixtures__/a/api.yaml"],
)
def test_a_demo_or_fixture_api_versions_itself(make_corpus: MakeCorpus, path: str) -> None:
    # A plugin's changelog (5.2.0) is no version of the sample APIs it ships as demos and test
    # fixtures (issue 45, batch 3): with only those, there is no protocol version to compare.
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": "# Changelog\n\n## 5.2.0 (2026-08-11)\n\n- Sidebar grouping.\n",
        path: api("1.0.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # The repository's own API document beside them is still compared.
    files["api/openapi.yaml"] = api("1.0.0")
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "api/openapi.yaml"
    ]


def test_a_copy_named_for_its_version_agrees_with_itself(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": "# Changelog\n\n## [2.1.0] - 2026-05-01\n",
        "api/shop.yaml": api("2.1.0"),
        "api/shop-1.0.0.yaml": api("1.0.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # A name that names another version (the OpenAPI version it shows) does not decide.
    files["api/shop-3.1.yaml"] = api("1.0.0")
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "api/shop-3.1.yaml"
    ]


def test_a_services_package_version_is_not_the_contracts(make_corpus: MakeCorpus) -> None:
    # A service's package.json (runtime dependencies, code to start) is bumped with every
    # change of the code; the API document versions the contract it serves (issue 45, batch 3).
    service = {
        "name": "payments",
        "version": "2.56.6",
        "main": "app/index.js",
        "scripts": {"start:watch": "nodemon app/index.js"},
        "dependencies": {"some-web-framework": "21.4.8"},
    }
    files: dict[str, str | bytes] = {
        "package.json": json.dumps(service),
        "app/index.js": "// the service\n",
        "docs/asyncapi.yaml": "asyncapi: 3.0.0\ninfo: {title: Pay, version: 1.3.0}\n",
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # A package that publishes the API document speaks for it.
    files["package.json"] = json.dumps({**service, "files": ["docs"]})
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "docs/asyncapi.yaml"
    ]


def test_a_contract_ahead_of_a_bundles_releases_is_no_stale_copy(
    make_corpus: MakeCorpus,
) -> None:
    # The changelog numbers the releases of a build artifact (0.1.x); the AsyncAPI document is
    # at 1.0.0, a version no release ever had: versioned on its own, not left behind.
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": "## 0.1.3 (2026-03-03)\n\n- Bump.\n\n## 0.1.2 (2026-03-01)\n\n- Rename.\n",
        "asyncapi.yaml": "asyncapi: 3.0.0\ninfo: {title: Done, version: 1.0.0}\n",
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    # Where an API document shares the release, one numbering: ahead is drift too.
    files["CHANGELOG.md"] = "## 0.2.0 (2026-03-03)\n\n- Bump.\n"
    files["other.yaml"] = "asyncapi: 3.0.0\ninfo: {title: Other, version: 0.2.0}\n"
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "asyncapi.yaml"
    ]
    # A document behind the release is a stale copy, evidence or not.
    del files["other.yaml"]
    files["asyncapi.yaml"] = "asyncapi: 3.0.0\ninfo: {title: Done, version: 0.1.0}\n"
    assert [f.location.path for f in run_rule(make_corpus(files), "version-drift")] == [
        "asyncapi.yaml"
    ]


# Issue 45, ecosystem batch 4 at first read: the namespace a corpus publishes read off what
# most of its `$id`s agree on, linked release headings, a private tooling manifest, one finding
# for a string enum of numbers. Every fixture here is our own.


LINKED_CHANGELOG = yaml_text(
    """
    # Changelog

    ## [2.3.0](https://example.org/acme/api/compare/v2.2.0...v2.3.0) (2026-03-02)

    ### Features

    * add the `region` parameter

    ## [2.2.0](https://example.org/acme/api/compare/v2.1.0...v2.2.0) (2026-02-01)

    * add the `memory` parameter

    ## v0.0.1

    * first cut
    """
)


def api_namespace(version: str) -> str:
    return yaml_text(
        f"""
        openapi: 3.0.3
        info: {{title: Acme, version: '{version}'}}
        paths: {{}}
        """
    )


def test_a_release_heading_with_a_compare_link_is_a_release(make_corpus: MakeCorpus) -> None:
    # release-please and auto-changelog link each heading to its compare view: the newest
    # release is 2.3.0 (the package agrees), not the plain `v0.0.1` at the bottom.
    files: dict[str, str | bytes] = {
        "CHANGELOG.md": LINKED_CHANGELOG,
        "package.json": json.dumps({"name": "acme-api", "version": "2.3.0", "files": ["api"]}),
        "api/openapi.yaml": api_namespace("2.3.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    files["api/openapi.yaml"] = api_namespace("2.1.0")
    (finding,) = run_rule(make_corpus(files), "version-drift")
    assert "the corpus is at 2.3.0" in finding.message


def test_a_private_manifest_at_the_npm_default_is_no_version(make_corpus: MakeCorpus) -> None:
    # A private package.json left at `npm init`'s 1.0.0 holds the tooling's scripts; split path
    # files carrying a placeholder `info.version: '1.0'` do not make it the API's version.
    files: dict[str, str | bytes] = {
        "package.json": json.dumps(
            {
                "name": "acme-openapi",
                "version": "1.0.0",
                "private": True,
                "main": "index.js",
                "scripts": {"lint": "spectral lint openapi/openapi.yaml"},
                "devDependencies": {"@stoplight/spectral-cli": "^6.15.0"},
            }
        ),
        "openapi/openapi.yaml": api_namespace("1.4.2"),
        "openapi/paths/users.yaml": api_namespace("1.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []


# Classes found at the first read of ecosystem batch 5 (issue 45): sources of an API the
# repository's own build assembles, a tooling package's version, a list contrasted with an enum,
# a ``$ref`` to a file the build writes. Each on a fixture of ours.


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


# Issue 26, items 4 and 5: precision of version-drift, remote-ref, undeclared-tag,
# instance-invalid, openapi-invalid, schema-invalid and parse-error on layouts seen in public spec
# repositories, and short first lines for the closure, union, satisfiability and identity rules.
# Every fixture here is our own.


def not_checked(root: Path, kind: str) -> list[Note]:
    """What the corpus shows was not checked, of one kind (``speclint.run.coverage``)."""
    notes = of_corpus(Context.load(root, load_config(root)))
    return [note for note in sorted_notes(notes) if note.kind == kind]


def api_layouts(version: str = "1.0.0", extra: str = "") -> str:
    return (
        yaml_text(
            f"""
        openapi: 3.1.0
        info: {{title: Widgets, version: "{version}"}}
        paths: {{}}
        """
        )
        + extra
    )


def test_a_placeholder_package_version_is_not_the_corpus_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps(
                {"name": "site", "version": "0.0.1", "private": True, "description": "theme"}
            ),
            "api/one.yaml": api_layouts("1.0.0"),
            "api/two.yaml": api_layouts("2.0.0"),
        }
    )
    assert run_rule(root, "version-drift") == []


def test_a_placeholder_version_an_api_document_shares_is_still_compared(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "proto", "version": "0.0.3"}),
            "api/one.yaml": api_layouts("0.0.3"),
            "api/two.yaml": api_layouts("0.2.0"),
        }
    )
    found = run_rule(root, "version-drift")
    assert [f.location.path for f in found] == ["api/two.yaml"]


def test_a_real_package_version_is_still_the_corpus_version(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "proto", "version": "1.4.0", "private": True}),
            "api/one.yaml": api_layouts("1.0.0"),
        }
    )
    assert [f.location.path for f in run_rule(root, "version-drift")] == ["api/one.yaml"]


@pytest.mark.parametrize(
    "placeholder",
    [
        "0.0.0",
        "0.1.0-dev",
        "x.y.z",
        "${VERSION}",
        "latest",
        "dev",
        "unreleased",
        "next",
        "Dev - the protocol at v1.7.0-alpha.8",
    ],
)
def test_a_development_placeholder_in_info_version_is_no_release(
    make_corpus: MakeCorpus, placeholder: str
) -> None:
    # A build fills `info.version` in from the release: the placeholder disagrees with the
    # changelog by design. A real version that disagrees is still reported.
    root = make_corpus(
        {
            "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-05-01\n",
            "api/dev.yaml": api_layouts(placeholder),
            "api/old.yaml": api_layouts("1.0.0"),
        }
    )
    assert [f.location.path for f in run_rule(root, "version-drift")] == ["api/old.yaml"]


def test_a_development_placeholder_an_api_shares_is_no_corpus_version(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "package.json": json.dumps({"name": "site", "version": "0.1.0-dev"}),
            "api/one.yaml": api_layouts("0.1.0-dev"),
            "api/two.yaml": api_layouts("2.0.0"),
        }
    )
    assert run_rule(root, "version-drift") == []


@pytest.mark.parametrize("name", ["CHANGES.md", "HISTORY.md", "NEWS.md", "RELEASES.md"])
def test_the_changelog_is_named_as_the_repository_names_it(
    make_corpus: MakeCorpus, name: str
) -> None:
    root = make_corpus(
        {
            name: "# Changes\n\n## 1.2.0\n\n- More.\n",
            "package.json": json.dumps({"name": "proto", "version": "1.0.0"}),
            "api/one.yaml": api_layouts("1.0.0"),
        }
    )
    found = run_rule(root, "version-drift")
    assert [f.location.path for f in found] == ["api/one.yaml", "package.json"]
    assert f"({name}:3)" in found[0].message and found[0].related[0].path == name
    assert f"but {name}'s latest release is 1.2.0" in found[1].message
    assert all("CHANGELOG" not in f.message for f in found)


def test_remote_refs_are_coverage_one_note_each_not_findings(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": schema(
                type="object",
                properties={
                    "x": {"$ref": "https://example.net/one.json"},
                    "y": {"$ref": "https://example.net/two.json"},
                    "z": {"$ref": "https://other.example.org/three.json"},
                },
            ),
            "schemas/b.schema.json": schema(
                type="object", properties={"x": {"$ref": "https://example.net/one.json"}}
            ),
        }
    )
    notes = not_checked(root, "remote-ref")
    assert [(n.path, n.what.split("`")[1]) for n in notes] == [
        ("schemas/a.schema.json", "https://example.net/one.json"),
        ("schemas/a.schema.json", "https://example.net/two.json"),
        ("schemas/a.schema.json", "https://other.example.org/three.json"),
        ("schemas/b.schema.json", "https://example.net/one.json"),
    ]
    assert "remote-ref" not in all_rules()  # a rule whose only output was the note is gone


def test_a_raw_github_url_of_a_file_the_repository_holds_says_so(make_corpus: MakeCorpus) -> None:
    own = "https://raw.githubusercontent.com/acme/widgets/refs/heads/main/v1/widget.json"
    root = make_corpus(
        {
            "v1/widget.json": schema(type="object"),
            "api/openapi.json": schema(type="object", properties={"w": {"$ref": own}}),
        }
    )
    (note,) = not_checked(root, "remote-ref")
    assert "this repository holds that file as `v1/widget.json`" in note.what
