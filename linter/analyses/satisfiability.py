"""Deciding whether a schema accepts anything, within a time budget.

jsonschema-rs canonicalises a schema (resolving ``$ref``\\s through a registry of the corpus) and
answers yes / no / unknown. Canonicalisation runs in Rust and cannot be interrupted from Python, and
a large composition can take seconds (``allOf`` of many ``anyOf``\\s expands multiplicatively). So it
runs in a worker process: a decision that outlives the budget is ``timed-out``, one that kills the
worker is ``crashed`` (unknowns the caller reports as such), and the worker is replaced. No
decision can hang or end a run.

The registries of the corpus are built once, in the calling process, before the first worker is
forked: every worker inherits them. Built in the worker, they took longer than the budget on a
5,000-schema corpus (1.4 s each), so every decision "timed out", killed the worker, and the next one
built them again.

References the corpus lacks are answered by the registry's retriever with a boolean stand-in schema
(``true`` or ``false``); nothing is ever fetched.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import Connection
from typing import Any

import jsonschema_rs

from speclint.common.lifecycle import child_started, start_child

YES, NO, UNKNOWN, UNDECIDABLE = "yes", "no", "unknown", "undecidable"
TIMED_OUT = "timed-out"  # an unknown: the decision outlived its budget
CRASHED = "crashed"  # an unknown: the decider died on this schema (native code)


def _decide_in_process(
    registries: dict[bool, Any], node: Any, base_uri: str, stand_in: bool
) -> str:

    try:
        canonical = jsonschema_rs.canonicalize(
            node,
            registry=registries[stand_in],
            base_uri=base_uri,
            retriever=lambda uri: stand_in,
        )
    except Exception:  # a pointer to nowhere, an unsupported keyword: no verdict
        return UNDECIDABLE
    verdict = canonical.satisfiability()
    if verdict == jsonschema_rs.canonical.Satisfiability.NO:
        return NO
    if verdict == jsonschema_rs.canonical.Satisfiability.YES:
        return YES
    return UNKNOWN


def build_registry(resources: list[tuple[str, Any]], missing: list[str], stand_in: bool) -> Any:
    """A jsonschema-rs registry of the corpus. Missing targets are registered up front with the
    stand-in: jsonschema-rs crawls only schema keywords, so a ``$ref`` under an OpenAPI ``paths``
    entry is met during canonicalisation, when the registry no longer retrieves."""

    return jsonschema_rs.Registry(
        [*resources, *((uri, stand_in) for uri in missing)],
        draft=jsonschema_rs.Draft202012,
        retriever=lambda uri: stand_in,
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


def _worker(connection: Connection, registries: dict[bool, Any], parent: int) -> None:

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


def _serve(connection: Connection, registries: dict[bool, Any]) -> None:
    while True:
        task = connection.recv()
        if task is None:
            return
        node, base_uri, stand_in = task
        if stand_in not in registries:
            connection.send(UNDECIDABLE)
            continue
        connection.send(_decide_in_process(registries, node, base_uri, stand_in))


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
        self._registries: dict[bool, Any] | None = None
        self._process: Any = None
        self._connection: Connection | None = None

    def registry(self, stand_in: bool) -> Any:
        """The jsonschema-rs registry of the corpus with ``stand_in`` for missing targets (None
        when jsonschema-rs refuses every entry); built once, shared with the workers."""
        if self._registries is None:
            self._registries = _build_registries(self.resources, self.missing)
        return self._registries.get(stand_in)

    def _start(self) -> Connection:
        self.registry(True)  # built here, before the fork, and inherited: never per worker
        # fork: the worker inherits the registries instead of receiving them pickled.
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
        connection = self._connection or self._start()
        connection.send((node, base_uri, stand_in))
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
