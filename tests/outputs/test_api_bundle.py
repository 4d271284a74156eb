"""Single-file API bundles (issue 18): each OpenAPI / AsyncAPI document bundled with every external
``$ref`` pulled in as a component, proven equivalent to its source: valid, self-contained, the
same operations, channels, messages and schemas, and the same verdict on generated instances."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from ruamel.yaml import YAML
from test_build import errors, instances

# What `speclint build` writes and prints is the question, not a process: it runs in process.
from conftest import cli_in_process as cli
from conftest import copy_bundled_corpus, schema, write_files
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.validation import metaschema_registry
from speclint.model.config import load_config
from speclint.outputs.api_bundle import (
    BundleError,
    bundle_api,
    dereference,
    external_refs,
    render_bundle,
)
from speclint.outputs.build import build

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def load(root: Path) -> Context:
    return Context.load(root, load_config(root.resolve()))


def bundled_corpus_copy(tmp_path: Path) -> Path:
    """corpus/ with the one file its OpenAPI document references and lacks (a seeded
    unresolved-ref), so that both API documents can be bundled."""
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    write_files(
        root,
        {
            "schemas/run-page.schema.json": schema(
                title="RunPage",
                type="object",
                properties={
                    "runs": {"type": "array", "items": {"$ref": "run-snapshot.schema.json"}}
                },
            )
        },
    )
    return root


# A clean corpus: an OpenAPI 3.1 and an AsyncAPI 3.0 document over schema files, a recursive
# schema, a `$ref` into a file's `$defs` (from a parameter and from a schema), and two schema files
# whose titles collide.
CLEAN = {
    "schemas/common.schema.json": schema(
        **{"$id": "https://example.org/common.schema.json"},
        title="Common",
        **{"$defs": {"Id": {"type": "string", "pattern": "^[a-z0-9-]+$"}}},
    ),
    "schemas/node.schema.json": schema(
        title="Node",
        type="object",
        required=["id"],
        properties={
            "id": {"$ref": "common.schema.json#/$defs/Id"},
            "children": {"type": "array", "items": {"$ref": "#"}},
        },
        additionalProperties=False,
    ),
    "schemas/error.schema.json": schema(
        title="Error",
        type="object",
        required=["code"],
        properties={"code": {"enum": ["bad", "gone"]}, "detail": {"type": "string"}},
    ),
    "schemas/v2/error.schema.json": schema(
        title="Error",
        type="object",
        required=["code", "retryable"],
        properties={"code": {"type": "integer"}, "retryable": {"type": "boolean"}},
    ),
    "api/openapi.yaml": """openapi: 3.1.0
info:
  title: Trees
  version: "1.0"
# The tree API: shapes live under schemas/.
paths:
  /nodes/{nodeId}:
    parameters:
      - name: nodeId
        in: path
        required: true
        schema:
          $ref: '../schemas/common.schema.json#/$defs/Id'
    get:
      operationId: getNode
      responses:
        "200":
          description: The node, with its children.
          content:
            application/json:
              schema:
                $ref: '../schemas/node.schema.json'
        "404":
          description: No such node.
          content:
            application/json:
              schema:
                $ref: '../schemas/error.schema.json'
    put:
      operationId: putNode
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '../schemas/node.schema.json'
      responses:
        "409":
          description: A newer error shape.
          content:
            application/json:
              schema:
                $ref: '../schemas/v2/error.schema.json'
        "204":
          description: Stored.
components:
  schemas:
    Node:
      $ref: '../schemas/node.schema.json'
""",
    "api/asyncapi.yaml": """asyncapi: 3.0.0
info:
  title: Tree events
  version: "1.0"
channels:
  nodes:
    address: /nodes
    messages:
      nodeChanged:
        payload:
          $ref: '../schemas/node.schema.json'
operations:
  watch:
    action: receive
    channel:
      $ref: '#/channels/nodes'
