"""API sources a bundler merges: a document whose local pointers name what a sibling fragment
defines, the two made one document by the repository's build (issue 45, batch 2).

Some repositories keep one API in several files that a tool *merges* rather than inlines: the
AsyncAPI CLI's ``asyncapi bundle service.json common.json -o bundled/service.json`` (every input
merged into the first), ``redocly join a.yaml b.yaml``, ``openapi-merge-cli`` (its
``openapi-merge.json`` lists ``inputs``), ``swagger-combine`` (a configuration whose ``apis``
name the files), ``yq eval-all '... ireduce ({}; . * $item)'`` or ``jq -s '.[0] * .[1]'``. The
shared file is a *fragment*: ``channels`` and ``components`` with no ``info``, not an API
document on its own; the document's ``$ref: '#/channels/start'`` resolves only once the
fragment is merged into it (a local pointer names the merged document, RFC 3986 §4.4, which is
the bundle). Read file by file, each such pointer was an unresolved-ref error and each fragment
an invalid API document; the merged document was never checked.

:func:`merges` finds them by evidence, once per run:

``a build command``
    a line of a shell script (``*.sh``), a Makefile, a ``justfile``, a ``package.json`` script or
    a CI workflow that runs one of the tools above on corpus files (read as text, never run; a
    ``cd`` before it on the same line, or earlier in a shell script, moves where its names are
    read from; the files read once a run, ``speclint.analyses.repository.commands``, their lines read by
    ``speclint.parsing.shell``), or an ``openapi-merge`` / ``swagger-combine`` configuration
    naming the inputs;
``the structure``
    beside a document (same folder, same kind), a fragment of that kind with no ``info`` that
    defines local pointers the document lacks, when the document names no file of it by
    ``$ref`` (it would then use the fragment by reference, and its local pointers would be
    mistakes).

What rules make of it: a local pointer that resolves in the merged document is resolved
(``unresolved-ref``); one that resolves nowhere, merged or not, is still an error. The API
validators (``openapi-invalid``, ``asyncapi-invalid``) judge the document as merged
(:func:`merged_view`), each error in merged-in content reported in the fragment, at its own
line; a fragment (a merged input with no ``info``) is not validated as a whole document, and the
run says so among what it did not check, and ``speclint files`` beside the file.

A merge step of the repository's own (its program in the repository: ``npm run merge -- --source
./spec``) is not read as a tool's merge, but its folder is known (:func:`built_sources`): the API
documents there are pieces of the API the build assembles, and the validators leave to the merge
what a merger rewrites (component key names, a response's missing description).

Limits: members are merged as the tools do for maps (the first input's own value wins where two
define the same non-map member; lists are not concatenated); a misplaced ``$ref`` that names a
merged-in pointer is not inlined (its target is looked up in the file that writes it).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from speclint.analyses.repository.commands import CommandFile, command_files, find_named
from speclint.analyses.schemas.references import rebased, ref_sites
from speclint.common.findings import Finding, Severity
from speclint.model.corpus import Corpus, Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.shell import command_words, joined, shorter, split_line
from speclint.parsing.structured import escape_token, resolve_pointer

# The documents a merge joins: API documents, and plain JSON/YAML a command names as an input.
_API = (DocumentKind.OPENAPI, DocumentKind.ASYNCAPI)
_MEMBERS = (*_API, DocumentKind.DATA)
_STRUCTURED = (".json", ".yaml", ".yml")
# The tools, as a command line names them: (tool, subcommand or None)
_MERGERS = {
    "asyncapi": "bundle",
    "redocly": "join",
    "openapi": "join",  # @redocly/openapi-cli's old name
    "openapi-merge-cli": None,
    "openapi-merge": None,
    "swagger-combine": None,
    "yq": None,
    "jq": None,
}
# Options of these tools that take a value (the value is no input): `-o out.json`.
_VALUED = frozenset(
    {"-o", "--output", "-b", "--base", "-d", "--baseDir", "--base-dir", "-c", "--config"}
    | {"--prefix-components-with-info-prop", "--prefix-tags-with-info-prop", "--lint-config"}
    | {"--format", "-f", "--output-format", "--of", "-p", "--indent", "-I", "--arg", "--argjson"}
)
# A line that may run one of the tools (what is tokenized).
_CANDIDATE = re.compile(r"\b(bundle|join)\b|openapi-merge|swagger-combine|\b[jy]q\b")
_MERGE_FILTER = re.compile(r"\*[+d?n]*\s*\$|\*\s*\.\[|ireduce|\.\[\d+\]\s*\*")


@dataclass(frozen=True)
class Merge:
    """One merged document: its first input, the inputs merged into it, and why."""

    document: str
    fragments: tuple[str, ...]
    evidence: str  # as `speclint files` and the notes say it


@dataclass
class Merges:
    """Every merge found (:func:`merges`)."""

    by_document: dict[str, Merge] = field(default_factory=dict)
    # a fragment -> the merges it is an input of
    into: dict[str, list[Merge]] = field(default_factory=dict)
    # the fragments with no `info`: not an API document alone, validated only as merged
    partial: frozenset[str] = frozenset()
    # the pieces a merge step of the repository's own assembles (:func:`built_sources`): each
    # API document under the folder it reads -> the command line that says so
    built: dict[str, str] = field(default_factory=dict)
    # the marker comments a build line replaces by a file's text (`sed '/#REF_PATHS/{r
    # paths.yml' -e 'd}' api.yml`): each marker (no `#`) -> the file of that line (:func:`markers`)
    markers: dict[str, str] = field(default_factory=dict)

    def partners(self, path: str) -> list[str]:
        """The other files ``path`` is merged with (in every merge it is part of)."""
        found: list[str] = []
        merges = [
            *self.into.get(path, ()),
            *([self.by_document[path]] if path in self.by_document else []),
        ]
        for merge in merges:
            for member in (merge.document, *merge.fragments):
                if member != path and member not in found:
                    found.append(member)
        return found

    def resolves(self, corpus: Corpus, path: str, pointer: str) -> str | None:
        """The file of a merge ``path`` is part of that defines ``pointer`` (a local pointer
        of ``path`` that names nothing in ``path`` alone), or None."""
        for other in self.partners(path):
            document = corpus.documents.get(other)
            if (
                document is not None
                and document.usable
                and resolve_pointer(document.data, pointer) is not None
            ):
                return other
        return None

    def describe(self, path: str) -> str | None:
        """What ``speclint files`` says of a merged fragment: into what, by what evidence, and
        whether it is validated alone."""
        into = self.into.get(path)
        if not into:
            if path in self.built:
                return (
                    f"a piece of the API the build assembles ({self.built[path]}); what a merge "
                    "rewrites (component key names, response descriptions) is not judged"
                )
            return None
        documents = ", ".join(f"`{m.document}`" for m in into)
        how = "; validated as merged, not alone" if path in self.partial else ""
        return f"merged into {documents} ({into[0].evidence}){how}"


def merges(corpus: Corpus) -> Merges:
    """The merges of the corpus, by a build command's evidence first, then by structure."""
    found: dict[str, Merge] = {}
    for merge in _commanded(corpus):
        if merge.document not in found:
            found[merge.document] = merge
        else:  # the same first input merged again (`user.json` and `common.json` twice)
            known = found[merge.document]
            extra = tuple(f for f in merge.fragments if f not in known.fragments)
            if extra:
                found[merge.document] = Merge(
                    known.document, known.fragments + extra, known.evidence
                )
    fragment_paths = {f for m in found.values() for f in m.fragments}
    for merge in _structural(corpus, set(found) | fragment_paths):
        found[merge.document] = merge
    into: dict[str, list[Merge]] = {}
    for path in sorted(found):
        for fragment in found[path].fragments:
            into.setdefault(fragment, []).append(found[path])
    partial = frozenset(
        path
        for path in into
        if path not in found
        and isinstance(corpus.documents[path].data, dict)
        and "info" not in corpus.documents[path].data
    )
    return Merges(
        dict(sorted(found.items())), into, partial, built_sources(corpus), markers(corpus)
    )


