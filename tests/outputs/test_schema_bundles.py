"""speclint build's schema bundles on what real repositories hold (issue 47): every draft bundled
in its own draft, invalid schemas never embedded, a `$ref` into an API document built, and the
reasons a schema is not built said, with an exit code a CI notices."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema.validators import validator_for
from referencing import Registry
from test_cli import cli

from conftest import write_files
from speclint.analyses.context import Context
from speclint.analyses.schemas.references import file_uri
from speclint.analyses.schemas.validation import metaschema_registry
from speclint.model.config import load_config
from speclint.outputs.build import CATALOG, BuildResult, build

DRAFTS = {
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
}


def built(root: Path) -> tuple[Context, BuildResult]:
    corpus = Context.load(root, load_config(root))
    return corpus, build(corpus)


def metaschema_valid(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    """check-jsonschema's verdict on the files as schemas (the tool a user checks bundles with)."""
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--check-metaschema", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def same_verdicts(corpus: Context, result: BuildResult, path: str, instances: list[Any]) -> None:
    """The bundle alone gives each instance the errors its source gives with the corpus around
    it; both verdicts occur."""
    source = corpus.documents[path].data
    registry: Registry[Any] = metaschema_registry().combine(corpus.references.registry)
    # The source as the corpus holds it, at its file's URI: its relative refs resolve from there.
    at_its_place = {"$schema": source["$schema"], "$ref": file_uri(path)}
    original = validator_for(source)(at_its_place, registry=registry)
    bundled = result.bundles[path]
    alone = validator_for(bundled)(bundled, registry=metaschema_registry())
    verdicts = []
    for instance in instances:
        expected = sorted(e.message for e in original.iter_errors(instance))
        assert sorted(e.message for e in alone.iter_errors(instance)) == expected, instance
        verdicts.append(not expected)
    assert True in verdicts and False in verdicts


def draft_corpus(draft: str) -> dict[str, str]:
    """A compound schema of ``draft`` over three files, as such repositories write them: a file
    path `$ref` into another file's `definitions`, a file that is only a `$ref` with `definitions`
    beside it and an `$id` of its own, and that file's `$ref`s by its `$id`."""
    dialect = DRAFTS[draft]
    plain_id = "id" if draft == "draft-04" else "$id"
    order = {
        "$schema": dialect,
        "type": "object",
        "required": ["line", "total"],
        "properties": {
            "line": {"$ref": "line.schema.json"},
            "total": {"$ref": "common.schema.json#/definitions/amount"},
            "sku": {"$ref": "defs.schema.json#/definitions/sku"},
            "note": {"$ref": "#/definitions/note"},
        },
        "definitions": {"note": {"type": "string", "maxLength": 5}},
    }
    line = {
        "$schema": dialect,
        plain_id: "https://example.org/schemas/line.json",
        "$ref": "#/definitions/line",
        "definitions": {
            "line": {
                "type": "object",
                "required": ["sku"],
                "properties": {
                    "sku": {"type": "string", "minLength": 3},
                    "count": {"$ref": "https://example.org/schemas/common.json#/definitions/count"},
                    "price": {
                        "$ref": "https://example.org/schemas/common.json#/definitions/amount"
                    },
                },
            }
        },
    }
    common = {
        "$schema": dialect,
        plain_id: "https://example.org/schemas/common.json",
        "definitions": {
            "amount": {"type": "number", "minimum": 0},
            "count": {"$ref": "#/definitions/amount", "multipleOf": 1},  # ignored beside `$ref`
        },
    }
    defs = {  # no identifier: known by its path, embedded by it
        "$schema": dialect,
        "definitions": {"sku": {"$ref": "#/definitions/code"}, "code": {"pattern": "^[a-z]+$"}},
    }
    return {
        "schemas/defs.schema.json": json.dumps(defs, indent=2),
        "schemas/order.schema.json": json.dumps(order, indent=2),
        "schemas/line.schema.json": json.dumps(line, indent=2),
        "schemas/common.schema.json": json.dumps(common, indent=2),
    }


ORDERS = [
    {"line": {"sku": "abc", "price": 2, "count": 1.5}, "total": 2, "sku": "abc"},
    {"line": {"sku": "abc", "count": -1}, "total": 2},
    {"line": {"sku": "abc"}, "total": 2, "sku": "ABC"},
    {"line": {"sku": "abc", "price": -1}, "total": 2},
    {"line": {"sku": "ab"}, "total": 2},
    {"line": {"sku": "abc"}, "total": -3},
    {"line": {"sku": "abc"}, "total": 1, "note": "too long"},
    {"line": {"sku": "abcd"}, "total": 0, "note": "ok"},
    {"total": 1},
]


