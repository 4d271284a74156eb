"""Issue 44, item 8: terminal controls and direction overrides from the repository (a file name, a
heading, a `$ref`, an import) are shown as escapes in every report and listing, never obeyed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_reporters import make_report

from speclint.common.controls import json_escaped, visible, visible_line
from speclint.common.findings import Finding, Location, Severity
from speclint.frontends.cli import main
from speclint.outputs.reporters import renderer
from speclint.outputs.reporters.github_report import annotation, escape_data, escape_property

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

ESC, BEL, CSI, RLO = "\x1b", "\x07", "\x9b", "\u202e"
# What a terminal, a CI log or a browser obeys: C0 but tab and newline, DEL, C1, the direction
# embedding/override/isolate controls, and lone surrogates (a report that holds one cannot even be
# written as UTF-8).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# JSON writes C0 controls as \u escapes itself: what is left raw in a JSON document.
RAW_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def test_visible_writes_controls_and_direction_overrides_as_escapes() -> None:
    text = f"a{ESC}[31mb{BEL}c\rd\x7fe{CSI}2Jf{RLO}g\u2066h\udcffi\tj\nk é 日本 \u200d"
    shown = visible(text)
    assert not RAW.search(shown)
    assert shown == (
        "a\\x1b[31mb\\x07c\\x0dd\\x7fe\\x9b2Jf\\u202eg\\u2066h\\udcffi\tj\nk é 日本 \u200d"
    )
    assert visible(shown) == shown  # escaping twice changes nothing
    assert visible("plain") == "plain"


def test_json_escaped_keeps_values_exact_and_writes_no_raw_control() -> None:
    value = {"path": f"a{CSI}b{RLO}c\x7fd{ESC}e"}
    text = json_escaped(json.dumps(value, ensure_ascii=False))
    assert not RAW.search(text)
    assert json.loads(text) == value


def test_messages_and_notes_are_shown_escaped_from_the_start() -> None:
    finding = Finding(
        "unresolved-ref",
        Severity.ERROR,
        f"`x{ESC}[2J` does not exist",
        Location("a.json", note=f"see {RLO}here"),
        related=(Location("b.json", note=f"also{BEL}"),),
    )
    assert finding.message == "`x\\x1b[2J` does not exist"
    assert finding.location.note == "see \\u202ehere"
    assert finding.related[0].note == "also\\x07"


def test_github_annotations_escape_controls_and_keep_the_runner_escapes() -> None:
    assert escape_data(f"50%\r\nx{ESC}[8my") == "50%25%0D%0Ax\\x1b[8my"
    assert escape_property(f"a:b,c{BEL}") == "a%3Ab%2Cc\\x07"
    finding = Finding(
        "parse-error",
        Severity.ERROR,
        "bad\nfile",
        Location(f"x{ESC}]0;title{BEL}.json", 2, 3, note=None),
        related=(Location(f"y{CSI}1m.json", 4, 5, note="other side"),),
    )
    line = annotation(make_report([finding], root="."), finding)
    assert not RAW.search(line) and "\n" not in line and "\r" not in line
    assert line.startswith("::error file=x\\x1b]0;title\\x07.json,line=2,col=3,title=parse-error::")
    assert "bad%0Afile%0Arelated: y\\x9b1m.json:4:5 other side" in line


def _run(*args: str) -> tuple[int, str, str]:
    """speclint's command line, its output as the bytes it wrote (decoded, surrogates kept). It
    runs in process: what the reports hold is the question, not the process. click's runner
    writes stdout strictly and stderr with backslash escapes, as a child's streams would fail or
    escape what cannot be written as UTF-8."""
    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    out = done.stdout_bytes.decode("utf-8", "surrogateescape")
    return done.exit_code, out, done.stderr_bytes.decode("utf-8", "surrogateescape")


def hostile_corpus(make_corpus: MakeCorpus) -> Path:
    """Controls in a file name, a heading, a link, a `$ref` and a proto import."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"b": {"$ref": f"missing{ESC}[2J{BEL}.json"}},
    }
    return make_corpus(
        {
            "schemas/a.schema.json": json.dumps(schema, ensure_ascii=False, indent=2),
            f"schemas/broken{ESC}[5m.json": '{"a": 1,,}\n',
            f"docs/page{ESC}]0;owned{BEL}.md": (
                f"# Start {ESC}[31mred{BEL}\n\nSee [y](other{RLO}gnp.md).\n\n"
                f'## Example {ESC}[2J{CSI}8m\n\n```json\n{{"a": 1,,}}\n```\n'
            ),
            "protos/svc.proto": (
                f'syntax = "proto3";\npackage p;\nimport "evil{ESC}[2J{BEL}.proto";\n'
                "message M { string a = 1; }\n"
            ),
        }
    )


@pytest.mark.parametrize("name", ["text", "github", "markdown", "junit"])
def test_a_hostile_corpus_prints_no_control_character(make_corpus: MakeCorpus, name: str) -> None:
    root = hostile_corpus(make_corpus)
    code, out, err = _run("check", str(root), "--no-cache", "--no-color", "--format", name)
    assert code == 1, err
    assert not RAW.search(out), [m.group(0) for m in RAW.finditer(out)]
    assert not RAW.search(err)
    # The findings are there, their repository text shown: the escapes, not nothing.
    for shown in ("missing\\x1b[2J\\x07.json", "broken\\x1b[5m.json"):
        assert shown in out, (shown, out)
    # The missing proto import is what was not checked (issue 45): counted here, not shown.
    assert "page\\x1b]0;owned\\x07.md" in out and "other\\u202egnp.md" in out


