"""Shell command lines, read as text, never run (issue 45, batches 2 and 3).

A repository's build says which of its files are merged into one document, downloaded from
another project, or written by a generator: a line of a shell script, a Makefile, a
``justfile``, a ``package.json`` script, a CI workflow or a guide's shell fence. speclint reads
those lines as text and never runs them (``speclint.analyses.api.merging`` reads a bundler's,
``speclint.analyses.repository.downloads`` a downloader's and a generator's; ``speclint.analyses.repository.commands``
reads each file's lines once a run). What is read of them is here, once:

- :func:`build_files`: the files whose text may run a command;
- :func:`joined`: a file's command lines, a line continued by a trailing backslash, ``|``,
  ``&&`` or ``||`` joined to the next, a console prompt (``$ ``) left out;
- :func:`split_line`: the commands of a line (split at ``&&``, ``||``, ``;``, ``&``, and ``|``
  where a pipeline's parts are wanted one by one), outside quotes;
- :func:`command_words`: a command's own words, without what surrounds it in YAML or JSON, the
  variables it sets, and a launcher (``npx -y``, ``sudo``);
- :func:`shorter`: the line as evidence quotes it;
- :func:`expanded`: a shell script's lines with the variables it sets to a path written out
  (``spec="$root/api.yml"`` then ``-o "$spec"``);
- :func:`make_expanded`: a Makefile's lines with the variables it sets to one word written out
  (``OUT = dist`` then ``-o $(OUT)/api.yaml``), the others as a shell's ``${NAME}``;
- :func:`variable_pattern`: the files a name holding a variable may stand for
  (``computable/$(SPEC)-codegen.yaml``: each ``computable/*-codegen.yaml``).
"""

from __future__ import annotations

import functools
import posixpath
import re
import shlex
from collections.abc import Iterable, Iterator, Sequence

# Files whose lines may run a command: read as text, never run.
_SCRIPT_SUFFIXES = (".sh", ".bash", ".mk")
SHELL_SCRIPTS = (".sh", ".bash")  # run line after line: a `cd` moves the lines that follow
_SCRIPT_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile"})
_MAKEFILES = frozenset({"Makefile", "makefile", "GNUmakefile"})
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
    "@apidevtools/swagger-cli": "swagger-cli",
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
    return [list(words) for words in _split(line, separators)]


