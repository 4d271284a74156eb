"""version-drift on the evidence a version is the spec's (issue 45, item 7): a monorepo's
package.json, a `next` placeholder, a released copy in a folder named for its version.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import run_rule

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
