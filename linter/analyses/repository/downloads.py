"""Files the repository's own commands download: another project's document, copied in (issue 45,
ecosystem batch 3).

A repository that builds a client from a vendor's API document commits that document and keeps
the command that refreshes it: ``curl -sSL https://vendor.example/openapi.yaml | yq -o=json '.'
> api.json`` in a script, a Makefile, a CI workflow, a ``package.json`` script or a shell fence of
its contributing guide. The file is the vendor's, refreshed verbatim: its defects are fixed
upstream (or by an overlay at generation time), never in the file, so it is *vendored*
(``speclint.analyses.repository.provenance``).

:func:`downloads` reads those command lines as text, as ``speclint.analyses.api.merging`` reads a
bundler's (never run; the files read once a run, ``speclint.analyses.repository.commands``, their lines
read by ``speclint.parsing.shell``): a pipeline whose first command is ``curl``, ``wget``, ``http``/``https``
(HTTPie), ``gh api`` or ``Invoke-WebRequest``/``iwr`` on a remote address, and that writes a
corpus file (``> path``, ``tee path``, the downloader's ``-o``/``--output``/``-O``/``-OutFile``,
or the address's last segment for ``curl -O`` and a bare ``wget``). Names are read from the
script's folder, then the root.

:func:`build_outputs` reads the same command lines (a guide's fences aside) for the files a build
command writes (``python tools/generate.py --output schemas/openapi.json``, ``-o path``, ``>
path``; not one rewritten in place, not an ``echo``'s words): those are *generated*; and
:func:`bundled_outputs` those a *bundler* writes from corpus documents (``swagger flatten``,
``redocly bundle``, ``swagger-cli bundle``, ``speakeasy merge``...): those are their sources'
*bundles*; and :func:`build_folders` the folders a build copies files into (``cp -r
src/**/example/*.json ./site/example``, ``rsync -a src/ site/``), which need not exist in the
repository: a link to a file there names what the build makes from its sources. A shell script's
path variables are written out first (``shell.expanded``). :func:`program_writes` reads the
programs of the repository a build command runs (``vite-node scripts/generate.ts``, ``python
tools/build.py``) for the JSON and YAML files they write by name
(``fs.writeFileSync(`${DIR}/dictionary.json`, ...)``): files the build makes, which need not be
committed.

Limits: an address on ``localhost`` (or a loopback address, or a variable) is the repository's own
server, not a vendor: not a download; commands are read one line at a time (a backslash, or a
line ending in ``|``, ``&&`` or ``||``, continues it); a Markdown page's fences are read only when
their language is a shell's or none.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

from speclint.analyses.repository.commands import command_files, find_matching, find_named
from speclint.model.corpus import Corpus, Document, kept
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.shell import PIPELINES, command_words, joined, shorter, split_line

_DOWNLOADERS = frozenset(
    {"curl", "wget", "http", "https", "gh", "Invoke-WebRequest", "iwr", "xh", "xhs"}
)
# A downloader's name; HTTPie's `http` only as a command (followed by a space), not in a URL.
_CANDIDATE = re.compile(r"\b(curl|wget|gh|Invoke-WebRequest|iwr|xhs?)\b|\bhttps?\s")
_SHELLS = frozenset(
    {"", "sh", "bash", "shell", "console", "zsh", "shell-session", "powershell", "ps1"}
)
_LOCAL = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1"})
# The downloader's options naming the file it writes (curl, wget, HTTPie, PowerShell).
_OUTPUT = {
    "curl": ("-o", "--output"),
    "wget": ("-O", "--output-document"),
    "http": ("-o", "--output"),
    "https": ("-o", "--output"),
    "xh": ("-o", "--output"),
    "xhs": ("-o", "--output"),
    "Invoke-WebRequest": ("-OutFile", "-outfile"),
    "iwr": ("-OutFile", "-outfile"),
}


def downloads(corpus: Corpus) -> dict[str, str]:
    """Each corpus file a command of the repository downloads -> the evidence (the command and
    where it is written), the first command found in path order. Read once a run: provenance
    asks, and the rule cache's key."""
    memo: dict[str, str] | None = corpus.memo.get("downloads")
    if memo is not None:
        return memo
    found: dict[str, str] = {}
    for where, folder, lines in _command_lines(corpus):
        for number, line in joined(lines):
            if not _CANDIDATE.search(line):
                continue
            for target in _written(line):
                path = find_named(corpus, target, folder)
                if path is not None and path not in found:
                    found[path] = f"downloaded by `{shorter(line)}` in {where(number)}"
    memo = corpus.memo["downloads"] = dict(sorted(found.items()))
    return memo


