"""The language server (issue 17, item 2), driven as an editor drives it: a real ``speclint lsp``
process on stdio and pygls' own LSP client. The session opens a schema and a prose page, edits the
schema's enum in the editor (unsaved), and expects the drift on the prose page, with the schema as
its related location; then hover, a code action applied, the diagnostic gone, and shutdown."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from conftest import copy_bundled_corpus, schema, write_files

pytest.importorskip("pygls", reason="the language server is the speclint[lsp] extra")

from lsprotocol import types
from pygls.lsp.client import LanguageClient

WAIT = 60.0  # seconds; a check of this corpus takes well under one

RUN_SNAPSHOT = schema(
    title="RunSnapshot",
    type="object",
    properties={"runId": {"type": "string"}, "status": {"enum": ["queued", "running", "done"]}},
)
RUNS_PAGE = "# Runs\n\n`RunSnapshot.status` is one of `queued` | `running` | `done`.\n"
# A finding that every check reports again: each check is seen to have happened.
OTHER_PAGE = "# Other\n\nSee [the missing page](missing.md).\n"


class Editor:
    """A client that keeps what the server published, by URI."""

    def __init__(self) -> None:
        self.client = LanguageClient("speclint-tests", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.publications = 0

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.publications += 1

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def message(params: types.ShowMessageParams) -> None:
            raise AssertionError(f"the server said: {params.message}")

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {WAIT:g} s: {self.diagnostics}")
            await asyncio.sleep(0.02)

    def codes(self, uri: str) -> list[str]:
        return [str(d.code) for d in self.diagnostics.get(uri, [])]


def open_document(editor: Editor, path: Path, language: str) -> str:
    uri = path.as_uri()
    editor.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri, language, 1, path.read_text(encoding="utf-8"))
        )
    )
    return uri


def change(editor: Editor, uri: str, version: int, text: str) -> None:
    editor.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def apply(text: str, edits: list[types.TextEdit]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def session(root: Path) -> None:
    editor = Editor()
    await editor.client.start_io(sys.executable, "-m", "speclint", "lsp")
    try:
        await editor.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(root.as_uri(), "spec")],
            )
        )
        editor.client.initialized(types.InitializedParams())
        other = (root / "spec/other.md").as_uri()
        schema_uri = open_document(editor, root / "schemas/run-snapshot.schema.json", "json")
        page_uri = open_document(editor, root / "spec/runs.md", "markdown")
        await editor.until(lambda: "broken-link" in editor.codes(other), "first check")
        assert editor.codes(page_uri) == [] and editor.codes(schema_uri) == []

        # The enum edited in the editor, not saved: the drift appears on the prose page.
        edited = RUN_SNAPSHOT.replace('"done"', '"done",\n          "failed"')
        change(editor, schema_uri, 2, edited)
        await editor.until(lambda: "enum-drift" in editor.codes(page_uri), "drift on the page")
        (drift,) = editor.diagnostics[page_uri]
        assert drift.source == "speclint"
        assert drift.severity == types.DiagnosticSeverity.Error
        assert drift.range.start.line == 2  # line 3 of the page
        assert "`failed`" in drift.message
        assert drift.related_information
        assert drift.related_information[0].location.uri == schema_uri
        assert "failed" not in (root / "schemas/run-snapshot.schema.json").read_text()
        # The drift's table (issue 48) as data, as the JSON report has it; a finding with none
        # (the broken link) has none.
        assert isinstance(drift.data, dict)
        assert drift.data["table"] == {
            "headers": [
                "value",
                "schemas/run-snapshot.schema.json#/properties/status",
                "spec/runs.md:3",
            ],
            "rows": [["failed", "present", "missing"]],
        }
        (link,) = editor.diagnostics[other]
        assert isinstance(link.data, dict) and "table" not in link.data

        hover = await editor.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(page_uri), drift.range.start)
        )
        assert hover is not None and isinstance(hover.contents, types.MarkupContent)
        shown = hover.contents.value
        assert hover.contents.kind == types.MarkupKind.Markdown
        # The finding first: its message, then its table, as the Markdown report shows them.
        assert shown.startswith("**speclint `enum-drift`** (error)\n\n")
        assert "`failed`" in shown.split("\n")[2]
        table = shown.index("| value | `schemas/run-snapshot.schema.json#/properties/status` |")
        assert shown.index("| `failed` | present | missing |") > table
        assert table < shown.index("Why is this bad?")  # then the rule's own documentation

        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                types.TextDocumentIdentifier(page_uri),
                drift.range,
                types.CodeActionContext(diagnostics=[drift]),
            )
        )
        assert actions
        (action,) = [a for a in actions if isinstance(a, types.CodeAction)]
        assert action.edit is not None and action.edit.changes is not None
        waived = apply(RUNS_PAGE, action.edit.changes[page_uri])
        assert "<!-- speclint-ignore enum-drift:" in waived
        change(editor, page_uri, 2, waived)
        await editor.until(lambda: editor.codes(page_uri) == [], "the drift waived")
        assert editor.codes(other) == ["broken-link"]

        # Closing the edited schema unsaved: the file on disk counts again, with no drift.
        editor.client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(schema_uri))
        )
        await editor.until(
            lambda: editor.codes(page_uri) == ["waiver"], "the waiver left with nothing to waive"
        )
        await editor.client.shutdown_async(None)
        editor.client.exit(None)
    finally:
        # A session that failed half-way leaves the server running: stop() would wait for it.
        process = getattr(editor.client, "_server", None)
        if process is not None and process.returncode is None and not editor.client.stopped:
            process.kill()
        await editor.client.stop()


@pytest.mark.slow
def test_an_editor_session(tmp_path: Path) -> None:
    root = write_files(
        tmp_path / "spec-repo",
        {
            "schemas/run-snapshot.schema.json": RUN_SNAPSHOT,
            "spec/runs.md": RUNS_PAGE,
            "spec/other.md": OTHER_PAGE,
        },
    )
    asyncio.run(asyncio.wait_for(session(root), 5 * WAIT))


def load_yaml(text: str) -> Any:
    reader = YAML(typ="safe", pure=True)
    reader.allow_duplicate_keys = True  # the bundled corpus seeds one (duplicate-key)
    return reader.load(text)


def inline_copy_fixed(root: Path, path: str) -> tuple[Any, str, list[str]]:
    """The document at ``path`` after the inline-copy finding's code action, parsed, and the
    ``$ref`` the finding named."""
    from speclint.frontends.lsp import inline_copy_reference, ref_replacement
    from speclint.run.engine import Options, lint

    outcome = lint(root, Options(rules=("inline-copy",), cache=False))
    (finding,) = [f for f in outcome.findings if f.location.path == path]
    reference = inline_copy_reference(
        finding.message, (related.note or "" for related in finding.related)
    )
    assert reference is not None
    text = (root / path).read_text(encoding="utf-8")
    at = types.Position(finding.location.line - 1, finding.location.column - 1)
    edit = ref_replacement(text, at, reference, json=path.endswith(".json"))
    assert edit is not None
    fixed = apply(text, [edit])
    pointer = finding.location.pointer or ""
    keys = [k.replace("~1", "/").replace("~0", "~") for k in pointer.split("/")[1:]]
    return load_yaml(fixed), reference, keys


def at_keys(document: Any, keys: list[str]) -> Any:
    for key in keys:
        document = document[key]
    return document


def test_the_inline_copy_action_writes_the_ref_in_yaml(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    copy_bundled_corpus(root)
    before = load_yaml((root / "api/asyncapi.yaml").read_text())
    after, reference, keys = inline_copy_fixed(root, "api/asyncapi.yaml")
    assert keys[-1] == "payload"
    assert at_keys(after, keys) == {"$ref": reference}
    # Nothing else changed: the copy replaced, the documents are equal.
    at_keys(before, keys[:-1])[keys[-1]] = {"$ref": reference}
    assert after == before


def test_the_inline_copy_action_writes_the_ref_in_json(tmp_path: Path) -> None:
    shape = {
        "type": "object",
        "required": ["runId", "status"],
        "properties": {"runId": {"type": "string"}, "status": {"type": "string"}},
        "additionalProperties": False,
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Runs", "version": "1.0.0"},
        "paths": {
            "/runs": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "The run.",
                            "content": {"application/json": {"schema": shape}},
                        }
                    }
                }
            }
        },
    }
    root = write_files(
        tmp_path / "spec",
        {
            "schemas/run.schema.json": schema(title="Run", **shape),
            "api/openapi.json": json.dumps(document, indent=2) + "\n",
        },
    )
    after, reference, _ = inline_copy_fixed(root, "api/openapi.json")
    content = after["paths"]["/runs"]["get"]["responses"]["200"]["content"]
    assert content["application/json"]["schema"] == {"$ref": reference}
    assert reference.endswith("run.schema.json")
    content["application/json"]["schema"] = shape
    assert after == document


@pytest.mark.parametrize(
    ("page", "waiver"),
    [
        ("spec/messages.md", "<!-- speclint-ignore example-invalid: say why"),
        # An HTML comment does not compile in MDX: the waiver is a JSX comment (issue 44, item 12).
        ("spec/messages.mdx", "{/* speclint-ignore example-invalid: say why"),
    ],
)
def test_the_waiver_action_writes_a_comment_the_page_compiles(
    tmp_path: Path, page: str, waiver: str
) -> None:
    from pygls.workspace import Workspace

    from speclint.frontends.lsp import SpeclintServer
    from speclint.model.corpus import parse_document
    from speclint.run.waivers import _markdown

    root = tmp_path / "spec-repo"
    text = '# Messages\n\nA message:\n\n```json\n{"kind": "message", "role": "robot"}\n```\n'
    uri = (root / page).as_uri()
    ls = SpeclintServer()
    ls.root = root
    # The workspace an editor's `initialize` makes (pygls' own), holding the open page.
    ls.protocol._workspace = Workspace(root.as_uri())
    ls.workspace.put_text_document(types.TextDocumentItem(uri, "mdx", 1, text))
    at = types.Range(types.Position(5, 20), types.Position(5, 27))
    finding = types.Diagnostic(
        at, "'robot' is not one of", source="speclint", code="example-invalid"
    )
    (action,) = ls.code_actions(uri, [finding])
    assert action.edit is not None and action.edit.changes is not None
    waived = apply(text, action.edit.changes[uri])
    assert waived.split("\n")[4].startswith(waiver)  # above the fence
    [read] = _markdown(parse_document(page, waived))
    assert read.rules == ("example-invalid",) and read.lines == (6, 8)
    assert read.reason.startswith("say why")
