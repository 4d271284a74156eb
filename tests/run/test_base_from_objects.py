"""The base revision of ``--diff-base`` and of the pre-commit hook, read from git's object store
(``gitbase.revision_files``) instead of a worktree: the same corpus, the same findings, what the
corpus reads beside its documents read at the base, and a worktree whenever a checkout could write
other bytes than the objects hold (``gitbase.NeedsCheckout``)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_diff_base import git

from conftest import cli_in_process, schema, write_files
from speclint.parsing.gitbase import NeedsCheckout, revision_files
from speclint.parsing.tree import SKIPPED_FOLDERS, listing, revision_listing, skipped_folders
from speclint.run import engine

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

# A schema with a key written twice (duplicate-key), and one whose `$ref` names nothing.
TWICE = '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "title": "A",\n  "title": "B"\n}\n'
DANGLING = schema(type="object", properties={"a": {"$ref": "missing.schema.json"}})


def committed(root: Path, files: dict[str, str | bytes], message: str = "base") -> Path:
    """``files`` written under ``root`` and committed (a repository made on first use)."""
    write_files(root, files)
    if not (root / ".git").exists():
        git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return root


def checked_out_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """The run checks the base out into a worktree, as it did before revisions were read from
    git's objects: the reference every test compares with."""

    def refused(corpus: Path, ref: str, skipped: frozenset[str]) -> object:
        raise NeedsCheckout("the test's reference: a worktree")

    monkeypatch.setattr(engine, "revision_files", refused)


def no_worktree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the run checks the base out."""

    def refused(corpus: Path, ref: str) -> object:
        raise AssertionError("the base was checked out")

    monkeypatch.setattr(engine, "base_checkout", refused)


def base_of(corpus: Path, ref: str = "HEAD~1") -> engine._Base:
    config = engine.load(corpus).config
    return engine._lint_base(corpus, ref, config, tuple(sorted(engine.all_rules())))


def summary(base: engine._Base) -> tuple[object, ...]:
    """What a base gives the comparison: its entries, its result, the corpus it read."""
    corpus = base.corpus
    result = base.result
    assert result is not None
    return (
        [(e.rule, e.path, e.where, e.message) for e in base.entries],
        [(f.rule, f.location.path, f.location.line, f.message) for f in result.findings],
        corpus.sources(),
        sorted(corpus.tree),
        corpus.generated,  # made as the base's findings were folded, the worktree still there
        {path: (d.kind, d.dialect, d.reason) for path, d in corpus.documents.items()},
    )


def both_ways(
    monkeypatch: pytest.MonkeyPatch, corpus: Path, ref: str = "HEAD~1"
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """The base read from git's objects (no worktree allowed), and checked out."""
    with monkeypatch.context() as patched:
        no_worktree(patched)
        read = summary(base_of(corpus, ref))
    with monkeypatch.context() as patched:
        checked_out_instead(patched)
        checked = summary(base_of(corpus, ref))
    return read, checked


def test_the_base_read_from_objects_gives_the_worktrees_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    repo = committed(
        tmp_path / "repo",
        {
            "corpus/twice.schema.json": TWICE,
            "corpus/dangling.schema.json": DANGLING,
            "corpus/docs/page.md": "# Page\n\nSee [the schema](../twice.schema.json).\n",
            "corpus/node_modules/pkg/package.json": "{}\n",
            "corpus/tools/venv/pyvenv.cfg": "home = /usr/bin\n",
            "corpus/tools/venv/bin/activate": "# an environment's script\n",
            "corpus/picture.png": b"\x89PNG\r\n\x1a\n\x00\x00",
        },
    )
    committed(repo, {"corpus/twice.schema.json": schema(type="object")}, "fix one")
    read, checked = both_ways(monkeypatch, repo / "corpus")
    assert read == checked
    assert {entry[0] for entry in read[0]} >= {"duplicate-key", "unresolved-ref"}
    with monkeypatch.context() as patched:
        no_worktree(patched)
        skipped = base_of(repo / "corpus").corpus.folders_skipped()
    assert [folder for folder, _ in skipped] == ["node_modules/", "tools/venv/"]
    # And the command line says the same with no cache at all.
    gate = ("check", "corpus", "--diff-base", "HEAD~1", "--no-cache", "--format", "json")
    with monkeypatch.context() as patched:
        no_worktree(patched)
        objects = cli_in_process(*gate, cwd=repo)
    with monkeypatch.context() as patched:
        checked_out_instead(patched)
        worktree = cli_in_process(*gate, cwd=repo)
    assert (objects.returncode, objects.stdout, objects.stderr) == (
        worktree.returncode,
        worktree.stdout,
        worktree.stderr,
    )
    assert "1 fixed" in objects.stderr