@pytest.mark.parametrize("name", ["json", "sarif", "gitlab", "afp"])
def test_json_reports_keep_values_exact_and_write_no_raw_control(
    make_corpus: MakeCorpus, name: str
) -> None:
    root = hostile_corpus(make_corpus)
    code, out, err = _run("check", str(root), "--no-cache", "--format", name)
    assert code == 1, err
    assert not RAW_IN_JSON.search(out) and not RAW.search(out.replace("\n", ""))
    document = json.loads(out)
    if name == "json":
        paths = {f["location"]["path"] for f in document["findings"]}
        assert f"docs/page{ESC}]0;owned{BEL}.md" in paths  # the file's own name, to open it
        messages = " ".join(f["message"] for f in document["findings"])
        assert "missing\\x1b[2J\\x07.json" in messages  # a message is read: shown escaped
        # What was not checked quotes the repository too: shown escaped, as a message is.
        said = " ".join(n["what"] for n in document["not_checked"]["notes"])
        assert "evil\\x1b[2J\\x07.proto" in said


def test_listings_print_no_control_character(make_corpus: MakeCorpus) -> None:
    root = hostile_corpus(make_corpus)
    for command in (("files",), ("bindings", "--all"), ("roles",)):
        code, out, err = _run(*command, str(root))
        assert code == 0, err
        assert not RAW.search(out) and not RAW.search(err), command
    _, out, _ = _run("files", str(root))
    assert "page\\x1b]0;owned\\x07.md" in out and "broken\\x1b[5m.json" in out
    _, out, _ = _run("bindings", "--all", str(root))
    assert "page\\x1b]0;owned\\x07.md" in out


def test_a_finding_under_a_hostile_heading_is_shown_escaped_in_markdown() -> None:
    source = f"# Start {ESC}[31mred{BEL}\n\n```json\n{{}}\n```\n"
    finding = Finding(
        "fence-invalid", Severity.WARNING, "m", Location("p.md", 3, 1, heading=f"x{RLO}y")
    )
    report = replace(make_report([finding], root="."), sources={"p.md": source})
    text = renderer("markdown")(report)
    assert not RAW.search(text)
    assert "Start \\x1b[31mred\\x07" in text and "x\\u202ey" in text


# A line a GitHub Actions runner reads as a workflow command: an annotation posing as speclint's.
INJECTED = "::warning file=README.md::injected"


def test_visible_line_writes_newlines_and_runner_commands_as_escapes_too() -> None:
    assert visible_line(f"a\nb{ESC}c\r\nd\te") == "a\\nb\\x1bc\\x0d\\nd\te"
    assert visible_line("plain: a `::b::` c") == "plain: a `::b::` c"
    # The runner's older form anywhere in a line, and its newer one at a line's start (after
    # spaces, which it trims).
    assert visible_line("x ##[warning]y ###[z") == "x ##\\x5bwarning]y ###\\x5bz"
    assert visible_line(f"  {INJECTED}") == "  \\x3a:warning file=README.md::injected"
    assert visible_line(f"\u3000{INJECTED}").startswith("\u3000\\x3a:warning")


def test_repository_text_writes_no_runner_command_in_the_command_lines_own_lines(
    make_corpus: MakeCorpus,
) -> None:
    """Issue 44 review, item 10: the command line's one-line errors, notes and listings quote
    the repository (a configuration key, a file name): a newline there is shown as ``\\n``, and
    nothing else the runner reads as a workflow command is left, so no line of a CI log is the
    pull request's to write."""
    root = make_corpus(
        {"speclint.toml": f'[rules."x\\n{INJECTED}"]\nseverity = "error"\n', "a.md": "# A\n"}
    )
    code, out, err = _run("check", str(root), "--no-cache", "--format", "github")
    assert code == 2, err
    assert not any(line.lstrip().startswith("::") for line in err.splitlines()), err
    assert f"x\\n{INJECTED}" in err  # the key is still named, on one line

    (root / "speclint.toml").unlink()
    (root / f"x\n{INJECTED}.md").write_text("# X\n", encoding="utf-8")
    (root / f"{INJECTED}.md").write_text("# Y\n", encoding="utf-8")
    (root / "y ##[warning]injected.md").write_text("# Z\n", encoding="utf-8")
    code, out, err = _run("files", str(root))
    assert code == 0, err
    for line in (out + err).splitlines():
        assert not line.lstrip().startswith("::") and "##[" not in line, line
    assert f"x\\n{INJECTED}.md" in out and "y ##\\x5bwarning]injected.md" in out


def test_no_line_of_the_text_report_is_a_runner_command(make_corpus: MakeCorpus) -> None:
    """The text report keeps a message's newlines (its layout), and a newline may come from the
    repository: a `$ref` that holds one starts a line of the pull request's choosing in the job
    log of a plain `speclint check` (or the hook) on a CI runner. No such line is obeyed."""
    ref = f"missing.schema.json\n{INJECTED}\n##[error]injected"
    root = make_corpus(
        {
            "schemas/a.schema.json": json.dumps(
                {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": ref}
            )
        }
    )
    code, out, err = _run("check", str(root), "--no-cache")
    assert code == 1, err
    assert "missing.schema.json" in out  # the finding is reported, its value shown
    for line in (out + err).splitlines():
        assert not line.lstrip().startswith("::") and "##[" not in line, line