# A sed address naming a comment (`/#REF_COMMON_PATHS/`) on a line whose command reads a file in
# its place (`{r part.yml`, `r part.yml`): the template's marker, filled by the build.
_SED_MARKER = re.compile(r"/#([A-Za-z_][\w.-]{3,})/\s*\{?\s*r\s")


def markers(corpus: Corpus) -> dict[str, str]:
    """The marker comments the repository's build replaces by a file's text, each with the
    build file that does (the first, in path order): a member left empty over one in a
    template (``responses:`` then ``#REF_RESPONSES``) is the build's to fill, not a defect."""
    found: dict[str, str] = {}
    for commands in command_files(corpus):
        for _, line in joined(commands.lines):  # a line continued by `\` read whole
            for command in split_line(line) if "sed" in line else ():
                words = command_words(command)
                if words[:1] == ["sed"]:
                    for word in words[1:]:
                        for marker in _SED_MARKER.findall(word):
                            found.setdefault(marker, commands.path)
    return found


# --- evidence: build commands ------------------------------------------------------------------


def _commanded(corpus: Corpus) -> Iterator[Merge]:
    scripts: dict[str, CommandFile] = {}  # package.json's, read beside its configurations
    for commands in command_files(corpus):
        if not commands.numbered:
            scripts[commands.path] = commands
        elif any(tool in commands.text for tool in _MERGERS):
            yield from _merges_in(corpus, commands)
    for path, document in corpus.documents.items():
        if not document.usable or not isinstance(document.data, dict):
            continue
        if path in scripts:
            yield from _merges_in(corpus, scripts[path])
        yield from _configured(corpus, document)


