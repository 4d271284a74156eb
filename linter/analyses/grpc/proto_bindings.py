"""What the proto surface is paired with, and by what evidence (issue 30): the listing ``speclint
bindings`` prints after the prose's value sets and examples. Each proto message with the JSON
Schema definitions of its name (compared or not, and why); each enum with the schema enums bound
to it (by name, by use); each prose list bound to a proto enum; each rpc with its operations (by
operationId, by route); each method-table row with the rpcs, JSON-RPC method definitions and
OpenAPI operations it names. A fence's are placed on its page."""

from __future__ import annotations

from dataclasses import dataclass

from speclint.analyses.api.jsonrpc import table_methods
from speclint.analyses.context import Context
from speclint.analyses.grpc.protojson import (
    enum_pairs,
    message_pairs,
    prose_enum_pairs,
    simple_name,
)
from speclint.analyses.grpc.protos import corpus_protos
from speclint.analyses.grpc.surfaces import (
    MethodRow,
    method_rows,
    rpc_index,
    rpc_operations,
    table_operations,
)
from speclint.analyses.prose.enumerations import FORM_WORDS
from speclint.parsing.kinds import DocumentKind


@dataclass(frozen=True)
class ProtoBinding:
    path: str  # a corpus file, or the page of a fence
    line: int
    what: str  # "proto message `Task`", "rpc `Tasks.GetTask`", "method table row `GetTask`"
    arrows: tuple[str, ...]  # what it is bound to, each with its evidence, or why not
    bound: int  # how many of the arrows are bindings (a pair not compared is none)


def proto_bindings(corpus: Context) -> list[ProtoBinding] | None:
    """Every pairing of the proto surface and of the prose's method tables, in path and line
    order; None without a proto or a method table."""
    protos = corpus_protos(corpus)
    rows_of_tables = [
        row for page in corpus.of_kind(DocumentKind.MARKDOWN) for row in method_rows(page)
    ]
    if not protos.read() and not rows_of_tables:
        return None
    rows: dict[tuple[str, int, str], list[tuple[str, bool]]] = {}

    def row(path: str, line: int, column: int, what: str) -> list[tuple[str, bool]]:
        page, line, _ = protos.place(path, line, column)
        return rows.setdefault((page, line, what), [])

    for pair in message_pairs(corpus):
        state = "compared" if pair.compared else "not compared"
        what = f"proto message `{simple_name(pair.message.name)}`"
        row(pair.proto.path, pair.message.line, pair.message.column, what).append(
            (f"{pair.definition.label} ({state}; {pair.why})", pair.compared)
        )
    for enum in enum_pairs(corpus):
        what = f"proto enum `{simple_name(enum.enum.name)}`"
        row(enum.proto.path, enum.enum.line, enum.enum.column, what).append(
            (f"{enum.document.path}#{enum.pointer} ({enum.why})", True)
        )
    for prose_pair in prose_enum_pairs(corpus):
        listed_enum = prose_pair.enum
        where, line, _ = protos.place(prose_pair.proto.path, listed_enum.line, listed_enum.column)
        form = FORM_WORDS.get(prose_pair.prose.form, "list")
        listed = rows.setdefault(
            (prose_pair.prose.path, prose_pair.prose.line, f"prose {form}"), []
        )
        package = prose_pair.proto.package + "." if prose_pair.proto.package else ""
        shown = listed_enum.name.removeprefix(package)
        listed.append((f"{where}:{line} proto enum `{shown}` ({prose_pair.why})", True))
    operations = rpc_operations(corpus)
    for binding in operations.bindings if operations else ():
        rpc = binding.rpc
        arrows = row(
            binding.path, rpc.line, rpc.column, f"rpc `{simple_name(binding.service)}.{rpc.name}`"
        )
        for operation in binding.named:
            if not rpc.http:
                routed = "the rpc has no google.api.http route"
            else:
                routed = "its route too" if operation in binding.served else "not its route"
            arrows.append(
                (
                    f"{operation.document.path} {operation.label} (by name: operationId "
                    f"`{operation.identifier}`; {routed})",
                    True,
                )
            )
        for operation in binding.served:
            if operation not in binding.named:
                arrows.append(
                    (
                        f"{operation.document.path} {operation.label} (by its google.api.http "
                        "route)",
                        True,
                    )
                )
    index = rpc_index(corpus)
    tables: dict[tuple[str, int], list[MethodRow]] = {}
    for table_row in rows_of_tables:
        tables.setdefault((table_row.page, table_row.table), []).append(table_row)
    for table in tables.values():
        # the JSON-RPC and OpenAPI sides as method-table-drift binds them: a table of the
        # page's version, two of its entries and half found there; else no arrow
        methods = table_methods(corpus, table) or {}
        api = table_operations(corpus, table)
        for table_row in table:
            names = ", ".join(f"`{written}`" for written, _ in table_row.grpc)
            routes = ", ".join(f"`{r.verb.upper()} {r.path}`" for r in table_row.routes)
            method = ", ".join(f"`{m}`" for m, _ in table_row.methods)
            what = f"method table row {' '.join(filter(None, (method, names, routes)))}"
            arrows = rows.setdefault((table_row.page, table_row.line, what), [])
            for written, _ in table_row.methods:
                definitions = methods.get((table_row.line, written))
                for definition in definitions or ():
                    arrows.append(
                        (
                            f"{definition.path}#{definition.pointer} (by JSON-RPC method "
                            f"`{definition.method}`)",
                            True,
                        )
                    )
                if definitions == ():
                    arrows.append((f"(`{written}` is no method defined here)", False))
            for written, _ in table_row.grpc if index and table_row.grpc_column else ():
                found = index.lookup(written)
                for rpc, _, path in found:
                    where, line, _ = protos.place(path, rpc.line, rpc.column)
                    arrows.append((f"{where}:{line} rpc `{rpc.name}` (by name)", True))
                if not found:
                    arrows.append((f"(`{written}` names no rpc)", False))
            for route in table_row.routes:
                for rule in index.serving(route) if table_row.grpc_column else ():
                    where, line, _ = protos.place(rule.path, rule.rpc.line, rule.rpc.column)
                    arrows.append(
                        (
                            f"{where}:{line} rpc `{rule.rpc.name}` (by its route "
                            f"`{rule.rule.verb.upper()} {rule.rule.path}`)",
                            True,
                        )
                    )
                served = api.served.get((table_row.line, route)) if api else None
                for operation in served or ():
                    arrows.append(
                        (f"{operation.document.path} {operation.label} (by its route)", True)
                    )
                if api is not None and served == []:
                    shown = f"{route.verb.upper()} {route.path}"
                    arrows.append((f"(`{shown}` is no operation of {api.document})", False))
    return [
        ProtoBinding(path, line, what, tuple(t for t, _ in arrows), sum(b for _, b in arrows))
        for (path, line, what), arrows in sorted(rows.items())
    ]
