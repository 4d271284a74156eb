"""The gRPC surface beside the others (issue 30, item 3): the rpcs the corpus's protos declare,
their ``google.api.http`` routes, and the method tables of the prose that name them.

A method table is a Markdown table with a column headed ``gRPC`` (A2A's "Method Mapping Reference
Table": JSON-RPC method, gRPC method, REST endpoint; OpenWOP's "gRPC method | Scope"). What it
names is bound by evidence only: a gRPC name is the rpc of that name; a REST route (``POST
/v1/tasks/{id}:cancel``) is the rpc whose http rule has that verb and path once path variables
are read as wildcards (``/v1/{name=tasks/*}:cancel`` is ``/v1/tasks/{}:cancel``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from speclint.analyses.api.operations import Operation, api_operations, base_paths
from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import corpus_protos, own_protos
from speclint.model.corpus import Document
from speclint.parsing.prose import Table, TableCell, cell_offset
from speclint.parsing.protobuf import HttpRule, ProtoRpc

# A column of gRPC methods: "gRPC Method", "gRPC rpc", "Method (gRPC)"; not "gRPC Code" (status
# codes, OTLP's retry table), "gRPC calls" (call types), a bare "gRPC" (a comparison of
# properties) nor "Compression method for gRPC".
_GRPC_HEADER = re.compile(r"(?i)\bgrpc[\s_-]*(?:methods?|rpcs?)\b|\bmethods?\s*\(\s*grpc\s*\)")
_REST_HEADER = re.compile(r"(?i)\b(?:rest|http)\b|\bendpoints?\b|\broutes?\b|\burl\b|\bpath\b")
_JSONRPC_HEADER = re.compile(r"(?i)json[- ]?rpc")
_METHODS = re.compile(r"(?i)\bmethods?\b")
# A route: a verb, then a path from its first `/` (a scheme and host, or a `{baseUrl}`, before it
# are the server's, not the route's).
_ROUTE = re.compile(
    r"\b(GET|POST|PUT|PATCH|DELETE)\s+`?(?:https?://[^/\s`]+|\{[A-Za-z_]+\})?(/[A-Za-z0-9_{}:.\-/=*]*)"
)
_NO_GRPC = re.compile(
    r"(?i)^\W*(?:n/?a|none|no|-+|—|–|not (?:supported|available|applicable)|unsupported|"
    r"(?:rest|http|json-?rpc)[\s-]*only)\W*$"
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[./][A-Za-z_][A-Za-z0-9_]*)*")
# "(gRPC/REST only)", "JSON-RPC and HTTP only": the transports a method is limited to.
_TRANSPORT = {"grpc": "grpc", "rest": "rest", "http": "rest", "jsonrpc": "jsonrpc"}
_TRANSPORT_WORD = re.compile(r"(?i)json-?rpc|grpc|rest|http(?:\+json)?")
_ONLY = re.compile(
    r"(?i)\b((?:json-?rpc|grpc|rest|http(?:\+json)?)"
    r"(?:\s*(?:/|,|&|\band\b|\bor\b)\s*(?:json-?rpc|grpc|rest|http(?:\+json)?))*)\s+only\b"
)
# A JSON-RPC method name: `message/send`, `tasks.get`, `eth_getBalance`, `$/cancelRequest`.
_METHOD = re.compile(r"[A-Za-z_$][\w$]*(?:[/.:][A-Za-z_$][\w$]*)*")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_NO_NAME = frozenset({"n/a", "na", "none", "-", "—", "–", "tbd"})
_SERVICE = re.compile(r"^\s*service\s+\w+\s*\{", re.MULTILINE)
_VARIABLE = re.compile(r"\{([^{}=]+)(?:=([^{}]*))?\}")


@dataclass(frozen=True)
class Route:
    verb: str  # lower case
    path: str  # as written
    column: int  # where it is written in its cell's line (1-based)

    @property
    def shape(self) -> tuple[str, ...]:
        return route_shape(self.path)


@dataclass(frozen=True)
class MethodRow:
    """One row of a method table: where it is, and what its cells name."""

    page: str
    line: int
    heading: str | None
    grpc: tuple[tuple[str, int], ...]  # (name as written, column): `Get`, `Tasks.Get`
    routes: tuple[Route, ...]
    jsonrpc: str  # the JSON-RPC method the row gives ("" when none)
    no_grpc: bool = False  # the gRPC cell says the method has none ("N/A", "—")
    table: int = 0  # the line of the table's header: the rows of one table share it
    # every JSON-RPC method the row gives, with where it is written (``jsonrpc`` is the first)
    methods: tuple[tuple[str, int], ...] = ()
    # The transports a cell says the method is limited to ("gRPC/REST only": grpc, rest), or
    # empty: a name the row gives for another transport is a placeholder, not a claim.
    only: frozenset[str] = frozenset()
    grpc_column: bool = True  # the table has a gRPC column: it is held to the protos

    def claims(self, transport: str) -> bool:
        """Whether the row claims the method has a form in ``transport`` ("grpc", "rest",
        "jsonrpc"): it does unless a cell limits it to others."""
        return not self.only or transport in self.only


@dataclass(frozen=True)
class BoundRule:
    """An http rule with the rpc it belongs to and where both are."""

    rule: HttpRule
    rpc: ProtoRpc
    service: str
    path: str  # the proto file's corpus path (or a fence's compiled name)

    @property
    def shape(self) -> tuple[str, ...]:
        return route_shape(self.rule.path)


def route_shape(path: str) -> tuple[str, ...]:
    """A route's segments with every variable a wildcard: ``/v1/{name=tasks/*}:cancel`` and
    ``/v1/tasks/{id}:cancel`` are both ``("v1", "tasks", "{}:cancel")`` (google.api.http's
    template syntax, AIP-127: ``{var=pattern}`` stands for the pattern, ``*`` one segment)."""
    path = path.split("?", 1)[0].strip().strip("`")

    def expand(match: re.Match[str]) -> str:
        pattern = match.group(2)
        return pattern if pattern else "*"

    expanded = _VARIABLE.sub(expand, path)
    # Express-style `:taskId` is a variable too (a custom verb's `:` follows a segment)
    segments = [
        "*" if segment.startswith(":") else segment for segment in expanded.split("/") if segment
    ]
    return tuple("{}" + s[2:] if s.startswith("**") else s.replace("*", "{}") for s in segments)


def path_fields(path: str) -> set[str]:
    """The request fields a route template carries in its path: ``parent`` of
    ``/v1/{parent=projects/*}/tasks``, ``task`` of ``/v1/{task.name=tasks/*}``."""
    return {match.group(1).split(".")[0].strip() for match in _VARIABLE.finditer(path)}


def method_rows(document: Document) -> tuple[MethodRow, ...]:
    """The rows of the page's method tables: a table with a column headed gRPC, or with one
    headed JSON-RPC beside one of routes."""
    prose = document.prose if document.usable else None
    if prose is None:
        return ()
    lines = (document.text or "").split("\n")
    rows: list[MethodRow] = []
    for table in prose.tables:
        rows += _rows(document.path, table, lines)
    return tuple(rows)


def _rows(page: str, table: Table, lines: list[str]) -> Iterator[MethodRow]:
    headers = [cell.text for cell in table.header]
    # A column of several transports' names ("JSON-RPC / gRPC / HTTP") is no gRPC column.
    grpc = [
        i
        for i, text in enumerate(headers)
        if _GRPC_HEADER.search(text) and not _JSONRPC_HEADER.search(text)
    ]
    rest = [
        i
        for i, text in enumerate(headers)
        if i not in grpc and _REST_HEADER.search(text) and not _JSONRPC_HEADER.search(text)
    ]
    # A column of JSON-RPC methods says so ("JSON-RPC Method"); a bare "JSON-RPC" heads a
    # comparison of the transports' properties ("Supported", "Bearer").
    jsonrpc = [
        i
        for i, text in enumerate(headers)
        if _JSONRPC_HEADER.search(text) and _METHODS.search(text)
    ]
    # A method table maps one method across transports: a gRPC column, or JSON-RPC and REST.
    if not grpc and not (jsonrpc and rest):
        return
    heading = table.heading.anchor if table.heading else None
    for row in table.rows:
        line = row[0].line if row else table.line
        text = lines[line - 1] if 0 < line <= len(lines) else ""

        names = tuple(name for cell in _cells(row, text, grpc) for name in _names(*cell))
        no_grpc = any(index < len(row) and _NO_GRPC.match(row[index].text) for index in grpc)
        routes = tuple(route for cell in _cells(row, text, rest) for route in _routes(*cell))
        methods = tuple(
            method for cell in _cells(row, text, jsonrpc[:1]) for method in _methods(*cell)
        )
        only = frozenset(
            _TRANSPORT[word.lower().replace("-", "").replace("+json", "")]
            for cell in row
            for match in _ONLY.finditer(cell.text)
            for word in _TRANSPORT_WORD.findall(match.group(1))
        )
        no_grpc = no_grpc or bool(only and "grpc" not in only)
        if names or routes or methods:
            first = methods[0][0] if methods else ""
            yield MethodRow(
                page,
                line,
                heading,
                names,
                routes,
                first,
                no_grpc,
                table.line,
                methods,
                only,
                bool(grpc),
            )


def _cells(
    row: tuple[TableCell, ...] | list[TableCell], line: str, columns: list[int]
) -> Iterator[tuple[TableCell, str, int]]:
    """The row's cells of ``columns``, each with its line and where it starts in the line."""
    for index in columns:
        if index < len(row):
            yield row[index], line, cell_offset(line, index)


def _find(text: str, line: str, start: int, boundary: str) -> int:
    """The 1-based column of ``text`` in ``line`` from ``start`` (the cell's own), else 1."""
    pattern = re.compile(rf"(?<!{boundary}){re.escape(text)}(?!{boundary})")
    found = pattern.search(line, start) or pattern.search(line)
    return found.start() + 1 if found else 1


def _methods(cell: TableCell, line: str, start: int) -> Iterator[tuple[str, int]]:
    """The JSON-RPC methods a cell gives, and where: its code spans, or the cell when it is one
    method-like word (``tasks/get``, ``eth_call``: with a separator; not "Unsupported",
    "deprecated" nor "SSE"); "N/A", "—" and prose give none."""
    # each with where to look for it: a code span where the parser found it, else the cell
    spans = [(code.text.strip(), code.column - 1) for code in cell.inline_code]
    if not spans:
        # a plain word is a method only with a method's separator: `deprecated`, `yes` and
        # `streaming` are prose
        word = _LINK.sub(r"\1", cell.text).strip()  # a link's text: `[tasks/get](#get)`
        if not re.search(r"[/._$:]", word) or _NO_GRPC.match(word):
            return
        spans = [(word, start)]
    for text, at in spans:
        if text.lower() in _NO_NAME or not _METHOD.fullmatch(text):
            continue
        yield text, _find(text, line, at, r"[\w/.$-]")


def _names(cell: TableCell, line: str, start: int) -> Iterator[tuple[str, int]]:
    """The rpc names a gRPC cell gives, as written (a qualified name, ``A2AService.SendMessage``
    or ``/a2a.v1.A2AService/SendMessage``, with its qualifier): its code spans, or, in a cell
    without any, its words when the cell is nothing but names (``GetRun / StreamRunEvents``);
    a cell of prose ("Not supported") names none."""
    # each with where to look for it: a code span where the parser found it, else the cell
    spans = [(code.text, code.column - 1) for code in cell.inline_code]
    if not spans:
        parts = [part.strip() for part in re.split(r"\s*(?:,|\|| or | and |\s/\s)\s*", cell.text)]
        if not all(_NAME.fullmatch(part.lstrip("/")) for part in parts if part):
            return
        spans = [(part, start) for part in parts if part]
    for span, at in spans:
        text = span.strip().strip("`").lstrip("/")
        if text.lower() in _NO_NAME or not _NAME.fullmatch(text):
            continue
        name = re.split(r"[./]", text)[-1]
        if not name[:1].isupper() or name.isupper():  # PascalCase: not a word, not a CONSTANT
            continue
        yield text, _find(text, line, at, r"[A-Za-z0-9_]")


def _routes(cell: TableCell, line: str, start: int) -> Iterator[Route]:
    """The routes a REST cell gives; one in a link's text or after "see" is a reference."""
    for match in _ROUTE.finditer(cell.text):
        before = cell.text[: match.start()].rstrip().lower()
        if before.endswith(("[", "see", "(see", "cf.")):
            continue
        written = match.group(0)
        at = line.find(written, start)
        if at < 0:
            at = line.find(written)
        yield Route(match.group(1).lower(), match.group(2), at + 1 if at >= 0 else 1)


def rpc_name(written: str) -> str:
    """The rpc a name as written names: its last part."""
    return re.split(r"[./]", written)[-1]


def qualifier(written: str) -> str:
    """The service a name as written names (``Tasks`` of ``Tasks.Get``), or ""."""
    parts = re.split(r"[./]", written)
    return parts[-2] if len(parts) > 1 else ""


@dataclass(frozen=True)
class RpcIndex:
    """The rpcs of the corpus's protos, by name, and their http rules."""

    by_name: dict[str, list[tuple[ProtoRpc, str, str]]]  # name -> (rpc, service, file)
    rules: tuple[BoundRule, ...]
    services: dict[str, tuple[str, int, int]]  # name -> (file, line, column)
    types: frozenset[str] = frozenset()  # the simple names of the messages and enums
    # False when a proto fence that shows a service could not be read: its rpcs are unknown
    complete: bool = True

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def serving(self, route: Route) -> list[BoundRule]:
        """The http rules that bind the route's verb and path."""
        return [r for r in self.rules if r.rule.verb == route.verb and r.shape == route.shape]

    def lookup(self, written: str) -> list[tuple[ProtoRpc, str, str]]:
        """The rpcs a name as written names: by its last part, in the service it names."""
        found = self.by_name.get(rpc_name(written), [])
        service = qualifier(written)
        if service:
            found = [entry for entry in found if entry[1].rsplit(".", 1)[-1] == service]
        return found


def rpc_index(corpus: Context) -> RpcIndex:
    """Every rpc the corpus's .proto files and whole proto fences declare (kept in the memo)."""
    found: RpcIndex | None = corpus.memo.get("surfaces:rpcs")
    if found is None:
        protos = corpus_protos(corpus)
        by_name: dict[str, list[tuple[ProtoRpc, str, str]]] = {}
        rules: list[BoundRule] = []
        services: dict[str, tuple[str, int, int]] = {}
        read = protos.read()
        # another API's protos kept here (googleapis' longrunning) are not ours
        for proto in own_protos(corpus):
            for service in proto.services:
                services.setdefault(service.name, (proto.path, service.line, service.column))
                for rpc in service.rpcs:
                    by_name.setdefault(rpc.name, []).append((rpc, service.name, proto.path))
                    rules += [BoundRule(rule, rpc, service.name, proto.path) for rule in rpc.http]
        types = frozenset(
            [m.name.rsplit(".", 1)[-1] for proto in read for m in proto.messages]
            + [e.name.rsplit(".", 1)[-1] for proto in read for e in proto.enums]
        )
        unread = any(
            _SERVICE.search(fence.fence.content) and protos.fence_file(fence) is None
            for fence in protos.fences
        )
        found = RpcIndex(by_name, tuple(rules), services, types, not unread)
        corpus.memo["surfaces:rpcs"] = found
    return found


def camel_words(name: str) -> list[str]:
    return re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)


# --- rpcs and the OpenAPI document's operations --------------------------------------------------


@dataclass(frozen=True)
class RpcBinding:
    """An rpc and the operations the evidence binds it to: ``named``, those whose operationId
    is its name (``createRun`` for ``CreateRun``) and that no other rpc's route serves;
    ``served``, those its ``google.api.http`` bindings name."""

    rpc: ProtoRpc
    service: str
    path: str  # the proto file's corpus path (or a fence's compiled name)
    named: tuple[Operation, ...]
    served: tuple[Operation, ...]


@dataclass(frozen=True)
class RpcOperations:
    bindings: tuple[RpcBinding, ...]  # every rpc, in file and line order
    by_name: dict[str, list[Operation]]  # operationId in PascalCase -> its operations
    documents: tuple[str, ...]  # the API documents the operations are in


def rpc_operations(corpus: Context) -> RpcOperations | None:
    """The corpus's rpcs with the operations each is bound to, or None when the corpus has no
    rpc or no operation (kept in the memo)."""
    if "surfaces:operations" in corpus.memo:
        found: RpcOperations | None = corpus.memo["surfaces:operations"]
        return found
    index = rpc_index(corpus)
    operations = api_operations(corpus)
    found = None
    if index and operations:
        by_name: dict[str, list[Operation]] = {}
        for operation in operations:
            identifier = operation.identifier
            if identifier:
                by_name.setdefault(identifier[:1].upper() + identifier[1:], []).append(operation)
        rpcs = sorted(
            (entry for entries in index.by_name.values() for entry in entries),
            key=lambda entry: (entry[2], entry[0].line, entry[0].name),
        )
        routed = {id(rpc): _served(corpus, rpc) for rpc, _, _ in rpcs}
        claimed = {id(op): id(rpc) for rpc, _, _ in rpcs for op in routed[id(rpc)]}
        bindings = tuple(
            RpcBinding(
                rpc,
                service,
                path,
                # an operation another rpc's route serves is that rpc's, not this one's
                tuple(
                    op
                    for op in by_name.get(rpc.name, [])
                    if claimed.get(id(op), id(rpc)) == id(rpc)
                ),
                tuple(routed[id(rpc)]),
            )
            for rpc, service, path in rpcs
        )
        documents = tuple(sorted({op.document.path for op in operations}))
        found = RpcOperations(bindings, by_name, documents)
    corpus.memo["surfaces:operations"] = found
    return found


def bound(matched: int, given: int) -> bool:
    """Whether a method table is of a surface: two of its entries found there, and half of
    them (one generic entry, a `GET /health`, binds no table of another API)."""
    return matched >= 2 and 2 * matched >= given


@dataclass(frozen=True)
class TableOperations:
    """A method table's routes against the API document it is bound to: the document with most
    of its routes (of the page's version), and the operations each route names (of any API
    document of that version: a route another document has is no drift)."""

    document: str
    served: dict[tuple[int, Route], list[Operation]]  # (row line, route) -> operations


def table_operations(corpus: Context, rows: list[MethodRow]) -> TableOperations | None:
    """The table's routes bound to an API document, or None when the table is bound to none.
    Rows limited to other transports ("gRPC only") give no route."""
    served = {
        (row.line, route): [
            op
            for op in serving_operations(corpus, route.verb, route.path)
            if corpus.versions.comparable(row.page, op.document.path)
        ]
        for row in rows
        if row.claims("rest")
        for route in row.routes
    }
    counts = Counter(path for ops in served.values() for path in {op.document.path for op in ops})
    if not counts:
        return None
    document, matched = min(counts.items(), key=lambda item: (-item[1], item[0]))
    return TableOperations(document, served) if bound(matched, len(served)) else None


def serving_operations(
    corpus: Context, verb: str, path: str, template: bool | None = None
) -> list[Operation]:
    """The operations of the corpus's API documents a route names: the same verb, the same path
    read as :func:`route_shape` reads it (a template's ``{name=tasks/*}`` is ``tasks/{}``), alone
    or below a base path of its document. For a ``google.api.http`` template (``template``; by
    default, a path with a ``{var=pattern}``) a variable of the operation's may stand for
    several segments, as grpc-gateway writes ``/v1/{name}`` for ``/v1/{name=tasks/*}``; a
    route written with plain variables (``/tasks/{id}/runs``) is no ``/tasks/{taskId}``."""
    by_verb: dict[str, list[tuple[Operation, list[tuple[str, ...]]]]] | None = corpus.memo.get(
        "surfaces:by-verb"
    )
    if by_verb is None:
        by_verb = {}
        for operation in api_operations(corpus):
            by_verb.setdefault(operation.method, []).append((operation, _shapes(operation)))
        corpus.memo["surfaces:by-verb"] = by_verb
    mine = route_shape(path)
    candidates = by_verb.get(verb.lower(), [])
    exact = [op for op, shapes in candidates if mine in shapes]
    if exact or not (("=" in path) if template is None else template):
        return exact
    return [op for op, shapes in candidates if any(_matches(mine, shape) for shape in shapes)]


def _shapes(operation: Operation) -> list[tuple[str, ...]]:
    """The operation's path as a shape, alone and below each base path of its document
    (``operations.base_paths``: servers, their variables' defaults, Swagger's ``basePath``)."""
    path = route_shape(operation.path)
    bases = (route_shape(base) for base in base_paths(operation.document))
    return [path, *(base + path for base in bases if base)]


def _served(corpus: Context, rpc: ProtoRpc) -> list[Operation]:
    """The operations the rpc's ``google.api.http`` bindings name, each once."""
    found: list[Operation] = []
    for rule in rpc.http:
        candidates = serving_operations(corpus, rule.verb, rule.path, template=True)
        found += [op for op in candidates if op not in found]
    return found


def _matches(binding: tuple[str, ...], operation: tuple[str, ...]) -> bool:
    """Whether a binding's path is an operation's: segment by segment (a custom verb, the
    ``:cancel`` of ``{}:cancel``, must be the same), a ``{}`` of either side any segment, and a
    ``{}`` of the operation's any run of segments."""
    if not operation:
        return not binding
    theirs, others = operation[0], operation[1:]
    if _base(theirs) == "{}":
        longest = len(binding) - len(others)
        return any(
            _verb(binding[taken - 1]) == _verb(theirs) and _matches(binding[taken:], others)
            for taken in range(1, longest + 1)
        )
    if not binding:
        return False
    mine = binding[0]
    return (
        _base(mine) in ("{}", _base(theirs))
        and _verb(mine) == _verb(theirs)
        and _matches(binding[1:], others)
    )


def _base(segment: str) -> str:
    return segment.rsplit(":", 1)[0] if ":" in segment else segment


def _verb(segment: str) -> str:
    """A custom method's verb (``:cancel`` of ``{}:cancel``), or ""."""
    return segment.rsplit(":", 1)[1] if ":" in segment else ""
