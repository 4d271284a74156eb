"""The resident checker (issue 29, item 3): ``speclint check --daemon`` and ``speclint hook
--daemon`` answer from a daemon that keeps the corpus in memory, print exactly what a cold
``--no-cache`` run prints after an edit of each kind of document, and trust only a private
folder, a socket of the user's, and a daemon of the same root."""

from __future__ import annotations

import contextlib
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
from typing import Any

import click
import pytest
from click.testing import CliRunner
from test_cli import cli as run_speclint
from test_diff_base import git
from test_lsp import RUN_SNAPSHOT

from conftest import REPOSITORY, cli_in_process, copy_bundled_corpus, write_files
from speclint.frontends import cli, client, daemon
from speclint.run import engine
from speclint.run import resident as resident_module
from speclint.run.engine import Options, lint
from speclint.run.resident import RACY_NANOSECONDS, Resident

pytestmark = pytest.mark.skipif(
    not hasattr(socket, "AF_UNIX"), reason="the daemon listens on a Unix socket"
)


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A daemon folder of the test's own ($XDG_RUNTIME_DIR, short enough for a socket path),
    and every daemon started in it stopped afterwards (a checker the hook started and still
    warming holds its start lock until it listens: it is waited for)."""
    folder = Path(tempfile.mkdtemp(prefix="sl-run-", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    yield folder
    for lock in (folder / "speclint").glob("*.lock"):
        with contextlib.suppress(client.DaemonUnavailable):
            os.close(client.start_lock(lock.with_suffix(".sock"), wait=300))
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


def test_the_client_starts_without_what_it_seldom_needs() -> None:
    # The hook's client is all of a commit's time but the checker's answer (issue 51): the TOML
    # parser (a pyproject.toml is read only where one is) and importlib.abc (and with it
    # importlib.resources) are not imported to reach the checker. Counted in a fresh interpreter
    # from after its start (`site` may import some of them for itself).
    probe = (
        "import sys; before = set(sys.modules); import speclint.__main__, speclint.frontends.client; "
        "print(sorted({'tomllib', 'importlib.abc', 'importlib.resources'} "
        "& (set(sys.modules) - before)))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_daemon_asked_of_the_command_line_from_python_checks_in_this_process(
    tmp_path: Path, runtime: Path
) -> None:
    """Through click's runner (or an embedding), ``sys.argv`` is the caller's, never forwarded."""
    root = write_files(tmp_path / "c", {"a.md": "# A\n"})
    result = CliRunner().invoke(cli.main, ["check", str(root), "--daemon"])
    assert result.exit_code == 0, result.output
    assert "--daemon is read by the speclint command" in result.output
    assert not (runtime / "speclint").exists() or not list((runtime / "speclint").glob("*.sock"))


# --- the checker the hook starts of its own accord (issue 51) -----------------------------------

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
needs_proc = pytest.mark.skipif(
    not Path("/proc/self/fd").is_dir(), reason="reads a process's session and descriptors in /proc"
)
# A page that lists the enum's values: a value added to the schema alone is a new finding.
PAGE = "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n"
GENEROUS = 300.0  # seconds: a bound on what should take one, on a loaded machine


def automatic_env(**extra: str) -> dict[str, str]:
    """The environment of a user's hook: no SPECLINT_DAEMON (the session's 0, conftest.py), no
    CI; the test's private daemon folder (``runtime``) inherited."""
    env = {k: v for k, v in os.environ.items() if k not in ("SPECLINT_DAEMON", "CI")}
    return {**env, **extra}


