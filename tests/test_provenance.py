"""Issue 45, item 3: provenance decided once, by evidence (``speclint.analyses.provenance``): a
committed bundle of split sources, a byte-identical copy, an upstream project's copy and an API
client generator's output are shown as such by ``speclint files``, and no finding is located in
them; the source wins what its copies would have won."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.namespaces import namespace
from speclint.analyses.provenance import BUNDLE, COPY, GENERATED, UPSTREAM, VENDORED_KIND

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def findings(root: Path) -> list[dict[str, Any]]:
    run = run_cli("check", str(root), "--no-cache", "--format", "json")
    report, _ = json.JSONDecoder().raw_decode(run.output)  # the summary line follows it
    found: list[dict[str, Any]] = report["findings"]
    return found


def listing(root: Path) -> dict[str, str]:
    run = run_cli("files", str(root))
    assert run.exit_code == 0, run.output
    return {line.split()[0]: line for line in run.output.splitlines() if line.strip()}


# --- a committed bundle of split sources ------------------------------------------------------

SPLIT = {
    "api/openapi.yaml": (
        "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\n"
        "paths:\n  /pets:\n    $ref: paths/pets.yaml\n"
        "components:\n  schemas:\n    Pet:\n      $ref: schemas/Pet.yaml\n"
    ),
    "api/paths/pets.yaml": (
        "get:\n  operationId: listPets\n  responses:\n    '200':\n      description: The pets.\n"
        "      content:\n        application/json:\n          schema:\n            type: array\n"
        "            items:\n              $ref: ../schemas/Pet.yaml\n"
    ),
    "api/schemas/Pet.yaml": (
        "type: object\nrequired: [name, kind]\nproperties:\n  name:\n    type: string\n"
        "  kind:\n    $ref: ./Kind.yaml\n  owner:\n    $ref: ./Owner.yaml\n"
    ),
    "api/schemas/Kind.yaml": "type: string\nenum: [cat, dog]\n",
    "api/schemas/Owner.yaml": (
        "type: object\nrequired: [id]\nproperties:\n  id:\n    type: string\n"
    ),
    "README.md": "# Pets\n\nThe `kind` of a pet is one of:\n\n- `cat`\n- `dog`\n- `bird`\n",
}


def bundled(kind_enum: list[str]) -> str:
    """What `redocly bundle` writes for SPLIT: external files hoisted into `components`."""
    owner = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}
    pet = {
        "type": "object",
        "required": ["name", "kind"],
        "properties": {
            "name": {"type": "string"},
            "kind": {"type": "string", "enum": kind_enum},
            "owner": {"$ref": "#/components/schemas/Owner"},
        },
    }
    items = {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Pets", "version": "1.0.0"},
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "responses": {
                        "200": {
                            "description": "The pets.",
                            "content": {"application/json": {"schema": items}},
                        }
                    },
                }
            }
        },
        "components": {"schemas": {"Pet": pet, "Owner": owner}},
    }
    return json.dumps(document, indent=2) + "\n"


def test_a_committed_bundle_of_split_sources_reports_each_defect_once_at_the_source(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({**SPLIT, "dist/openapi.bundled.json": bundled(["cat", "dog"])})
    drifts = [f for f in findings(root) if f["rule"] == "enum-drift"]
    # Before: once at the source's enum and once more in the bundle.
    assert [f["location"]["path"] for f in drifts] == ["api/schemas/Kind.yaml"]
    rows = listing(root)
    assert (
        "bundle (of api/openapi.yaml and 4 other files, equal once dereferenced), not judged"
        in rows["dist/openapi.bundled.json"]
    )
    assert "bundle" not in rows["api/openapi.yaml"]


def test_a_stale_bundle_is_no_bundle(make_corpus: MakeCorpus) -> None:
    # It no longer equals its sources: what it says is judged as written.
    root = make_corpus({**SPLIT, "dist/openapi.bundled.json": bundled(["cat"])})
    corpus = Context.load(root)
    assert "dist/openapi.bundled.json" not in corpus.provenance
    assert "dist/openapi.bundled.json" not in corpus.derived


def test_a_bundle_is_recognised_by_content_not_by_name(make_corpus: MakeCorpus) -> None:
    root = make_corpus({**SPLIT, "published/pets.json": bundled(["cat", "dog"])})
    made = Context.load(root).provenance["published/pets.json"]
    assert made.kind == BUNDLE
    assert made.sources[0] == "api/openapi.yaml"
    assert set(made.sources[1:]) == {
        "api/paths/pets.yaml",
        "api/schemas/Pet.yaml",
        "api/schemas/Kind.yaml",
        "api/schemas/Owner.yaml",
    }


# --- a byte-identical copy --------------------------------------------------------------------

ORDER = json.dumps(
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/schemas/order.json",
        "title": "Order",
        "type": "object",
        "required": ["id", "total"],
        "properties": {
            "id": {"type": "string", "description": "The order's identifier."},
            "total": {"type": "number", "description": "What the order costs."},
            "state": {"type": "string", "enum": ["open", "paid"]},
        },
    },
    indent=2,
)
ORDERS_API = """\
openapi: 3.1.0
info:
  title: Orders
  version: 1.0.0
