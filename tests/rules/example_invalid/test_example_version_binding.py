"""example-invalid: an example bound by its values to a definition the repository keeps at
several versions is an instance of the version it declares (``meta.version``, ``version``), not
of the newest (``speclint.analyses.prose.fences``, ``_at_its_version``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from test_example_files import findings

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def envelope(version: str, size: str) -> str:
    """An event schema at ``version``: its ``meta`` fixes the event's type and this version;
    ``data.size`` is of type ``size``."""
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "required": ["meta", "data"],
            "properties": {
                "meta": {
                    "type": "object",
                    "required": ["type", "version", "id"],
                    "properties": {
                        "type": {"type": "string", "enum": ["ParcelShippedEvent"]},
                        "version": {"type": "string", "enum": [version]},
                        "id": {"type": "string"},
                    },
                },
                "data": {"type": "object", "properties": {"size": {"type": size}}},
                "links": {"type": "array"},
            },
        }
    )


def shipped(version: str, size: Any) -> str:
    return json.dumps(
        {
            "meta": {"type": "ParcelShippedEvent", "version": version, "id": "p-1"},
            "data": {"size": size},
            "links": [],
        }
    )


FOLDERS = {
    "schemas/ParcelShippedEvent/1.0.0.json": envelope("1.0.0", "string"),
    "schemas/ParcelShippedEvent/1.1.0.json": envelope("1.1.0", "string"),
    "schemas/ParcelShippedEvent/2.0.0.json": envelope("2.0.0", "integer"),
}


def test_an_example_of_an_older_version_folder_follows_that_version(
    make_corpus: MakeCorpus,
) -> None:
    """Each version in a folder of its own (`schemas/Event/1.0.0.json`): an example that says
    it is 1.0.0 is valid against 1.0.0, though the newest fixes `version` to 2.0.0 and types
    `size` otherwise."""
    root = make_corpus(
        {
            **FOLDERS,
            "examples/shipped/old.json": shipped("1.0.0", "large"),
            "examples/shipped/new.json": shipped("2.0.0", 3),
        }
    )
    assert findings(root) == []


def test_an_example_that_fails_its_own_version_is_reported_against_it(
    make_corpus: MakeCorpus,
) -> None:
    """The version it declares is the schema it is judged by, and the finding names it."""
    root = make_corpus({**FOLDERS, "examples/shipped/old.json": shipped("1.1.0", 3)})
    [finding] = findings(root)
    assert finding.location.pointer == "/data/size"
    assert finding.related[0].path == "schemas/ParcelShippedEvent/1.1.0.json"
    assert '`meta.version: "1.1.0"`' in finding.message


def versioned_file(version: int, states: list[str]) -> str:
    """A schema file of one version (`order-vN.json`): `type` and `version` fixed by a const."""
    return json.dumps(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "required": ["type", "version", "state"],
            "properties": {
                "type": {"const": "order"},
                "version": {"const": version},
                "state": {"enum": states},
                "total": {"type": "number"},
            },
        }
    )


def test_a_prose_example_of_an_older_version_file_follows_that_version(
    make_corpus: MakeCorpus,
) -> None:
    """Versions as file names (`order-v1.json`, `order-v2.json`): a fence of the prose giving
    `"version": 1` is an instance of version 1, whose `state` values it uses."""
    page = (
        "# Orders\n\nA version 1 order:\n\n```json\n"
        '{"type": "order", "version": 1, "state": "open", "total": 3}\n```\n'
    )
    root = make_corpus(
        {
            "schemas/order-v1.json": versioned_file(1, ["open", "closed"]),
            "schemas/order-v2.json": versioned_file(2, ["pending", "done"]),
            "docs/orders.md": page,
        }
    )
    assert findings(root) == []


def test_a_version_no_schema_defines_is_still_judged_by_the_newest(
    make_corpus: MakeCorpus,
) -> None:
    """An example whose version no file fixes binds where it did: the newest, whose `version`
    it fails, and the finding says which versions there are."""
    root = make_corpus({**FOLDERS, "examples/shipped/odd.json": shipped("3.0.0", 3)})
    [finding] = findings(root)
    assert finding.location.pointer == "/meta/version"
    assert finding.related[0].path == "schemas/ParcelShippedEvent/2.0.0.json"
    assert 'no version of it has `meta.version: "3.0.0"`: 1.0.0, 1.1.0, 2.0.0' in (
        finding.related[0].note or ""
    )
