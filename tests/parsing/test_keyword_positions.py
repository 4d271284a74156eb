"""Keys in keyword position and keys that are names (``speclint.parsing.keyword_positions``), and
the walks that read them: a ``$ref`` under a property *named* ``default``, ``enum``, ``const``,
``example`` or ``examples`` is a reference like any other; under the keyword, it is data."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from openapi_spec_validator import validate

from conftest import schema
from speclint.analyses.context import Context
from speclint.analyses.prose.enumerations import schema_names
from speclint.analyses.prose.type_claims import parameter_claims
from speclint.analyses.schemas.references import ref_sites
from speclint.analyses.schemas.schema_objects import schema_roots
from speclint.outputs.api_bundle import bundle_api, external_refs
from speclint.parsing.dialects import draft_by_keywords
from speclint.parsing.keyword_positions import Position, holds_data, member_position, position_at
from speclint.parsing.kinds import DocumentKind
from speclint.run.catalog import all_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]
NAMES = ("default", "enum", "const", "example", "examples")


def test_a_data_keyword_is_data_only_in_keyword_position() -> None:
    for name in NAMES:
        assert holds_data(Position.SCHEMA, name)
        assert holds_data(Position.API, name, DocumentKind.ASYNCAPI)
        # OpenAPI's `examples` field maps names to Example Objects (each may be a `$ref`).
        assert holds_data(Position.API, name, DocumentKind.OPENAPI) is (name != "examples")
        assert not holds_data(Position.SCHEMA_NAMES, name)  # a property named so
        assert not holds_data(Position.API_NAMES, name)  # a response, a component named so
    assert position_at(["properties", "default", "properties", "enum"], Position.SCHEMA) is (
        Position.SCHEMA
    )
    assert position_at(["properties", "default", "default"], Position.SCHEMA) is Position.DATA
    # Inside data, nothing is a keyword again.
    assert position_at(["default", "properties", "x"], Position.SCHEMA) is Position.DATA


def test_openapi_maps_of_names() -> None:
    openapi = DocumentKind.OPENAPI
    responses = ["paths", "/runs", "get", "responses", "default"]
    assert position_at(responses, Position.API, openapi) is Position.API
    assert position_at(["components", "schemas", "example"], Position.API, openapi) is (
        Position.SCHEMA
    )
    assert position_at(["components", "parameters", "default"], Position.API, openapi) is (
        Position.API
    )
    media = ["paths", "/runs", "get", "responses", "200", "content", "application/json"]
    assert member_position(position_at(media, Position.API, openapi), "example") is Position.DATA
    assert position_at([*media, "schema"], Position.API, openapi) is Position.SCHEMA
    # An AsyncAPI message's headers are a schema, an OpenAPI response's a map of names.
    asyncapi = DocumentKind.ASYNCAPI
    headers = ["components", "messages", "m", "headers", "default"]
    assert position_at(headers, Position.API, asyncapi) is Position.DATA
    assert position_at(headers, Position.API, openapi) is Position.API


# A schema whose properties are named as the data keywords are, each a `$ref` to another file;
# and the keywords themselves, whose `$ref` members are data.
NAMED_AS_KEYWORDS = {
    name: {"$ref": f"{name}.schema.json"} for name in ("default", "enum", "const", "example")
} | {"examples": {"type": "array", "items": {"$ref": "examples.schema.json"}}}


def named_corpus(make_corpus: MakeCorpus, missing: str = "", data: bool = True) -> Path:
    files: dict[str, str | bytes] = {
        f"schemas/{name}.schema.json": schema(title=name.title(), type="string")
        for name in NAMES
        if name != missing
    }
    files["schemas/settings.schema.json"] = schema(
        title="Settings",
        type="object",
        properties=NAMED_AS_KEYWORDS,
        # data: instances with a `$ref` member
        **(
            {"default": {"$ref": "not-a-reference.json"}, "examples": [{"$ref": "nor-this.json"}]}
            if data
            else {}
        ),
    )
    files["api/openapi.yaml"] = """\
