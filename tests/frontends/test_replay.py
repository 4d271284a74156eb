"""The replay cache (issue 51): ``speclint check`` with nothing changed prints what the run it
replays printed, byte for byte, with its exit code, without importing the engine; any change to an
input the key holds, or to a file the run read, is a miss.

A run is shown to be answered by the replay cache, without timing it, by running it in a child
that refuses to import the engine, the analyses, the reporters and click (``PROBE``): answered,
it prints what the full run printed; not answered, it ends in an ImportError naming the module.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import click
import pytest

from conftest import rewritten_in_place, schema, write_files
from speclint.common.cache_folder import ENTRY, corpus_folder
from speclint.common.storage import dumps
from speclint.frontends import cli, client, replay
from speclint.run import replay as replay_cache
from speclint.run.roots import scope_of

# A child that runs the command line as the console script does, after refusing every import
# an answered run must not need: run, it answers or fails with "replay probe: ... imported".
# An audit hook, not an import finder: the key asks importlib where packages are (the code
# fingerprint), which a finder would answer differently in the probe; only an import is audited.
PROBE = """
import sys

REFUSED = ("speclint.run.engine", "speclint.analyses", "speclint.outputs", "speclint.rules.",
           "click")

def refuse(event, args):
    if event == "import" and args[0].startswith(REFUSED):
        raise ImportError(f"replay probe: {args[0]} imported")

sys.addaudithook(refuse)
from speclint.__main__ import run
run()
"""
REFUSED = "replay probe:"

BAD = schema(type="strnig")  # schema-invalid: an error, exit 1


def corpus(root: Path, bad: bool = True) -> Path:
    """A small git work tree: two schemas (one invalid when ``bad``) and a page."""
    files: dict[str, str | bytes] = {
        "speclint.toml": "",
        "schemas/a.schema.json": schema(type="object", properties={"a": {"enum": ["x", "y"]}}),
        "docs/index.md": "# Docs\n\nThe `a` field is `x` or `y`: [schema](../schemas/a.schema.json).\n",
        # Files git ignores: more than one, in a set whose order is the process's own.
        ".gitignore": "*.tmp\nbuild/\n",
        "a.tmp": "a",
        "b.tmp": "b",
        "c.tmp": "c",
        "build/out.json": "{}\n",
    }
    if bad:
        files["schemas/bad.schema.json"] = BAD
    write_files(root, files)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    return root


def environment(cache: Path, **changes: str | None) -> dict[str, str]:
    found = {**os.environ, "SPECLINT_CACHE_DIR": str(cache)}
    for name, value in changes.items():
        if value is None:
            found.pop(name, None)
        else:
            found[name] = value
    return found


def speclint(
    *args: str, cwd: Path, env: Mapping[str, str], probe: bool = False
) -> subprocess.CompletedProcess[bytes]:
    """``speclint ARGS`` in a child, its output as bytes; ``probe``: the child that refuses the
    engine's imports (``PROBE``)."""
    command = [sys.executable, "-c", PROBE] if probe else [sys.executable, "-m", "speclint"]
    return subprocess.run([*command, *args], cwd=cwd, env=dict(env), capture_output=True)


def answered(
    full: subprocess.CompletedProcess[bytes], *args: str, cwd: Path, env: Mapping[str, str]
) -> bool:
    """Whether the replay cache answers ``speclint ARGS`` (then with what ``full`` printed and
    its exit code, or the test fails)."""
    probed = speclint(*args, cwd=cwd, env=env, probe=True)
    if REFUSED.encode() in probed.stderr:
        return False
    assert (probed.stdout, probed.stderr, probed.returncode) == (
        full.stdout,
        full.stderr,
        full.returncode,
    )
    return True


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    return folder


