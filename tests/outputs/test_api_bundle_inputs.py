"""API bundles of inputs that a second reading, or a `$ref` to a file of another format, once
broke (issue 47): the corpus's parse decides what a file is, and the rest is still built."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_spec_validator import validate
from ruamel.yaml import YAML

# What `speclint build` writes and prints is the question, not a process: it runs in process.
from conftest import cli_in_process as cli
from conftest import write_files

API = """\
openapi: 3.0.3
info:
  title: Runs
  version: '1'
  description: {description}
paths:
  /runs:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {{$ref: run.json}}
"""


def read_yaml(path: Path) -> object:
    return json.loads(json.dumps(YAML(typ="safe").load(path.read_text())))


def test_a_file_the_corpus_reads_and_the_round_trip_reader_does_not_is_still_bundled(
    tmp_path: Path,
) -> None:
    # libyaml (the corpus's reader) takes a tab after `key:`; ruamel's round-trip scanner does
    # not; a JSON file with a byte order mark is read by the corpus, not by json.loads.
    root = write_files(
        tmp_path / "spec",
        {"api.yaml": API.format(description="\tTabbed"), "run.json": '{"type": "object"}'},
    )
    (root / "other.json").write_bytes(
        b'\xef\xbb\xbf{"openapi": "3.0.3", "info": {"title": "b", "version": "1"}, "paths": {}}'
    )
    out = tmp_path / "out"
    ran = cli("build", str(root), "-o", str(out))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "internal error" not in ran.stderr
    assert "api.yaml: its comments are not kept" in ran.stderr
    assert "(line 5, column 16)" in ran.stderr
    built = read_yaml(out / "api.yaml")
    validate(built)
    assert built["info"]["description"] == "Tabbed"
    assert built["components"]["schemas"]["run"] == {"type": "object"}
    validate(json.loads((out / "other.json").read_text()))


# An OpenAPI 3.1 document whose extensions take the text of files that are not JSON or YAML:
# a Redocly code sample in a path item kept in a file of its own, and a topic in Markdown.
TEXTS = {
    "api/openapi.yaml": """\
openapi: 3.1.0
info: {title: Runs, version: '1'}
x-topics:
  - title: Getting started
    content: {$ref: docs/start.md}
paths:
  /runs:
    $ref: paths/runs.yaml
""",
    "api/paths/runs.yaml": """\
get:
  responses:
    '200': {description: ok}
  x-codeSamples:
    - lang: C#
      source: {$ref: ../samples/get.cs}
""",
    "api/docs/start.md": "# Start\n\nBook a run.\n",
    "api/samples/get.cs": "using System;\n\nclass Program {}\n",
}


def test_a_ref_to_a_text_file_under_an_extension_is_written_as_its_text(tmp_path: Path) -> None:
    root = write_files(tmp_path / "spec", TEXTS)
    out = tmp_path / "out"
    ran = cli("build", str(root), "-o", str(out))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    built = read_yaml(out / "api/openapi.yaml")
    validate(built)
    assert built["x-topics"][0]["content"] == TEXTS["api/docs/start.md"]
    assert built["paths"]["/runs"] == {"$ref": "#/components/pathItems/runs"}
    sample = built["components"]["pathItems"]["runs"]["get"]["x-codeSamples"][0]
    assert sample == {"lang": "C#", "source": TEXTS["api/samples/get.cs"]}
    assert "|" in (out / "api/openapi.yaml").read_text()  # a block, as the file is written


def test_a_ref_to_a_text_file_elsewhere_or_out_of_the_root_is_not_built(tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("not the repository's\n")
    cases = {
        "description": ("x-topics:\n", "description: {$ref: docs/start.md}\nx-topics:\n"),
        "fragment": ("docs/start.md}", "docs/start.md#/Start}"),
        "link": ("docs/start.md}", "docs/link.md}"),
    }
    for name, (old, new) in cases.items():
        root = write_files(
            tmp_path / name,
            {**TEXTS, "api/openapi.yaml": TEXTS["api/openapi.yaml"].replace(old, new)},
        )
        (root / "api/docs/link.md").symlink_to(outside)
        ran = cli("build", str(root), "-o", str(tmp_path / f"{name}-out"))
        assert ran.returncode == 1, name
        assert "not built: api/openapi.yaml: " in ran.stderr, name
        assert "not the repository's" not in ran.stdout + ran.stderr
        assert not (tmp_path / f"{name}-out" / "api/openapi.yaml").exists(), name
    assert (
        "only an extension (`x-...`) or a payload"
        in cli("build", str(tmp_path / "description"), "-o", str(tmp_path / "d2")).stderr
    )


PROTO_PAYLOAD = {
    "events.yaml": """\
