"""The resident checker (issue 29, item 3): ``speclint check --daemon`` and ``speclint hook
--daemon`` answer from a daemon that keeps the corpus in memory, print exactly what a cold
``--no-cache`` run prints after an edit of each kind of document, and trust only a private
folder, a socket of the user's, and a daemon of the same root."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from test_cli import cli as run_speclint
from test_diff_base import git

from conftest import cli_in_process, copy_bundled_corpus, write_files
from speclint.frontends import cli, client, daemon
from speclint.run import resident as resident_module
from speclint.run.engine import Options, lint
from speclint.run.resident import RACY_NANOSECONDS, Resident

pytestmark = pytest.mark.skipif(
    not hasattr(socket, "AF_UNIX"), reason="the daemon listens on a Unix socket"
)


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A daemon folder of the test's own ($XDG_RUNTIME_DIR, short enough for a socket path),
    and every daemon started in it stopped afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="sl-run-", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    for sock in (folder / "speclint").glob("*.sock"):
        with client.socket.socket(socket.AF_UNIX) as connection:
            try:
                connection.connect(str(sock))
                client.send(connection, {"command": "stop", "protocol": client.PROTOCOL})
            except OSError:
                pass
    shutil.rmtree(folder, ignore_errors=True)


def speclint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_speclint(*args, cwd=cwd)


def same_output(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command through the daemon (a real client and daemon), compared byte for byte with a
    cold run's (no cache; run in this process, as the reference it is)."""
    served = speclint(cwd, *args, "--daemon")
    cold = cli_in_process(*args, cwd=cwd, env={**os.environ, "SPECLINT_NO_CACHE": "1"})
    assert "daemon is not used" not in served.stderr, served.stderr
    assert (served.returncode, served.stdout, served.stderr) == (
        cold.returncode,
        cold.stdout,
        cold.stderr,
    )
    return served


def _parses(path: Path) -> bool:
    try:
        return isinstance(json.loads(path.read_text()), dict)
    except ValueError:
        return False


def edit_json(path: Path, change: dict[str, object]) -> None:
    data = json.loads(path.read_text())
    data.update(change)
    path.write_text(json.dumps(data, indent=2) + "\n")


# --- the command line the client reads without click ---------------------------------------------


@pytest.mark.parametrize("name", sorted(client.COMMANDS))
def test_the_clients_table_of_options_is_the_commands(name: str) -> None:
    command = cli.main.commands[name]
    taking_values = {
        spelling
        for parameter in command.params
        if isinstance(parameter, click.Option) and not parameter.is_flag
        for spelling in (*parameter.opts, *parameter.secondary_opts)
    }
    assert client.COMMANDS[name] == taking_values


def test_the_flag_is_told_from_an_option_value() -> None:
    assert client.wanted(["check", "--daemon", "corpus"])
    assert client.wanted(["hook", "--strict", "--daemon"])
    assert not client.wanted(["check", "--output", "--daemon"])  # a file named --daemon
    assert not client.wanted(["check", "-qo", "--daemon"])  # -q, then -o's value
    assert not client.wanted(["rules", "--daemon"])
    assert not client.wanted(["check", "--", "--daemon"])
    assert client.without_flag(["check", "-o", "--daemon", "--daemon", "a"]) == [
        "check",
        "-o",
        "--daemon",
        "a",
    ]
    assert client.without_flag(["check", "--daemon", "--", "--daemon"]) == [
        "check",
        "--",
        "--daemon",
    ]
    assert client._positionals(
        ["check", "-f", "json", "corpus", "--rule", "x", "-fjson", "--format=json", "b"]
    ) == ["corpus", "b"]


