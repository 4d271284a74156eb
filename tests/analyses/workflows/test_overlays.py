"""An OpenAPI Overlay and the document it applies to (``speclint.analyses.workflows.overlays``): ``speclint
files`` says a document is corrected by an overlay at build time, and which overlay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_provenance import listing

from speclint.analyses.context import Context
from speclint.analyses.workflows.overlays import overlays

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def api(title: str, schema: str) -> str:
    return (
        f"openapi: 3.1.0\ninfo: {{title: {title}, version: 1.0.0}}\npaths: {{}}\n"
        f"components:\n  schemas:\n    {schema}: {{type: string}}\n"
    )


OVERLAY = (
    "overlay: 1.0.0\ninfo: {title: Fixes, version: 1.0.0}\nactions:\n"
    "  - target: $.openapi\n    update: 3.0.3\n"
    "  - target: $.components.schemas['Status'].enum\n    remove: true\n"
)


def test_an_overlay_applies_to_the_document_its_targets_name(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "api/vendor.yaml": api("Vendor", "Status"),
            "api/other.yaml": api("Other", "Pet"),
            "overlay.yaml": OVERLAY,
        }
    )
    assert overlays(Context.load(root)) == {"api/vendor.yaml": ("overlay.yaml",)}
    rows = listing(root)
    assert "an OpenAPI Overlay applies to it (overlay.yaml)" in rows["api/vendor.yaml"]
    assert "an OpenAPI Overlay of api/vendor.yaml" in rows["overlay.yaml"]
    assert "Overlay" not in rows["api/other.yaml"]


def test_an_overlay_s_extends_names_its_document(make_corpus: MakeCorpus) -> None:
    extending = OVERLAY.replace("info:", "extends: ../api/other.yaml\ninfo:")
    root = make_corpus(
        {
            "api/vendor.yaml": api("Vendor", "Status"),
            "api/other.yaml": api("Other", "Pet"),
            "overlays/fixes.yaml": extending,
            "overlays/not-an-overlay.yaml": "overlay: true\nactions: []\n",
        }
    )
    assert overlays(Context.load(root)) == {"api/other.yaml": ("overlays/fixes.yaml",)}
