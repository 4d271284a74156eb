"""API bundles of inputs that a second reading, or a `$ref` to a file of another format, once
broke (issue 47): the corpus's parse decides what a file is, and the rest is still built."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_spec_validator import validate
from ruamel.yaml import YAML
from test_cli import cli

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
