"""The corpus's Protocol Buffers: its ``.proto`` files and the proto fences of its pages, compiled
together by protoc (``speclint.parsing.protobuf``), once per run (issue 30).

A fence is read as protobuf when its info string says so (``proto``, ``protobuf``; OpenWOP
writes ``protobuf``, A2A ``proto``). It is compiled as a file of its own beside the corpus's
files (so it may import them), under a name no corpus file has, and its diagnostics are given
back at the page's line and column: a fence's line ``k`` is the page's ``fence.line + k``, and
its column is shifted by the indentation the page gives it (A2A's fences sit 8 spaces deep in
list items). Only a fence meant as a whole file, one with a ``syntax`` or ``edition`` line, is
compiled: the rest are excerpts (a message, a service, a few fields), as fence-invalid leaves a
JSON member fragment alone.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from speclint.analyses.context import Context
from speclint.model.corpus import VENDORED, Document
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.prose import CodeFence
from speclint.parsing.protobuf import (
    BAZEL_BUILD_FILES,
    GO_MODULE_FILE,
    Compilation,
    ProtoFile,
    compile_protos,
    module_prefixes,
    syntax_of,
)

PROTO_LANGUAGES = frozenset({"proto", "protobuf", "proto2", "proto3"})
FENCE_FOLDER = ".speclint-fences"  # where fences are compiled: a name no corpus file is under
_MEMO = "protos:compiled"
_PREFIXES = "protos:prefixes"
_UNDEFINED = "is not defined."
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class ProtoFence:
    """A proto fence of a page: ``name`` is the file it is compiled as (when ``whole``), and
    ``indents`` the characters before each of its lines on the page."""

    page: str
    fence: CodeFence
    name: str
    whole: bool
    indents: tuple[int, ...]

    def page_position(self, line: int, column: int) -> tuple[int, int]:
        """The page's line and column of the fence's ``line`` and ``column`` (1-based)."""
        indent = self.indents[line - 1] if 0 < line <= len(self.indents) else 0
        return self.fence.line + line, column + indent


@dataclass(frozen=True)
class CorpusProtos:
    """The corpus's proto files and fences as protoc read them."""

    compilation: Compilation
    files: tuple[str, ...]  # the corpus's .proto files, by path
    fences: tuple[ProtoFence, ...]
    # whole fences read as excerpts (their undefined names stubbed), by compiled name
    excerpts: dict[str, ProtoFile] = field(default_factory=dict)

    def file(self, path: str) -> ProtoFile | None:
        return self.compilation.files.get(path)

    def fence_file(self, fence: ProtoFence) -> ProtoFile | None:
        """What protoc read of a fence: as written, or as an excerpt."""
        return self.compilation.files.get(fence.name) or self.excerpts.get(fence.name)

    def read(self) -> list[ProtoFile]:
        """Every file and fence protoc read, in path order."""
        found = {**self.excerpts, **self.compilation.files}
        return [found[name] for name in sorted(found)]

    def place(self, path: str, line: int, column: int) -> tuple[str, int, int]:
        """The corpus path, line and column of a position in a compiled file: a fence's
        are its page's."""
        for fence in self.fences:
            if fence.name == path:
                return (fence.page, *fence.page_position(line, column))
        return path, line, column


def proto_fences(corpus: Context) -> tuple[ProtoFence, ...]:
    """Every proto fence of the corpus's pages, in path and line order."""
    return tuple(
        fence
        for document in corpus.of_kind(DocumentKind.MARKDOWN)
        for fence in page_fences(document)
    )


def page_fences(document: Document) -> tuple[ProtoFence, ...]:
    """The proto fences of one page: all that is read of a page for its protos (a pure function
    of its text: ``proto-invalid``'s ``extract``)."""
    prose = document.prose if document.usable else None
    if prose is None:
        return ()
    page_lines = (document.text or "").split("\n")
    return tuple(
        ProtoFence(
            document.path,
            fence,
            posixpath.join(FENCE_FOLDER, document.path, f"line-{fence.line}.proto"),
            bool(syntax_of(fence.content)),
            _indents(fence, page_lines),
        )
        for fence in prose.fences
        if fence.language in PROTO_LANGUAGES
    )


def _indents(fence: CodeFence, page_lines: list[str]) -> tuple[int, ...]:
    """How many characters come before each line of the fence's content on the page (a fence
    in a list item or a quote loses them in its content)."""
    indents = []
    for number, line in enumerate(fence.content.split("\n"), 1):
        index = fence.line + number - 1
        written = page_lines[index] if index < len(page_lines) else line
        written = written.rstrip("\r")
        indents.append(len(written) - len(line) if line and written.endswith(line) else 0)
    return tuple(indents)


