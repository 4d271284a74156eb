"""Protocol Buffers files, compiled by protoc, as plain data with source lines (issue 30).

protoc is the reference compiler: what it rejects does not compile for anyone, and what it
accepts it describes completely (names resolved, ``json_name`` derived, options read). speclint
runs the protoc that grpcio-tools ships (``python -m grpc_tools.protoc``, with the well-known
types ``google/protobuf/*.proto``), and puts googleapis-common-protos' sources on the import path
(``google/api/annotations.proto`` and ``http.proto``, ``google/rpc/status.proto``...), which a
specification's protos import without vendoring them.

protoc is a native program reading untrusted files, so it is run as the other untrusted-input
work is: in a child process with a time limit, in a private temporary folder that holds copies of
the corpus's files and nothing else (no symlink, no path out of it), with no plugin and no output
but the descriptor set. Its diagnostics (``FILE:LINE:COL: message``) and the descriptor set's
``SourceCodeInfo`` (0-based spans) give the lines; protoc counts a tab as the spaces to the next
multiple of 8, and columns are given back in characters (:func:`character_column`).

protoc writes no descriptors when any input fails, and stops at the first input that fails:
:func:`compile_protos` compiles all inputs at once and, when that fails, again without the files
that failed and those that import them, until the rest compiles (one broken file imported by 60
costs two runs), so every file's own errors are found and the files that compile are read. The
inputs protoc got past compile: they go last in the next run, so a big file is not read again for
each broken one. All the runs of one compile share a budget of work (:data:`PROTOC_BUDGET`):
the bytes of corpus files protoc is given to read, each run counting the inputs it built (up to
the one it stopped at) and what they import. Once it is spent, the files protoc has not got to
are said not compiled, each, and those it got past are read in one last run: a compile reads at
most the budget and one run's worth. The budget counts work, not seconds, so that the same
corpus is checked the same way however loaded the machine is (the report is byte-identical);
each run's own time limit (:data:`PROTOC_TIME_LIMIT`, wall time) is only a guard against a
protoc that hangs.

protoc is given only names it cannot take for anything else (:func:`name_refusal`): it reads an
argument that starts with ``-`` as an option and one that starts with ``@`` as a file of more
arguments (options that write generated code anywhere, or run any program as a plugin); and its
diagnostics are read by the names it was given (``NAME:LINE:COLUMN: message``, ``NAME: message``),
so a name with a line break, another control character, or a ``:`` before a digit or a space
would let one file's diagnostic read as another's. Such a file is reported, alone, and not
compiled. The child runs isolated (``python -P -s``): its working folder, which holds the copies,
is not on its import path.
An import that is nowhere (neither in the corpus nor shipped) is reported, an empty file stands
in for it, and the custom options it would have declared are blanked (spaces, so lines and
columns stay), so the rest of the file is still read. The blank is cut by protoc's own tokens
(:func:`blank_options`: comments, strings with ``//``, aggregates over lines, the comma of an
option list), so what is left is as valid as the file was; and should protoc still reject the
file at the text speclint blanked, the file is said not checked, never reported as broken.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import util
from typing import Any

PROTOC_TIME_LIMIT = 60.0  # seconds for one protoc run: a hang guard (A2A's 713 lines: 0.1 s)
# Bytes of corpus files protoc may be given to read over all the runs of one compile but the last
# (issue 44: a 20 MB file and ten broken ones were eleven runs, 2 min 38 s, each reading the big
# file again). protoc reads a few MB a second with source info, so this is about a minute's work;
# envoyproxy/data-plane-api (652 files, 2.9 MB, 530 runs most of which stop at their first file)
# takes a fifth of it.
PROTOC_BUDGET = 240_000_000
_STUB = 'syntax = "proto3";\n'
_POSITION = re.compile(r"(?P<line>\d+):(?P<column>\d+): ")  # after `NAME:` in a diagnostic
# `NAME: File not found.`: an import found nowhere, which its importer's diagnostic says too
_NOT_FOUND = ": File not found."
# `(x.y)`, or an edition's feature of an extension: `features.(x.y)` (protoc points at `features`)
_UNKNOWN_OPTION = re.compile(r'^Option "(?:[\w.]*\.)?\((?P<name>[^)]+)\)[^"]*" unknown\.')
_IMPORT = re.compile(
    r'^[ \t]*(?P<keyword>import)\s+(?:public\s+|weak\s+)?"(?P<path>[^"\n]+)"\s*;', re.MULTILINE
)
_SYNTAX = re.compile(r'^[ \t]*(?P<keyword>syntax|edition)\s*=\s*"(?P<value>[^"\n]*)"', re.MULTILINE)
_TIMED_OUT = -1000  # the exit code a run of protoc over its time limit is given
_PASSES = 4  # protoc runs beyond one per input (files set apart), blanking passes apart
# What the label and type numbers of FieldDescriptorProto (descriptor.proto) are called.
# MethodOptions.IdempotencyLevel (descriptor.proto): 0 is IDEMPOTENCY_UNKNOWN, the default.
_IDEMPOTENCY = {1: "NO_SIDE_EFFECTS", 2: "IDEMPOTENT"}
_LABELS = {1: "optional", 2: "required", 3: "repeated"}
_TYPES = {
    1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32",
    8: "bool", 9: "string", 10: "group", 11: "message", 12: "bytes", 13: "uint32", 14: "enum",
    15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64",
}  # fmt: skip
# What protoc's parser says of text it cannot read: all a blank of spaces could cause (it
# removes no definition, so no "already defined" or "not defined" is its doing).
_SYNTAX_ERROR = re.compile(
    r"(?:Expected|Unexpected|Reached end of input|Unmatched|Missing|Invalid|Need space|"
    r"String literals|Unknown)\b"
)
REWRITE = "rewrite"  # a ProtoProblem's kind: speclint's own rewriting kept protoc from reading it
# a ProtoProblem's kind: the file fails only for want of what a missing import defines
DEPENDENCY = "dependency"
# The kinds of ProtoProblem that say a file was not read (not that it is wrong).
NOT_CHECKED = frozenset({"timeout", "unread", "budget", "passes", REWRITE, DEPENDENCY})
_HTTP_EXTENSION = "google.api.http"  # google/api/annotations.proto, field 72295728 of MethodOptions


@dataclass(frozen=True, slots=True)
class ProtoProblem:
    """A diagnostic of protoc, at a 1-based line and character column of ``path`` (a corpus
    path); ``kind`` says what it is: ``"error"``, ``"warning"``, ``"import"`` (an import
    found nowhere: the file was read with an empty file in its place), ``"timeout"`` (protoc
    ran out of time on it: not read), ``"unread"`` (a path protoc cannot take), ``"budget"``
    (protoc's runs spent their budget of work before it got to the file: not read), ``"passes"``
    (protoc was run as many times as allowed before it got to the file: not read),
    ``"rewrite"`` (protoc rejected the file where speclint had set options of a missing import
    aside, or an option could not be set aside: not checked, since the author's text may well
    compile), ``"dependency"`` (protoc rejected the file only for what an import not in the
    repository would have defined: not checked), or ``"alias"`` (an import naming a corpus file otherwise than the other imports of
    it)."""

    path: str
    line: int
    column: int
    message: str
    kind: str = "error"


@dataclass(frozen=True, slots=True)
class ProtoField:
    name: str
    number: int
    json_name: str  # as ProtoJSON writes the field: lowerCamelCase, or the `json_name` option
    json_name_written: bool  # the `json_name` option is in the source
    type: str  # "string", "int64", "message", "enum"...
    type_name: str  # the message or enum, fully qualified, without the leading dot ("" else)
    label: str  # "optional", "required", "repeated"
    proto3_optional: bool
    oneof: str  # the oneof it belongs to ("" if none; not a proto3 `optional`'s synthetic one)
    line: int
    column: int
    map: str = ""  # a map field's `map<K, V>` (a repeated entry message; an object in ProtoJSON)
    default: str | None = None  # proto2's `[default = ...]`, as protoc gives it (None: none)


@dataclass(frozen=True, slots=True)
class ProtoMessage:
    name: str  # fully qualified: `a2a.v1.Task`, a nested one `a2a.v1.Task.Status`
    fields: tuple[ProtoField, ...]
    line: int
    column: int
    reserved: tuple[tuple[int, int], ...] = ()  # reserved numbers, as inclusive ranges
    reserved_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProtoEnumValue:
    name: str
    number: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ProtoEnum:
    name: str  # fully qualified
    values: tuple[ProtoEnumValue, ...]
    line: int
    column: int
    reserved: tuple[tuple[int, int], ...] = ()  # reserved numbers, as inclusive ranges
    reserved_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class HttpRule:
    """A ``google.api.http`` binding: ``verb`` (lower case, or a custom verb) and path
    template as written (``/v1/{name=tasks/*}``), and ``body``."""

    verb: str
    path: str
    body: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ProtoRpc:
    name: str
    input: str  # fully qualified message names
    output: str
    client_streaming: bool
    server_streaming: bool
    http: tuple[HttpRule, ...]  # the binding, then its additional_bindings
    line: int
    column: int
    # the `idempotency_level` option: "NO_SIDE_EFFECTS", "IDEMPOTENT", "" when unknown or unset
    idempotency: str = ""


@dataclass(frozen=True, slots=True)
class ProtoService:
    name: str  # fully qualified
    rpcs: tuple[ProtoRpc, ...]
    line: int
    column: int


# The file options that name or shape the code generated for a language (descriptor.proto's
# FileOptions), each of which buf breaking's FILE_SAME_* rules hold unchanged.
LANGUAGE_OPTIONS = (
    "java_package",
    "java_outer_classname",
    "java_multiple_files",
    "java_generic_services",
    "java_string_check_utf8",
    "go_package",
    "optimize_for",
    "cc_generic_services",
    "cc_enable_arenas",
    "py_generic_services",
    "objc_class_prefix",
    "csharp_namespace",
    "swift_prefix",
    "php_class_prefix",
    "php_namespace",
    "php_metadata_namespace",
    "ruby_package",
)


@dataclass(frozen=True, slots=True)
class ProtoOption:
    """A language file option, as generated code reads it: its value, or its default when
    unset (``java_multiple_files`` unset is ``false``), where it is set (else the package)."""

    name: str
    value: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class ProtoFile:
    path: str  # the corpus path (or the page of a fence)
    package: str
    syntax: str  # "proto2", "proto3", "editions"
    imports: tuple[str, ...]
    messages: tuple[ProtoMessage, ...]  # nested ones too
    enums: tuple[ProtoEnum, ...]  # nested ones too
    services: tuple[ProtoService, ...]
    package_line: int = 1  # where the `package` statement is (1 when there is none)
    options: tuple[ProtoOption, ...] = ()  # the LANGUAGE_OPTIONS, each with its value


@dataclass(frozen=True)
class Compilation:
    """What protoc made of some files: the files it read (by corpus path), and its diagnostics
    (sorted, each once). ``unavailable`` says why protoc could not be run at all."""

    files: dict[str, ProtoFile] = field(default_factory=dict)
    problems: tuple[ProtoProblem, ...] = ()
    unavailable: str = ""


def syntax_of(text: str) -> str:
    """The ``syntax`` a file declares (``proto3``), or its edition (``edition 2023``); "" when
    it declares neither (protoc then reads it as proto2)."""
    found = _SYNTAX.search(text.lstrip("\ufeff"))
    if found is None:
        return ""
    value = found.group("value")
    return f"edition {value}" if found.group("keyword") == "edition" else value


def imports_of(text: str) -> tuple[str, ...]:
    return tuple(match.group("path") for match in _IMPORT.finditer(text))


def safe_path(path: str) -> bool:
    """Whether ``path`` is a relative POSIX path that stays inside its folder (and a name protoc
    accepts: no backslash, no ``.`` or ``..`` part)."""
    parts = path.split("/")
    return (
        bool(path)
        and not path.startswith("/")
        and "\\" not in path
        and "\x00" not in path
        and (all(part not in ("", ".", "..") for part in parts))
    )


def name_refusal(path: str) -> str:
    """Why protoc cannot be given ``path`` safely ("" when it can): a path out of its folder, an
    argument it reads as an option or a file of options, or a name that would make its
    diagnostics ambiguous (they are read by the name, up to ``:LINE:COLUMN: `` or ``: ``)."""
    if not safe_path(path):
        return "it is not a relative path of plain names: a backslash, or a `.` or `..` part"
    if path.startswith("-"):
        return "it starts with `-`, which protoc reads as an option"
    if path.startswith("@"):
        # `@file`: protoc reads the lines of `file` as more arguments, options too
        return "it starts with `@`, which protoc reads as a file of options"
    if any(unicodedata.category(character) == "Cc" for character in path):
        return "it has a control character, which would split or hide protoc's diagnostics"
    if re.search(r":[\d ]", path):
        return "it has a `:` before a digit or a space, which reads as a diagnostic's position"
    return ""


def include_roots(texts: Mapping[str, str]) -> list[str]:
    """The folders of the corpus that imports are relative to: the root, and a folder that
    makes an import resolve to a corpus file (``opentelemetry/proto/common/v1/common.proto``
    imported from files kept under ``proto/``) when the import names no file at the root; of
    several such folders, the nearest above the importing file. A folder is left out when it
    would give one of its files the name of another corpus file (protoc reads one file per
    name: the other would be shadowed). Deepest first, as protoc names a file by the first
    folder that holds it."""
    paths = set(texts)
    by_suffix: dict[str, list[str]] = {}
    for path in paths:
        parts = path.split("/")
        for index in range(1, len(parts)):
            by_suffix.setdefault("/".join(parts[index:]), []).append(path)
    wanted: set[str] = set()
    for importer, text in sorted(texts.items()):
        for imported in imports_of(text):
            if imported in paths:
                continue
            holders = sorted(path[: -len(imported) - 1] for path in by_suffix.get(imported, []))
            if not holders:
                continue
            above = [root for root in holders if importer.startswith(root + "/")]
            wanted.add(max(above, key=len) if above else holders[0])
    names = set(paths)
    kept = [""]
    for root in sorted(wanted, key=lambda r: (-r.count("/"), r)):
        under = [path[len(root) + 1 :] for path in paths if path.startswith(root + "/")]
        if any(name in names for name in under):
            continue
        kept.append(root)
        names.update(under)
    return sorted(kept, key=lambda root: (-root.count("/") - (root != ""), root))


# go.mod's `module` line (https://go.dev/ref/mod#go-mod-file-module): the path its folder's
# packages are imported by, and the prefix protoc-gen-go users give their protos' imports.
_GO_MODULE = re.compile(r'^module\s+"?(?P<path>[^\s"/][^\s"]*)"?\s*(?://.*)?$', re.MULTILINE)
# A Bazel proto_library's `import_prefix` (and `strip_import_prefix`), when written as one
# plain string: https://bazel.build/reference/be/protocol-buffer#proto_library.import_prefix
_BAZEL_PREFIX = re.compile(
    r'\b(?P<key>strip_import_prefix|import_prefix)\s*=\s*"(?P<value>[^"\n]*)"'
)
GO_MODULE_FILE = "go.mod"
BAZEL_BUILD_FILES = ("BUILD", "BUILD.bazel")


def module_prefixes(files: Mapping[str, str]) -> dict[str, str]:
    """The prefixes under which the repository's protos are imported by its own builds, each
    with the folder it stands for: a ``go.mod``'s module path (its folder), and a Bazel
    ``proto_library``'s ``import_prefix`` (the repository's root, or the folder its
    ``strip_import_prefix`` names: absolute from the root, or relative to the package). Read
    from ``files`` (path -> text), only such files; a BUILD file with several prefixes, or
    with one that is no plain relative path, gives none."""
    found: dict[str, str] = {}
    for path, text in sorted(files.items()):
        folder, _, name = path.rpartition("/")
        if name == GO_MODULE_FILE:
            module = _GO_MODULE.search(text)
            if module and safe_path(module.group("path")):
                found.setdefault(module.group("path"), folder)
        elif name in BAZEL_BUILD_FILES:
            written: dict[str, set[str]] = {}
            for match in _BAZEL_PREFIX.finditer(text):
                written.setdefault(match.group("key"), set()).add(match.group("value"))
            prefixes = written.get("import_prefix", set())
            strips = written.get("strip_import_prefix", set())
            if len(prefixes) != 1 or len(strips) > 1:
                continue
            prefix = next(iter(prefixes)).strip("/")
            strip = next(iter(strips), "")
            base = (
                strip[1:]
                if strip.startswith("/")
                else posixpath.join(folder, strip)
                if strip
                else ""
            )
            base = posixpath.normpath(base) if base else ""
            base = "" if base == "." else base
            if safe_path(prefix) and (not base or safe_path(base)):
                found.setdefault(prefix, base)
    return found


def prefixed_imports(
    sources: Mapping[str, str], roots: Sequence[str], prefixes: Mapping[str, str]
) -> dict[str, str]:
    """The imports that name a corpus file under one of the repository's own prefixes
    (``import "github.com/acme/api/proto/v1/x.proto"`` is ``proto/v1/x.proto`` of the module
    ``github.com/acme/api``), each with that file: only an import no include folder resolves,
    whose rest names a file of the corpus exactly, and that protoc can be given as a mapping
    (no ``=`` or ``:``, which it reads as a mapping's and a path list's separators)."""
    found: dict[str, str] = {}
    for text in sources.values():
        for name in imports_of(text):
            if name in found or not safe_path(name) or any(c in name for c in "=:"):
                continue
            if any((f"{root}/{name}" if root else name) in sources for root in roots):
                continue
            for prefix, folder in sorted(prefixes.items(), key=lambda item: -len(item[0])):
                if not name.startswith(prefix + "/"):
                    continue
                rest = name[len(prefix) + 1 :]
                path = f"{folder}/{rest}" if folder else rest
                if path in sources and not name_refusal(path) and not any(c in path for c in "=:"):
                    found[name] = path
                    break
    return found


def character_column(line_text: str, column: int) -> int:
    """The 1-based character column of protoc's 1-based column on ``line_text``: protoc counts
    bytes of UTF-8, and a tab as the spaces to the next multiple of 8."""
    visual = 0
    for index, character in enumerate(line_text):
        if visual >= column - 1:
            return index + 1
        if character == "\t":
            visual = (visual // 8 + 1) * 8
        else:
            visual += len(character.encode("utf-8", "surrogatepass"))
    return len(line_text) + 1 if visual < column - 1 else max(column, 1)


def _shipped_needed(
    sources: Mapping[str, str], shipped: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The shipped files (name, file) the sources import, and those they import in turn."""
    by_name = dict(shipped)
    needed: set[str] = set()
    pending = [name for text in sources.values() for name in imports_of(text) if name in by_name]
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.add(name)
            pending += [n for n in _shipped_imports(by_name[name]) if n in by_name]
    return [(name, by_name[name]) for name in sorted(needed)]


@cache
def _shipped_imports(full: str) -> tuple[str, ...]:
    """What a shipped .proto imports (read once per process)."""
    with open(full, encoding="utf-8") as handle:
        return tuple(imports_of(handle.read()))


@cache
def _googleapis_protos() -> list[tuple[str, str]]:
    """googleapis-common-protos' ``.proto`` sources: (name below the include folder, file)."""
    spec = util.find_spec("google.api")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if not os.path.isfile(os.path.join(folder, "http.proto")):
            continue
        base = os.path.dirname(os.path.dirname(folder))
        found = []
        for here, _, files in os.walk(os.path.join(base, "google")):
            for name in sorted(files):
                if name.endswith(".proto"):
                    full = os.path.join(here, name)
                    found.append((os.path.relpath(full, base).replace(os.sep, "/"), full))
        return sorted(found)
    return []


@cache
def _wkt_names() -> frozenset[str]:
    """The well-known types grpcio-tools ships (``google/protobuf/*.proto``), which its protoc
    finds by itself."""
    spec = util.find_spec("grpc_tools")
    if spec is None or not spec.origin:
        return frozenset()
    base = os.path.join(os.path.dirname(spec.origin), "_proto")
    found = set()
    for here, _, files in os.walk(base):
        for name in files:
            if name.endswith(".proto"):
                found.add(os.path.relpath(os.path.join(here, name), base).replace(os.sep, "/"))
    return frozenset(found)


def _packages() -> str:
    """Where grpcio-tools and what it imports are installed, for a child that is given no other
    environment (an install beside the user's, or on ``PYTHONPATH``, is found all the same)."""
    folders: list[str] = []
    for name in ("grpc_tools", "grpc", "google.protobuf"):
        spec = util.find_spec(name)
        if spec is None or not spec.origin:
            continue
        folder = os.path.dirname(os.path.dirname(spec.origin))
        if name == "google.protobuf":
            folder = os.path.dirname(folder)
        if folder not in folders:
            folders.append(folder)
    return os.pathsep.join(folders)


def _protoc_available() -> str:
    """Why protoc cannot be run ("" when it can)."""
    if util.find_spec("grpc_tools") is None:
        return "protoc is not installed (the grpcio-tools package)"
    return ""


@dataclass
class _Run:
    """One private folder: the corpus files under ``src`` (protoc's working folder), empty
    files for imports found nowhere under ``stubs``, googleapis' sources under ``shipped``.
    ``names``: what protoc may call a file in its diagnostics, and the corpus path it is ("" for
    a stub or a shipped file). The runs share a budget of work: ``budget`` bytes of corpus files
    read (``work`` so far), and then one run more (``late``)."""

    folder: str
    roots: list[str]
    time_limit: float
    budget: int = PROTOC_BUDGET
    work: int = 0
    names: dict[str, str] = field(default_factory=dict)
    late: bool = False
    # An import under the repository's own module path, and the corpus file it names
    # (``prefixed_imports``): protoc maps the one to the other (``-INAME=PATH``), first.
    aliases: dict[str, str] = field(default_factory=dict)

    def write(self, sources: Mapping[str, str], base: str = "src") -> None:
        for path, text in sources.items():
            target = os.path.join(self.folder, base, *path.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="", errors="surrogatepass") as out:
                out.write(text)

    def spent(self) -> bool:
        return self.work >= self.budget

    def protoc(self, inputs: Sequence[str]) -> tuple[int, str, bytes]:
        """protoc's exit code, diagnostics and descriptor set for ``inputs`` (corpus paths)."""
        out = os.path.join(self.folder, "set.pb")
        if os.path.exists(out):
            os.remove(out)
        includes = [f"-I{name}={path}" for name, path in sorted(self.aliases.items())]
        includes += [f"-I{root}" if root else "-I." for root in self.roots]
        # -P: the working folder (the copies, named by the repository) is not on sys.path, so no
        # file there is imported as a module; -s: nor is the user's site folder, and PYTHONPATH is
        # the one given here (where the parent found grpcio-tools), the only environment it reads.
        command = [
            sys.executable,
            "-P",
            "-s",
            "-m",
            "grpc_tools.protoc",
            *includes,
            "-I../stubs",
            "-I../shipped",
            "--include_imports",
            "--include_source_info",
            "--descriptor_set_out=../set.pb",
            *inputs,
        ]
        environment = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C", "PYTHONPATH": _packages()}
        try:
            done = subprocess.run(
                command,
                cwd=os.path.join(self.folder, "src"),
                capture_output=True,
                timeout=self.time_limit,
                env=environment,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return _TIMED_OUT, f"protoc took more than {self.time_limit:g} s", b""
        blob = b""
        if done.returncode == 0 and os.path.exists(out):
            with open(out, "rb") as handle:
                blob = handle.read()
        return done.returncode, done.stderr.decode("utf-8", "replace"), blob


def compile_protos(
    sources: Mapping[str, str],
    inputs: Sequence[str] | None = None,
    time_limit: float = PROTOC_TIME_LIMIT,
    unreadable: Iterable[str] = (),
    apart: Collection[str] = (),
    budget: int = PROTOC_BUDGET,
    prefixes: Mapping[str, str] | None = None,
) -> Compilation:
    """Compile ``inputs`` (default: every file of ``sources``, corpus path -> text), the other
    sources importable, and read what compiles. ``unreadable``: corpus ``.proto`` files that
    could not be read (an import of one is said to be so). ``apart``: inputs compiled each by
    itself, not as part of the corpus's one program (an example may repeat a message the
    corpus defines). ``budget``: bytes of corpus files protoc may read over all its runs but the
    last. ``prefixes``: the repository's own import prefixes, prefix -> the folder it names
    (:func:`module_prefixes`).

    A file whose path protoc cannot take safely (:func:`name_refusal`) is not compiled and is
    reported; nothing is ever written out of the private folder."""
    unavailable = _protoc_available()
    if unavailable:
        return Compilation(unavailable=unavailable)
    refused = {path: name_refusal(path) for path in sources if name_refusal(path)}
    sources = {path: text for path, text in sources.items() if path not in refused}
    wanted = sorted(p for p in (sources if inputs is None else inputs) if p in sources)
    problems: list[ProtoProblem] = [
        ProtoProblem(
            path, 1, 1, f"not compiled: protoc cannot be given this name safely ({why})", "unread"
        )
        for path, why in refused.items()
    ]
    roots = include_roots(sources)
    shipped = _googleapis_protos()
    known = _wkt_names() | {name for name, _ in shipped}
    aliases = prefixed_imports(sources, roots, prefixes or {})
    missing = _missing_imports(sources, roots, known) - aliases.keys()
    lost = set(unreadable)
    with tempfile.TemporaryDirectory(prefix="speclint-protoc-") as folder:
        os.chmod(folder, 0o700)
        run = _Run(folder, roots, time_limit, budget, aliases=aliases)
        run.write(sources)
        # the shipped .protos the sources reach (imports of imports), nothing else of the install
        needed = _shipped_needed(sources, shipped)
        for name, full in needed:
            target = os.path.join(folder, "shipped", *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.symlink(full, target)
        run.write({name: _STUB for name in missing}, "stubs")
        for base in ("stubs", "shipped"):  # each -I a folder (protoc warns of one that is not)
            os.makedirs(os.path.join(folder, base), exist_ok=True)
        # a corpus file's name first: protoc looks in the corpus before stubs and shipped files
        others = [name for name, _ in needed] + sorted(missing)
        run.names = dict.fromkeys(others, "") | _protoc_names(run, sources)
        files, found = _compile(run, sources, wanted, missing, set(apart))
    problems += found
    for path in wanted:
        for name in imports_of(sources[path]):
            if name not in missing:
                continue
            corpus = next(
                (
                    f"{r}/{name}" if r else name
                    for r in roots
                    if (f"{r}/{name}" if r else name) in lost
                ),
                None,
            )
            line, column = _import_site(sources[path], name)
            message = (
                f'the import "{name}" is the corpus file {corpus}, which could not be read '
                "(parse-error says why): the file was read without it (its options ignored)"
                if corpus
                else f'the import "{name}" is neither in the corpus nor shipped with protoc or '
                "googleapis-common-protos: the file was read without it (its options ignored)"
            )
            problems.append(ProtoProblem(path, line, column, message, "import"))
    timed_out = next((p.message for p in problems if p.kind == "timeout"), "")
    return Compilation(files, tuple(sorted(set(problems), key=_problem_order)), timed_out)


def _protoc_names(run: _Run, sources: Mapping[str, str]) -> dict[str, str]:
    """What protoc may call a corpus file (its path below each include folder that holds it),
    and the corpus path that name is (protoc takes the first folder that has it)."""
    names: dict[str, str] = dict(run.aliases)
    for path in sources:
        for root in run.roots:
            if not root or path.startswith(root + "/"):
                name = path[len(root) + 1 :] if root else path
                corpus = _corpus_path(name, run, sources)
                if corpus is not None:
                    names[name] = corpus
    return names


def _missing_imports(
    sources: Mapping[str, str], roots: Sequence[str], known: Collection[str]
) -> set[str]:
    """The imports that name no corpus file (under any include folder) and nothing shipped."""
    found: set[str] = set()
    for text in sources.values():
        for name in imports_of(text):
            if not safe_path(name) or name in known:
                continue
            if not any((f"{root}/{name}" if root else name) in sources for root in roots):
                found.add(name)
    return found


def _compile(
    run: _Run,
    sources: Mapping[str, str],
    wanted: Sequence[str],
    missing: set[str],
    apart: set[str],
) -> tuple[dict[str, ProtoFile], list[ProtoProblem]]:
    """Every input compiled in as few protoc runs as it takes. protoc writes nothing when an
    input fails and stops at the first input that fails, so each run's failing files leave the
    set and the rest is compiled again, the inputs protoc got past last (they compile: a big
    one is read once more at the end, not once per broken file); options an import found
    nowhere would have declared are blanked where protoc names them (spaces: lines and columns
    stay; a pass that blanks some does not count against the passes, as each blanks a `(` at
    least). When the runs' budget is spent, or the passes run out, what protoc has not got past
    is not compiled, and is said so."""
    texts = dict(sources)
    closure = _import_closure(sources, run.roots, run.aliases)
    affected = {path for path, reached in closure.items() if reached & missing}
    remaining = [path for path in wanted if path not in apart]
    solo: set[str] = set(apart)
    passed: set[str] = set()  # inputs protoc got past in a run that failed later on
    left: list[str] = []  # inputs the budget left unread
    late_run_done = False
    exhausted: list[str] = []  # inputs left when the passes ran out
    errors: list[ProtoProblem] = []
    warnings: list[ProtoProblem] = []
    files: dict[str, ProtoFile] = {}
    rewritten: dict[str, list[tuple[int, int]]] = {}  # path -> lines (first, last) near a blank
    unblanked: set[str] = set()  # an option of a missing import that could not be set aside
    # Each pass that sets options aside blanks one `(` at least, so those passes are bounded by
    # the files' `(`s; they do not count against the passes that take files out of the run.
    blank_passes = sum(texts[path].count("(") for path in affected)

    def set_aside(located: Sequence[ProtoProblem]) -> bool:
        """Blank the options protoc did not know in files that import what is nowhere: whether
        any was (the files are written again, to be compiled once more)."""
        nonlocal blank_passes
        unknown = [
            d
            for d in located
            if d.kind == "error" and d.path in affected and _UNKNOWN_OPTION.match(d.message)
        ]
        changed = {}
        for path in sorted({d.path for d in unknown}):
            text, near, missed = blank_options(
                texts[path], [(d.line, d.column) for d in unknown if d.path == path]
            )
            rewritten.setdefault(path, []).extend(near)
            if missed:
                unblanked.add(path)
            if text != texts[path]:
                changed[path] = texts[path] = text
        if not changed or blank_passes <= 0:
            return False
        blank_passes -= 1
        run.write(changed)
        return True

    def read_cost(read: Sequence[str]) -> int:
        """The bytes of corpus files protoc read to build ``read``: they and their imports."""
        reached = set(read).union(*(closure[path] for path in read)) & texts.keys()
        return sum(len(texts[path]) for path in reached)

    # Files that share no import (a legacy copy of a model beside the current one, each built
    # alone) are compiled apart: together, protoc would find each name they share "already
    # defined". Components that define no name in common share a run (one run for most corpora).
    groups = _run_groups(remaining, sources, closure)
    passes = allowed = len(wanted) + len(groups) - 1 + _PASSES
    for remaining in groups:
        while True:
            if passes <= 0:  # out of passes: what is left was not compiled, and is said so
                exhausted += [path for path in remaining if path not in left]
                remaining = []
                break
            passes -= 1
            if run.spent():
                # One last run, of the files protoc got past (they compile); in a later group,
                # none (its files are none of those).
                run.late = True
                left += [path for path in remaining if path not in passed]
                remaining = [path for path in remaining if path in passed]
            if not remaining:
                break
            if late_run_done:  # the one run past the budget is done: the rest is left unread
                left += remaining
                break
            late_run_done = run.late
            inputs = [p for p in remaining if p not in passed] + [
                p for p in remaining if p in passed
            ]
            code, stderr, blob = run.protoc(inputs)
            if code == _TIMED_OUT:
                return files, [ProtoProblem(inputs[0], 1, 1, stderr, "timeout")]
            located, unlocated = _diagnostics(stderr, run, sources)
            if code == 0:
                run.work += read_cost(inputs)
                warnings += [d for d in located if d.kind == "warning"]
                files.update(_read_set(blob, run, sources, remaining))
                break
            failing = {d.path for d in located + unlocated if d.kind == "error"}
            stop = next(
                (i for i, path in enumerate(inputs) if path in failing or closure[path] & failing),
                0,
            )
            run.work += read_cost(inputs[: stop + 1])
            # protoc built the inputs before the one it stopped at, and what they import
            got_past = set(inputs[:stop])
            passed |= got_past | {name for path in got_past for name in closure[path]}
            twins = {d.path for d in located if _two_names(d, run, sources)}
            if twins:  # one file imported under two names: compiled apart, the names reported
                apart = twins | {path for path in sources if closure[path] & twins}
                warnings += _aliases(twins, run, sources)
                solo |= apart
                remaining = [path for path in remaining if path not in apart]
                continue
            if set_aside(located):
                passes += 1  # a pass that set options aside is not one that took files out
                continue
            errors += [d for d in located + unlocated if d.kind == "error"]
            leaving = set(failing)
            # What imports a failing file fails with it: it leaves now, not one protoc run each.
            leaving |= {path for path in remaining if closure[path] & leaving}
            leaving &= set(remaining)
            if not leaving:  # protoc failed and named no input: each is said to have failed
                first = next((line for line in stderr.splitlines() if line.strip()), "no message")
                errors += [
                    ProtoProblem(path, 1, 1, f"protoc failed (exit {code}): {first}")
                    for path in remaining
                ]
                break
            remaining = [path for path in remaining if path not in leaving]
    for path in sorted(solo & set(wanted)):
        if run.spent():
            left.append(path)
            continue
        while True:  # once more after each pass that sets options aside
            code, stderr, blob = run.protoc([path])
            run.work += read_cost([path])
            if code == 0:
                files.update(_read_set(blob, run, sources, [path]))
            elif code != _TIMED_OUT:
                located, unlocated = _diagnostics(stderr, run, sources)
                if set_aside(located):
                    continue
                errors += [
                    d for d in located if d.kind == "error" and not _two_names(d, run, sources)
                ] + [d for d in unlocated if d.kind == "error"]
            break
    seen = _seen_missing(sources, run.roots, run.aliases, missing)
    own = [d for d in errors if not _cascade(d, sources, closure, missing, errors, seen)]
    own += _not_checked(own, rewritten, unblanked, closure, files, wanted)
    unchecked = {d.path for d in own if d.kind == REWRITE}
    own = [d for d in own if not (d.kind == "error" and d.path in unchecked)]
    own += _wanting(errors, own, closure, missing, files, wanted)
    own += [
        ProtoProblem(
            path,
            1,
            1,
            "not compiled: protoc was run as many times as speclint allows for one corpus "
            f"({allowed}) before it got to this file",
            "passes",
        )
        for path in exhausted
    ]
    spent = [
        ProtoProblem(
            path,
            1,
            1,
            f"not compiled: protoc's runs spent their budget of work ({run.budget:,} bytes "
            "read) on the other files before they got to this one",
            "budget",
        )
        for path in left
    ]
    return files, own + [w for w in warnings if not _unused_stub(w, missing)] + spent


def _not_checked(
    errors: Sequence[ProtoProblem],
    rewritten: Mapping[str, Sequence[tuple[int, int]]],
    unblanked: set[str],
    closure: Mapping[str, set[str]],
    files: Mapping[str, ProtoFile],
    wanted: Sequence[str],
) -> list[ProtoProblem]:
    """A file speclint rewrote (the options of a missing import set aside) that protoc then
    rejected at the rewritten text, or one whose such option could not be set aside, was not
    checked: what protoc says of it is about speclint's text, not the author's. Said once per
    file, and once for each file that fails only because it imports one."""
    found: dict[str, ProtoProblem] = {}
    for path in sorted({d.path for d in errors if d.kind == "error"}):
        own = [d for d in errors if d.path == path and d.kind == "error"]
        near = [
            d
            for d in own
            if _SYNTAX_ERROR.match(d.message)
            and any(first <= d.line <= last for first, last in rewritten.get(path, ()))
        ]
        unknown = [d for d in own if _UNKNOWN_OPTION.match(d.message)] if path in unblanked else []
        if near or unknown:
            at = (near or unknown)[0]
            found[path] = ProtoProblem(
                path,
                at.line,
                at.column,
                "not checked: its custom options come from an import that is not here, and "
                "protoc could not read the file once speclint set them aside "
                f"(protoc: {at.message.rstrip('.')})",
                REWRITE,
            )
    reported = {d.path for d in errors}
    for path in wanted:
        if path in files or path in reported or path in found:
            continue
        cause = sorted(closure.get(path, set()) & found.keys())
        if cause:
            found[path] = ProtoProblem(
                path,
                1,
                1,
                f"not checked: it imports {cause[0]}, which was not checked",
                REWRITE,
            )
    return list(found.values())


def _wanting(
    errors: Sequence[ProtoProblem],
    own: Sequence[ProtoProblem],
    closure: Mapping[str, set[str]],
    missing: set[str],
    files: Mapping[str, ProtoFile],
    wanted: Sequence[str],
) -> list[ProtoProblem]:
    """A file protoc rejected only for what an import not in the repository would have defined
    (each of its errors explained so, by :func:`_cascade`, directly or through a corpus file
    that fails the same way) was not checked: it may well compile in its own build, which has
    that dependency. Said once per file, at protoc's first error, so the run lists it among what
    it did not check; a file whose failure comes from a corpus file's own error is not (that
    error is reported, once, where it is)."""
    said = {d.path for d in own}
    found: dict[str, ProtoProblem] = {}
    for path in wanted:
        if path in files or path in said or not closure.get(path, set()) & missing:
            continue
        if closure[path] & said:  # an import with an error of its own, reported there
            continue
        first = next((d for d in errors if d.path == path and d.kind == "error"), None)
        if first is not None:
            found[path] = ProtoProblem(
                path,
                first.line,
                first.column,
                "not checked: protoc cannot compile it without what an import not in the "
                f"repository defines (protoc: {first.message.rstrip('.')})",
                DEPENDENCY,
            )
    # What imports such a file left the runs with it, never compiled: not checked either.
    for path in wanted:
        if path in files or path in said or path in found:
            continue
        cause = sorted(closure.get(path, set()) & found.keys())
        if cause and not closure[path] & said:
            found[path] = ProtoProblem(
                path,
                1,
                1,
                f"not checked: it imports {cause[0]}, which protoc cannot compile without an "
                "import not in the repository",
                DEPENDENCY,
            )
    return list(found.values())


_ALREADY = re.compile(r'^"[^"]+" is already defined in file "(?P<file>[^"]+)"\.$')


def _two_names(problem: ProtoProblem, run: _Run, sources: Mapping[str, str]) -> bool:
    """protoc's "already defined" where the other file is this one under another name."""
    found = _ALREADY.match(problem.message)
    return found is not None and _corpus_path(found.group("file"), run, sources) == problem.path


def _aliases(twins: set[str], run: _Run, sources: Mapping[str, str]) -> list[ProtoProblem]:
    """A warning at each import that names one of ``twins`` otherwise than protoc names it."""
    found = []
    for path in twins:
        named = next(
            (path[len(root) + 1 :] if root else path)
            for root in run.roots
            if not root or path.startswith(root + "/")
        )
        for importer, text in sorted(sources.items()):
            for name in imports_of(text):
                if name != named and _corpus_path(name, run, sources) == path:
                    found.append(
                        ProtoProblem(
                            importer,
                            *_import_site(text, name),
                            f'imports "{name}", which other files import as "{named}": '
                            "compiled together, protoc reads one file under two names (each "
                            'definition "already defined"); import it by one name',
                            "alias",
                        )
                    )
    return found


def _run_groups(
    inputs: Sequence[str], sources: Mapping[str, str], closure: Mapping[str, set[str]]
) -> list[list[str]]:
    """The inputs in groups, each compiled by runs of its own: the components of the import
    graph (files linked by an import, either way, or by a file both import), put together in
    as few groups as can be without two components of one group defining one name (a file's
    package-level names: its messages, enums, services, top-level enum values and extensions,
    C++ scoping, descriptor.cc; and a package and a name it would clash with). protoc loads
    each input and what it imports into one pool, so files of one component are compiled
    together (a name defined twice there is one the author's build meets too), and components
    that share no name may share a run. Inputs keep their order within a group."""
    parent: dict[str, str] = {}

    def find(path: str) -> str:
        parent.setdefault(path, path)
        while parent[path] != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    for path in inputs:
        for other in closure.get(path, set()) & sources.keys():
            first, second = find(path), find(other)
            if first != second:
                parent[max(first, second)] = min(first, second)
    components: dict[str, list[str]] = {}
    for path in inputs:
        components.setdefault(find(path), []).append(path)
    if len(components) < 2:
        return [list(inputs)] if inputs else []
    groups: list[tuple[list[str], set[str], set[str]]] = []  # inputs, names, packages
    for members in components.values():
        reached = set(members).union(*(closure.get(p, set()) for p in members)) & sources.keys()
        names: set[str] = set()
        packages: set[str] = set()
        for path in sorted(reached):
            declared, package = _declarations(sources[path])
            names |= declared
            packages |= {".".join(package.split(".")[:n]) for n in range(1, package.count(".") + 2)}
        packages.discard("")
        for grouped, taken, spaces in groups:
            if not (names & (taken | spaces) or packages & taken):
                grouped += members
                taken |= names
                spaces |= packages
                break
        else:
            groups.append((list(members), names, packages))
    order = {path: index for index, path in enumerate(inputs)}
    return [sorted(grouped, key=order.__getitem__) for grouped, _, _ in groups]


# A .proto's tokens as far as its package-level names go: comments and strings skipped whole.
_DECLARATION_TOKENS = re.compile(
    r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:\\.|[^\"\\\n])*\"?|'(?:\\.|[^'\\\n])*'?"
    r"|[A-Za-z_][\w.]*|[{}\[\]=;()]",
    re.DOTALL,
)


def _declarations(text: str) -> tuple[set[str], str]:
    """The package-level names a file defines, fully qualified, and its package: its top-level
    messages, enums and services, the values of its top-level enums (siblings of their enum,
    C++ scoping) and the fields of its top-level ``extend`` blocks. Read by tokens, not by
    protoc: a name missed here only puts two files in one run, as before."""
    names: set[str] = set()
    package = ""
    blocks: list[str] = []  # the kind of each open `{`
    pending = ""
    brackets = 0
    previous: list[str] = ["", ""]
    top: list[str] = []
    for match in _DECLARATION_TOKENS.finditer(text):
        token = match.group()
        if token.startswith(("//", "/*", '"', "'")):
            continue
        if token == "{":
            blocks.append(pending)
            pending = ""
        elif token == "}":
            if blocks:
                blocks.pop()
        elif token == "[":
            brackets += 1
        elif token == "]":
            brackets = max(brackets - 1, 0)
        elif not blocks:
            if previous[-1] == "package" and token[0].isalpha():
                package = token
            elif previous[-1] in ("message", "enum", "service") and token[0].isalpha():
                top.append(token)
                pending = previous[-1]
            elif token == "extend":
                pending = token
        elif (
            len(blocks) == 1
            and blocks[0] in ("enum", "extend")
            and token == "="
            and not brackets
            and previous[-1][:1].isalpha()
            and previous[-2] != "option"
        ):
            top.append(previous[-1])
        previous = [previous[-1], token]
    prefix = f"{package}." if package else ""
    names.update(prefix + name for name in top)
    return names, package


def _import_closure(
    sources: Mapping[str, str], roots: Sequence[str], aliases: Mapping[str, str] | None = None
) -> dict[str, set[str]]:
    """Each file's imports, transitively (as written, and as corpus paths when they are)."""
    aliases = aliases or {}
    direct: dict[str, set[str]] = {}
    for path, text in sources.items():
        names = set(imports_of(text))
        for name in list(names):
            names |= {f"{r}/{name}" if r else name for r in roots} & sources.keys()
            if name in aliases:
                names.add(aliases[name])
        direct[path] = names
    closure: dict[str, set[str]] = {}
    for path in sources:
        seen: set[str] = set()
        work = [path]
        while work:
            for name in direct.get(work.pop(), ()):
                if name not in seen:
                    seen.add(name)
                    work.append(name)
        closure[path] = seen
    return closure


def _cascade(
    problem: ProtoProblem,
    sources: Mapping[str, str],
    closure: Mapping[str, set[str]],
    missing: set[str],
    errors: Sequence[ProtoProblem],
    seen: Mapping[str, set[str]] | None = None,
) -> bool:
    """A diagnostic another failure explains: an import that failed (a corpus file with errors
    of its own, reported there, or one found nowhere, reported as such), or a name such an
    import would have defined. ``seen``: the imports found nowhere whose names each file sees
    (:func:`_seen_missing`)."""
    message = problem.message
    reached = closure.get(problem.path, set())
    failing = {d.path for d in errors if d.path != problem.path} & reached
    if message.startswith("Import ") and message.endswith("was not found or had errors."):
        name = message.split('"')[1] if '"' in message else ""
        return name in missing or any(path.endswith(name) for path in failing)
    resolved = _RESOLVED.match(message)
    elsewhere = _ELSEWHERE.match(message)
    if message.endswith("is not defined.") or resolved or elsewhere:
        # `"type.v3.X" is resolved to "a.type.v3.X", which is not defined.`: the name protoc
        # looked for is the second one. `"envoy.type" seems to be defined in "r.proto", which is
        # not imported by ...`: protoc found the first part of a relative name as a package of a
        # file it did not import, and looked no further because the import that declares that
        # package too failed (descriptor.cc, FindSymbol: a package is accepted when any direct
        # dependency is in it, and a dependency that failed is none).
        group = resolved or elsewhere
        name = group.group(1) if group else message.split('"')[1] if '"' in message else ""
        name = name.lstrip(".")
        last = name.rsplit(".", 1)[-1]
        declared = re.compile(rf"\b(?:message|enum|service)\s+{re.escape(last)}\b")
        if any(declared.search(sources[path]) for path in failing):
            return True
        packages = {_package(sources[path]) for path in failing} - {""}
        if any(
            name.startswith(package + ".") or package == name or package.startswith(name + ".")
            for package in packages
        ):
            return True
        # An import found nowhere that the file sees (its own, or one an import of its own
        # re-exports with `import public`) may define a qualified name in any package: what is
        # stubbed is unknown, so the name is a dependency gap, not the author's error (batch 5:
        # a Go module path's folders, `github.com/acme/api/...`, say nothing of the package).
        # It clearly cannot define a name of `google.protobuf` (protoc ships that package
        # whole), nor an unqualified name, which protoc looks up only in the file's package and
        # its parents (descriptor.cc, LookupSymbol), unless its package may be one of those
        # (:func:`_may_hold`).
        written = message.split('"')[1] if '"' in message else name
        stubs = (seen or {}).get(problem.path, set())
        if (
            stubs
            and not name.startswith(_SHIPPED_WHOLE)
            and (
                "." in written
                or any(_may_hold(stub, _package(sources[problem.path])) for stub in stubs)
            )
        ):
            return True
        prefix = name.rsplit(".", 1)[0] if "." in name else ""
        return bool(prefix) and any(
            name_dir.replace("/", ".").startswith(prefix)
            or prefix.startswith(name_dir.replace("/", "."))
            for name_dir in (posixpath.dirname(m) for m in missing & reached)
            if name_dir
        )
    return False


_SHIPPED_WHOLE = "google.protobuf."  # the well-known types' package: every file of it is shipped
_PUBLIC_IMPORT = re.compile(r'^[ \t]*import\s+public\s+"(?P<path>[^"\n]+)"\s*;', re.MULTILINE)


def _may_hold(stub: str, package: str) -> bool:
    """Whether an import found nowhere may be of ``package`` or one of its parents (where an
    unqualified name of a file of ``package`` is looked up): one at the root, or under a Go
    import path (a first folder named by a host, ``github.com/...``: its folders say nothing of
    its package), or whose folders are such a package (a buf module's package is its folders,
    buf's PACKAGE_DIRECTORY_MATCH)."""
    folder = posixpath.dirname(stub)
    if not folder or "." in folder.split("/")[0]:
        return True
    declared = folder.replace("/", ".")
    return package == declared or package.startswith(declared + ".")


def _seen_missing(
    sources: Mapping[str, str],
    roots: Sequence[str],
    aliases: Mapping[str, str],
    missing: set[str],
) -> dict[str, set[str]]:
    """The imports found nowhere whose names each file sees: its own, and those a corpus file
    it imports re-exports with ``import public``, through any chain of them (protoc resolves a
    name through the file's direct imports and their public ones, descriptor.cc)."""

    def corpus(name: str) -> str | None:
        if name in aliases:
            return aliases[name]
        return next(
            (
                f"{r}/{name}" if r else name
                for r in roots
                if (f"{r}/{name}" if r else name) in sources
            ),
            None,
        )

    found: dict[str, set[str]] = {}
    for path, text in sources.items():
        seen: set[str] = set()
        visited: set[str] = set()
        work = list(imports_of(text))
        while work:
            name = work.pop()
            if name in missing:
                seen.add(name)
                continue
            imported = corpus(name)
            if imported is None or imported in visited:
                continue
            visited.add(imported)
            work += [m.group("path") for m in _PUBLIC_IMPORT.finditer(sources[imported])]
        if seen:
            found[path] = seen
    return found


_PACKAGE = re.compile(r"^[ \t]*package\s+([\w.]+)\s*;", re.MULTILINE)
_RESOLVED = re.compile(r'^"[^"]+" is resolved to "([^"]+)", which is not defined\.')
_ELSEWHERE = re.compile(r'^"([^"]+)" seems to be defined in "[^"]+", which is not imported by ')


def _package(text: str) -> str:
    found = _PACKAGE.search(text)
    return found.group(1) if found else ""


def _unused_stub(problem: ProtoProblem, missing: set[str]) -> bool:
    """protoc's "Import x is unused" of an import that is an empty stand-in."""
    return problem.message.startswith("Import ") and any(
        problem.message == f"Import {name} is unused." for name in missing
    )


def _problem_order(problem: ProtoProblem) -> tuple[str, int, int, str, str]:
    return problem.path, problem.line, problem.column, problem.kind, problem.message


def _import_site(text: str, name: str) -> tuple[int, int]:
    """The 1-based line and column of the ``import`` of ``name``."""
    for match in _IMPORT.finditer(text):
        if match.group("path") == name:
            at = match.start("keyword")
            return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    return 1, 1


@dataclass(frozen=True, slots=True)
class _Token:
    start: int
    end: int
    text: str


def _tokens(text: str) -> list[_Token]:
    """The tokens of a .proto file as protoc's tokenizer splits it, comments and whitespace left
    out: a quoted string (``"a//b"``, its escapes; it ends at its line's end, as protoc's does),
    a word (a name or a number), or one character of punctuation."""
    found: list[_Token] = []
    index, size = 0, len(text)
    while index < size:
        character = text[index]
        if character.isspace():
            index += 1
        elif text.startswith("//", index):
            newline = text.find("\n", index)
            index = size if newline < 0 else newline
        elif text.startswith("/*", index):
            close = text.find("*/", index + 2)
            index = size if close < 0 else close + 2
        elif character in "\"'":
            end = index + 1
            while end < size and text[end] not in (character, "\n"):
                end += 2 if text[end] == "\\" else 1
            end = min(end + 1, size) if end < size and text[end] == character else min(end, size)
            found.append(_Token(index, end, text[index:end]))
            index = end
        elif character.isalnum() or character in "_.":
            end = index + 1
            while end < size and (text[end].isalnum() or text[end] in "_."):
                end += 1
            found.append(_Token(index, end, text[index:end]))
            index = end
        else:
            found.append(_Token(index, index + 1, character))
            index += 1
    return found


def _option_tokens(tokens: Sequence[_Token], first: int) -> tuple[int, int] | None:
    """The tokens (first and last index) to blank for the option whose name starts at token
    ``first``: a whole ``option (x) = ...;`` statement (comments between ``option`` and the
    name too), or one ``(x) = ...`` of a ``[...]`` list with the comma that separates it from a
    neighbour (the one after it; the one before it when it is the last, whatever comment is
    between them: ``a = 1, // why`` must not keep its comma before ``]``), the brackets too
    when it is the only one. An aggregate value ``{...}`` may span lines and hold comments and
    strings with ``}`` or ``//``: tokens are read as protoc reads them."""
    depth, last = 0, first
    while last < len(tokens):
        token = tokens[last].text
        if token in ("{", "[", "(", "<"):
            depth += 1
        elif token in ("}", "]", ")", ">") and depth > 0:
            depth -= 1
        elif depth == 0 and token in (";", ",", "]", "}"):
            break
        last += 1
    if last >= len(tokens) or last == first:
        return None
    stop = tokens[last].text
    before = tokens[first - 1].text if first > 0 else ""
    if before == "option":  # a statement: from `option` to its `;`
        return (first - 1, last) if stop == ";" else None
    if stop == "," and before in ("[", ","):  # not the last of its list: it and its comma
        return first, last
    if stop == "]" and before == ",":  # the last of several: the comma before it, and it
        return first - 1, last - 1
    if stop == "]" and before == "[":  # the only one: the brackets too
        return first - 1, last
    return None


def blank_options(
    text: str, positions: Iterable[tuple[int, int]]
) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    """``text`` with the options whose names start at ``positions`` (1-based line and character
    column; protoc points at the ``(`` of ``(google.api.http)``) replaced by spaces, lines and
    columns kept, so that what is left is as valid as the file was (:func:`_option_tokens`);
    the lines near each blank (from the token before it to the token after it: where protoc
    would point if what is left did not parse); and the positions where no option was found.
    The file is read into tokens once, whatever the number of options."""
    starts = [0]
    for index, character in enumerate(text):
        if character == "\n":
            starts.append(index + 1)
    tokens = _tokens(text)
    token_starts = [token.start for token in tokens]
    spans: list[tuple[int, int]] = []
    near: list[tuple[int, int]] = []
    missed: list[tuple[int, int]] = []
    # From the last to the first: a blank changes no position before it, and the tokens left
    # are what the next option's neighbours are judged by ([a, (x) = 1, (y) = 2]: both go).
    for line, column in sorted(set(positions), reverse=True):
        at = starts[line - 1] + column - 1 if 0 < line <= len(starts) else -1
        first = bisect.bisect_left(token_starts, at)
        found = (
            _option_tokens(tokens, first)
            if first < len(tokens) and tokens[first].start == at
            else None
        )
        if found is None:
            missed.append((line, column))
            continue
        begin, end = tokens[found[0]].start, tokens[found[1]].end
        spans.append((begin, end))
        del tokens[found[0] : found[1] + 1]
        del token_starts[found[0] : found[1] + 1]
        before = tokens[found[0] - 1].start if found[0] > 0 else 0
        after = tokens[found[0]].end if found[0] < len(tokens) else len(text)
        near.append((text.count("\n", 0, before) + 1, text.count("\n", 0, after) + 1))
    for begin, end in spans:
        text = text[:begin] + re.sub(r"[^\n]", " ", text[begin:end]) + text[end:]
    return text, near, missed


def blank_option(text: str, line: int, column: int) -> str:
    """``text`` with the option whose name starts at ``line``:``column`` replaced by spaces
    (:func:`blank_options`; ``text`` itself when none starts there)."""
    return blank_options(text, [(line, column)])[0]


def _corpus_path(name: str, run: _Run, sources: Mapping[str, str]) -> str | None:
    """The corpus path of protoc's name for a file (its name below the first include folder
    that holds it), or None for a stub or a shipped file."""
    name = name.replace("\\", "/")
    if name in run.aliases:
        return run.aliases[name]
    for root in run.roots:
        path = f"{root}/{name}" if root else name
        if path in sources:
            return path
    return None


def _diagnostics(
    stderr: str, run: _Run, sources: Mapping[str, str]
) -> tuple[list[ProtoProblem], list[ProtoProblem]]:
    """protoc's diagnostics of corpus files: located (``NAME:LINE:COL: message``), and unlocated
    (``NAME: Input is shadowed ...``), these at the file's first line. A line is read by the
    name protoc was given that it starts with, never by a pattern a name could forge:
    :func:`name_refusal` keeps out the names that could make a line read two ways."""
    located: list[ProtoProblem] = []
    unlocated: list[ProtoProblem] = []
    for raw in stderr.split("\n"):
        text = raw.removesuffix("\r")
        if text.endswith(_NOT_FOUND):  # an import nowhere: its importer says so
            continue
        at = text.find(":")
        while at >= 0:
            path, rest = run.names.get(text[:at]), text[at + 1 :]
            position = _POSITION.match(rest)
            if path is not None and (position or rest.startswith(" ")):
                break
            at = text.find(":", at + 1)
        else:
            continue
        if not path:  # a stub's or a shipped file's
            continue
        message = (rest[position.end() :] if position else rest[1:]).strip()
        kind = "warning" if message.startswith("warning: ") else "error"
        message = message.removeprefix("warning: ")
        if position is None:
            # protoc locates nothing of a map field's entry message, which it makes itself:
            # the `map<>` field it is made for is the place (1:1 else).
            line, column = map_site(sources[path], message) or (1, 1)
            unlocated.append(ProtoProblem(path, line, column, message, kind))
            continue
        line = int(position.group("line"))
        lines = sources[path].split("\n")
        row = lines[line - 1] if 0 < line <= len(lines) else ""
        column = character_column(row, int(position.group("column")))
        located.append(ProtoProblem(path, line, column, message, kind))
    return located, unlocated


_MAP_FIELD = re.compile(
    r"\bmap\s*<\s*(?P<key>[\w.]+)\s*,\s*(?P<value>[\w.]+)\s*>\s*(?P<name>[A-Za-z_]\w*)\s*="
)
_COMMENT = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)", re.DOTALL)


def map_site(text: str, message: str) -> tuple[int, int] | None:
    """Where the ``map<>`` field is that an unlocated diagnostic of protoc is about: the entry
    message protoc makes for it (``"a.Child.LabelsEntry.key" is already defined``: the field
    whose name in CamelCase and ``Entry`` it is, descriptor.cc MapEntryName), or its key or
    value type (``"gnmi.Request" is not defined``: the field that names it). 1-based line and
    character column of ``map``; None when no field of the file is it."""
    named = message.split('"')[1] if message.count('"') >= 2 else ""
    if not named:
        return None
    entry = next((part for part in named.split(".") if part.endswith("Entry")), "")
    written = named.lstrip(".")
    # comments blanked, offsets kept: a `map<>` in a comment is no field
    code = _COMMENT.sub(lambda found: re.sub(r"[^\n]", " ", found.group()), text)
    for found in _MAP_FIELD.finditer(code):
        name = found.group("name")
        camel = "".join(part[:1].upper() + part[1:] for part in name.split("_"))
        types = {found.group("key").lstrip("."), found.group("value").lstrip(".")}
        if (entry and camel + "Entry" == entry) or (not entry and written in types):
            at = found.start()
            return code.count("\n", 0, at) + 1, at - (code.rfind("\n", 0, at) + 1) + 1
    return None


# --- the descriptor set, read -------------------------------------------------------------------


def _read_set(
    blob: bytes, run: _Run, sources: Mapping[str, str], wanted: Sequence[str]
) -> dict[str, ProtoFile]:
    """The files of a descriptor set that are corpus files, as plain data."""
    # Deferred: protobuf is imported only by a run with protos to read (it costs every other
    # run its import time).
    from google.protobuf import descriptor_pb2

    descriptors = descriptor_pb2.FileDescriptorSet()
    descriptors.ParseFromString(blob)
    rules = _http_rules(descriptors)
    files: dict[str, ProtoFile] = {}
    for proto in descriptors.file:
        path = _corpus_path(proto.name, run, sources)
        if path is None or path not in wanted:
            continue
        files[path] = _file(path, proto, sources[path], rules)
    return files


def _http_rules(descriptors: Any) -> dict[tuple[str, str], list[tuple[str, str, str]]]:
    """(service, rpc) -> [(verb, path, body)] of the ``google.api.http`` options, read through a
    descriptor pool made of the set itself (no generated code: the set holds http.proto when a
    file imports it)."""
    names = {proto.name for proto in descriptors.file}
    if "google/api/annotations.proto" not in names:
        return {}
    # Deferred: as in _read_set.
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    try:
        for proto in descriptors.file:  # in the order protoc wrote them: imports first
            pool.Add(proto)
        extension = pool.FindExtensionByName(_HTTP_EXTENSION)
        options_class = message_factory.GetMessageClass(
            pool.FindMessageTypeByName("google.protobuf.MethodOptions")
        )
    except (KeyError, TypeError, ValueError):
        return {}
    found: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for proto in descriptors.file:
        package = f"{proto.package}." if proto.package else ""
        for service in proto.service:
            for method in service.method:
                if not method.HasField("options"):
                    continue
                options = options_class.FromString(method.options.SerializeToString())
                if not options.HasExtension(extension):
                    continue
                rule = options.Extensions[extension]
                bindings = [rule, *rule.additional_bindings]
                found[(package + service.name, method.name)] = [
                    _binding(binding) for binding in bindings
                ]
    return found


def _binding(rule: Any) -> tuple[str, str, str]:
    pattern = rule.WhichOneof("pattern")
    if pattern == "custom":
        return rule.custom.kind, rule.custom.path, rule.body
    return (pattern or ""), (getattr(rule, pattern) if pattern else ""), rule.body


def _type_of(field: Any) -> str:
    """A field's type as the source writes it: ``int32``, or the message or enum's name."""
    return field.type_name.lstrip(".") or _TYPES.get(field.type, str(field.type))


def _file(
    path: str,
    proto: Any,
    text: str,
    rules: Mapping[tuple[str, str], list[tuple[str, str, str]]],
) -> ProtoFile:
    lines = text.split("\n")
    spans = {
        tuple(location.path): tuple(location.span) for location in proto.source_code_info.location
    }

    def at(*where: int) -> tuple[int, int]:
        span = spans.get(where)
        if not span:
            return 1, 1
        row = lines[span[0]] if span[0] < len(lines) else ""
        return span[0] + 1, character_column(row, span[1] + 1)

    package = proto.package
    messages: list[ProtoMessage] = []
    enums: list[ProtoEnum] = []

    def enum(descriptor: Any, prefix: str, where: tuple[int, ...]) -> None:
        values = tuple(
            ProtoEnumValue(value.name, value.number, *at(*where, 2, index))
            for index, value in enumerate(descriptor.value)
        )
        # an enum's reserved range ends where it says; a message's one past (descriptor.proto)
        reserved = tuple((r.start, r.end) for r in descriptor.reserved_range)
        enums.append(
            ProtoEnum(
                prefix + descriptor.name,
                values,
                *at(*where),
                reserved,
                tuple(descriptor.reserved_name),
            )
        )

    def message(descriptor: Any, prefix: str, where: tuple[int, ...]) -> None:
        name = prefix + descriptor.name
        oneofs = [oneof.name for oneof in descriptor.oneof_decl]
        maps = {
            f"{name}.{n.name}": "map<{}, {}>".format(*(_type_of(f) for f in n.field))
            for n in descriptor.nested_type
            if n.options.map_entry and len(n.field) == 2
        }
        fields = []
        for index, item in enumerate(descriptor.field):
            synthetic = item.proto3_optional
            oneof = (
                oneofs[item.oneof_index]
                if item.HasField("oneof_index") and not synthetic and item.oneof_index < len(oneofs)
                else ""
            )
            fields.append(
                ProtoField(
                    item.name,
                    item.number,
                    item.json_name,
                    (*where, 2, index, 10) in spans,
                    _TYPES.get(item.type, str(item.type)),
                    item.type_name.lstrip("."),
                    _LABELS.get(item.label, ""),
                    synthetic,
                    oneof,
                    *at(*where, 2, index),
                    maps.get(item.type_name.lstrip("."), ""),
                    item.default_value if item.HasField("default_value") else None,
                )
            )
        messages.append(
            ProtoMessage(
                name,
                tuple(fields),
                *at(*where),
                tuple((r.start, r.end - 1) for r in descriptor.reserved_range),
                tuple(descriptor.reserved_name),
            )
        )
        for index, nested in enumerate(descriptor.nested_type):
            if not nested.options.map_entry:
                message(nested, name + ".", (*where, 3, index))
        for index, nested_enum in enumerate(descriptor.enum_type):
            enum(nested_enum, name + ".", (*where, 4, index))

    prefix = f"{package}." if package else ""
    for index, descriptor in enumerate(proto.message_type):
        message(descriptor, prefix, (4, index))
    for index, descriptor in enumerate(proto.enum_type):
        enum(descriptor, prefix, (5, index))
    services = []
    for index, service in enumerate(proto.service):
        rpcs = []
        for number, method in enumerate(service.method):
            option_at = at(6, index, 2, number, 4, 72295728)
            bindings = rules.get((prefix + service.name, method.name), [])
            rpcs.append(
                ProtoRpc(
                    method.name,
                    method.input_type.lstrip("."),
                    method.output_type.lstrip("."),
                    method.client_streaming,
                    method.server_streaming,
                    tuple(
                        HttpRule(verb, route, body, *option_at) for verb, route, body in bindings
                    ),
                    *at(6, index, 2, number),
                    _IDEMPOTENCY.get(method.options.idempotency_level, ""),
                )
            )
        services.append(ProtoService(prefix + service.name, tuple(rpcs), *at(6, index)))
    return ProtoFile(
        path,
        package,
        proto.syntax or "proto2",
        tuple(proto.dependency),
        tuple(messages),
        tuple(enums),
        tuple(services),
        at(2)[0],
        _language_options(proto.options, at),
    )


def _language_options(options: Any, at: Callable[..., tuple[int, int]]) -> tuple[ProtoOption, ...]:
    """The ``LANGUAGE_OPTIONS`` of a FileOptions message (field 8 of a FileDescriptorProto),
    each with the value a generator reads: the default when unset, as buf compares them."""
    found = []
    for name in LANGUAGE_OPTIONS:
        descriptor = options.DESCRIPTOR.fields_by_name.get(name)
        if descriptor is None:
            continue
        value = getattr(options, name)
        if descriptor.enum_type is not None:
            value = descriptor.enum_type.values_by_number[value].name
        text = str(value).lower() if isinstance(value, bool) else str(value)
        where = at(8, descriptor.number) if options.HasField(name) else at(2)
        found.append(ProtoOption(name, text, *where))
    return tuple(found)
