"""Preview rules, as ruff has them (issue 45): a rule not yet proven precise on the ecosystem's
labels runs only in preview mode, chosen by the engine for every front end; `speclint rule ID`
prints the precision and the labels behind it; the data file follows labels.toml.

The rule tests run in preview mode (conftest sets SPECLINT_PREVIEW); these take it away, and
stand in their own measurements for the data file's (``measured``), so they do not change when
the labels do: enum-drift has three labels (a preview rule), every other rule a hundred, all
true, and so has every heuristic but example-invalid's `explicit`, with five."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import Result

from conftest import REPOSITORY, run_cli, schema, write_files
from speclint.run import preview
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint

ECOSYSTEM = REPOSITORY / "benchmarks" / "ecosystem"
SHIPPED = preview.measured  # the data file's, before the fixture stands in its own

RUN_SNAPSHOT = schema(
    title="RunSnapshot",
    type="object",
    properties={
        "runId": {"type": "string"},
        "status": {"enum": ["queued", "running", "done", "failed"]},
    },
)
# enum-drift: the page leaves out `failed`; broken-link: a link to nothing.
RUNS_PAGE = (
    "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n\n"
    "See [the missing page](missing.md).\n"
)


@pytest.fixture(autouse=True)
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SPECLINT_PREVIEW", raising=False)
    proven = preview.Measure(labels=100, true=100)
    table = {rule: proven for rule in all_rules()}
    table["enum-drift"] = preview.Measure(labels=3, true=3, stale=35)
    monkeypatch.setattr(preview, "measured", lambda: table)
    heuristics = {heuristic: proven for heuristic in preview.heuristic_rules()}
    heuristics["example-invalid/explicit"] = preview.Measure(labels=5, true=5)
    heuristics["example-invalid/adjacent-text"] = preview.Measure(labels=5, true=5)
    monkeypatch.setattr(preview, "measured_heuristics", lambda: heuristics)
    # The labels alone decide here: a rule of the catalog that declares itself preview (a new
    # one, before it is measured) would change what these tests count.
    catalog = {rule: replace(info, declared_preview=False) for rule, info in all_rules().items()}
    monkeypatch.setattr(preview, "all_rules", lambda: catalog)
    yield


def corpus(tmp_path: Path, config: str = "") -> Path:
    files = {"schemas/run-snapshot.schema.json": RUN_SNAPSHOT, "spec/runs.md": RUNS_PAGE}
    if config:
        files["speclint.toml"] = config
    return write_files(tmp_path / "spec", files)


def rules_of(result: Result) -> set[str]:
    return {f["rule"] for f in json.loads(result.stdout)["findings"]}


def check(root: Path, *args: str) -> Result:
    return run_cli("check", str(root), "--no-cache", "--format", "json", *args)


# --- which rules run ----------------------------------------------------------------------------


def test_a_preview_rule_does_not_run_by_default_and_the_run_says_so(tmp_path: Path) -> None:
    done = check(corpus(tmp_path))
    assert rules_of(done) == {"broken-link"}
    assert "speclint: 1 preview rule not run (--preview runs them" in done.stderr


def test_preview_mode_runs_it_from_the_flag_the_configuration_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    both = {"broken-link", "enum-drift"}
    assert rules_of(check(corpus(tmp_path / "a"), "--preview")) == both
    configured = corpus(tmp_path / "b", "preview = true\n")
    done = check(configured)
    assert rules_of(done) == both and "preview rule" not in done.stderr
    # The command line wins over the configuration, as ruff's --no-preview does.
    assert rules_of(check(configured, "--no-preview")) == {"broken-link"}
    monkeypatch.setenv("SPECLINT_PREVIEW", "1")
    assert rules_of(check(corpus(tmp_path / "c"))) == both


def test_a_preview_rule_selected_by_its_id_still_needs_preview_mode(tmp_path: Path) -> None:
    root = corpus(tmp_path / "a")
    done = check(root, "--select", "enum-drift")
    assert rules_of(done) == set()
    assert "`enum-drift` is a preview rule: selected, but run only with --preview" in done.stderr
    assert rules_of(check(root, "--select", "enum-drift", "--preview")) == {"enum-drift"}
    by_configuration = corpus(tmp_path / "b", 'select = ["enum-drift", "broken-link"]\n')
    done = check(by_configuration)
    assert rules_of(done) == {"broken-link"} and "`enum-drift` is a preview rule" in done.stderr


def test_explicit_preview_rules_runs_only_the_preview_rules_named_by_id(tmp_path: Path) -> None:
    explicit = "preview = true\nexplicit-preview-rules = true\n"
    assert rules_of(check(corpus(tmp_path / "a", explicit))) == {"broken-link"}
    by_prefix = corpus(tmp_path / "b", explicit + 'select = ["enum", "broken"]\n')
    assert rules_of(check(by_prefix)) == {"broken-link"}
    by_id = corpus(tmp_path / "c", explicit + 'select = ["enum-drift", "broken"]\n')
    assert rules_of(check(by_id)) == {"broken-link", "enum-drift"}


def test_quiet_leaves_out_the_line_on_preview_rules(tmp_path: Path) -> None:
    done = check(corpus(tmp_path), "--quiet")
    assert "preview" not in done.stderr


@pytest.mark.parametrize(
    ("where", "value", "complaint"),
    [
        ("config", 'preview = "yes"\n', "`preview` must be true or false"),
        ("config", "explicit-preview-rules = 1\n", "`explicit-preview-rules` must be true"),
        ("environment", "maybe", "SPECLINT_PREVIEW must be 1 or 0"),
    ],
)
def test_a_bad_preview_setting_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, value: str, complaint: str
) -> None:
    if where == "environment":
        monkeypatch.setenv("SPECLINT_PREVIEW", value)
    root = corpus(tmp_path, value if where == "config" else "")
    done = check(root)
    assert done.exit_code == 2 and complaint in done.stderr


def test_a_module_may_declare_a_new_rule_preview_before_it_has_labels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    catalog = dict(all_rules())
    assert not preview.is_preview("broken-link")
    catalog["broken-link"] = replace(catalog["broken-link"], declared_preview=True)
    monkeypatch.setattr(preview, "all_rules", lambda: catalog)
    assert preview.why_preview("broken-link").startswith("declared preview by its module")


def test_precision_under_the_bar_makes_a_preview_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    table = {"broken-link": preview.Measure(labels=40, true=35, false=3, noise=2)}
    monkeypatch.setattr(preview, "measured", lambda: table)
    assert preview.why_preview("broken-link") == "precision 88%, under 90%"
    table["broken-link"] = preview.Measure(labels=40, true=36, false=2, noise=2)
    assert preview.why_preview("broken-link") == ""
    table["broken-link"] = preview.Measure(labels=110, true=99, false=11)  # 90 % exactly
    assert preview.why_preview("broken-link") == ""
    assert preview.why_preview("waiver") == ""  # speclint's own findings are no rules


def test_the_bundled_corpus_runs_every_rule_without_being_told() -> None:
    """The tour's `speclint check corpus/` and the reference reports show every rule."""
    from conftest import BUNDLED_CORPUS

    outcome = lint(BUNDLED_CORPUS, Options(cache=False))
    assert outcome.held.rules == () and "enum-drift" in outcome.result.rules


