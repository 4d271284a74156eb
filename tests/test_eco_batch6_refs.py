"""Classes found at the first read of ecosystem batch 6 (issue 45) in ``unresolved-ref`` and
``openapi-invalid``: a schema named by the relative ``$id`` another folder's schema declares, one
missing name repeated in every folder of a convention, a bundler's pointer through a ``$ref``, a
SwaggerHub domain. Each on a fixture of ours."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _schema(identifier: str, **members: object) -> str:
    return json.dumps({"$schema": DRAFT, "$id": identifier, **members})


def _errors(found: list) -> list:  # type: ignore[type-arg]
    return [f for f in found if f.coverage is None]


# --- unresolved-ref: a bare name that is another folder's relative `$id` --------------------------


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


# --- unresolved-ref: one missing name in every folder of a convention ----------------------------


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


# --- unresolved-ref: a bundler's pointer that runs through a `$ref` ------------------------------

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


# --- openapi-invalid: a SwaggerHub domain, a components-only library ------------------------------

LIBRARY = textwrap.dedent(
    """\
    openapi: 3.0.3
    info: {title: Shared schemas, version: '1.0.0'}
    components:
      schemas:
        Thing:
          type: object
          properties:
            name: {type: string}
    """
)

SERVICE = textwrap.dedent(
    """\
    openapi: 3.0.3
    info: {title: Things, version: '1.0.0'}
    paths:
      /things:
        get:
          responses:
            '200':
              description: the things
              content:
                application/json:
                  schema:
                    $ref: '%s#/components/schemas/Thing'
    """
)


def test_a_swaggerhub_domain_is_not_required_to_have_paths(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "Shared-Schemas/openapi.yaml": LIBRARY,
            "Things/openapi.yaml": SERVICE
            % "https://api.swaggerhub.com/domains/acme/Shared-Schemas/1.0.0",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert _errors(found) == [], found
    [note] = found
    assert note.coverage == "component-library" and "Shared-Schemas" in note.message


def test_a_components_only_document_without_domain_evidence_still_needs_paths(
    make_corpus: MakeCorpus,
) -> None:
    # Referenced for its components by a plain URL (published for any OpenAPI 3.0 tool, which
    # rejects it without `paths`): still an error.
    root = make_corpus(
        {
            "core/openapi/shared.yaml": LIBRARY,
            "ext/openapi.yaml": SERVICE
            % "https://raw.githubusercontent.com/acme/things/main/core/openapi/shared.yaml",
        }
    )
    found = _errors(run_rule(root, "openapi-invalid"))
    assert [f.location.path for f in found] == ["core/openapi/shared.yaml"], found
    assert '"paths" is a required property' in found[0].message


def test_a_document_whose_header_says_it_is_a_domain_is_not_required_to_have_paths(
    make_corpus: MakeCorpus,
) -> None:
    header = "# OpenAPI version identifier - required for OpenAPI 3.0 domains\n"
    found = run_rule(make_corpus({"Old-Schemas/openapi.yaml": header + LIBRARY}), "openapi-invalid")
    assert [f.coverage for f in found] == ["component-library"], found


def test_a_comment_about_the_domain_model_is_no_domain_evidence(make_corpus: MakeCorpus) -> None:
    header = "# The shared domain model of the shop\n"
    found = run_rule(make_corpus({"model/openapi.yaml": header + LIBRARY}), "openapi-invalid")
    assert [f.coverage for f in found] == [None], found


# --- unresolved-ref: a base schema set the repository links and does not hold ---------------------


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
