"""What the run did not check: coverage, not findings (issue 45, items 1 and 8).

A remote `$ref`, a proto import from a buf dependency, a Swagger 2.0 document, an editor's modeline
naming a published schema, a reStructuredText page: each is counted on the summary line, listed in
the JSON and SARIF reports and by `speclint files`, and never a finding, never a failed run.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_reporters import load_sarif_validator

from conftest import run_cli, schema
from speclint.analyses.context import Context
from speclint.run import coverage
from speclint.run.engine import Options, lint

MakeCorpus = Callable[[dict[str, str | bytes]], Path]

REMOTE = schema(
    type="object",
    properties={
        "a": {"$ref": "https://schemas.example.net/a.json"},
        "b": {"$ref": "https://schemas.example.net/b.json"},
    },
)
BUF_PROTO = """syntax = "proto3";
package shop.v1;
import "buf/validate/validate.proto";
message Order { string id = 1; }
"""
SWAGGER = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n"
MODELINE = "# yaml-language-server: $schema=https://json.example.org/bot.json\nversion: 2\n"


def mixed(make_corpus: MakeCorpus) -> Path:
    return make_corpus(
        {
            "schemas/order.schema.json": REMOTE,
            "proto/shop.proto": BUF_PROTO,
            "api/legacy.yaml": SWAGGER,
            ".github/bot.yaml": MODELINE,
            "docs/index.rst": "Title\n=====\n",
            "docs/guide.adoc": "= Guide\n",
            "README.md": "# Shop\n",
        }
    )


def test_what_was_not_checked_is_coverage_never_a_finding(make_corpus: MakeCorpus) -> None:
    outcome = lint(mixed(make_corpus), Options(cache=False))
    assert outcome.findings == [], outcome.findings
    assert [(n.kind, n.path, n.line) for n in outcome.result.coverage] == [
        ("remote-ref", "schemas/order.schema.json", 6),
        ("remote-ref", "schemas/order.schema.json", 9),
        ("remote-schema", ".github/bot.yaml", 2),
        ("proto-import", "proto/shop.proto", 3),
        ("swagger-2", "api/legacy.yaml", 1),
        ("restructuredtext", "docs/index.rst", 1),
        ("asciidoc", "docs/guide.adoc", 1),
    ]
    assert "buf/validate/validate.proto" in outcome.result.coverage[3].what


def test_the_summary_counts_it_and_it_never_fails_a_run(make_corpus: MakeCorpus) -> None:
    root = mixed(make_corpus)
    result = run_cli("check", str(root), "--no-cache", "--fail-on", "info")
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert last.endswith(
        "; not checked: 2 remote references not followed; 1 instance naming a remote schema not "
        "validated; 1 proto import not in the repository (a buf dependency or another package); "
        "1 Swagger 2.0 document validated but not read by the OpenAPI 3 rules; 1 reStructuredText "
        "page not read; 1 AsciiDoc page not read"
    ), last
    markdown = run_cli("check", str(root), "--no-cache", "--format", "markdown").output
    assert "Not checked: 2 remote references not followed; " in markdown


def test_the_json_report_lists_each_note_and_counts_them(make_corpus: MakeCorpus) -> None:
    root = mixed(make_corpus)
    report = json.loads(run_cli("check", str(root), "--no-cache", "--format", "json").stdout)
    assert report["findings"] == [] and report["summary"]["info"] == 0
    assert report["not_checked"]["counts"] == {
        "asciidoc": 1,
        "proto-import": 1,
        "remote-ref": 2,
        "remote-schema": 1,
        "restructuredtext": 1,
        "swagger-2": 1,
    }
    [first, *_] = report["not_checked"]["notes"]
    assert first["kind"] == "remote-ref" and first["path"] == "schemas/order.schema.json"
    assert first["line"] == 6 and "https://schemas.example.net/a.json" in first["what"]


def test_sarif_says_it_as_notifications_of_the_invocation(make_corpus: MakeCorpus) -> None:
    """SARIF 2.1.0 §3.20.21: `toolExecutionNotifications`, level "note", not results."""
    root = mixed(make_corpus)
    log = json.loads(run_cli("check", str(root), "--no-cache", "--format", "sarif").stdout)
    assert list(load_sarif_validator().iter_errors(log)) == []
    [run] = log["runs"]
    assert run["results"] == []
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is True
    notes = invocation["toolExecutionNotifications"]
    assert len(notes) == 7 and {n["level"] for n in notes} == {"note"}
    where = notes[0]["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "schemas/order.schema.json"
    assert where["region"]["startLine"] == 6
    paths = [a["location"]["uri"] for a in run["artifacts"]]
    assert where["artifactLocation"]["index"] == paths.index("schemas/order.schema.json")
    assert "docs/index.rst" in paths  # a file a notification names is an artifact


def test_a_run_that_checked_everything_says_nothing_more(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/a.schema.json": schema(type="object")})
    result = run_cli("check", str(root), "--no-cache")
    assert "not checked" not in result.output
    log = json.loads(run_cli("check", str(root), "--no-cache", "--format", "sarif").stdout)
    assert "invocations" not in log["runs"][0]  # no invocation: nothing time-dependent either


def test_reports_are_byte_identical_run_after_run_and_from_the_cache(
    make_corpus: MakeCorpus,
) -> None:
    root = mixed(make_corpus)
    for form in ("json", "sarif", "text"):
        cold = run_cli("check", str(root), "--no-cache", "--format", form).stdout
        warm = run_cli("check", str(root), "--format", form).stdout
        cached = run_cli("check", str(root), "--format", form).stdout  # the run cache answers
        assert cold == warm == cached, form


def test_speclint_files_names_what_was_not_checked_in_each_file(make_corpus: MakeCorpus) -> None:
    root = mixed(make_corpus)
    lines = run_cli("files", str(root)).output.splitlines()
    row = {line.split()[0]: line for line in lines[:-1]}
    assert row["schemas/order.schema.json"].endswith(
        "; not checked: 2 remote references not followed"
    )
    assert "not checked: 1 proto import not in the repository" in row["proto/shop.proto"]
    assert "not checked: 1 Swagger 2.0 document" in row["api/legacy.yaml"]
    assert "not checked: 1 instance naming a remote schema" in row[".github/bot.yaml"]
    # Files speclint does not read at all get a line of their own.
    assert row["docs/index.rst"].split()[1:3] == ["not", "read"]
    assert "docs/guide.adoc" in row
    assert "not checked: 2 remote references not followed" in lines[-1]
    assert "1 reStructuredText page not read; 1 AsciiDoc page not read" in lines[-1]


def test_a_schema_without_an_extension_reached_by_ref_is_counted(make_corpus: MakeCorpus) -> None:
    """Item 8: a `$ref` to `defs/address` (a JSON file with no extension) reaches a file that
    speclint does not read: said, not silently passed."""
    root = make_corpus(
        {
            "schemas/person.schema.json": schema(
                type="object", properties={"home": {"$ref": "../defs/address"}}
            ),
            "defs/address": json.dumps({"type": "object"}),
        }
    )
    outcome = lint(root, Options(cache=False))
    assert outcome.findings == []
    [note] = outcome.result.coverage
    assert (note.kind, note.path) == ("no-extension", "defs/address")
    last = run_cli("check", str(root), "--no-cache").output.splitlines()[-1]
    assert last.endswith("; not checked: 1 schema without a file extension not read")


def test_an_mdx_page_that_cannot_be_parsed_is_counted(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"docs/intro.mdx": b"# Intro\n\n\xff\xfe not text\n", "README.md": "# x\n"})
    outcome = lint(root, Options(cache=False))
    assert [(n.kind, n.path) for n in outcome.result.coverage] == [("mdx", "docs/intro.mdx")]


def test_an_empty_json_or_yaml_file_is_counted_not_a_parse_error(make_corpus: MakeCorpus) -> None:
    """A tool's state file committed empty (zero bytes, or only blank lines) holds no document
    to be broken: it is said as not read, never filed as a parse error."""
    root = make_corpus(
        {
            "hack/state.json": "",
            "hack/other.json": "  \n\n",
            "config/empty.yaml": "\n",
            "schemas/broken.json": "{\n",  # content that does not parse stays an error
            "README.md": "# x\n",
        }
    )
    outcome = lint(root, Options(cache=False))
    assert [(f.rule, f.location.path) for f in outcome.findings] == [
        ("parse-error", "schemas/broken.json")
    ]
    assert sorted((n.kind, n.path) for n in outcome.result.coverage) == [
        ("empty", "config/empty.yaml"),
        ("empty", "hack/other.json"),
        ("empty", "hack/state.json"),
    ]
    last = run_cli("check", str(root), "--no-cache").output.splitlines()[-1]
    assert last.endswith("; not checked: 3 empty files not read")
    rows = {line.split()[0]: line for line in run_cli("files", str(root)).output.splitlines()}
    assert "not checked: 1 empty file not read" in rows["hack/state.json"]


def test_a_configuration_excluding_a_folder_leaves_its_pages_uncounted(
    make_corpus: MakeCorpus,
) -> None:
    root = make_corpus(
        {
            "README.md": "# x\n",
            "docs/a.rst": "A\n=\n",
            "vendor/b.rst": "B\n=\n",
            "speclint.toml": 'exclude = ["vendor/**"]\n',
        }
    )
    outcome = lint(root, Options(cache=False))
    assert [n.path for n in outcome.result.coverage] == ["docs/a.rst"]


def test_a_file_focus_shows_only_its_own_notes(make_corpus: MakeCorpus) -> None:
    root = mixed(make_corpus)
    outcome = lint(root, Options(cache=False, focus=("proto",)))
    assert [(n.kind, n.path) for n in outcome.result.coverage] == [
        ("proto-import", "proto/shop.proto")
    ]


# --- the removed rule's id ----------------------------------------------------------------------


def test_remote_ref_is_a_removed_rule_with_a_clear_message(make_corpus: MakeCorpus) -> None:
    root = make_corpus({"schemas/order.schema.json": REMOTE})
    for selected in (("--select", "remote-ref"), ("--rule", "remote-ref")):
        refused = run_cli("check", str(root), "--no-cache", *selected)
        assert refused.exit_code == 2 and "`remote-ref` was removed (issue 45)" in refused.output
    ignored = run_cli("check", str(root), "--no-cache", "--ignore", "remote-ref")
    assert ignored.exit_code == 0, ignored.output
    (root / "speclint.toml").write_text('[rules]\nremote-ref = "warning"\n')
    configured = run_cli("check", str(root), "--no-cache")
    assert configured.exit_code == 2 and "`remote-ref` was removed" in configured.output
    assert "delete the entry" in configured.output
    (root / "speclint.toml").write_text('ignore = ["remote-ref"]\n[rules]\nremote-ref = "off"\n')
    assert run_cli("check", str(root), "--no-cache").exit_code == 0
    doc = run_cli("rule", "remote-ref")
    assert doc.exit_code == 2 and "not checked" in doc.output


def test_a_waiver_of_the_removed_rule_says_to_delete_it(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {
            "schemas/order.schema.json": REMOTE,
            "speclint.toml": (
                '[[waivers]]\nrule = "remote-ref"\npath = "schemas/order.schema.json"\n'
                'reason = "pinned upstream"\n'
            ),
        }
    )
    outcome = lint(root, Options(cache=False))
    [finding] = outcome.findings
    assert finding.rule == "waiver" and "no longer exists" in finding.message
    assert "`remote-ref` was removed" in finding.message


def test_a_custom_dialect_whose_metaschema_reaches_out_is_coverage(make_corpus: MakeCorpus) -> None:
    """A held metaschema whose `$ref` leaves the corpus: the schema is judged by the draft the
    metaschema builds on, and that its own keywords were not checked is coverage."""
    meta = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.org/meta.json",
        "allOf": [{"$ref": "https://example.org/elsewhere.json"}],
    }
    body = {"$schema": "https://example.org/meta.json", "type": "object"}
    root = make_corpus(
        {"schemas/meta.json": json.dumps(meta), "schemas/s.json": json.dumps(body, indent=2)}
    )
    outcome = lint(root, Options(cache=False))
    assert [f for f in outcome.findings if f.location.path == "schemas/s.json"] == []
    assert ("custom-dialect", "schemas/s.json") in {
        (n.kind, n.path) for n in outcome.result.coverage
    }


def test_a_baseline_records_no_coverage_and_the_gate_reports_none(
    make_corpus: MakeCorpus, tmp_path: Path
) -> None:
    root = mixed(make_corpus)
    baseline = tmp_path / "baseline.json"
    assert run_cli("baseline", "write", str(root), "-o", str(baseline)).exit_code == 0
    assert "remote" not in baseline.read_text() and "buf/validate" not in baseline.read_text()
    gated = run_cli("check", str(root), "--no-cache", "--baseline", str(baseline), "-f", "json")
    report = json.loads(gated.stdout)
    assert gated.exit_code == 0 and report["findings"] == [] and report["gate"]["fixed"] == []
    assert report["not_checked"]["counts"]["remote-ref"] == 2  # still said, never gated


def _git_repository_with_a_built_page(make_corpus: MakeCorpus) -> Path:
    """A git work tree with a page of its own (`docs/a.rst`) and a built one git ignores
    (`docs/_build/b.rst`)."""
    root = make_corpus(
        {
            "README.md": "# x\n",
            "docs/a.rst": "A\n=\n",
            "docs/_build/b.rst": "B\n=\n",
            ".gitignore": "_build/\n",
        }
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, capture_output=True)
    return root


def test_a_git_ignored_page_is_not_counted_as_not_read(make_corpus: MakeCorpus) -> None:
    # Discovery's own filters decide what the repository holds: a page git ignores (a built
    # site, `docs/_build/`) is not content of the repository, so not "not read" either.
    root = _git_repository_with_a_built_page(make_corpus)
    outcome = lint(root, Options(cache=False))
    assert [n.path for n in outcome.result.coverage] == ["docs/a.rst"]


def test_speclint_files_words_the_swagger_note_as_the_check_does(make_corpus: MakeCorpus) -> None:
    root = make_corpus(
        {"api/legacy.yaml": "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n"}
    )
    [checked] = [n for n in lint(root, Options(cache=False)).result.coverage]
    [listed] = coverage.listed(Context.load(root))
    assert (listed.kind, listed.what) == (checked.kind, checked.what)


def test_git_is_asked_what_it_ignores_once_a_run(
    make_corpus: MakeCorpus, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Discovery asks git what it ignores; the pages of a markup speclint does not read are
    # counted by discovery's filters from that same answer (kept on the corpus), not a second
    # `git ls-files --ignored` (a large repository's is not free).
    root = _git_repository_with_a_built_page(make_corpus)
    asked: list[list[str]] = []

    class Counting(subprocess.Popen):  # type: ignore[type-arg]
        # Every git speclint runs starts here, whether through subprocess.run or started
        # early and waited for later (``gitbase.ignored_soon``).
        def __init__(self, args: Any, *rest: Any, **options: Any) -> None:
            if isinstance(args, list) and "--ignored" in args:
                asked.append(args)
            super().__init__(args, *rest, **options)

    monkeypatch.setattr(subprocess, "Popen", Counting)
    outcome = lint(root, Options(cache=False))
    assert [n.path for n in outcome.result.coverage] == ["docs/a.rst"]
    assert len(asked) == 1


def test_an_empty_file_the_instances_table_names_is_checked_not_counted_as_not_read(
    make_corpus: MakeCorpus,
) -> None:
    # Named by `[instances]`, it is read as its instance (null), and validated as such: no
    # "empty file not read" note beside that finding.
    root = make_corpus(
        {
            "data/empty.yaml": "",
            "data/other.yaml": "\n",
            "schema/order.json": json.dumps({"type": "object"}),
            "speclint.toml": '[instances]\n"data/empty.yaml" = "schema/order.json"\n',
        }
    )
    outcome = lint(root, Options(cache=False))
    assert [(f.rule, f.location.path) for f in outcome.findings] == [
        ("instance-invalid", "data/empty.yaml")
    ]
    assert [(n.kind, n.path) for n in outcome.result.coverage] == [("empty", "data/other.yaml")]
