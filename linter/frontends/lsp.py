"""The language server: ``speclint lsp``, on stdio (the ``speclint[lsp]`` extra, built on pygls).

An editor sees speclint's findings as diagnostics while the author types, in every file of the
corpus, not only the one being edited: drift is between files, so an enum edited in a schema shows
its drift on the prose page that lists the old values. Each check is the engine's (``lint``), run
on the open editors' texts (saved or not) over the on-disk rest of the corpus, with the corpus
kept in memory between checks as the daemon keeps it (``speclint.run.resident``), so a change
costs what the files it touches cost.

- **When**: on open, change, save and close, debounced (:data:`DEBOUNCE` of quiet); a check that
  is running finishes, and the latest texts are checked next. Checks run in a worker thread:
  hover and code actions answer at once from the last check, and a slow rule is stopped by its
  time box as on the command line.
- **What**: one diagnostic per finding: its severity, the rule id as ``code``, ``speclint`` as
  ``source``, the message, and each related location (the other side of a drift) as
  ``relatedInformation``; a drift's table (``Finding.table``: each value by side, each property
  by copy, issue 48) in ``data`` as ``{"headers": [...], "rows": [[...], ...]}``, as the JSON
  report has it. A file whose findings are gone gets an empty list.
- **Hover** on a diagnostic shows its message and its table as Markdown (a diagnostic's message
  is plain text, and editors show no ``data``), then its rule's documentation
  (``speclint rule ID``).
- **Code actions**: an ``inline-copy`` finding offers to replace the inline schema with the
  ``$ref`` the finding names (a YAML block mapping or a JSON object, comments and the rest of the
  file untouched). A finding in Markdown is waived by a ``<!-- speclint-ignore rule: reason -->``
  comment above its block (in MDX, ``{/* speclint-ignore rule: reason */}``: an HTML comment does
  not compile there); one in a JSON or YAML document by a ``[[waivers]]`` table in the
  corpus's ``speclint.toml`` (created when the corpus has no configuration). Either carries a
  reason to rewrite: a waiver without one waives nothing.

The corpus root is the workspace's (``rootUri``, else the first workspace folder). The server
never writes a file itself: code actions are edits the editor applies.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from speclint import __version__
from speclint.common.findings import Finding, Location, Severity
from speclint.outputs.reporters.markdown_report import paragraph, table_lines
from speclint.parsing.kinds import MARKDOWN_SUFFIXES
from speclint.run.engine import EngineError, Options, Outcome, lint
from speclint.run.resident import Resident

DEBOUNCE = 0.25  # seconds of quiet after a change before the corpus is checked
WAIVER_REASON = "say why this finding is accepted"

# What editors call the files speclint reads (``speclint.parsing.kinds.READ_SUFFIXES``), for the
# set-ups the README gives: an editor sends the server the open texts of the languages it is set
# up for only, so an `.mdx` page left out is checked as saved, not as typed. VS Code's language
# ids (`mdx` is the MDX extension's, unifiedjs.vscode-mdx; `proto3` vscode-proto3's) and Neovim's
# filetypes; tests/model/test_read_files.py holds both, and the README, to the list.
VSCODE_LANGUAGES: dict[str, str] = {
    ".json": "json",
    ".jsonc": "jsonc",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".md": "markdown",
    ".mdx": "mdx",
    ".markdown": "markdown",
    ".proto": "proto3",
}
NEOVIM_FILETYPES: dict[str, str] = {**VSCODE_LANGUAGES, ".proto": "proto"}

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


def path_of(uri: str) -> Path | None:
    """The file a ``file:`` URI names; None for any other scheme (an unsaved buffer, a diff)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def relative_to(root: Path, uri: str) -> str | None:
    """The corpus-relative path of a document, or None when it lies outside the corpus."""
    path = path_of(uri)
    if path is None:
        return None
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return None


def uri_of(root: Path, relative: str) -> str:
    return (root / relative).as_uri()


def _range(location: Location, lines: list[str] | None) -> types.Range:
    line = max(location.line - 1, 0)
    character = max(location.column - 1, 0)
    end_line = max((location.end_line or location.line) - 1, line)
    # To the end of the line: a finding names a node or a sentence, which starts where it says.
    end = len(lines[end_line]) if lines is not None and end_line < len(lines) else character + 1
    if end_line == line and end <= character:
        end = character + 1
    return types.Range(types.Position(line, character), types.Position(end_line, end))


@dataclass
class Published:
    """A diagnostic as sent, with the finding it came from (for hover and code actions)."""

    diagnostic: types.Diagnostic
    finding: Finding


class SpeclintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("speclint", __version__)
        self.root: Path | None = None
        # The corpus kept in memory between checks (``speclint.run.resident``): a keystroke's
        # check reads and parses only the edited file again.
        self.resident: Resident | None = None
        self.published: dict[str, list[Published]] = {}  # corpus-relative path -> diagnostics
        self.docs: dict[str, str] = {}  # rule id -> documentation, of the rules that ran
        self.wanted = 0  # incremented by every change; a check answers for the one it read
        self.checking: asyncio.Lock | None = None
        self.checks = 0  # completed checks (for tests and logs)

    # --- checking ------------------------------------------------------------------------------

    def overlay(self) -> dict[str, str]:
        """The open editors' texts, by corpus-relative path."""
        assert self.root is not None
        texts = {}
        for uri, document in self.workspace.text_documents.items():
            relative = relative_to(self.root, uri)
            if relative is not None:
                texts[relative] = document.source
        return texts

    def schedule(self) -> None:
        self.wanted += 1
        asyncio.get_running_loop().create_task(self._check_after_quiet(self.wanted))

    async def _check_after_quiet(self, wanted: int) -> None:
        await asyncio.sleep(DEBOUNCE)
        if wanted != self.wanted or self.root is None:
            return  # a later change schedules its own check
        if self.checking is None:
            self.checking = asyncio.Lock()
        async with self.checking:
            if wanted != self.wanted:
                return
            overlay = self.overlay()
            loop = asyncio.get_running_loop()
            outcome = await loop.run_in_executor(None, self._lint, overlay)
            if outcome is not None:
                self._publish(outcome)

    def _lint(self, overlay: dict[str, str]) -> Outcome | None:
        assert self.root is not None
        try:
            if self.resident is None or not self.resident.serves(self.root):
                self.resident = Resident(self.root)
            return lint(self.root, Options(overlay=overlay, resident=self.resident))
        except EngineError as error:
            self.window_show_message(
                types.ShowMessageParams(types.MessageType.Error, f"speclint: {error}")
            )
            return None

    def _publish(self, outcome: Outcome) -> None:
        assert self.root is not None
        self.docs = {rule_id: info.doc for rule_id, info in outcome.result.rules.items()}
        by_path: dict[str, list[Published]] = {}
        split: dict[str, list[str] | None] = {}  # each file's lines, split once (not per finding)

        def lines_of(path: str) -> list[str] | None:
            if path not in split:
                source = outcome.sources.get(path)
                split[path] = source.split("\n") if source is not None else None
            return split[path]

        for finding in outcome.findings:
            lines = lines_of(finding.location.path)
            related = [
                types.DiagnosticRelatedInformation(
                    types.Location(
                        uri_of(self.root, other.path), _range(other, lines_of(other.path))
                    ),
                    other.note or "related",
                )
                for other in finding.related
            ]
            diagnostic = types.Diagnostic(
                range=_range(finding.location, lines),
                message=finding.message,
                severity=SEVERITIES[finding.severity],
                code=finding.rule,
                source="speclint",
                related_information=related or None,
                data=_data(finding),
            )
            by_path.setdefault(finding.location.path, []).append(Published(diagnostic, finding))
        for path in sorted(set(self.published) | set(by_path)):
            diagnostics = [p.diagnostic for p in by_path.get(path, [])]
            if diagnostics == [p.diagnostic for p in self.published.get(path, [])]:
                continue  # what the editor shows is right: a corpus has hundreds of findings
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri_of(self.root, path), diagnostics=diagnostics)
            )
        self.published = by_path
        self.checks += 1

    # --- hover and code actions ----------------------------------------------------------------

    def at(self, uri: str, position: types.Position) -> list[Published]:
        assert self.root is not None
        relative = relative_to(self.root, uri)
        return [
            p
            for p in self.published.get(relative or "", [])
            if _contains(p.diagnostic.range, position)
        ]

    def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        found = self.at(uri, position)
        if not found:
            return None
        # Each finding here, its message and table first (what an editor's list of diagnostics
        # cannot show as a table), then each of their rules' documentation once.
        parts = [_finding_markdown(p.finding) for p in found]
        for rule_id in dict.fromkeys(p.finding.rule for p in found):
            parts.append(f"**speclint `{rule_id}`**\n\n{self.docs.get(rule_id, '').strip()}")
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, "\n\n---\n\n".join(parts)),
            range=found[0].diagnostic.range,
        )

    def code_actions(
        self, uri: str, diagnostics: Iterable[types.Diagnostic]
    ) -> list[types.CodeAction]:
        assert self.root is not None
        relative = relative_to(self.root, uri)
        if relative is None:
            return []
        actions = []
        for diagnostic in diagnostics:
            if diagnostic.source != "speclint" or not isinstance(diagnostic.code, str):
                continue
            reference = inline_copy_reference(
                diagnostic.message,
                (related.message for related in diagnostic.related_information or ()),
            )
            if diagnostic.code == "inline-copy" and reference is not None:
                text = self.workspace.get_text_document(uri).source
                replaced = ref_replacement(
                    text,
                    diagnostic.range.start,
                    reference,
                    json=relative.lower().endswith((".json", ".jsonc")),
                )
                if replaced is not None:
                    actions.append(
                        types.CodeAction(
                            title=f"Replace the copy with $ref: '{reference}'",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            edit=types.WorkspaceEdit(changes={uri: [replaced]}),
                            is_preferred=True,
                        )
                    )
            if relative.lower().endswith(MARKDOWN_SUFFIXES):
                edit = self._markdown_waiver(uri, diagnostic, relative.lower().endswith(".mdx"))
            else:
                data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
                edit = self._configured_waiver(relative, diagnostic.code, data.get("pointer", ""))
            if edit is not None:
                actions.append(
                    types.CodeAction(
                        title=f"Waive `{diagnostic.code}` here (then write the reason)",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=edit,
                    )
                )
        return actions

    def _markdown_waiver(
        self, uri: str, diagnostic: types.Diagnostic, mdx: bool
    ) -> types.WorkspaceEdit | None:
        lines = self.workspace.get_text_document(uri).source.split("\n")
        # A Markdown waiver covers the block after it (speclint.run.waivers): above the block's
        # first line, which is the first of the non-blank lines that run up to the finding.
        start = min(diagnostic.range.start.line, len(lines) - 1)
        while start > 0 and lines[start - 1].strip():
            start -= 1
        waiver = f"speclint-ignore {diagnostic.code}: {WAIVER_REASON}"
        comment = f"{{/* {waiver} */}}\n" if mdx else f"<!-- {waiver} -->\n"
        at = types.Position(start, 0)
        return types.WorkspaceEdit(changes={uri: [types.TextEdit(types.Range(at, at), comment)]})

    def _configured_waiver(
        self, relative: str, rule_id: str, pointer: str
    ) -> types.WorkspaceEdit | None:
        assert self.root is not None
        config = self.root / "speclint.toml"
        if not config.is_file() and (self.root / "pyproject.toml").is_file():
            return None  # [tool.speclint] tables: not ours to restructure
        table = (
            "\n[[waivers]]\n"
            f"rule = {_toml_string(rule_id)}\n"
            f"path = {_toml_string(relative)}\n"
            f"where = {_toml_string(pointer)}\n"
            f"reason = {_toml_string(WAIVER_REASON)}\n"
        )
        uri = config.as_uri()
        if not config.is_file():
            return types.WorkspaceEdit(
                document_changes=[
                    types.CreateFile(uri=uri),
                    types.TextDocumentEdit(
                        types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
                        [types.TextEdit(types.Range(types.Position(0, 0), types.Position(0, 0)),
                                        table.lstrip("\n"))],
                    ),
                ]
            )  # fmt: skip
        document = self.workspace.get_text_document(uri)
        text = document.source
        lines = text.split("\n")
        end = types.Position(len(lines) - 1, len(lines[-1]))
        prefix = "" if text.endswith("\n") or not text else "\n"
        return types.WorkspaceEdit(
            changes={uri: [types.TextEdit(types.Range(end, end), prefix + table)]}
        )


