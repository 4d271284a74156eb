"""Issue 26, item 5: the first line of a text finding stays within about 200 characters, also
for a message no rule shortened (a long value quoted in it); nothing of the message is lost."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_cli import cli

from speclint.common.findings import FIRST_LINE, fitted

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
    assert fitted("short") == "short" and fitted("x" * 300) == "x" * 300


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