@pytest.mark.parametrize("draft", sorted(DRAFTS))
def test_a_draft_04_to_07_schema_with_refs_to_other_files_is_bundled_in_its_own_draft(
    tmp_path: Path, draft: str
) -> None:
    root = write_files(tmp_path / "spec", draft_corpus(draft))
    corpus, result = built(root)
    assert not [p for p in result.problems if p.fatal], result.problems
    bundle = result.bundles["schemas/order.schema.json"]
    # Its draft's container and identifier: `$defs` is no keyword before 2019-09.
    assert bundle["$schema"] == DRAFTS[draft] and "$defs" not in bundle
    embedded = bundle["definitions"]
    assert set(embedded) == {
        "note",
        "schemas/defs.schema.json",
        "https://example.org/schemas/line.json",
        "https://example.org/schemas/common.json",
    }
    assert bundle["properties"]["line"] == {"$ref": "https://example.org/schemas/line.json"}
    assert bundle["properties"]["sku"] == {
        "$ref": "#/definitions/schemas~1defs.schema.json/definitions/sku"
    }
    assert all("$schema" not in schema for schema in embedded.values())  # only at the root
    # draft-04 to -07 ignore an `$id` beside a `$ref` (draft-07 Core §8.3): the `$ref` moves into
    # an `allOf` of one, so that the identifier names the embedded schema.
    line = embedded["https://example.org/schemas/line.json"]
    assert line["id" if draft == "draft-04" else "$id"] == "https://example.org/schemas/line.json"
    assert line["allOf"] == [{"$ref": "#/definitions/line"}] and "$ref" not in line
    same_verdicts(corpus, result, "schemas/order.schema.json", ORDERS)

    output = tmp_path / "out"
    run = cli("build", str(root), "-o", str(output))
    assert run.returncode == 0, run.stderr
    bundles = sorted((output / "schemas").glob("*.json"))
    assert len(bundles) == 4
    checked = metaschema_valid(bundles)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_root_that_is_only_a_ref_keeps_the_id_its_bundle_resolves_by(tmp_path: Path) -> None:
    """draft-07 ignores the root's `$id` beside its `$ref`: a bundle that embeds something moves
    the `$ref` into an `allOf`, or its refs would resolve from wherever the file is read."""
    files = draft_corpus("draft-07")
    order = json.loads(files["schemas/order.schema.json"])
    order = {
        "$schema": order["$schema"],
        "$id": "https://example.org/schemas/order.json",
        "$ref": "#/definitions/order",
        "type": "string",  # ignored beside the `$ref`, and left out of the bundle
        "definitions": {**order.pop("definitions"), "order": order},
    }
    del order["definitions"]["order"]["$schema"]
    order["definitions"]["order"]["properties"]["line"] = {"$ref": "line.json"}
    files["schemas/order.schema.json"] = json.dumps(order)
    root = write_files(tmp_path / "spec", files)
    _, result = built(root)
    bundle = result.bundles["schemas/order.schema.json"]
    assert bundle["$id"] == "https://example.org/schemas/order.json" and "type" not in bundle
    assert bundle["allOf"] == [{"$ref": "#/definitions/order"}]
    alone = validator_for(bundle)(bundle, registry=metaschema_registry())
    assert alone.is_valid({"line": {"sku": "abc"}, "total": 1})
    assert not alone.is_valid({"line": {"sku": "ab"}, "total": 1})


def schema07(**body: Any) -> str:
    return json.dumps({"$schema": DRAFTS["draft-07"], **body})


def test_a_schema_check_calls_invalid_is_never_embedded_and_the_build_fails(
    tmp_path: Path,
) -> None:
    root = write_files(
        tmp_path / "spec",
        {
            "a.schema.json": schema07(properties={"b": {"$ref": "b.schema.json"}}),
            "b.schema.json": schema07(type="object", required="id"),  # not an array
        },
    )
    _, result = built(root)
    assert "a.schema.json" not in result.bundles and "b.schema.json" not in result.bundles
    said = [p.message for p in result.problems if p.path == "a.schema.json" and p.fatal]
    assert said and "b.schema.json, which is not a valid schema" in said[0]
    assert "schema-invalid" in said[0]

    run = cli("build", str(root))
    assert run.returncode == 1
    assert "not built: a.schema.json" in run.stderr and "2 schema(s) could not be bundled" in (
        run.stderr
    )
    check = cli("build", str(root), "--check")
    assert check.returncode == 1 and "are up to date" not in check.stdout  # written, not built
    assert "which lacks 2 document(s) it could not bundle" in check.stdout


def test_an_invalid_schema_without_dialect_is_not_built(tmp_path: Path) -> None:
    """Read as check reads it (2020-12): a `required` string is invalid there too."""
    root = write_files(tmp_path / "spec", {"a.schema.json": json.dumps({"required": "id"})})
    _, result = built(root)
    assert "a.schema.json" not in result.bundles
    assert any(p.fatal and "not a valid schema" in p.message for p in result.problems)


