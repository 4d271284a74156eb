"""One defect at one place is one finding (issue 45, item 7): a misnamed path parameter, which
the OpenAPI validator reports from the template's side and from the parameter's.

Each fixture is written here, in our own words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_misnamed_path_parameter_is_one_finding(make_corpus: MakeCorpus) -> None:
    def document(name: str) -> str:
        return (
            "openapi: 3.1.0\ninfo: {title: Shop, version: '1.0.0'}\npaths:\n"
            "  /widgets/{widgetId}:\n    get:\n      operationId: getWidget\n"
            f"      parameters:\n        - {{name: {name}, in: path, required: true, "
            "schema: {type: string}}\n      responses:\n        '200': {description: ok}\n"
        )

    [finding] = run_rule(
        make_corpus({"api/openapi.yaml": document("widget_id")}), "openapi-invalid"
    )
    assert "`widget_id` is not in the template `/widgets/{widgetId}`" in finding.message
    assert "rename the parameter to `widgetId`" in finding.message
    assert (
        run_rule(make_corpus({"api/openapi.yaml": document("widgetId")}), "openapi-invalid") == []
    )


# --- a submodule not checked out: not checked, not broken ------------------------------------


def test_refs_into_a_submodule_not_checked_out_are_not_checked_not_broken(
    make_corpus: MakeCorpus,
) -> None:
    import json

    refs = {
        "type": "object",
        "properties": {
            "host": {"$ref": "/sibling/schemas/common.json"},
            "relative": {"$ref": "../sibling/schemas/other.json"},
        },
    }
    files: dict[str, str | bytes] = {
        ".gitmodules": '[submodule "sibling"]\n\tpath = sibling\n\turl = https://example.org/s.git\n',
        "schemas/a.json": json.dumps(refs),
    }
    [finding] = run_rule(make_corpus(files), "unresolved-ref")
    assert finding.severity.label == "info" and finding.message.startswith("not checked")
    assert finding.coverage == "submodule"  # said in the run's summary, not among findings
    assert "`sibling/`" in finding.message and len(finding.related) == 1
    # Checked out, its files are the corpus's: a reference to one it lacks is broken.
    files["sibling/schemas/common.json"] = json.dumps({"type": "string"})
    found = run_rule(make_corpus(files), "unresolved-ref")
    assert found and all(f.severity.label == "error" for f in found)