# Options naming the file a build command writes (a generator's `--output`, a compiler's `-o`).
_WRITES = frozenset({"-o", "--output", "--out", "--outfile", "--output-file"})
_OUTPUTS = re.compile(r"(^|\s)(-o|--output|--out|--outfile|--output-file)(\s|=)|>|(^|[\s;&|(])cp\s")


def build_outputs(corpus: Corpus) -> dict[str, str]:
    """Each corpus file a build command of the repository writes (``--output path``, ``-o path``,
    ``> path``: a generator's output; not a download, which is :func:`downloads`') -> the
    evidence. Read from scripts, Makefiles, CI workflows and ``package.json`` scripts, not from
    a guide's fences (an example there may write anything)."""
    cached: dict[str, str] | None = corpus.memo.get("downloads.build_outputs")
    if cached is not None:
        return cached
    found: dict[str, str] = {}
    for path, _, _, evidence in _build_writes(corpus):
        found.setdefault(path, evidence)
    # once a run: provenance asks, and each overlay without `extends` (its guessed document)
    corpus.memo["downloads.build_outputs"] = result = dict(sorted(found.items()))
    return result


# A program of the repository a build command runs, by its file's extension.
_PROGRAM = re.compile(r"\.(?:[cm]?[jt]s|py|rb)$")
# A line of a program that writes a file: Node's fs (and fs-extra's), Python's, Ruby's.
_WRITE_CALL = re.compile(
    r"\b(?:writeFile(?:Sync)?|outputFile(?:Sync)?|outputJson(?:Sync)?|writeJson(?:Sync)?|"
    r"write_text|write_bytes|json\.dump|yaml\.(?:safe_)?dump|File\.write)\b"
    r"|\bopen\([^)]*,\s*['\"][wa]"
)
# A JSON or YAML file name written in a string (quoted, or last in a template's path).
_WRITTEN_NAME = re.compile(r"[\"'`/]([\w.-]+\.(?:json|ya?ml))[\"'`]")
_PROGRAM_LIMIT = 256 * 1024  # bytes of one program read, at most


def program_writes(corpus: Corpus) -> dict[str, tuple[str, str]]:
    """Each JSON or YAML file name a program of the repository writes -> (the program, the
    evidence): a program a build command runs (a ``package.json`` script, a Makefile, a CI
    workflow: ``vite-node scripts/generate.ts``), read as text (never run), whose line that
    calls a write (``writeFileSync``, ``write_text``, ``open(..., "w")``) names the file. Read
    once a run."""
    found: dict[str, tuple[str, str]] | None = corpus.memo.get("program_writes")
    if found is not None:
        return found
    found = {}
    for commands in command_files(corpus):
        for _, line in joined(commands.lines):
            for words in split_line(line, PIPELINES):
                for word in command_words(words):
                    program = _program(corpus, word, commands.folder)
                    if program is None:
                        continue
                    for name, written in _writes_of(corpus, program):
                        found.setdefault(
                            name,
                            (
                                program,
                                f"`{program}` writes it (`{shorter(written)}`), run by "
                                f"`{shorter(line)}` in {commands.path}",
                            ),
                        )
    corpus.memo["program_writes"] = found = dict(sorted(found.items()))
    return found


