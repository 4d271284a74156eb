"""What users of ESLint, ruff and CI tools expect of the command line (issue 25, items 14 and 15;
issue 44, item 14): outputs that fail or succeed out loud, the format from the file name, --quiet,
--max-warnings, JUnit XML and GitLab Code Quality reports, `changes --fail-on breaking`, rule
documentation as readable text, --select/--ignore with prefixes and "did you mean", --exit-zero,
--statistics, paths from the working folder, and a README and documentation pages whose every
sample of output is what the tool prints and whose tables render on GitHub."""

from __future__ import annotations

import json
import os
import re
import shlex
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from test_cli import MakeCorpus
from test_compat_claim import STREAM_MODES
from test_diff_base import git

from conftest import BUNDLED_CORPUS, REPOSITORY, copy_bundled_corpus, schema, write_files
from conftest import cli_in_process as cli  # what the command line prints: no process needed
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters import Report, renderer
from speclint.outputs.reporters.rule_doc import render_doc

FINDING_LINE = re.compile(r"^\S.*:\d+:\d+: (error|warning|info) \[[\w-]+\] ")


def corpus_findings() -> list[dict[str, object]]:
    """The bundled corpus's findings, from the JSON report."""
    result = cli("check", "corpus/", "--format", "json", cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    findings: list[dict[str, object]] = json.loads(result.stdout)["findings"]
    return findings


def text_summary() -> str:
    """The one-line summary of the text report of the bundled corpus."""
    result = cli("check", "corpus/", cwd=REPOSITORY)
    (summary,) = [
        ln for ln in result.stdout.splitlines() if " finding" in ln and ln.startswith("speclint: ")
    ]
    return summary


def warnings_only(make_corpus: MakeCorpus) -> Path:
    """A corpus whose only finding is one warning (a required property no `properties`
    declares)."""
    return make_corpus(
        {
            "schemas/loose.schema.json": schema(
                type="object", properties={"a": {}}, required=["b"]
            ),
            "speclint.toml": '[rules]\nrequired-undeclared = "warning"\n',
        }
    )


# --- item 14: outputs -----------------------------------------------------------------------------


def test_an_output_under_a_file_is_one_line_exit_2_and_nothing_is_written(tmp_path: Path) -> None:
    blocker = tmp_path / "reports"
    blocker.write_text("a file, not a folder\n")
    first = tmp_path / "first.json"
    result = cli(
        "check",
        "corpus/",
        "-f",
        "json",
        "-o",
        str(first),
        "-f",
        "sarif",
        "-o",
        str(blocker / "x.sarif"),
        cwd=REPOSITORY,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("speclint: error: ")
    assert f"{blocker} is not a folder" in result.stderr
    # Every --output is checked before the run: no report is half-delivered.
    assert not first.exists()


def test_an_output_that_is_a_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    result = cli("check", "corpus/", "-f", "json", "-o", str(tmp_path), cwd=REPOSITORY)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"{tmp_path} is a folder" in result.stderr


def test_missing_parent_folders_of_an_output_are_created(tmp_path: Path) -> None:
    # As ESLint (`mkdir(dirname, {recursive: true})`) and ruff (astral-sh/ruff#11550) do.
    target = tmp_path / "not" / "yet" / "there.sarif"
    result = cli("check", "corpus/", "-o", str(target), cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    assert json.loads(target.read_text())["version"] == "2.1.0"


def test_reports_all_in_files_leave_the_summary_and_their_places_on_stderr(tmp_path: Path) -> None:
    sarif, markdown = tmp_path / "x.sarif", tmp_path / "x.md"
    result = cli(
        "check",
        "corpus/",
        "-f",
        "sarif",
        "-o",
        str(sarif),
        "-f",
        "markdown",
        "-o",
        str(markdown),
        cwd=REPOSITORY,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert f"speclint: wrote sarif to {sarif}" in lines
    assert f"speclint: wrote markdown to {markdown}" in lines
    assert lines[-1] == text_summary()
    quiet = cli("check", "corpus/", "-o", str(sarif), "--quiet", cwd=REPOSITORY)
    assert quiet.returncode == 1 and quiet.stdout == "" and quiet.stderr == ""


def test_the_format_of_an_output_comes_from_its_extension(tmp_path: Path) -> None:
    names = ["a.sarif", "b.sarif.json", "c.json", "d.md", "e.xml", "f.txt"]
    args = [arg for name in names for arg in ("-o", str(tmp_path / name))]
    result = cli("check", "corpus/", *args, cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    read = {name: (tmp_path / name).read_text() for name in names}
    assert json.loads(read["a.sarif"])["version"] == "2.1.0"
    assert json.loads(read["b.sarif.json"])["version"] == "2.1.0"
    assert json.loads(read["c.json"])["version"] == 1
    assert read["d.md"].startswith("# speclint report")
    assert ElementTree.fromstring(read["e.xml"]).tag == "testsuites"
    assert read["f.txt"].splitlines()[-2] == text_summary()
    # A format given for the position wins over the extension.
    explicit = cli("check", "corpus/", "-f", "json", "-o", str(tmp_path / "g.txt"), cwd=REPOSITORY)
    assert json.loads((tmp_path / "g.txt").read_text())["version"] == 1, explicit.stderr


def test_an_unknown_output_extension_is_refused_naming_the_accepted_ones(tmp_path: Path) -> None:
    target = tmp_path / "report.yaml"
    result = cli("check", "corpus/", "-o", str(target), cwd=REPOSITORY)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    for extension in (".sarif", ".sarif.json", ".json", ".md", ".xml", ".txt"):
        assert extension in result.stderr
    assert "--format" in result.stderr
    assert not target.exists()


# --- item 15: CLI habits --------------------------------------------------------------------------


def test_quiet_prints_the_findings_only() -> None:
    result = cli("check", "corpus/", "--quiet", cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines and not any(line.startswith("speclint:") for line in lines)
    assert all(FINDING_LINE.match(line) or line.startswith("    ") for line in lines)
    assert sum(bool(FINDING_LINE.match(line)) for line in lines) == len(corpus_findings())


def test_max_warnings_fails_on_too_many_warnings(make_corpus: MakeCorpus) -> None:
    root = warnings_only(make_corpus)
    plain = cli("check", str(root))
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "1 finding (0 errors, 1 warning, 0 info)" in plain.stdout
    over = cli("check", str(root), "--max-warnings", "0")
    assert over.returncode == 1
    assert (
        "speclint: 1 finding (0 errors, 1 warning, 0 info) in 1 file; 1 warning exceeds --max-warnings 0"
        in over.stdout
    )
    within = cli("check", str(root), "--max-warnings", "1")
    assert within.returncode == 0 and "exceed" not in within.stdout
    # Errors still fail whatever the warning budget is (ESLint's semantics).
    assert cli("check", "corpus/", "--max-warnings", "1000", cwd=REPOSITORY).returncode == 1
    assert cli("check", str(root), "--max-warnings", "-1").returncode == 2


def test_the_hook_takes_quiet_and_max_warnings_too(make_corpus: MakeCorpus) -> None:
    """The commit's gate speaks the same options as `check`: a warning the commit adds fails it
    under --max-warnings 0, and --quiet leaves only the finding."""
    root = make_corpus(
        {
            "schemas/ok.schema.json": schema(type="object"),
            "speclint.toml": '[rules]\nrequired-undeclared = "warning"\n',
        }
    )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    root.joinpath("schemas/loose.schema.json").write_text(
        schema(type="object", properties={"a": {}}, required=["b"])
    )
    git(root, "add", "-A")
    plain = cli("hook", cwd=root)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "[required-undeclared]" in plain.stdout and "1 new finding" in plain.stdout
    over = cli("hook", "--max-warnings", "0", cwd=root)
    assert over.returncode == 1 and "exceeds --max-warnings 0" in over.stdout
    quiet = cli("hook", "--quiet", "--max-warnings", "0", cwd=root)
    assert quiet.returncode == 1
    assert [line for line in quiet.stdout.splitlines() if FINDING_LINE.match(line)]
    assert "speclint:" not in quiet.stdout + quiet.stderr


def test_junit_report_has_one_suite_per_file_and_one_failure_per_finding() -> None:
    result = cli("check", "corpus/", "--format", "junit", cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ElementTree.fromstring(result.stdout)
    findings = corpus_findings()
    assert root.tag == "testsuites" and root.get("name") == "speclint"
    suites = root.findall("testsuite")
    names = [suite.get("name") for suite in suites]
    assert names == sorted(names) and len(set(names)) == len(names)
    total_tests = total_failures = 0
    for suite in suites:
        cases = suite.findall("testcase")
        failures = [case for case in cases if case.find("failure") is not None]
        assert suite.get("tests") == str(len(cases)) and cases
        assert suite.get("failures") == str(len(failures))
        skipped = [case for case in cases if case.find("skipped") is not None]
        # What was found and not checked (the corpus's remote `$ref`) is a skipped case.
        assert suite.get("errors") == "0" and suite.get("skipped") == str(len(skipped))
        for case in cases:
            assert case.get("name") and case.get("classname")
            assert case.get("file") == suite.get("name")
            for failure in case.findall("failure"):
                assert failure.get("type") in {"error", "warning", "info"}
                assert failure.get("message")
        total_tests += len(cases)
        total_failures += len(failures)
    assert root.get("tests") == str(total_tests) and root.get("failures") == str(total_failures)
    assert total_failures == len(findings)
    failing_files = {
        suite.get("name") for suite in suites if suite.find("testcase/failure") is not None
    }
    assert failing_files == {f"corpus/{f['location']['path']}" for f in findings}  # type: ignore[index]
    # Files without findings are passing test cases: a CI viewer shows what was checked.
    assert len(suites) > len(failing_files)
    again = cli("check", "corpus/", "--format", "junit", cwd=REPOSITORY)
    assert again.stdout == result.stdout


def test_junit_report_survives_what_xml_cannot_hold() -> None:
    finding = Finding(
        "parse-error",
        Severity.ERROR,
        'bad byte \x01 and ]]> and <tag> & "quote"\x7f \ud800',
        Location("schemas/a&b<.json", 3, 4),
    )
    report = Report(findings=[finding], rules={}, sources={}, root="spec", tool_version="0")
    text = renderer("junit")(report)
    case = ElementTree.fromstring(text.encode("utf-8")).find("testsuite/testcase")
    assert case is not None and case.get("file") == "spec/schemas/a&b<.json"
    failure = case.find("failure")
    assert failure is not None and ']]> and <tag> & "quote"' in (failure.get("message") or "")


def test_gitlab_code_quality_report() -> None:
    result = cli("check", "corpus/", "--format", "gitlab", cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    issues = json.loads(result.stdout)
    findings = corpus_findings()
    assert isinstance(issues, list) and len(issues) == len(findings)
    levels = {"error": "major", "warning": "minor", "info": "info"}
    for issue, finding in zip(issues, findings, strict=True):
        assert issue["check_name"] == finding["rule"]
        assert issue["description"] == " ".join(str(finding["message"]).split())
        assert issue["severity"] == levels[str(finding["severity"])]
        assert re.fullmatch(r"[0-9a-f]{32,64}", issue["fingerprint"])
        location = finding["location"]
        assert isinstance(location, dict)
        assert issue["location"]["path"] == f"corpus/{location['path']}"
        assert (REPOSITORY / issue["location"]["path"]).is_file()
        assert issue["location"]["lines"]["begin"] == location["line"]
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    again = cli("check", "corpus/", "--format", "gitlab", cwd=REPOSITORY)
    assert again.stdout == result.stdout


def test_markdown_report_lists_rules_by_severity() -> None:
    result = cli("check", "corpus/", "--format", "markdown", cwd=REPOSITORY)
    worst: dict[str, int] = {}
    for finding in corpus_findings():
        level = Severity.parse(str(finding["severity"]))
        worst[str(finding["rule"])] = max(worst.get(str(finding["rule"]), 0), level)
    sections = re.findall(r"^## `([\w-]+)`$", result.stdout, re.MULTILINE)
    assert sorted(sections) == sorted(worst)
    assert sections == sorted(worst, key=lambda rule: (-worst[rule], rule))
    # The summary table, before the first rule's section (a drift finding's own table of values
    # by side comes later, in its section).
    summary = result.stdout.split("\n## `", 1)[0]
    table = re.findall(r"^\| `([\w-]+)` \|", summary, re.MULTILINE)
    assert table == sections


def pull_request(tmp_path: Path, edits: list[tuple[str, str]]) -> Path:
    """A repository whose base is the bundled corpus and whose head edits run-options."""
    repo = tmp_path / "spec-repo"
    copy_bundled_corpus(repo / "corpus")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    options = repo / "corpus/schemas/run-options.schema.json"
    for old, new in edits:
        assert old in options.read_text()
        options.write_text(options.read_text().replace(old, new, 1))
    git(repo, "commit", "-q", "-am", "change run options")
    return repo


REMOVE_MESSAGES = (STREAM_MODES, '"enum": ["updates", "values"]')
ADD_LABEL = ('"properties": {', '"properties": {\n    "label": {"type": "string"},')


def test_changes_fail_on_breaking(tmp_path: Path) -> None:
    breaking = pull_request(tmp_path / "one", [REMOVE_MESSAGES])
    result = cli(
        "changes", "corpus", "--diff-base", "HEAD~1", "--fail-on", "breaking", cwd=breaking
    )
    assert result.returncode == 1, result.stderr
    assert "breaking [enum value removed]" in result.stdout
    assert cli("changes", "corpus", "--diff-base", "HEAD~1", cwd=breaking).returncode == 0
    additive = pull_request(tmp_path / "two", [ADD_LABEL])
    passed = cli(
        "changes", "corpus", "--diff-base", "HEAD~1", "--fail-on", "breaking", cwd=additive
    )
    assert passed.returncode == 0, passed.stderr
    assert "additive [property added]" in passed.stdout


def test_compat_claim_without_a_base_says_why_it_cannot_run() -> None:
    result = cli("check", "corpus/", "--rule", "compat-claim", cwd=REPOSITORY)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "--rule compat-claim judges a change" in result.stderr
    assert "--diff-base" in result.stderr
    assert result.stdout == ""


def test_a_configuration_that_selects_compat_claim_alone_needs_a_base_too(
    make_corpus: MakeCorpus,
) -> None:
    """Issue 44 review, item 13: `select = ["compat-claim"]` in the configuration ran no rule
    without a base and passed in silence, where `--select compat-claim` is an error. The same
    error, naming the configuration's place."""
    root = three_rules(make_corpus, 'select = ["compat"]\n')
    result = cli("check", str(root), "--no-cache")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "speclint.toml: select[0] judges a change and cannot run without --diff-base REF" in (
        result.stderr
    )
    assert result.stdout == ""
    # Beside rules that run without a base, it is no error: the configuration serves the runs
    # with a base (the gate) and those without (the editor, a local check) alike.
    (root / "speclint.toml").write_text('select = ["duplicate-key", "compat"]\n', encoding="utf-8")
    mixed = cli("check", str(root), "--no-cache")
    assert mixed.returncode == 1 and "duplicate-key" in mixed.stdout, mixed.stderr
    # The command line's choice replaces the configuration's, and a base lets it run.
    assert cli("check", str(root), "--no-cache", "--select", "duplicate").returncode == 1
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    based = cli("check", str(root), "--no-cache", "--diff-base", "HEAD")
    assert based.returncode == 0, based.stderr


# --- rule documentation as text ------------------------------------------------------------------

RST_MARKUP = (
    re.compile(r"(?<!`)``(?!`)"),
    re.compile(r"::\s*$", re.MULTILINE),
    re.compile(r"^\s*\.\. ", re.MULTILINE),
    re.compile(r":(ref|doc|class|func|code):`"),
    re.compile(r"`_\b"),
)


def test_rules_lists_and_rule_documents_waiver_and_internal_error() -> None:
    listing = cli("rules")
    assert listing.returncode == 0
    ids = [line.split()[0] for line in listing.stdout.splitlines()]
    assert "waiver" in ids and "internal-error" in ids and "unresolved-ref" in ids
    for rule_id in ("waiver", "internal-error"):
        shown = cli("rule", rule_id)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.startswith(f"{rule_id} [")
        assert len(shown.stdout.splitlines()) > 3


def test_rule_documentation_is_readable_text() -> None:
    shown = cli("rule", "unresolved-ref")
    assert shown.returncode == 0
    for pattern in RST_MARKUP:
        assert not pattern.search(shown.stdout), pattern.pattern
    # A literal block keeps its text and its indentation under its lead-in.
    assert (
        "`api/openapi.yaml`:\n\n        schema:\n          $ref: '../schemas/error-envelope.schema.json'\n"
        in shown.stdout
    )
    # reST's escaped plural: ``$id``\s reads `$id`s.
    assert render_doc("three missing ``$id``\\s under one folder") == (
        "three missing `$id`s under one folder\n"
    )


def test_rule_headings_are_bold_on_a_colour_terminal_only() -> None:
    coloured = cli("rule", "duplicate-key", "--color")
    assert coloured.returncode == 0, coloured.stderr
    assert "\n\x1b[1mWhat it does\x1b[0m\n" in coloured.stdout
    plain = cli("rule", "duplicate-key")  # a pipe: no colour
    assert "\x1b[" not in plain.stdout and "\nWhat it does\n" in plain.stdout


def test_every_rule_document_renders_without_markup() -> None:
    from speclint.run.catalog import all_rules

    for rule_id, info in all_rules().items():
        text = render_doc(info.doc)
        for pattern in RST_MARKUP:
            assert not pattern.search(text), (rule_id, pattern.pattern)
        assert "\\s" not in re.sub(r"`[^`\n]*`", "", text), rule_id
        for heading in ("What it does", "Why is this bad?", "Example", "Use instead", "Options"):
            assert f"\n{heading}\n" in text, (rule_id, heading)


def test_rule_doc_rendering_of_other_rest_constructs() -> None:
    doc = (
        "Summary with *emphasis*, **strong**, :ref:`a role`, and `a link <https://x.example>`_.\n"
        "\n"
        "Example\n"
        "    .. code-block:: json\n"
        "\n"
        '        {"a": "``kept``"}\n'
        "\n"
        "    Escaped \\*star\\*.\n"
    )
    text = render_doc(doc)
    assert "Summary with emphasis, strong, `a role`, and a link (https://x.example)." in text
    assert '        {"a": "``kept``"}' in text
    assert "code-block" not in text
    assert "Escaped *star*." in text


# --- issue 44, item 14: ruff's and ESLint's habits ------------------------------------------------

PROTO_RULES = {"proto-enum-drift", "proto-invalid", "proto-message-drift"}


def rules_found(*args: str, cwd: Path = REPOSITORY) -> set[str]:
    """The rules of the findings of ``speclint check ARGS --format json``."""
    result = cli("check", *args, "--format", "json", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return {str(f["rule"]) for f in json.loads(result.stdout)["findings"]}


def three_rules(make_corpus: MakeCorpus, configuration: str = "") -> Path:
    """A corpus with one finding of each of required-undeclared (a warning), duplicate-key and unresolved-ref
    (errors)."""
    files: dict[str, str | bytes] = {
        "schemas/loose.schema.json": schema(type="object", properties={"a": {}}, required=["b"]),
        "schemas/duplicate.schema.json": '{\n  "type": "object",\n  "type": "array"\n}\n',
        "schemas/missing.schema.json": schema(**{"$ref": "nowhere.schema.json"}),
    }
    if configuration:
        files["speclint.toml"] = configuration
    return make_corpus(files)


def test_select_takes_rule_ids_and_prefixes_of_whole_words() -> None:
    everything = rules_found("corpus/")
    assert everything >= PROTO_RULES and len(everything) > len(PROTO_RULES)
    assert rules_found("corpus/", "--select", "proto") == PROTO_RULES
    assert rules_found("corpus/", "--select", "proto-") == PROTO_RULES
    assert rules_found("corpus/", "--select", "proto-enum") == {"proto-enum-drift"}
    assert rules_found("corpus/", "--select", "enum-drift") == {"enum-drift"}  # not proto-enum-*
    # Comma-separated or repeated, as ruff takes them; `--rule` is `--select`.
    both = {"enum-drift", "proto-invalid"}
    assert rules_found("corpus/", "--select", "enum-drift,proto-invalid") == both
    assert rules_found("corpus/", "--select", "enum-drift", "--select", "proto-invalid") == both
    assert rules_found("corpus/", "--rule", "enum-drift", "--select", "proto-invalid") == both
    assert rules_found("corpus/", "--select", "ALL") == everything


def test_ignore_leaves_rules_out_and_the_more_specific_name_decides() -> None:
    everything = rules_found("corpus/")
    assert rules_found("corpus/", "--ignore", "proto") == everything - PROTO_RULES
    assert rules_found("corpus/", "--select", "proto", "--ignore", "proto-invalid") == (
        PROTO_RULES - {"proto-invalid"}
    )
    assert rules_found("corpus/", "--select", "proto-invalid", "--ignore", "proto") == {
        "proto-invalid"
    }
    # At equal specificity the ignore wins: nothing runs, and nothing is found.
    assert rules_found("corpus/", "--select", "proto", "--ignore", "proto-") == set()


def test_a_name_that_selects_no_rule_is_exit_2_with_the_nearest() -> None:
    for args, expected in (
        (("--select", "enum-drfit"), "`enum-drfit` in --select is no rule id and no prefix of one"),
        (("--ignore", "prot"), "(did you mean `proto`?)"),
        (("--rule", "unresolved-rfe"), "(did you mean `unresolved-ref`?)"),
        # Named by the option the user typed (issue 44 review, item 12).
        (("--rule", "exampel-invalid"), "`exampel-invalid` in --rule is no rule id"),
        (("--rule", "enum-drift", "--select", "exampel"), "`exampel` in --select is no rule id"),
        (("--select", "enum-drift,"), "in --select is empty"),
        (("--select", "waiver"), "`waiver` findings are speclint's own"),
    ):
        result = cli("check", "corpus/", *args, cwd=REPOSITORY)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == "" and result.stderr.count("\n") == 1, (args, result.stderr)
        assert expected in result.stderr, (args, result.stderr)


def test_the_configuration_selects_and_the_command_line_overrides_it(
    make_corpus: MakeCorpus,
) -> None:
    all_three = {"required-undeclared", "duplicate-key", "unresolved-ref"}
    assert rules_found(str(three_rules(make_corpus))) == all_three
    root = three_rules(make_corpus, 'select = ["duplicate", "unresolved-ref"]\n')
    assert rules_found(str(root)) == {"duplicate-key", "unresolved-ref"}
    assert rules_found(str(root), "--ignore", "unresolved") == {"duplicate-key"}
    # --select replaces the configuration's choice: its select, its ignore and its "off".
    assert rules_found(str(root), "--select", "required-undeclared") == {"required-undeclared"}
    root = three_rules(make_corpus, 'ignore = ["duplicate-key"]\n[rules]\nunresolved-ref = "off"\n')
    assert rules_found(str(root)) == {"required-undeclared"}
    result = cli("check", str(root), "--select", "unresolved-ref,duplicate-key", "--format", "json")
    found = json.loads(result.stdout)["findings"]
    assert {f["rule"] for f in found} == {"duplicate-key", "unresolved-ref"}
    assert {f["severity"] for f in found} == {"error"}  # the rules' own severities
    # The more specific of a select and an ignore decides in the configuration too.
    root = three_rules(make_corpus, 'select = ["required-undeclared"]\nignore = ["required"]\n')
    assert rules_found(str(root)) == {"required-undeclared"}


def test_a_configured_name_that_selects_nothing_is_exit_2_naming_its_place(
    make_corpus: MakeCorpus,
) -> None:
    root = three_rules(make_corpus, 'select = ["duplicate-key", "secret-enum-drfit"]\n')
    result = cli("check", str(root))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "speclint.toml: select[1] is no rule id and no prefix of one" in result.stderr
    assert "secret" not in result.stderr  # a configuration message never repeats a value
    root = three_rules(make_corpus, 'ignore = "required-undeclared"\n')
    result = cli("check", str(root))
    assert result.returncode == 2 and "`ignore` must be a list" in result.stderr


def test_the_engine_chooses_the_rules_for_every_front_end(make_corpus: MakeCorpus) -> None:
    """The selection is the engine's (speclint.run.engine.lint, which the language server calls
    with no options), not the command line's alone."""
    from speclint.run.engine import EngineError, Options, lint

    root = three_rules(make_corpus, 'ignore = ["required"]\n')
    outcome = lint(root, Options(cache=False))
    assert {f.rule for f in outcome.findings} == {"duplicate-key", "unresolved-ref"}
    assert "required-undeclared" not in outcome.result.rules
    narrowed = lint(root, Options(cache=False, rules=("duplicate",), ignore=("duplicate-id",)))
    assert {f.rule for f in narrowed.findings} == {"duplicate-key"}
    assert set(narrowed.result.rules) == {"duplicate-key", "duplicate-item"}
    try:
        lint(root, Options(cache=False, ignore=("dupliate-key",)))
    except EngineError as error:
        assert "did you mean `duplicate-key`?" in str(error)
    else:
        raise AssertionError("a mistyped --ignore must be an error")


def test_the_hook_takes_select_and_ignore(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/ok.schema.json": schema(type="object")})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    three_rules(make_corpus)  # the commit adds a finding of each of three rules
    git(root, "add", "-A")
    everything = cli("hook", cwd=root)
    assert {"[duplicate-key]", "[unresolved-ref]"} <= set(
        re.findall(r"\[[\w-]+\]", everything.stdout)
    )
    selected = cli("hook", "--select", "duplicate", cwd=root)
    assert selected.returncode == 1, selected.stderr
    assert set(re.findall(r"\[[\w-]+\]", selected.stdout)) == {"[duplicate-key]"}
    ignored = cli("hook", "--ignore", "duplicate-key,unresolved-ref", cwd=root)
    assert ignored.returncode == 0, ignored.stdout + ignored.stderr
    assert "[duplicate-key]" not in ignored.stdout and "[required-undeclared]" in ignored.stdout
    typo = cli("hook", "--select", "duplicat-key", cwd=root)
    assert typo.returncode == 2 and "did you mean `duplicate-key`?" in typo.stderr


def test_a_run_of_some_rules_calls_no_other_rules_waiver_stale(make_corpus: MakeCorpus) -> None:
    waiver = '[[waivers]]\nrule = "required-undeclared"\npath = "schemas/loose.schema.json"\nreason = "known"\n'
    root = three_rules(make_corpus, waiver)
    assert "waiver" not in rules_found(str(root))
    assert rules_found(str(root), "--select", "duplicate-key") == {"duplicate-key"}
    # The rules it names ran and it matched nothing: stale, as in a whole run.
    (root / "schemas/loose.schema.json").unlink()
    assert rules_found(str(root), "--select", "required-undeclared,duplicate-key") == {
        "duplicate-key",
        "waiver",
    }
    assert "waiver" in rules_found(str(root))


def test_exit_zero_exits_0_with_findings() -> None:
    result = cli("check", "corpus/", "--exit-zero", cwd=REPOSITORY)
    assert result.returncode == 0, result.stderr
    assert sum(bool(FINDING_LINE.match(line)) for line in result.stdout.splitlines()) == len(
        corpus_findings()
    )
    assert (
        cli("check", "corpus/", "--exit-zero", "--max-warnings", "0", cwd=REPOSITORY).returncode
        == 0
    )
    # --exit-zero is about findings: a usage error still exits 2.
    assert (
        cli("check", "corpus/", "--select", "nope", "--exit-zero", cwd=REPOSITORY).returncode == 2
    )


def test_statistics_count_the_findings_of_each_rule(tmp_path: Path) -> None:
    result = cli("check", "corpus/", "--statistics", cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    *lines, summary, checked = result.stdout.splitlines()
    assert summary == text_summary() and checked.startswith("speclint: checked ")
    counted = [
        re.fullmatch(r"\s*(\d+)  ([\w-]+) +\[(error|warning|info)\]", line) for line in lines
    ]
    assert all(counted), lines
    rows = [(int(m.group(1)), m.group(2), m.group(3)) for m in counted if m]
    findings = corpus_findings()
    expected: dict[tuple[str, str], int] = {}
    for finding in findings:
        key = (str(finding["rule"]), str(finding["severity"]))
        expected[key] = expected.get(key, 0) + 1
    assert {(rule, severity): count for count, rule, severity in rows} == expected
    assert sum(count for count, _, _ in rows) == len(findings)
    worse = {"error": 0, "warning": 1, "info": 2}
    assert rows == sorted(rows, key=lambda row: (-row[0], row[1], worse[row[2]]))
    # The counts are aligned in one column, as ruff's.
    assert len({line.index("  ") for line in lines if not line.startswith(" ")}) == 1
    # Reports to files are written as usual; a report for stdout collides with the statistics.
    sarif = tmp_path / "x.sarif"
    both = cli("check", "corpus/", "--statistics", "-o", str(sarif), cwd=REPOSITORY)
    assert both.stdout == result.stdout and sarif.is_file()
    assert f"speclint: wrote sarif to {sarif}" in both.stderr
    refused = cli("check", "corpus/", "--statistics", "--format", "json", cwd=REPOSITORY)
    assert refused.returncode == 2 and "--statistics" in refused.stderr
    quiet = cli("check", "corpus/", "--statistics", "-q", cwd=REPOSITORY)
    assert quiet.stdout.splitlines() == lines


def test_rule_suggests_the_nearest_id_or_lists_a_prefix() -> None:
    typo = cli("rule", "enum-drfit")
    assert typo.returncode == 2 and typo.stderr.count("\n") == 1
    assert "unknown rule `enum-drfit` (did you mean `enum-drift`?)" in typo.stderr
    family = cli("rule", "proto")
    assert family.returncode == 2
    assert "proto-enum-drift, proto-invalid, proto-message-drift" in family.stderr
    assert cli("rule", "enum-drift").returncode == 0


# --- issue 44, item 14: paths from where speclint runs -----------------------------------------


def spec_repository(tmp_path: Path) -> Path:
    """A git repository holding the bundled corpus in `corpus/`."""
    repo = tmp_path / "spec-repo"
    copy_bundled_corpus(repo / "corpus")
    git(repo, "init", "-q", "-b", "main")
    return repo


def test_run_in_a_folder_of_the_corpus_paths_are_the_working_folders(tmp_path: Path) -> None:
    repo = spec_repository(tmp_path)
    here = repo / "corpus/spec"
    result = cli("check", cwd=here)
    assert result.returncode == 1, result.stderr
    places = re.findall(r"^(\S+?):\d+:\d+: ", result.stdout, re.MULTILINE)
    places += re.findall(r"^    related: (\S+?):\d+:\d+", result.stdout, re.MULTILINE)
    assert "capabilities.md" in places and "../schemas/capabilities.schema.json" in places
    assert not [place for place in places if place.startswith("../spec/")], places
    assert all((here / place).is_file() for place in places), places  # each opens from here
    # The pages of the working folder, of every file the corpus has (whatever the count).
    read = len(list((repo / "corpus").rglob("*.*")))
    shown = re.search(r"\(findings shown for 5 of (\d+) files: \.\)$", result.stdout.rstrip())
    assert shown is not None and 20 < int(shown[1]) <= read, result.stdout[-200:]
    # Named from elsewhere, the same findings keep the root as named.
    above = cli("check", "corpus/spec", cwd=repo)
    assert "corpus/spec/capabilities.md:14:3: " in above.stdout
    # GitHub and GitLab read a path as the repository's, wherever speclint ran.
    github = cli("check", "--format", "github", cwd=here)
    files = re.findall(r"file=([^,]+),", github.stdout)
    assert files and all(name.startswith("corpus/spec/") for name in files), files
    assert "related: corpus/schemas/capabilities.schema.json:33:7" in github.stdout
    gitlab = cli("check", "--format", "gitlab", cwd=here)
    paths = {issue["location"]["path"] for issue in json.loads(gitlab.stdout)}
    assert paths and all((repo / path).is_file() for path in paths), paths
    # SARIF and JSON keep root-relative paths, whatever the working folder.
    sarif_here = json.loads(cli("check", "--format", "sarif", cwd=here).stdout)
    sarif_top = json.loads(cli("check", "corpus/spec", "--format", "sarif", cwd=repo).stdout)
    assert sarif_here["runs"][0]["results"] == sarif_top["runs"][0]["results"]
    json_here = json.loads(cli("check", "--format", "json", cwd=here).stdout)["findings"]
    assert (
        json_here
        == json.loads(cli("check", "corpus/spec", "-f", "json", cwd=repo).stdout)["findings"]
    )


# --- the README and the documentation pages, and every sample of output in them ------------------

MARKDOWN = MarkdownIt("commonmark").enable("table")
# The pages written by hand: the README and docs/*.md (docs/rules/ is written from the rules'
# docstrings, whose examples tests/docs/test_rule_docs.py holds).
PAGES = ["README.md", *sorted(path.name for path in (REPOSITORY / "docs").glob("*.md"))]


def page_text(name: str) -> str:
    path = REPOSITORY / name if name == "README.md" else REPOSITORY / "docs" / name
    return path.read_text(encoding="utf-8")


def readme_tokens() -> list[Token]:
    return [token for name in PAGES for token in MARKDOWN.parse(page_text(name))]


# A code span is a sample of output when it starts as speclint's own lines do, or elides a line's
# start (`... (findings shown for ...)`); a fence is one when it has no language or is `console`.
OUTPUT_SPAN = re.compile(r"^(speclint: |\.\.\. |\.\.\.; |\S+/  skipped: )")


def readme_samples() -> list[str]:
    """Every sample of output in the pages: each line of an unlabelled fence, each `console`
    fence whole, and each code span that is one of speclint's lines."""
    samples: list[str] = []
    for token in readme_tokens():
        if token.type == "fence" and token.info == "":
            samples += [line for line in token.content.splitlines() if line.strip()]
        elif token.type == "fence" and token.info == "console":
            samples.append(token.content)
        elif token.type == "inline":
            samples += [
                child.content
                for child in token.children or []
                if child.type == "code_inline" and OUTPUT_SPAN.match(child.content)
            ]
    return samples


def matches_sample(sample: str, lines: list[str]) -> bool:
    """``sample`` is one of ``lines``, where ``...`` in the sample stands for elided text."""
    pattern = re.compile(".*".join(re.escape(part) for part in sample.split("...")))
    return any(pattern.fullmatch(line) for line in lines)


def pull_request_changes(tmp_path: Path) -> list[str]:
    repo = pull_request(tmp_path, [REMOVE_MESSAGES, ADD_LABEL])
    result = cli("changes", "corpus/", "--diff-base", "HEAD~1", cwd=repo)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def bundled_check(*args: str) -> list[str]:
    """What `speclint check corpus/` prints, or `speclint check corpus/PATH` when the first
    argument is a path."""
    if args and not args[0].startswith("-"):
        result = cli("check", f"corpus/{args[0]}", *args[1:], cwd=REPOSITORY)
    else:
        result = cli("check", "corpus/", *args, cwd=REPOSITORY)
    assert result.returncode == 1, result.stderr
    return result.stdout.splitlines() + result.stderr.splitlines()


def written_report(tmp_path: Path) -> list[str]:
    result = cli("check", str(BUNDLED_CORPUS), "-o", "speclint.sarif", cwd=tmp_path)
    return result.stderr.splitlines()


def skipped_venv(tmp_path: Path) -> list[str]:
    root = write_files(tmp_path / "spec", {"a.schema.json": schema(), ".venv/pyvenv.cfg": "x\n"})
    result = cli("files", str(root))
    # The listing pads its first column to the longest path: one space stands for the padding.
    return [re.sub(r"  +", "  ", line) for line in result.stdout.splitlines()]


def hook_lines(tmp_path: Path) -> list[str]:
    """A commit that adds nothing, on a HEAD with findings; the count of HEAD's findings is
    the repository's own, so it reads `N` on both sides."""
    repo = spec_repository(tmp_path)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    (repo / "notes.md").write_text("# Notes\n")
    git(repo, "add", "-A")
    result = cli("hook", "corpus", cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    return [
        re.sub(r"^speclint: \d+ findings were", "speclint: N findings were", line)
        for line in result.stdout.splitlines() + result.stderr.splitlines()
    ]


def typo_console(tmp_path: Path) -> list[str]:
    """`$ speclint check /home/ann/spec` on a corpus with the documented typo, at a path of the
    test's: the test's folder reads `/home/ann/spec` on both sides."""
    root = write_files(
        tmp_path / "home/ann/spec",
        {"a.schema.json": schema(), "speclint.toml": "[rules.broken-link]\nignore_case = true\n"},
    )
    result = cli("check", str(root))
    return [line.replace(str(root), "/home/ann/spec") for line in result.stderr.splitlines()]


def preview_lines(tmp_path: Path) -> list[str]:
    """A check outside preview mode (the tests run in it: conftest), of a corpus with nothing
    to find; the number of preview rules is the data file's, `N` on both sides."""
    root = write_files(tmp_path / "spec", {"a.schema.json": schema()})
    outside = {k: v for k, v in os.environ.items() if k != "SPECLINT_PREVIEW"}
    result = cli("check", str(root), env=outside)
    return [
        re.sub(r"^speclint: \d+ preview rules", "speclint: N preview rules", line)
        for line in result.stderr.splitlines()
    ]


def console(command: str, tmp_path: Path) -> list[str]:
    """What a `console` sample's command prints, run in the repository (`/home/ann/spec`: the
    typo sample's own corpus)."""
    if "/home/ann/spec" in command:
        return typo_console(tmp_path)
    words = shlex.split(command)
    assert words[0] == "speclint", command
    result = cli(*words[1:], cwd=REPOSITORY)
    return result.stdout.splitlines() + result.stderr.splitlines()


# Which command prints each sample: (a pattern the sample matches, what the command prints), the
# first that matches. A documented sample no entry matches fails the test, until a way to print it is
# written here.
PRINTERS: list[tuple[str, Callable[[Path], list[str]]]] = [
    (
        r"^corpus/schemas/run-options\.schema\.json:\d+:\d+: (additive|breaking) ",
        pull_request_changes,
    ),
    (
        r"^(corpus/\S+:\d+:\d+: |speclint: checked |speclint: \d+ findings \()",
        lambda _: bundled_check(),
    ),
    (r"^\.\.\. \(findings shown for ", lambda _: bundled_check("api/openapi.yaml")),
    (r"warnings? exceeds? --max-warnings 10", lambda _: bundled_check("--max-warnings", "10")),
    (r"^\d+  [\w-]+ +\[", lambda _: bundled_check("--statistics")),
    (r"^speclint: wrote sarif to speclint\.sarif$", written_report),
    (r"^\.venv/  skipped: ", skipped_venv),
    (r"^speclint: (no new findings|\d+ findings were already present)", hook_lines),
    (r"^speclint: N preview rules not run", preview_lines),
]


_PRINTED: dict[str, list[str]] = {}  # each command run once for the samples it prints


def printed_by(sample: str, tmp_path: Path) -> list[str]:
    for pattern, printer in PRINTERS:
        if re.search(pattern, sample):
            if pattern not in _PRINTED:
                _PRINTED[pattern] = printer(tmp_path)
            return _PRINTED[pattern]
    raise AssertionError(f"no test prints the documented sample {sample!r}: add one to PRINTERS")


@pytest.mark.parametrize("sample", readme_samples())
def test_every_readme_sample_is_what_the_tool_prints(sample: str, tmp_path: Path) -> None:
    if sample.startswith("$ "):
        command, *shown = sample.splitlines()
        printed = console(command[2:], tmp_path)
        assert shown and all(line in printed for line in shown), (sample, printed)
        return
    printed = printed_by(sample, tmp_path)
    # HEAD's count in the hook's line is the repository's own: `N` on both sides.
    normalised = re.sub(r"^speclint: \d+ findings were", "speclint: N findings were", sample)
    assert matches_sample(normalised, printed), (
        f"documented sample {sample!r} is not printed:\n" + ("\n".join(printed))
    )


def test_the_readme_samples_are_found() -> None:
    """The finder of samples finds the ones this file has always held, and the span that once
    said `1 of 24 files` (the tool printed `1 of 27`)."""
    samples = readme_samples()
    assert any(
        s.startswith("corpus/schemas/broken.schema.json:7:33: error [parse-error]") for s in samples
    )
    assert any(s.startswith("... (findings shown for ") for s in samples)
    assert any(s.startswith("$ speclint check /home/ann/spec\n") for s in samples)
    assert any(s.startswith(".venv/  skipped: ") for s in samples)
    assert sum(bool(re.match(r"corpus/schemas/run-options", s)) for s in samples) == 2


# --- the pages' tables render on GitHub -------------------------------------------------------------


def page_tables(name: str) -> list[list[tuple[int, list[str]]]]:
    """Each table of a page as GitHub's table extension reads it: its rows, each with its line
    number (from 0) and its cells' source text."""
    tables: list[list[tuple[int, list[str]]]] = []
    row: list[str] | None = None
    line = 0
    for token in MARKDOWN.parse(page_text(name)):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row, line = [], token.map[0] if token.map else -1
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None:
            tables[-1].append((line, row))
            row = None
    return tables


@pytest.mark.parametrize("name", [*PAGES, "rules/index.md"])
def test_every_table_keeps_all_its_text_in_its_columns(name: str) -> None:
    """GitHub drops the cells beyond the header's count: a stray `|` in a row hides what follows
    it (it hid most of `openapi-invalid`'s explanation). Every row has the header's number of
    cells, each row's text is all in them, and every last cell says something."""
    lines = page_text(name).splitlines()
    tables = page_tables(name)
    for table in tables:
        width = len(table[0][1])
        for number, cells in table:
            assert len(cells) == width, (number + 1, cells)
            source = lines[number]
            assert squeezed("".join(cells)) == squeezed(source), (
                f"{name} line {number + 1}: text outside the table's columns"
            )
            assert cells[-1].strip(), f"{name} line {number + 1}: an empty last cell"


def squeezed(text: str) -> str:
    """A row's text without the cell separators and the spaces around them."""
    return re.sub(r"[\s|\\]", "", text)
