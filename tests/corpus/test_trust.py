"""speclint is safe to run on any pull request (issue 13): it runs no code from the repository,
writes and deletes nothing outside its own outputs, follows no link out of the root, survives any
file, leaves nothing behind when it is killed, and never serves results of other code.

Each test reproduces one way this failed, in a temporary repository (a real ``git clone`` where
the attack is a commit), as an attacker or a careless user would.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_cli import cli

from conftest import REPOSITORY, bundled_corpus_files, cli_in_process, schema, write_files

GIT = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
LINUX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc to find left-over processes"
)


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def committed(
    tmp_path: Path,
    files: dict[str, str | bytes],
    name: str = "origin",
    links: dict[str, Path] | None = None,
) -> Path:
    """A repository with ``files`` (and ``links``: path -> target folder, committed as symlinks)
    committed, cloned the way CI checks out a pull request."""
    origin = write_files(tmp_path / name, files)
    for link, target in (links or {}).items():
        (origin / link).symlink_to(target, target_is_directory=True)
    git("init", "-q", cwd=origin)
    git("add", "-A", cwd=origin)
    git("commit", "-q", "-m", "pull request", cwd=origin)
    clone = tmp_path / f"{name}-clone"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    return clone


def bundled_files() -> dict[str, str | bytes]:
    return bundled_corpus_files()


def buildable_files() -> dict[str, str | bytes]:
    """The bundled corpus with the one schema its OpenAPI document references and lacks (a
    seeded unresolved-ref), and its seeded schema-invalid `required` mended: every document
    builds, so `build` and `build --check` can pass."""
    page = '{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "RunPage"}\n'
    files = bundled_files()
    seeded = files["schemas/run-filter.schema.json"]
    assert isinstance(seeded, bytes) and b'"required": "status"' in seeded
    mended = seeded.replace(b'"required": "status"', b'"required": ["status"]', 1)
    return {**files, "schemas/run-page.schema.json": page, "schemas/run-filter.schema.json": mended}


def snapshot_of(folder: Path) -> dict[str, bytes | str]:
    """Every file (bytes) and symlink (its target) under ``folder``, without following links."""
    found: dict[str, bytes | str] = {}
    for current, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(current) / name
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                found[relative] = "-> " + os.readlink(path)
            elif path.is_file():
                found[relative] = path.read_bytes()
    return found


# --- 1. no code from a committed cache -------------------------------------------------------


class Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_committed_pickle_cache_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    poison = pickle.dumps({"rule": Payload(marker)})
    files = bundled_files()
    for name in (
        ".speclint-cache/durations.pickle",
        ".speclint-cache/rules-0000000000000000.pickle",
        ".speclint-cache/run-0000.pickle",
        ".speclint-cache/parse-0000000000000000/0000.pickle",
    ):
        files[name] = poison
    clone = committed(tmp_path, files)
    files_before = snapshot_of(clone)
    assert (
        cli_in_process("baseline", "write", str(clone), "-o", str(tmp_path / "b.json")).returncode
        == 0
    )
    for args in (
        ("check", str(clone)),  # the pre-commit hook's entry
        ("check", str(clone)),  # a second, warm run
        ("check", str(clone), "--baseline", str(tmp_path / "b.json")),
        ("build", str(clone), "-o", str(tmp_path / "out")),
        ("roles", str(clone)),
    ):
        done = cli_in_process(*args)
        assert "Traceback" not in done.stderr, done.stderr
        assert not marker.exists(), f"speclint {' '.join(args)} ran code from the repository"
    assert snapshot_of(clone) == files_before  # and wrote nothing into the checkout


def test_cache_entries_that_name_foreign_code_are_a_miss_not_a_call() -> None:
    import msgpack

    from speclint.common.storage import MAGIC, StorageError, dumps, loads

    forged = MAGIC + msgpack.packb(
        [msgpack.ExtType(2, b"os:system"), "touch /tmp/never"], use_bin_type=True
    )
    with pytest.raises(StorageError):
        loads(forged)
    for name in (
        b"speclint.frontends.cli:main",
        b"builtins:eval",
        b"speclint.common.storage:loads",
        b"../x:y",
    ):
        with pytest.raises(StorageError):
            loads(MAGIC + msgpack.packb([msgpack.ExtType(2, name), 1, "x"], use_bin_type=True))
    with pytest.raises(StorageError):
        loads(pickle.dumps({"a": 1}))  # a pickle is not an entry
    from speclint.common.findings import Finding, Location, Severity

    finding = Finding("r", Severity.ERROR, "m", Location("a.json", 2, 3, pointer="/x"), key="k")
    assert loads(dumps([finding, (1, 2), {"k": frozenset({"v"})}])) == [
        finding,
        (1, 2),
        {"k": frozenset({"v"})},
    ]


def test_a_cache_folder_that_is_not_private_is_never_used(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", {"schemas/a.schema.json": schema(type="object")})
    outside = write_files(tmp_path / "outside", {"keep/file.txt": "unrelated\n"})
    before = snapshot_of(outside)
    link = tmp_path / "cache-link"
    link.symlink_to(outside, target_is_directory=True)
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(link)}
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "speclint", "check", str(corpus)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "not a private folder" in done.stderr and "running without a cache" in done.stderr
    assert snapshot_of(outside) == before  # nothing written there, nothing removed

    shared = tmp_path / "shared-cache"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # writable by anyone: another user could plant entries
    env["SPECLINT_CACHE_DIR"] = str(shared)
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "check", str(corpus)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and "running without a cache" in done.stderr
    assert list(shared.iterdir()) == []


@GIT
def test_a_committed_cache_symlink_is_neither_written_nor_emptied(tmp_path: Path) -> None:
    outside = write_files(tmp_path / "outside", {"unrelated/data.txt": "keep me\n"})
    before = snapshot_of(outside)
    clone = committed(tmp_path, bundled_files(), links={".speclint-cache": outside})
    assert (clone / ".speclint-cache").is_symlink()
    for _ in range(2):
        assert cli_in_process("check", str(clone)).returncode == 1
    assert cli_in_process("build", str(clone)).returncode == 1  # api/openapi.yaml is not built
    assert snapshot_of(outside) == before


# --- 2. the build writes and deletes only its own outputs ------------------------------------


def test_build_never_deletes_or_changes_files_it_did_not_write(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", buildable_files())
    out = write_files(
        tmp_path / "dist",
        {"package.json": '{"name": "schemas"}\n', "deep/nested/settings.json": '{"a": 1}\n'},
    )
    theirs = snapshot_of(out)
    for _ in range(2):
        done = cli_in_process("build", str(corpus), "-o", str(out))
        assert done.returncode == 0, done.stderr
    (corpus / "schemas/heartbeat.schema.json").unlink()  # its bundle is now stale output
    done = cli_in_process("build", str(corpus), "-o", str(out))
    assert done.returncode == 0 and "removed 1" in done.stdout
    after = snapshot_of(out)
    assert {k: after.get(k) for k in theirs} == theirs
    assert "schemas/heartbeat.schema.json" not in after
    assert cli_in_process("build", str(corpus), "-o", str(out), "--check").returncode == 0


def test_a_forged_manifest_cannot_make_the_build_delete(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    source = corpus / "schemas/common.schema.json"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    (corpus / "build").mkdir()
    (corpus / "build/package.json").write_text('{"keep": true}\n')
    package = hashlib.sha256(b'{"keep": true}\n').hexdigest()
    (corpus / "build/.speclint-build.json").write_text(
        json.dumps(
            {
                "speclint-build": 1,
                "files": {
                    "../schemas/common.schema.json": digest,
                    "/etc/hostname": "0" * 64,
                    "package.json": "0" * 64,  # a hash that does not match: not ours
                    "sub/../../speclint.toml": package,
                },
            }
        )
    )
    before = snapshot_of(corpus)
    assert cli_in_process("build", str(corpus)).returncode == 1  # api/openapi.yaml is not built
    after = snapshot_of(corpus)
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed == {"build/.speclint-build.json"}  # replaced by the build's own manifest


@pytest.mark.parametrize("output", [".", "schemas", "schemas/..", "./"])
def test_an_output_folder_that_holds_the_sources_is_refused(tmp_path: Path, output: str) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    config = corpus / "speclint.toml"
    config.write_text(config.read_text() + f'\n[build]\noutput = "{output}"\n')
    before = snapshot_of(corpus)
    done = cli_in_process("build", str(corpus))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "of its own" in done.stderr, done.stderr
    assert snapshot_of(corpus) == before


@GIT
def test_a_committed_output_symlink_out_of_the_root_is_refused(tmp_path: Path) -> None:
    outside = write_files(tmp_path / "outside", {"schemas/common.schema.json": "precious\n"})
    before = snapshot_of(outside)
    clone = committed(tmp_path, bundled_files(), links={"build": outside})
    for args in (("build", str(clone)), ("build", str(clone), "--check")):
        done = cli_in_process(*args)
        assert done.returncode == 2 and "symlink" in done.stderr, done.stderr
    # An explicit -o into the repository through the same link is refused too.
    assert cli_in_process("build", str(clone), "-o", str(clone / "build")).returncode == 2
    # A link further down, inside a real output folder.
    (clone / "out").mkdir()
    (clone / "out/schemas").symlink_to(outside / "schemas", target_is_directory=True)
    done = cli_in_process("build", str(clone), "-o", str(clone / "out"))
    assert done.returncode == 2 and "symlink" in done.stderr
    assert snapshot_of(outside) == before


# --- 4. any file name, any file type -----------------------------------------------------------


@pytest.fixture
def odd_files(tmp_path: Path) -> Path:
    corpus = write_files(
        tmp_path / "spec",
        {
            **bundled_files(),
            "schemas/canary.schema.json": schema(properties={"x": {"$ref": "nowhere.json"}}),
        },
    )
    (corpus / "schemas/loop.schema.json").symlink_to("loop.schema.json")
    (corpus / "schemas/ping.schema.json").symlink_to("pong.schema.json")
    (corpus / "schemas/pong.schema.json").symlink_to("ping.schema.json")
    os.mkfifo(corpus / "schemas/fifo.schema.json")
    odd = os.fsencode(corpus / "schemas") + b"/caf\xe9.schema.json"  # Latin-1, not UTF-8
    with open(odd, "w") as handle:
        handle.write(schema(type="object"))
    return corpus


def test_symlink_loops_fifos_and_undecodable_names_are_findings(odd_files: Path) -> None:
    # A child process, as in the tests below that keep one: a read that blocked on the pipe or the
    # loop would end at its timeout, not hang the test session.
    done = cli("check", str(odd_files), "--format", "json", "--no-cache")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    by_path: dict[str, list[str]] = {}
    for finding in report["findings"]:
        by_path.setdefault(finding["location"]["path"], []).append(finding["message"])
    assert any("symlink in a loop" in m for m in by_path["schemas/loop.schema.json"])
    assert any("symlink in a loop" in m for m in by_path["schemas/ping.schema.json"])
    assert any("named pipe" in m for m in by_path["schemas/fifo.schema.json"])
    assert any("not valid UTF-8" in m for m in by_path["schemas/caf\\xe9.schema.json"])
    # The rest of the corpus is still checked.
    assert "schemas/canary.schema.json" in by_path and "schemas/run-filter.schema.json" in by_path


@pytest.mark.parametrize(
    "args",
    [("build",), ("roles",), ("bindings",), ("baseline", "write"), ("check", "--format", "sarif")],
)
def test_every_command_survives_the_odd_files(odd_files: Path, args: tuple[str, ...]) -> None:
    command = [*args[:2], str(odd_files)] if args[0] == "baseline" else [args[0], str(odd_files)]
    command += list(args[2:]) if args[0] == "baseline" else list(args[1:])
    done = cli(*command)  # a child process: see the test above
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    if args[0] == "check":
        json.loads(done.stdout)  # a whole SARIF report, with the odd names escaped


# --- 5. results of other code are never served -------------------------------------------------


def test_a_changed_dependency_invalidates_every_cache(tmp_path: Path) -> None:
    """A copy of jsonschema-specifications whose 2020-12 metaschema is edited in place (same
    version): the cached run must report what a fresh run reports."""
    import jsonschema_specifications

    package = Path(jsonschema_specifications.__file__).parent
    site = tmp_path / "site"
    shutil.copytree(package, site / package.name)
    corpus = write_files(
        tmp_path / "spec",
        {"schemas/a.schema.json": schema(type="object", minProperties="one")},
    )
    env = {**os.environ, "PYTHONPATH": str(site)}

    def run(*extra: str) -> str:
        done = subprocess.run(
            [
                *(sys.executable, "-m", "speclint", "check", str(corpus)),
                *("--rule", "schema-invalid", *extra),
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout

    first = run()
    assert "minProperties" in first  # "one" is not a non-negative integer
    validation = site / package.name / "schemas/draft202012/vocabularies/validation"
    metaschema = json.loads(validation.read_text())
    metaschema["properties"]["minProperties"] = {}  # anything goes now
    validation.write_text(json.dumps(metaschema))
    assert run("--no-cache") != first
    assert run() == run("--no-cache")


# --- 6. interrupted runs leave nothing behind -------------------------------------------------

SLOW_RUN = textwrap.dedent(
    """
    import sys, time
    import speclint.run.catalog as catalog
    from speclint.common.findings import Severity
    from speclint.analyses.schemas.satisfiability import Decider

    def slow(corpus, options):
        # Like the satisfiability rule: a worker process of its own, then a long computation.
        with Decider([]) as decider:
            decider.decide({"type": "object"}, "file:///x.json", True)
            while True:
                time.sleep(0.05)
        return ()

    real = catalog.all_rules()
    info = next(iter(real.values()))
    fake = {"slow": type(info)("slow", Severity.ERROR, "Slow.", "tests.slow", slow)}
    catalog.all_rules = lambda: {**real, **fake}
    from speclint.frontends.cli import entry
    sys.argv = ["speclint", *sys.argv[1:]]
    entry()
    """
)


def marked_processes(mark: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environment = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1].split()[0]
        except OSError:
            continue
        if f"SPECLINT_TEST_MARK={mark}".encode() in environment and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def repository_with_history(tmp_path: Path) -> Path:
    repo = write_files(tmp_path / "repo", bundled_files())
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "base", cwd=repo)
    common = repo / "schemas/common.schema.json"
    common.write_text(common.read_text().replace("{4,64}", "{4,80}"))
    git("commit", "-q", "-am", "change", cwd=repo)
    return repo


def start_slow(repo: Path, temporary: Path, mark: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "SPECLINT_TEST_MARK": mark, "TMPDIR": str(temporary)}
    return subprocess.Popen(
        [sys.executable, "-c", SLOW_RUN, "check", str(repo), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def worktrees(repo: Path) -> list[str]:
    listed = git("worktree", "list", "--porcelain", cwd=repo)
    return [line for line in listed.splitlines() if line.startswith("worktree ")]


def wait_for(condition: Any, seconds: float = 10.0) -> bool:
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if condition():
            return True
        time.sleep(0.1)
    return bool(condition())


@LINUX
@GIT
@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 1.1, 2.6])
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_diff_base_run_leaves_no_worktree_folder_or_process(
    repository_with_history: Path, tmp_path: Path, delay: float, how: signal.Signals
) -> None:
    repo = repository_with_history
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    mark = uuid.uuid4().hex
    run = start_slow(repo, temporary, mark, "--diff-base", "HEAD~1")

    def handles_sigterm() -> bool:
        """Has speclint installed its SIGTERM handler? (The kernel's mask of caught signals.)"""
        try:
            status = Path(f"/proc/{run.pid}/status").read_text()
        except OSError:
            return False
        caught = [line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")]
        return bool(caught) and bool(int(caught[0], 16) >> (signal.SIGTERM - 1) & 1)

    # Killed `delay` seconds after speclint is ready to be: under load, starting Python and
    # importing speclint take longer than any fixed delay (0.4 s was once too short).
    assert wait_for(handles_sigterm, 60), run.poll()
    time.sleep(delay)
    assert run.poll() is None, run.communicate()  # killed mid-run, not after it ended
    run.send_signal(how)
    _, stderr = run.communicate(timeout=60)
    if how == signal.SIGTERM:
        assert run.returncode == 143, stderr
        assert "Traceback" not in stderr, stderr
        assert "interrupted" in stderr
    # Children die with their parent, whether it cleaned up (SIGTERM) or could not (SIGKILL).
    assert wait_for(lambda: not marked_processes(mark)), marked_processes(mark)
    if how == signal.SIGKILL:
        # The next run removes what the killed one could not.
        again = cli_in_process("check", str(repo))
        assert again.returncode in (0, 1) and "Traceback" not in again.stderr
        env = {**os.environ, "TMPDIR": str(temporary)}
        subprocess.run(
            [sys.executable, "-m", "speclint", "check", str(repo)],
            env=env,
            capture_output=True,
            timeout=120,
        )
    assert len(worktrees(repo)) == 1, worktrees(repo)
    assert not [p for p in temporary.iterdir() if p.name.startswith("speclint-base-")]


def test_the_console_script_installs_the_signal_handlers_before_the_command_line() -> None:
    """Issue 25, item 8: a signal during the quarter second of imports is handled like any other
    (143 and one line), because the console script is `speclint.__main__:run`, which installs the
    handlers before it imports click and the engine."""
    (script,) = importlib.metadata.entry_points(group="console_scripts", name="speclint")
    assert script.value == "speclint.__main__:run"
    probe = (
        "import signal, sys; import speclint.__main__; "
        "assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL; "
        "print(sorted(m for m in ('click', 'speclint.frontends.cli', 'speclint.run.engine') if m in sys.modules))"
    )
    imported = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert imported.strip() == "[]"  # importing it runs nothing and loads nothing heavy


def _ending(body: str) -> subprocess.CompletedProcess[str]:
    """A fresh Python running ``body`` with ``sys`` and ``exit_without_teardown`` imported, its
    output buffered as a pipe's is (PYTHONUNBUFFERED would leave the flush untested)."""
    probe = f"import sys\nfrom speclint.common.lifecycle import exit_without_teardown\n{body}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=env
    )


@pytest.mark.parametrize(
    ("code", "status", "printed"),
    [("None", 0, ""), ("1", 1, ""), ("2", 2, ""), ("'speclint: no'", 1, "speclint: no")],
)
def test_a_run_ends_without_teardown_but_with_its_output_exit_functions_and_status(
    code: str, status: int, printed: str
) -> None:
    """Issue 29: the console script ends with ``os._exit`` after the run (freeing the corpus
    object by object took 0.2-0.28 s of a one-schema edit), so what a normal exit does must still
    happen: buffered output flushed, ``atexit`` functions run (they remove temporary folders),
    ``sys.exit``'s status kept, a message code printed; and the teardown is skipped (an object
    that says so when freed is not freed)."""
    run = _ending(
        "import atexit\n"
        "class Noisy:\n"
        "    def __del__(self): sys.stderr.write('freed')\n"
        "kept = Noisy()\n"
        "atexit.register(lambda: sys.stdout.write('exit function ran'))\n"
        "sys.stdout.write('x' * 200_000)\n"
        f"exit_without_teardown({code})\n"
    )
    assert run.returncode == status
    assert run.stdout == "x" * 200_000 + "exit function ran"
    assert run.stderr.strip() == printed  # no "freed": the interpreter was not torn down


@pytest.mark.parametrize(
    ("setup", "ended_by"),
    [
        ("sys.stdout = None", "os._exit"),  # started with the descriptor closed (`>&-`)
        ("sys.setprofile(lambda *a: None)", "SystemExit"),  # `python -m cProfile -m speclint`
        ("sys.settrace(lambda *a: None)", "SystemExit"),  # coverage
    ],
)
def test_a_run_without_stdout_or_under_a_profiler_still_ends_cleanly(
    setup: str, ended_by: str
) -> None:
    """No stdout to flush is no traceback; a profiler or a tracer writes its results after
    ``sys.exit``, so under one the process ends the usual way (``SystemExit``, teardown
    included)."""
    run = _ending(
        f"{setup}\n"
        "try:\n"
        "    exit_without_teardown(0)\n"
        "except SystemExit:\n"
        "    sys.stderr.write('SystemExit')\n"
        "    raise\n"
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr == ("SystemExit" if ended_by == "SystemExit" else "")


def test_the_console_script_ends_without_teardown_with_the_runs_status(tmp_path: Path) -> None:
    """The console script's way out is ``exit_without_teardown``, with the run's exit code
    (1: findings, 2: a usage error) and its whole report."""
    corpus = write_files(tmp_path / "spec", bundled_files())
    probe = (
        "import os, sys\n"
        "from speclint.common import lifecycle\n"
        "real = lifecycle.exit_without_teardown\n"
        "def spy(code):\n"
        "    sys.stderr.write(f'ended by exit_without_teardown({code!r})\\n')\n"
        "    real(code)\n"
        "lifecycle.exit_without_teardown = spy\n"
        "import speclint.__main__ as entry\n"
        "entry.exit_without_teardown = spy\n"
        "sys.argv[1:] = sys.argv[2:]\n"
        "entry.run()\n"
    )
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(tmp_path / "cache")}
    found = subprocess.run(
        [sys.executable, "-c", probe, "-", "check", str(corpus), "--no-progress"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert found.returncode == 1, found.stderr
    assert "ended by exit_without_teardown(1)" in found.stderr
    assert found.stdout.count("\n") == len(found.stdout.splitlines()) > 3
    refused = subprocess.run(
        [sys.executable, "-c", probe, "-", "check", str(tmp_path / "missing")],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "ended by exit_without_teardown(2)" in refused.stderr


@LINUX
@pytest.mark.slow
def test_ctrl_c_exits_130_without_tracebacks_and_kills_the_rules(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    mark = uuid.uuid4().hex
    run = start_slow(corpus, tmp_path, mark)
    assert wait_for(lambda: len(marked_processes(mark)) >= 3, 20)  # speclint, rules, a worker
    # The terminal sends SIGINT to the whole process group.
    for pid in marked_processes(mark):
        with __import__("contextlib").suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert wait_for(lambda: not marked_processes(mark)), marked_processes(mark)


def test_the_whole_run_has_a_time_limit(tmp_path: Path) -> None:
    """Each rule has its time box; the run as a whole has a limit too, so a run of many slow
    rules ends, with the finished rules' findings and the others reported."""
    from speclint.analyses.context import Context
    from speclint.common.findings import Severity
    from speclint.run.catalog import RuleInfo
    from speclint.run.runner import run_rules, select_rules

    def slow(corpus: Any, options: Any) -> Any:
        time.sleep(60)
        return ()

    corpus = Context.from_texts(
        {"schemas/canary.schema.json": schema(properties={"x": {"$ref": "nowhere.json"}})}
    )
    rules = dict(select_rules(corpus, ["unresolved-ref"]))
    for number in range(4):
        rules[f"slow-{number}"] = RuleInfo(f"slow-{number}", Severity.ERROR, "Slow.", "t", slow)
    started = time.monotonic()
    result = run_rules(corpus, rules, jobs=2, time_box=50, deadline=started + 3)
    took = time.monotonic() - started
    assert took < 10, took
    stopped = [f.message for f in result.findings if f.rule == "internal-error"]
    assert len(stopped) == 4 and all("time limit" in m for m in stopped), stopped
    assert any(f.rule == "unresolved-ref" for f in result.findings)


def test_a_run_still_parsing_at_its_time_limit_is_a_clear_error(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    # A child process: the limit is a SIGALRM of the process that runs the command.
    done = cli("check", str(corpus), "--time-limit", "0.05", "--no-cache")
    assert done.returncode == 2, done.stderr
    assert "time limit of 0.05 s" in done.stderr and "Traceback" not in done.stderr


# --- 7. inputs a person writes -------------------------------------------------------------------

WAIVED = schema(
    type="object",
    properties={"x": {"$ref": "nowhere.json"}},
)


@pytest.mark.parametrize("written", ['"never"', '"Dec 2020"', "false", '"2020-13-45"', "20201231"])
def test_a_waiver_expiry_that_is_not_a_date_is_refused_where_it_is_written(
    make_corpus: Any, written: str
) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": WAIVED,
            "speclint.toml": (
                'include = ["schemas/**/*.json"]\n\n[[waivers]]\nrule = "unresolved-ref"\n'
                f'path = "schemas/a.schema.json"\nreason = "tracked"\nexpires = {written}\n'
            ),
        }
    )
    done = cli_in_process("check", str(root), "--format", "json", "--no-cache")
    report = json.loads(done.stdout)
    rules = sorted(f["rule"] for f in report["findings"])
    assert rules == ["unresolved-ref", "waiver"], rules  # nothing is waived
    [problem] = [f for f in report["findings"] if f["rule"] == "waiver"]
    assert "not a date" in problem["message"]
    assert problem["location"]["path"] == "speclint.toml" and problem["location"]["line"] == 7


def test_an_in_source_waiver_expiry_is_located_at_its_value(make_corpus: Any) -> None:
    waived = json.loads(WAIVED)
    waived["x-speclint-ignore"] = {"rules": ["unresolved-ref"], "reason": "r", "expires": "never"}
    root = make_corpus({"schemas/a.schema.json": json.dumps(waived, indent=2)})
    report = json.loads(cli_in_process("check", str(root), "--format", "json").stdout)
    [problem] = [f for f in report["findings"] if f["rule"] == "waiver"]
    assert problem["location"]["pointer"] == "/x-speclint-ignore/expires"
    text = (root / "schemas/a.schema.json").read_text().splitlines()
    assert '"expires"' in text[problem["location"]["line"] - 1]


def test_expiry_compares_dates_and_a_bad_speclint_today_is_an_error(make_corpus: Any) -> None:
    root = make_corpus(
        {
            "schemas/a.schema.json": WAIVED,
            "speclint.toml": (
                '[[waivers]]\nrule = "unresolved-ref"\npath = "schemas/a.schema.json"\n'
                'reason = "tracked"\nexpires = "2026-10-01"\n'
            ),
        }
    )
    env = dict(os.environ)

    def run(today: str) -> subprocess.CompletedProcess[str]:
        env["SPECLINT_TODAY"] = today
        return cli_in_process("check", str(root), "--no-cache", env=env)

    assert run("2026-09-30").returncode == 0  # waived until October
    assert "expired on 2026-10-01" in run("2026-10-02").stdout
    for bad in ("garbage", "2026-13-01", "tomorrow"):
        done = run(bad)
        assert done.returncode == 2 and "SPECLINT_TODAY" in done.stderr, done.stderr


def test_a_baseline_matches_on_every_field_a_reviewer_reads(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    baseline = tmp_path / "baseline.json"
    assert cli_in_process("baseline", "write", str(corpus), "-o", str(baseline)).returncode == 0
    assert cli_in_process("check", str(corpus), "--baseline", str(baseline)).returncode == 0
    document = json.loads(baseline.read_text())
    for entry in document["entries"]:  # same ids, other rule and file
        entry["rule"], entry["path"] = "parse-error", "README.md"
    baseline.write_text(json.dumps(document))
    done = cli_in_process("check", str(corpus), "--baseline", str(baseline))
    assert done.returncode == 1 and "0 known finding(s)" in done.stderr


@pytest.mark.parametrize(
    "content",
    [
        '{"speclint-baseline": 1, "entries": 5}',
        '{"speclint-baseline": 1}',
        '{"speclint-baseline": 2, "entries": []}',
        '{"speclint-baseline": true, "entries": []}',
        '{"entries": []}',
        '{"speclint-baseline": 1, "entries": [{"id": 1, "rule": "x", "path": "y"}]}',
        '{"speclint-baseline": 1, "entries": [{"rule": "x", "path": "y"}]}',
        '{"speclint-baseline": 1, "entries": ["x"]}',
        '{"speclint-baseline": 1, "entries": [{"id": "zz", "rule": "x", "path": "y"}]}',
        "[]",
        "",
    ],
)
def test_a_malformed_baseline_is_refused_with_a_reason(tmp_path: Path, content: str) -> None:
    corpus = write_files(tmp_path / "spec", {"schemas/a.schema.json": schema(type="object")})
    baseline = tmp_path / "baseline.json"
    baseline.write_text(content)
    done = cli_in_process("check", str(corpus), "--baseline", str(baseline))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and str(baseline) in done.stderr


def test_a_profile_is_a_name_never_a_path(tmp_path: Path) -> None:
    secret = tmp_path / "evil.toml"
    secret.write_text('include = ["SECRET-CONTENT/**"]\n')
    corpus = write_files(tmp_path / "spec", {"schemas/a.schema.json": schema(type="object")})
    for name in (
        str(secret.with_suffix("")),
        "../../../" + str(secret.with_suffix("")),
        "open wop",
    ):
        (corpus / "speclint.toml").write_text(f"profile = {json.dumps(name)}\n")
        done = cli_in_process("check", str(corpus))
        assert done.returncode == 2 and "unknown profile" in done.stderr
        assert "SECRET-CONTENT" not in done.stdout + done.stderr
    (corpus / "speclint.toml").write_text('profile = "openwop"\n')
    assert cli_in_process("check", str(corpus)).returncode == 0


def test_rfc_affects_never_looks_outside_the_root(tmp_path: Path) -> None:
    corpus = write_files(
        tmp_path / "spec",
        {
            "rfcs/0001-x.md": (
                "# RFC 0001: X\n\n| Field | Value |\n| --- | --- |\n| RFC | 0001 |\n"
                "| Title | X |\n| Status | Draft |\n| Created | 2026-01-01 |\n"
                "| Updated | 2026-01-02 |\n| Affects | `../sibling/notes.md` · `../../etc/hostname` |\n"
            ),
        },
    )
    first = cli_in_process("check", str(corpus)).stdout
    write_files(tmp_path / "sibling", {"notes.md": "# outside\n"})
    assert (
        cli_in_process("check", str(corpus)).stdout
        == first
        == cli_in_process("check", str(corpus), "--no-cache").stdout
    )
    assert "`../sibling/notes.md`, which does not exist" in first


# --- 8. writes that fail ------------------------------------------------------------------------


def unprivileged() -> list[str]:
    """A command prefix under which permission bits bind (root ignores them)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv is missing: permissions cannot be tested")
    return ["setpriv", "--inh-caps=-all", "--bounding-set=-all", "--"]


def speclint_as_user(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*unprivileged(), sys.executable, "-m", "speclint", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    corpus = write_files(tmp_path / "spec", bundled_files())
    folders = [corpus, *(p for p in corpus.rglob("*") if p.is_dir())]
    for folder in folders:
        folder.chmod(0o555)
    yield corpus
    for folder in folders:
        folder.chmod(0o755)


@pytest.mark.parametrize(
    "args",
    [
        ("build", "{corpus}"),
        ("baseline", "write", "{corpus}"),
        ("check", "{corpus}", "--format", "sarif", "--output", "{corpus}/report.sarif"),
    ],
)
def test_writes_into_a_read_only_folder_fail_clearly(
    read_only: Path, args: tuple[str, ...]
) -> None:
    before = snapshot_of(read_only)
    done = speclint_as_user(*(a.format(corpus=read_only) for a in args))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    said = done.stderr.lower()
    assert "permission denied" in said or "read-only" in said, done.stderr
    assert snapshot_of(read_only) == before


def test_a_full_disk_is_a_clear_error_and_leaves_the_old_output(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", bundled_files())
    if Path("/dev/full").exists():
        done = cli_in_process("check", str(corpus), "--format", "text", "--output", "/dev/full")
        assert done.returncode == 2 and "No space left" in done.stderr, done.stderr
    report = tmp_path / "report.sarif"
    report.write_text("the previous report\n")
    # A file size limit makes every write past 1 KiB fail, as a full disk would.
    limited = (
        "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)); "
        "from speclint.frontends.cli import entry; sys.argv = ['speclint'] + sys.argv[1:]; entry()"
    )
    done = subprocess.run(
        [sys.executable, "-c", limited, "check", str(corpus), "-f", "sarif", "-o", str(report)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert str(report) in done.stderr
    assert report.read_text() == "the previous report\n"  # whole or nothing
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".speclint-tmp-")] == []


def test_a_torn_bundle_is_stale_not_a_crash(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", buildable_files())
    assert cli_in_process("build", str(corpus)).returncode == 0
    bundle = corpus / "build/schemas/common.schema.json"
    bundle.write_bytes(bundle.read_bytes()[:50] + b"\xff\xfe")
    done = cli_in_process("build", str(corpus), "--check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "common.schema.json: stale" in done.stdout
    assert cli_in_process("build", str(corpus)).returncode == 0
    assert cli_in_process("build", str(corpus), "--check").returncode == 0


def test_temporary_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", {"schemas/a.schema.json": schema(type="object")})
    out = tmp_path / "reports"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / f".speclint-tmp-{dead.pid}-abc").write_text("half a report")
    (out / f".speclint-tmp-{os.getpid()}-def").write_text("a live writer's")
    assert (
        cli_in_process("check", str(corpus), "-f", "json", "-o", str(out / "r.json")).returncode
        == 0
    )
    names = sorted(p.name for p in out.iterdir())
    assert names == [f".speclint-tmp-{os.getpid()}-def", "r.json"]


def test_the_security_policy_describes_the_threat_model() -> None:
    policy = (REPOSITORY / "SECURITY.md").read_text(encoding="utf-8")
    for topic in ("untrusted", "Reads", "Writes", "Executes", "Connects", "Reporting"):
        assert topic in policy, topic


@GIT
def test_diff_base_runs_no_git_hook(repository_with_history: Path, tmp_path: Path) -> None:
    marker = tmp_path / "HOOK-RAN"
    hook = repository_with_history / ".git/hooks/post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    git("checkout", "-q", "HEAD~1", cwd=repository_with_history)
    assert marker.exists()  # git runs it on a plain checkout
    marker.unlink()
    git("checkout", "-q", "-", cwd=repository_with_history)
    marker.unlink()
    done = cli_in_process("check", str(repository_with_history), "--diff-base", "HEAD~1")
    assert done.returncode in (0, 1), done.stderr
    assert not marker.exists()


# --- 9. scale without collapse ------------------------------------------------------------------
# Timings live in benchmarks/scale.py; these tests pin the behaviours that collapsed.


def nested_openapi(depth: int) -> str:
    """A valid OpenAPI 3.1 document whose response schema nests ``depth`` objects deep."""
    node: dict[str, Any] = {"type": "string"}
    for level in range(depth):
        node = {"type": "object", "properties": {f"p{level}": node}}
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Deep", "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
        "paths": {
            "/deep": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "A deep body.",
                            "content": {"application/json": {"schema": node}},
                        }
                    }
                }
            }
        },
    }
    return json.dumps(document)


def test_no_recursion_limit_decides_that_a_valid_document_is_invalid(tmp_path: Path) -> None:
    # 122 levels (inside the parser's 256-level limit) took openapi-spec-validator past Python's
    # 1,000 frames: the document was "probably incomplete".
    corpus = write_files(tmp_path / "spec", {"api/openapi.json": nested_openapi(122)})
    # A child process: the frames in use are a fresh interpreter's, not those under pytest's.
    done = cli("check", str(corpus), "--no-cache", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["findings"] == []


def test_a_deep_ref_chain_is_decided_not_a_crash() -> None:
    # jsonschema-rs follows a $ref chain in native code: 2,000 deep overflowed the decider's
    # stack (SIGSEGV), and every such schema was "unknown".
    from speclint.analyses.schemas.satisfiability import NO, Decider

    depth = 2000
    resources = [
        (
            f"file:///corpus/s{i}.json",
            {"type": "object", "properties": {"next": {"$ref": f"s{i + 1}.json"}}}
            if i < depth
            else {"type": "object", "required": ["x"], "maxProperties": 0},
        )
        for i in range(depth + 1)
    ]
    probe = {"allOf": [{"$ref": "file:///corpus/s0.json"}, {"required": ["next"]}]}
    chain_end = {"properties": {"next": {"$ref": f"file:///corpus/s{depth - 1}.json"}}}
    with Decider(resources, budget=60) as decider:
        # s2000 is unsatisfiable; only an instance with "next" all the way down must reach it.
        assert decider.decide({"$ref": f"file:///corpus/s{depth}.json"}, "file:///p", True) == NO
        assert decider.decide(probe, "file:///p", True) in {"yes", "no", "unknown"}
        assert decider.decide(chain_end, "file:///p", True) in {"yes", "no", "unknown"}
        assert decider.timeouts == 0


def test_the_corpus_registry_is_built_once_not_per_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Built in each worker, the registries of 5,000 schemas took longer than the 2 s budget:
    # every decision "timed out", killed its worker, and the next built them again.
    from speclint.analyses.schemas import satisfiability

    built: list[int] = []
    real = satisfiability._build_registries

    def counting(resources: Any, missing: Any) -> Any:
        built.append(os.getpid())
        return real(resources, missing)

    monkeypatch.setattr(satisfiability, "_build_registries", counting)
    with satisfiability.Decider([("file:///corpus/a.json", {"type": "object"})], budget=0.5) as d:
        for _ in range(3):
            assert d.decide({"$ref": "file:///corpus/a.json"}, "file:///p", True) == "yes"
        d.decide(
            {"allOf": [{"anyOf": [{"type": t} for t in ("string", "number", "object")]}] * 14},
            "file:///p",
            True,
        )  # may time out and replace the worker
        assert d.decide({"$ref": "file:///corpus/a.json"}, "file:///p", True) == "yes"
    assert built == [os.getpid()]  # once, in this process, before the first fork


def test_looking_above_a_position_does_not_split_the_document_each_time() -> None:
    from speclint.analyses.context import Context
    from speclint.analyses.schemas.fingerprints import comment_above

    text = "openapi: 3.1.0\n# verbatim copy\nx: 1\n" + "y: 2\n" * 1000
    corpus = Context.from_texts({"api/openapi.yaml": text})
    document = corpus.documents["api/openapi.yaml"]
    assert comment_above(document, 3) == ("verbatim copy", 2)
    assert document.lines is document.lines  # made once


def test_validators_share_one_merged_registry(make_corpus: Any) -> None:
    # jsonschema merged its metaschemas into the corpus registry for every validator built with
    # `registry=`: 20 ms each at 5,000 schemas, 100 s for their examples.
    from jsonschema import Draft202012Validator

    from speclint.analyses.context import Context
    from speclint.analyses.schemas.references import file_uri

    root = make_corpus(
        {
            "schemas/a.schema.json": schema(type="object", required=["id"]),
            "schemas/b.schema.json": schema(type="string"),
        }
    )
    index = Context.load(root).references
    first = index.validator(Draft202012Validator, file_uri("schemas/a.schema.json"))
    second = index.validator(Draft202012Validator, file_uri("schemas/b.schema.json"))
    assert first._resolver is second._resolver  # one merge, shared
    assert not first.is_valid({}) and first.is_valid({"id": 1})
    assert second.is_valid("x") and not second.is_valid(1)


def test_a_deep_call_keeps_the_callers_context_and_error() -> None:
    from speclint.common.progress import current, reporting
    from speclint.common.stack import deeply

    def sink(*_: Any) -> None:
        return None

    with reporting(sink):
        assert deeply(current) is sink  # a rule's progress bar still reaches the user
    with pytest.raises(KeyError):
        deeply(lambda: {}["missing"])


@GIT
def test_a_worktree_left_locked_by_a_run_killed_inside_git_worktree_add_is_removed(
    repository_with_history: Path, tmp_path: Path
) -> None:
    """`git worktree add` locks the worktree while it initialises; a run killed then leaves it
    locked, and one `--force` neither removes nor prunes a locked worktree."""
    from speclint.parsing.gitbase import OWNER_FILE, SCRATCH_PREFIX, remove_stale_worktrees

    repo = repository_with_history
    scratch = tmp_path / f"{SCRATCH_PREFIX}killed"
    scratch.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that is gone
    top = git("rev-parse", "--show-toplevel", cwd=repo).strip()
    (scratch / OWNER_FILE).write_text(json.dumps({"pid": dead.pid, "repository": top}))
    git("worktree", "add", "--detach", str(scratch / "base"), "HEAD", cwd=repo)
    git("worktree", "lock", "--reason", "initializing", str(scratch / "base"), cwd=repo)
    assert len(worktrees(repo)) == 2
    assert remove_stale_worktrees(repo) == [scratch]
    assert len(worktrees(repo)) == 1
    assert not scratch.exists()