def test_the_revisions_listing_is_the_walk_of_its_checkout(tmp_path: Path) -> None:
    """The files and the skipped folders, in the walk's order, as a checkout would list them:
    installed folders by name and by their marker, the cache folder unseen."""
    repo = committed(
        tmp_path / "repo",
        {
            "z.md": "# z\n",
            "a.md": "# a\n",
            "b/c.json": "{}\n",
            "b/a/d.md": "# d\n",
            "b-c/e.yaml": "x: 1\n",
            "node_modules/pkg/package.json": "{}\n",
            "env/pyvenv.cfg": "home = /usr/bin\n",
            "env/lib/site.py": "\n",
            "cache/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
            ".speclint-cache/x.json": "{}\n",
        },
    )
    revision = revision_files(repo, "HEAD", SKIPPED_FOLDERS)
    assert revision_listing(revision.names) == (listing(repo), tuple(skipped_folders(repo)))


def test_a_corpus_in_a_sub_folder_is_read_from_its_own_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus is a folder below the top of the work tree: its files are named from it, the
    attributes above it apply (a `.gitattributes` at the top), and files beside it are not its."""
    repo = committed(
        tmp_path / "repo",
        {
            ".gitattributes": "*.md linguist-documentation\n",
            "outside.schema.json": TWICE,
            "spec/api/twice.schema.json": TWICE,
            "spec/api/readme.md": "# API\n",
            "spec/.gitattributes": "api/twice.schema.json linguist-generated=true\n",
        },
    )
    committed(repo, {"spec/api/readme.md": "# The API\n"}, "edit")
    revision = revision_files(repo / "spec", "HEAD", SKIPPED_FOLDERS)
    assert sorted(revision.names) == [".gitattributes", "api/readme.md", "api/twice.schema.json"]
    assert revision.read("api/readme.md") == b"# The API\n"
    assert revision.read("outside.schema.json") == revision.read("nowhere.md")
    read, checked = both_ways(monkeypatch, repo / "spec")
    assert read == checked
    assert read[4] == {"api/twice.schema.json": ".gitattributes: linguist-generated"}


def test_a_file_that_exists_only_at_the_base_is_in_the_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed(
        tmp_path / "repo",
        {"corpus/keep.schema.json": schema(type="string"), "corpus/gone.schema.json": TWICE},
    )
    (repo / "corpus/gone.schema.json").unlink()
    committed(repo, {"corpus/new.schema.json": DANGLING}, "remove one, add one")
    read, checked = both_ways(monkeypatch, repo / "corpus")
    assert read == checked
    assert "gone.schema.json" in read[2] and "new.schema.json" not in read[2]
    assert ("duplicate-key", "gone.schema.json") in {(e[0], e[1]) for e in read[0]}


def test_what_the_corpus_reads_beside_its_documents_is_the_bases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `.gitattributes` mark that the commit removes: the base's corpus reads the base's
    `.gitattributes` (the file is generated there), the head's its own, and the run key of the
    base is the one a run of the base computed (the hook's next run is answered by it)."""
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    repo = committed(
        tmp_path / "repo",
        {
            "corpus/made.schema.json": TWICE,
            "corpus/.gitattributes": "made.schema.json linguist-generated=true\n",
        },
    )
    config = engine.load(repo / "corpus").config
    engine.lint(repo / "corpus", engine.Options())  # the base, linted and cached
    (repo / "corpus/.gitattributes").write_text("# nothing generated\n")
    git(repo, "add", "-A")  # staged, as the hook sees a commit being made
    with monkeypatch.context() as patched:
        no_worktree(patched)
        base = engine._lint_base(repo / "corpus", "HEAD", config, None)
    assert base.corpus.generated == {"made.schema.json": ".gitattributes: linguist-generated"}
    assert engine.load(repo / "corpus").generated == {}
    # With the run's caches, the plain run of the base answers: no rule runs on it.
    hook = engine.Options(diff_base="HEAD", staged=True)
    with monkeypatch.context() as patched:
        no_worktree(patched)
        counted: list[object] = []
        real = engine.run_rules

        def counting(corpus, chosen, *args, **kwargs):  # type: ignore[no-untyped-def]
            counted.append(corpus.root)
            return real(corpus, chosen, *args, **kwargs)

        patched.setattr(engine, "run_rules", counting)
        outcome = engine.lint(repo / "corpus", hook)
    assert counted == [(repo / "corpus").resolve()]  # the head alone
    assert outcome.gate is not None


def symlinked(root: Path) -> None:
    (root / "corpus/link.schema.json").symlink_to("a.schema.json")