def folder_of(cache: Path, root: Path) -> Path:
    """The corpus folder of ``root`` in the cache folder ``cache``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPECLINT_CACHE_DIR", str(cache))
        folder = corpus_folder(root)
    assert folder is not None
    return folder


def entries(cache: Path, root: Path) -> list[Path]:
    return sorted((folder_of(cache, root) / replay_cache.FOLDER).glob(f"*{ENTRY}"))


@pytest.mark.parametrize("bad", [True, False], ids=["findings", "none"])
@pytest.mark.parametrize("format_name", ["text", "json", "sarif"])
def test_an_answered_run_prints_what_the_full_run_printed(
    tmp_path: Path, cache: Path, format_name: str, bad: bool
) -> None:
    root = corpus(tmp_path / "repo", bad)
    env = environment(cache, SPECLINT_CACHE_DIR=str(cache))
    args = ("check", ".", "--format", format_name)
    full = speclint(*args, cwd=root, env=env)
    assert full.returncode == (1 if bad else 0), full.stderr
    assert full.stdout
    assert answered(full, *args, cwd=root, env=env)
    # What the run cache answers (a run that imports the engine) prints the same.
    again = speclint(*args, "--cache", cwd=root, env=env)
    assert (again.stdout, again.stderr, again.returncode) == (
        full.stdout,
        full.stderr,
        full.returncode,
    )


def test_every_input_change_misses_and_undoing_it_answers_again(
    tmp_path: Path, cache: Path
) -> None:
    root = corpus(tmp_path / "repo")
    env = environment(cache)
    args = ("check", ".")
    full = speclint(*args, cwd=root, env=env)
    assert full.returncode == 1, full.stderr
    assert answered(full, *args, cwd=root, env=env)

    def misses(cwd: Path = root, run_args: tuple[str, ...] = args, **changed: str | None) -> bool:
        return not answered(full, *run_args, cwd=cwd, env=environment(cache, **changed))

    # A file's bytes, the same size.
    page = root / "docs/index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("`x`", "`z`"), encoding="utf-8")
    assert misses()
    page.write_text(text, encoding="utf-8")
    assert not misses()
    # A new file discovery reads; then one git ignores (not a corpus file any more).
    (root / "docs/new.md").write_text("# New\n", encoding="utf-8")
    assert misses()
    (root / ".git/info/exclude").write_text("docs/new.md\n", encoding="utf-8")
    assert misses()
    (root / "docs/new.md").unlink()
    (root / ".git/info/exclude").write_text("", encoding="utf-8")
    assert not misses()
    # An existing file git now ignores (.git/info/exclude is no file of the corpus).
    (root / ".git/info/exclude").write_text("schemas/bad.schema.json\n", encoding="utf-8")
    assert misses()
    (root / ".git/info/exclude").write_text("", encoding="utf-8")
    assert not misses()
    # The configuration.
    (root / "speclint.toml").write_text('exclude = ["docs/**"]\n', encoding="utf-8")
    assert misses()
    (root / "speclint.toml").write_text("", encoding="utf-8")
    assert not misses()
    # The environment, the date, the working folder.
    assert misses(NO_COLOR="1")
    assert misses(SPECLINT_PREVIEW="0" if os.environ.get("SPECLINT_PREVIEW") == "1" else "1")
    assert misses(SPECLINT_TODAY="2031-01-02")
    # The same command line in another folder (the report names the same files).
    named = ("check", str(root))
    full = speclint(*named, cwd=root, env=env)
    assert answered(full, *named, cwd=root, env=env)
    assert misses(cwd=root / "docs", run_args=named)
    full = speclint(*args, cwd=root, env=env)
    # --no-cache and SPECLINT_NO_CACHE are never answered.
    assert misses(SPECLINT_NO_CACHE="1")
    assert not misses()


def test_a_run_that_changes_nothing_keeps_one_entry_and_no_cache_writes_none(
    tmp_path: Path, cache: Path
) -> None:
    root = corpus(tmp_path / "repo")
    env = environment(cache)
    speclint("check", ".", "--no-cache", cwd=root, env=env)
    speclint("check", ".", cwd=root, env=environment(cache, SPECLINT_NO_CACHE="1"))
    assert not entries(cache, root)
    full = speclint("check", ".", cwd=root, env=env)
    [entry] = entries(cache, root)
    assert answered(full, "check", ".", cwd=root, env=env)
    assert entries(cache, root) == [entry]
    # --no-cache neither reads it (it runs, and prints what a run prints)...
    uncached = speclint("check", ".", "--no-cache", cwd=root, env=env)
    assert (uncached.stdout, uncached.returncode) == (full.stdout, full.returncode)
    assert not answered(full, "check", ".", "--no-cache", cwd=root, env=env)
    # ... nor writes one.
    assert entries(cache, root) == [entry]


@pytest.mark.parametrize(
    "args",
    [
        ("check", ".", "--output", "report.json"),
        ("check", ".", "--debug"),
        ("check", ".", "--format", "github"),
        ("check", ".", "--progress"),
        ("check", ".", "-qf", "json"),
    ],
    ids=["output", "debug", "github", "progress", "cluster"],
)
def test_runs_with_something_else_to_do_are_neither_recorded_nor_answered(
    tmp_path: Path, cache: Path, args: tuple[str, ...]
) -> None:
    root = corpus(tmp_path / "repo")
    env = environment(cache)
    full = speclint(*args, cwd=root, env=env)
    assert full.returncode == 1, full.stderr
    assert not entries(cache, root)
    assert not answered(full, *args, cwd=root, env=env)


# An entry of the right shape for a run that read no file.
EMPTY = {
    "files": [],
    "beside": [],
    "digests": [],
    "statuses": [],
    "started": 0,
    "printed": [[1, "forged\n"]],
    "code": 0,
}


def forge(entry: Path, value: object) -> None:
    entry.write_bytes(dumps(value) if not isinstance(value, bytes) else value)


@pytest.mark.parametrize(
    "damage",
    [
        b"not msgpack at all",
        {**EMPTY, "code": "0"},
        {**EMPTY, "printed": [[3, "forged\n"]]},
        {key: value for key, value in EMPTY.items() if key != "digests"},
        {**EMPTY, "files": ["docs/index.md"]},  # a file with no digest and no status
        {**EMPTY, "statuses": [[1, 2, 3]], "digests": [bytes(32)], "files": ["docs/index.md"]},
        "the files' digest",
    ],
    ids=[
        "garbage",
        "code-a-string",
        "stream-3",
        "no-digest",
        "one-digest-short",
        "status-short",
        "digest",
    ],
)
def test_a_damaged_or_forged_entry_is_a_miss(tmp_path: Path, cache: Path, damage: object) -> None:
    root = corpus(tmp_path / "repo")
    env = environment(cache)
    full = speclint("check", ".", cwd=root, env=env)
    [entry] = entries(cache, root)
    if damage == "the files' digest":
        # The shape of an entry, with output the files never gave: its digest is not theirs.
        key = entry.name[: -len(ENTRY)]
        recorded = replay_cache.recall(folder_of(cache, root), key)
        assert recorded is not None and recorded.inputs.files
        count = len(recorded.inputs.digests)
        forge(
            entry,
            {
                "files": list(recorded.inputs.files),
                "beside": list(recorded.inputs.beside),
                "digests": [bytes(32)] * count,
                "statuses": [[]] * count,  # none kept: every file is read and hashed
                "started": recorded.inputs.started,
                "printed": [[1, "forged\n"]],
                "code": 0,
            },
        )
    else:
        forge(entry, damage)
    probed = speclint("check", ".", cwd=root, env=env, probe=True)
    assert REFUSED.encode() in probed.stderr
    assert b"forged" not in probed.stdout
    # The full run that follows keeps a good entry again.
    assert speclint("check", ".", cwd=root, env=env).stdout == full.stdout
    assert answered(full, "check", ".", cwd=root, env=env)


def test_a_cache_folder_others_may_write_is_not_used(tmp_path: Path, cache: Path) -> None:
    root = corpus(tmp_path / "repo")
    cache.chmod(0o777)
    env = environment(cache)
    full = speclint("check", ".", cwd=root, env=env)
    assert b"is not a private folder of this user" in full.stderr
    assert not answered(full, "check", ".", cwd=root, env=env)
    assert not list(cache.rglob(f"*{ENTRY}"))


def test_a_replays_folder_that_is_a_link_is_not_used(tmp_path: Path, cache: Path) -> None:
    root = corpus(tmp_path / "repo")
    env = environment(cache)
    speclint("check", ".", cwd=root, env=env)
    replays = folder_of(cache, root) / replay_cache.FOLDER
    elsewhere = tmp_path / "elsewhere"
    replays.rename(elsewhere)
    replays.symlink_to(elsewhere, target_is_directory=True)
    full = speclint("check", ".", cwd=root, env=env)
    assert not answered(full, "check", ".", cwd=root, env=env)


# --- in process: what the run tells the recording ------------------------------------------------


@pytest.fixture
def in_corpus(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = corpus(tmp_path / "repo")
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(cache))
    monkeypatch.chdir(root)
    yield root


def run_recorded(argv: list[str]) -> int:
    """The command line as ``speclint.__main__`` runs it: answered, or recorded."""
    from speclint.frontends.cli import main

    with pytest.raises(SystemExit) as ending:
        recording = replay.front(argv)
        if recording is None:
            main.main(args=argv, prog_name="speclint")
        else:
            with replay.recorded(recording):
                main.main(args=argv, prog_name="speclint")
    code = ending.value.code
    assert isinstance(code, int)
    return code


def test_a_run_with_an_internal_error_is_not_kept(
    in_corpus: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from speclint.common.findings import Severity
    from speclint.run import engine
    from speclint.run.catalog import RuleInfo

    def fragile(corpus: object, options: object) -> list[object]:
        raise KeyError("a")

    info = RuleInfo("fragile", Severity.ERROR, "A rule with a bug.", __name__, fragile)
    real = engine.run_rules
    monkeypatch.setattr(
        engine,
        "run_rules",
        lambda corpus, rules, **given: real(corpus, {**rules, "fragile": info}, **given),
    )
    assert run_recorded(["check", ".", "--no-progress"]) == 1
    assert not entries(cache, in_corpus)
    monkeypatch.setattr(engine, "run_rules", real)
    assert run_recorded(["check", ".", "--no-progress"]) == 1
    assert len(entries(cache, in_corpus)) == 1


def test_an_interrupted_run_is_not_kept(
    in_corpus: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from speclint.common.lifecycle import Interrupted
    from speclint.frontends.cli import main
    from speclint.run import engine

    def interrupted(*args: object, **kwargs: object) -> None:
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(engine, "lint", interrupted)
    recording = replay.front(["check", "."])
    assert recording is not None
    with pytest.raises(Interrupted), replay.recorded(recording):
        main.main(args=["check", "."], prog_name="speclint")
    assert not entries(cache, in_corpus)


def test_a_run_whose_files_change_while_it_runs_is_not_kept(
    in_corpus: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from speclint.run import engine

    real = engine.lint

    def meanwhile(*args: object, **kwargs: object) -> object:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        (in_corpus / "docs/later.md").write_text("# Later\n", encoding="utf-8")
        return found

    monkeypatch.setattr(engine, "lint", meanwhile)
    assert run_recorded(["check", "."]) == 1
    assert not entries(cache, in_corpus)


def test_a_replay_takes_settled_files_as_read_and_reads_one_whose_status_moved(
    in_corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run recorded long after its files last changed (played by a margin of minus an hour: a
    change time cannot be set back) is answered without opening them; a page edited keeping its
    size and modification time is read, and the replay misses."""
    margin = replay_cache.SETTLED_NANOSECONDS
    monkeypatch.setattr(replay_cache, "SETTLED_NANOSECONDS", -3600 * 10**9)
    argv = ["check", ".", "--no-progress"]
    assert run_recorded(argv) == 1
    printed = capsys.readouterr()
    monkeypatch.setattr(replay_cache, "SETTLED_NANOSECONDS", margin)
    opened: list[str] = []
    real = replay_cache.read_with_status

    def spy(root: Path, path: str) -> object:
        opened.append(path)
        return real(root, path)

    monkeypatch.setattr(replay_cache, "read_with_status", spy)
    with pytest.raises(SystemExit) as ending:
        replay.front(argv)
    assert ending.value.code == 1
    assert capsys.readouterr() == printed
    assert opened == []
    page = in_corpus / "docs/index.md"
    rewritten_in_place(page, page.read_text(encoding="utf-8").replace("`x`", "`z`"))
    assert replay.front(argv) is not None  # not answered: the run is recorded again
    assert opened == ["docs/index.md"]