""",
}


def test_bundles_are_self_contained_and_valid(tmp_path: Path) -> None:

    root = write_files(tmp_path / "spec", CLEAN)
    corpus = load(root)
    result = build(corpus)
    assert not result.api_not_built, result.problems
    openapi = result.api_bundles["api/openapi.yaml"]
    asyncapi = result.api_bundles["api/asyncapi.yaml"]
    for bundle in (openapi, asyncapi):
        assert list(external_refs(bundle)) == []
    validate(openapi)  # openapi-spec-validator, the official OpenAPI 3.1 schema and its checks
    # The official AsyncAPI 3.0 schema, through the rule that applies it, on the written bundle.
    out = tmp_path / "out"
    write_files(out, {"asyncapi.yaml": result.files["api/asyncapi.yaml"]})
    checked = cli("check", str(out), "--rule", "asyncapi-invalid", "--no-cache")
    assert checked.returncode == 0, checked.stdout + checked.stderr

    schemas = openapi["components"]["schemas"]
    # Names from titles and `$defs` tokens; the second `Error` told apart, and reported.
    assert sorted(schemas) == ["Error", "Error-2", "Id", "Node"]
    assert schemas["Error-2"]["required"] == ["code", "retryable"]
    assert any("Error-2" in p.message for p in result.problems if not p.fatal)
    # `Node: {$ref: node.schema.json}` is where the file's content goes, not a `Node-2` beside it.
    assert schemas["Node"]["title"] == "Node"
    # A recursive schema stays a `$ref` to its component; the file's `$defs` part is pointed
    # into, not copied.
    assert schemas["Node"]["properties"]["children"]["items"] == {
        "$ref": "#/components/schemas/Node"
    }
    assert schemas["Node"]["properties"]["id"] == {"$ref": "#/components/schemas/Id"}
    assert "$id" not in schemas["Id"] and "$schema" not in schemas["Node"]
    assert openapi["paths"]["/nodes/{nodeId}"]["parameters"][0]["schema"] == {
        "$ref": "#/components/schemas/Id"
    }
    # The document's own `$ref` is left alone; the payload is a schema component.
    assert asyncapi["operations"]["watch"]["channel"] == {"$ref": "#/channels/nodes"}
    assert asyncapi["channels"]["nodes"]["messages"]["nodeChanged"]["payload"] == {
        "$ref": "#/components/schemas/Node"
    }


def test_yaml_keeps_comments_order_and_quotes(tmp_path: Path) -> None:
    root = write_files(tmp_path / "spec", CLEAN)
    text = build(load(root)).files["api/openapi.yaml"]
    assert "# The tree API: shapes live under schemas/." in text
    assert text.index("info:") < text.index("paths:") < text.index("components:")
    assert 'version: "1.0"' in text
    assert "      - name: nodeId\n" in text  # the sequence indented under its key, as written


def test_api_format_json(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec", {**CLEAN, "speclint.toml": '[build]\napi-format = "json"\n'}
    )
    result = build(load(root))
    assert "api/openapi.json" in result.files and "api/openapi.yaml" not in result.files
    assert json.loads(result.files["api/openapi.json"]) == result.api_bundles["api/openapi.yaml"]


def operations(document: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {
        (path, method, str(operation.get("operationId")))
        for path, item in document.get("paths", {}).items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


def schema_targets(corpus: Context, path: str) -> set[tuple[str, str]]:
    """The distinct (file, pointer) schemas outside ``path`` that its `$ref`s reach."""
    index = corpus.references
    found: set[tuple[str, str]] = set()
    pending = [path]
    seen: set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for reference in index.references:
            if reference.path == current and reference.outcome == "ok" and reference.target_path:
                if reference.target_path != path:
                    found.add((reference.target_path, reference.target_pointer or ""))
                pending.append(reference.target_path)
    return found


def test_the_bundled_corpus_bundles_describe_what_their_sources_do(tmp_path: Path) -> None:
    root = bundled_corpus_copy(tmp_path)
    corpus = load(root)
    result = build(corpus)
    assert sorted(result.api_bundles) == [
        "api/asyncapi.yaml",
        "api/openapi.yaml",
        "api/v0.9/openapi.yaml",
    ]
    for path, bundle in result.api_bundles.items():
        source = corpus.documents[path].data
        remote = [r for r in external_refs(bundle) if not r.startswith("https://")]
        assert remote == [], path
        if "openapi" in source:
            assert operations(bundle) == operations(source)
        else:
            assert set(bundle["channels"]) == set(source["channels"])
            assert set(bundle["operations"]) == set(source["operations"])
            for name, channel in source["channels"].items():
                assert set(bundle["channels"][name].get("messages", {})) == set(
                    channel.get("messages", {})
                )
        # Every file part the source reaches is one component, or a part of one.
        components = bundle.get("components", {})
        pulled = sum(len(v) for v in components.values()) - sum(
            len(v) for v in source.get("components", {}).values()
        )
        reached = schema_targets(corpus, path)
        # The deprecated v0.9 API keeps every part in itself: its bundle pulls nothing in.
        assert (pulled > 0 if reached else pulled == 0) and pulled <= len(reached)
    # The seeded defects of the source are the bundle's. The validators see more of the bundle:
    # a pulled-in schema's `default` is judged there (value-invalid judges it in the source), and
    # nothing else is new (a bundle that broke something would have more).
    out = tmp_path / "out"
    write_files(out, {p: result.files[result.api_outputs[p]] for p in result.api_outputs})
    rules = ("--rule", "openapi-invalid", "--rule", "asyncapi-invalid", "--format", "json")
    bundled = json.loads(cli("check", str(out), *rules, "--no-cache").stdout)
    original = json.loads(cli("check", str(root), *rules, "--no-cache").stdout)
    before = {f["message"] for f in original["findings"]}
    after = {f["message"] for f in bundled["findings"]}
    assert before and before <= after
    assert all(m.startswith("/components/schemas/") for m in after - before), after - before


def media_schemas(document: dict[str, Any]) -> list[str]:
    """The JSON pointer of every request and response media schema of an OpenAPI document."""
    pointers = []
    for path, item in document["paths"].items():
        escaped = path.replace("~", "~0").replace("/", "~1")
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            bodies = [("requestBody", operation.get("requestBody", {}))]
            bodies += [
                (f"responses/{code}", response)
                for code, response in operation.get("responses", {}).items()
            ]
            for where, body in bodies:
                for media in body.get("content", {}):
                    if "schema" in body["content"][media]:
                        media_escaped = media.replace("~", "~0").replace("/", "~1")
                        pointers.append(
                            f"/paths/{escaped}/{method}/{where}/content/{media_escaped}/schema"
                        )
    return pointers


@pytest.mark.parametrize("corpus_name", ["clean", "bundled"])
def test_generated_instances_get_the_same_verdict_from_source_and_bundle(
    tmp_path: Path, corpus_name: str
) -> None:
    root = (
        write_files(tmp_path / "spec", CLEAN)
        if corpus_name == "clean"
        else bundled_corpus_copy(tmp_path)
    )
    corpus = load(root)
    bundle = build(corpus).api_bundles["api/openapi.yaml"]
    source_registry: Registry[Any] = metaschema_registry().combine(corpus.references.registry)
    alone: Registry[Any] = metaschema_registry().with_resource(
        "urn:speclint:bundle", Resource.from_contents(bundle, default_specification=DRAFT202012)
    )
    pairs = []
    for pointer in media_schemas(bundle):
        uri = f"{file_uri('api/openapi.yaml')}#{pointer}"
        pairs.append(
            (
                pointer,
                Draft202012Validator({"$ref": uri}, registry=source_registry),
                Draft202012Validator({"$ref": f"urn:speclint:bundle#{pointer}"}, registry=alone),
            )
        )
    assert pairs
    vocabulary = [d.data for d in corpus.documents.values() if isinstance(d.data, dict)]
    tally = {"valid": 0, "invalid": 0}

    # Valid instances of each shape too (random values rarely meet a pattern and a `required`),
    # and variations of them.
    known = [
        {"id": "a-1"},
        {"id": "root", "children": [{"id": "leaf"}, {"id": "Leaf"}]},
        {"code": "bad"},
        {"code": "gone", "detail": "moved"},
        {"code": 409, "retryable": True},
    ]
    generated = st.one_of(
        instances(vocabulary),
        st.sampled_from(known),
        st.tuples(st.sampled_from(known), instances(vocabulary)).map(
            lambda pair: {**pair[0], "extra": pair[1]}
        ),
    )

    # A hundred instances meet both verdicts on every pair (the tally below), in half the time
    # of two hundred.
    @settings(
        max_examples=100,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(instance=generated)
    def same_verdict(instance: Any) -> None:
        for pointer, source, bundled in pairs:
            expected = errors(source, instance)
            assert errors(bundled, instance) == expected, (pointer, instance)
            tally["invalid" if expected else "valid"] += 1

    same_verdict()
    assert tally["valid"] > 0 and tally["invalid"] > 0, tally


def test_dereference_inlines_everything_and_refuses_recursion(tmp_path: Path) -> None:
    flat = {
        **CLEAN,
        "schemas/node.schema.json": schema(
            title="Node", type="object", properties={"id": {"$ref": "common.schema.json#/$defs/Id"}}
        ),
    }
    root = write_files(tmp_path / "flat", flat)
    corpus = load(root)
    inlined = dereference(bundle_api(corpus, corpus.documents["api/openapi.yaml"]).tree)
    assert "$ref" not in json.dumps(inlined)
    schema_at = inlined["paths"]["/nodes/{nodeId}"]["get"]["responses"]["200"]["content"]
    assert schema_at["application/json"]["schema"]["properties"]["id"]["pattern"] == "^[a-z0-9-]+$"

    recursive = load(write_files(tmp_path / "recursive", CLEAN))
    built = bundle_api(recursive, recursive.documents["api/openapi.yaml"])
    with pytest.raises(BundleError, match="recursive: #/components/schemas/Node"):
        dereference(built.tree)
    done = cli("build", str(tmp_path / "recursive"), "--dereference")
    assert done.returncode == 1  # the other outputs are written; the document is not
    assert (tmp_path / "recursive/build/catalog.json").is_file()
    assert "not built: api/openapi.yaml: recursive" in done.stderr


def test_check_fails_after_an_edit_of_a_referenced_schema_and_a_rebuild_fixes_it(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "spec", CLEAN)
    assert cli("build", str(root)).returncode == 0
    written = YAML(typ="safe", pure=True).load((root / "build/api/openapi.yaml").read_text())
    assert written["components"]["schemas"]["Error"]["properties"]["code"]["enum"] == [
        "bad",
        "gone",
    ]
    assert cli("build", str(root), "--check").returncode == 0
    error = root / "schemas/error.schema.json"
    error.write_text(error.read_text().replace('"gone"', '"gone",\n        "late"'))
    stale = cli("build", str(root), "--check")
    assert stale.returncode == 1
    assert "build/api/openapi.yaml: stale" in stale.stdout
    assert cli("build", str(root)).returncode == 0
    assert cli("build", str(root), "--check").returncode == 0


def test_a_document_that_cannot_be_bundled_is_not_built_and_fails_the_check(
    tmp_path: Path,
) -> None:
    root = write_files(
        tmp_path / "spec",
        {**CLEAN, "api/openapi.yaml": CLEAN["api/openapi.yaml"].replace("v2/error", "v3/error")},
    )
    assert cli("build", str(root)).returncode == 1  # like --check
    checked = cli("build", str(root), "--check")
    assert checked.returncode == 1
    assert "not built: api/openapi.yaml: `../schemas/v3/error.schema.json`" in checked.stderr
    assert "could not be bundled (api/openapi.yaml)" in checked.stderr


# A split OpenAPI document: the root lists its paths, each path item kept in a file of its own
# that references a schema file and a shared parameter.
SPLIT = {
    "api/openapi.yaml": """\
