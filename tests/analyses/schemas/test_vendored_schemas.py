"""The AsyncAPI and Arazzo schemas speclint ships are the published files, unchanged."""

from __future__ import annotations

import hashlib
import json
from importlib import resources

from speclint.analyses.schemas.validation import ARAZZO_RELEASES, asyncapi_versions


def test_vendored_asyncapi_schemas_match_their_provenance() -> None:
    folder = resources.files("speclint").joinpath("data", "asyncapi")
    provenance = json.loads(folder.joinpath("PROVENANCE.json").read_text("utf-8"))
    assert provenance["package"] == "@asyncapi/specs"
    assert provenance["integrity"].startswith("sha512-")
    assert sorted(provenance["files"]) == sorted(f"{v}.json" for v in asyncapi_versions())
    for name, digest in provenance["files"].items():
        content = folder.joinpath(name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == digest, name
        data = json.loads(content)
        assert data["$id"] == f"http://asyncapi.com/definitions/{name[:-5]}/asyncapi.json"
    assert {"2.6.0", "3.0.0", "3.1.0"} <= set(asyncapi_versions())


def test_the_vendored_arazzo_schema_matches_its_provenance() -> None:
    folder = resources.files("speclint").joinpath("data", "arazzo")
    provenance = json.loads(folder.joinpath("PROVENANCE.json").read_text("utf-8"))
    assert provenance["repository"] == "https://github.com/OAI/Arazzo-Specification"
    assert len(provenance["commit"]) == 40
    assert sorted(provenance["files"]) == [f"{r}.json" for r in ARAZZO_RELEASES]
    for name, digest in provenance["files"].items():
        content = folder.joinpath(name).read_bytes()
        assert hashlib.sha256(content).hexdigest() == digest, name
        assert json.loads(content)["$id"].startswith("https://spec.openapis.org/arazzo/1.0/")
    assert "Apache License" in folder.joinpath("LICENSE").read_text("utf-8")
