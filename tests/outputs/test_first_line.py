"""Issue 26, item 5: the first line of a text finding stays within about 200 characters, also
for a message no rule shortened (a long value quoted in it); nothing of the message is lost."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from conftest import BUNDLED_CORPUS
from speclint.common.findings import FIRST_LINE, Finding, Location, Severity, fitted
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]


def test_a_long_first_line_breaks_at_its_last_clause_that_fits() -> None:
    head = "`x` fails its own schema: " + "a word " * 20
    message = head + "is not of type 'string'; " + "make it a string, " * 8 + "or drop it\nmore"
    out = fitted(message)
    first, rest = out.split("\n", 1)
    assert len(first) <= FIRST_LINE and first.endswith(";")
    assert out.replace("\n", " ").replace("; ", ";") == message.replace("\n", " ").replace(
        "; ", ";"
    )
    assert rest.endswith("\nmore")


def test_a_boundary_inside_a_code_span_is_not_a_clause() -> None:
    value = "`" + ", ".join(f"k{i}: v{i}" for i in range(40)) + "`"
    out = fitted(f"the default {value} fails")
    first = out.split("\n", 1)[0]
    assert len(first) <= FIRST_LINE
    assert out.replace("\n", " ") == f"the default {value} fails"  # broken at a space
    assert fitted("short") == "short"


def test_one_unbroken_word_longer_than_a_line_wraps_where_the_line_ends() -> None:
    # A long URI quoted whole: nothing to break at but the word itself (issue 45, item 9).
    out = fitted("x" * 300 + " is not a file")
    assert out.split("\n", 1)[0] == "x" * FIRST_LINE
    assert out.replace("\n", "") == "x" * 300 + " is not a file"


def test_the_text_report_keeps_first_lines_short(make_corpus: MakeCorpus) -> None:
    # A default outside a long enum: the rule's message quotes every member on its first line.
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "mode": {"enum": [f"a-rather-long-mode-name-{i}" for i in range(30)], "default": "x"}
        },
    }
    root = make_corpus({"schemas/s.json": json.dumps(schema, indent=2)})
    run = cli("check", str(root), "--no-cache", "--no-progress")
    starts = [line for line in run.stdout.splitlines() if "[value-invalid]" in line]
    assert starts, run.stdout
    for line in starts:
        message = line.split("[value-invalid] ", 1)[1]
        assert len(message) <= FIRST_LINE, message
    # Nothing dropped: the text lines read back as the message the JSON report carries.
    [finding] = json.loads(cli("check", str(root), "--no-cache", "--format", "json").stdout)[
        "findings"
    ]
    joined = " ".join(line.strip() for line in run.stdout.splitlines())
    assert " ".join(finding["message"].split()) in " ".join(joined.split())


# --- issue 45, item 9: every rule's first line, not only the text report's -------------------


def _long_first_lines(root: Path) -> list[tuple[str, int, str]]:
    outcome = lint(root, Options(cache=False, time_limit=None))
    return [
        (f.rule, len(first), first)
        for f in outcome.result.findings
        if len(first := f.terminal_message.split("\n", 1)[0]) > FIRST_LINE
    ]


def test_every_finding_of_the_bundled_corpus_has_a_short_first_line() -> None:
    assert _long_first_lines(BUNDLED_CORPUS) == []


def test_a_finding_a_rule_did_not_shorten_still_has_a_short_first_line() -> None:
    message = "`" + "https://example.org/" + "segment/" * 40 + "` is not declared"
    finding = Finding("unresolved-ref", Severity.ERROR, message, Location("a.json"))
    first = finding.terminal_message.split("\n", 1)[0]
    assert len(first) <= FIRST_LINE
    assert finding.message == message  # the reports that carry the whole message keep it


def test_the_worst_case_corpus_keeps_every_first_line_short(make_corpus: MakeCorpus) -> None:
    # Long names everywhere a message quotes one: a property, an unresolved `$ref`, enum values,
    # same-named definitions in many files, a prose list of long values.
    name = "aPropertyNameThatGoesOnAndOn" * 6
    values = [f"value-{'x' * 60}-{n}" for n in range(12)]
    files: dict[str, str | bytes] = {}
    for n in range(6):
        files[f"schemas/part{n}.schema.json"] = json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {
                    "Envelope": {
                        "type": "object",
                        "required": [name, f"{name}{n}"],
                        "properties": {
                            name: {"enum": values[: 6 + n]},
                            "kind": {"type": "string"},
                            "ref": {"$ref": f"{'missing-folder/' * 12}{name}.json"},
                        },
                        "default": {name: "not-a-listed-value"},
                    }
                },
            },
            indent=2,
        )
    files["spec/envelope.md"] = (
        f"# Envelope\n\nThe `{name}` of the `Envelope` is one of "
        + ", ".join(f"`{v}`" for v in [*values, "another-" + "y" * 80])
        + ".\n\nSee [the schema](../schemas/"
        + "nowhere/" * 20
        + "envelope.json).\n"
    )
    root = make_corpus(files)
    found = _long_first_lines(root)
    assert found == [], found