def test_the_client_knows_the_runs_default_time_limit() -> None:
    # Deferred: the engine, which the client itself never imports.
    from speclint.run.engine import DEFAULT_TIME_LIMIT

    assert client.DEFAULT_LIMIT == DEFAULT_TIME_LIMIT
    assert client._answer_wait(["check"]) == DEFAULT_TIME_LIMIT + client.ANSWER_MARGIN
    assert client._answer_wait(["check", "--time-limit", "0"]) is None
    assert client._answer_wait(["check", "--time-limit=30"]) == 30 + client.ANSWER_MARGIN


def test_each_installation_has_a_daemon_of_its_own(
    tmp_path: Path, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = client.socket_path(tmp_path)
    monkeypatch.setattr(client, "installation", lambda: "/other/python\x00/other/speclint")
    assert client.socket_path(tmp_path) not in (None, mine)


# --- the resident memory ------------------------------------------------------------------------


def test_a_resident_run_reads_only_what_changed_and_finds_what_a_cold_run_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    # The files were just written (their change time is now): trusted by status at once here,
    # not two seconds later; the two seconds are put back below.
    monkeypatch.setattr(resident_module, "RACY_NANOSECONDS", 0)
    resident = Resident(root)
    first = lint(root, Options(resident=resident))
    assert resident.files.reads == len(first.result.inventory) > 0
    again = lint(root, Options(resident=resident))
    assert resident.files.reads == 0 and again.findings == first.findings
    page = next(root.rglob("*.md"))
    size, stamp = page.stat().st_size, page.stat().st_mtime_ns
    # Same size, same modification time: the change time still tells.
    text = page.read_text()
    page.write_text(text.replace("a", "b", 1) if "a" in text else text.upper())
    os.utime(page, ns=(stamp, stamp))
    assert page.stat().st_size == size
    edited = lint(root, Options(resident=resident))
    assert resident.files.reads == 1 and resident.documents.misses == 1
    assert edited.findings == lint(root, Options(cache=False)).findings
    # A file just written is read again every time: its status may not show a second edit.
    monkeypatch.setattr(resident_module, "RACY_NANOSECONDS", RACY_NANOSECONDS)
    page.write_text(page.read_text() + "\nOne more line.\n")
    lint(root, Options(resident=resident))
    lint(root, Options(resident=resident))
    assert resident.files.reads == 1
    assert time.time_ns() - page.stat().st_mtime_ns < RACY_NANOSECONDS
    # A removed file is forgotten.
    page.unlink()
    lint(root, Options(resident=resident))
    assert page.relative_to(root).as_posix() not in resident.files.kept


def test_a_resident_serves_only_its_own_root_and_never_with_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_files(tmp_path / "a", {"a.md": "# A\n"})
    other = write_files(tmp_path / "b", {"b.md": "# B\n"})
    resident = Resident(root)
    lint(other, Options(resident=resident))
    assert resident.files.kept == {}
    lint(root, Options(resident=resident, cache=False))
    assert resident.files.kept == {} and resident.runs.records == {}
    monkeypatch.setenv("SPECLINT_NO_CACHE", "1")
    lint(root, Options(resident=resident))
    assert resident.runs.records == {}


# --- the daemon ---------------------------------------------------------------------------------


def test_the_daemon_prints_what_a_cold_run_prints_after_an_edit_of_each_kind(
    tmp_path: Path, runtime: Path
) -> None:
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    same_output(root, "check", "-f", "json")  # starts the daemon, cold
    started = speclint(root, "daemon", "status")
    assert started.returncode == 0 and "answered 1 command" in started.stdout
    schemas = [path for path in sorted(root.glob("schemas/**/*.json")) if _parses(path)]
    edits = {
        "a JSON Schema": lambda: edit_json(schemas[0], {"description": "Edited."}),
        "a closed enum": lambda: edit_json(schemas[1], {"additionalProperties": False}),
        "the OpenAPI document": lambda: (root / "api/openapi.yaml").write_text(
            (root / "api/openapi.yaml").read_text().replace("3.1.0", "3.1.1", 1)
        ),
        "the AsyncAPI document": lambda: (root / "api/asyncapi.yaml").write_text(
            (root / "api/asyncapi.yaml").read_text() + "\n# edited\n"
        ),
        "a Markdown page": lambda: next(root.glob("spec/**/*.md")).write_text(
            "# Renamed\n\nThe status is one of `queued` | `gone`.\n"
        ),
        "a new file": lambda: write_files(root, {"spec/new.md": "# New\n\nSee `x`.\n"}),
        "a removed file": lambda: (root / "spec/new.md").unlink(),
        "the configuration": lambda: (root / "speclint.toml").write_text(
            (root / "speclint.toml").read_text() + "\n[rules.broken-link]\nseverity = 'error'\n"
        ),
    }
    for edit in edits.values():
        edit()
        same_output(root, "check", "-f", "json")
    # Reports written to files land where the client's working folder says.
    (root / "out").mkdir()
    same_output(root / "out", "check", "..", "-f", "sarif", "-o", "report.sarif")
    assert json.loads((root / "out/report.sarif").read_text())["version"] == "2.1.0"
    finished = speclint(root, "daemon", "status")
    assert f"answered {len(edits) + 2} command" in finished.stdout
    speclint(root, "daemon", "stop")
    assert speclint(root, "daemon", "status").returncode == 1


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_hook_through_the_daemon_judges_the_commit_as_a_cold_hook_does(
    tmp_path: Path, runtime: Path
) -> None:
    repo = tmp_path / "repo"
    copy_bundled_corpus(repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    schema = next(path for path in sorted(repo.glob("schemas/**/*.json")) if _parses(path))
    edit_json(schema, {"$id": "https://example.invalid/moved.json"})
    git(repo, "add", "-A")
    first = same_output(repo, "hook")
    assert first.stdout and first.stderr
    # Printed to one terminal, the two streams interleave as a cold run's do.
    merged = [
        subprocess.run(
            [sys.executable, "-m", "speclint", "hook", *extra],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
            env={**os.environ, **env},
        ).stdout
        for extra, env in ((["--daemon"], {}), ([], {"SPECLINT_NO_CACHE": "1"}))
    ]
    assert merged[0] == merged[1]
    # An unstaged edit is not the commit's.
    (repo / "spec").mkdir(exist_ok=True)
    write_files(repo, {"spec/draft.md": "# Draft\n"})
    same_output(repo, "hook")


def test_the_daemon_runs_the_rules_the_command_line_selects(tmp_path: Path, runtime: Path) -> None:
    """--select and --ignore reach the engine through the daemon (issue 44, item 14): the
    client passes their values on, and the resident run chooses the rules a cold one does."""
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    selected = same_output(root, "check", "--select", "proto", "--ignore", "proto-invalid")
    rules = set(re.findall(r"^\S+:\d+:\d+: \w+ \[([\w-]+)\]", selected.stdout, re.MULTILINE))
    assert rules == {"proto-enum-drift", "proto-message-drift"}, selected.stdout
    # A value that reads like the flag is the option's, not --daemon.
    assert client._positionals(["check", "--select", "--daemon", "--ignore", "x", "a"]) == ["a"]
    typo = same_output(root, "check", "--select", "enum-drfit")
    assert typo.returncode == 2 and "(did you mean `enum-drift`?)" in typo.stderr


def test_a_socket_that_is_not_ours_is_never_trusted(tmp_path: Path, runtime: Path) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n\nSee [b](b.md).\n"})
    path = client.socket_path(root.resolve())
    assert path is not None and path.parent == runtime / "speclint"
    assert (path.parent.stat().st_mode & 0o777) == 0o700
    path.write_text("not a socket")
    with pytest.raises(client.DaemonUnavailable, match="not a socket of this user's"):
        client._connect(path)
    path.unlink()
    if os.geteuid() == 0:  # only root can give a file to another user
        foreign = socket.socket(socket.AF_UNIX)
        foreign.bind(str(path))
        foreign.listen(1)
        os.chown(path, 65534, 65534)
        with pytest.raises(client.DaemonUnavailable, match="not a socket of this user's"):
            client._connect(path)
        foreign.close()
        path.unlink()
    # A socket nobody listens on (a daemon that was killed) is replaced by a new daemon's.
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()
    with pytest.raises(client.DaemonUnavailable, match="none answers"):
        client._connect(path)
    served = speclint(root, "check", "--daemon")
    assert "daemon is not used" not in served.stderr
    assert served.returncode == 0 and "broken-link" in served.stdout
    assert speclint(root, "daemon", "status").returncode == 0
    # The daemon answers a process of its own user; the client asks the kernel which that is.
    with client._connect(path) as connection:
        assert client.peer_user(connection) in (None, os.geteuid())


def test_a_daemon_folder_others_may_enter_is_not_used(tmp_path: Path, runtime: Path) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    (runtime / "speclint").mkdir(mode=0o755)
    os.chmod(runtime / "speclint", 0o755)
    temporary = Path(tempfile.mkdtemp(prefix="sl-t-", dir="/tmp"))
    (temporary / f"speclint-{os.geteuid()}").mkdir()
    (temporary / f"speclint-{os.geteuid()}").chmod(0o777)
    env = {**os.environ, "TMPDIR": str(temporary)}
    result = subprocess.run(
        [sys.executable, "-m", "speclint", "check", "--daemon"],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "no private folder for its socket" in result.stderr
    assert result.returncode == 0
    shutil.rmtree(temporary)


def test_a_daemon_answers_its_own_root_only_and_restarts_on_new_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    served = daemon.Daemon(root, idle=60)
    base = {
        "protocol": client.PROTOCOL,
        "root": str(root.resolve()),
        "command": "run",
        **client.identity(),
    }
    assert "refused" in served.answer({**base, "installation": "another"})
    assert "refused" in served.answer({**base, "root": str(tmp_path)})
    assert "refused" in served.answer({**base, "protocol": 0})
    assert "refused" in served.answer({**base, "argv": ["afp"], "cwd": "/", "env": {}})
    assert "refused" in served.answer({**base, "argv": "check", "cwd": "/", "env": {}})
    monkeypatch.setattr(daemon, "installed_code", lambda: "another")
    assert "restart" in served.answer({**base, "argv": ["check"], "cwd": str(root), "env": {}})
    assert served.stopping


def test_a_daemon_exits_when_idle_and_removes_its_socket(tmp_path: Path, runtime: Path) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    path = client.socket_path(root.resolve())
    assert path is not None
    process = subprocess.Popen(
        [sys.executable, "-m", "speclint.frontends.daemon", "--idle-timeout", "1", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
    assert not path.exists()


def test_debug_is_never_run_by_the_daemon(tmp_path: Path, runtime: Path) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    result = speclint(root, "check", "--daemon", "--debug")
    assert "--debug runs the rules in this process" in result.stderr
    assert result.returncode == 0
    assert not list((runtime / "speclint").glob("*.sock"))


def test_the_client_never_imports_the_engine(tmp_path: Path, runtime: Path) -> None:
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    speclint(root, "daemon", "start")
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "speclint", "check", "--daemon"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert "speclint.frontends.client" in imported
    assert not {"speclint.run.engine", "click", "jsonschema", "markdown_it"} & imported


def test_daemon_asked_of_the_command_line_from_python_checks_in_this_process(
    tmp_path: Path, runtime: Path
) -> None:
    """Through click's runner (or an embedding), ``sys.argv`` is the caller's, never forwarded."""
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    result = CliRunner().invoke(cli.main, ["check", str(root), "--daemon"])
    assert result.exit_code == 0, result.output
    assert "--daemon is read by the speclint command" in result.output
    assert not (runtime / "speclint").exists() or not list((runtime / "speclint").glob("*.sock"))