# The inline-copy rule's fix, as it states it (rules/inline_copy.py): in the message when it fits
# the first line, always in the note of the related location (the definition it copies).
_INLINE_COPY_REF = re.compile(r"`\$ref: '([^'`]+)'`")


def inline_copy_reference(message: str, notes: Iterable[str]) -> str | None:
    """The `$ref` an inline-copy finding says to write: from its message, else its notes."""
    for text in (message, *notes):
        found = _INLINE_COPY_REF.search(text)
        if found is not None:
            return found.group(1)
    return None


def ref_replacement(
    text: str, at: types.Position, reference: str, json: bool = False
) -> types.TextEdit | None:
    """The edit that replaces the schema whose key is at ``at`` with ``{$ref: reference}``: a YAML
    block mapping (the lines indented under the key), or a JSON object (to its closing brace).
    None for any other shape (a flow mapping, a key with no value), which is left to the author."""
    lines = text.split("\n")
    if not 0 <= at.line < len(lines):
        return None
    line = lines[at.line]
    if json and line[at.character : at.character + 1] == "{":  # at the object, not its key
        return _json_replacement(lines, at, at.character - 1, reference)
    colon = line.find(":", at.character)
    if colon < 0:
        return None
    rest = line[colon + 1 :].strip()
    if json or rest.startswith("{"):  # a JSON object, or a YAML flow mapping
        return _json_replacement(lines, at, colon, reference)
    if rest and not rest.startswith("#"):
        return None
    indent = at.character
    last = at.line
    for number in range(at.line + 1, len(lines)):
        body = lines[number]
        if not body.strip():
            continue
        if len(body) - len(body.lstrip(" ")) <= indent:
            break
        last = number
    if last == at.line:
        return None
    start = types.Position(at.line, colon + 1)
    end = types.Position(last, len(lines[last]))
    return types.TextEdit(types.Range(start, end), f"\n{' ' * (indent + 2)}$ref: '{reference}'")