def _merges_in(corpus: Corpus, commands: CommandFile) -> Iterator[Merge]:
    """The merges the command lines of a file run; in a shell script a ``cd`` on a line of its
    own moves the following lines (``CommandFile.sequential``)."""
    path, folder = commands.path, commands.folder
    here = folder
    for _, line in joined(commands.lines):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not _CANDIDATE.search(stripped) and not stripped.startswith("cd "):
            continue  # no merger named, no folder entered: not tokenized (most lines)
        moved = here
        line_commands = [w for w in map(command_words, split_line(stripped)) if w]
        for words in line_commands:
            if words[0] == "cd" and len(words) == 2:
                moved = _moved(moved, words[1])
                continue
            merge = _merge_of(corpus, path, moved, folder, words, stripped)
            if merge is not None:
                yield merge
        if commands.sequential and len(line_commands) == 1 and line_commands[0][:1] == ["cd"]:
            here = moved


def _moved(here: str, target: str) -> str:
    """The folder ``cd target`` enters from ``here`` (relative names only; never out of the root)."""
    if target.startswith(("/", "~", "$")) or target == "-":
        return here
    moved = posixpath.normpath(posixpath.join(here, target))
    return here if moved.startswith("..") else ("" if moved == "." else moved)


def _merge_of(
    corpus: Corpus, path: str, here: str, folder: str, words: list[str], line: str
) -> Merge | None:
    tool = words[0]
    if tool not in _MERGERS:
        return None
    subcommand = _MERGERS[tool]
    rest = words[1:]
    if subcommand is not None:
        if not rest or rest[0] != subcommand:
            return None
        rest = rest[1:]
    if tool == "jq" and not any(w in ("-s", "--slurp") or w.startswith("-s") for w in rest):
        return None
    inputs: list[str] = []
    base: str | None = None
    config: str | None = None
    skip = False
    for index, word in enumerate(rest):
        if skip:
            skip = False
            continue
        if word.lstrip("0123456789&").startswith((">", "<")):
            skip = word.lstrip("0123456789&") in (">", ">>", "<")  # `> out.json`: no input
            continue
        if word.startswith("-"):
            if word in _VALUED:
                skip = True
                value = rest[index + 1] if index + 1 < len(rest) else ""
                if word in ("-b", "--base"):
                    base = value
                elif word in ("-c", "--config"):
                    config = value
            elif "=" in word and word.split("=", 1)[0] in ("--base", "--config"):
                value = word.split("=", 1)[1]
                base, config = (value, config) if word.startswith("--base") else (base, value)
            continue
        if tool in ("yq", "jq") and not word.lower().endswith(_STRUCTURED):
            if not _MERGE_FILTER.search(word) and word not in ("eval-all", "ea", "."):
                return None  # another filter than a merge
            continue
        inputs.append(word)
    shown = f"`{path}`: `{shorter(line)}`"
    if tool in ("openapi-merge-cli", "openapi-merge", "swagger-combine"):
        named = config or (inputs[0] if inputs else "openapi-merge.json")
        found = find_named(corpus, named, here, folder, usable=True)
        document = corpus.documents.get(found) if found else None
        if document is None:
            return None
        listed = _config_inputs(document)
        if listed is None:
            return None
        return _merge(corpus, posixpath.dirname(document.path), "", listed, shown)
    if base is not None:
        inputs = [base, *[i for i in inputs if i != base]]
    return _merge(corpus, here, folder, inputs, shown)


def _configured(corpus: Corpus, document: Document) -> Iterator[Merge]:
    """An ``openapi-merge`` configuration (``inputs: [{inputFile: ...}]``) or a
    ``swagger-combine`` one (``apis: [{url: ...}]``) in the corpus, whoever runs it."""
    listed = _config_inputs(document)
    if listed is not None and document.kind is DocumentKind.DATA:
        merge = _merge(
            corpus,
            posixpath.dirname(document.path),
            "",
            listed,
            f"`{document.path}` lists them as inputs",
        )
        if merge is not None:
            yield merge