paths:
  /orders:
    post:
      operationId: createOrder
      requestBody:
        content:
          application/json:
            schema:
              $ref: schemas/order.json
      responses:
        '201':
          description: Created.
components:
  schemas:
    Order:
      title: Order
      type: object
      required: [id]
      properties:
        id: {type: string}
        total: {type: number}
        state: {type: string, enum: [open, paid]}
"""
STATES = "# Orders\n\nThe `state` of an order is one of:\n\n- `open`\n- `paid`\n- `shipped`\n"


def test_the_source_of_a_byte_identical_copy_wins_every_binding(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/order.json": ORDER,
            "docs/assets/order.json": ORDER,  # the copy a docs site serves
            "api.yaml": ORDERS_API,
            "README.md": STATES,
        }
    )
    found = findings(root)
    # Before: the copy won both, and the enum drift was located in it.
    copy_drift = [f for f in found if f["rule"] == "copy-drift"]
    assert len(copy_drift) == 1 and "`schemas/order.json`" in copy_drift[0]["message"]
    assert [r["path"] for r in copy_drift[0]["related"]] == ["schemas/order.json"]
    # the API's inline enum and the source's are alike copies: one finding, the source's enum
    # related (never the copy's)
    (enum_drift,) = [f for f in found if f["rule"] == "enum-drift"]
    assert enum_drift["location"]["path"] == "api.yaml"
    assert "schemas/order.json" in [r["path"] for r in enum_drift["related"]]
    assert not any("docs/assets/order.json" in json.dumps(f) for f in found)
    assert (
        "copy (byte-identical to schemas/order.json), not judged"
        in listing(root)["docs/assets/order.json"]
    )


def test_a_copy_does_not_make_an_example_binding_ambiguous(make_corpus: MakeCorpus) -> None:
    page = '# Orders\n\nAn `Order`:\n\n```json\n{"id": "o-1", "total": "three"}\n```\n'
    root = make_corpus(
        {"schemas/order.json": ORDER, "site/schemas/order.json": ORDER, "README.md": page}
    )
    invalid = [f for f in findings(root) if f["rule"] == "example-invalid"]
    # Before: two definitions named `Order` (the source and the copy a site serves): no binding.
    assert len(invalid) == 1
    assert invalid[0]["related"][0]["path"] == "schemas/order.json"


def test_of_identical_files_the_one_in_a_build_folder_is_the_copy(
    make_corpus: MakeCorpus,
) -> None:
    # `out/` sorts first and nothing references either: only the folder says which is the copy.
    root = make_corpus({"out/order.json": ORDER, "schemas/order.json": ORDER})
    made = Context.load(root).provenance
    assert made["out/order.json"].kind == COPY
    assert made["out/order.json"].sources == ("schemas/order.json",)
    assert "schemas/order.json" not in made


def test_unchanged_files_of_two_releases_are_not_copies(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/1.0.0/order.json": ORDER, "schemas/1.1.0/order.json": ORDER})
    assert Context.load(root).provenance == {}


def test_identical_files_of_different_names_are_two_documents(make_corpus: MakeCorpus) -> None:
    # Each tool's own schema, which happens to say what another's does.
    root = make_corpus({"schemas/tool-a.json": ORDER, "schemas/tool-b.json": ORDER})
    assert Context.load(root).provenance == {}


def test_small_identical_files_are_not_copies(make_corpus: MakeCorpus) -> None:
    small = '{"type": "string", "enum": ["a", "b"]}'
    root = make_corpus({"a/kind.json": small, "b/kind.json": small})
    assert Context.load(root).provenance == {}


# --- an upstream project's copy ---------------------------------------------------------------


def own_schema(name: str, host: str) -> str:
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://{host}/schemas/{name}.json",
            "type": "object",
            "properties": {"name": {"type": "string"}},
        }
    )


def test_an_upstream_copy_is_shown_and_not_judged(make_corpus: MakeCorpus) -> None:
    files: dict[str, str | bytes] = {
        "schemas/thing.json": own_schema("thing", "own.example.com"),
        "third/other-standard/LICENSE": "Apache-2.0\n",
        "third/other-standard/README.md": "# Other standard\n\nSee [the guide](missing.md).\n",
        "third/other-standard/schemas/item.json": own_schema("item", "other.example.org"),
    }
    root = make_corpus(files)
    found = findings(root)
    # Before: a broken link reported in a page the maintainers must not edit.
    assert not any(f["location"]["path"].startswith("third/") for f in found)
    rows = listing(root)
    assert (
        "upstream (another project's copy: third/other-standard/ has its own LICENSE"
        in (rows["third/other-standard/schemas/item.json"])
    )
    assert "upstream" in rows["third/other-standard/README.md"]
    assert Context.load(root).provenance["third/other-standard/README.md"].kind == UPSTREAM
    assert "upstream" not in rows["schemas/thing.json"]


def test_a_subproject_of_the_repository_s_own_namespace_is_not_upstream(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "schemas/thing.json": own_schema("thing", "own.example.com"),
            "packages/sdk/LICENSE": "MIT\n",
            "packages/sdk/README.md": "# SDK\n",
            "packages/sdk/item.json": own_schema("item", "own.example.com"),
        }
    )
    assert Context.load(root).provenance == {}


def test_only_the_dialect_s_own_identifier_names_a_copy_s_host(make_corpus: MakeCorpus) -> None:
    # In 2020-12 a root `id` is no keyword (draft-04's `id` became `$id`): a schema of the copy
    # with only such a member declares no host, so it does not make the copy the repository's.
    unnamed = json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "id": "https://own.example.com/schemas/extra.json",
            "type": "object",
        }
    )
    root = make_corpus(
        {
            "schemas/thing.json": own_schema("thing", "own.example.com"),
            "third/other-standard/LICENSE": "Apache-2.0\n",
            "third/other-standard/README.md": "# Other standard\n",
            "third/other-standard/schemas/item.json": own_schema("item", "other.example.org"),
            "third/other-standard/schemas/extra.json": unnamed,
        }
    )
    provenance = Context.load(root).provenance
    assert provenance["third/other-standard/schemas/item.json"].kind == UPSTREAM


def test_a_namespace_is_the_base_uri_the_dialect_declares(make_corpus: MakeCorpus) -> None:
    draft04 = "http://json-schema.org/draft-04/schema#"
    root = make_corpus(
        {
            "a/old.json": json.dumps({"$schema": draft04, "id": "https://x.example/v1/old.json"}),
            "b/new.json": json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "id": "https://x.example/v1/new.json",
                }
            ),
        }
    )
    documents = Context.load(root).documents
    assert namespace(documents["a/old.json"]) == "https://x.example/v1"
    # 2020-12's `id` is no identifier: the file's folder is its namespace.
    assert namespace(documents["b/new.json"]) != "https://x.example/v1"


# --- an API client generator's output ---------------------------------------------------------

GENERATOR_PAGE = """\
# Pet

