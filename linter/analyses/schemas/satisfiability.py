"""Deciding whether a schema accepts anything, within a time budget.

jsonschema-rs canonicalises a schema (resolving ``$ref``\\s through a registry of the corpus) and
answers yes / no / unknown. Canonicalisation runs in Rust and cannot be interrupted from Python, and
a large composition can take seconds (``allOf`` of many ``anyOf``\\s expands multiplicatively). So it
runs in a worker process: a decision that outlives the budget is ``timed-out``, one that kills the
worker is ``crashed`` (unknowns the caller reports as such), and the worker is replaced. No
decision can hang or end a run.

A decision about one document is made against a registry of the resources that document's
``$ref``\\s reach (:meth:`Decider.focus`), built in the worker from the resources it inherited:
jsonschema-rs's cost grows with the registry it is given, and a registry of the whole corpus made
the rule's time grow with the square of the corpus (issue 29). The whole corpus's registry, for a
decision the smaller one cannot make, is built once, in the calling process, before a worker is
forked: every worker inherits it. Built in the worker, it took longer than the budget on a
5,000-schema corpus (1.4 s each), so every decision "timed out", killed the worker, and the next one
built it again.

References the corpus lacks are answered by the registry's retriever with a boolean stand-in schema
(``true`` or ``false``); nothing is ever fetched.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import Connection
from typing import Any
from urllib.parse import quote

import jsonschema_rs

from speclint.analyses.context import Context
from speclint.analyses.schemas.references import file_uri, root_base
from speclint.common.lifecycle import child_started, start_child
from speclint.model.corpus import Document
from speclint.parsing.dialects import api_document_to_2020_12, to_2020_12, translatable
from speclint.parsing.kinds import DocumentKind

YES, NO, UNKNOWN, UNDECIDABLE = "yes", "no", "unknown", "undecidable"
TIMED_OUT = "timed-out"  # an unknown: the decision outlived its budget
CRASHED = "crashed"  # an unknown: the decider died on this schema (native code)


def _refuse(uri: str) -> Any:
    """The retriever of a registry of one schema's reach: a reference out of it is an error (the
    whole corpus's registry decides), never a stand-in that could change the verdict."""
    raise LookupError(f"{uri} is not in the scope of this decision")


def _decide_in_process(
    registries: dict[bool, Any], node: Any, base_uri: str, stand_in: bool, strict: bool = False
) -> str:

    try:
        canonical = jsonschema_rs.canonicalize(
            node,
            registry=registries[stand_in],
            base_uri=base_uri,
            retriever=_refuse if strict else lambda uri: stand_in,
        )
    except Exception:  # a pointer to nowhere, an unsupported keyword: no verdict
        return UNDECIDABLE
    verdict = canonical.satisfiability()
    if verdict == jsonschema_rs.canonical.Satisfiability.NO:
        return NO
    if verdict == jsonschema_rs.canonical.Satisfiability.YES:
        return YES
    return UNKNOWN


def build_registry(
    resources: list[tuple[str, Any]], missing: list[str], stand_in: bool, strict: bool = False
) -> Any:
    """A jsonschema-rs registry of the corpus. Missing targets are registered up front with the
    stand-in: jsonschema-rs crawls only schema keywords, so a ``$ref`` under an OpenAPI ``paths``
    entry is met during canonicalisation, when the registry no longer retrieves."""

    return jsonschema_rs.Registry(
        [*resources, *((uri, stand_in) for uri in missing)],
        draft=jsonschema_rs.Draft202012,
        retriever=_refuse if strict else lambda uri: stand_in,
    )


