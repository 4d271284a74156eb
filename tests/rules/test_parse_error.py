"""``parse-error`` on fixtures written here, one test a case, named after it. The rule: a JSON,
YAML or Markdown file that cannot be read or parsed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import dedented as yaml
from conftest import findings_of, run_cli, run_rule, schema
from speclint.common.findings import Severity

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


_ELIDED_FILE = """{
  "left": "#part-1",
  "right": "#part-2",
  ...
  "parts": [
    {"id": "part-1", "body": "QUJD ...(bytes left out)... WFla"}
  ]
}
"""


def _page(*fences: str) -> str:
    return "# Messages\n\n" + "\n".join(f"```json\n{f}\n```\n" for f in fences)


def test_a_json_file_that_fails_only_at_its_elisions_is_a_sketch_not_read(
    make_corpus: MakeCorpus,
) -> None:
    """A `.json` file that leaves members out with `...` (the source of an illustration) is not
    data anyone reads: it parses once its elisions are read as such. It is said among what the
    run did not check, not reported as broken; JSON files are data far more often than fences,
    so this is all it gets (never a pass: the run says it was not read)."""
    page = "# Parts\n\nThe parts, as [a figure shows them](figures/parts.json).\n"
    root = make_corpus({"figures/parts.json": _ELIDED_FILE, "README.md": page})
    [note] = run_rule(root, "parse-error")
    assert note.coverage == "json-sketch" and note.location.line == 4
    result = run_cli("check", str(root), "--no-cache", "--format", "json")
    report = json.loads(result.stdout)
    assert report["findings"] == []
    [said] = report["not_checked"]["notes"]
    assert said["path"] == "figures/parts.json" and said["kind"] == "json-sketch"


def test_a_json_file_with_an_elision_and_another_fault_is_still_broken(
    make_corpus: MakeCorpus,
) -> None:
    broken = _ELIDED_FILE.replace('"#part-1",', '"#part-1"')  # a comma left out
    elsewhere = '{\n  "a": 1\n  "b": 2,\n  "c": "x ... y"\n}\n'  # fails where no elision is
    root = make_corpus({"figures/parts.json": broken, "data/values.json": elsewhere})
    found = sorted((f.location.path, f.location.line) for f in run_rule(root, "parse-error"))
    assert found == [("data/values.json", 3), ("figures/parts.json", 3)]


def test_a_string_broken_across_lines_says_so(make_corpus: MakeCorpus) -> None:
    """A raw line break inside a JSON string was reported as "invalid control character at",
    the parser's message cut before its position."""
    wrapped = '{\n  "kid": "did:example:123#key-\n1"\n}'
    root = make_corpus({"docs/keys.md": _page(wrapped), "keys.json": wrapped})
    for rule in ("fence-invalid", "parse-error"):
        [finding] = run_rule(root, rule)
        assert "line break inside a string" in finding.message, finding.message
        assert " at;" not in finding.message and "at:" not in finding.message
        if rule == "parse-error":  # the key it had: baselines and labels still match it
            assert finding.key == "invalid control character at"


def fence(language: str, body: str) -> str:
    return f"```{language}\n{body}\n```\n\n"


CATALOG = """\
---
# yaml-language-server: $schema=https://example.com/catalog-info.json
apiVersion: backstage.io/v1alpha1
kind: Component
metadata: {name: thing}
---
# yaml-language-server: $schema=https://example.com/resource.json
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata: {name: pipeline}
"""


FRONT_MATTER = '---\nversion: 1.1\nlayout: null\n---\n{\n  "data": [\n    {"id": "a"}\n  ]\n}\n'


EXAMPLE_WITH_NOTES = """\
{
  "type": "leg",
  "from": "P:A",
  // the place must be in the list of places
  "geometry": {"type": "LineString", "coordinates": [...]}
}"""


COMMENTED = '{\n  "scale": [\n    // the voxel size\n    0.5, 0.5\n  ]\n}\n'


def test_a_fragment_in_a_design_record_is_at_most_info(make_corpus: MakeCorpus) -> None:
    """fence-invalid does not judge a design record's examples; parse-error tells of its files
    that do not parse, at info: a draft of a change under discussion, not the contract."""
    broken = "- name: event\n    - name: original\n      type: keyword\n"
    root = make_corpus({"rfcs/text/0042/event.yml": broken, "schemas/event.yml": broken})
    found = {f.location.path: f.severity for f in run_rule(root, "parse-error")}
    assert found == {"rfcs/text/0042/event.yml": Severity.INFO, "schemas/event.yml": Severity.ERROR}


def test_a_stream_of_resources_each_naming_its_schema_is_data(make_corpus: MakeCorpus) -> None:
    """A descriptor of several entities (Backstage's catalog-info.yaml, Kubernetes manifests),
    each document with its own `apiVersion`, `kind` and modeline: every document is meant."""
    spec = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n---\nextra: 1\n"
    root = make_corpus({"catalog-info.yaml": CATALOG, "api/openapi.yaml": spec})
    assert [f.location.path for f in run_rule(root, "parse-error")] == ["api/openapi.yaml"]


