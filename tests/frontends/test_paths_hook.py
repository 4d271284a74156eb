"""Paths as users pass them (issue 25, item 11) and the hook on a spec in a subfolder (item 12).

``speclint check FILE`` and several paths: the corpus root is found from the paths (the nearest
configuration upward, else the git work tree's top, else the folder named), the whole corpus is
loaded there, and findings are shown for the paths given. The hook finds its corpus the same way
from the staged files, refuses to run outside a git work tree, and matches findings across the
base and the head by what they say, not by the text of the line they sit on."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_cli import GOOD_OPENAPI
from test_diff_base import git
from test_pre_commit_hook import (
    LEGACY,
    RUN_SNAPSHOT,
    RUNS_PAGE,
    commit,
    head_message,
    spec_repository,
)

from conftest import cli_in_process, schema, write_files
from speclint.parsing.gitbase import tracked_named
from speclint.parsing.kinds import CONFIGURATION_FILES
from speclint.run.roots import configuration_in

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

RUN = schema(type="object", properties={"id": {"type": "string"}})
# An error a check of the API file alone must not show: it is in another file.
BROKEN = schema(type="objekt")


def corpus_files(config: str = 'fail-on = "error"\n') -> dict[str, str | bytes]:
    return {
        "corpus/speclint.toml": config,
        "corpus/api/openapi.yaml": GOOD_OPENAPI,
        "corpus/schemas/run.schema.json": RUN,
        "corpus/schemas/broken.schema.json": BROKEN,
    }


def finding_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if " [" in line and not line.startswith(" ")]


def speclint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # In this process: these tests are about where a command finds its corpus, not about the
    # process (the hook run by pre-commit, below, is a real one).
    return cli_in_process(
        *args, cwd=cwd, env={**os.environ, "SPECLINT_CACHE_DIR": str(cwd / ".." / "c")}
    )


# --- item 11: check -----------------------------------------------------------------------------


def test_a_file_is_checked_in_its_corpus(tmp_path: Path) -> None:
    work = write_files(tmp_path / "work", corpus_files())
    done = speclint("check", "corpus/api/openapi.yaml", cwd=work)
    # The $ref to ../schemas/run.schema.json resolves (the corpus is loaded at its root), and the
    # broken schema elsewhere is not this check's to show.
    assert done.returncode == 0, done.stdout + done.stderr
    assert finding_lines(done.stdout) == []
    assert "(findings shown for 1 of 3 files: corpus/api/openapi.yaml)" in done.stdout
    assert "no findings" in done.stdout

    # Named from inside the corpus, paths are shown as the user named them.
    inside = speclint("check", "schemas/broken.schema.json", cwd=work / "corpus")
    assert inside.returncode == 1, inside.stdout + inside.stderr
    lines = finding_lines(inside.stdout)
    assert len(lines) == 1 and lines[0].startswith("schemas/broken.schema.json:")


def test_a_subfolder_resolves_refs_that_leave_it(tmp_path: Path) -> None:
    work = write_files(tmp_path / "work", corpus_files())
    done = speclint("check", "corpus/api", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unresolved-ref" not in done.stdout
    assert "(findings shown for 1 of 3 files: corpus/api)" in done.stdout


def test_files_roles_and_bindings_find_the_corpus_of_a_path(tmp_path: Path) -> None:
    """The listing commands take a file or a subfolder as `check` does: the corpus is loaded at
    its root (so a `$ref` out of the folder still gives the schema its role) and the listing is
    of the path given."""
    work = write_files(tmp_path / "work", corpus_files())
    files = speclint("files", "corpus/api", cwd=work)
    assert files.returncode == 0, files.stderr
    assert [line.split()[0] for line in files.stdout.splitlines()[:-1]] == ["api/openapi.yaml"]
    assert "the corpus at corpus (corpus/speclint.toml)" in files.stderr
    roles = speclint("roles", "corpus/schemas/run.schema.json", cwd=work)
    assert roles.returncode == 0, roles.stderr
    listed = [line for line in roles.stdout.splitlines() if not line.startswith(" ")]
    assert listed[:-1] and all(line.startswith("schemas/run.schema.json#") for line in listed[:-1])
    assert "unused" not in listed[0]  # reached from the API document, outside the path given
    bindings = speclint("bindings", "corpus/schemas", cwd=work)
    assert bindings.returncode == 0, bindings.stderr
    assert speclint("files", "corpus/nowhere.yaml", cwd=work).returncode == 2


def test_several_paths_share_one_root(tmp_path: Path) -> None:
    work = write_files(tmp_path / "work", corpus_files())
    done = speclint("check", "corpus/api/openapi.yaml", "corpus/schemas", cwd=work)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = finding_lines(done.stdout)
    assert len(lines) == 1 and lines[0].startswith("corpus/schemas/broken.schema.json:")
    assert "(findings shown for 3 of 3 files" in done.stdout

    write_files(work, {"other/speclint.toml": "", "other/a.schema.json": RUN})
    apart = speclint("check", "corpus/api", "other/a.schema.json", cwd=work)
    assert apart.returncode == 2
    assert apart.stderr.startswith("speclint: error: ") and apart.stderr.count("\n") == 1
    assert "one corpus" in apart.stderr and "corpus" in apart.stderr and "other" in apart.stderr


def test_the_configuration_is_found_in_a_parent_folder(tmp_path: Path) -> None:
    work = write_files(tmp_path / "work", corpus_files('[rules]\nschema-invalid = "off"\n'))
    done = speclint("check", "corpus/schemas", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "schema-invalid" not in done.stdout


@needs_git
def test_without_configuration_the_root_is_the_git_work_tree(tmp_path: Path) -> None:
    files = corpus_files()
    del files["corpus/speclint.toml"]
    repo = write_files(tmp_path / "repo", files)
    git(repo, "init", "-q")
    done = speclint("check", "corpus/api", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unresolved-ref" not in done.stdout
    # Without git or configuration, the folder named is the root: the $ref leaves it.
    plain = write_files(tmp_path / "plain", files)
    alone = speclint("check", "corpus/api", cwd=plain)
    assert alone.returncode == 1 and "unresolved-ref" in alone.stdout


def test_a_pyproject_is_a_configuration_only_with_a_speclint_table(tmp_path: Path) -> None:
    folders = write_files(
        tmp_path,
        {
            "with/pyproject.toml": '[project]\nname = "x"\n\n[tool.speclint]\nfail-on = "error"\n',
            "without/pyproject.toml": '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 99\n',
            "broken/pyproject.toml": "[tool.speclint\n",
            "both/pyproject.toml": "[tool.speclint]\n",
            "both/speclint.toml": "",
        },
    )
    assert configuration_in(folders / "with") == "pyproject.toml"
    assert configuration_in(folders / "without") is None
    assert configuration_in(folders / "broken") is None  # loading it is not the root finder's
    assert configuration_in(folders / "both") == "speclint.toml"
    assert configuration_in(folders) is None


def test_a_path_through_a_link_out_of_the_root_is_refused(tmp_path: Path) -> None:
    work = write_files(tmp_path / "work", corpus_files())
    outside = write_files(tmp_path / "outside", {"secret.schema.json": BROKEN})
    (work / "corpus/linked").symlink_to(outside, target_is_directory=True)
    done = speclint("check", "corpus/linked/secret.schema.json", cwd=work)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not part of the corpus" in done.stderr and "schema-invalid" not in done.stdout
    missing = speclint("check", "corpus/nothing.yaml", cwd=work)
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr


def test_a_folder_anyone_may_write_to_does_not_decide_the_root(tmp_path: Path) -> None:
    # Whoever can write to /tmp must not turn rules off for a corpus below it.
    shared = write_files(
        tmp_path / "shared",
        {
            "speclint.toml": '[rules]\nschema-invalid = "off"\n',
            "mine/schemas/broken.schema.json": BROKEN,
        },
    )
    shared.chmod(0o777)
    done = speclint("check", "shared/mine/schemas", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "shared/mine/schemas/broken.schema.json:" in done.stdout
    assert "schema-invalid" in done.stdout


# --- item 12: the hook, by hand -----------------------------------------------------------------


@needs_git
@pytest.mark.parametrize("literal", ["", "1"])
def test_the_configurations_of_a_repository_are_found_at_any_depth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, literal: str
) -> None:
    # Git lists them by a pathspec each (issue 51): at the top too, not a near name, not an
    # untracked one, a name holding a glob's characters as written, and the same when the
    # user's environment asks git to read pathspecs literally.
    repo = write_files(
        tmp_path / "repo",
        {
            "speclint.toml": "",
            "a/b/speclint.toml": "",
            "c/pyproject.toml": "",
            "d/xspeclint.toml": "",
            "e/speclint.toml.bak": "",
            "f/Speclint.toml": "",
            "g/[x].toml": "",
            "g/x.toml": "",
            "untracked/speclint.toml": "",
        },
    )
    git(repo, "init", "-q")
    git(repo, "add", "--", ".", ":!untracked")
    monkeypatch.setenv("GIT_LITERAL_PATHSPECS", literal)
    assert tracked_named(repo, CONFIGURATION_FILES) == [
        "a/b/speclint.toml",
        "c/pyproject.toml",
        "speclint.toml",
    ]
    assert tracked_named(repo, ("[x].toml",)) == ["g/[x].toml"]
    assert tracked_named(repo, ()) == []


def test_the_hook_refuses_outside_a_git_work_tree(tmp_path: Path) -> None:
    plain = write_files(tmp_path / "plain", corpus_files())
    done = speclint("hook", cwd=plain)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not in a git work tree" in done.stderr and done.stdout == ""
    named = speclint("hook", "corpus", cwd=plain)
    assert named.returncode == 2, named.stdout + named.stderr
    assert "not in a git work tree" in named.stderr and named.stdout == ""


@needs_git
def test_a_commit_outside_the_configured_corpus_is_not_judged(tmp_path: Path) -> None:
    repo = write_files(tmp_path / "repo", corpus_files())
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, {"notes.md": "# Notes\n"})
    git(repo, "add", "-A")
    done = speclint("hook", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "changes no file of this repository's corpora (corpus)" in done.stderr
    # A commit that does touch it is judged in it, with paths as seen from the top.
    write_files(repo, {"corpus/schemas/new.schema.json": BROKEN})
    git(repo, "add", "-A")
    touched = speclint("hook", cwd=repo)
    assert touched.returncode == 1, touched.stdout + touched.stderr
    assert finding_lines(touched.stdout)[0].startswith("corpus/schemas/new.schema.json:")


@needs_git
def test_a_commit_in_two_corpora_is_judged_in_each(tmp_path: Path) -> None:
    repo = write_files(
        tmp_path / "repo",
        {
            "a/speclint.toml": "",
            "a/run.schema.json": RUN,
            "b/speclint.toml": '[rules]\nschema-invalid = "off"\n',
            "b/run.schema.json": RUN,
        },
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    write_files(repo, {"a/broken.schema.json": BROKEN, "b/broken.schema.json": BROKEN})
    git(repo, "add", "-A")
    done = speclint("hook", cwd=repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "speclint: the corpus at a:" in done.stderr and "the corpus at b:" in done.stderr
    # Each with its own configuration: b turns schema-invalid off.
    assert [line.split(":")[0] for line in finding_lines(done.stdout)] == ["a/broken.schema.json"]


def drift_repository(tmp_path: Path) -> Path:
    """A committed corpus with an enum drift on a prose line (the schema allows `failed`, the
    page does not list it) and a legacy schema error."""
    repo = write_files(
        tmp_path / "repo",
        {
            "corpus/speclint.toml": 'fail-on = "error"\n',
            "corpus/schemas/run-snapshot.schema.json": RUN_SNAPSHOT.replace(
                '"done"', '"done",\n          "failed"'
            ),
            "corpus/schemas/legacy.schema.json": LEGACY,
            "corpus/spec/runs.md": RUNS_PAGE,
        },
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    return repo


@needs_git
def test_an_edited_enum_line_keeps_its_old_drift_known(tmp_path: Path) -> None:
    repo = drift_repository(tmp_path)
    # The line with the drift is reworded (its values unchanged: the drift stays) and lines are
    # added above it; the legacy error is fixed. One fix, nothing new.
    page = repo / "corpus/spec/runs.md"
    page.write_text(
        RUNS_PAGE.replace("# Runs\n", "# Runs\n\nRuns are the unit of work.\n").replace(
            "`RunSnapshot.status` is one of", "`RunSnapshot.status` takes one of the values"
        )
    )
    write_files(repo, {"corpus/schemas/legacy.schema.json": schema(type="object")})
    git(repo, "add", "-A")
    done = speclint("hook", cwd=repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert finding_lines(done.stdout) == []
    assert "speclint: no new findings" in done.stdout
    assert "no findings" not in done.stdout.replace("no new findings", "")
    assert "1 finding was already present" in done.stderr
    assert "this commit fixes 1 finding(s)" in done.stderr

    # The same through check --diff-base after the commit.
    git(repo, "commit", "-q", "-m", "reworded")
    gate = speclint("check", "corpus", "--diff-base", "HEAD~1", cwd=repo)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert "0 new finding(s), 1 fixed, 0 changed, 1 unchanged" in gate.stderr


# --- item 12: the hook, run by pre-commit -------------------------------------------------------


@pytest.mark.slow
@needs_git
def test_the_hook_lints_the_spec_subfolder_with_its_configuration(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    root = tmp_path / "spec-repo"
    # The corpus's configuration: required-undeclared is off, unresolved-ref blocks.
    env = spec_repository(
        root,
        hook_home,
        {
            "corpus/speclint.toml": '[rules]\nrequired-undeclared = "off"\n',
            "corpus/schemas/run-snapshot.schema.json": RUN_SNAPSHOT,
            "corpus/spec/runs.md": RUNS_PAGE,
        },
    )
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "start")
    write_files(
        root,
        {
            "corpus/schemas/new.schema.json": schema(
                type="object",
                required=["ghost"],
                properties={"x": {"$ref": "nowhere.schema.json"}},
            )
        },
    )
    blocked = commit(root, env, "a broken $ref")
    assert blocked.returncode == 1, blocked.stdout
    assert "corpus/schemas/new.schema.json" in blocked.stdout
    assert "error [unresolved-ref]" in blocked.stdout
    assert "required-undeclared" not in blocked.stdout
    assert head_message(root) == "start"

    # Fixed, the commit passes, and says so plainly.
    write_files(
        root,
        {"corpus/schemas/new.schema.json": schema(type="object", required=["ghost"])},
    )
    passed = commit(root, env, "no remote $ref")
    assert passed.returncode == 0, passed.stdout
    assert "speclint: no new findings" in passed.stdout
    assert head_message(root) == "no remote $ref"


@pytest.mark.slow
@needs_git
def test_the_hook_args_point_it_at_a_subfolder(
    tmp_path: Path, hook_home: tuple[Path, str, Path]
) -> None:
    root = tmp_path / "spec-repo"
    env = spec_repository(
        root,
        hook_home,
        {
            "spec/schemas/legacy.schema.json": LEGACY,
            # A $ref out of the folder named: it resolves in the repository, the corpus root.
            "spec/schemas/run.schema.json": schema(
                type="object", properties={"id": {"$ref": "../../shared/id.schema.json"}}
            ),
            "shared/id.schema.json": schema(type="string"),
            # Outside the folder named: not the hook's to show.
            "tools/broken.schema.json": BROKEN,
        },
        args="spec",
    )
    done = commit(root, env, "first")
    assert done.returncode == 1, done.stdout
    assert "spec/schemas/legacy.schema.json" in done.stdout
    assert "unresolved-ref" not in done.stdout
    assert "tools/broken.schema.json" not in done.stdout
    assert "(findings shown for 2 of 5 files: spec)" in done.stdout
