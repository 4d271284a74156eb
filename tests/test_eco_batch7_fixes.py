"""Issue 49, first-read batch 7: the general classes behind its false and noise verdicts. A
docs renderer's diff markers in a fence, a `$ref` to a plain-name fragment (an `$anchor`), a
readOnly property an example of a request leaves out, a `.json` file its tool reads as JSON with
comments, a test input whose name says it is broken on purpose, and a third party's API document
kept as a tool's input."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import run_rule
from speclint.analyses.context import Context
from speclint.model.config import load_config

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


# --- fence-invalid: a docs renderer's diff markers (Shiki `[!code --]` / `[!code ++]`) ---------

# Old and new lines together, each marked: the page renders a diff, the `--` line is not part of
# the document shown.
DIFF_YAML = "top: {\n  inner: value\n} # [!code --]\n  } # [!code ++]\nnext: other"
DIFF_JSON = '{\n  "mode": "old", // [!code --]\n  "mode": "new", // [!code ++]\n  "n": 1\n}'


def test_a_fence_with_diff_markers_is_read_without_the_removed_lines(
    make_corpus: MakeCorpus,
) -> None:
    page = "# Migrate\n\n" + fence("yaml", DIFF_YAML) + fence("json", DIFF_JSON)
    root = make_corpus({"docs/migrate.md": page})
    assert run_rule(root, "fence-invalid") == []


def test_a_slip_in_a_fence_with_diff_markers_is_still_reported(make_corpus: MakeCorpus) -> None:
    """The added line itself is read: a trailing comma there is a slip."""
    body = '{\n  "mode": "old" // [!code --]\n  "mode": "new", // [!code ++]\n}'
    root = make_corpus({"docs/migrate.md": "# Migrate\n\n" + fence("json", body)})
    found = run_rule(root, "fence-invalid")
    assert [("trailing comma" in f.message) for f in found] == [True]


# --- type-claim-drift: a `$ref` to a plain-name fragment is the `$anchor`'s subschema ----------

# `"$ref": "#jobId"` names the subschema whose `$anchor` is `jobId` (JSON Schema 2020-12 §8.2.2):
# a string. Read as the document's root it was an object, and the page's `string` a drift.
ANCHORED = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Pipeline",
    "type": "object",
    "properties": {
        "name": {"$anchor": "jobId", "type": "string"},
        "after": {"$ref": "#jobId"},
        "before": {"$ref": "#noSuchAnchor"},
    },
}
ANCHOR_PAGE = (
    "# Pipelines\n\n## Pipeline\n\n"
    "- `name` (string): the pipeline's name.\n"
    "- `after` (string): the pipeline to run first.\n"
    "- `before` (string): the pipeline to run next.\n"
)


def test_a_ref_to_an_anchor_is_read_as_the_anchored_subschema(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/pipeline.json": json.dumps(ANCHORED, indent=2), "docs/pipeline.md": ANCHOR_PAGE}
    )
    assert run_rule(root, "type-claim-drift") == []


def test_a_ref_to_an_anchor_resolves_to_its_pointer_not_the_root(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/pipeline.json": json.dumps(ANCHORED, indent=2)})
    context = Context.load(root, load_config(root))
    found = context.references.at("schemas/pipeline.json", "/properties/after/$ref")
    assert found is not None and found.outcome == "ok"
    assert found.target_pointer == "/properties/name"
    missing = context.references.at("schemas/pipeline.json", "/properties/before/$ref")
    assert missing is not None and missing.outcome != "ok"