def test_the_openwop_profile_keeps_every_rule(tmp_path: Path) -> None:
    root = corpus(tmp_path, 'profile = "openwop"\ninclude = ["**/*.json", "**/*.md"]\n')
    assert rules_of(check(root)) == {"broken-link", "enum-drift"}


def test_a_baseline_entry_of_a_preview_rule_is_not_fixed_when_it_does_not_run(
    tmp_path: Path,
) -> None:
    """A baseline written in preview mode holds the preview rules' findings; a run without
    preview mode leaves them unjudged, as --ignore does, and does not call them fixed."""
    root = corpus(tmp_path)
    baseline = tmp_path / "baseline.json"
    written = run_cli("baseline", "write", str(root), "--output", str(baseline))
    assert written.exit_code == 0, written.stderr
    assert "enum-drift" not in baseline.read_text(encoding="utf-8")  # the default set's only
    (root / "speclint.toml").write_text("preview = true\n", encoding="utf-8")
    run_cli("baseline", "write", str(root), "--output", str(baseline))
    (root / "speclint.toml").unlink()
    gated = check(root, "--baseline", str(baseline))
    assert gated.exit_code == 0, gated.stderr
    assert "entries are fixed" not in gated.stderr and "entry is fixed" not in gated.stderr
    assert "1 baseline entry of rules that did not run" in gated.stderr
    assert "preview rules without --preview" in gated.stderr


