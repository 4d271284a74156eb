"""Issue 26: a file ``.gitattributes`` marks ``linguist-vendored`` is kept from elsewhere (another
project's schemas, a tool's dereferenced output committed beside the sources): its defects are
fixed where it comes from, so nothing in it is judged, while links into it are still checked and a
``$ref`` to it still resolves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

INVALID = (
    '{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/%s",'
    ' "type": "object", "additionalProperties": 1}\n'
)


def test_a_vendored_file_is_not_judged_but_is_still_read(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            ".gitattributes": "out/** linguist-vendored\nout/own.json -linguist-vendored\n",
            "schemas/a.json": INVALID % "a.json",
            "out/b.json": INVALID % "b.json",
            "out/own.json": INVALID % "own.json",
            "out/broken.json": '{"a": 1,}\n',
            "schemas/uses.json": '{"$schema": "https://json-schema.org/draft/2020-12/schema",'
            ' "$id": "https://example.com/uses.json", "$ref": "../out/b.json"}\n',
            "README.md": "# Readme\n\nSee [b](out/b.json) and [gone](out/missing.json).\n",
        }
    )
    run = cli("check", str(root), "--no-cache", "--format", "json")
    found = {(f["rule"], f["location"]["path"]) for f in json.loads(run.stdout)["findings"]}
    assert ("schema-invalid", "schemas/a.json") in found  # the same defect, written here
    assert ("schema-invalid", "out/own.json") in found  # unset again by a later line
    assert not any(path in ("out/b.json", "out/broken.json") for _, path in found)
    assert ("broken-link", "README.md") in found  # the link to a missing file, not to out/b.json
    assert not any(rule == "unresolved-ref" for rule, _ in found)  # the $ref into it resolves

    listing = cli("files", str(root))
    rows = {line.split()[0]: line for line in listing.stdout.splitlines()}
    assert "vendored (.gitattributes: linguist-vendored)" in rows["out/b.json"]
    assert "vendored" not in rows["out/own.json"] and "vendored" not in rows["schemas/a.json"]
