"""Classes found at the first read of ecosystem batch 4 (issue 45), each on a fixture of ours."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_cli, run_rule

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

# --- line endings: a lone carriage return ends a line ----------------------------------------


def test_a_page_written_with_lone_carriage_returns_is_read_line_for_line(
    make_corpus: MakeCorpus,
) -> None:
    """A generated page whose lines end in a lone `\\r` (CommonMark §2.1 counts it a line ending,
    as editors do) crashed example-invalid: the page's lines, split on `\\n` only, were fewer
    than the parser's, and looking above a fence ran past them. Every rule now counts the lines
    the parser counts, and a finding's line is the one an editor shows."""
    schema = '{"type": "object", "properties": {"id": {"type": "string"}}}'
    page = "\r".join(
        [
            "# Thing",
            "",
            "An example of `thing.schema.json`:",
            "",
            "```json",
            '{"id": "a"}',
            "```",
            "",
            "```json",
            '{"id": 5}',
            "```",
            "",
            "See [the schema](thing.schema.json#/nowhere) and [missing](gone.md).",  # line 13
            "",
        ]
    )
    root = make_corpus({"schemas/thing.schema.json": schema, "docs/thing.md": page})
    result = run_cli("check", str(root), "--preview", "--no-cache", "--format", "json")
    assert "internal-error" not in result.output, result.output
    [link] = [f for f in run_rule(root, "broken-link") if "gone.md" in f.message]
    assert (link.location.line, link.location.column) == (13, 60)


def test_a_json_file_with_lone_carriage_returns_is_located_line_for_line(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus({"schemas/bad.schema.json": '{\r  "type": 5\r}\r'})
    [finding] = run_rule(root, "schema-invalid")
    assert finding.location.line == 2


# --- openapi-invalid: a schema map kept in a file of its own ---------------------------------


def test_a_components_schemas_map_written_as_a_ref_is_inlined_as_its_bundle_reads(
    make_corpus: MakeCorpus,
) -> None:
    """`components: {schemas: {$ref: ./schemas/_index.yaml}}`: redocly bundle replaces the map
    as it replaces `paths: {$ref: …}`; read as written its `$ref` member was a schema named `$ref`
    whose value (a string) is no schema. Inlined, the map's own defects are still reported, in
    the file they are written in."""
    api = (
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n"
        "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        "components:\n  schemas:\n    $ref: ./schemas/_index.yaml\n"
    )
    index = "Thing:\n  $ref: ./Thing.yaml\nOther:\n  type: object\n  required: 5\n"
    root = make_corpus(
        {
            "api/openapi.yaml": api,
            "api/schemas/_index.yaml": index,
            "api/schemas/Thing.yaml": "type: object\nproperties:\n  id: {type: string}\n",
        }
    )
    found = run_rule(root, "openapi-invalid")
    assert not [f for f in found if f.location.pointer == "/components/schemas/$ref"], found
    [defect] = found
    assert defect.location.path == "api/schemas/_index.yaml"
    assert defect.location.line == 5


# --- fence-invalid: JSON5 fences, and fences a build fills from a file -----------------------


def test_a_json5_fence_is_read_as_json5(make_corpus: MakeCorpus) -> None:
    """JSON5 allows unquoted keys and single quotes: a `json5` fence using them parses; one
    JSON5 rejects too (a missing comma) is still reported, at JSON5's place."""
    good = "```json5\n{\n  id: 'a',  // a comment\n  tags: [1, 2,],\n}\n```\n"
    bad = "```json5\n{\n  id: 'a'\n  name: 'b'\n}\n```\n"
    root = make_corpus({"docs/good.md": "# G\n\n" + good, "docs/bad.md": "# B\n\n" + bad})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.path == "docs/bad.md"
    assert finding.location.line == 6  # `name`, where JSON5 stops
    assert "quoted" not in finding.message  # no JSON advice for a JSON5 fence


def test_a_fence_a_build_fills_from_a_file_is_not_judged(make_corpus: MakeCorpus) -> None:
    """spec-up's `[[insert: path]]` (and pymdownx.snippets' `--8<--`, `{% include %}`) in a
    `json` fence: the build puts the file's content there; the directive is no broken JSON."""
    page = "".join(
        f"# P{i}\n\n```json\n{directive}\n```\n\n"
        for i, directive in enumerate(
            [
                "[[insert: test/a.json]]",
                "[[insert ./test/a.json]]",
                '--8<-- "test/a.json"',
                "{% include a.json %}",
            ]
        )
    )
    page += '```json\n{"a": 1 "b": 2}\n```\n'  # a real slip: still reported
    root = make_corpus({"spec/spec.md": page, "spec/test/a.json": '{"a": 1}'})
    [finding] = run_rule(root, "fence-invalid")
    assert finding.location.line == len(page.split("\n")) - 2
