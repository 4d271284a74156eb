"""untagged-json-invalid: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

SLIP = 'The parcel:\n\n    {\n      "id": "p-7"\n      "weight": 2\n    }\n'
RFC_HEADER = (
    "# RFC 0003: Parcel weights\n\n| Field | Value |\n|---|---|\n| **RFC** | 0003 |\n"
    "| **Status** | Draft |\n| **Created** | 2026-04-01 |\n\n"
)


def test_untagged_json_invalid_skips_a_design_record_or_a_proposal(make_corpus: MakeCorpus) -> None:
    # an example there sketches a change under discussion, not the specification
    root = make_corpus(
        {
            "adr/0003-weights.md": "# Weights\n\n" + SLIP,
            "proposals/weights.md": "# Weights\n\n" + SLIP,
            "notes/0003-weights.md": RFC_HEADER + SLIP,
            "docs/parcels.md": "# Parcels\n\n" + SLIP,
        }
    )
    found = run_rule(root, "untagged-json-invalid", {})
    assert [f.location.path for f in found] == ["docs/parcels.md"]
