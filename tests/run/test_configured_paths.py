"""Files speclint opens by a configured path, and configuration typos (issue 25, items 6 and 13).

A baseline, a ``--config`` or the corpus's own ``speclint.toml`` is read like a corpus file when it
lies in the corpus root: a committed link out of the root, or a FIFO, is refused (exit 2, one
line) and nothing of the file it names is shown. A path outside the root that the user gives is
theirs and is read. A typo in the configuration (a rule id, a rule's option, a waiver key, a
top-level key) or in a ``SPECLINT_*`` variable is an error that names the key and the nearest
valid one.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from test_cli import cli
from test_trust import GIT, committed

from conftest import BUNDLED_CORPUS, REPOSITORY, cli_in_process, schema, write_files
from speclint.model.config import config_from_table, load_config
from speclint.run.catalog import all_rules
from speclint.run.engine import EngineError, load

SECRET = "TOPSECRET-abc123"
SPEC = {
    "schemas/run.schema.json": schema(
        type="object", properties={"status": {"enum": ["queued", "done"]}}
    ),
    "schemas/loose.schema.json": schema(type="object", properties={"a": {}}, required=["b"]),
}


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused run prints: exit 2, no traceback, no report."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    return done.stderr


def secret_file(folder: Path, content: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "secret.json"
    target.write_text(content or json.dumps({"speclint-baseline": SECRET, "entries": SECRET}))
    return target


# Item 6: a committed link out of the root is refused wherever a configured path meets it.


@GIT
def test_a_committed_baseline_link_out_of_the_root_is_refused_and_not_shown(
    tmp_path: Path,
) -> None:
    outside = secret_file(tmp_path / "outside")
    origin = write_files(tmp_path / "origin", SPEC)
    (origin / "speclint-baseline.json").symlink_to(os.path.relpath(outside, origin))
    (origin / "baselines").symlink_to(os.path.relpath(outside.parent, origin))
    clone = committed(tmp_path, {}, name="origin")
    assert (clone / "speclint-baseline.json").is_symlink()
    # The root named through a symlinked parent folder (as /tmp is on macOS) changes nothing.
    alias = tmp_path / "alias"
    alias.symlink_to(tmp_path, target_is_directory=True)
    for root, baseline, cwd in (
        (str(clone), str(clone / "speclint-baseline.json"), None),
        (".", "speclint-baseline.json", clone),
        (str(clone), str(clone / "baselines" / "secret.json"), None),
        (str(alias / clone.name), str(alias / clone.name / "speclint-baseline.json"), None),
        (str(clone), str(alias / clone.name / "baselines" / "secret.json"), None),
    ):
        done = cli_in_process("check", root, "--baseline", baseline, cwd=cwd)
        message = one_line_error(done)
        assert "symlink" in message and "outside the corpus root" in message, message
        assert SECRET not in done.stdout + done.stderr


def test_a_baseline_the_user_keeps_outside_the_root_is_read(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    kept = tmp_path / "kept" / "baseline.json"
    kept.parent.mkdir()
    assert cli_in_process("baseline", "write", str(corpus), "-o", str(kept)).returncode == 0
    # The user's own link outside the root to a file outside it: their choice, read.
    link = tmp_path / "link.json"
    link.symlink_to(kept)
    for given in (kept, link):
        done = cli_in_process("check", str(corpus), "--baseline", str(given))
        assert done.returncode == 0 and "known finding(s) not shown" in done.stderr, done.stderr


def test_a_baseline_inside_the_root_that_is_a_link_inside_it_is_read(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    (corpus / "baselines").mkdir()
    assert (
        cli_in_process(
            "baseline", "write", str(corpus), "-o", str(corpus / "baselines/b.json")
        ).returncode
        == 0
    )
    (corpus / "speclint-baseline.json").symlink_to("baselines/b.json")
    done = cli_in_process(
        "check", str(corpus), "--baseline", str(corpus / "speclint-baseline.json")
    )
    assert done.returncode == 0 and "known finding(s) not shown" in done.stderr, done.stderr


# The tests of a FIFO run speclint in a child, whose time limit ends a run that blocks on it; the
# others run it in process (what it prints and exits with is the question, not the process).
@pytest.mark.parametrize("inside", [True, False])
def test_a_fifo_baseline_is_refused_without_blocking(tmp_path: Path, inside: bool) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    fifo = (corpus if inside else tmp_path) / "baseline.json"
    os.mkfifo(fifo)
    message = one_line_error(cli("check", str(corpus), "--baseline", str(fifo)))
    assert "not a regular file" in message


@pytest.mark.parametrize(
    "document",
    [
        {"speclint-baseline": SECRET, "entries": []},
        {"speclint-baseline": 1, "entries": SECRET},
        {"speclint-baseline": 1, "entries": [SECRET]},
        {"speclint-baseline": 1, "entries": [{"id": SECRET, "rule": "x", "path": "y"}]},
        {"speclint-baseline": 1, "entries": [{"id": 7, "rule": SECRET, "path": "y"}]},
        {"speclint-baseline": 1, "entries": [{"id": "0" * 24, "rule": "", "path": SECRET}]},
        {SECRET: 1},
    ],
)
def test_a_baseline_error_names_a_location_never_a_value(tmp_path: Path, document: object) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(document))
    done = cli_in_process("check", str(corpus), "--baseline", str(baseline))
    message = one_line_error(done)
    assert SECRET not in message and str(baseline) in message, message


def test_a_baseline_that_is_not_utf8_names_no_byte_of_it(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    baseline = tmp_path / "baseline.json"
    baseline.write_bytes(b'{"speclint-baseline": 1, "entries": ["\xfe"]}')
    message = one_line_error(cli_in_process("check", str(corpus), "--baseline", str(baseline)))
    assert "UTF-8" in message and "0xfe" not in message and "\\xfe" not in message, message


def test_a_baseline_nested_100000_deep_is_a_baseline_error(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        '{"speclint-baseline": 1, "entries": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )
    message = one_line_error(cli_in_process("check", str(corpus), "--baseline", str(baseline)))
    assert str(baseline) in message and "deep" in message, message


@pytest.mark.parametrize("name", ["speclint.toml", "pyproject.toml"])
def test_a_fifo_configuration_is_an_error_not_ignored_nor_a_hang(tmp_path: Path, name: str) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    os.mkfifo(corpus / name)
    message = one_line_error(cli("check", str(corpus)))
    assert name in message and "not a regular file" in message, message
    # Advice that fits a configuration file: excluding it from the corpus would not help.
    assert "exclude" not in message and message.rstrip().endswith("make it a regular file"), message


def test_a_fifo_given_as_config_is_not_a_regular_file(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    os.mkfifo(tmp_path / "conf.toml")
    message = one_line_error(cli("check", str(corpus), "--config", str(tmp_path / "conf.toml")))
    assert "not a regular file" in message, message


def test_a_configuration_nested_100000_deep_is_a_configuration_error(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    (corpus / "speclint.toml").write_text("exclude = " + "[" * 100_000 + "]" * 100_000 + "\n")
    message = one_line_error(cli_in_process("check", str(corpus)))
    assert "speclint.toml" in message and "deep" in message, message


@GIT
def test_a_config_path_through_a_committed_link_out_of_the_root_is_refused(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "speclint.toml").write_text(f'fail-on = "info"\n# {SECRET}\n')
    origin = write_files(tmp_path / "origin", SPEC)
    (origin / "conf").symlink_to(os.path.relpath(outside, origin))
    (origin / "speclint.toml").symlink_to(os.path.relpath(outside / "speclint.toml", origin))
    clone = committed(tmp_path, {}, name="origin")
    for extra in ((), ("--config", str(clone / "conf" / "speclint.toml"))):
        done = cli_in_process("check", str(clone), *extra)
        message = one_line_error(done)
        assert "outside the corpus root" in message and SECRET not in message, message
    # The same file, named by the user where it lies, is their configuration.
    done = cli_in_process("check", str(clone), "--config", str(outside / "speclint.toml"))
    assert done.returncode == 1 and "required-undeclared" in done.stdout, done.stderr


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (f'[roles]\n"schemas/run.schema.json" = "{SECRET}"\n', "roles"),
        (f'profile = "{SECRET}"\n', "profile"),
        (f'[rules]\nrequired-undeclared = "{SECRET}"\n', "required-undeclared"),
        (f'fail-on = "{SECRET}"\n', "fail-on"),
    ],
)
def test_a_configuration_error_names_the_key_not_the_value(
    tmp_path: Path, text: str, where: str
) -> None:
    corpus = write_files(tmp_path / "spec", {**SPEC, "speclint.toml": text})
    message = one_line_error(cli_in_process("check", str(corpus)))
    assert where in message and SECRET not in message, message


@pytest.mark.parametrize("target", ["../outside/", "/etc/", "vendor/../../outside/x.json"])
def test_a_ref_map_target_out_of_the_root_is_a_configuration_error(
    tmp_path: Path, target: str
) -> None:
    text = f'[ref-map]\n"https://example.org/" = "{target}"\n'
    corpus = write_files(tmp_path / "spec", {**SPEC, "speclint.toml": text})
    message = one_line_error(cli_in_process("check", str(corpus)))
    assert "ref-map" in message and "https://example.org/" in message, message


@GIT
def test_a_ref_map_target_behind_a_committed_link_is_never_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.schema.json").write_text(schema(enum=[SECRET]))
    text = '[ref-map]\n"https://example.org/" = "vendor/"\n'
    remote = schema(**{"$ref": "https://example.org/x.schema.json"})
    files = {**SPEC, "schemas/remote.schema.json": remote, "speclint.toml": text}
    origin = write_files(tmp_path / "origin", files)
    (origin / "vendor").symlink_to(os.path.relpath(outside, origin))
    clone = committed(tmp_path, {}, name="origin")
    done = cli_in_process("check", str(clone), "--format", "json")
    assert done.returncode == 1 and SECRET not in done.stdout + done.stderr
    found = json.loads(done.stdout)["findings"]
    assert any(f["rule"] == "unresolved-ref" and "did not load" in f["message"] for f in found), (
        found
    )


# Item 13: configuration typos are errors that name the key and the nearest valid one.


@pytest.mark.parametrize(
    ("text", "wrong", "meant"),
    [
        ('[rules]\nenum-drfit = "off"\n', "enum-drfit", "enum-drift"),
        ("[rules.broken-link]\nignore_case = true\n", "ignore_case", "ignore-case"),
        ('[rules.unsatisfiable-schema]\nscop = "all"\n', "scop", "scope"),
        ('[rules.enum-drift]\nseverity = "warning"\nbindings = 1\n', "bindings", None),
        (
            '[[waivers]]\nrule = "required-undeclared"\npath = "schemas/loose.schema.json"\nreasn = "x"\n',
            "reasn",
            "reason",
        ),
        ('exlude = ["drafts/**"]\n', "exlude", "exclude"),
        ("[rule]\nrequired-undeclared = 'off'\n", "rule", "rules"),
        ('[build]\nouput = "dist"\n', "ouput", "output"),
    ],
)
def test_a_configuration_typo_names_the_key_and_the_nearest_valid_one(
    tmp_path: Path, text: str, wrong: str, meant: str | None
) -> None:
    corpus = write_files(tmp_path / "spec", {**SPEC, "speclint.toml": text})
    message = one_line_error(cli_in_process("check", str(corpus)))
    assert f"`{wrong}`" in message, message
    if meant is not None:
        assert f"did you mean `{meant}`" in message, message
    else:
        assert "no options" in message, message


def test_typos_in_pyproject_are_found_in_its_tool_table(tmp_path: Path) -> None:
    text = '[tool.speclint.rules]\nrequired-undeclard = "off"\n'
    corpus = write_files(tmp_path / "spec", {**SPEC, "pyproject.toml": text})
    message = one_line_error(cli_in_process("check", str(corpus)))
    assert "pyproject.toml" in message and "did you mean `required-undeclared`" in message, message


def test_a_correct_configuration_still_loads(tmp_path: Path) -> None:
    text = (
        '[rules]\nrequired-undeclared = "off"\n'
        '[rules.broken-link]\nignore-case = true\nseverity = "warning"\n'
        '[[waivers]]\nrules = ["enum-drift"]\npath = "a.md"\nwhere = "#x"\nreason = "r"\n'
        'who = "me"\nexpires = 2099-01-01\n'
        '[build]\noutput = "dist"\nschemas = []\napi-format = "json"\n'
    )
    corpus = write_files(tmp_path / "spec", {**SPEC, "speclint.toml": text})
    config = load_config(corpus)
    assert config.rule_options["broken-link"] == {"ignore-case": True}


def test_every_option_a_rule_reads_is_documented() -> None:
    """The options a rule accepts are those its docstring's Options section lists: an option
    the code reads and the documentation misses would be refused as a typo."""
    from speclint.model.config import documented_options

    for rule_id, info in all_rules().items():
        module = importlib.import_module(info.module)
        source = inspect.getsource(module)
        read = _options_read(source)
        # and those read for it by an analysis: `Binding.of(options)` (example-invalid's bindings)
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "of"
                and isinstance(node.func.value, ast.Name)
                and any(isinstance(a, ast.Name) and a.id == "options" for a in node.args)
            ):
                reader = getattr(module, node.func.value.id)
                read |= _options_read(textwrap.dedent(inspect.getsource(reader.of)))
        assert read <= documented_options(info.doc), (rule_id, read - documented_options(info.doc))


def _options_read(source: str) -> set[str]:
    """The names ``options.get("name", ...)`` reads in ``source``."""
    return {
        str(node.args[0].value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "options"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_the_shipped_profiles_and_corpus_configurations_pass_the_check(tmp_path: Path) -> None:
    assert config_from_table({"profile": "openwop"}).rule_options["rfc-header"]
    for found in [BUNDLED_CORPUS / "speclint.toml", *REPOSITORY.glob("*.toml")]:
        corpus = tmp_path / found.parent.name
        corpus.mkdir(exist_ok=True)
        (corpus / found.name).write_bytes(found.read_bytes())
        load_config(corpus)  # raises ConfigError on a key the check does not know


def test_a_configured_unknown_rule_is_refused_in_process(tmp_path: Path) -> None:
    (tmp_path / "speclint.toml").write_text('[rules]\nno-such-rule = "off"\n')
    with pytest.raises(EngineError, match=re.escape("`no-such-rule`")):
        load(tmp_path)


BAD_VARIABLES = [
    ("SPECLINT_JOBS", "abc", "whole number"),
    ("SPECLINT_JOBS", "0", "whole number"),
    ("SPECLINT_JOBS", "-2", "whole number"),
    ("SPECLINT_TIME_LIMIT", "-5", "seconds"),
    ("SPECLINT_TIME_LIMIT", "abc", "seconds"),
    ("SPECLINT_TIME_LIMIT", "nan", "seconds"),
    ("SPECLINT_TIME_LIMIT", "inf", "seconds"),
]


@pytest.mark.parametrize(
    ("command", "variable", "value", "accepted"),
    [("check", *bad) for bad in BAD_VARIABLES]
    # `files` reads the corpus on every core too; it has no time limit.
    + [("files", *bad) for bad in BAD_VARIABLES if bad[0] == "SPECLINT_JOBS"],
)
def test_a_bad_speclint_variable_is_refused_in_one_line(
    tmp_path: Path, command: str, variable: str, value: str, accepted: str
) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    done = cli_in_process(command, str(corpus), env={**os.environ, variable: value})
    message = one_line_error(done)
    assert variable in message and accepted in message, message


@pytest.mark.parametrize(
    ("variable", "value"), [("SPECLINT_JOBS", "3"), ("SPECLINT_TIME_LIMIT", "0")]
)
def test_good_speclint_variables_are_taken(tmp_path: Path, variable: str, value: str) -> None:
    corpus = write_files(tmp_path / "spec", SPEC)
    done = cli_in_process("check", str(corpus), env={**os.environ, variable: value})
    assert done.returncode == 0 and "[required-undeclared]" in done.stdout, done.stderr


@pytest.mark.parametrize(
    ("waiver", "wrong", "meant"),
    [
        (
            {"x-speclint-ignore": {"rules": ["required-undeclared"], "reasn": "vendored"}},
            "reasn",
            "reason",
        ),
        (
            {
                "x-speclint-ignore": {
                    "rules": ["required-undeclared"],
                    "reason": "r",
                    "expirs": "2020-01-01",
                },
            },
            "expirs",
            "expires",
        ),
        (
            {
                "x-speclint-ignore": ["required-undeclared"],
                "x-speclint-reason": "r",
                "x-speclint-expire": "x",
            },
            "x-speclint-expire",
            "x-speclint-expires",
        ),
    ],
)
def test_an_in_source_waiver_with_a_mistyped_key_waives_nothing_and_says_why(
    tmp_path: Path, waiver: dict[str, object], wrong: str, meant: str
) -> None:
    """A waiver in the corpus is repository content: a typo in it is a `waiver` finding, not an
    exit 2, and the waiver waives nothing (`expirs` must not make it last forever)."""
    document = {"type": "object", "properties": {"a": {}}, "required": ["b"], **waiver}
    corpus = write_files(tmp_path / "spec", {"schemas/loose.schema.json": schema(**document)})
    done = cli_in_process("check", str(corpus), "--format", "json")
    found = json.loads(done.stdout)["findings"]
    assert any(f["rule"] == "required-undeclared" for f in found), found
    messages = [f["message"] for f in found if f["rule"] == "waiver"]
    assert any(f"`{wrong}`" in m and f"did you mean `{meant}`" in m for m in messages), messages


def test_the_documented_sample_of_a_typo_is_what_speclint_prints(tmp_path: Path) -> None:
    page = (REPOSITORY / "docs" / "configuration.md").read_text(encoding="utf-8")
    sample = next(line for line in page.splitlines() if "unknown option `ignore_case`" in line)
    root = write_files(
        tmp_path / "home/ann/spec",
        {**SPEC, "speclint.toml": "[rules.broken-link]\nignore_case = true\n"},
    )
    printed = one_line_error(cli_in_process("check", str(root))).strip()
    assert printed.replace(str(tmp_path.resolve()), "") == sample
