"""``inline-copy`` on fixtures written here, one test a case, named after it. The rule: an inline
schema in an API document that copies a schema already defined in a schema file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_undeclared_tag import DOG

from conftest import dedented as yaml
from conftest import openapi_30, run_rule, schema
from conftest import openapi_30 as _api
from conftest import run_rule as run
from speclint.analyses.context import Context
from speclint.analyses.repository.provenance import GENERATED

# copy-drift, inline-copy and count-drift on classes of ecosystem batch 3 (issue 45).
#
# 1. copies paired by name alone: two generated renderings of one model, one name in separate API
#    documents of one title, a designed subset sharing a ``title``; and "absent from" for a copy
#    without the property at all;
# 2. a committed bundle's components are not inline copies of their own source files, even when
#    the source's description (copied by the bundler) says "the same as" something.
#
# Each fixture is written here, in our own words.


MakeCorpus = Callable[[dict[str, str | bytes]], Path]


_OVERVIEW = {
    "type": "object",
    "description": "Basically the same as the Deal, without its lowest price.",
    "required": ["price", "cut"],
    "properties": {"price": {"type": "number"}, "cut": {"type": "integer"}},
}


def test_a_bundle_s_component_with_its_source_s_description_is_no_claimed_copy(
    make_corpus: MakeCorpus,
) -> None:
    source = _api(
        "Deals",
        {"overview": {"$ref": "../schemas/overview.json"}},
        {"/deals": {"get": {"responses": {"200": {"description": "ok"}}}}},
    )
    bundle_paths = {
        "/deals": {
            "get": {
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/overview"}
                            }
                        },
                    }
                }
            }
        }
    }
    files: dict[str, str | bytes] = {
        "schemas/overview.json": schema(**_OVERVIEW),
        "api/openapi.yaml": source,
        # The committed bundle, built before the last edit of its source (not equal to it).
        "dist/openapi.yaml": _api("Deals", {"overview": _OVERVIEW}, bundle_paths),
    }
    # Before: the bundler's copy of the source's description read as the author's word that
    # the component is a copy, which kept it reported in a bundle.
    assert run(make_corpus(files), "inline-copy") == []
    # The author's own words above a hand copy still count.
    claimed = dict(_OVERVIEW, description="A copy of schemas/overview.json, kept in step.")
    files["dist/openapi.yaml"] = _api("Deals", {"overview": claimed}, bundle_paths)
    [finding] = run(make_corpus(files), "inline-copy")
    assert "Its comment says so" in finding.message


# copy-drift and inline-copy, ecosystem classes of issue 26 session 3.
#
# 1. one definition drifting across several files is one finding, not a group plus its pairs;
# 2. an inline schema is a copy of a definition only on real evidence, not a few shared key names;
# 3. bundled API documents: a ``$ref`` to each file's own copy of a named object definition is no
#    difference, and an older release of a bundle (same title, older ``info.version``) is history;
# 4. a self-contained bundle republishes schema files on purpose: no inline-copy there.
#
# Each fixture is written here, in our own words.


_EXTENSION = {
    "type": "object",
    "properties": {
        "storageFrame": {"type": "string", "format": "uri"},
        "epoch": {"type": "number"},
    },
}


def _extension_blocks(base_ref: str) -> str:
    return openapi_30(
        "Frame extension building blocks",
        {
            "shelf": {
                "allOf": [{"$ref": base_ref}, {"$ref": "#/components/schemas/frameExtension"}]
            },
            "frameExtension": _EXTENSION,
        },
        version="1.0.0",
    )


def test_a_self_contained_bundle_is_not_told_to_ref_the_file_it_republishes(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "ext/schemas/frameExtension.yaml": json.dumps(_EXTENSION),
        "ext/schemas/shelf.yaml": json.dumps({"type": "object", "properties": {"id": {}}}),
    }
    # Its only outside reference is the published address of the base: a bundle.
    bundled = make_corpus(
        {
            **files,
            "ext/blocks.yaml": _extension_blocks(
                "https://schemas.example.org/shelf/1.0/shelf.yaml"
            ),
        }
    )
    assert run(bundled, "inline-copy") == []
    assert run(bundled, "copy-drift") == []
    # The same document referring to a file beside it is not self-contained: its copy is one
    # to replace with a `$ref`.
    split = make_corpus({**files, "ext/blocks.yaml": _extension_blocks("schemas/shelf.yaml")})
    [finding] = run(split, "inline-copy")
    assert "$ref: 'schemas/frameExtension.yaml'" in finding.message


# Issue 45, ecosystem batch 6 at first read, provenance: the files a repository's own build
# writes are generated, found by evidence: a Makefile recipe whose output names a loop's variable,
# a program of the repository that writes files by a path template (run by hand: no command names
# it), a script argument's default output, a bundler command in a guide's fence, an API document
# in a folder only a build writes. Findings are not located in them, a defect their source has is
# reported once (at the source), and an API's inline schema is never called a copy of a file
# written from it. Every fixture here is our own.


EXTRACT = yaml(
    """
    import json, yaml
    spec = yaml.safe_load(open('../../kennel.yaml'))
    for path, item in spec['paths'].items():
        for method, op in item.items():
            with open(f'''../../static/schemas/{op['operationId']}_{method}.json''', 'w') as out:
                out.write(json.dumps(schema_of(op), indent=2))
    """
)


KENNEL_INLINE = yaml(
    """
    openapi: 3.0.3
    info: {title: Kennel, version: 1.0.0}
    paths:
      /dogs:
        get:
          operationId: listDogs
          responses:
            '200':
              description: the dogs
              content:
                application/json:
                  schema:
                    type: object
                    required: [name, breed]
                    properties:
                      name: {type: string}
                      breed: {type: string}
    """
)


def test_a_programs_outputs_are_generated_and_never_an_apis_original(
    make_corpus: MakeCorpus,
) -> None:
    files: dict[str, str | bytes] = {
        "kennel.yaml": KENNEL_INLINE,
        "static/schemas/listDogs_get.json": json.dumps(DOG, indent=2),
    }
    # No evidence: the API's inline schema is taken for a copy of the schema file.
    assert run_rule(make_corpus(files), "inline-copy") != []
    # The tool's folder has a committed `pyvenv.cfg` (its environment itself ignored by git).
    tool = {"tools/extract/extract.py": EXTRACT, "tools/extract/pyvenv.cfg": "home = /usr\n"}
    root = make_corpus({**files, **tool})
    made = Context.load(root).provenance["static/schemas/listDogs_get.json"]
    assert made.kind == GENERATED
    assert "tools/extract/extract.py" in made.evidence and "operationId" in made.evidence
    assert run_rule(root, "inline-copy") == []


def _inline_api(properties: dict[str, object]) -> str:
    return json.dumps(
        {
            "openapi": "3.1.0",
            "info": {"title": "Kennel", "version": "1.0.0"},
            "paths": {
                "/dogs": {
                    "get": {
                        "responses": {
                            "200": {
                                "description": "ok",
                                "content": {
                                    "application/json": {
                                        "schema": {"type": "object", "properties": properties}
                                    }
                                },
                            }
                        }
                    }
                }
            },
        },
        indent=2,
    )


def test_an_inline_copy_is_paired_among_definitions_of_other_versions_and_other_members(
    make_corpus: MakeCorpus,
) -> None:
    """The originals are looked up by version and by the members they declare (a corpus ten
    times over compared each inline schema with every definition): the copy is still paired
    with the definition of its own version, and not with the same members at another one."""
    dog = {"name": {"type": "string"}, "breed": {"type": "string"}, "age": {"type": "integer"}}
    files: dict[str, str | bytes] = {
        "api/1.0.0/openapi.json": _inline_api(dog),
        "schemas/1.0.0/dog.json": schema(type="object", properties=dog),
        "schemas/2.0.0/dog.json": schema(type="object", properties=dog),
    }
    for n in range(30):  # definitions that declare none of the copy's members
        files[f"schemas/1.0.0/cat{n}.json"] = schema(
            type="object", properties={f"whisker{n}": {"type": "string"}, "tail": {}}
        )
    (found,) = run_rule(make_corpus(files), "inline-copy")
    assert found.location.path == "api/1.0.0/openapi.json"
    assert [r.path for r in found.related] == ["schemas/1.0.0/dog.json"]
