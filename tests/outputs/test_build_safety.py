"""speclint build writes only where it may, checks every target before it writes any, never
overwrites a file it did not write, creates the output folder it is given, and exits 1 when a
document could not be built (issue 25, items 2, 3, 4 and 14); it opens no path of its manifest
through a symlink (issue 44, item 6)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_api_bundle import CLEAN
from test_cli import cli
from test_trust import GIT, committed, git, snapshot_of

from conftest import cli_in_process, write_files
from speclint.analyses.context import Context
from speclint.outputs import build as building
from speclint.outputs.build import CATALOG, MANIFEST

UNBUILDABLE = {
    **CLEAN,
    "api/openapi.yaml": CLEAN["api/openapi.yaml"].replace("v2/error", "v3/error"),
}


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr


# --- item 2: the root and the output are compared as the same kind of path ------------------------


@GIT
def test_a_corpus_named_through_a_symlinked_folder_never_writes_through_a_committed_link(
    tmp_path: Path,
) -> None:
    # /tmp is a symlink to /private/tmp on macOS: the corpus is named through an alias.
    real = tmp_path / "real"
    outside = write_files(real / "outside", {"kept.txt": "precious\n"})
    before = snapshot_of(outside)
    clone = committed(real, CLEAN, links={"build": Path("../outside")})
    assert os.readlink(clone / "build") == "../outside"
    alias = tmp_path / "alias"
    alias.symlink_to(real, target_is_directory=True)
    named = alias / clone.name
    for args in (
        ("build", str(named), "--output", str(named / "build")),
        ("build", str(named), "-o", str(named / "build" / "deeper")),
        ("build", str(named)),
        ("build", str(named), "--output", str(named / "build"), "--check"),
    ):
        done = cli_in_process(*args)
        no_traceback(done)
        assert done.returncode == 2 and "is a symlink" in done.stderr, (args, done.stderr)
    assert snapshot_of(outside) == before


def test_an_output_alias_of_the_corpus_root_is_the_corpus_root(tmp_path: Path) -> None:
    # The user's own link to the corpus: writing "outside" through it would overwrite the sources.
    corpus = write_files(tmp_path / "spec", CLEAN)
    before = snapshot_of(corpus)
    link = tmp_path / "link"
    link.symlink_to(corpus, target_is_directory=True)
    done = cli_in_process("build", str(corpus), "-o", str(link))
    no_traceback(done)
    assert done.returncode == 2 and "corpus root" in done.stderr, done.stderr
    # ... and a link to a folder of sources inside it holds sources.
    schemas = tmp_path / "schemas-link"
    schemas.symlink_to(corpus / "schemas", target_is_directory=True)
    done = cli_in_process("build", str(corpus), "-o", str(schemas))
    assert done.returncode == 2 and "holds source files" in done.stderr, done.stderr
    assert snapshot_of(corpus) == before


@GIT
def test_an_output_alias_into_the_root_is_checked_as_inside_it(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    git("init", "-q", cwd=corpus)
    hooks = corpus / ".git" / "hooks"
    before = snapshot_of(corpus / ".git")
    link = tmp_path / "hooks-link"
    link.symlink_to(hooks, target_is_directory=True)
    done = cli_in_process("build", str(corpus), "-o", str(link))
    no_traceback(done)
    assert done.returncode == 2 and "inside .git" in done.stderr, done.stderr
    assert snapshot_of(corpus / ".git") == before
    # A link to the build's own folder in the root is that folder.
    (corpus / "build").mkdir()
    (tmp_path / "build-link").symlink_to(corpus / "build", target_is_directory=True)
    assert cli_in_process("build", str(corpus), "-o", str(tmp_path / "build-link")).returncode == 0
    assert cli_in_process("build", str(corpus), "--check").returncode == 0


# --- item 3: every target is checked before anything is written -----------------------------------


@GIT
def test_a_committed_link_deep_in_the_output_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    outside = write_files(tmp_path / "outside", {"kept.txt": "precious\n"})
    before = snapshot_of(outside)
    # build/api and build/catalog.json sort before build/schemas: they were written, then refused.
    files: dict[str, str | bytes] = {**CLEAN, "build/.gitkeep": ""}
    clone = committed(tmp_path, files, links={"build/schemas": outside})
    repository = snapshot_of(clone)
    for _ in range(2):  # and what a refused build leaves does not block the next one differently
        done = cli_in_process("build", str(clone))
        no_traceback(done)
        assert done.returncode == 2, done.stderr
        assert snapshot_of(clone) == repository
        assert "build/schemas is a symlink" in done.stderr and "nothing was written" in done.stderr
    assert snapshot_of(outside) == before


def test_a_file_in_the_way_of_a_folder_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    out = write_files(tmp_path / "out", {"schemas": "a file where a folder goes\n"})
    before = snapshot_of(out)
    done = cli_in_process("build", str(corpus), "-o", str(out))
    no_traceback(done)
    assert done.returncode == 2 and f"{out}/schemas is not a folder" in done.stderr, done.stderr
    assert snapshot_of(out) == before


# --- item 4: a file the build did not write is never overwritten ----------------------------------


def test_files_the_build_did_not_write_are_refused_and_named_not_overwritten(
    tmp_path: Path,
) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    theirs = {
        CATALOG: '{"mine": true}\n',
        "schemas/error.schema.json": '{"hand": "written"}\n',
        "package.json": '{"name": "schemas"}\n',
    }
    out = write_files(tmp_path / "dist", theirs)
    before = snapshot_of(out)
    done = cli_in_process("build", str(corpus), "-o", str(out))
    no_traceback(done)
    assert done.returncode == 2, done.stderr
    assert "speclint did not write" in done.stderr and "nothing was written" in done.stderr
    assert f"{out}/{CATALOG}" in done.stderr and "schemas/error.schema.json" in done.stderr
    assert snapshot_of(out) == before  # not one file, not even the bundles that were free

    # Moved away, the build writes; the user's package.json stays theirs through later builds.
    (out / CATALOG).unlink()
    (out / "schemas/error.schema.json").unlink()
    assert cli_in_process("build", str(corpus), "-o", str(out)).returncode == 0
    (corpus / "schemas/error.schema.json").unlink()
    (corpus / "api/openapi.yaml").unlink()  # it references the error schema
    again = cli_in_process("build", str(corpus), "-o", str(out))
    assert again.returncode == 0 and "removed" in again.stdout, again.stdout + again.stderr
    assert (out / "package.json").read_text() == theirs["package.json"]
    assert not (out / "schemas/error.schema.json").exists()  # the build's own: removed


def test_a_file_that_holds_exactly_what_the_build_writes_is_not_in_the_way(
    tmp_path: Path,
) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    first = tmp_path / "first"
    assert cli_in_process("build", str(corpus), "-o", str(first)).returncode == 0
    out = tmp_path / "second"
    out.mkdir()
    (out / CATALOG).write_bytes((first / CATALOG).read_bytes())  # the same bytes: nothing lost
    done = cli_in_process("build", str(corpus), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert snapshot_of(out) == snapshot_of(first)


def test_a_foreign_file_named_like_the_manifest_is_not_overwritten(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    out = write_files(tmp_path / "dist", {MANIFEST: "my notes\n"})
    done = cli_in_process("build", str(corpus), "-o", str(out))
    assert done.returncode == 2 and MANIFEST in done.stderr, done.stderr
    assert (out / MANIFEST).read_text() == "my notes\n"


# --- item 14: exit codes, "up to date", a missing output folder -----------------------------------


def test_build_exits_1_when_a_document_could_not_be_built_and_check_agrees(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "spec", UNBUILDABLE)
    built = cli_in_process("build", str(root))
    no_traceback(built)
    assert built.returncode == 1, built.stdout + built.stderr
    assert "not built: api/openapi.yaml" in built.stderr
    assert "could not be bundled (api/openapi.yaml)" in built.stderr
    assert (root / "build" / CATALOG).is_file()  # what could be built is written
    checked = cli_in_process("build", str(root), "--check")
    assert checked.returncode == 1
    # The outputs are what this build writes: --check says so, and why it still fails (a
    # document not built is never called up to date).
    assert "the outputs match this build" in checked.stdout, checked.stdout
    assert "up to date" not in checked.stdout
    assert "could not be bundled (api/openapi.yaml)" in checked.stderr


def test_build_creates_a_missing_output_folder(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    out = tmp_path / "new" / "deeper"
    done = cli_in_process("build", str(corpus), "-o", str(out))
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert (out / CATALOG).is_file() and (out / "api/openapi.yaml").is_file()
    assert cli_in_process("build", str(corpus), "-o", str(out), "--check").returncode == 0
    inside = corpus / "dist" / "bundles"
    assert cli_in_process("build", str(corpus), "-o", str(inside)).returncode == 0
    assert (inside / CATALOG).is_file()


def test_an_output_folder_below_a_file_is_an_error(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    (tmp_path / "plain").write_text("a file\n")
    done = cli_in_process("build", str(corpus), "-o", str(tmp_path / "plain" / "out"))
    no_traceback(done)
    assert done.returncode == 2 and "not a folder" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1


def test_an_output_path_through_a_loop_of_links_is_an_error_not_a_hang(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "spec", CLEAN)
    (tmp_path / "ping").symlink_to(tmp_path / "pong")
    (tmp_path / "pong").symlink_to(tmp_path / "ping")
    # A child process: a walk that went round the loop would end at its timeout, not hang the
    # session.
    done = cli("build", str(corpus), "-o", str(tmp_path / "ping" / "out"))
    no_traceback(done)
    assert done.returncode == 2 and "symbolic links" in done.stderr, done.stderr


# --- issue 44, item 6: a forged manifest opens nothing through a symlink --------------------------


def test_a_forged_manifest_opens_nothing_through_a_symlinked_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `build/etc -> /etc` and a manifest listing `etc/passwd`: `--check` said
    # "build/etc/passwd: extra", which told whether a file outside the repository exists.
    outside = write_files(tmp_path / "outside", {"secret.txt": "secret\n"})
    corpus = write_files(tmp_path / "spec", CLEAN)
    assert cli_in_process("build", str(corpus)).returncode == 0
    (corpus / "build" / "etc").symlink_to(outside, target_is_directory=True)
    manifest_path = corpus / "build" / MANIFEST
    manifest = json.loads(manifest_path.read_text())
    manifest["files"]["etc/secret.txt"] = hashlib.sha256(b"secret\n").hexdigest()
    manifest["files"]["etc/absent.txt"] = "0" * 64
    manifest_path.write_text(json.dumps(manifest))
    before = snapshot_of(outside)

    opened: list[str] = []
    for name in ("open", "lstat", "stat"):
        real = getattr(os, name)

        def watched(path: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            opened.append(os.fspath(path) if isinstance(path, str | os.PathLike) else "")
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, watched)
    context = Context.load(corpus)
    state = building.staleness(building.build(context), corpus / "build")
    monkeypatch.undo()
    assert not [path for path in opened if "/etc/" in path], opened
    assert state.extra == [] and not state.clean
    assert [path for path, _ in state.refused] == ["etc/absent.txt", "etc/secret.txt"]

    checked = cli_in_process("build", str(corpus), "--check")
    no_traceback(checked)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    lines = checked.stdout.splitlines()
    secret = next(line for line in lines if "secret.txt" in line)
    absent = next(line for line in lines if "absent.txt" in line)
    assert secret == (
        f"{corpus}/build/etc/secret.txt: not read: it is through the symlink etc; nothing the "
        "manifest lists is read through one"
    )
    # said alike: nothing tells the file that exists from the one that does not
    assert secret.replace("secret", "absent") == absent
    assert "0 extra, 2 not read" in checked.stderr

    built = cli_in_process("build", str(corpus))
    no_traceback(built)
    assert built.returncode == 0 and "left" not in built.stderr, built.stderr
    said = [line for line in built.stderr.splitlines() if "etc/" in line]
    assert [line.replace("absent", "secret") for line in said] == [
        f"speclint: the build's manifest lists {corpus}/build/etc/secret.txt, which it did not "
        "look at: it is through the symlink etc; nothing the manifest lists is read through one"
    ] * 2
    assert snapshot_of(outside) == before