def _build_registries(resources: list[tuple[str, Any]], missing: list[str]) -> dict[bool, Any]:
    try:
        return {
            stand_in: build_registry(resources, missing, stand_in) for stand_in in (True, False)
        }
    except Exception:
        # A URI jsonschema-rs refuses (a `$ref` with spaces in a damaged document): keep the
        # entries it accepts one by one; the references to the others stay undecided.
        def accepted(uri: str) -> bool:
            try:
                jsonschema_rs.Registry([(uri, True)], retriever=lambda _: True)
            except Exception:
                return False
            return True

        missing = [uri for uri in missing if accepted(uri)]
        kept: list[tuple[str, Any]] = []
        for uri, contents in resources:
            try:
                build_registry([*kept, (uri, contents)], [], True)
            except Exception:
                continue
            kept.append((uri, contents))
        try:
            return {stand_in: build_registry(kept, missing, stand_in) for stand_in in (True, False)}
        except Exception:
            return {}


# Canonicalisation recurses along ``$ref`` chains in native code: on the main thread's 8 MB stack a
# chain about 1,500 schemas deep overflows it and kills the process (SIGSEGV). The worker decides
# on a thread with this much stack (reserved address space; only the pages used are memory).
DECISION_STACK = 1 << 30


def _worker(connection: Connection, registries: _Registries, parent: int) -> None:

    child_started(parent)  # killed with the rule process that started it, never an orphan
    try:
        threading.stack_size(DECISION_STACK)
    except (ValueError, RuntimeError):  # a platform without settable stacks: the default one
        _serve(connection, registries)
        return
    decisions = threading.Thread(target=_serve, args=(connection, registries), daemon=True)
    try:
        decisions.start()
    except RuntimeError:  # no room for the stack (a `ulimit -v`): the default one
        _serve(connection, registries)
        return
    decisions.join()


def _serve(connection: Connection, registries: _Registries) -> None:
    while True:
        task = connection.recv()
        if task is None:
            return
        node, base_uri, stand_in, scope = task
        chosen = registries.get(stand_in, scope)
        if chosen is None:
            connection.send(UNDECIDABLE)
            continue
        strict = scope is not None
        connection.send(_decide_in_process({stand_in: chosen}, node, base_uri, stand_in, strict))


SCOPED_KEPT = 64  # registries of one document's reach kept at once (a corpus decides in order)


class _Registries:
    """The registries decisions are made against: the whole corpus's (built when first asked,
    before a worker is forked: never per worker), or those of one document's reach.

    jsonschema-rs's canonicalisation costs time in proportion to the registry it is given, and
    building a registry more than that (a 4,000-schema corpus: 7 ms a decision, 0.9 s a build,
    against 0.8 ms and 0.06 s at 1,000; issue 29, item 4). A decision about one document needs
    only the resources its ``$ref``\\s reach, so it is made against a registry of those: cost
    that grows with the document's reach, not the corpus."""

    def __init__(self, resources: list[tuple[str, Any]], missing: list[str]) -> None:
        self.resources = resources
        self.by_uri = dict(resources)
        self.missing = missing
        self.whole: dict[bool, Any] | None = None
        self.scoped: dict[tuple[Scope, bool], Any] = {}

    def get(self, stand_in: bool, scope: Scope | None = None) -> Any:
        if scope is None:
            if self.whole is None:
                self.whole = _build_registries(self.resources, self.missing)
            return self.whole.get(stand_in)
        key = (scope, stand_in)
        if key not in self.scoped:
            if len(self.scoped) >= SCOPED_KEPT:
                self.scoped.pop(next(iter(self.scoped)))
            kept = [
                (uri, skeleton(self.by_uri[uri], pointers) if pointers else self.by_uri[uri])
                for uri, pointers in scope
                if uri in self.by_uri
            ]
            try:
                self.scoped[key] = build_registry(kept, self.missing, stand_in, strict=True)
            except Exception:  # a URI jsonschema-rs refuses: the whole corpus's registry decides
                self.scoped[key] = None
        return self.scoped[key]


# A scope: each resource a decision may reach, by URI, with the pointers of the parts of it that
# are reached (a large API document), or none (the whole resource).
Scope = tuple[tuple[str, tuple[str, ...]], ...]