openapi: 3.1.0
info: {title: Settings, version: '1'}
paths:
  /settings:
    get:
      responses:
        '200':
          description: the settings
          content:
            application/json:
              schema: {$ref: '../schemas/settings.schema.json'}
"""
    return make_corpus(files)


def test_refs_under_properties_named_as_data_keywords_are_walked(make_corpus: MakeCorpus) -> None:
    corpus = Context.load(named_corpus(make_corpus))
    sites = {site for site, _, _ in ref_sites(corpus.documents["schemas/settings.schema.json"])}
    assert sites == {
        "/properties/default/$ref",
        "/properties/enum/$ref",
        "/properties/const/$ref",
        "/properties/example/$ref",
        "/properties/examples/items/$ref",
    }
    assert all(r.outcome == "ok" for r in corpus.references.references)


def test_refs_in_data_stay_data_in_the_bundle(make_corpus: MakeCorpus) -> None:
    corpus = Context.load(named_corpus(make_corpus))
    assert list(all_rules()["unresolved-ref"].check(corpus, {})) == []
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    # The data keeps its `$ref` members as written; no other `$ref` leaves the bundle.
    assert set(external_refs(built)) == {"not-a-reference.json", "nor-this.json"}


def test_a_broken_ref_under_a_property_named_default_is_unresolved(
    make_corpus: MakeCorpus,
) -> None:
    corpus = Context.load(named_corpus(make_corpus, missing="default"))
    [finding] = all_rules()["unresolved-ref"].check(corpus, {})
    assert finding.location.path == "schemas/settings.schema.json"
    assert finding.location.pointer == "/properties/default/$ref"


def test_the_api_bundle_embeds_and_rewrites_refs_under_properties_named_as_keywords(
    make_corpus: MakeCorpus,
) -> None:

    corpus = Context.load(named_corpus(make_corpus, data=False))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    validate(built)  # openapi-spec-validator follows every `$ref`, data or not
    assert list(external_refs(built)) == []
    schemas = built["components"]["schemas"]
    properties = schemas["Settings"]["properties"]
    for name in ("default", "enum", "const", "example"):
        assert properties[name] == {"$ref": f"#/components/schemas/{name.title()}"}
        assert schemas[name.title()] == {"title": name.title(), "type": "string"}
    assert properties["examples"]["items"] == {"$ref": "#/components/schemas/Examples"}


def test_a_bundled_schema_keeps_a_property_named_id(make_corpus: MakeCorpus) -> None:
    root = named_corpus(make_corpus)
    settings = json.loads((root / "schemas/settings.schema.json").read_text())
    settings["$id"] = "https://example.org/settings.schema.json"
    settings["properties"]["$id"] = {"type": "string"}
    (root / "schemas/settings.schema.json").write_text(json.dumps(settings))
    corpus = Context.load(root)
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    bundled = built["components"]["schemas"]["Settings"]
    assert "$id" not in bundled  # the component is no resource of its own
    assert bundled["properties"]["$id"] == {"type": "string"}  # a property, kept


def test_the_draft_is_read_from_keywords_not_from_property_names() -> None:

    # A property named `$defs` is no 2019-09 keyword; one named `default` is a schema whose
    # own keywords (`prefixItems`: 2020-12) say what they say.
    assert draft_by_keywords({"properties": {"$defs": {"type": "string"}}}) == "draft-07"
    assert draft_by_keywords({"properties": {"default": {"prefixItems": [{}]}}}) == "2020-12"
    assert draft_by_keywords({"default": {"prefixItems": [{}]}}) == "draft-07"  # data


# OpenAPI components named as data keywords: a parameter named `default`, a schema `example`.
NAMED_COMPONENTS = """\
openapi: 3.1.0
info: {title: Runs, version: '1'}
paths: {}
components:
  parameters:
    default:
      name: limit
      in: query
      required: true
      description: How many runs. If omitted, all runs are listed.
      schema: {type: integer}
  schemas:
    Run:
      type: object
      properties:
        default:
          title: Fallback
          type: object
          properties:
            mode: {enum: [fast, slow]}
