"""Shared fixtures: small corpora written to tmp_path, the CLI, and the shared OpenWOP snapshot."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from filelock import FileLock

from speclint.analyses.context import Context
from speclint.common.findings import Finding
from speclint.frontends.cli import main
from speclint.model.config import load_config
from speclint.run.catalog import all_rules

TESTS = Path(__file__).resolve().parent
REPOSITORY = TESTS.parent
BUNDLED_CORPUS = REPOSITORY / "corpus"
BENCHMARKS = REPOSITORY / "benchmarks"
# Files the tests read as they are (the JSON Schema Test Suite's cases): tests/data.
DATA = TESTS / "data"
OPENWOP = REPOSITORY.parent / "shared" / "openwop-corpus"

# The test modules live in folders by subject (tests/rules/, tests/run/, ...) and share helpers by
# importing one another by file name (`from test_cli import cli`), the name pytest's default
# "prepend" import mode gives a module of a folder without `__init__.py`. Every folder holding
# test modules is on sys.path, after the entries pytest puts first, so such an import works wherever
# both modules live and when a module runs alone. Module file names are unique across tests/.
for _folder in sorted({path.parent for path in TESTS.rglob("test_*.py")} - {TESTS}):
    if DATA not in _folder.parents and str(_folder) not in sys.path:
        sys.path.append(str(_folder))

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The caches of every speclint the tests start (in process, or as a child that inherits the
# environment) go to a folder of this session, not the user's cache folder. An xdist worker
# inherits the environment of the process that started it, folder included: it makes one of its
# own (SESSION_CACHE says the folder was ours, not the user's), so no test reads an entry that a
# test of another worker wrote, or meets its run in the same corpus folder.
SESSION_CACHE = "SPECLINT_TESTS_SESSION_CACHE"
if "SPECLINT_CACHE_DIR" not in os.environ or os.environ["SPECLINT_CACHE_DIR"] == os.environ.get(
    SESSION_CACHE
):
    _worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _CACHE = tempfile.mkdtemp(prefix=f"speclint-test-cache-{_worker}-")
    os.environ["SPECLINT_CACHE_DIR"] = os.environ[SESSION_CACHE] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)

# A rule's tests are about what it finds, not about whether today's labels put it in the default
# set: the session runs in preview mode (every rule), and so does every speclint it starts, which
# inherits the variable. tests/run/test_preview.py takes it away to test the default set.
os.environ["SPECLINT_PREVIEW"] = "1"

# `speclint hook` run as a process (pre-commit's, `python -m speclint hook`) starts the corpus's
# resident checker in the background after it answers, for the next commit (issue 51): a test
# suite must not leave such processes behind, so the session turns that off for every speclint it
# starts (which inherits the variable). tests/frontends/test_daemon.py takes it away where it tests
# the checker the hook starts, and stops what it started.
os.environ["SPECLINT_DAEMON"] = "0"

# In a GitHub Actions job these name the commit being tested, and the Markdown report then links
# every place to it (issue 48, item 4): the reports the tests read are those of a run outside
# Actions, whatever runs the tests. tests/outputs/test_markdown_links.py sets them where it means to.
for _variable in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"):
    os.environ.pop(_variable, None)


def schema(**body: Any) -> str:
    return json.dumps({"$schema": DIALECT, **body}, indent=2) + "\n"


def openapi_30(title: str, schemas: dict[str, Any], paths: Any = None, version: str = "1.0") -> str:
    """An OpenAPI 3.0 document (``info.version`` ``version``) holding ``schemas`` as its
    component schemas."""
    return textwrap.dedent(
        f"""\
        openapi: 3.0.3
        info: {{title: {json.dumps(title)}, version: {json.dumps(version)}}}
        paths: {json.dumps(paths or {})}
        components:
          schemas: {json.dumps(schemas)}
        """
    )


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


def rewritten_in_place(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as an editor that keeps the modification time does (or a
    ``touch -d`` after it), once the clock has moved on from the file's last change time (the
    kernel stamps changes from a clock that ticks every few milliseconds): its change time is
    then the only part of its status that says so (the replay cache, ``speclint.run.replay``)."""
    before = path.stat()
    while time.time_ns() <= before.st_ctime_ns + 20_000_000:
        time.sleep(0.005)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_ctime_ns != before.st_ctime_ns


def checkout_files(under: str = ".") -> list[str]:
    """The files of this checkout under ``under`` (relative paths), as a fresh clone would have
    them: tracked, and untracked but not ignored. What a user's run leaves in the checkout (the
    git-ignored `corpus/build/` of the README's `speclint build corpus/`, a cache) is no part of
    them, so a test that copies the bundled corpus does not copy it."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", under],
        cwd=REPOSITORY,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    # A tracked file deleted in the working tree is listed too: a clone of it would not have it.
    return [
        os.fsdecode(name) for name in listed if name and (REPOSITORY / os.fsdecode(name)).is_file()
    ]


def bundled_corpus_files() -> dict[str, str | bytes]:
    """The bundled corpus's files (paths relative to it) as a fresh clone has them."""
    return {
        Path(name).relative_to("corpus").as_posix(): (REPOSITORY / name).read_bytes()
        for name in checkout_files("corpus")
    }