def _config_inputs(document: Document) -> list[str] | None:
    data = document.data
    if not isinstance(data, dict):
        return None
    for key, member in (("inputs", "inputFile"), ("apis", "url")):
        items = data.get(key)
        if isinstance(items, list) and items and all(isinstance(i, dict) for i in items):
            files = [i.get(member) for i in items]
            if all(isinstance(f, str) for f in files):
                return [str(f) for f in files]
    return None


def _merge(corpus: Corpus, here: str, folder: str, names: list[str], evidence: str) -> Merge | None:
    """The merge of the files ``names`` (read from ``here``, else the script's ``folder``, else
    the root): all of them corpus documents that merge (maps), two at least."""
    paths: list[str] = []
    for name in names:
        if "://" in name:
            return None  # a remote input: the merge is not in the corpus
        if not name.lower().endswith(_STRUCTURED):
            continue  # a word that names no input (`2` of `2> log`)
        found = find_named(corpus, name, here, folder, usable=True)
        if found is None:
            return None  # an input not in the corpus (a build output, a download): not read
        document = corpus.documents[found]
        if document.kind not in _MEMBERS or not isinstance(document.data, dict):
            return None
        if found not in paths:
            paths.append(found)
    if len(paths) < 2 or corpus.documents[paths[0]].kind not in _API:
        return None
    return Merge(paths[0], tuple(paths[1:]), evidence)


# --- evidence: a merge step of the repository's own ------------------------------------------

# A word that names a merge step: `npm run merge`, `tools/src/merger/merge.ts`, `make
# merge-spec`, `spec:merge` (not `git merge-base`, and not the tools above, read as such).
_MERGE_STEP = re.compile(r"(?:^|[/_.:-])merge[rd]?(?:$|[/_.:-])", re.IGNORECASE)
# The options by which such a step is given the folder it reads, and those naming what it writes.
_SOURCE = frozenset({"--source", "--src", "--input", "--input-dir", "--spec", "-s", "-i"})
_OUTPUT = frozenset({"--output", "--out", "-o", "--output-dir", "--dest"})


def built_sources(corpus: Corpus) -> dict[str, str]:
    """The API documents a merge step of the repository's own reads as pieces (issue 45, batch
    5): a build command (a CI workflow, a script, a ``package.json`` script) that runs a merge
    (its program or script named so, ``npm run merge -- --source ./spec``) on a corpus folder
    that holds two API documents or more. Each is a piece of the API the build assembles, not
    the finished document: a merger rewrites what a piece may leave to it (component keys
    holding ``@`` or ``::``, which OpenAPI's key pattern forbids; a response's description),
    so those are not judged in it; everything else is. The folder must be named: a merge step
    that names none proves nothing of any file (and the root is never taken)."""
    api = sorted(
        path
        for path, document in corpus.documents.items()
        if document.kind in _API and document.usable and isinstance(document.data, dict)
    )
    found: dict[str, str] = {}
    for commands in command_files(corpus):
        if "merge" not in commands.text.lower():
            continue
        for _, line in joined(commands.lines):
            stripped = line.strip()
            if "merge" not in stripped.lower() or stripped.startswith("#"):
                continue
            for words in map(command_words, split_line(stripped)):
                if not words or words[0] in ("git", *_MERGERS):
                    continue
                if not any(_MERGE_STEP.search(word) for word in words):
                    continue
                for folder in _source_folders(words):
                    for start in dict.fromkeys((commands.folder, "")):
                        named = posixpath.normpath(posixpath.join(start, folder))
                        if named in ("", ".") or named.startswith(".."):
                            continue
                        members = [p for p in api if p.startswith(named + "/")]
                        if len(members) >= 2:
                            for member in members:
                                found.setdefault(member, f"`{commands.path}`: `{shorter(line)}`")
                            break
    return found


def _source_folders(words: list[str]) -> Iterator[str]:
    """The words of a merge step that may name the folder it reads: the value of a source
    option (``--source ./spec``, ``--source=./spec``) and the plain words (not an option, not
    what an output option names)."""
    skip = False
    for index, word in enumerate(words[1:], start=1):
        if skip:
            skip = False
            continue
        option, _, value = word.partition("=")
        if option in _SOURCE and value:
            yield value
        elif word in _SOURCE:
            if index + 1 < len(words):
                yield words[index + 1]
            skip = True
        elif word in _OUTPUT or option in _OUTPUT:
            skip = word in _OUTPUT
        elif not word.startswith("-") and "$" not in word:
            yield word.rstrip("/")


