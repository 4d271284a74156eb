"""Roles derived from how the API documents use each schema location."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

from conftest import schema
from speclint.analyses.context import Context
from speclint.model.config import load_config

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

OPENAPI = textwrap.dedent(
    """\
    openapi: 3.1.0
    info: {title: Runs, version: 1.0.0}
    paths:
      /v1/runs:
        post:
          operationId: createRun
          requestBody:
            content:
              application/json:
                schema: {$ref: '../schemas/run-request.schema.json'}
          responses:
            '201':
              description: created
              content:
                application/json:
                  schema: {$ref: '../schemas/run.schema.json'}
    """
)

SCHEMAS = {
    "schemas/run-request.schema.json": schema(
        properties={"options": {"$ref": "common.schema.json#/$defs/Options"}}
    ),
    "schemas/run.schema.json": schema(
        properties={"options": {"$ref": "common.schema.json#/$defs/Options"}}
    ),
    "schemas/common.schema.json": schema(
        **{"$defs": {"Options": {"type": "object"}, "Unused": {}}}
    ),
    "schemas/event.schema.json": schema(type="object"),
    "schemas/ack.schema.json": schema(type="object"),
}


def asyncapi(protocol: str) -> str:
    return textwrap.dedent(
        f"""\
        asyncapi: 3.0.0
        info: {{title: Events, version: 1.0.0}}
        servers:
          main: {{host: example.org, protocol: {protocol}}}
        channels:
          events:
            messages:
              event: {{payload: {{$ref: '../schemas/event.schema.json'}}}}
              ack: {{payload: {{$ref: '../schemas/ack.schema.json'}}}}
        operations:
          emitEvents:
            action: {"send" if protocol == "kafka" else "receive"}
            channel: {{$ref: '#/channels/events'}}
            messages: [{{$ref: '#/channels/events/messages/event'}}]
          takeAcks:
            action: {"receive" if protocol == "kafka" else "send"}
            channel: {{$ref: '#/channels/events'}}
            messages: [{{$ref: '#/channels/events/messages/ack'}}]
        """
    )


def test_openapi_roles_flow_through_refs(make_corpus: MakeCorpus) -> None:
    corpus = Context.load(make_corpus({**SCHEMAS, "api/openapi.yaml": OPENAPI}))
    roles = corpus.roles
    assert roles.roles_of("schemas/run-request.schema.json") == {"client-submitted"}
    assert roles.roles_of("schemas/run.schema.json") == {"server-emitted"}
    assert roles.roles_of("schemas/common.schema.json", "/$defs/Options") == {
        "client-submitted",
        "server-emitted",
    }
    assert roles.roles_of("schemas/common.schema.json", "/$defs/Unused") == set()
    [evidence] = [
        e
        for e in roles.evidence[("schemas/common.schema.json", "/$defs/Options")]
        if e.role.value == "client-submitted"
    ]
    assert evidence.chain[0] == "POST /v1/runs (createRun) request body"
    assert any("run-request.schema.json" in step for step in evidence.chain)


def test_asyncapi_perspective_is_inferred_from_the_server_protocol(make_corpus: MakeCorpus) -> None:
    for protocol in ("kafka", "https"):
        root = make_corpus({**SCHEMAS, "api/asyncapi.yaml": asyncapi(protocol)})
        roles = Context.load(root).roles
        assert roles.roles_of("schemas/event.schema.json") == {"server-emitted"}, protocol
        assert roles.roles_of("schemas/ack.schema.json") == {"client-submitted"}, protocol


def test_configured_perspective_and_role_overrides_win(make_corpus: MakeCorpus) -> None:
    root = make_corpus({**SCHEMAS, "api/asyncapi.yaml": asyncapi("kafka")})
    (root / "speclint.toml").write_text(
        'asyncapi-perspective = "client"\n[roles]\n"schemas/ack.schema.json" = "both"\n'
    )
    roles = Context.load(root, load_config(root)).roles
    assert roles.roles_of("schemas/event.schema.json") == {"client-submitted"}
    assert roles.roles_of("schemas/ack.schema.json") == {"client-submitted", "server-emitted"}


def test_a_schema_used_in_both_directions_is_both_and_every_schema_is_listed(
    make_corpus: MakeCorpus,
) -> None:
    corpus = Context.load(make_corpus({**SCHEMAS, "api/openapi.yaml": OPENAPI}))
    listing = {(e.path, e.pointer): e for e in corpus.roles.listing(corpus)}
    assert listing[("schemas/common.schema.json", "/$defs/Options")].role == "both"
    assert corpus.roles.role_name("schemas/common.schema.json", "/$defs/Options") == "both"
    # Every schema file has an entry, the unused ones say why they are unused.
    files = {p for p in SCHEMAS}
    assert files <= {path for path, pointer in listing if pointer == ""}
    unused = listing[("schemas/event.schema.json", "")]
    assert unused.role == "unused" and "no operation or message reaches it" in unused.evidence[0]
    common = listing[("schemas/common.schema.json", "")]
    assert common.role == "unused" and "1 location(s) inside it are used" in common.evidence[0]


def test_roles_propagate_around_a_ref_cycle_and_stop(make_corpus: MakeCorpus) -> None:
    cyclic = {
        "schemas/run-request.schema.json": schema(
            type="object", properties={"child": {"$ref": "node.schema.json"}}
        ),
        "schemas/node.schema.json": schema(
            type="object", properties={"parent": {"$ref": "tree.schema.json"}}
        ),
        "schemas/tree.schema.json": schema(
            type="object", properties={"node": {"$ref": "node.schema.json"}}
        ),
        "schemas/run.schema.json": schema(type="object"),
    }
    corpus = Context.load(make_corpus({**cyclic, "api/openapi.yaml": OPENAPI}))
    for path in ("schemas/node.schema.json", "schemas/tree.schema.json"):
        assert corpus.roles.roles_of(path) == {"client-submitted"}, path
        [evidence] = corpus.roles.evidence[(path, "")]
        assert evidence.chain[0] == "POST /v1/runs (createRun) request body"


def test_roles_command_prints_every_location_with_evidence_and_a_tally(
    make_corpus: MakeCorpus,
) -> None:
    from conftest import run_cli

    root = make_corpus({**SCHEMAS, "api/openapi.yaml": OPENAPI})
    result = run_cli("roles", str(root))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    at = lines.index("schemas/run-request.schema.json#/: client-submitted")
    assert lines[at + 1].strip() == "client-submitted: POST /v1/runs (createRun) request body"
    assert "schemas/event.schema.json#/: unused" in lines
    assert lines[-1].startswith("speclint: ") and "1 both" in lines[-1] and "unused" in lines[-1]


# A split OpenAPI document: the root names each path item's file; the path items reference the
# schema files (the layout Redocly recommends).
SPLIT_ROOT = textwrap.dedent(
    """\
    openapi: 3.1.0
    info: {title: Runs, version: 1.0.0}
    paths:
      /v1/runs:
        $ref: paths/runs.yaml
      /v1/runs/{runId}:
        $ref: '#/components/pathItems/Run'
    components:
      pathItems:
        Run:
          $ref: paths/run.yaml
    """
)
RUNS_PATH_ITEM = textwrap.dedent(
    """\
    post:
      operationId: createRun
      requestBody:
        content:
          application/json:
            schema: {$ref: '../../schemas/run-request.schema.json'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '../../schemas/run.schema.json'}
    """
)
RUN_PATH_ITEM = textwrap.dedent(
    """\
    get:
      operationId: getRun
      responses:
        '200':
          description: the run
          content:
            application/json:
              schema: {$ref: '../../schemas/event.schema.json'}
    """
)


def test_path_items_kept_in_files_of_their_own_give_roles(make_corpus: MakeCorpus) -> None:
    corpus = Context.load(
        make_corpus(
            {
                **SCHEMAS,
                "api/openapi.yaml": SPLIT_ROOT,
                "api/paths/runs.yaml": RUNS_PATH_ITEM,
                "api/paths/run.yaml": RUN_PATH_ITEM,
            }
        )
    )
    roles = corpus.roles
    assert roles.roles_of("schemas/run-request.schema.json") == {"client-submitted"}
    assert roles.roles_of("schemas/run.schema.json") == {"server-emitted"}
    # Through `#/components/pathItems/Run` to the file it names.
    assert roles.roles_of("schemas/event.schema.json") == {"server-emitted"}
    assert roles.roles_of("schemas/common.schema.json", "/$defs/Options") == {
        "client-submitted",
        "server-emitted",
    }
    [evidence] = roles.evidence[("schemas/run-request.schema.json", "")]
    assert evidence.chain[0] == "POST /v1/runs (createRun) request body"
    assert evidence.chain[1] == "path item /v1/runs in api/paths/runs.yaml#/"