## Properties

Name | Type | Description | Notes
------------ | ------------- | ------------- | -------------
**tags** | [**List[str]**](str.md) | | [optional]

[[Back to Model list]](../README.md#documentation-for-models) [[Back to API list]](../README.md#documentation-for-api-endpoints) [[Back to README]](../README.md)
"""


def test_an_openapi_generator_docs_page_is_generated(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "client/docs/Pet.md": GENERATOR_PAGE,
            "client/README.md": (
                "# Client\n\n## Documentation for API Endpoints\n\nNone.\n\n"
                "## Documentation For Models\n\n- [Pet](docs/Pet.md)\n"
            ),
            "guide.md": "# Guide\n\n[x](nowhere.md)\n",
        }
    )
    broken = {f["location"]["path"] for f in findings(root) if f["rule"] == "broken-link"}
    # Before: `str.md` (a type name the generator links) was a broken link.
    assert broken == {"guide.md"}
    made = Context.load(root).provenance["client/docs/Pet.md"]
    assert made.kind == GENERATED and "openapi-generator" in made.evidence


def test_the_files_openapi_generator_lists_are_generated(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "sdk/.openapi-generator/FILES": "README.md\ndocs/Api.md\n../escape.md\n",
            "sdk/.openapi-generator/VERSION": "7.0.0\n",
            "sdk/README.md": "# SDK\n\n[x](gone-1.md)\n",
            "sdk/docs/Api.md": "# Api\n\n[x](gone-2.md)\n",
            "sdk/docs/Own.md": "# Own\n\n[x](gone-3.md)\n",
            "escape.md": "# Escape\n\n[x](gone-4.md)\n",
        }
    )
    made = Context.load(root).provenance
    assert sorted(made) == ["sdk/README.md", "sdk/docs/Api.md"]
    assert made["sdk/README.md"].evidence == (
        "listed in sdk/.openapi-generator/FILES (openapi-generator's output)"
    )
    broken = {f["location"]["path"] for f in findings(root) if f["rule"] == "broken-link"}
    assert broken == {"sdk/docs/Own.md", "escape.md"}


# --- one document in two serialisations (issue 45, batch 1) --------------------------------------

GHOSTLY = {**json.loads(ORDER), "required": ["id", "total", "ghost"]}  # `ghost` is declared nowhere


def as_yaml(schema: dict[str, Any]) -> str:
    """The YAML source of a schema, its first description a block scalar the JSON reflowed."""
    lines = [f"{key}: {json.dumps(value)}" for key, value in schema.items() if key != "properties"]
    lines.append("properties:")
    for name, member in schema["properties"].items():
        lines.append(f"  {name}:")
        for key, value in member.items():
            if key == "description":
                words = value.split(" ", 1)
                lines.append(f"    description: |\n      {words[0]}\n      {words[1]}")
            else:
                lines.append(f"    {key}: {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def test_a_yaml_schema_and_its_json_rendering_are_one_document(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/order.yaml": as_yaml(GHOSTLY), "schemas/order.json": json.dumps(GHOSTLY)}
    )
    made = Context.load(root).provenance
    assert made["schemas/order.json"].kind == COPY
    assert made["schemas/order.json"].sources == ("schemas/order.yaml",)
    # One defect, one finding: at the source, not again in its rendering; no duplicate `$id`.
    found = findings(root)
    assert [(f["rule"], f["location"]["path"]) for f in found] == [
        ("required-undeclared", "schemas/order.yaml")
    ]
    assert (
        "copy (schemas/order.yaml in another serialisation)" in listing(root)["schemas/order.json"]
    )


def test_a_json_that_says_something_else_is_its_own_document(make_corpus: MakeCorpus) -> None:
    other = {**GHOSTLY, "properties": {**GHOSTLY["properties"], "total": {"type": "string"}}}
    root = make_corpus(
        {"schemas/order.yaml": as_yaml(GHOSTLY), "schemas/order.json": json.dumps(other)}
    )
    assert Context.load(root).provenance == {}
    assert "duplicate-id" in {f["rule"] for f in findings(root)}


# --- a vendor's document the repository's own commands download ---------------------------------

VENDOR_API = json.dumps(
    {
        "openapi": "3.1.0",
        "info": {"title": "Vendor", "version": "1.0.0"},
        "paths": {},
        "components": {
            "schemas": {
                # the vendor's `off` read as YAML 1.1's false: a defect fixed upstream, not here
                "Status": {"type": "string", "enum": ["on", "off"], "default": False}
            }
        },
    },
    indent=2,
)


def test_a_document_a_guide_s_command_downloads_is_vendored(make_corpus: MakeCorpus) -> None:
    guide = (
        "# Contributing\n\nRefresh the vendor's document:\n\n```\n"
        "curl -sSL https://vendor.example/openapi.yaml |\n  yq -o=json '.' > api.json\n```\n"
    )
    root = make_corpus({"api.json": VENDOR_API, "CONTRIBUTING.md": guide})
    # Before: the vendor's defect was reported in a file nobody here edits.
    assert not any(f["location"]["path"] == "api.json" for f in findings(root))
    made = Context.load(root).provenance["api.json"]
    assert made.kind == VENDORED_KIND
    assert "CONTRIBUTING.md:6" in made.evidence and "curl -sSL" in made.evidence
    assert "vendored (downloaded by `curl" in listing(root)["api.json"]


def test_downloads_in_scripts_workflows_and_package_scripts(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "specs/a.json": VENDOR_API,
            "specs/b.json": VENDOR_API.replace("Vendor", "Other vendor"),
            "specs/c.json": VENDOR_API.replace("Vendor", "Third vendor"),
            "specs/d.json": VENDOR_API.replace("Vendor", "Fourth vendor"),
            "scripts/refresh.sh": (
                "#!/bin/sh\ncd specs\nwget -q -O ../specs/a.json \\\n  https://a.example/api.json\n"
            ),
            ".github/workflows/sync.yml": (
                "jobs:\n  sync:\n    steps:\n"
                "      - run: curl -fsSL --output specs/b.json https://b.example/openapi.json\n"
            ),
            "package.json": json.dumps(
                {"scripts": {"spec": "gh api repos/o/r/contents/c.json | jq . > specs/c.json"}}
            ),
        }
    )
    found = Context.load(root).provenance
    assert found["specs/a.json"].evidence.endswith("scripts/refresh.sh:3")
    assert found["specs/b.json"].evidence.endswith(".github/workflows/sync.yml:4")
    assert found["specs/c.json"].kind == VENDORED_KIND
    assert "specs/d.json" not in found


def test_a_download_run_by_a_launcher_is_a_download(make_corpus: MakeCorpus) -> None:
    # A command's words read as the merges read them (speclint.parsing.shell): `time` and
    # `sudo -E` run curl; the file it writes is the vendor's, not a generator's output.
    root = make_corpus(
        {
            "specs/a.json": VENDOR_API,
            "specs/b.json": VENDOR_API.replace("Vendor", "Other vendor"),
            "Makefile": (
                "sync:\n\ttime curl -fsSL -o specs/a.json https://a.example/api.json\n"
                "\tsudo -E curl -fsSL https://b.example/api.json > specs/b.json\n"
            ),
        }
    )
    found = Context.load(root).provenance
    assert found["specs/a.json"].kind == VENDORED_KIND
    assert found["specs/a.json"].evidence.startswith("downloaded by `time curl")
    assert found["specs/b.json"].kind == VENDORED_KIND


def test_a_download_from_the_repository_s_own_server_is_not_vendored(
    make_corpus: MakeCorpus,
) -> None:
    guide = (
        "# Dev\n\n```bash\ncurl http://localhost:8000/openapi.json > api.json\n"
        "curl https://$HOST/openapi.json > api.json\n```\n\n"
        '```json\n{"note": "curl https://vendor.example/x > api.json"}\n```\n'
    )
    root = make_corpus({"api.json": VENDOR_API, "README.md": guide})
    assert "api.json" not in Context.load(root).provenance


def test_a_file_a_build_command_writes_is_generated(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/a.json": VENDOR_API,
            "schemas/b.json": VENDOR_API.replace("Vendor", "Other"),
            "schemas/c.json": VENDOR_API.replace("Vendor", "Third"),
            "tools/Makefile": (
                "all:\n\t@python tools/render.py --output schemas/a.json model.json\n"
                "\tjq -S . schemas/b.json > schemas/b.json.tmp && jq . schemas/c.json > schemas/c.json\n"
            ),
        }
    )
    found = Context.load(root).provenance
    assert found["schemas/a.json"].kind == GENERATED
    assert found["schemas/a.json"].evidence.startswith("written by `@python tools/render.py")
    assert found["schemas/a.json"].evidence.endswith("in tools/Makefile:2")
    assert "schemas/b.json" not in found  # an input, not an output
    assert "schemas/c.json" not in found  # rewritten in place: not generated