# --- evidence: structure -----------------------------------------------------------------------


def local_gaps(document: Document) -> list[str]:
    """The local pointers (``#/...``) ``document``'s ``$ref``\\s name that it does not hold."""

    def make() -> list[str]:
        gaps: list[str] = []
        for _, value, _ in ref_sites(document):
            if value.startswith("#/"):
                pointer = unquote(value[1:])
                if resolve_pointer(document.data, pointer) is None and pointer not in gaps:
                    gaps.append(pointer)
        return gaps

    return document.remember(f"merging.local_gaps:{document.kind.value}", make)


def _structural(corpus: Corpus, taken: set[str]) -> Iterator[Merge]:
    by_folder: dict[tuple[str, DocumentKind], list[Document]] = {}
    for document in corpus.documents.values():
        if document.kind in _API and document.usable and isinstance(document.data, dict):
            by_folder.setdefault((posixpath.dirname(document.path), document.kind), []).append(
                document
            )
    for documents in by_folder.values():
        fragments = [d for d in documents if "info" not in d.data and d.path not in taken]
        if not fragments:
            continue
        for document in documents:
            if "info" not in document.data or document.path in taken:
                continue
            gaps = local_gaps(document)
            if not gaps:
                continue
            named = {
                posixpath.normpath(
                    posixpath.join(posixpath.dirname(document.path), v.split("#")[0])
                )
                for _, v, _ in ref_sites(document)
                if not v.startswith("#") and "://" not in v
            }
            defining = [
                f
                for f in fragments
                if f.path not in named
                and any(resolve_pointer(f.data, gap) is not None for gap in gaps)
            ]
            if defining:
                pointers = sum(
                    1
                    for gap in gaps
                    if any(resolve_pointer(f.data, gap) is not None for f in defining)
                )
                yield Merge(
                    document.path,
                    tuple(f.path for f in defining),
                    f"no `info`, and it defines {pointers} of the local pointers "
                    f"`{document.path}` names and lacks, beside it",
                )


# --- the merged document ----------------------------------------------------------------------


def merged_data(
    corpus: Corpus, merge: Merge, written: dict[tuple[str, str], str] | None = None
) -> tuple[Any, dict[str, tuple[Document, str]]]:
    """The merged document's data, and where each merged-in member comes from (view pointer ->
    (the fragment, its pointer there)). The document's own value wins a conflict."""
    document = corpus.documents[merge.document]
    data: Any = document.data
    origins: dict[str, tuple[Document, str]] = {}
    for path in merge.fragments:
        fragment = corpus.documents.get(path)
        if fragment is None or not isinstance(fragment.data, dict):
            continue
        moved = rebased(fragment.data, fragment.path, document.path, written, merged=True)
        data = _merged(data, moved, "", fragment, origins)
    return data, origins


def _merged(
    mine: Any, theirs: Any, at: str, fragment: Document, origins: dict[str, tuple[Document, str]]
) -> Any:
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return mine
    out = dict(mine)
    for key, value in theirs.items():
        here = f"{at}/{escape_token(str(key))}"
        if key == "asyncapi" or key == "openapi" or key == "swagger":
            continue  # the first input's version
        if key not in out:
            out[key] = value
            origins[here] = (fragment, here)
        else:
            out[key] = _merged(out[key], value, here, fragment, origins)
    return out


def build_source_note(rule: str, document: Document, found: Merges, left: int) -> Finding:
    """What an API rule says of a piece a merge step of the repository's own reads
    (:func:`built_sources`): coverage, with how many of its errors were the merge's to fix."""
    said = found.describe(document.path) or "a piece of the API the build assembles"
    if left:
        said += f"; {left} such error{'s' if left != 1 else ''} left to the merge"
    return Finding(
        rule,
        Severity.INFO,
        said,
        document.location(""),
        key="build-source",
        coverage="build-source",
    )


def fragment_note(rule: str, document: Document, found: Merges) -> Finding:
    """What an API rule says of a merged fragment instead of validating it alone (it lacks what
    only the merge gives, `info`): coverage, never a finding (``speclint.run.coverage``)."""
    return Finding(
        rule,
        Severity.INFO,
        found.describe(document.path) or "merged into another document",
        document.location(""),
        key="merged-fragment",
        coverage="merged-fragment",
    )