# Split once a process: a run reads each build line several times (for the merges, the
# downloads, the outputs, the scripts a line calls, the programs it runs: on the MCP
# repository, 2,753 splits of 564 lines, 0.15 s of shlex in every run's cache key).
@functools.lru_cache(maxsize=8192)
def _split(line: str, separators: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    if line.lstrip().startswith("#"):
        return ()
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: not a command line we can read
        return ()
    commands: list[list[str]] = [[]]
    for token in tokens:
        if token in separators:
            commands.append([])
        else:
            commands[-1].append(token)
    return tuple(tuple(words) for words in commands if words)


_YAML_LEADS = frozenset({"-", "run:", "cmd:", "|", "|-", "|+", ">-", ">+"})


def command_words(tokens: list[str]) -> list[str]:
    """The command's words without what surrounds it in YAML or JSON (``- run:``,
    ``"bundle": "..."``), the variables it sets, a launcher and the launcher's options
    (``npx -y``); a package a launcher runs named by its command (``@asyncapi/cli@1`` is
    ``asyncapi``), the command by its name, not its folder (``./node_modules/.bin/redocly``)."""
    words = tokens
    # A YAML block scalar's indicator (`run: |`) joins the first command line to it.
    while words and (words[0] in _YAML_LEADS or words[0].endswith(":")):
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


# --- a script's variables -------------------------------------------------------------------------

# `name=value`, `export name=value`, `readonly`/`local`/`declare` too: one assignment on its line.
_ASSIGNMENT = re.compile(r"^\s*(?:(?:export|readonly|local|declare)\s+)?([A-Za-z_]\w*)=(\S.*|)$")
# A variable's use: `$name`, `${name}`; a single-quoted span is text (matched first, kept).
_USE = re.compile(r"'[^']*'|\$\{([A-Za-z_]\w*|[0-9])\}|\$([A-Za-z_]\w*|[0-9])")
# The script's own path, as a shell names it.
_SELF = frozenset({"$0", "${0}", "${BASH_SOURCE[0]}", "${BASH_SOURCE}", "$BASH_SOURCE"})
# Commands whose output is a path computed from their one argument (their options aside).
_PATH_COMMANDS = frozenset({"realpath", "readlink", "dirname"})
# A parameter with a default value: `${3:-out.yaml}`, `${OUT-out.yaml}` (POSIX 2.6.2).
_DEFAULT = re.compile(r"\$\{(?:[0-9]|[A-Za-z_]\w*):?-([^{}$`]+)\}")
# A value holding any of these is no path read here (an expansion, a glob, a quote, an
# operator): an argument or a variable's value with one is left unknown.
_NOT_A_PATH = frozenset("$`*?~\"'(){}[]<>|&;")
_CD_PWD = re.compile(r"^cd\s+(?:--\s+)?(\S.*?)\s*(?:&&|;)\s*pwd(?:\s+-[PL])?$")


class _Path:
    """A variable's value: ``rooted``, a path from the repository root (derived from the
    script's own path, ``$0``); else text as written (a name read from the working folder,
    which the script does not fix: read as any literal name of a command line is)."""

    def __init__(self, value: str, rooted: bool) -> None:
        self.value, self.rooted = value, rooted


def expanded(path: str, lines: Sequence[str], arguments: Sequence[str] = ()) -> list[str]:
    """The lines of the shell script ``path`` with the uses of the variables it sets to a path
    written out (never run: read as text). A variable is known from its assignment on a line of
    its own to a path: a name (``out=build/api.yaml``), other known variables
    (``"$root/api.yaml"``), or ``$(realpath [-m] …)``, ``$(readlink -f …)``, ``$(dirname …)``
    and ``$(cd … && pwd)`` of one; ``$0`` and ``${BASH_SOURCE[0]}`` are the script itself. A
    path derived from the script's is written relative to the script's folder (where names are
    read from first). Anything else (a command's output, an unknown variable, a path out of the
    root) leaves the variable unknown, and a later assignment replaces an earlier one, line
    after line (a branch's assignment is read as if it ran). ``arguments``: the words a build
    line calls the script with, its ``$1``, ``$2``... Line numbers are kept."""
    known: dict[str, _Path] = {
        str(number): _Path(word, False)
        for number, word in enumerate(arguments[:9], start=1)
        if word and not _NOT_A_PATH & set(word)
    }
    folder = posixpath.dirname(path)
    out: list[str] = []
    for line in lines:
        match = _ASSIGNMENT.match(line)
        if match is not None:
            name, value = match.group(1), _value(match.group(2), known, path)
            if value is None:
                known.pop(name, None)
            else:
                known[name] = value
            out.append(line)
            continue
        out.append(_USE.sub(lambda m: _written(m, known, folder), line) if known else line)
    return out


def _written(match: re.Match[str], known: dict[str, _Path], folder: str) -> str:
    name = match.group(1) or match.group(2)
    value = known.get(name) if name else None
    if value is None:
        return match.group(0)
    if not value.rooted:
        return value.value
    return posixpath.relpath(value.value or ".", folder or ".")


def _value(text: str, known: dict[str, _Path], script: str) -> _Path | None:
    """A variable's value, or None when it is not a path read here."""
    text = text.strip()
    quoted = len(text) >= 2 and text[0] == text[-1] == '"'
    if quoted:
        text = text[1:-1]
    elif len(text) >= 2 and text[0] == text[-1] == "'":
        inner = text[1:-1]
        return None if not inner or "'" in inner else _Path(inner, False)
    if len(text) >= 2 and text[0] == text[-1] == "`" and "`" not in text[1:-1]:
        text = "$(" + text[1:-1] + ")"  # the old spelling of a command substitution
    if text.startswith("$("):
        end = _closing(text, 1)
        printed = _substituted(text[2:end].strip(), known, script) if end > 0 else None
        if printed is None or end == len(text) - 1:
            return printed
        # `$(dirname "$0")/..`: what it prints, then a path
        known, text = {**known, "_printed": printed}, "${_printed}" + text[end + 1 :]
    if text in _SELF:
        return _Path(script, True)
    default = _DEFAULT.fullmatch(text)
    if default is not None:
        # `${3:-api.yaml}`: an argument with a default (POSIX 2.6.2), the file the script
        # writes when run as its usage line shows.
        return _value(default.group(1), known, script)
    parts: list[str] = []
    rooted = False
    position = 0
    for use in re.finditer(r"\$\{([A-Za-z_]\w*|[0-9])\}|\$([A-Za-z_]\w*|[0-9])", text):
        value = known.get(use.group(1) or use.group(2))
        if value is None:
            return None
        if value.rooted:
            if use.start() != 0:
                return None  # a rooted path in the middle of a name
            rooted = True
        parts.append(text[position : use.start()])
        parts.append(value.value if not value.rooted else "/" + value.value)
        position = use.end()
    parts.append(text[position:])
    joined_text = "".join(parts)
    if not joined_text or _NOT_A_PATH & set(joined_text):
        return None
    if not quoted and any(c.isspace() for c in joined_text):
        return None  # `name=value command …`: a command's own environment, not the script's
    if not rooted:
        return _Path(joined_text, False)
    inside = _inside_root(joined_text)
    return None if inside is None else _Path(inside, True)


def _substituted(command: str, known: dict[str, _Path], script: str) -> _Path | None:
    """The path a ``$( … )`` prints: realpath/readlink/dirname of one path, or ``cd … && pwd``."""
    moved = _CD_PWD.match(command)
    if moved is not None:
        return _value(moved.group(1), known, script)
    words = _words(command)
    if words and words[0] == "basename" and len(words) in (2, 3):
        # `basename "$1" .json`: the file's name, its suffix taken off (POSIX basename)
        named = _value(words[1], known, script)
        if named is None:
            return None
        name = posixpath.basename(named.value)
        suffix = words[2] if len(words) == 3 else ""
        if suffix and name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
        return _Path(name, False) if name else None
    if not words or words[0] not in _PATH_COMMANDS:
        return None
    arguments = [w for w in words[1:] if not w.startswith("-")]
    if len(arguments) != 1 or (words[0] == "readlink" and "-f" not in words[1:]):
        return None  # `readlink` alone prints a link's target, not a path
    value = _value(arguments[0], known, script)
    if value is None:
        return None
    if words[0] == "dirname":
        if not value.rooted:
            return None  # the folder of a name read from the working folder: unknown
        return _Path(posixpath.dirname(value.value), True)
    if value.rooted:
        return value
    return _Path(posixpath.normpath(value.value), False)


def _words(command: str) -> list[str]:
    """A command's words, split at spaces outside quotes and ``$( … )``, quotes kept."""
    words: list[str] = []
    current: list[str] = []
    index, quote = 0, ""
    while index < len(command):
        char = command[index]
        if char == "$" and quote != "'" and command.startswith("$(", index):
            # a substitution is one word, bare or inside double quotes (never single)
            end = _closing(command, index + 1)
            if end < 0:
                return []
            current.append(command[index : end + 1])
            index = end + 1
            continue
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char.isspace():
            if current:
                words.append("".join(current))
                current = []
            index += 1
            continue
        current.append(char)
        index += 1
    if quote:
        return []
    if current:
        words.append("".join(current))
    return words


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start`` (-1: none), quotes skipped."""
    depth, quote = 0, ""
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _inside_root(text: str) -> str | None:
    """``/a/b/../c`` (``/`` the repository root) as ``a/c``; None out of the root."""
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


# --- a Makefile's variables -----------------------------------------------------------------------

# `NAME = value`, `NAME := value`, `NAME ?= value`, `NAME ::= value` (GNU make §6.2): a recipe's
# `$(NAME)` and `${NAME}` are its value once make expands them (§6.1).
_MAKE_ASSIGNMENT = re.compile(
    r"^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(?::{1,3}|\?)?=\s*(.*)$"
)
_MAKE_USE = re.compile(r"\$\(([A-Za-z_][\w.-]*)\)|\$\{([A-Za-z_][\w.-]*)\}")


def is_makefile(path: str) -> bool:
    name = path.rpartition("/")[2]
    return name in _MAKEFILES or name.endswith(".mk")


def make_expanded(lines: Sequence[str]) -> list[str]:
    """A Makefile's lines with the uses of the variables it sets to one word written out (never
    run: read as text), the others written as a shell's ``${NAME}`` (a loop's ``SPEC=$$spec``,
    a command-line ``make SPEC=x``: unknown here, one word each), and make's ``$$`` as the
    shell's ``$``. A ``$(shell …)`` or a function call (``$(wildcard …)``) stays as written.
    A later assignment replaces an earlier one (make's last wins for ``=`` too). Line numbers
    are kept."""
    known: dict[str, str] = {}
    for line in lines:
        if line.startswith("\t"):
            continue  # a recipe line: never an assignment
        match = _MAKE_ASSIGNMENT.match(line)
        if match is not None:
            value = match.group(2).strip()
            if value and not any(c.isspace() for c in value) and "$" not in value:
                known[match.group(1)] = value
            else:
                known.pop(match.group(1), None)

    def written(use: re.Match[str]) -> str:
        name = use.group(1) or use.group(2)
        return known.get(name, "${" + name + "}")

    return [_MAKE_USE.sub(written, line.replace("$$", "$")) for line in lines]


# A variable in a name: a shell's `$NAME`/`${NAME}`, a template's `{expression}` (Python's
# f-string, JavaScript's `${…}`, Ruby's `#{…}`), after make's are written as a shell's.
_VARIABLE_PART = re.compile(r"[$#]?\{[^{}/]*\}|\$[A-Za-z_]\w*")


def variable_pattern(name: str) -> tuple[str, re.Pattern[str]] | None:
    """The files a name holding variables may stand for: (its folder as written, a pattern over
    file names in it: each variable any text of one or more characters), or None: a name
    without a variable, or one that says too little to stand for files (a variable in the
    folder, a file name without an extension of its own: ``$(OUT)/api.yaml``, ``docs/$(PAGE)``)."""
    if not _VARIABLE_PART.search(name):
        return None
    folder, _, file_name = name.rpartition("/")
    literal = _VARIABLE_PART.sub("", name)
    if not folder or _VARIABLE_PART.search(folder) or any(c in literal for c in "*?[]$"):
        return None
    parts = _VARIABLE_PART.split(file_name)
    if "." not in parts[-1]:
        return None  # no extension of its own: any file of the folder
    return folder, re.compile("[^/]+?".join(re.escape(p) for p in parts) + "$")