asyncapi: 3.0.0
info: {title: Events, version: '1'}
channels:
  runs:
    address: runs
    messages:
      started:
        payload:
          schemaFormat: application/vnd.google.protobuf;version=3
          schema: {$ref: run.proto}
      stopped:
        payload:
          schemaFormat: application/schema+json;version=draft-07
          schema: {$ref: stopped.json}
""",
    "run.proto": 'syntax = "proto3";\n\nmessage Run { string id = 1; }\n',
    "stopped.json": '{"type": "object"}',
}


def test_a_payload_in_a_format_that_is_not_json_schema_takes_the_file_text(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "spec", PROTO_PAYLOAD)
    out = tmp_path / "out"
    ran = cli("build", str(root), "-o", str(out))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    built = read_yaml(out / "events.yaml")
    messages = built["channels"]["runs"]["messages"]
    assert messages["started"]["payload"]["schema"] == PROTO_PAYLOAD["run.proto"]
    assert messages["stopped"]["payload"]["schema"] == {"$ref": "#/components/schemas/stopped"}
    checked = cli("check", str(out), "--rule", "asyncapi-invalid", "--no-cache")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The same text as a JSON Schema payload is no schema: not built, with the reason.
    json_schema = PROTO_PAYLOAD["events.yaml"].replace(
        "vnd.google.protobuf;version=3", "schema+json;version=draft-07", 1
    )
    root = write_files(tmp_path / "json", {**PROTO_PAYLOAD, "events.yaml": json_schema})
    ran = cli("build", str(root), "-o", str(tmp_path / "json-out"))
    assert ran.returncode == 1
    assert "`run.proto` at events.yaml#/channels/runs/messages/started/payload/schema" in ran.stderr


def test_a_document_that_stops_parsing_keeps_its_last_bundle(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec",
        {"api.yaml": API.format(description="Runs"), "run.json": '{"type": "object"}'},
    )
    out = tmp_path / "out"
    assert cli("build", str(root), "-o", str(out)).returncode == 0
    published = (out / "api.yaml").read_bytes()
    manifest = json.loads((out / ".speclint-build.json").read_text())["files"]
    assert "api.yaml" in manifest
    source = root / "api.yaml"
    source.write_text(source.read_text().replace("paths:", "paths: [", 1))
    for _ in range(2):  # and again: the kept entry keeps it kept
        ran = cli("build", str(root), "-o", str(out))
        assert ran.returncode == 1
        assert "not built: api.yaml: does not parse (line" in ran.stderr
        assert f"kept {out}/api.yaml as the last build wrote it" in ran.stderr
        assert (out / "api.yaml").read_bytes() == published
        after = json.loads((out / ".speclint-build.json").read_text())["files"]
        assert after["api.yaml"] == manifest["api.yaml"]
        checked = cli("build", str(root), "-o", str(out), "--check")
        assert checked.returncode == 1
        assert "api.yaml: extra" not in checked.stdout
    # Fixed, it is built again; removed, its bundle goes.
    source.write_text(API.format(description="Runs, again"))
    assert cli("build", str(root), "-o", str(out)).returncode == 0
    assert b"Runs, again" in (out / "api.yaml").read_bytes()
    source.unlink()
    assert cli("build", str(root), "-o", str(out)).returncode == 0
    assert not (out / "api.yaml").exists()


def test_an_openapi_30_bundle_drops_the_comments_of_the_schema_files_it_pulls_in(
    tmp_path: Path,
) -> None:
    # A JSON Schema file may hold `$comment`; a 3.0 Schema Object may not (3.0.3 §4.7.24), and
    # the bundle writes the file's schema inline, where the 3.0 schema judges it.
    run = {
        "$comment": "a note for readers",
        "type": "object",
        "properties": {
            "$comment": {"type": "string", "$comment": "a property so named stays"},
            "mode": {"enum": [{"$comment": "data stays"}]},
        },
        "x-notes": {"$comment": "an extension's content stays"},
    }
    root = write_files(
        tmp_path / "spec", {"api.yaml": API.format(description="Runs"), "run.json": json.dumps(run)}
    )
    out = tmp_path / "out"
    ran = cli("build", str(root), "-o", str(out))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    built = read_yaml(out / "api.yaml")
    validate(built)
    assert built["components"]["schemas"]["run"] == {
        "type": "object",
        "properties": {
            "$comment": {"type": "string"},
            "mode": {"enum": [{"$comment": "data stays"}]},
        },
        "x-notes": {"$comment": "an extension's content stays"},
    }
