"""Issue 45, ecosystem batch 4 at first read: the namespace a corpus publishes read off what
most of its `$id`s agree on, linked release headings, a private tooling manifest, one finding
for a string enum of numbers. Every fixture here is our own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

PAGES = "https://acme.github.io/models.Rain"


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def schema(identifier: str, **extra: object) -> str:
    return json.dumps(
        {"$schema": "http://json-schema.org/draft-07/schema#", "$id": identifier, **extra}
    )


# --- unresolved-ref: the namespace the corpus publishes ------------------------------------------


def rain_corpus(**drizzle: object) -> dict[str, str | bytes]:
    """A project-pages corpus (`https://OWNER.github.io/REPO/`): three folders published where
    their `$id`s say, and `Drizzle/` whose schema keeps a stale `$id` from another repository."""
    files: dict[str, str | bytes] = {
        f"{name}/schema.json": schema(f"{PAGES}/{name}/schema.json", type="object")
        for name in ("Shower", "Storm", "Hail")
    }
    files["Drizzle/schema.json"] = schema(
        "https://acme.github.io/models.Fog/Drizzle/schema.json", type="object", **drizzle
    )
    files["Drizzle/model.yaml"] = yaml(
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
    files["Shower/schema.json"] = schema(
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
    files["Drizzle/openapi.yaml"] = yaml(
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
        f"{name}/schema.json": schema(f"{own}/{name}/schema.json", type="object")
        for name in ("notice", "bulletin", "digest")
    }
    files["vendor/cvss/meta.json"] = schema("https://scores.example.org/cvss/meta.json")
    files["vendor/cvss/cvss-v3.json"] = schema("https://scores.example.org/cvss/cvss-v3.json?2021")
    files["vendor/cvss/cvss-v2.json"] = schema("https://scores.example.org/cvss/cvss-v2.json?2019")
    files["notice/schema.json"] = schema(
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
        f"definitions/2.0.0/{name}.json": schema(
            f"https://acme.example.org/definitions/2.0.0/{name}.json", type="object"
        )
        for name in ("info", "server", "channel")
    }
    files["store/2.0.0-plain.json"] = json.dumps({"type": "object"})
    files["store/all.json"] = schema(
        "https://acme.example.org/schema-store/all.json",
        oneOf=[{"$ref": "https://acme.example.org/schema-store/2.0.0-plain.json"}],
    )
    assert run_rule(make_corpus(files), "unresolved-ref") == []


def test_a_missing_id_in_the_published_namespace_is_still_reported(
    make_corpus: MakeCorpus,
) -> None:
    files = rain_corpus()
    files["Storm/schema.json"] = schema(
        f"{PAGES}/Storm/schema.json", allOf=[{"$ref": f"{PAGES}/Storm/gusts.json"}]
    )
    (finding,) = run_rule(make_corpus(files), "unresolved-ref")
    assert "Storm/gusts.json" in finding.message


# --- version-drift: linked release headings, a private tooling manifest ------------------------

LINKED_CHANGELOG = yaml(
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


def api(version: str) -> str:
    return yaml(
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
        "api/openapi.yaml": api("2.3.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []
    files["api/openapi.yaml"] = api("2.1.0")
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
        "openapi/openapi.yaml": api("1.4.2"),
        "openapi/paths/users.yaml": api("1.0"),
    }
    assert run_rule(make_corpus(files), "version-drift") == []


# --- unsatisfiable-schema: an enum its own type rejects is value-invalid's ----------------------

NUMERIC_CODES = yaml(
    """
    openapi: 3.0.3
    info: {title: Ledger, version: '1'}
    paths:
      /bills:
        get:
          parameters:
            - name: direction
              in: query
              schema:
                type: string
                enum: [0, 1]
          responses:
            '200': {description: ok}
    """
)


def test_an_enum_its_own_type_rejects_is_one_finding(make_corpus: MakeCorpus) -> None:
    # value-invalid reports each member at the member; the schema they leave empty is the
    # same defect, not a second finding.
    root = make_corpus({"api/openapi.yaml": NUMERIC_CODES})
    assert len(run_rule(root, "value-invalid")) == 2
    assert run_rule(root, "unsatisfiable-schema") == []


def test_an_enum_its_own_type_rejects_is_reported_when_value_invalid_is_off(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {"api/openapi.yaml": NUMERIC_CODES, "speclint.toml": '[rules]\nvalue-invalid = "off"\n'}
    )
    (finding,) = run_rule(root, "unsatisfiable-schema")
    assert "no instance can satisfy" in finding.message


def test_an_empty_enum_is_still_unsatisfiable(make_corpus: MakeCorpus) -> None:
    # No member for value-invalid to report: the schema is the finding.
    root = make_corpus({"api/openapi.yaml": NUMERIC_CODES.replace("enum: [0, 1]", "enum: []")})
    assert len(run_rule(root, "unsatisfiable-schema")) == 1


# --- messages: a trailing slash, an unquoted number in a string enum ---------------------------


def test_a_trailing_slash_is_told_to_be_dropped(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": yaml(
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


CODES = yaml(
    """
    openapi: 3.0.3
    info: {title: Codes, version: '1'}
    paths: {}
    components:
      schemas:
        Reason:
          type: string
          enum:
            - '07'
            - 08
            - x
        Interval:
          type: string
          enum: [D, 240, '5']
    """
)


def test_an_unquoted_number_in_a_string_enum_is_told_to_be_quoted(
    make_corpus: MakeCorpus,
) -> None:
    findings = run_rule(make_corpus({"api/openapi.yaml": CODES}), "value-invalid")
    advice = sorted(f.message.split("; ", 1)[1] for f in findings)
    assert advice == [
        'written unquoted, `08`, YAML reads it as a number: quote it (`"08"`)',
        'written unquoted, `240`, YAML reads it as a number: quote it (`"240"`)',
    ]


def test_a_number_in_a_json_string_enum_keeps_its_advice(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/code.json": schema("https://example.org/code.json", type="string", enum=["a", 2])
    }
    (finding,) = run_rule(make_corpus(files), "value-invalid")
    assert "remove the member from the `enum`, or add its type to `type`" in finding.message