def copy_bundled_corpus(destination: Path) -> Path:
    """A copy of the bundled corpus at ``destination``, as a fresh clone has it."""
    for name in checkout_files("corpus"):
        target = destination / Path(name).relative_to("corpus")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPOSITORY / name, target)
    return destination


def snapshot_checkout(destination: Path) -> str:
    """A git repository at ``destination`` holding this checkout as it is now (its tracked and
    untracked, not ignored, files) in one commit, the way a fresh clone would have it; the commit id.
    Tests install speclint from it as a user installs from a clone."""
    identity = {
        "GIT_AUTHOR_NAME": "speclint tests",
        "GIT_AUTHOR_EMAIL": "tests@speclint.invalid",
        "GIT_COMMITTER_NAME": "speclint tests",
        "GIT_COMMITTER_EMAIL": "tests@speclint.invalid",
    }

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args],
            cwd=destination,
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, **identity},
        ).stdout

    for name in checkout_files():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPOSITORY / name, target)
    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "speclint as it is being tested")
    return git("rev-parse", "HEAD").strip()


@pytest.fixture
def make_corpus(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    def build(files: dict[str, str | bytes]) -> Path:
        return write_files(tmp_path / "spec", files)

    return build


def count_builds(monkeypatch: pytest.MonkeyPatch, fact: type) -> list[int]:
    """A list that grows by one each time ``fact.build`` (a fact's classmethod that builds it for
    a run: ``speclint.analyses.context``) is called, for this test."""
    built: list[int] = []
    original = fact.build.__func__  # type: ignore[attr-defined]

    def build(cls: type, *args: Any) -> Any:
        built.append(1)
        return original(cls, *args)

    monkeypatch.setattr(fact, "build", classmethod(build))
    return built


def run_cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def cli_in_process(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """What ``speclint ARGS`` run in ``cwd`` with the environment ``env`` (the whole of it, as a
    child's) and ``input`` on stdin exits with and prints on stdout and stderr, answered in this
    process: the same answer as tests/frontends/test_cli.py's ``cli``, which starts a child, at a fraction
    of the cost (no interpreter to start and no imports, and the code fingerprint that keys the
    cache computed once a process, not once a run). For tests of what the command line prints
    and exits with; a test whose point is the process (a signal, the console script, a fresh
    interpreter's imports, no network) starts one."""
    overrides: dict[str, str | None] | None = None
    if env is not None:
        overrides = {name: None for name in os.environ if name not in env}
        overrides.update(env)
    previous = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        # The program's name as click reads it under `python -m speclint`, for usage messages.
        result = CliRunner().invoke(
            main,
            list(args),
            input=input,
            env=overrides,
            prog_name="python -m speclint",
            catch_exceptions=False,
        )
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(
        ["speclint", *args], result.exit_code, result.stdout, result.stderr
    )


def run_rule(root: Path, rule: str, options: Mapping[str, Any] | None = None) -> list[Finding]:
    """The findings of one rule on the corpus at ``root``, in process. Without ``options`` the rule
    gets what the corpus's speclint.toml gives it (``[rules.ID]``), as the engine does."""
    corpus = Context.load(root, load_config(root))
    if options is None:
        options = corpus.config.rule_options.get(rule, {})
    return list(all_rules()[rule].check(corpus, options))


def findings_of(rule: str, root: Path, options: Mapping[str, Any] | None = None) -> list[Finding]:
    """The findings of one rule on the corpus at ``root``, in process, with ``options`` and no
    configuration file (without options: the rule's defaults alone)."""
    return list(all_rules()[rule].check(Context.load(root), dict(options or {})))


@pytest.fixture(scope="session")
def hook_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """(a git repository holding this checkout as it is now, its commit, PRE_COMMIT_HOME), made
    once per test run, so that every test of the pre-commit hook, in any file and on any xdist
    worker, reuses one hook environment. The first worker to take the lock makes the snapshot;
    pre-commit installs the environment under its own lock in PRE_COMMIT_HOME."""
    base = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        base = base.parent  # the folder of this run that all its workers share
    shared = base / "pre-commit-hook"
    shadow, made = shared / "speclint", shared / "commit"
    with FileLock(str(base / "pre-commit-hook.lock")):
        if not made.is_file():
            shutil.rmtree(shared, ignore_errors=True)  # a worker that died half way
            shadow.mkdir(parents=True)
            made.write_text(snapshot_checkout(shadow), encoding="utf-8")
    return shadow, made.read_text(encoding="utf-8"), shared / "pre-commit-home"


@pytest.fixture(scope="session")
def openwop() -> Path:
    if not (OPENWOP / "SNAPSHOT.md").is_file():
        pytest.skip(
            f"the shared OpenWOP snapshot is not at {OPENWOP} (it lives in ../shared beside the checkout)"
        )
    return OPENWOP


def dedented(text: str) -> str:
    """A fixture's text written indented in a test, as its file holds it: dedented, without the
    newline after the opening quotes."""
    return textwrap.dedent(text).lstrip("\n")