def test_a_json_file_with_front_matter_is_read_after_it(make_corpus: MakeCorpus) -> None:
    """A site generator (Jekyll) strips a file's front matter before it serves the JSON."""
    broken = FRONT_MATTER.replace('{"id": "a"}', '{"id": "a",}')
    root = make_corpus({"_format/statements.json": FRONT_MATTER, "_format/broken.json": broken})
    found = run_rule(root, "parse-error")
    assert [(f.location.path, f.location.line) for f in found] == [("_format/broken.json", 7)]


def test_an_example_file_a_page_shows_is_read_as_the_fence_is(make_corpus: MakeCorpus) -> None:
    """The source of an example a page shows verbatim, or includes (MyST's literalinclude), is
    read with the fence's allowances: comments and elisions are notes there, as in the fence."""
    two = '{\n  "name": "p1"\n},\n{\n  "name": "p2"\n}'
    page = "# Leg\n\n" + fence("json", EXAMPLE_WITH_NOTES) + fence("json", two)
    page += "```{literalinclude} ../examples/included.json\n```\n"
    files = {
        "wiki/objects/leg.md": page,
        "wiki/examples/leg.json": EXAMPLE_WITH_NOTES + "\n",
        "wiki/examples/pair.json": two + "\n",
        "wiki/examples/included.json": EXAMPLE_WITH_NOTES,
        "wiki/examples/alone.json": EXAMPLE_WITH_NOTES.replace("P:A", "P:B"),
    }
    found = run_rule(make_corpus(files), "parse-error")
    errors = [f.location.path for f in found if f.coverage is None]
    assert errors == ["wiki/examples/alone.json"]
    notes = sorted(f.location.path for f in found if f.coverage is not None)
    assert notes == [
        "wiki/examples/included.json",
        "wiki/examples/leg.json",
        "wiki/examples/pair.json",
    ]


def test_examples_with_comments_where_the_repository_says_so(make_corpus: MakeCorpus) -> None:
    """A repository that says its JSON examples carry comments: an example file with comment
    lines is JSON with comments there, not a file to rename `.jsonc` (its build reads `.json`)."""
    says = "# Spec\n\nSome of the JSON examples in this document include comments.\n"
    files = {"index.md": says, "examples/scale/one.json": COMMENTED, "data/one.json": COMMENTED}
    found = run_rule(make_corpus(files), "parse-error")
    assert [(f.location.path, f.coverage is None) for f in found] == [
        ("data/one.json", True),
        ("examples/scale/one.json", False),
    ]
    make_corpus({"index.md": "# Spec\n"})  # said nowhere
    found = run_rule(make_corpus({}), "parse-error")
    assert [(f.location.path, f.coverage) for f in found] == [
        ("data/one.json", None),
        ("examples/scale/one.json", None),
    ]


def test_a_rush_config_file_with_comments_is_jsonc(make_corpus: MakeCorpus) -> None:
    jsonc = '// written by the tool\n{\n  /* state */\n  "pnpmShrinkwrapHash": "abc",\n}\n'
    root = make_corpus(
        {
            "common/config/rush/repo-state.json": jsonc,
            "rush.json": jsonc,
            "data/state.json": jsonc,  # no tool reads this one as JSONC: still an error
        }
    )
    assert {f.location.path for f in run_rule(root, "parse-error")} == {"data/state.json"}


def api(version: str = "1.0.0", extra: str = "") -> str:
    return (
        yaml(
            f"""
        openapi: 3.1.0
        info: {{title: Widgets, version: "{version}"}}
        paths: {{}}
        """
        )
        + extra
    )


def test_a_multi_document_manifest_is_not_a_parse_error(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "deploy/app.yaml": "kind: Service\nname: a\n---\nkind: Deployment\nname: a\n",
            "api/two.yaml": api() + "---\nkind: Other\n",
        }
    )
    assert [f.location.path for f in run_rule(root, "parse-error")] == ["api/two.yaml"]


# The corpus-integrity rules, each with the PASS and FAIL cases of its docstring.


def test_parse_error_fail_and_pass(make_corpus: MakeCorpus) -> None:
    broken = '{\n  "type": "object",\n  "required": ["id"],\n}\n'
    root = make_corpus(
        {"schemas/run.schema.json": broken, "schemas/ok.schema.json": schema(type="object")}
    )
    [finding] = findings_of("parse-error", root)
    assert (finding.location.path, finding.location.line, finding.location.column) == (
        "schemas/run.schema.json",
        3,
        21,
    )
    # At the trailing comma itself, named as what it is (not "expected a property name" on the
    # next line, where the decoder gave up).
    assert "trailing comma before `}`" in finding.message
    (root / "schemas/run.schema.json").write_text(schema(type="object", required=["id"]))
    assert findings_of("parse-error", root) == []


def test_parse_error_for_binary_and_non_utf8_files(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/blob.schema.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR",
            "spec/latin1.md": "# Caf\xe9\n".encode("latin-1"),
        }
    )
    found = {f.location.path: f for f in findings_of("parse-error", root)}
    assert "binary" in found["schemas/blob.schema.json"].message
    assert "UTF-8" in found["spec/latin1.md"].message
    assert found["spec/latin1.md"].location.line == 1