def _program(corpus: Corpus, word: str, folder: str) -> str | None:
    """The repository's program a command's word names (from its file's folder, else the root;
    never out of the root)."""
    if not _PROGRAM.search(word):
        return None
    return find_named(corpus, word, folder, listed=True)


def program_text(corpus: Corpus, program: str) -> str | None:
    """The text of a program of the repository (None: unreadable, or past ``_PROGRAM_LIMIT``),
    read once a run: several commands may run it, and ``unresolved-ref`` and the rule cache's
    key read it again."""
    texts: dict[str, str | None] = corpus.memo.setdefault("program_texts", {})
    if program not in texts:
        raw = corpus.read_file(program)
        if isinstance(raw, bytes) and len(raw) <= _PROGRAM_LIMIT:
            texts[program] = raw.decode("utf-8", "replace")
        else:
            texts[program] = None
    return texts[program]


def _writes_of(corpus: Corpus, program: str) -> Iterator[tuple[str, str]]:
    for line in (program_text(corpus, program) or "").splitlines():
        if _WRITE_CALL.search(line):
            for match in _WRITTEN_NAME.finditer(line):
                yield match.group(1), line.strip()


# A template's expression (Python's f-string `{x}`, JavaScript's `${x}`, Ruby's `#{x}`): read as
# one variable, so that the quotes inside it (`{m['operationId']}`) do not end the string.
_EXPRESSION = re.compile(r"[$#]?\{[^{}\n]*\}")
# A JSON or YAML path in a string of a program: a folder and a file name (triple-quoted too).
_WRITTEN_PATH = re.compile(r"(\"\"\"|'''|[\"'`])([^\"'`\s]*/[^\"'`\s/]+\.(?:json|ya?ml))\1")
PROGRAMS_READ = 1_000  # programs of the repository read for the files they write, at most


def program_outputs(corpus: Corpus) -> dict[str, str]:
    """Each corpus file a program of the repository writes by a path (``open(
    f"../static/schemas/{name}_get.json", "w")``, ``fs.writeFileSync("dist/api.json", …)``),
    whether or not a build command runs it (a maintainer's tool run by hand) -> the evidence.
    Read as text, never run: a write call's line naming a folder and a JSON or YAML file, a
    template's expressions standing for any name (``commands.find_matching``), read from the
    program's folder, then the root. A program that names the path again (reads it back: a
    formatter rewriting files in place) is not its only writer: not read."""
    found: dict[str, str] | None = corpus.memo.get("program_outputs")
    if found is not None:
        return found
    found = {}
    programs = [p for p in sorted(corpus.tree) if _PROGRAM.search(p)][:PROGRAMS_READ]
    for program in programs:
        text = program_text(corpus, program)
        if text is None or not _WRITE_CALL.search(text):
            continue
        written = text.splitlines()
        lines = [_EXPRESSION.sub("{}", line) for line in written]
        folder = posixpath.dirname(program)
        for number, line in enumerate(lines):
            if not _WRITE_CALL.search(line):
                continue
            shown = f"`{program}` writes it (`{shorter(written[number].strip())}`)"
            for match in _WRITTEN_PATH.finditer(line):
                name = match.group(2)
                if sum(name in other for other in lines) > 1:
                    continue  # named again (read back, rewritten in place): not only written
                named = find_named(corpus, name, folder)
                paths = [named] if named is not None else find_matching(corpus, name, folder)
                for path in paths:
                    found.setdefault(path, shown)
    corpus.memo["program_outputs"] = found = dict(sorted(found.items()))
    return found


def program_text_names(corpus: Corpus, program: str, name: str) -> bool:
    """Whether ``program``'s text names ``name`` as a string or a path's segment."""
    text = program_text(corpus, program)
    pattern = rf"[\"'`/]{re.escape(name)}[\"'`/]"
    return text is not None and re.search(pattern, text) is not None


