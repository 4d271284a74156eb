"""Fragments of a root document (issue 46, item 3): a fence showing some members of the file a
schema describes is validated for what it shows, and an attribute section's example binds
through the root to that attribute's schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from speclint.analyses.context import Context
from speclint.analyses.prose import fragments
from speclint.analyses.prose.fences import Binding, example_bindings
from speclint.analyses.prose.fragments import BY_FRAGMENT, document_roots
from speclint.common.findings import Finding
from speclint.parsing.structured import resolve_pointer
from speclint.run.catalog import all_rules
from speclint.run.preview import why_heuristic_preview

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

STEP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["run"],
    "properties": {
        "run": {"type": "string"},
        "shell": {"enum": ["bash", "sh", "pwsh"]},
        "timeout": {"type": "integer"},
    },
}
# A pipeline file: closed at the root and in each pipeline and step, enums deep down.
PIPELINE = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.org/pipeline.schema.json",
    "title": "Pipeline file",
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "pipelines"],
    "properties": {
        "version": {"type": "string"},
        "name": {"type": "string"},
        "pipelines": {"type": "object", "additionalProperties": {"$ref": "#/$defs/pipeline"}},
        "variables": {"type": "object", "additionalProperties": {"type": "string"}},
        "init_steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
    },
    "$defs": {
        "pipeline": {
            "type": "object",
            "additionalProperties": False,
            "required": ["steps"],
            "properties": {
                "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
                "trigger": {"enum": ["push", "manual", "schedule"]},
            },
        },
        "step": STEP,
    },
}
# Another root that declares the same top-level members: a fence of both is neither's.
DEPLOY = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Deploy file",
    "type": "object",
    "properties": {
        "pipelines": {"type": "array"},
        "variables": {"type": "array"},
        "name": {"type": "string"},
    },
}


def yaml(body: str, heading: str = "## Example", intro: str = "For example:") -> str:
    return f"{heading}\n\n{intro}\n\n```yaml\n{body}```\n\n"


def context(page: str, schemas: dict[str, Any] | None = None) -> Context:
    files = {
        path: json.dumps(schema)
        for path, schema in (schemas or {"schemas/pipeline.schema.json": PIPELINE}).items()
    }
    return Context.from_texts({**files, "docs/guide.md": f"# Guide\n\n{page}"})


def findings(page: str, schemas: dict[str, Any] | None = None) -> list[Finding]:
    return list(all_rules()["example-invalid"].check(context(page, schemas), {}))


def ties(page: str, schemas: dict[str, Any] | None = None) -> list[Any]:
    corpus = context(page, schemas)
    document = corpus.documents["docs/guide.md"]
    return [t for e in example_bindings(corpus, document, Binding()) for t in e.ties]


def line_of(page: str, text: str) -> int:
    """The line of the guide (its `# Guide` heading and blank line first) holding ``text``."""
    return (f"# Guide\n\n{page}").split("\n").index(text) + 1


def test_an_unknown_member_deep_in_a_fragment_is_reported_where_it_is() -> None:
    page = yaml(
        "pipelines:\n"
        "  build:\n"
        "    steps:\n"
        "      - run: make\n"
        "        shel: bash\n"
        "variables:\n"
        '  CI: "true"\n'
    )
    [finding] = findings(page)
    assert '("shel" was unexpected)' in finding.message
    assert "a fragment of `pipeline.schema.json`" in str(finding.related[0].note)
    # Where every binding reports an unknown member: the object that holds it.
    assert finding.location.line == line_of(page, "      - run: make")
    assert finding.heuristic == "example-invalid/by-fragment"


def test_a_wrong_enum_value_deep_in_a_fragment_is_reported() -> None:
    page = yaml(
        "pipelines:\n"
        "  deploy:\n"
        "    trigger: push\n"
        "    steps:\n"
        "      - run: ./deploy.sh\n"
        "        shell: zsh\n"
        "variables:\n"
        '  REGION: "eu"\n'
    )
    [finding] = findings(page)
    assert '"zsh" is not one of' in finding.message
    assert finding.location.line == line_of(page, "        shell: zsh")


def test_a_valid_fragment_leaving_out_required_top_level_members_is_quiet() -> None:
    # `version` is required at the root: an excerpt need not show it. The fence is bound, so
    # the quiet is the fragment's validity, not a missed binding.
    page = yaml("pipelines:\n  build:\n    steps:\n      - run: make\nvariables:\n  CI: yes\n")
    assert findings(page) == []
    [tie] = ties(page)
    assert tie.how == BY_FRAGMENT and tie.fragment
    assert tie.evidence == (
        "a fragment of `pipeline.schema.json`: members `pipelines`, `variables` declared by "
        "its root"
    )


def test_a_nested_object_shown_whole_is_judged_for_its_required_members() -> None:
    # A pipeline shown in full lacks its one required member: the fragment is answerable for
    # what it shows, and it shows this pipeline.
    page = yaml("pipelines:\n  build:\n    trigger: push\nvariables:\n  CI: yes\n")
    [finding] = findings(page)
    assert '"steps" is a required property' in finding.message


def test_an_attribute_sections_example_of_its_value_binds_through_the_root() -> None:
    page = yaml("- run: checkout\n  timeout: soon\n", heading="## `init_steps`")
    [finding] = findings(page)
    assert '"soon" is not of type "integer"' in finding.message
    assert "schemas/pipeline.schema.json#/properties/init_steps" in finding.message
    assert "the value of `init_steps` of `pipeline.schema.json`" in str(finding.related[0].note)
    assert finding.location.line == line_of(page, "  timeout: soon")


def test_an_attribute_section_showing_the_attribute_itself_is_a_fragment() -> None:
    page = yaml("init_steps:\n  - run: checkout\n    shell: fish\n", heading="## `init_steps`")
    [finding] = findings(page)
    assert '"fish" is not one of' in finding.message
    # A dotted heading walks into a map's members (`pipelines.build` is one pipeline).
    page = yaml("steps:\n  - run: make\n    timeout: 1\ntrigger: nightly\n", "### pipelines.build")
    [finding] = findings(page)
    assert '"nightly" is not one of' in finding.message


def test_a_fence_two_roots_fit_is_not_bound() -> None:
    schemas = {"schemas/pipeline.schema.json": PIPELINE, "schemas/deploy.schema.json": DEPLOY}
    page = yaml(
        "pipelines:\n  build:\n    steps:\n      - run: make\n        shel: bash\nvariables: {}\n"
    )
    assert ties(page, schemas) == []
    assert findings(page, schemas) == []
    corpus = context(page, schemas)
    [example] = example_bindings(corpus, corpus.documents["docs/guide.md"], Binding())
    assert "fit the roots of several schemas" in example.why


def test_a_fence_of_one_generic_member_is_not_bound() -> None:
    # Even where the page names the root's file: `name` says nothing of whose it is.
    page = yaml("name: 42\n", intro="See `pipeline.schema.json`:")
    assert ties(page) == []
    assert findings(page) == []
    # With a member that says whose it is, the same `name` is judged.
    [finding] = findings(yaml("name: 42\npipelines: {}\n"))
    assert '42 is not of type "string"' in finding.message


def test_one_member_binds_where_the_page_names_the_root_and_its_shape_is_the_roots() -> None:
    body = "pipelines:\n  build:\n    steps: []\n    trigger: nightly\n"
    assert findings(yaml(body)) == []
    [finding] = findings("The file follows `pipeline.schema.json`.\n\n" + yaml(body))
    assert '"nightly" is not one of' in finding.message
    # Of another shape below (most members of each pipeline undeclared there): another
    # document's member of the same name, as a registry index's `packs` is no lockfile's.
    other = "pipelines:\n  build:\n    owner: me\n    latest: 1.0\n    trigger: nightly\n"
    assert findings("The file follows `pipeline.schema.json`.\n\n" + yaml(other)) == []


def test_a_schema_another_uses_as_a_member_is_no_root() -> None:
    # `step.schema.json` is the value of `init_steps` items: a part, not a document.
    parent = {
        "type": "object",
        "properties": {
            "init_steps": {"type": "array", "items": {"$ref": "step.schema.json"}},
            "name": {"type": "string"},
        },
    }
    schemas = {"schemas/step.schema.json": STEP, "schemas/file.schema.json": parent}
    page = yaml("run: make\nshell: zsh\n")
    assert ties(page, schemas) == []
    # The schema that uses it is a root: its excerpt binds, through it to the step.
    page = yaml("init_steps:\n  - run: make\n    shell: zsh\nname: build\n")
    [tie] = ties(page, schemas)
    assert tie.target.label == "schemas/file.schema.json"
    [finding] = findings(page, schemas)
    assert '"zsh" is not one of' in finding.message


def test_the_binding_is_a_preview_heuristic_and_listed_with_its_evidence(
    make_corpus: MakeCorpus,
) -> None:
    assert why_heuristic_preview("example-invalid/by-fragment")
    page = "# Guide\n\n" + yaml("pipelines:\n  build:\n    steps: []\nvariables: {}\n")
    root = make_corpus(
        {"schemas/pipeline.schema.json": json.dumps(PIPELINE), "docs/guide.md": page}
    )
    output = run_cli("bindings", str(root)).output
    assert (
        "-> schemas/pipeline.schema.json (by root fragment: a fragment of `pipeline.schema.json`: "
        "members `pipelines`, `variables` declared by its root)" in output
    )


def test_frozen_versions_of_the_root_are_not_a_second_root() -> None:
    # The release folders keep older versions of the file (one with another enum): a page of
    # no version shows the live one, beside them; without it, the newest release.
    older = json.loads(json.dumps(PIPELINE))
    older["$defs"]["step"]["properties"]["shell"]["enum"] = ["bash", "zsh"]
    page = yaml("pipelines:\n  b:\n    steps:\n      - run: x\n        shell: zsh\nvariables: {}\n")
    live = {
        "schemas/pipeline.schema.json": PIPELINE,
        "schemas/1.0.0/pipeline.schema.json": older,
    }
    [finding] = findings(page, live)
    assert '"zsh" is not one of' in finding.message
    releases = {
        "schemas/1.0.0/pipeline.schema.json": older,
        "schemas/2.0.0/pipeline.schema.json": PIPELINE,
    }
    [tie] = ties(page, releases)
    assert tie.target.label == "schemas/2.0.0/pipeline.schema.json"


def test_an_excerpt_of_a_root_of_branches_is_not_faulted_for_the_branch_it_leaves_out() -> None:
    # The root is one of two shapes, closed by `unevaluatedProperties`: an excerpt showing
    # members of one branch fails that branch's `required`, and so "evaluates" nothing there.
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [
            {
                "allOf": [{"$ref": "#/$defs/common"}],
                "properties": {"image": {"type": "string"}},
                "required": ["image"],
            },
            {
                "allOf": [{"$ref": "#/$defs/common"}],
                "properties": {"build": {"type": "object"}},
                "required": ["build"],
            },
        ],
        "unevaluatedProperties": False,
        "$defs": {
            "common": {"properties": {"runArgs": {"type": "array"}, "mounts": {"type": "array"}}}
        },
    }
    schemas = {"schemas/container.schema.json": root}
    page = yaml("runArgs: [a]\nmounts: []\n")
    [tie] = ties(page, schemas)
    assert tie.how == BY_FRAGMENT
    assert findings(page, schemas) == []
    # What the excerpt gets wrong is still found.
    [finding] = findings(yaml("runArgs: a\nmounts: []\n"), schemas)
    assert 'is not of type "array"' in finding.message


def test_a_root_of_branches_that_refer_to_each_other_is_read_once_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each `anyOf` branch refers back to both: read without a bound, 2^8 walks and more.
    branches = {
        f"b{i}": {
            "anyOf": [{"$ref": f"#/$defs/b{(i + 1) % 6}"}, {"$ref": f"#/$defs/b{(i + 2) % 6}"}],
            "properties": {f"m{i}": {"type": "string"}},
        }
        for i in range(6)
    }
    root = {"anyOf": [{"$ref": "#/$defs/b0"}], "$defs": branches}
    corpus = context("", {"schemas/tangle.schema.json": root})
    reads: list[str] = []

    def counted(data: Any, pointer: str) -> Any:
        reads.append(pointer)
        return resolve_pointer(data, pointer)

    monkeypatch.setattr(fragments, "resolve_pointer", counted)
    [found] = document_roots(corpus)
    assert set(found.members) == {f"m{i}" for i in range(6)}
    # Each of its 20 schemas (the root, its branch, 6 definitions and their 12 branches) read
    # once, and each `$ref` followed once.
    assert len(reads) <= 2 * 20