def _json_replacement(
    lines: list[str], at: types.Position, colon: int, reference: str
) -> types.TextEdit | None:
    depth = 0
    inside = False
    escaped = False
    start: types.Position | None = None
    for number in range(at.line, len(lines)):
        line = lines[number]
        for index in range(colon + 1 if number == at.line else 0, len(line)):
            char = line[index]
            if inside:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    inside = False
            elif char == '"':
                if start is None:
                    return None  # a string, not an object
                inside = True
            elif char == "{":
                if start is None:
                    start = types.Position(number, index)
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    end = types.Position(number, index + 1)
                    quoted = reference.replace("\\", "\\\\").replace('"', '\\"')
                    return types.TextEdit(types.Range(start, end), f'{{"$ref": "{quoted}"}}')
            elif start is None and not char.isspace():
                return None
    return None


def _data(finding: Finding) -> dict[str, object]:
    """A diagnostic's ``data``: the rule and pointer (what a waiver names), and the finding's
    table (``Table.as_data``) when it has one."""
    data: dict[str, object] = {"rule": finding.rule, "pointer": finding.location.pointer or ""}
    if finding.table is not None:
        data["table"] = finding.table.as_data()
    return data


def _finding_markdown(finding: Finding) -> str:
    """A finding as a hover shows it: its rule and message, and its table as a GFM table (the
    Markdown report's: ``table_lines``)."""
    lines = [
        f"**speclint `{finding.rule}`** ({finding.severity.label})",
        "",
        paragraph(finding.message),
    ]
    if finding.table is not None:
        lines += ["", *table_lines(finding.table)]
    return "\n".join(lines)


def _contains(span: types.Range, position: types.Position) -> bool:
    start, end = span.start, span.end
    after_start = (position.line, position.character) >= (start.line, start.character)
    before_end = (position.line, position.character) <= (end.line, end.character)
    return after_start and before_end


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def server() -> SpeclintServer:
    """The server with its handlers (``serve`` runs it on stdio)."""
    ls = SpeclintServer()

    @ls.feature(types.INITIALIZED)
    def initialized(ls: SpeclintServer, params: types.InitializedParams) -> None:
        root = ls.workspace.root_path
        if root is None and ls.workspace.folders:
            first = next(iter(ls.workspace.folders.values()))
            found = path_of(first.uri)
            root = str(found) if found is not None else None
        if root is None:
            ls.window_show_message(
                types.ShowMessageParams(
                    types.MessageType.Warning,
                    "speclint: no workspace folder is open, so there is no corpus to check",
                )
            )
            return
        ls.root = Path(root).resolve()
        ls.schedule()

    def changed(ls: SpeclintServer, params: object) -> None:
        ls.schedule()  # on close too: the file on disk counts again

    for event in (
        types.TEXT_DOCUMENT_DID_OPEN,
        types.TEXT_DOCUMENT_DID_CHANGE,
        types.TEXT_DOCUMENT_DID_SAVE,
        types.TEXT_DOCUMENT_DID_CLOSE,
    ):
        ls.feature(event)(changed)

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SpeclintServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params.text_document.uri, params.position)

    @ls.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: SpeclintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params.text_document.uri, params.context.diagnostics)

    return ls


def serve() -> None:
    """Run the server on this process's standard input and output.

    The protocol gets streams of its own (duplicates of fds 0 and 1), and ``sys.stdin`` /
    ``sys.stdout`` become /dev/null and standard error. Checks fork rule workers while pygls's
    reader thread sits in a read of the protocol stream holding its lock; a forked worker closes
    ``sys.stdin`` and flushes ``sys.stdout`` as it starts and ends (multiprocessing), which on the
    protocol's own objects would wait forever for that lock. And nothing a worker prints can
    corrupt the protocol stream."""
    reader = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    writer = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the life of the process
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    server().start_io(reader, writer)