def skeleton(document: Any, pointers: tuple[str, ...]) -> Any:
    """``document`` with only the subtrees at ``pointers`` (and the objects that hold them):
    what a decision reaches of a large API document, at the same pointers, so its references
    resolve as in the whole. Building a registry costs the size of what it holds; a request body
    of a 4,000-operation document reaches a few of its schemas (issue 29)."""
    if "" in pointers or not isinstance(document, dict):
        return document
    kept: dict[str, Any] = {}
    for pointer in pointers:
        source: Any = document
        target: Any = kept
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
        for index, token in enumerate(tokens):
            child = source.get(token) if isinstance(source, dict) else None
            if child is None:
                break
            last = index == len(tokens) - 1
            if last or not isinstance(child, dict):
                target[token] = child  # the subtree whole (a list is kept whole)
                break
            held = target.get(token)
            if held is child:
                break  # an ancestor's subtree is kept whole already
            if held is None:
                held = target[token] = {}
            source, target = child, held
    return kept


class Decider:
    """Decides schemas in a worker process, each within ``budget`` seconds."""

    def __init__(
        self,
        resources: list[tuple[str, Any]],
        budget: float = 2.0,
        missing: list[str] | None = None,
    ) -> None:
        self.resources = resources
        self.missing = sorted(set(missing or ()))
        self.budget = budget
        self.timeouts = 0
        self._registries = _Registries(resources, self.missing)
        self._scope: Scope | None = None
        self._process: Any = None
        self._connection: Connection | None = None

    def focus(self, scope: Scope | None) -> None:
        """Decide what follows against a registry of the resources ``scope`` names (the URIs
        of one document's reach) instead of the whole corpus's; None: the whole corpus. A
        decision the smaller registry cannot make (a reference out of it) is made again with
        the whole one, so the verdicts are the same."""
        self._scope = scope

    def registry(self, stand_in: bool, whole: bool = False) -> Any:
        """The jsonschema-rs registry decisions are made against now (:meth:`focus`; ``whole``:
        the whole corpus's), with ``stand_in`` for missing targets (None when jsonschema-rs
        refuses every entry). A focused one refuses references out of its scope."""
        if whole or self._scope is None:
            return self._registries.get(stand_in)
        return self._registries.get(stand_in, self._scope) or self._registries.get(stand_in)

    def _start(self) -> Connection:
        # fork: the worker inherits the resources (and the whole registry, if it was built)
        # instead of receiving them pickled.
        context = multiprocessing.get_context("fork")
        parent, child = context.Pipe()
        self._process = context.Process(
            target=_worker,
            args=(child, self._registries, os.getpid()),
            daemon=True,
        )

        start_child(self._process)
        child.close()
        self._connection = parent
        return parent

    def decide(self, node: Any, base_uri: str, stand_in: bool) -> str:
        verdict = self._decide(node, base_uri, stand_in, self._scope)
        if verdict == UNDECIDABLE and self._scope is not None:
            verdict = self._decide(node, base_uri, stand_in, None)
        return verdict

    def _decide(self, node: Any, base_uri: str, stand_in: bool, scope: Scope | None) -> str:
        if scope is None and self._registries.whole is None:
            # The whole corpus's registry is built here, before a worker is forked, and
            # inherited: built in each worker, it took longer than the budget on a large corpus
            # (1.4 s), every decision timed out, and the next worker built it again.
            self.close()
            self._registries.get(stand_in)
        connection = self._connection or self._start()
        connection.send((node, base_uri, stand_in, scope))
        verdict = TIMED_OUT
        if connection.poll(self.budget):
            try:
                return str(connection.recv())
            except EOFError:
                verdict = CRASHED  # the worker died (native code): replaced, like a timeout
        self.timeouts += 1
        self.close(kill=True)
        return verdict

    def close(self, kill: bool = False) -> None:
        if self._process is None:
            return
        if kill:
            self._process.kill()
        elif self._connection is not None:
            try:
                self._connection.send(None)
            except (BrokenPipeError, OSError):
                self._process.kill()
        self._process.join(timeout=5)
        if self._connection is not None:
            self._connection.close()
        self._process = None
        self._connection = None

    def __enter__(self) -> Decider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- the corpus as the decider reads it -------------------------------------------------------