@pytest.mark.parametrize(
    ("case", "files", "configuration", "why"),
    [
        ("symlink", {}, (), "a symlink"),
        (
            "filter",
            {"corpus/.gitattributes": "*.json filter=demo\n"},
            (("filter.demo.smudge", "cat"), ("filter.demo.clean", "cat")),
            "`filter=demo` smudges it",
        ),
        ("ident", {"corpus/.gitattributes": "*.json ident\n"}, (), "`ident`"),
        ("eol", {".gitattributes": "*.json eol=crlf\n"}, (), "`eol=crlf`"),
        ("autocrlf", {}, (("core.autocrlf", "true"),), "core.autocrlf"),
        ("sparse", {}, (("core.sparseCheckout", "true"),), "sparse checkout"),
        (
            "encoding",
            {
                "corpus/.gitattributes": "*.json working-tree-encoding=UTF-16\n",
                "corpus/a.schema.json": TWICE.encode("utf-16"),
            },
            (),
            "working-tree-encoding",
        ),
    ],
)
def test_the_base_is_checked_out_when_a_checkout_could_differ_from_the_objects(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    files: dict[str, str | bytes],
    configuration: tuple[tuple[str, str], ...],
    why: str,
) -> None:
    repo = write_files(tmp_path / "repo", {"corpus/a.schema.json": TWICE, **files})
    git(repo, "init", "-q", "-b", "main")
    if case == "symlink":
        symlinked(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for name, value in configuration:
        git(repo, "config", name, value)
    with pytest.raises(NeedsCheckout, match=why):
        revision_files(repo / "corpus", "HEAD", SKIPPED_FOLDERS)
    if case in ("sparse", "encoding"):
        return  # what the worktree then holds is git's business; the fallback is the test
    # And the run still judges the base, in a worktree.
    checked: list[str] = []
    real = engine.base_checkout

    def counted(corpus: Path, ref: str):  # type: ignore[no-untyped-def]
        checked.append(ref)
        return real(corpus, ref)

    monkeypatch.setattr(engine, "base_checkout", counted)
    base = base_of(repo / "corpus", "HEAD")
    assert checked == ["HEAD"]
    assert "duplicate-key" in {entry.rule for entry in base.entries}


@pytest.mark.parametrize(
    "attributes",
    [
        "*.json text\n",
        "* text=auto\n*.json eol=lf\n",
        "*.json filter=undefined-driver\n",  # no driver configured: git passes the bytes through
        "*.json -text linguist-generated=true\n",
    ],
)
def test_attributes_that_convert_nothing_on_checkout_read_the_objects(
    tmp_path: Path, attributes: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    repo = committed(
        tmp_path / "repo", {".gitattributes": attributes, "corpus/a.schema.json": TWICE}
    )
    if os.linesep != "\n":
        pytest.skip("git's native line ending here is CRLF: text files are converted")
    revision = revision_files(repo / "corpus", "HEAD", SKIPPED_FOLDERS)
    assert revision.read("a.schema.json") == TWICE.encode()


def test_a_symlink_under_a_folder_never_walked_does_not_need_a_checkout(tmp_path: Path) -> None:
    repo = write_files(
        tmp_path / "repo",
        {"corpus/a.schema.json": "{}\n", "corpus/node_modules/x/index.js": "\n"},
    )
    (repo / "corpus/node_modules/.bin").mkdir()
    (repo / "corpus/node_modules/.bin/x").symlink_to("../x/index.js")
    committed(repo, {})
    revision = revision_files(repo / "corpus", "HEAD", SKIPPED_FOLDERS)
    assert listing(repo / "corpus") == revision_listing(revision.names)[0]


def test_reads_are_bounded_and_answered_later_as_from_a_checkout(tmp_path: Path) -> None:
    """The limits ``read_raw`` keeps: a file over the limit is told by its size, a head read is
    the head, a folder is no file, a missing file is missing; a file not fetched with the others
    is read when asked, also in a forked worker."""
    repo = committed(
        tmp_path / "repo",
        {"big.html": "<html>" + "x" * 5000, "a.json": "{}\n", "sub/b.md": "# b\n"},
    )
    revision = revision_files(repo, "HEAD", SKIPPED_FOLDERS)
    revision.fetch(["a.json"])
    assert revision.read("a.json") == b"{}\n"
    assert revision.read("big.html", 100, head=True) == b"<html>" + b"x" * 94
    too_big = revision.read("big.html", 100)
    assert not isinstance(too_big, bytes) and "over the 100-byte limit" in too_big.message
    folder = revision.read("sub")
    assert not isinstance(folder, bytes) and "(a folder)" in folder.message
    missing = revision.read("none.md")
    assert not isinstance(missing, bytes) and "No such file" in missing.message
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # a worker reads through a git of its own
        os.close(reader)
        os.write(writer, json.dumps(revision.read("sub/b.md").decode()).encode())  # type: ignore[union-attr]
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as answer:
        assert json.loads(answer.read()) == "# b\n"
    os.waitpid(child, 0)
    assert revision.read("sub/b.md") == b"# b\n"
    revision.close()