openapi: {version}
info: {{title: Runs, version: '1'}}
paths:
  /runs:
    $ref: paths/runs.yaml
  /runs/{{runId}}:
    $ref: paths/run.yaml
components:
  schemas:
    Problem: {{type: object}}
""",
    "api/paths/runs.yaml": """\
post:
  operationId: createRun
  requestBody:
    content:
      application/json:
        schema: {$ref: ../schemas/run-request.yaml}
  responses:
    '201':
      description: created
      content:
        application/json:
          schema: {$ref: ../schemas/run.yaml}
""",
    "api/paths/run.yaml": """\
parameters:
  - {$ref: ../common/parameters.yaml#/runId}
get:
  operationId: getRun
  responses:
    '200':
      description: the run
      content:
        application/json:
          schema: {$ref: ../schemas/run.yaml}
    default:
      description: a problem
      content:
        application/json:
          schema: {$ref: '../openapi.yaml#/components/schemas/Problem'}
""",
    "api/common/parameters.yaml": """\
runId: {name: runId, in: path, required: true, schema: {type: string}}
""",
    "api/schemas/run-request.yaml": """\
type: object
properties:
  name: {type: string}
""",
    "api/schemas/run.yaml": """\
type: object
properties:
  id: {type: string}
  status: {enum: [queued, done]}
""",
}


def split_api(tmp_path: Path, version: str) -> Path:
    files = {**SPLIT, "api/openapi.yaml": SPLIT["api/openapi.yaml"].format(version=version)}
    return write_files(tmp_path / "spec", files)


def test_an_openapi_30_bundle_writes_its_path_items_in_place(tmp_path: Path) -> None:
    """OpenAPI 3.0's Components Object has no `pathItems` (3.0.3 §4.7.7): a path item kept in
    another file is written under `paths`, as `redocly bundle` does, and the bundle validates."""

    corpus = load(split_api(tmp_path, "3.0.3"))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    validate(built)  # openapi-spec-validator, the OpenAPI 3.0 schema
    assert list(external_refs(built)) == []
    assert "pathItems" not in built["components"]
    item = built["paths"]["/runs/{runId}"]
    assert item["get"]["operationId"] == "getRun"
    assert item["parameters"] == [{"$ref": "#/components/parameters/runId"}]
    assert item["get"]["responses"]["default"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Problem"
    }
    assert built["paths"]["/runs"]["post"]["operationId"] == "createRun"


def test_an_openapi_31_bundle_keeps_path_items_as_components(tmp_path: Path) -> None:

    corpus = load(split_api(tmp_path, "3.1.0"))
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    validate(built)  # openapi-spec-validator, the OpenAPI 3.1 schema
    assert list(external_refs(built)) == []
    assert built["paths"]["/runs/{runId}"] == {"$ref": "#/components/pathItems/run"}
    assert built["components"]["pathItems"]["run"]["get"]["operationId"] == "getRun"


def test_a_pointer_into_an_openapi_30_path_item_points_where_it_is_written(
    tmp_path: Path,
) -> None:

    root = split_api(tmp_path, "3.0.3")
    # A second route that reuses the first one's response through its file.
    write_files(
        root,
        {
            "api/paths/latest.yaml": """\
get:
  operationId: latestRun
  responses:
    '200': {$ref: 'run.yaml#/get/responses/200'}
""",
            "api/openapi.yaml": (root / "api/openapi.yaml")
            .read_text()
            .replace("components:", "  /runs/latest:\n    $ref: paths/latest.yaml\ncomponents:"),
        },
    )
    corpus = load(root)
    built = bundle_api(corpus, corpus.documents["api/openapi.yaml"]).plain()
    validate(built)
    assert list(external_refs(built)) == []
    response = built["paths"]["/runs/latest"]["get"]["responses"]["200"]
    assert response == {"$ref": "#/paths/~1runs~1{runId}/get/responses/200"}


def test_asyncapi_2_traits_and_bindings_take_their_own_component_kinds(tmp_path: Path) -> None:
    """An operation's traits are operation traits, a message's are message traits; a channel's
    bindings are channel bindings (AsyncAPI 2.6.0 "Components Object")."""
    root = write_files(
        tmp_path / "spec",
        {
            "api/asyncapi.yaml": """\
asyncapi: 2.6.0
info: {title: Events, version: '1'}
channels:
  runs:
    bindings: {$ref: 'common.yaml#/channelBindings'}
    subscribe:
      traits:
        - $ref: 'common.yaml#/operationTrait'
      message:
        traits:
          - $ref: 'common.yaml#/messageTrait'
        payload: {type: string}
""",
            "api/common.yaml": """\
channelBindings: {ws: {method: GET}}
operationTrait: {description: traced}
messageTrait: {contentType: application/json}
""",
        },
    )
    corpus = load(root)
    built = bundle_api(corpus, corpus.documents["api/asyncapi.yaml"]).plain()
    assert set(built["components"]) == {"channelBindings", "operationTraits", "messageTraits"}
    operation = built["channels"]["runs"]["subscribe"]
    assert operation["traits"] == [{"$ref": "#/components/operationTraits/operationTrait"}]
    out = tmp_path / "out"
    write_files(
        out,
        {
            "asyncapi.yaml": render_bundle(
                bundle_api(corpus, corpus.documents["api/asyncapi.yaml"]), "yaml"
            )[1]
        },
    )
    checked = cli("check", str(out), "--rule", "asyncapi-invalid", "--no-cache")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_api_document_that_stops_parsing_is_not_built_and_never_up_to_date(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "spec", CLEAN)
    assert cli("build", str(root)).returncode == 0
    source = root / "api/openapi.yaml"
    source.write_text(source.read_text().replace("paths:", "paths: [", 1))
    for command in (("build", str(root), "--check"), ("build", str(root))) * 2:
        ran = cli(*command)
        assert ran.returncode == 1, command
        assert "not built: api/openapi.yaml: does not parse (line" in ran.stderr
        assert "could not be bundled (api/openapi.yaml)" in ran.stderr
        assert "up to date" not in ran.stdout
