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
from speclint.parsing.gitbase import NeedsCheckout, RevisionFiles, revision_files
from speclint.parsing.reading import read_raw
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


def judged_in_a_worktree(monkeypatch: pytest.MonkeyPatch, corpus: Path) -> None:
    """The base of ``corpus`` is checked out (once, HEAD) and judged there: its duplicate key
    is found."""
    checked: list[str] = []
    real = engine.base_checkout

    def counted(corpus: Path, ref: str):  # type: ignore[no-untyped-def]
        checked.append(ref)
        return real(corpus, ref)

    monkeypatch.setattr(engine, "base_checkout", counted)
    base = base_of(corpus, "HEAD")
    assert checked == ["HEAD"]
    assert "duplicate-key" in {entry.rule for entry in base.entries}


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


@pytest.mark.parametrize(
    ("case", "files", "configuration", "why"),
    [
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
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    for name, value in configuration:
        git(repo, "config", name, value)
    with pytest.raises(NeedsCheckout, match=why):
        revision_files(repo / "corpus", "HEAD", SKIPPED_FOLDERS)
    if case in ("sparse", "encoding"):
        return  # what the worktree then holds is git's business; the fallback is the test
    # And the run still judges the base, in a worktree.
    judged_in_a_worktree(monkeypatch, repo / "corpus")


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


# --- symlinks, resolved through the revision's tree ------------------------------------------------


def linked(root: Path, links: dict[str, str]) -> Path:
    """Symlinks made under ``root``, path -> target, as ``ln -s TARGET PATH`` makes them."""
    for path, target in links.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).symlink_to(target)
    return root


def read_as_checked_out(corpus: Path, *also: str) -> RevisionFiles:
    """The corpus at HEAD read from git's objects, listed as the walk lists the work tree (a
    checkout of HEAD) and each of its files, and ``also``, read as ``read_raw`` reads them
    there: the same bytes, or the same problem."""
    corpus = corpus.resolve()
    revision = revision_files(corpus, "HEAD", SKIPPED_FOLDERS)
    tree, skipped = revision_listing(revision.names, revision.is_folder)
    assert (tree, list(skipped)) == (listing(corpus), skipped_folders(corpus))
    for path in [*tree, *also]:
        assert revision.read(path) == read_raw(corpus, path), path
    return revision


def problem(revision: RevisionFiles, path: str) -> str:
    read = revision.read(path)
    assert not isinstance(read, bytes), path
    return read.message


def test_a_symlink_to_a_file_inside_the_root_reads_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page linked under another name (`CLAUDE.md -> AGENTS.md`), a schema linked from a
    folder, a link to that link, and a link whose target goes through a link to a folder: each
    is the file it leads to, and the base's findings are the worktree's."""
    monkeypatch.setenv("SPECLINT_CACHE_DIR", str(tmp_path / "cache"))
    repo = write_files(
        tmp_path / "repo",
        {
            "AGENTS.md": "# Agents\n\nRead [the schema](twice.schema.json).\n",
            "twice.schema.json": TWICE,
        },
    )
    linked(
        repo,
        {
            "CLAUDE.md": "AGENTS.md",
            "api/current.schema.json": "../twice.schema.json",
            "api/latest.schema.json": "current.schema.json",
            "v1": "api",
            "pinned.schema.json": "./v1/../v1/latest.schema.json",
        },
    )
    committed(repo, {})
    revision = read_as_checked_out(repo, "v1/current.schema.json")
    assert revision.read("CLAUDE.md") == revision.read("AGENTS.md")
    assert revision.read("pinned.schema.json") == TWICE.encode()
    committed(repo, {"twice.schema.json": schema(type="object")}, "fix the schema")
    read, checked = both_ways(monkeypatch, repo)
    assert read == checked
    twice = {entry[1] for entry in read[0] if entry[0] == "duplicate-key"}
    assert twice >= {"api/latest.schema.json", "pinned.schema.json", "twice.schema.json"}
    gate = ("check", ".", "--diff-base", "HEAD~1", "--no-cache", "--format", "json")
    with monkeypatch.context() as patched:
        no_worktree(patched)
        objects = cli_in_process(*gate, cwd=repo)
    with monkeypatch.context() as patched:
        checked_out_instead(patched)
        worktree = cli_in_process(*gate, cwd=repo)
    assert (objects.returncode, objects.stdout) == (worktree.returncode, worktree.stdout)


def test_a_symlink_to_a_folder_is_a_folder_the_walk_does_not_enter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link to a folder is no file and is not walked (its files are read where they are),
    and it is a folder of its parent: a `lib` linked into a folder with a `pyvenv.cfg` makes
    it a virtual environment, which the walk skips."""
    repo = write_files(
        tmp_path / "repo",
        {
            "plugins/skills/draft/SKILL.md": "# Draft\n",
            "tools/env/pyvenv.cfg": "home = /usr/bin\n",
            "tools/env/NOTES.md": "# Notes\n",
            "tools/shared/site.py": "\n",
        },
    )
    linked(repo, {"docs/.site/skills/draft": "../../../plugins/skills/draft",
                  "tools/env/lib": "../shared"})  # fmt: skip
    committed(repo, {"docs/index.md": "# Docs\n"})
    revision = read_as_checked_out(
        repo, "docs/.site/skills/draft", "docs/.site/skills/draft/SKILL.md", "tools/env/lib"
    )
    assert "(a folder)" in problem(revision, "docs/.site/skills/draft")
    assert revision.read("docs/.site/skills/draft/SKILL.md") == b"# Draft\n"
    assert revision_listing(revision.names, revision.is_folder)[1] == (
        ("tools/env/", "a Python virtual environment (pyvenv.cfg)"),
    )
    committed(repo, {"docs/index.md": "# The docs\n"}, "edit")
    read, checked = both_ways(monkeypatch, repo)
    assert read == checked


def test_a_symlink_out_of_the_root_is_refused_as_in_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus is a folder of the repository; a link from it to a file beside it is not
    read (`read_raw` refuses a target out of the root), and a link to a folder beside it is a
    folder: both resolved through the rest of the repository's tree."""
    repo = write_files(
        tmp_path / "repo",
        {"outside.schema.json": TWICE, "shared/a.md": "# A\n", "spec/page.md": "# Page\n"},
    )
    linked(repo, {"spec/api/outside.schema.json": "../../outside.schema.json",
                  "spec/shared": "../shared", "spec/api/top": "../.."})  # fmt: skip
    committed(repo, {})
    revision = read_as_checked_out(repo / "spec", "shared/a.md", "api/top/outside.schema.json")
    assert "outside the corpus root" in problem(revision, "api/outside.schema.json")
    committed(repo, {"spec/page.md": "# The page\n"}, "edit")
    read, checked = both_ways(monkeypatch, repo / "spec")
    assert read == checked
    assert ("parse-error", "api/outside.schema.json") in {(e[0], e[1]) for e in read[0]}


@pytest.mark.parametrize("target", ["/etc/hostname", "../../../../../outside.json"])
def test_a_symlink_out_of_the_repository_is_left_to_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    """Where a target outside the repository leads (a file, a folder, nothing) is the disk's,
    not the revision's: the walk of a checkout decides, in a worktree."""
    repo = write_files(tmp_path / "repo", {"spec/a.schema.json": TWICE})
    linked(repo, {"spec/host.json": target})
    committed(repo, {})
    revision = revision_files(repo / "spec", "HEAD", SKIPPED_FOLDERS)
    with pytest.raises(NeedsCheckout, match=r"outside the repository|leaves the repository"):
        revision_listing(revision.names, revision.is_folder)
    judged_in_a_worktree(monkeypatch, repo / "spec")


def test_dangling_looping_and_chained_symlinks_say_what_the_checkout_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link to nothing, to itself, two links to each other, a link through a file, and a
    chain of more links than the system follows: files to the walk, each refused with the
    message `read_raw` gives in a checkout."""
    repo = write_files(tmp_path / "repo", {"twice.schema.json": TWICE, "d/keep.md": "# Keep\n"})
    # A chain kept where the walk never goes: only the links that enter it are resolved.
    chain = {f"node_modules/chain/{n}.json": f"{n + 1}.json" for n in range(45)}
    chain["node_modules/chain/45.json"] = "../../twice.schema.json"
    linked(
        repo,
        {
            "dangling.schema.json": "missing.schema.json",
            "self.schema.json": "self.schema.json",
            "ping.json": "pong.json",
            "pong.json": "ping.json",
            "spin.json": "d/../spin.json",  # a loop through a folder
            "through.json": "twice.schema.json/x",
            "slash.json": "twice.schema.json/",
            "deep.json": "node_modules/chain/0.json",  # 47 links: past every system's bound
            "shallow.json": "node_modules/chain/20.json",  # 27 links: within every one
            **chain,
        },
    )
    committed(repo, {})
    revision = read_as_checked_out(repo)
    assert "No such file" in problem(revision, "dangling.schema.json")
    for looping in ("self.schema.json", "ping.json", "spin.json", "deep.json"):
        assert "a symlink in a loop" in problem(revision, looping)
    assert "Not a directory" in problem(revision, "through.json")
    assert revision.read("shallow.json") == TWICE.encode()
    committed(repo, {"twice.schema.json": schema(type="object")}, "fix")
    read, checked = both_ways(monkeypatch, repo)
    assert read == checked


def test_symlinks_in_folders_never_walked_are_never_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Links out of the repository inside `node_modules/` and inside a virtual environment
    (told by its marker) need no checkout: the walk never enters those folders."""
    repo = write_files(
        tmp_path / "repo",
        {
            "a.schema.json": TWICE,
            "node_modules/tool/index.js": "\n",
            "env/pyvenv.cfg": "home = /usr/bin\n",
        },
    )
    linked(repo, {"node_modules/.bin/tool": "/usr/bin/env", "env/bin/python": "/usr/bin/python3"})
    committed(repo, {})
    read_as_checked_out(repo)
    committed(repo, {"a.schema.json": schema(type="object")}, "fix")
    read, checked = both_ways(monkeypatch, repo)
    assert read == checked


def test_symlinks_are_plain_files_where_git_writes_no_symlinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `core.symlinks` false (git's setting on a file system without symlinks) a checkout
    writes each link as a file holding its target: so does the base read from the objects."""
    repo = write_files(tmp_path / "repo", {"AGENTS.md": "# Agents\n", "a.schema.json": TWICE})
    linked(repo, {"CLAUDE.md": "AGENTS.md", "b.schema.json": "a.schema.json"})
    committed(repo, {})
    committed(repo, {"a.schema.json": schema(type="object")}, "fix")
    git(repo, "config", "core.symlinks", "false")
    revision = revision_files(repo, "HEAD", SKIPPED_FOLDERS)
    assert revision.read("CLAUDE.md") == b"AGENTS.md"
    read, checked = both_ways(monkeypatch, repo)
    assert read == checked
    assert ("parse-error", "b.schema.json") in {(e[0], e[1]) for e in read[0]}


def test_the_gits_run_at_once_answer_in_order_and_raise_as_one() -> None:
    """``revision_files`` runs its four independent gits at once (``gitbase._concurrently``):
    each answer in the order asked, and what one raises is raised in the caller."""
    from speclint.parsing.gitbase import _concurrently

    assert _concurrently(lambda: 1, lambda: 2, lambda: 3) == [1, 2, 3]

    def refused() -> int:
        raise NeedsCheckout("git cannot list it")

    with pytest.raises(NeedsCheckout, match="cannot list"):
        _concurrently(lambda: 1, refused)