def committed(tmp_path: Path) -> Path:
    """A git repository with a schema and the page that lists its enum, committed."""
    repo = write_files(
        tmp_path / "repo", {"schemas/run.schema.json": RUN_SNAPSHOT, "spec/runs.md": PAGE}
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    return repo


def stage(repo: Path, finding: bool, number: int = 0) -> None:
    """A staged change that adds a finding (a status the page does not list) or adds none."""
    added = f'"done",\n          "failed{number}"' if finding else '"done"'
    (repo / "schemas/run.schema.json").write_text(RUN_SNAPSHOT.replace('"done"', added))
    (repo / "spec/runs.md").write_text(PAGE + f"\nA run starts queued ({number}).\n")
    git(repo, "add", "-A")


def hook(repo: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    """``speclint hook`` as pre-commit runs it: a process whose output pipes are read to their
    end (a checker started holding them would hold this up until it exits)."""
    return subprocess.run(
        [sys.executable, "-m", "speclint", "hook", *extra],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=GENEROUS,
    )


def checker_of(root: Path) -> int:
    """The process id of the checker of ``root``, once it listens (a started one warms first)."""
    until = time.monotonic() + GENEROUS
    while True:
        try:
            pid = client.ask(root, {"command": "status"}).get("pid")
            assert isinstance(pid, int)
            return pid
        except client.DaemonUnavailable:
            assert time.monotonic() < until, "no checker listened"
            time.sleep(0.2)


def served(root: Path) -> int:
    count = client.ask(root, {"command": "status"})["served"]
    assert isinstance(count, int)
    return count


def daemons_of(root: Path) -> list[int]:
    """The daemon processes of ``root`` (listening, warming or giving up), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            ours = b"speclint.frontends.daemon" in words and os.fsencode(root) in words
            if ours and not gone(int(entry.name), wait=0):
                found.append(int(entry.name))
    return found


def gone(pid: int, wait: float = GENEROUS) -> bool:
    """Whether process ``pid`` has ended within ``wait`` seconds (a child of this process's,
    started by ``start_behind`` here, is reaped)."""
    until = time.monotonic() + wait
    while True:
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:  # not this process's child
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                return True
            if state == "Z":
                return True
        if time.monotonic() >= until:
            return False
        time.sleep(0.1)


def stop(root: Path, pids: list[int]) -> None:
    """Stop the checker of ``root`` (``speclint daemon stop``), and see every one of ``pids``
    end."""
    subprocess.run(
        [sys.executable, "-m", "speclint", "daemon", "stop", str(root)],
        capture_output=True,
        timeout=GENEROUS,
    )
    for pid in pids:
        if not gone(pid):
            os.kill(pid, 9)
            raise AssertionError(f"process {pid} outlived `speclint daemon stop`")


def test_the_hook_chooses_its_checker_itself_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPECLINT_DAEMON")  # the session's 0 (conftest.py)
    assert client.automatic(["hook"])
    assert client.automatic(["hook", "--strict", "--config", "--daemon", "spec"])  # a file's name
    assert not client.automatic(["hook", "--daemon"])
    assert not client.automatic(["hook", "--no-daemon"])
    assert not client.automatic(["hook", "--debug"])
    assert not client.automatic(["hook", "--help"])
    assert not client.automatic(["check"])
    assert client.wanted(["hook", "--no-daemon", "--daemon"])  # the last one says, as in click
    assert not client.wanted(["hook", "--daemon", "--no-daemon"])
    assert client.warm_argv(["hook", "--strict", "--select", "enum", "spec"], Path("/r")) == [
        "hook",
        "--strict",
        "--select",
        "enum",
        "--",
        "/r",
    ]


@pytest.mark.parametrize("value", ["0", "off", "False"])
def test_speclint_daemon_0_turns_the_hooks_own_checker_off(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPECLINT_DAEMON", value)
    assert not client.automatic(["hook"])
    assert client.wanted(["hook", "--daemon"])  # asked for, it is still used


def test_a_hook_whose_checker_was_upgraded_checks_in_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checker whose speclint was upgraded under it answers "restart" and exits: the hook
    runs itself, and starts a new one behind it."""
    answer = {"restart": "speclint was upgraded under this daemon"}
    monkeypatch.setattr(client, "any_socket", lambda: True)
    monkeypatch.setattr(client, "command_root", lambda argv: tmp_path)
    monkeypatch.setattr(client, "ask", lambda *args, **kwargs: answer)
    assert client.forward_if_running(["hook"]) is None


def test_the_hook_option_says_how_long_its_checker_waits() -> None:
    option = next(p for p in cli.main.commands["hook"].params if p.name == "use_daemon")
    assert f"{client.AUTOMATIC_IDLE / 60:g} idle minutes" in (option.help or "")


@needs_git
@needs_proc
def test_the_hook_starts_its_checker_detached_and_answers_through_it_the_same(
    tmp_path: Path, runtime: Path
) -> None:
    """The first hook checks in its own process and starts the checker behind it, detached (its
    own session, no descriptor of the hook's: the hook's pipes close when it exits); the next
    hooks answer through it, byte for byte what a hook alone (cold, --no-daemon) prints, for a
    change that adds a finding and one that adds none."""
    repo = committed(tmp_path)
    root = repo.resolve()
    env = automatic_env()
    pids: list[int] = []
    try:
        stage(repo, finding=False)
        first = hook(repo, env)
        assert first.returncode == 0, first.stderr
        assert "daemon" not in first.stderr  # nothing said: the user asked for nothing
        pid = checker_of(root)
        pids.append(pid)
        assert os.getsid(pid) == pid  # a session of its own
        descriptors = {int(fd.name): os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()}
        log = client.socket_path(root).with_suffix(".log")  # type: ignore[union-attr]
        assert descriptors[0] == os.devnull
        assert descriptors[1] == descriptors[2] == str(log)
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert words[words.index(b"--idle-timeout") + 1] == str(client.AUTOMATIC_IDLE).encode()
        assert "warmed with `speclint hook -- " in log.read_text()
        assert served(root) == 0  # the warm-up is no request
        for number, finding in enumerate((False, True, False), start=1):
            stage(repo, finding, number)
            through = hook(repo, env)
            alone = hook(repo, {**env, "SPECLINT_NO_CACHE": "1"}, "--no-daemon")
            assert served(root) == number
            assert (through.returncode, through.stdout, through.stderr) == (
                alone.returncode,
                alone.stdout,
                alone.stderr,
            )
            if finding:
                assert through.returncode == 1 and "[enum-drift]" in through.stdout
            else:
                assert through.returncode == 0 and "no new findings" in through.stdout
        assert daemons_of(root) == [pid]  # the later hooks started none
    finally:
        stop(root, pids + daemons_of(root))
    assert not list((runtime / "speclint").glob("*.sock"))


@needs_git
def test_the_checker_the_hook_starts_exits_on_its_idle_timeout(
    tmp_path: Path, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed(tmp_path)
    root = repo.resolve()
    stage(repo, finding=True)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.chdir(repo)
    assert client.start_behind(["hook"], root, idle=1.0)
    pid = checker_of(root)
    try:
        assert gone(pid), "the checker outlived its idle timeout"
    finally:
        if not gone(pid, wait=0):
            stop(root, [pid])
    assert not client.socket_path(root).exists()  # type: ignore[union-attr]


@needs_git
def test_no_checker_is_started_when_told_not_to_in_ci_or_outside_git(
    tmp_path: Path, runtime: Path
) -> None:
    repo = committed(tmp_path)
    stage(repo, finding=False)
    for extra, env in (
        (["--no-daemon"], automatic_env()),
        ([], automatic_env(SPECLINT_DAEMON="0")),
        ([], automatic_env(CI="true")),
    ):
        done = hook(repo, env, *extra)
        assert done.returncode == 0, done.stderr
    plain = write_files(tmp_path / "plain", {"spec/runs.md": PAGE})
    outside = hook(plain, automatic_env(GIT_CEILING_DIRECTORIES=str(tmp_path)))
    assert outside.returncode == 2 and "not in a git work tree" in outside.stderr
    # Not even the start lock was taken: nothing was launched.
    assert not (runtime / "speclint").exists() or not list((runtime / "speclint").iterdir())


@needs_git
def test_no_daemon_and_speclint_daemon_0_leave_a_running_checker_alone(
    tmp_path: Path, runtime: Path
) -> None:
    repo = committed(tmp_path)
    root = repo.resolve()
    started = speclint(repo, "daemon", "start")
    assert started.returncode == 0, started.stderr
    pid = checker_of(root)
    try:
        stage(repo, finding=True)
        assert hook(repo, automatic_env(), "--no-daemon").returncode == 1
        assert hook(repo, automatic_env(SPECLINT_DAEMON="0")).returncode == 1
        assert served(root) == 0
        assert hook(repo, automatic_env()).returncode == 1
        assert served(root) == 1
    finally:
        stop(root, [pid])


@needs_git
@needs_proc
def test_two_hooks_at_once_start_one_checker(tmp_path: Path, runtime: Path) -> None:
    """The start lock beside the socket: a hook that finds it held (another hook starting a
    checker, a checker warming) starts none, and a checker that cannot take it exits."""
    repo = committed(tmp_path)
    root = repo.resolve()
    path = client.socket_path(root)
    assert path is not None
    stage(repo, finding=False)
    env = automatic_env()
    holder = subprocess.Popen(  # another process holds the lock (a POSIX lock is per process)
        [
            sys.executable,
            "-c",
            "import sys; from speclint.frontends import client; from pathlib import Path; "
            f"client.start_lock(Path({str(path)!r})); print('held', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert hook(repo, env).returncode == 0
        assert daemons_of(root) == []  # the hook saw the lock held, and started none
        warm = json.dumps({"argv": ["hook", "--", str(root)], "cwd": str(root), "umask": 0o22})
        refused = subprocess.run(
            [sys.executable, "-m", "speclint.frontends.daemon", "--warm", warm, str(root)],
            capture_output=True,
            text=True,
            timeout=GENEROUS,
        )
        assert refused.returncode == 0 and "not started: another process holds" in refused.stdout
    finally:
        holder.communicate("", timeout=GENEROUS)
    pids: list[int] = []
    try:
        hooks = [
            subprocess.Popen(
                [sys.executable, "-m", "speclint", "hook"],
                cwd=repo,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(2)
        ]
        assert [one.wait(timeout=GENEROUS) for one in hooks] == [0, 0]
        pids.append(checker_of(root))
        # One listens; one started in the same instant gives up on the lock (LOCK_RETRY).
        until = time.monotonic() + GENEROUS
        while len(daemons_of(root)) > 1 and time.monotonic() < until:
            time.sleep(0.2)
        assert daemons_of(root) == pids
    finally:
        stop(root, pids + daemons_of(root))


@needs_git
@needs_proc
def test_the_checker_the_hook_started_exits_when_speclint_is_upgraded_under_it(
    tmp_path: Path, runtime: Path
) -> None:
    """An installation of its own (a copy of the package on PYTHONPATH), upgraded in place
    after its hook started a checker: the next hook's request is answered "restart", the
    checker exits, and the hook judges the commit itself, as it would alone, and starts a new
    one behind it."""
    site = tmp_path / "site"
    skipped = shutil.ignore_patterns("__pycache__")
    shutil.copytree(REPOSITORY / "linter", site / "speclint", ignore=skipped)
    shutil.copytree(REPOSITORY / "rules", site / "speclint" / "rules", ignore=skipped)
    env = automatic_env(PYTHONPATH=str(site))
    repo = committed(tmp_path)
    root = repo.resolve()

    def listening() -> int | None:
        """The process id of that installation's checker of ``root``, once it listens."""
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "daemon", "status", str(root)],
            capture_output=True,
            text=True,
            env=env,
            timeout=GENEROUS,
        )
        found = re.search(r"\(process (\d+)\)", done.stdout)
        return int(found.group(1)) if done.returncode == 0 and found else None

    def started() -> int:
        until = time.monotonic() + GENEROUS
        while (pid := listening()) is None:
            assert time.monotonic() < until, "no checker listened"
            time.sleep(0.2)
        return pid

    pids: list[int] = []
    try:
        stage(repo, finding=False)
        assert hook(repo, env).returncode == 0
        pids.append(started())
        upgraded = site / "speclint" / "rules" / "__init__.py"
        upgraded.write_text(upgraded.read_text() + "\n# an upgrade in place\n")
        stage(repo, finding=True)
        after = hook(repo, env)
        alone = hook(repo, {**env, "SPECLINT_NO_CACHE": "1"}, "--no-daemon")
        assert (after.returncode, after.stdout, after.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )
        assert gone(pids[0]), "the checker outlived the upgrade"
        pids.append(started())
        assert pids[1] != pids[0]
    finally:
        subprocess.run(
            [sys.executable, "-m", "speclint", "daemon", "stop", str(root)],
            capture_output=True,
            env=env,
            timeout=GENEROUS,
        )
        for pid in pids + daemons_of(root):
            if not gone(pid):
                os.kill(pid, 9)
                raise AssertionError(f"process {pid} outlived `speclint daemon stop`")


# --- the checker's caches over the cache folder's (issue 51) -------------------------------------


@needs_git
@needs_proc
def test_the_hooks_checker_starts_from_the_cache_folder_and_leaves_it_current(
    tmp_path: Path, runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checker the hook starts warms from what that hook left in the cache folder (no
    document parsed, no rule run: its log counts them); a commit judged through it is in the
    folder's run cache once it exits, so the next hook, in its own process, lints only its
    change: the base is that commit, answered from the folder."""
    repo = committed(tmp_path)
    root = repo.resolve()
    env = automatic_env(SPECLINT_CACHE_DIR=str(tmp_path / "cache"))
    pids: list[int] = []
    try:
        stage(repo, finding=False)
        assert hook(repo, env).returncode == 0
        pids.append(checker_of(root))
        log = client.socket_path(root).with_suffix(".log").read_text()  # type: ignore[union-attr]
        assert "from the cache folder: 2 results," in log, log
        assert "parsed 0 documents, 0 rule entries missed" in log, log
        stage(repo, finding=False, number=1)
        through = hook(repo, env)
        assert served(root) == 1 and through.returncode == 0, through.stderr
        git(repo, "commit", "-q", "-m", "judged through the checker")
    finally:
        stop(root, pids + daemons_of(root))
    stage(repo, finding=True, number=2)
    judged: list[Path] = []
    original = engine.run_rules

    def counted(corpus: Any, *args: Any, **kwargs: Any) -> Any:
        judged.append(corpus.root)
        return original(corpus, *args, **kwargs)

    monkeypatch.setattr(engine, "run_rules", counted)
    alone = cli_in_process("hook", "--no-daemon", cwd=repo, env=env)
    assert judged == [root]  # the head's rules: the base's result is the checker's
    monkeypatch.setattr(engine, "run_rules", original)
    cold = cli_in_process("hook", "--no-daemon", cwd=repo, env={**env, "SPECLINT_NO_CACHE": "1"})
    assert alone.returncode == 1 and "[enum-drift]" in alone.stdout
    assert (alone.returncode, alone.stdout, alone.stderr) == (
        cold.returncode,
        cold.stdout,
        cold.stderr,
    )


def test_a_cache_folder_others_may_write_is_refused_through_the_daemon_as_alone(
    tmp_path: Path, runtime: Path
) -> None:
    """The checker uses the cache folder a run in its own process would, and refuses it as that
    run does, saying so at every request as that run says it at every run."""
    root = write_files(tmp_path / "corpus", {"schemas/run.schema.json": RUN_SNAPSHOT, "a.md": PAGE})
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(cache)}
    assert run_speclint("check", ".", cwd=root, env=env).returncode == 0  # a warm folder
    os.chmod(cache, 0o777)
    before = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}
    for _ in range(2):
        served = run_speclint("check", ".", "--daemon", cwd=root, env=env)
        alone = run_speclint("check", ".", cwd=root, env=env)
        assert "is not a private folder of this user" in alone.stderr
        assert (served.returncode, served.stdout, served.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )
    stop(root.resolve(), [])
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()} == before


def test_the_hooks_checker_keeps_the_base_only_while_git_gives_the_same_bytes(
    tmp_path: Path, runtime: Path
) -> None:
    """The checker keeps the base the last attempt judged (``Resident.base``): the next attempt
    prints what a cold hook prints, and so do attempts after the base's files change under the
    same listing (a blob replaced, ``git replace``) and after a new commit."""
    repo = tmp_path / "repo"
    twice = '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "title": "A",\n  "title": "B"\n}\n'
    once = twice.replace('"title": "B"', '"xitle": "B"')  # the same size: the same listing
    write_files(repo, {"a.schema.json": once, "page.md": "# Page\n"})
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, {"a.schema.json": twice})
    git(repo, "add", "-A")
    assert "duplicate-key" in same_output(repo, "hook").stdout
    write_files(repo, {"page.md": "# Page\n\nAgain.\n"})
    git(repo, "add", "-A")
    assert "duplicate-key" in same_output(repo, "hook").stdout
    blob = git(repo, "rev-parse", "HEAD:a.schema.json")
    git(repo, "replace", blob, git(repo, "hash-object", "-w", "a.schema.json"))
    assert "duplicate-key" not in same_output(repo, "hook").stdout
    git(repo, "replace", "-d", blob)
    git(repo, "commit", "-q", "-m", "the schema written twice")
    write_files(repo, {"page.md": "# Page\n\nOnce more.\n"})
    git(repo, "add", "-A")
    assert "duplicate-key" not in same_output(repo, "hook").stdout