# Shared by unsatisfiable-schema (decisions and their witnesses) and the change report's
# witnesses (``speclint.analyses.changes.acceptance``): one registry of a revision's schemas, in 2020-12
# terms, and one way to make a schema of it self-contained.


WITNESS_BASE = "file:///corpus/.speclint-witness.json"
FRAGMENT_SAFE = "/~!$&'()*+,;=:@-._"  # RFC 3986 §3.5 fragment characters, kept as they are


def in_place_uri(document: Document, pointer: str) -> str:

    return f"{file_uri(document.path)}#{quote(pointer, safe=FRAGMENT_SAFE)}"


def translated(document: Document) -> bool:
    """Whether the decider reads this document through a 2020-12 translation."""
    return translatable(document.dialect)


def decided_form(document: Document) -> Any:
    """The document as the decider reads it: in 2020-12 terms (``speclint.parsing.dialects``)."""
    if not translated(document):
        return document.data
    if document.kind is DocumentKind.SCHEMA:
        return to_2020_12(document.data, document.dialect)
    return api_document_to_2020_12(document.data, document.dialect)


def standalone(decider: Decider, document: Document | None, schema: Any) -> Any:
    """``schema`` (written in ``document``; None: a probe of its own, which names what it
    inlines by absolute URI, :func:`in_place_uri`) with every ``$ref`` inlined through the
    corpus (stand-ins for missing files), or None when it cannot be made self-contained (a
    recursive schema)."""
    # A probe is not given the URI of the document it names: jsonschema-rs would read its own
    # `#/...` against the probe, not the document (JSON Schema 2020-12 §8.2.1).
    base_uri = file_uri(document.path) if document is not None else WITNESS_BASE

    # The registry of what the schema reaches first; the whole corpus's where that one cannot
    # (a reference out of its scope), as decisions do.
    for whole in (False, True):
        registry = decider.registry(True, whole=whole)
        if registry is None:
            continue
        try:
            return jsonschema_rs.dereference(schema, registry=registry, base_uri=base_uri)
        except Exception:  # cannot be made self-contained (here): no witness from it
            continue
    return None


def missing_targets(corpus: Context) -> list[str]:
    """URIs of referenced schemas the corpus lacks: the registries answer them with stand-ins."""
    return [
        r.target.split("#", 1)[0]
        for r in corpus.references.references
        if r.outcome in {"missing-file", "unknown-id"}
    ]


def corpus_resources(corpus: Context) -> tuple[list[tuple[str, Any]], dict[str, list[str]]]:
    """Every schema and API document by file URI, and each schema by its ``$id`` as well, each
    in the form the decider reads (:func:`decided_form`); and the URIs of each document."""
    resources = []
    decided: dict[str, Any] = {}
    holders: dict[str, list[str]] = {}
    seen: set[str] = set()
    for document in corpus.of_kind(
        DocumentKind.SCHEMA, DocumentKind.OPENAPI, DocumentKind.ASYNCAPI
    ):
        uri = file_uri(document.path)
        decided[document.path] = decided_form(document)
        resources.append((uri, decided[document.path]))
        holders.setdefault(document.path, []).append(uri)
        seen.add(uri)
    for uri, path in corpus.references.uri_to_path.items():
        # A document under its own root `$id`; an embedded resource's `$id` names a part of
        # it, which the decider's registry finds by crawling the document.
        if uri not in seen and uri.startswith("http") and uri == root_base(corpus.documents[path]):
            resources.append((uri, decided[path]))
            holders.setdefault(path, []).append(uri)
    return resources, holders
