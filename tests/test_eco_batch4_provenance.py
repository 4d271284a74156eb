"""Issue 45, ecosystem batch 4 at first read, provenance: a bundler's output named through a
script's variables is its source's bundle; two renderings of one deeply nested document compare
equal; two editions of one API are not drifted copies. Every fixture here is our own."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_provenance import findings

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import BUNDLE, COPY
from speclint.analyses.schemas.fingerprints import Equivalence, all_shapes
from speclint.parsing.shell import expanded

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# --- a script's variables ---------------------------------------------------------------------

FLATTEN_SCRIPT = yaml(
    """
    #!/usr/bin/env bash
    set -e
    here=$(realpath "$0")
    toolsDir=$(dirname "$here")
    top=$(realpath "$toolsDir/..")
    srcSpec=$(realpath "$top/src/garden.yml")
    outSpec=$(realpath -m "$top/garden.yml")
    echo swagger flatten "$srcSpec" -o "$outSpec" --format yaml
    swagger flatten "$srcSpec" -o "$outSpec" --format yaml
    """
)


def test_a_scripts_path_variables_are_written_out() -> None:
    lines = expanded("tools/build.sh", FLATTEN_SCRIPT.splitlines())
    assert lines[-1] == 'swagger flatten "../src/garden.yml" -o "../garden.yml" --format yaml'
    assert len(lines) == len(FLATTEN_SCRIPT.splitlines())  # line numbers kept


def test_other_roots_of_a_script_are_read_too() -> None:
    script = [
        'root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"',
        "out=build/api.yaml",
        'redocly bundle "$root/spec/api.yaml" -o "$out"',
    ]
    assert (
        expanded("scripts/b.sh", script)[-1]
        == 'redocly bundle "../spec/api.yaml" -o "build/api.yaml"'
    )


def test_what_cannot_be_resolved_stays_a_variable() -> None:
    script = [
        "out=$(mktemp)",  # a command's output
        'far="$(dirname "$0")/../../.."',  # out of the root
        'late="$UNSET/api.yaml"',  # an unknown variable
        "CI=true make all",  # a command's own environment, not an assignment
        "bundle -o $out $far $late $CI",
    ]
    assert expanded("a/b.sh", script)[-1] == "bundle -o $out $far $late $CI"


BUNDLE_SCRIPT = FLATTEN_SCRIPT.replace("swagger flatten", "redocly bundle").replace(
    " --format yaml", ""
)
GARDEN_SOURCE = yaml(
    """
    openapi: 3.0.3
    info: {title: Garden, version: 1.0.0}
    paths:
      /beds:
        $ref: paths/beds.yml
      /tools:
        get:
          responses:
            '200': {summary: the tools}
    """
)
BEDS = yaml(
    """
    get:
      responses:
        '200':
          description: the beds
          content:
            application/json:
              schema:
                type: object
                required: [rows]
                properties:
                  width: {type: number}
    """
)
# The bundle as a bundler may write it: not equal to the source once dereferenced (a schema
# hoisted and renamed, a tool's extension added), so only the command says it is a bundle.
GARDEN_FLAT = yaml(
    """
    openapi: 3.0.3
    info: {title: Garden, version: 1.0.0}
    paths:
      /beds:
        get:
          responses:
            '200':
              description: the beds
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/getBedsOKBody'}
      /tools:
        get:
          responses:
            '200': {summary: the tools}
    components:
      schemas:
        getBedsOKBody:
          type: object
          required: [rows]
          properties:
            width: {type: number, x-go-type: float64}
    """
)


@pytest.mark.parametrize("script", [FLATTEN_SCRIPT, BUNDLE_SCRIPT], ids=["flatten", "bundle"])
def test_a_bundlers_output_named_by_variables_is_its_sources_bundle(
    make_corpus: MakeCorpus, script: str
) -> None:
    root = make_corpus(
        {
            "tools/build.sh": script,
            "src/garden.yml": GARDEN_SOURCE,
            "src/paths/beds.yml": BEDS,
            "garden.yml": GARDEN_FLAT,
        }
    )
    made = Context.load(root).provenance["garden.yml"]
    assert made.kind == BUNDLE
    assert made.sources == ("src/garden.yml",)
    assert "tools/build.sh:9" in made.evidence  # the command itself, not its `echo`
    # The defect (a response without its description) is reported once, at the source.
    invalid = [f for f in findings(root) if f["rule"] == "openapi-invalid"]
    assert {f["location"]["path"] for f in invalid} == {"src/garden.yml"}


def test_a_generators_output_is_no_bundle(make_corpus: MakeCorpus) -> None:
    # `swagger generate` writes code from the document, not another document: no bundle.
    script = (
        'spec="$(dirname "$0")/garden.yml"\nswagger generate spec -i src/garden.yml -o "$spec"\n'
    )
    root = make_corpus(
        {"build.sh": script, "src/garden.yml": GARDEN_SOURCE, "src/paths/beds.yml": BEDS}
        | {"garden.yml": GARDEN_FLAT}
    )
    made = Context.load(root).provenance["garden.yml"]
    assert made.kind != BUNDLE


# --- two renderings of one deeply nested document ------------------------------------------------


def _nested(levels: int, bottom: str = "Leaf") -> dict[str, Any]:
    node: dict[str, Any] = {"$ref": f"#/components/schemas/{bottom}"}
    for level in range(levels):
        node = {"type": "object", "properties": {f"level{level}": node}}
    return node


def _deep_api(title: str, path: str) -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": title, "version": "1"},
        "paths": {path: {"get": {"responses": {"200": {"description": "ok"}}}}},
        "components": {
            "schemas": {
                "Deep": _nested(28),
                "Leaf": {"type": "object", "required": ["id"], "properties": {"id": {}}},
            }
        },
    }


def test_identical_deep_definitions_are_the_same_shape(make_corpus: MakeCorpus) -> None:
    # Two documents of one API define `Deep` alike, 28 levels down to a `$ref` each to its own
    # `Leaf`: the same definition however deep (the labels of the two `$ref`s carry each one's
    # path, so the comparison walks down to them).
    root = make_corpus(
        {
            "api/orders.json": json.dumps(_deep_api("Shop", "/orders"), indent=1),
            "api/stock.json": json.dumps(_deep_api("Shop", "/stock"), indent=1),
        }
    )
    shapes = all_shapes(Context.load(root))
    deep = [s for s in shapes if s.label.endswith("#/components/schemas/Deep")]
    assert len(deep) == 2
    assert Equivalence.of(shapes).shapes(*deep)
    # ... and two that differ at the bottom (a `$ref` to another definition) are not.
    different = _deep_api("Shop", "/orders")
    different["components"]["schemas"]["Deep"] = _nested(28, "Other")
    different["components"]["schemas"]["Other"] = {"type": "string"}
    root = make_corpus(
        {
            "api/orders.json": json.dumps(different, indent=1),
            "api/stock.json": json.dumps(_deep_api("Shop", "/stock"), indent=1),
        }
    )
    shapes = all_shapes(Context.load(root))
    deep = [s for s in shapes if s.label.endswith("#/components/schemas/Deep")]
    assert not Equivalence.of(shapes).shapes(*deep)


def test_a_json_rendering_is_not_paired_with_its_yaml(make_corpus: MakeCorpus) -> None:
    # The JSON rendering of a YAML document is its copy: its definitions are read at the YAML.
    document = _deep_api("Shop", "/orders")
    members = {"a": {"type": "string"}, "b": {"type": "string"}}
    document["components"]["schemas"]["Deep"] = {"required": ["a"], "properties": members}
    other = _deep_api("Shop", "/stock")
    other["components"]["schemas"]["Deep"] = {"required": ["b"], "properties": members}
    root = make_corpus(
        {
            "api/orders.yaml": json.dumps(document, indent=1),  # JSON is YAML
            "api/orders.json": json.dumps(document),
            "api/stock.yaml": json.dumps(other, indent=1),
        }
    )
    corpus = Context.load(root)
    assert corpus.provenance["api/orders.json"].kind == COPY
    found = run_rule(root, "copy-drift")
    assert len(found) == 1
    paths = {found[0].location.path, *(r.path for r in found[0].related)}
    assert paths == {"api/orders.yaml", "api/stock.yaml"}


def test_a_drifts_message_names_the_other_definition(make_corpus: MakeCorpus) -> None:
    # The finding is at one copy; its message names the other, not the finding's own place.
    def api(path: str, kind: str) -> str:
        document = _deep_api("Shop", path)
        document["components"]["schemas"]["Deep"] = {
            "type": "object",
            "required": ["age"],
            "properties": {"age": {"type": kind}, "name": {"type": "string"}},
        }
        return json.dumps(document, indent=1)

    root = make_corpus(
        {"api/orders.yaml": api("/orders", "integer")} | {"api/stock.yaml": api("/stock", "string")}
    )
    (found,) = run_rule(root, "copy-drift")
    here = found.location.path
    other = ({"api/orders.yaml", "api/stock.yaml"} - {here}).pop()
    assert f"`{other}#/components/schemas/Deep`" in found.message
    assert f"`{here}#" not in found.message


# --- two editions of one API ----------------------------------------------------------------------


def _kennel(kinds: list[str]) -> str:
    return json.dumps(
        {
            "openapi": "3.0.3",
            "info": {"title": "Kennel", "version": "1"},
            "paths": {},
            "components": {
                "schemas": {
                    "Dog": {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"enum": kinds}, "name": {"type": "string"}},
                    }
                }
            },
        },
        indent=1,
    )


@pytest.mark.parametrize(
    ("name", "reported"),
    [
        ("kennel_preview", False),
        ("beta-kennel", False),
        ("kennel.next", False),
        ("kennel_dogs", True),
        ("kennel-dev", True),
        ("kennel-public", True),
    ],
)
def test_a_preview_edition_is_not_a_drifted_copy(
    make_corpus: MakeCorpus, name: str, reported: bool
) -> None:
    # The preview edition adds a kind on purpose; a second file of the same API that is no
    # channel's (another part of it, a deployment, an audience's filtered edition) still drifts.
    root = make_corpus(
        {"api/kennel.json": _kennel(["hound"]), f"api/{name}.json": _kennel(["hound", "toy"])}
    )
    assert bool(run_rule(root, "copy-drift")) is reported


# --- a generated file and its own input -----------------------------------------------------------


def test_a_generators_output_is_not_paired_with_its_input(make_corpus: MakeCorpus) -> None:
    # `openapi.json` is written from `openapi.yaml` by the repository's own tool, which puts the
    # real schemas where the YAML has placeholders: the two differ by design.
    script = "#!/bin/sh\nnode fill.js ../openapi.yaml ../models.json > ../openapi.json\n"
    files: dict[str, str | bytes] = {
        "api/openapi.yaml": _kennel(["hound"]),
        "api/openapi.json": _kennel(["hound", "toy"]),
        "api/models.json": json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema"}),
    }
    assert run_rule(make_corpus(files), "copy-drift") != []  # no evidence: drift
    root = make_corpus({**files, "api/tools/fill.sh": script})
    assert Context.load(root).provenance["api/openapi.json"].inputs == (
        "api/openapi.yaml",
        "api/models.json",
    )
    assert run_rule(root, "copy-drift") == []
