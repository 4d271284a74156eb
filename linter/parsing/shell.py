"""Shell command lines, read as text, never run (issue 45, batches 2 and 3).

A repository's build says which of its files are merged into one document, downloaded from
another project, or written by a generator: a line of a shell script, a Makefile, a
``justfile``, a ``package.json`` script, a CI workflow or a guide's shell fence. speclint reads
those lines as text and never runs them (``speclint.analyses.merging`` reads a bundler's,
``speclint.analyses.downloads`` a downloader's and a generator's; ``speclint.analyses.commands``
reads each file's lines once a run). What is read of them is here, once:

- :func:`build_files`: the files whose text may run a command;
- :func:`joined`: a file's command lines, a line continued by a trailing backslash, ``|``,
  ``&&`` or ``||`` joined to the next, a console prompt (``$ ``) left out;
- :func:`split_line`: the commands of a line (split at ``&&``, ``||``, ``;``, ``&``, and ``|``
  where a pipeline's parts are wanted one by one), outside quotes;
- :func:`command_words`: a command's own words, without what surrounds it in YAML or JSON, the
  variables it sets, and a launcher (``npx -y``, ``sudo``);
- :func:`shorter`: the line as evidence quotes it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator

# Files whose lines may run a command: read as text, never run.
_SCRIPT_SUFFIXES = (".sh", ".bash", ".mk")
SHELL_SCRIPTS = (".sh", ".bash")  # run line after line: a `cd` moves the lines that follow
_SCRIPT_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile"})
_WORKFLOW = re.compile(r"(^|/)\.github/workflows/[^/]+\.ya?ml$|(^|/)\.gitlab-ci\.ya?ml$")
SCRIPT_LIMIT = 2_000  # build files read at most (a monorepo's thousands of scripts: the first)

# The endings that continue a command line on the next; the prompts a console shows before one.
_CONTINUED = ("\\", "|", "&&", "||")
_PROMPTS = ("$ ", "> ", "PS> ")
# What separates the commands of a line; a pipeline's `|` too when its commands are wanted.
PIPELINES = frozenset({"&&", "||", ";", "&", ";;"})
COMMANDS = PIPELINES | {"|"}
# Words before a command that run it: `npx -y @asyncapi/cli bundle ...`, `sudo curl ...`.
_LAUNCHERS = frozenset({"npx", "bunx", "pnpx", "exec", "sudo", "time", "command"})
# A package a launcher runs, by the command it installs.
_PACKAGES = {
    "@asyncapi/cli": "asyncapi",
    "@redocly/cli": "redocly",
    "@redocly/openapi-cli": "openapi",
}


def build_files(tree: Iterable[str]) -> list[str]:
    """The files whose text may run a command (scripts, Makefiles, CI workflows), in path order;
    ``package.json`` is a corpus document and read as one."""
    found = []
    for path in sorted(tree):
        name = path.rpartition("/")[2]
        if name in _SCRIPT_NAMES or name.endswith(_SCRIPT_SUFFIXES) or _WORKFLOW.search(path):
            found.append(path)
    return found[:SCRIPT_LIMIT]


def joined(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(1-based number of its first line, the command line), a continued line joined to the next."""
    start, parts = 0, list[str]()
    for index, line in enumerate(lines):
        if not parts:
            start = index + 1
        stripped = line.strip()
        if stripped.startswith(_PROMPTS):
            stripped = stripped.partition(" ")[2]  # a console prompt
        parts.append(stripped.removesuffix("\\"))
        if not stripped.endswith(_CONTINUED):
            yield start, " ".join(parts)
            parts = []
    if parts:
        yield start, " ".join(parts)


def split_line(line: str, separators: frozenset[str] = COMMANDS) -> list[list[str]]:
    """The commands of a shell line (split at ``separators`` outside quotes), each as its words;
    none for a comment or a line with an unclosed quote."""
    if line.lstrip().startswith("#"):
        return []
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: not a command line we can read
        return []
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token in separators:
            commands.append([])
        else:
            commands[-1].append(token)
    return [words for words in commands if words]


def command_words(tokens: list[str]) -> list[str]:
    """The command's words without what surrounds it in YAML or JSON (``- run:``,
    ``"bundle": "..."``), the variables it sets, a launcher and the launcher's options
    (``npx -y``); a package a launcher runs named by its command (``@asyncapi/cli@1`` is
    ``asyncapi``), the command by its name, not its folder (``./node_modules/.bin/redocly``)."""
    words = tokens
    while words and (words[0] in ("-", "run:", "cmd:") or words[0].endswith(":")):
        words = words[1:]
    while words and (("=" in words[0] and not words[0].startswith("-")) or words[0] in _LAUNCHERS):
        words = words[1:]
    while words and words[0].startswith("-") and words[0] != "-":
        words = words[1:]  # a launcher's options (`npx -y`)
    if not words:
        return words
    first = words[0]
    if first.startswith("@"):
        package = "@" + first[1:].partition("@")[0]
        first = _PACKAGES.get(package, package)
    return [first.rpartition("/")[2], *words[1:]]


def shorter(line: str, limit: int = 80) -> str:
    """The line as evidence quotes it: its spaces collapsed, cut at ``limit`` characters."""
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