"""


def test_schema_roots_of_a_component_named_as_a_data_keyword(make_corpus: MakeCorpus) -> None:

    corpus = Context.load(make_corpus({"api/openapi.yaml": NAMED_COMPONENTS}))
    roots = {pointer for pointer, _ in schema_roots(corpus.documents["api/openapi.yaml"])}
    assert "/components/parameters/default/schema" in roots


def test_schema_names_inside_a_property_named_as_a_data_keyword(make_corpus: MakeCorpus) -> None:

    corpus = Context.load(make_corpus({"api/openapi.yaml": NAMED_COMPONENTS}))
    [site] = schema_names(corpus)["fallback"]
    assert site.pointer == "/components/schemas/Run/properties/default"


def test_a_required_parameter_component_named_default_is_read(make_corpus: MakeCorpus) -> None:

    corpus = Context.load(make_corpus({"api/openapi.yaml": NAMED_COMPONENTS}))
    [claim] = parameter_claims(corpus)
    assert claim.pointer == "/components/parameters/default"


def runs_api(version: str, rest: str) -> str:
    """An OpenAPI document whose one operation answers JSON; ``rest`` goes on below the media
    type's ``schema`` (its ``examples``, the operation's other responses)."""
    return f"""\
openapi: {version}
info: {{title: Runs, version: '1'}}
paths:
  /runs:
    get:
      responses:
        '200':
          description: runs
          content:
            application/json:
              schema: {{type: object}}
{rest}"""


def test_openapi_example_objects_kept_in_files_are_bundled(make_corpus: MakeCorpus) -> None:
    """A media type's `examples` maps names to Example Objects, each of which may be a `$ref`
    (OpenAPI 3.1.1 §4.8.14.1): followed, bundled as `components/examples`; an example's `value`
    is data."""

    files: dict[str, str | bytes] = {
        "api/openapi.yaml": runs_api(
            "3.0.3",
            """\
              examples:
                default: {$ref: examples/run.yaml}
                inline: {value: {$ref: 'data, not a reference'}}
""",
        ),
        "api/examples/run.yaml": "summary: a run\nvalue: {id: r1}\n",
    }
    corpus = Context.load(make_corpus(files))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    examples = built["paths"]["/runs"]["get"]["responses"]["200"]["content"]["application/json"]
    assert examples["examples"]["default"] == {"$ref": "#/components/examples/run"}
    assert built["components"]["examples"]["run"] == {"summary": "a run", "value": {"id": "r1"}}
    assert list(external_refs(built)) == ["data, not a reference"]
    del examples["examples"]["inline"]
    validate(built)
    (corpus.root / "api/examples/run.yaml").unlink()
    [finding] = all_rules()["unresolved-ref"].check(Context.load(corpus.root), {})
    assert finding.location.pointer.endswith("/examples/default/$ref")


def test_an_examples_map_kept_in_a_file_is_written_in_place(make_corpus: MakeCorpus) -> None:

    files: dict[str, str | bytes] = {
        "api/openapi.yaml": runs_api(
            "3.1.0",
            """\
              examples: {$ref: examples/runs.yaml}
        '404': {$ref: responses/runs.yaml}
""",
        ),
        "api/examples/runs.yaml": "one: {value: {id: r1}}\ntwo: {value: {id: r2}}\n",
        # A response kept in a file of its own, whose examples are in a third file.
        "api/responses/runs.yaml": """\
description: runs
content:
  application/json:
    examples: {$ref: ../examples/more.yaml}
""",
        "api/examples/more.yaml": "one: {value: {id: r1}}\ntwo: {value: {id: r2}}\n",
    }
    corpus = Context.load(make_corpus(files))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    validate(built)
    media = built["paths"]["/runs"]["get"]["responses"]["200"]["content"]["application/json"]
    both = {"one": {"value": {"id": "r1"}}, "two": {"value": {"id": "r2"}}}
    assert media["examples"] == both
    assert built["components"]["responses"]["runs"]["content"]["application/json"] == {
        "examples": both
    }
    assert "components" not in built or "examples" not in built["components"]