def test_the_key_holds_the_code_and_the_terminals(
    in_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scope = scope_of((Path("."),))

    def key() -> str:
        return replay_cache.replay_key(["check", "."], scope, None, dict(os.environ), os.getcwd())

    before = key()
    assert key() == before
    monkeypatch.setattr(replay_cache, "installed_code", lambda: "another installation")
    assert key() != before
    monkeypatch.undo()
    monkeypatch.chdir(in_corpus)

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    assert key() != before


def test_a_run_whose_forked_worker_printed_is_not_kept(
    in_corpus: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a rule's worker writes reaches the stream, not the record: such a run is not kept."""
    from speclint.run import engine

    real = engine.lint

    def worker_speaks(*args: object, **kwargs: object) -> object:
        child = os.fork()
        if child == 0:
            sys.stderr.write("a worker's warning\n")
            os._exit(0)
        os.waitpid(child, 0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "lint", worker_speaks)
    assert run_recorded(["check", "."]) == 1
    assert not entries(cache, in_corpus)
    assert not list((folder_of(cache, in_corpus) / replay_cache.FOLDER).iterdir())
    monkeypatch.setattr(engine, "lint", real)
    assert run_recorded(["check", "."]) == 1
    assert len(entries(cache, in_corpus)) == 1


def test_a_run_whose_output_could_not_be_written_is_not_kept(
    in_corpus: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Closed:
        """A pipe whose reader has gone (``speclint check | head``)."""

        encoding = "utf-8"
        errors = "strict"

        def write(self, text: str) -> int:
            if isinstance(text, bytes):
                raise TypeError("a text stream")
            if text:
                raise BrokenPipeError(32, "Broken pipe")
            return 0

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdout", Closed())
    assert run_recorded(["check", "."]) == 1
    assert not entries(cache, in_corpus)


def test_the_key_is_the_same_in_every_process(in_corpus: Path) -> None:
    """Nothing in the key depends on the process's string hashes (what git ignores is a set)."""
    make = (
        "import os, sys; from pathlib import Path; from speclint.run.replay import replay_key; "
        "from speclint.run.roots import scope_of; "
        "print(replay_key(['check', '.'], scope_of((Path('.'),)), None, {'A': '1'}, '/'))"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", make],
            cwd=in_corpus,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in (1, 2, 3, 4)
    }
    assert len(keys) == 1, keys


def test_the_flags_a_replay_answers_are_checks_flags() -> None:
    # A flag renamed or removed from `check` must not stay answerable under its old spelling,
    # and an option a replay cannot answer must not become answerable by a new spelling.
    command = cli.main.commands["check"]
    flags = {
        spelling
        for parameter in command.params
        if isinstance(parameter, click.Option) and parameter.is_flag
        for spelling in (*parameter.opts, *parameter.secondary_opts)
    }
    assert flags >= replay.FLAGS
    assert client.COMMANDS["check"] >= replay.UNANSWERED