def corpus_protos(corpus: Context) -> CorpusProtos:
    """The corpus's protos compiled, once per run (kept in ``corpus.memo``)."""
    found: CorpusProtos | None = corpus.memo.get(_MEMO)
    if found is None:
        files = {
            document.path: document.text or ""
            for document in corpus.of_kind(DocumentKind.PROTO)
            if _readable(document)
        }
        fences = proto_fences(corpus)
        sources = dict(files)
        for fence in fences:
            if fence.whole and fence.name not in sources:
                sources[fence.name] = fence.fence.content
        unreadable = [
            document.path
            for document in corpus.documents.values()
            if document.kind is DocumentKind.PROTO and not document.usable
        ]
        compilation = (
            compile_protos(
                sources,
                unreadable=unreadable,
                apart=[fence.name for fence in fences if fence.whole],
                prefixes=import_prefixes(corpus) if files else {},
            )
            if sources
            else Compilation()
        )
        excerpts = _excerpts(fences, compilation, files)
        found = CorpusProtos(compilation, tuple(sorted(files)), fences, excerpts)
        corpus.memo[_MEMO] = found
    return found


def import_prefixes(corpus: Context) -> dict[str, str]:
    """The prefixes the repository's own builds import its protos under (prefix -> folder,
    ``speclint.parsing.protobuf.module_prefixes``): its ``go.mod`` files' module paths, and
    the ``import_prefix`` of the Bazel BUILD files beside its ``.proto`` files. Read as text
    beside the corpus (``Corpus.read_file``: never out of the root), never run; once a run."""
    found: dict[str, str] | None = corpus.memo.get(_PREFIXES)
    if found is None:
        folders = {
            path.rpartition("/")[0]
            for path, document in corpus.documents.items()
            if document.kind is DocumentKind.PROTO
        }
        texts: dict[str, str] = {}
        for path in sorted(corpus.tree):
            folder, _, name = path.rpartition("/")
            if name == GO_MODULE_FILE or (name in BAZEL_BUILD_FILES and folder in folders):
                raw = corpus.read_file(path)
                if isinstance(raw, bytes):
                    texts[path] = raw.decode("utf-8", "replace")
        found = corpus.memo[_PREFIXES] = module_prefixes(texts)
    return found


def _excerpts(
    fences: tuple[ProtoFence, ...], compilation: Compilation, files: dict[str, str]
) -> dict[str, ProtoFile]:
    """The whole fences that protoc read only as excerpts (a service shown without its
    messages: every error a name the fence does not define), read once more with an empty
    message in place of each such name, so their rpcs, messages and enums are known. A dotted
    name (``google.protobuf.Empty`` without its import) becomes one of the fence's own, on its
    line. Lines stay where they are written."""
    stubbed: dict[str, str] = {}
    for fence in fences:
        if not fence.whole or fence.name in compilation.files:
            continue
        own = [p for p in compilation.problems if p.path == fence.name and p.kind == "error"]
        if not own or not all(p.message.endswith(_UNDEFINED) for p in own):
            continue
        lines = fence.fence.content.split("\n")
        names: set[str] = set()
        for problem in sorted(own, key=lambda p: (p.line, -p.column)):
            name = problem.message.split('"')[1] if '"' in problem.message else ""
            if not _IDENTIFIER.fullmatch(name):
                continue
            if "." in name:
                row = lines[problem.line - 1] if 0 < problem.line <= len(lines) else ""
                at = problem.column - 1
                if row[at : at + len(name)] != name:
                    continue
                local = name.replace(".", "_")
                lines[problem.line - 1] = row[:at] + local + row[at + len(name) :]
                name = local
            names.add(name)
        if names:
            stubs = "".join(f"message {name} {{}}\n" for name in sorted(names))
            stubbed[fence.name] = "\n".join(lines) + "\n" + stubs
    if not stubbed:
        return {}
    read = compile_protos({**files, **stubbed}, inputs=sorted(stubbed), apart=sorted(stubbed))
    return {name: proto for name, proto in read.files.items() if name in stubbed}


def is_fence(path: str) -> bool:
    """Whether a compiled file is a page's proto fence (``CorpusProtos.place`` finds its page)."""
    return path.startswith(FENCE_FOLDER + "/")


def _readable(document: Document) -> bool:
    return document.usable and document.text is not None and not is_fence(document.path)


_VENDOR_FOLDERS = frozenset({"third_party", "third-party", "thirdparty", "vendor", "external"})


def vendored_proto(path: str, package: str, corpus: Context) -> bool:
    """A proto of another API kept in the corpus: googleapis' packages (``google.*``), a file
    under ``third_party/`` or ``vendor/``, or one ``.gitattributes`` marks vendored."""
    return (
        package == "google"
        or package.startswith("google.")
        or bool(_VENDOR_FOLDERS & set(path.split("/")[:-1]))
        or corpus.generated.get(path) == VENDORED
    )


def own_protos(corpus: Context) -> list[ProtoFile]:
    """The protos the corpus's own API declares: every file and fence protoc read, less the
    vendored ones (googleapis' packages, ``third_party/``)."""
    return [
        proto
        for proto in corpus_protos(corpus).read()
        if not vendored_proto(proto.path, proto.package, corpus)
    ]