# What a generator's input may be to make its output a rendering of it: an API document or a
# schema (a model in another language, or a data file, is no corpus definition to pair with).
_RENDERED = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI, DocumentKind.SCHEMA)


def build_inputs(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """Each corpus file a build command writes -> the API documents and schemas of the corpus
    the command names besides it (``node inject.js ../openapi.yaml > ../openapi.json``: the
    output renders ``openapi.yaml``), from the command that :func:`build_outputs` quotes."""
    found: dict[str, tuple[str, ...]] = {}
    for path, command, folder, _ in _build_writes(corpus):
        if path in found:
            continue
        inputs: list[str] = []
        for word in command[1:]:
            named = find_named(corpus, word.partition("=")[2] or word, folder)
            if named is None or named == path or named in inputs:
                continue
            if corpus.documents[named].kind in _RENDERED:
                inputs.append(named)
        found[path] = tuple(inputs)
    return dict(sorted(found.items()))


# The tools that write one document from a split source (every `$ref` to another file inlined)
# or merge several into one: (command, subcommand). Their output is the sources' bundle.
_BUNDLERS = frozenset(
    {
        ("swagger", "flatten"),  # go-swagger
        ("swagger", "mixin"),  # go-swagger, several specs merged into the first
        ("swagger-cli", "bundle"),
        ("redocly", "bundle"),
        ("redocly", "join"),
        ("openapi", "bundle"),  # @redocly/openapi-cli's old name
        ("openapi", "join"),
        ("asyncapi", "bundle"),
        ("speccy", "resolve"),
        ("speakeasy", "merge"),
    }
)
# Options of those tools that take a value that is not an input (`--format yaml`).
_BUNDLER_VALUED = frozenset(
    {"-o", "--output", "--format", "-f", "--ext", "--config", "--lint-config", "-t", "--type"}
    | {"--base-dir", "-b", "--base", "-d", "--prefix-components-with-info-prop", "--outfile"}
)
_BUNDLER_INPUTS = frozenset({"-s", "--schemas"})  # speakeasy merge -s a.yaml -s b.yaml


def bundled_outputs(corpus: Corpus) -> dict[str, tuple[tuple[str, ...], str]]:
    """Each corpus file a bundler of the repository writes from corpus documents (``swagger
    flatten src.yml -o api.yml``, ``redocly bundle src.yaml -o dist/api.yaml``) -> (its
    sources, the evidence)."""
    found: dict[str, tuple[tuple[str, ...], str]] = {}
    # A guide's fence too ("run `swagger-cli bundle api/index.yaml --outfile api/build/api.yaml`
    # from the root"): a bundler's command naming both a source and an output of the corpus
    # says how the output is made, wherever it is written.
    for path, command, folder, evidence in _build_writes(corpus, guides=True):
        if path in found or tuple(command[:2]) not in _BUNDLERS:
            continue
        sources = []
        for name in _bundler_inputs(command[2:]):
            source = find_named(corpus, name, folder)
            if source is not None and source != path and source not in sources:
                sources.append(source)
        if sources:
            found[path] = (tuple(sources), evidence)
    return dict(sorted(found.items()))


def _bundler_inputs(words: list[str]) -> Iterator[str]:
    index = 0
    while index < len(words):
        word = words[index]
        if word in _BUNDLER_INPUTS and index + 1 < len(words):
            yield words[index + 1]
            index += 2
        elif word in _BUNDLER_VALUED or word in (">", "1>"):
            index += 2
        elif word.startswith("-"):
            index += 1  # a flag (`--dereferenced`), or `--option=value`
        else:
            yield word
            index += 1


# The copying commands whose last word is the destination, and their options that make it a
# folder (`cp -r a b`: `b` is a folder when `a` is one; several sources or a glob: always).
_COPIERS = frozenset({"cp", "rsync"})
_RECURSIVE = frozenset({"-r", "-R", "-a", "--recursive", "--archive"})
_COPIES = re.compile(r"(^|[\s;&|(])(cp|rsync)\s")


@dataclass(frozen=True)
class Copy:
    """A copy a build command makes into a folder: its sources as repository paths (globs
    kept), each as written read from the script's folder, then from the root (where the build
    runs is not known), and where the command is (``scripts/site.sh:12``)."""

    sources: tuple[str, ...]
    where: str


def build_folders(corpus: Corpus) -> dict[str, tuple[Copy, ...]]:
    """Each folder a build command of the repository copies files into -> the copies: the
    destination of a ``cp`` (recursive, of several sources or of a glob, or written with a
    trailing ``/``) or an ``rsync``, as written from the script's folder and from the root.
    Read from scripts, Makefiles, CI workflows and ``package.json`` scripts, not from a guide's
    fences; a destination held in a variable, out of the root or absolute is not one. Read once
    a run."""
    memo: dict[str, tuple[Copy, ...]] | None = corpus.memo.get("build_folders")
    if memo is not None:
        return memo
    found: dict[str, list[Copy]] = defaultdict(list)
    for where, folder, lines in _command_lines(corpus, guides=False, candidate=_COPIES):
        for number, line in joined(lines):
            if not _COPIES.search(line):
                continue
            for words in split_line(line, PIPELINES):
                copied = _copy(command_words(words))
                if copied is None:
                    continue
                destination, sources = copied
                starts = tuple(dict.fromkeys((folder, "")))
                resolved = (
                    posixpath.normpath(posixpath.join(s, w)) for s in starts for w in sources
                )
                copy = Copy(
                    tuple(dict.fromkeys(r for r in resolved if not r.startswith(".."))),
                    where(number),
                )
                for start in starts:
                    path = posixpath.normpath(posixpath.join(start, destination))
                    if path not in (".", "..") and not path.startswith("../"):
                        found[path].append(copy)
    memo = corpus.memo["build_folders"] = {k: tuple(v) for k, v in sorted(found.items())}
    return memo


def _copy(command: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """(the destination folder, the sources) of a copying command, or None."""
    if not command or command[0] not in _COPIERS:
        return None
    if any(w in (">", ">>", "|", "1>", "2>") for w in command):
        return None
    options = [w for w in command[1:] if w.startswith("-")]
    names = [w for w in command[1:] if not w.startswith("-")]
    if len(names) < 2:
        return None
    destination, sources = names[-1], names[:-1]
    if destination.startswith(("/", "~", "$")) or "://" in destination or ":" in destination:
        return None  # absolute, a variable, or a remote host (`rsync a host:dir`)
    folder = (
        command[0] == "rsync"
        or destination.endswith("/")
        or len(sources) > 1
        or any(c in s for s in sources for c in "*?[")
        or any(
            o in _RECURSIVE or (len(o) > 1 and o[1] != "-" and set(o[1:]) & set("rRa"))
            for o in options
        )
    )
    destination = destination.rstrip("/")
    if not folder or not destination:
        return None
    return destination, tuple(s for s in sources if not s.startswith(("/", "~", "$")))


# Commands that print their words rather than run them (`echo swagger flatten … -o api.yml`).
_PRINTERS = frozenset({"echo", "printf"})


_BuildWrite = tuple[str, list[str], str, str]


def _build_writes(corpus: Corpus, guides: bool = False) -> tuple[_BuildWrite, ...]:
    """(a corpus file a build command writes, the command's words, the folder its names are
    read from, the evidence), in the order the lines are read (a guide's shell fences too,
    with ``guides``). Read once a run for each ``guides``: :func:`build_outputs`,
    :func:`build_inputs` and :func:`bundled_outputs` all read them, in provenance and again in
    the cache's digest."""
    key = f"build_writes:{guides}"
    found: tuple[_BuildWrite, ...] | None = corpus.memo.get(key)
    if found is None:
        found = corpus.memo[key] = tuple(_read_build_writes(corpus, guides))
    return found


def _read_build_writes(corpus: Corpus, guides: bool) -> Iterator[_BuildWrite]:
    for where, folder, lines in _command_lines(corpus, guides=guides, candidate=_OUTPUTS):
        for number, line in joined(lines):
            if not _OUTPUTS.search(line):
                continue
            for words in split_line(line, PIPELINES):
                command = command_words(words)
                if not command or command[0] in _DOWNLOADERS or command[0] in _PRINTERS:
                    continue
                targets = list(_outputs(command))
                if command[0] == "cp":
                    targets = _copied_output(corpus, command, folder)
                for target in targets:
                    if command.count(target) > 1:
                        continue  # rewritten in place (`jq . a.json > a.json`): not an output
                    path = find_named(corpus, target, folder)
                    # A name holding a variable no line sets (a Makefile loop's `$(SPEC)`)
                    # stands for each file it matches.
                    paths = [path] if path is not None else find_matching(corpus, target, folder)
                    evidence = f"written by `{shorter(line)}` in {where(number)}"
                    for path in paths:
                        yield path, command, folder, evidence


def _copied_output(corpus: Corpus, command: list[str], folder: str) -> list[str]:
    """The file a ``cp`` writes, when it copies what a generator of the build wrote (``codegen
    -o /tmp/gen`` then ``cp /tmp/gen/openapi.yaml site/api.yaml``): the generator's output put
    in place. A copy of a download (``curl -o /tmp/api.yml`` then ``cp /tmp/api.yml api.yml``)
    or of a source is not (a byte-identical copy is found by content)."""
    names = [w for w in command[1:] if not w.startswith("-")]
    if len(names) != 2 or ">" in command:
        return []
    source = _place(names[0], folder)
    made = _generator_outputs(corpus)
    if any(source == out or source.startswith(out.rstrip("/") + "/") for out in made):
        return [names[1]]
    return []


def _place(name: str, folder: str) -> str:
    """A command's file name as a path: an absolute one as written, else from its folder."""
    return posixpath.normpath(name if name.startswith("/") else posixpath.join(folder, name))


def _generator_outputs(corpus: Corpus) -> frozenset[str]:
    """What the build's generators write (``-o``, ``--output``, ``>``; not a download's, not a
    copy's), as paths (``_place``), whether or not the corpus holds them. Read once a run."""
    found: frozenset[str] | None = corpus.memo.get("generator_outputs")
    if found is not None:
        return found
    outputs: set[str] = set()
    for _, folder, lines in _command_lines(corpus, guides=False, candidate=_OUTPUTS):
        for _, line in joined(lines):
            for words in split_line(line, PIPELINES):
                command = command_words(words)
                if not command or command[0] in _DOWNLOADERS | _PRINTERS | {"cp"}:
                    continue
                outputs.update(_place(t, folder) for t in _outputs(command) if t)
    corpus.memo["generator_outputs"] = found = frozenset(outputs)
    return found


def _outputs(words: list[str]) -> Iterator[str]:
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else None
        if word in _WRITES and following is not None:
            yield following
        elif word.startswith("--") and word.partition("=")[0] in _WRITES:
            yield word.partition("=")[2]
        elif word in (">", "1>") and following is not None:
            yield following


# What a Markdown page holds of commands, kept with the page (``Document.derived``, which the
# parse cache stores): which of the patterns a guide's fences are read for its text matches, and
# its shell fences' lines. Every run reads every page's (the rule cache's key asks what the build
# commands make): for an unchanged page that is a lookup, not a decode of its prose model and a
# search of its text.
PAGE_COMMANDS = "downloads.page-commands"
_PAGE_CANDIDATES = (("downloads", _CANDIDATE), ("outputs", _OUTPUTS))
PageCommands = tuple[tuple[str, ...], tuple[tuple[int, tuple[str, ...]], ...]]


def page_commands(document: Document) -> PageCommands:
    """(the names of the page candidates its text matches, (each shell fence's opening line, its
    content lines)): a pure function of the page's text, memoised on it."""
    return kept(document, PAGE_COMMANDS, _page_commands, PageCommands)


def _page_commands(document: Document) -> PageCommands:
    text = document.text or ""
    matched = tuple(name for name, pattern in _PAGE_CANDIDATES if pattern.search(text))
    prose = document.prose
    fences = tuple(
        (fence.line, tuple(fence.content.splitlines()))
        for fence in (prose.fences if prose is not None else ())
        if fence.language.lower() in _SHELLS
    )
    return matched, fences


def _command_lines(
    corpus: Corpus, guides: bool = True, candidate: re.Pattern[str] = _CANDIDATE
) -> Iterator[tuple[_At, str, list[str]]]:
    """(where a line is, the folder names are read from, the lines) of each place commands are
    written (``speclint.analyses.repository.commands``; a guide's shell fences too, with ``guides``)."""
    for commands in command_files(corpus):
        if commands.numbered and candidate.search(commands.text):
            yield _At(commands.path, 0), commands.folder, list(commands.lines)
    scripts = {c.path: c for c in command_files(corpus) if not c.numbered}
    # Which of the matches a page keeps is the candidate's (None: none, its text is searched).
    kept_as = next((name for name, pattern in _PAGE_CANDIDATES if pattern is candidate), None)
    for path, document in corpus.documents.items():
        if not document.usable or document.text is None:
            continue
        if document.kind is DocumentKind.MARKDOWN:
            if not guides:
                continue
            matched, fences = page_commands(document)
            if kept_as is not None:
                read = kept_as in matched
            else:
                read = candidate.search(document.text) is not None
            if not read:
                continue
            for line, lines in fences:
                # The fence's first content line is the one after its opening line.
                yield _At(path, line), posixpath.dirname(path), list(lines)
        elif path in scripts:
            yield _At(path, None), scripts[path].folder, list(scripts[path].lines)


class _At:
    """Where a command's line is: the file, and the line its first line follows (None: no line
    numbers, a ``package.json`` script)."""

    def __init__(self, path: str, offset: int | None) -> None:
        self.path, self.offset = path, offset

    def __call__(self, number: int) -> str:
        return self.path if self.offset is None else f"{self.path}:{self.offset + number}"


def _written(line: str) -> Iterator[str]:
    """The file names a download on this line writes."""
    for pipeline in split_line(line, PIPELINES):
        yield from _pipeline_writes(pipeline)


def _pipeline_writes(tokens: list[str]) -> Iterator[str]:
    words = command_words(tokens)
    if not words or words[0] not in _DOWNLOADERS:
        return
    tool = words[0]
    first = words[: words.index("|")] if "|" in words else words
    if tool == "gh":
        if first[1:2] != ["api"]:
            return
        address = None
    else:
        addresses = [w for w in first[1:] if w.startswith(("http://", "https://"))]
        if not addresses or not _remote(addresses[0]):
            return
        address = addresses[0]
    named = False
    for index, word in enumerate(first[:-1]):
        if word in _OUTPUT.get(tool, ()):
            named = True
            yield first[index + 1]
    for option in _OUTPUT.get(tool, ()):
        for word in first:
            if word.startswith(option + "="):
                named = True
                yield word.partition("=")[2]
    for index, word in enumerate(words[:-1]):
        if word in (">", ">>", "1>") or (word == "tee" and index > 0 and words[index - 1] == "|"):
            named = True
            yield words[index + 1]
    remote_name = tool == "wget" or any(w in ("-O", "--remote-name") for w in first[1:])
    if not named and remote_name and address is not None:
        name = urlsplit(address).path.rpartition("/")[2]
        if name:
            yield name


def _remote(address: str) -> bool:
    try:
        host = urlsplit(address).hostname or ""
    except ValueError:
        return False
    return bool(host) and host not in _LOCAL and not any(c in host for c in "${%")
