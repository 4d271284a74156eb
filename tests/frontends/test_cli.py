"""End-to-end behaviour of `speclint check` and friends: exit codes, bad input, no network."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import cli_in_process, schema
from speclint.common.findings import Finding
from speclint.run.runner import run_rules

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

GOOD_OPENAPI = textwrap.dedent(
    """\
    openapi: 3.1.0
    info: {title: Runs, version: 1.0.0}
    paths:
      /v1/runs:
        post:
          requestBody:
            content:
              application/json:
                schema: {$ref: '../schemas/run.schema.json'}
          responses:
            '201': {description: created}
    """
)


def cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run speclint in a child process, as a user (and pre-commit) would. The tests below that are
    about what the command prints and exits with run it in process (conftest's
    ``cli_in_process``, the same answer); a child is for a test about the process."""
    return subprocess.run(
        [sys.executable, "-m", "speclint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        env=env,
    )


def bad_corpus(make_corpus: MakeCorpus) -> Path:
    """One instance of each kind of bad input, next to files that are fine."""
    return make_corpus(
        {
            "schemas/run.schema.json": schema(type="object", properties={"id": {"type": "string"}}),
            "schemas/malformed.schema.json": '{\n  "type": "object",\n  "properties": {\n}\n',
            "schemas/duplicate.schema.json": '{\n  "type": "object",\n  "type": "array"\n}\n',
            "schemas/a.schema.json": schema(**{"$ref": "b.schema.json"}),
            "schemas/b.schema.json": schema(**{"$ref": "a.schema.json"}),
            "schemas/remote.schema.json": schema(
                properties={"x": {"$ref": "https://schemas.example.net/x.json"}}
            ),
            "schemas/picture.schema.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
            "schemas/invalid.schema.json": schema(type="object", required="id"),
            "api/openapi.yaml": GOOD_OPENAPI,
            "api/asyncapi.yaml": "asyncapi: 3.0.0\ninfo:\n  title: [unclosed\n",
        }
    )


def test_bad_input_gives_located_findings_and_exit_1(make_corpus: MakeCorpus) -> None:
    root = bad_corpus(make_corpus)
    result = cli_in_process("check", str(root), "--format", "json")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    by_file = {(f["location"]["path"], f["rule"]) for f in report["findings"]}
    expected = {
        ("schemas/malformed.schema.json", "parse-error"),
        ("schemas/duplicate.schema.json", "duplicate-key"),
        ("schemas/picture.schema.json", "parse-error"),
        ("api/asyncapi.yaml", "parse-error"),
        ("schemas/invalid.schema.json", "schema-invalid"),
    }
    assert expected <= by_file
    # A remote `$ref` is not followed: said, not reported as a finding (issue 45).
    assert not any(
        f["location"]["path"] == "schemas/remote.schema.json" for f in report["findings"]
    )
    assert [(n["kind"], n["path"]) for n in report["not_checked"]["notes"]] == [
        ("remote-ref", "schemas/remote.schema.json")
    ]
    cycles = [f for f in report["findings"] if "circular" in f["message"]]
    assert len(cycles) == 1 and cycles[0]["location"]["path"] in {
        "schemas/a.schema.json",
        "schemas/b.schema.json",
    }
    for finding in report["findings"]:
        assert finding["location"]["line"] >= 1 and finding["location"]["column"] >= 1
    # The rest of the corpus was still checked: the good OpenAPI document resolved its $ref.
    assert not any(f["location"]["path"] == "api/openapi.yaml" for f in report["findings"])


def test_no_network_call_is_attempted(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    """Run speclint in a process where any socket use is fatal and recorded."""
    root = bad_corpus(make_corpus)
    (root / "api/remote.yaml").write_text(
        GOOD_OPENAPI.replace(
            "'../schemas/run.schema.json'", "'https://schemas.example.net/run.json'"
        )
    )
    log = tmp_path / "network.log"
    guard = textwrap.dedent(
        f"""
        import sys
        def audit(event, args):
            local_file = event == "urllib.Request" and str(args[0]).startswith("file:")
            if not local_file and event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "urllib.Request"):
                with open({str(log)!r}, "a") as out:
                    out.write(event + " " + repr(args) + "\\n")
                raise OSError("network access is forbidden in this test")
        sys.addaudithook(audit)
        from speclint.frontends.cli import main
        sys.argv = ["speclint", "check", {str(root)!r}]
        main()
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", guard], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 1, result.stderr
    assert "not checked: 2 remote references not followed" in result.stdout
    assert not log.exists(), log.read_text()


def test_clean_corpus_exits_0(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/run.schema.json": schema(type="object", additionalProperties=False),
            "api/openapi.yaml": GOOD_OPENAPI,
        }
    )
    result = cli_in_process("check", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no findings" in result.stdout


def test_fail_on_threshold(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"schemas/r.schema.json": schema(type="object", properties={"a": {}}, required=["b"])}
    )
    (root / "speclint.toml").write_text('[rules]\nrequired-undeclared = "info"\n')
    assert cli_in_process("check", str(root)).returncode == 0  # an info
    assert cli_in_process("check", str(root), "--fail-on", "warning").returncode == 0
    assert cli_in_process("check", str(root), "--fail-on", "info").returncode == 1
    (root / "speclint.toml").write_text(
        'fail-on = "warning"\n[rules]\nrequired-undeclared = "warning"\n'
    )
    assert cli_in_process("check", str(root)).returncode == 1
    (root / "speclint.toml").write_text('[rules]\nrequired-undeclared = "off"\n')
    result = cli_in_process("check", str(root), "--fail-on", "info")
    assert result.returncode == 0 and "required-undeclared" not in result.stdout


def test_usage_and_config_errors_exit_2_without_traceback(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/r.schema.json": schema(type="object")})
    missing = cli_in_process("check", str(root / "nope"))
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr
    (root / "speclint.toml").write_text("fail-on = \n")
    broken = cli_in_process("check", str(root))
    assert broken.returncode == 2 and "not valid TOML" in broken.stderr
    (root / "speclint.toml").write_text('[rules]\nrequired-undeclared = "loud"\n')
    bad_level = cli_in_process("check", str(root))
    assert bad_level.returncode == 2 and "required-undeclared" in bad_level.stderr
    (root / "speclint.toml").write_text("")
    unknown = cli_in_process("check", str(root), "--rule", "no-such-rule")
    assert unknown.returncode == 2 and "no-such-rule" in unknown.stderr
    for result in (missing, broken, bad_level, unknown):
        assert "Traceback" not in result.stderr


def test_a_crashing_rule_becomes_an_internal_error_finding(make_corpus: MakeCorpus) -> None:
    from speclint.analyses.context import Context
    from speclint.common.findings import Severity
    from speclint.run.catalog import RuleInfo, all_rules

    def explode(corpus: Context, options: object) -> list[Finding]:
        raise ZeroDivisionError("boom")

    root = make_corpus({"schemas/r.schema.json": '{"type": "object",, }'})
    corpus = Context.load(root)
    rules = {
        "exploding-rule": RuleInfo("exploding-rule", Severity.ERROR, "Explodes.", "test", explode)
    }
    rules["parse-error"] = all_rules()["parse-error"]
    result = run_rules(corpus, rules)
    assert {f.rule for f in result.findings} == {"internal-error", "parse-error"}
    [internal] = [f for f in result.findings if f.rule == "internal-error"]
    assert "exploding-rule" in internal.message and "ZeroDivisionError" in internal.message
    assert "internal-error" in result.rules


def test_rules_and_rule_commands() -> None:
    listing = cli_in_process("rules")
    assert listing.returncode == 0
    assert "unresolved-ref" in listing.stdout and "error" in listing.stdout
    doc = cli_in_process("rule", "unresolved-ref")
    assert doc.returncode == 0
    for heading in ("What it does", "Why is this bad?", "Example", "Use instead", "Options"):
        assert heading in doc.stdout
    assert "FAIL" in doc.stdout and "PASS" in doc.stdout
    assert cli_in_process("rule", "no-such-rule").returncode == 2


def test_several_formats_at_once(make_corpus: MakeCorpus, tmp_path: Path) -> None:
    root = bad_corpus(make_corpus)
    sarif, markdown = tmp_path / "out/r.sarif", tmp_path / "out/r.md"
    result = cli_in_process(
        "check",
        str(root),
        "-f",
        "sarif",
        "-o",
        str(sarif),
        "-f",
        "markdown",
        "-o",
        str(markdown),
        "-f",
        "text",
    )
    assert result.returncode == 1
    assert json.loads(sarif.read_text())["version"] == "2.1.0"
    assert markdown.read_text().startswith("# speclint report")
    assert "[parse-error]" in result.stdout
    two_stdout = cli_in_process("check", str(root), "-f", "json", "-f", "text")
    assert two_stdout.returncode == 2


def test_version_is_fast_to_print() -> None:
    result = cli("--version")
    assert result.returncode == 0 and "speclint" in result.stdout


@pytest.mark.parametrize("args", [("check",), ("roles",)])
def test_default_path_is_the_current_directory(
    make_corpus: MakeCorpus, args: tuple[str, ...]
) -> None:
    root = make_corpus(
        {"schemas/run.schema.json": schema(type="object"), "api/openapi.yaml": GOOD_OPENAPI}
    )
    result = cli_in_process(*args, cwd=root)
    assert result.returncode == 0, result.stderr
    if args == ("roles",):
        assert "schemas/run.schema.json#/: client-submitted" in result.stdout
