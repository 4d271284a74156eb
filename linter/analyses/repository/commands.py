"""The repository's build command lines, read once a run (issue 45).

A bundler's merge (``speclint.analyses.api.merging``), a download and a generator's output
(``speclint.analyses.repository.downloads``) are all read from the same places: the build files
(``speclint.parsing.shell.build_files``: shell scripts, Makefiles, ``justfile``\\s, CI
workflows), read from the disk when no corpus document holds them, and ``package.json``
scripts. :func:`command_files` reads them once a run, for every analysis that asks; what a line
says is read by ``speclint.parsing.shell``, a shell script's lines with the paths its variables
hold written out (``shell.expanded``: ``-o "$spec"`` names the file ``spec=…`` set), a Makefile's
too (``shell.make_expanded``: ``-o $(OUT)/api.yaml``). :func:`find_named` is how a command's file
name is looked up in the corpus; :func:`find_matching`, a name holding a variable no line sets
(a loop's ``$(SPEC)``): the files it may stand for.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from speclint.model.corpus import Corpus
from speclint.parsing.shell import (
    PIPELINES,
    SHELL_SCRIPTS,
    build_files,
    command_words,
    expanded,
    is_makefile,
    joined,
    make_expanded,
    split_line,
    variable_pattern,
)


@dataclass(frozen=True)
class CommandFile:
    """One place commands are written: a build file (``text`` whole, ``numbered`` lines) or a
    ``package.json``'s scripts (one line each, sorted by name, no line numbers)."""

    path: str
    text: str
    lines: tuple[str, ...]
    numbered: bool

    @property
    def folder(self) -> str:
        """Where the file's names are read from first."""
        return posixpath.dirname(self.path)

    @property
    def sequential(self) -> bool:
        """Whether its lines run one after another in one shell (a ``cd`` moves the next)."""
        return self.path.endswith(SHELL_SCRIPTS)


def command_files(corpus: Corpus) -> tuple[CommandFile, ...]:
    """The build files, in path order, then the ``package.json`` scripts, in the corpus's
    order; read once a run (merges, downloads and build outputs all ask)."""
    found: tuple[CommandFile, ...] | None = corpus.memo.get("command_files")
    if found is None:
        found = corpus.memo["command_files"] = _read(corpus)
    return found


def _read(corpus: Corpus) -> tuple[CommandFile, ...]:
    found: list[CommandFile] = []
    for path in build_files(corpus.tree):
        document = corpus.documents.get(path)
        text = document.text if document is not None else None
        if text is None:
            raw = corpus.read_file(path)
            if not isinstance(raw, bytes):
                continue
            text = raw.decode("utf-8", "replace")
        written = text.splitlines()
        if path.endswith(SHELL_SCRIPTS):  # its variables written out (`-o "$spec"`)
            written = expanded(path, written)
        elif is_makefile(path):  # `$(OUT)` written out, a loop's `$(SPEC)` kept as `${SPEC}`
            written = make_expanded(written)
        found.append(CommandFile(path, text, tuple(written), True))
    found += _calls(corpus, found)
    for path, document in corpus.documents.items():
        if path.rpartition("/")[2] != "package.json" or not document.usable:
            continue
        scripts = document.data.get("scripts") if isinstance(document.data, dict) else None
        if isinstance(scripts, dict):
            lines = tuple(v for _, v in sorted(scripts.items()) if isinstance(v, str))
            found.append(CommandFile(path, "\n".join(lines), lines, False))
    return tuple(found)


_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})
CALLS_READ = 64  # script calls with arguments read, at most (each reads the callee once more)


def _calls(corpus: Corpus, files: list[CommandFile]) -> list[CommandFile]:
    """A repository's shell script called with arguments by a build file's line (``./gen.sh
    api/x.json yaml ../site/swagger``), read once more per call with its ``$1``, ``$2``...
    written out: the files it writes are named by its caller's words."""
    texts = {f.path: f.text for f in files if f.path.endswith(SHELL_SCRIPTS)}
    found: list[CommandFile] = []
    for caller in files:
        for _, line in joined(caller.lines):
            for words in split_line(line, PIPELINES):
                command = command_words(words)
                # The script as written, folder and all: what precedes the command (`- run:`,
                # `VAR=x`, a launcher) is dropped by command_words, which keeps its word count.
                at = len(words) - len(command)
                if command and command[0] in _SHELLS and len(command) > 1:
                    at += 1  # `bash ./gen.sh a b`: the shell runs the script
                script = words[at] if command else ""
                arguments = words[at + 1 :]
                if not arguments or not script.endswith(SHELL_SCRIPTS):
                    continue
                if script.startswith(("/", "~", "$", "-")):
                    continue
                if len(found) >= CALLS_READ:
                    return found  # the limit reached: no line after it is split to be skipped
                # Read from the caller's folder, then the root: a CI workflow's steps run in
                # the repository's root, not in `.github/workflows`.
                callee = next(
                    (
                        path
                        for start in dict.fromkeys((caller.folder, ""))
                        if (path := posixpath.normpath(posixpath.join(start, script))) in texts
                    ),
                    "",
                )
                if not callee or callee == caller.path:
                    continue
                lines = expanded(callee, texts[callee].splitlines(), arguments)
                found.append(CommandFile(callee, texts[callee], tuple(lines), True))
    return found


def find_named(
    corpus: Corpus, name: str, *starts: str, usable: bool = False, listed: bool = False
) -> str | None:
    """The corpus document a command names by ``name``, read from each of ``starts`` (the
    folder a ``cd`` entered, the script's), then the root; never out of the root, never an
    absolute, home, variable or remote name. ``usable``: only a document that parsed;
    ``listed``: any file of the repository's listing (``corpus.tree``), document or not (a
    program a build command runs)."""
    if name.startswith(("/", "~", "$")) or "://" in name:
        return None
    for start in dict.fromkeys((*starts, "")):
        path = posixpath.normpath(posixpath.join(start, name))
        if path.startswith(".."):
            continue
        if listed:
            if path in corpus.tree:
                return path
            continue
        document = corpus.documents.get(path)
        if document is not None and (document.usable or not usable):
            return path
    return None


def find_matching(corpus: Corpus, name: str, *starts: str) -> list[str]:
    """The corpus documents a name holding a variable may stand for (``shell.variable_pattern``:
    ``computable/${SPEC}-codegen.yaml``, every ``computable/*-codegen.yaml``), read from each
    of ``starts``, then the root, the first folder that holds one; never out of the root."""
    pattern = variable_pattern(name)
    if pattern is None or name.startswith(("/", "~")) or "://" in name:
        return []
    folder, file_name = pattern
    for start in dict.fromkeys((*starts, "")):
        where = posixpath.normpath(posixpath.join(start, folder))
        if where == ".." or where.startswith("../") or where.startswith("/"):
            continue
        found = [
            path
            for path in _in_folder(corpus).get("" if where == "." else where, ())
            if file_name.match(path.rpartition("/")[2])
        ]
        if found:
            return found
    return []


def _in_folder(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """The corpus documents by folder, in path order; made once a run."""
    found: dict[str, tuple[str, ...]] | None = corpus.memo.get("documents_in_folder")
    if found is None:
        folders: dict[str, list[str]] = {}
        for path in sorted(corpus.documents):
            folders.setdefault(posixpath.dirname(path), []).append(path)
        found = corpus.memo["documents_in_folder"] = {k: tuple(v) for k, v in folders.items()}
    return found