def test_a_null_subschema_is_said_and_never_a_crash(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec",
        {
            "a.schema.json": schema07(properties={"x": None}),
            "b.schema.json": schema07(properties={"a": {"$ref": "a.schema.json"}}),
        },
    )
    run = cli("build", str(root), "--debug")
    assert run.returncode == 1, run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert "not built: a.schema.json: cannot be bundled: it is not a valid schema" in run.stderr
    assert "not built: b.schema.json" in run.stderr


def openapi_31(schemas: dict[str, Any]) -> str:
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "Pets", "version": "1"},
            "paths": {},
            "components": {"schemas": schemas},
        }
    )


def test_a_schema_ref_into_an_openapi_document_embeds_its_schema_object(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec",
        {
            "api/openapi.json": openapi_31(
                {
                    "Pet": {
                        "type": "object",
                        "required": ["tag"],
                        "properties": {"tag": {"$ref": "#/components/schemas/Tag"}},
                    },
                    "Tag": {"type": "string", "minLength": 2},
                }
            ),
            "schemas/adoption.schema.json": json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "properties": {"pet": {"$ref": "../api/openapi.json#/components/schemas/Pet"}},
                }
            ),
        },
    )
    corpus, result = built(root)
    assert not [p for p in result.problems if p.fatal], result.problems
    bundle = result.bundles["schemas/adoption.schema.json"]
    assert set(bundle["$defs"]) == {
        "api/openapi.json#/components/schemas/Pet",
        "api/openapi.json#/components/schemas/Tag",
    }
    instances = [{"pet": {"tag": "ab"}}, {"pet": {"tag": "a"}}, {"pet": {}}, {}]
    same_verdicts(corpus, result, "schemas/adoption.schema.json", instances)
    output = tmp_path / "out"
    assert cli("build", str(root), "-o", str(output)).returncode == 0
    checked = metaschema_valid([output / "schemas/adoption.schema.json"])
    assert checked.returncode == 0, checked.stdout


def test_a_ref_to_a_file_that_does_not_parse_says_so(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec",
        {
            "a.schema.json": schema07(properties={"b": {"$ref": "b.schema.json"}}),
            "b.schema.json": '{"$schema": "http://json-schema.org/draft-07/schema#",\n  "type": }\n',
        },
    )
    _, result = built(root)
    said = [p.message for p in result.problems if p.path == "a.schema.json"]
    assert len(said) == 1 and "missing-file" not in said[0]
    assert "names b.schema.json, which does not parse (b.schema.json:2:" in said[0]


def test_a_bundle_without_id_claims_no_location(tmp_path: Path) -> None:
    """No `file:///corpus/...` in any output: a source without `$id` is known by its place, and
    its bundle reaches what it embeds by pointers from its own root."""
    root = write_files(
        tmp_path / "spec",
        {
            "schemas/a.schema.json": json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "properties": {"b": {"$ref": "common/b.schema.json#/$defs/B"}},
                }
            ),
            "schemas/common/b.schema.json": json.dumps(
                {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "$defs": {"B": {"$ref": "#/$defs/Positive"}, "Positive": {"minimum": 1}},
                }
            ),
        },
    )
    corpus, result = built(root)
    assert not any("file:" in text for text in result.files.values())
    bundle = result.bundles["schemas/a.schema.json"]
    assert "$id" not in bundle
    assert bundle["properties"]["b"] == {"$ref": "#/$defs/schemas~1common~1b.schema.json/$defs/B"}
    catalog = json.loads(result.files[CATALOG])
    assert set(catalog) == {"schemas/a.schema.json", "schemas/common/b.schema.json"}
    same_verdicts(corpus, result, "schemas/a.schema.json", [{"b": 2}, {"b": 0}, {}])


def test_every_bundle_is_in_the_catalog_when_two_files_declare_one_id(tmp_path: Path) -> None:
    """draft-04's `id` is read (draft-04 Core §7.2): a vendored schema and its strict variant
    declaring the same one each keep their entry."""
    same = {"$schema": DRAFTS["draft-04"], "id": "https://example.org/cvss.json", "type": "object"}
    root = write_files(
        tmp_path / "spec",
        {"vendor/cvss.json": json.dumps(same), "vendor/cvss_strict.json": json.dumps(same)},
    )
    _, result = built(root)
    catalog = json.loads(result.files[CATALOG])
    assert {entry["file"] for entry in catalog.values()} == {
        "vendor/cvss.json",
        "vendor/cvss_strict.json",
    }
    assert catalog["https://example.org/cvss.json"]["file"] == "vendor/cvss.json"