def test_without_its_data_file_speclint_stops_rather_than_run_no_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broken installation must not make every rule preview and pass a run of none."""
    monkeypatch.setattr(preview, "measured", SHIPPED.__wrapped__)  # type: ignore[attr-defined]
    monkeypatch.setattr(preview.resources, "files", lambda package: tmp_path)
    for done in (check(corpus(tmp_path)), run_cli("rules"), run_cli("rule", "enum-drift")):
        assert done.exit_code == 2
        assert "data/precision.json cannot be read" in done.stderr


# --- the front ends, through the engine's option ------------------------------------------------


def test_the_engine_option_decides_for_every_front_end(tmp_path: Path) -> None:
    root = corpus(tmp_path, "preview = true\n")
    found = {f.rule for f in lint(root, Options(cache=False)).findings}
    assert found == {"broken-link", "enum-drift"}
    outcome = lint(root, Options(cache=False, preview=False))
    assert {f.rule for f in outcome.findings} == {"broken-link"}
    assert outcome.held.rules == ("enum-drift",) and outcome.held.named == ()


def git(*args: str, cwd: Path) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True)


def test_the_commit_hook_runs_preview_rules_only_in_preview_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = corpus(tmp_path)
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    monkeypatch.chdir(root)
    plain = run_cli("hook", "--strict", "--no-color")
    assert "[broken-link]" in plain.stdout and "[enum-drift]" not in plain.stdout
    assert "1 preview rule not run" in plain.stderr
    previewed = run_cli("hook", "--strict", "--no-color", "--preview")
    assert "[enum-drift]" in previewed.stdout


def test_the_language_server_follows_the_configuration(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the language server is the speclint[lsp] extra")
    from speclint.frontends.lsp import SpeclintServer

    for config, expected in (
        ("", {"broken-link"}),
        ("preview = true\n", {"broken-link", "enum-drift"}),
    ):
        server = SpeclintServer()
        server.root = corpus(tmp_path / str(len(config)), config)
        outcome = server._lint({})
        assert outcome is not None and {f.rule for f in outcome.findings} == expected


# --- what the commands and reports say ----------------------------------------------------------


def test_rule_prints_the_measured_precision_and_the_labels_behind_it() -> None:
    shown = run_cli("rule", "enum-drift", "--no-color")
    assert shown.exit_code == 0
    first, measured_line, why = shown.stdout.splitlines()[:3]
    assert first == "enum-drift [error, preview]"
    assert measured_line.startswith("Precision: 100% over 3 labelled findings")
    assert "(3 true, 0 false, 0 noise); 35 labels of findings it no longer makes" in measured_line
    assert why.startswith("A preview rule (3 labelled findings, under the 20 needed)")
    stable = run_cli("rule", "broken-link", "--no-color").stdout.splitlines()
    assert stable[0] == "broken-link [warning]"
    assert stable[1] == (
        "Precision: 100% over 100 labelled findings of the ecosystem check "
        "(100 true, 0 false, 0 noise)."
    )
    assert "Precision" not in run_cli("rule", "waiver").stdout


def test_rules_marks_the_preview_rules() -> None:
    listing = {line.split()[0]: line.split()[2] for line in run_cli("rules").stdout.splitlines()}
    assert listing["enum-drift"] == "preview"
    assert listing["broken-link"] != "preview"


def test_sarif_marks_the_descriptors_of_preview_rules(tmp_path: Path) -> None:
    root = corpus(tmp_path)
    done = run_cli("check", str(root), "--no-cache", "--preview", "--format", "sarif")
    rules = {r["id"]: r for r in json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["enum-drift"]["properties"] == {"preview": True, "tags": ["preview"]}
    assert "properties" not in rules["broken-link"]


# --- heuristics inside a rule -------------------------------------------------------------------

# example-invalid by two bindings: a schema's own `examples` (in-document, proven) and a fence
# its marker comment ties (explicit: five labels, a preview heuristic here).
RUN_WITH_EXAMPLE = schema(
    title="RunSnapshot",
    type="object",
    properties={"status": {"enum": ["queued", "running"], "examples": ["paused"]}},
)
NAMED_PAGE = (
    "# Runs\n\nA snapshot, as `schemas/run-snapshot.schema.json` has it:\n\n"
    '```json\n{"status": "stopped"}\n```\n'
)
MARKED_PAGE = (
    "# Runs\n\n<!-- normative-example: schemas/run-snapshot.schema.json -->\n"
    '```json\n{"status": "stopped"}\n```\n'
)


def bound_two_ways(tmp_path: Path) -> Path:
    return write_files(
        tmp_path / "spec",
        {"schemas/run-snapshot.schema.json": RUN_WITH_EXAMPLE, "spec/runs.md": NAMED_PAGE},
    )


def heuristics_of(result: Result) -> list[str | None]:
    return sorted(f["heuristic"] for f in json.loads(result.stdout)["findings"])


def test_a_heuristic_under_the_bar_is_held_back_without_preview_and_reported_with_it(
    tmp_path: Path,
) -> None:
    root = bound_two_ways(tmp_path)
    plain = check(root, "--select", "example-invalid")
    assert heuristics_of(plain) == ["example-invalid/in-document"]
    assert (
        "speclint: 1 finding of preview heuristics not reported (example-invalid/adjacent-text 1; "
        "--preview reports them" in plain.stderr
    )
    previewed = check(root, "--select", "example-invalid", "--preview")
    assert heuristics_of(previewed) == [
        "example-invalid/adjacent-text",
        "example-invalid/in-document",
    ]
    assert "preview heuristics" not in previewed.stderr
    outcome = lint(root, Options(cache=False, rules=("example-invalid",)))
    assert outcome.held.heuristics == (("example-invalid/adjacent-text", 1),)
    assert [f.heuristic for f in outcome.result.findings] == ["example-invalid/in-document"]


def test_a_finding_held_back_matches_its_baseline_entry_and_is_not_fixed(tmp_path: Path) -> None:
    root = bound_two_ways(tmp_path)
    (root / "speclint.toml").write_text("preview = true\n", encoding="utf-8")
    baseline = tmp_path / "baseline.json"
    run_cli("baseline", "write", str(root), "--output", str(baseline))
    (root / "speclint.toml").unlink()
    gated = check(root, "--select", "example-invalid", "--baseline", str(baseline))
    assert gated.exit_code == 0, gated.stderr
    assert "fixed" not in gated.stderr


def test_a_rule_with_one_heuristic_keeps_its_own_status(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = dict(all_rules())
    catalog["broken-link"] = replace(catalog["broken-link"], heuristics=("broken-link/only",))
    monkeypatch.setattr(preview, "all_rules", lambda: catalog)
    assert "broken-link/only" not in preview.heuristic_rules()
    assert preview.why_heuristic_preview("broken-link/only") == ""
    assert not preview.is_preview("broken-link")
    assert preview.why_heuristic_preview("example-invalid/adjacent-text") == (
        "5 labelled findings, under the 20 needed"
    )


def test_a_declared_tie_runs_with_its_rule_whatever_its_labels(tmp_path: Path) -> None:
    # The author's marker comment guesses nothing: under the bar (5 labels), it is still run.
    root = write_files(
        tmp_path / "spec",
        {"schemas/run-snapshot.schema.json": RUN_WITH_EXAMPLE, "spec/runs.md": MARKED_PAGE},
    )
    plain = check(root, "--select", "example-invalid")
    assert heuristics_of(plain) == ["example-invalid/explicit", "example-invalid/in-document"]
    assert "preview heuristics" not in plain.stderr
    assert preview.why_heuristic_preview("example-invalid/explicit") == ""


def test_every_finding_of_a_rule_with_heuristics_names_one_of_them() -> None:
    from conftest import BUNDLED_CORPUS

    outcome = lint(BUNDLED_CORPUS, Options(cache=False, preview=True))
    catalog = all_rules()
    made = [f for f in outcome.result.findings if len(catalog[f.rule].heuristics) > 1]
    assert {f.rule for f in made} >= {"example-invalid", "enum-drift", "copy-drift"}
    for finding in made:
        assert finding.heuristic in catalog[finding.rule].heuristics, finding
    for rule in ("example-invalid", "enum-drift", "copy-drift"):
        doc = " ".join(catalog[rule].doc.split())
        names = ", ".join(f"``{h.split('/', 1)[1]}``" for h in catalog[rule].heuristics)
        assert names in doc.replace(" (info string, marker, configuration)", ""), rule


def test_rule_prints_each_heuristics_precision() -> None:
    shown = run_cli("rule", "example-invalid", "--no-color").stdout.splitlines()
    assert "Heuristics (the findings each one made):" in shown
    assert "  example-invalid/by-shape: 100% over 100 labels (100 true, 0 false, 0 noise)" in shown
    assert (
        "  example-invalid/adjacent-text: 100% over 5 labels (5 true, 0 false, 0 noise); preview "
        "(5 labelled findings, under the 20 needed)"
    ) in shown
    assert (
        "  example-invalid/explicit: 100% over 5 labels (5 true, 0 false, 0 noise); a declared "
        "tie, run with the rule"
    ) in shown
    assert not any(
        "Heuristics" in line for line in run_cli("rule", "broken-link").stdout.split("\n")
    )


def test_sarif_and_json_carry_the_heuristic_of_a_result(tmp_path: Path) -> None:
    root = bound_two_ways(tmp_path)
    done = run_cli(
        "check",
        str(root),
        "--no-cache",
        "--preview",
        "--select",
        "example-invalid",
        "--format",
        "sarif",
    )
    results = json.loads(done.stdout)["runs"][0]["results"]
    assert sorted(r["properties"]["heuristic"] for r in results) == [
        "example-invalid/adjacent-text",
        "example-invalid/in-document",
    ]
    links = check(corpus(tmp_path / "links"), "--select", "broken-link")
    assert [f["heuristic"] for f in json.loads(links.stdout)["findings"]] == [None]


# --- the data file ------------------------------------------------------------------------------


def load_script() -> object:
    spec = importlib.util.spec_from_file_location("ecosystem_precision", ECOSYSTEM / "precision.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ecosystem_precision"] = module
    spec.loader.exec_module(module)
    return module


def test_the_data_file_is_fresh_against_the_labels() -> None:
    data = json.loads((REPOSITORY / "linter/data/precision.json").read_text(encoding="utf-8"))
    digest = hashlib.sha256((ECOSYSTEM / "labels.toml").read_bytes()).hexdigest()
    assert data["labels_sha256"] == digest, (
        "linter/data/precision.json is stale against benchmarks/ecosystem/labels.toml; "
        "regenerate it with: SPECLINT_ECOSYSTEM_DIR=<the ecosystem runs> "
        "python benchmarks/ecosystem/precision.py"
    )
    for rule, entry in [*data["rules"].items(), *data["heuristics"].items()]:
        assert entry["labels"] == entry["true"] + entry["false"] + entry["noise"], rule
        if entry["labels"]:
            assert entry["precision"] == round(entry["true"] / entry["labels"], 4), rule
    # Every heuristic the rules declare, and no other (one renamed or added: regenerate), each
    # measured over runs whose findings name their heuristic (none left unattributed).
    declared = preview.heuristic_rules()
    assert set(data["heuristics"]) == set(declared), (
        "linter/data/precision.json is stale against the rules' HEURISTICS; regenerate it"
    )
    assert data["unattributed"] == 0, (
        "linter/data/precision.json was made from runs whose findings name no heuristic: "
        "run those repositories again (benchmarks/ecosystem/precision.py says how)"
    )
    for rule in set(declared.values()):
        within = sum(data["heuristics"][h]["labels"] for h, r in declared.items() if r == rule)
        assert within <= data["rules"].get(rule, {"labels": 0})["labels"], rule


def test_the_documentation_names_the_default_set_the_data_file_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(preview, "measured", SHIPPED)
    # The real catalog, module declarations included (the autouse fixture sets them aside): a
    # rule its module still declares preview is no part of the default set whatever its labels.
    monkeypatch.setattr(preview, "all_rules", all_rules)
    proven = sorted(
        rule
        for rule in all_rules()
        if not preview.is_preview(rule) and rule not in preview.ALWAYS_RUN
    )
    named = [f"`{rule}`" for rule in proven]
    listed = ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)
    always = ", ".join(f"`{rule}`" for rule in sorted(preview.ALWAYS_RUN))
    page = (REPOSITORY / "docs" / "preview.md").read_text(encoding="utf-8")
    assert f"the labels of this version the default set is {listed}, and {always}," in " ".join(
        page.split()
    ), "docs/preview.md, Preview rules: the default set is " + listed


def test_a_file_speclint_cannot_read_is_a_finding_whatever_the_labels_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bad input is a finding or a clear error, never a silent pass: parse-error runs even with
    # no labels at all (it was a preview rule, and a broken file gave "no findings", exit 0).
    table = dict(preview.measured())
    table["parse-error"] = preview.Measure()
    monkeypatch.setattr(preview, "measured", lambda: table)
    root = write_files(
        tmp_path / "spec",
        {"schemas/a.schema.json": '{"type": ', "schemas/b.schema.json": '{"type": "object"}'},
    )
    result = check(root)
    assert result.exit_code == 1
    assert rules_of(result) == {"parse-error"}
    assert not preview.is_preview("parse-error")


def test_the_script_counts_labels_of_current_findings_and_reads_extra_keys(tmp_path: Path) -> None:
    script = load_script()
    check = script.check  # type: ignore[attr-defined]
    commit = "0123456789abcdef0123456789abcdef01234567"
    labels_file = tmp_path / "labels.toml"
    rows = [
        ("o/a", "f1", "true", "warning"),  # its finding is there, at its severity: counted
        ("o/a", "f2", "false", "warning"),  # its finding is gone (fixed): stale
        ("o/a", "f3", "noise", "warning"),  # its finding is an info now: stale (read again)
        ("o/b", "f4", "false", "warning"),  # no stored run of o/b: counted as read
    ]
    labels_file.write_text(
        "".join(
            f'[[label]]\nrepo = "{repo}"\ncommit = "{commit}"\nrule = "broken-link"\n'
            f'path = "a.md"\nfingerprint = "{fp}"\nverdict = "{verdict}"\nreason = "r"\n'
            f'severity = "{severity}"\nbatch = 3\nfirst_read = true\n\n'
            for repo, fp, verdict, severity in rows
        ),
        encoding="utf-8",
    )
    labels = script.read_labels(labels_file)  # type: ignore[attr-defined]
    hits = [
        check.Hit("broken-link", "warning", "a.md", 1, "m", "f1"),
        check.Hit("broken-link", "info", "a.md", 2, "m", "f3"),
    ]
    results = {"o/a": check.Result("o/a", commit, 1.0, 1.0, 0, 1, hits)}
    measured_rules = script.measure(results, labels)  # type: ignore[attr-defined]
    assert measured_rules == {
        "broken-link": {
            "labels": 2,
            "true": 1,
            "false": 1,
            "noise": 0,
            "precision": 0.5,
            "stale": 2,
        }
    }
    text = script.document(measured_rules, "d" * 64)  # type: ignore[attr-defined]
    assert json.loads(text)["rules"] == measured_rules and text.endswith("}\n")


def test_the_script_measures_each_heuristic_over_the_findings_it_made(tmp_path: Path) -> None:
    script = load_script()
    check = script.check  # type: ignore[attr-defined]
    commit = "0123456789abcdef0123456789abcdef01234567"
    rows = [("f1", "true"), ("f2", "false"), ("f3", "true"), ("f4", "noise")]
    labels = [
        check.Label("o/a", commit, "example-invalid", "a.md", fp, verdict, "r", "error")
        for fp, verdict in rows
    ]
    hits = [
        check.Hit("example-invalid", "error", "a.md", 1, "m", "f1", "example-invalid/by-shape"),
        check.Hit("example-invalid", "error", "a.md", 2, "m", "f2", "example-invalid/by-shape"),
        check.Hit("example-invalid", "error", "a.md", 3, "m", "f3", "example-invalid/by-value"),
        check.Hit("example-invalid", "error", "a.md", 4, "m", "f4"),  # a run made before them
    ]
    results = {"o/a": check.Result("o/a", commit, 1.0, 1.0, 0, 1, hits)}
    declared = {
        h: "example-invalid"
        for h in (
            "example-invalid/by-shape",
            "example-invalid/by-value",
            "example-invalid/explicit",
        )
    }
    measured, unattributed = script.measure_heuristics(results, labels, declared)  # type: ignore[attr-defined]
    assert unattributed == 1
    assert measured["example-invalid/by-shape"] == {
        "labels": 2,
        "true": 1,
        "false": 1,
        "noise": 0,
        "precision": 0.5,
    }
    assert measured["example-invalid/by-value"]["labels"] == 1
    assert measured["example-invalid/explicit"] == {
        "labels": 0,
        "true": 0,
        "false": 0,
        "noise": 0,
        "precision": None,
    }
    text = script.document({}, "d" * 64, measured, unattributed)  # type: ignore[attr-defined]
    assert json.loads(text)["heuristics"] == measured and json.loads(text)["unattributed"] == 1


def test_a_rule_is_judged_by_what_it_reports_without_its_held_back_heuristics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 30 labels of example-invalid are noise of a heuristic that only preview mode runs: the
    # findings it reports by default (70 of 70 true) put it in the default set.
    table = dict(preview.measured())
    table["example-invalid"] = preview.Measure(labels=100, true=70, noise=30)
    monkeypatch.setattr(preview, "measured", lambda: table)
    heuristics = dict(preview.measured_heuristics())
    heuristics["example-invalid/adjacent-text"] = preview.Measure(labels=30, noise=30)
    monkeypatch.setattr(preview, "measured_heuristics", lambda: heuristics)
    assert preview.why_heuristic_preview("example-invalid/adjacent-text")
    assert preview.default_measure("example-invalid") == preview.Measure(labels=70, true=70)
    assert not preview.is_preview("example-invalid")
    said = preview.precision_lines("example-invalid")[0]
    assert "70% over 100 labelled findings" in said
    assert "without its preview heuristics (what it reports by default) 100% over 70" in said
    # A held-back heuristic's true labels (10, under the 20 needed) do not lift a rule either:
    # the rule's default findings alone decide (50 true of 90).
    heuristics["example-invalid/adjacent-text"] = preview.Measure(labels=10, true=10)
    table["example-invalid"] = preview.Measure(labels=100, true=60, noise=40)
    assert preview.why_preview("example-invalid") == "precision 56%, under 90%"
