"""A server-emitted discriminator (an event `type`, a `kind`) that is a closed enum while the corpus says to ignore unknown values.

What it does
    Finds the *ignore-unknown policy statements* of the corpus: sentences in the Markdown prose,
    or in a schema's own ``description``, that tell readers to ignore (tolerate, treat as opaque,
    not throw on) unknown *types* or *kinds*: "Clients MUST ignore unknown event types". Each
    names a discriminator (``type`` or ``kind``) and what it discriminates ("event").

    Then, for every server-emitted object shape (see ``speclint roles``) whose name matches what
    a statement discriminates, it checks the discriminator property: if its schema admits only a
    closed set of values (an ``enum``, or an ``anyOf``/``oneOf`` of ``const``/``enum``
    alternatives), a schema-validating client rejects exactly the events the policy tells it to
    ignore. An alternative that admits other values (RFC 0094 §C's vendor ``pattern``) opens it.

Why is this bad?
    RFC 0094 §C: OpenWOP's ``RunEventType`` was a closed enum while COMPATIBILITY.md ordered
    clients to ignore unknown event types and hosts to add event types in minor releases. Every
    additive or vendor event made a validating client throw instead of skipping the event: the
    schema contradicted the compatibility promise it was published under.

Example
    ::

        # COMPATIBILITY.md: "Clients MUST ignore unknown event types."
        # schemas/run-event.schema.json (emitted on the event stream)
        "type": {"enum": ["run.started", "run.completed", "run.failed"]}

    FAIL: ``error [closed-event-union] `type` of server-emitted `schemas/run-event.schema.json`
    is a closed enum of 3 values, but COMPATIBILITY.md says to ignore unknown event types ...``

Use instead
    ::

        "type": {"anyOf": [
          {"enum": ["run.started", "run.completed", "run.failed"]},
          {"type": "string", "pattern": "^x-[a-z0-9-]+\\\\."}
        ]}

    PASS, on an open event object (``closure-policy`` checks the object).

Options
    ``fields`` (default none): discriminator locations the policy applies to whatever the prose
    says, as ``file#pointer`` of the property (``"schemas/run-event.schema.json#/properties/type"``).

    ``vendor-pattern`` (default ``^x-[a-z0-9-]+\\.``): the pattern the suggested fix uses.

Limitations
    A statement that names no kind of object ("ignore unknown types") binds only the schema
    whose own ``description`` makes it. A client-submitted discriminator is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.prose.policies import Statement, binds, page_statements, policy_statements
from speclint.analyses.schemas.shapes import (
    Site,
    closed_values,
    follow,
    is_object_shape,
    named_shapes,
    use_sites,
)
from speclint.common.findings import Finding, Severity, headed
from speclint.parsing.structured import join_pointer

ID = "closed-event-union"
SEVERITY = Severity.ERROR
FACTS = ("references", "roles")  # speclint.analyses.context
# Reads the schemas, and of the prose only its ignore-unknown statements (speclint.analyses.units).
READS = "extract"
extract = page_statements
DEFAULT_VENDOR_PATTERN = r"^x-[a-z0-9-]+\."
SHOWN_STATEMENTS = 3


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    statements = list(policy_statements(corpus))
    configured = {str(f) for f in options.get("fields", ())}
    vendor = str(options.get("vendor-pattern", DEFAULT_VENDOR_PATTERN))
    seen: set[tuple[str, str]] = set()
    for shape in _server_shapes(corpus):
        properties = shape.node.get("properties")
        if not isinstance(properties, dict):
            continue
        for name in sorted(properties):
            field = Site(
                shape.document,
                join_pointer(join_pointer(shape.pointer, "properties"), name),
                properties[name],
            )
            closed = closed_values(corpus, field)
            if closed is None:
                continue
            values, holder, keyword = closed
            if len(values) < 2:
                continue  # one variant's `const`, not the union
            field_key = f"{field.document.path}#{field.pointer}"
            bound = sorted(
                (s for s in statements if binds(s, name, shape, field, holder)),
                key=lambda s: (s.schema is None, s.location.path, s.location.line),
            )
            if not bound and field_key not in configured:
                continue
            key = (holder.document.path, join_pointer(holder.pointer, keyword))
            if key in seen:
                continue
            seen.add(key)
            yield _finding(corpus, name, shape, holder, keyword, values, bound, vendor)


def _finding(
    corpus: Context,
    name: str,
    shape: Site,
    holder: Site,
    keyword: str,
    values: list[Any],
    bound: list[Statement],
    vendor: str,
) -> Finding:
    where = f"`{shape.document.path}`" + (f" at `{shape.pointer}`" if shape.pointer else "")
    local = [s for s in bound if s.schema is not None]
    prose = [s for s in bound if s.schema is None]
    said_parts = []
    if local:
        said_parts.append(
            f'its own description tells readers to ignore unknown values ("{local[0].text}")'
        )
    if prose:
        first = prose[0]
        what = (
            f"{first.qualifier} {first.discriminator}s"
            if first.qualifier
            else f"{first.discriminator}s"
        )
        said_parts.append(
            f'{first.location.path}:{first.location.line} says to ignore unknown {what} ("{first.text}")'
        )
    said = (
        " and ".join(said_parts)
        if said_parts
        else "the configuration binds it to the ignore-unknown policy (`fields`)"
    )
    kind = "enum" if keyword == "enum" else f"`{keyword}` of closed alternatives"
    return Finding(
        ID,
        SEVERITY,
        headed(
            f"`{name}` of server-emitted {where} is a closed {kind} of {len(values)} values, but "
            f"{said}",
            ": a client that validates rejects every new or vendor value instead of ignoring "
            f"it. Keep the list as the catalog and admit the rest: `anyOf: [{{enum: [...]}}, "
            f'{{type: string, pattern: "{vendor}"}}]`, on an open object',
            f"`{name}` of server-emitted {where} is a closed {kind} of {len(values)} values, but "
            "the documentation says to ignore unknown values",
            f"`{name}` of a server-emitted shape is a closed {kind} of {len(values)} values, but "
            "the documentation says to ignore unknown values",
        ),
        holder.at(keyword),
        related=(
            shape.location(note=f"the server-emitted shape whose `{name}` it is"),
            *(s.location for s in [*local[:1], *prose][:SHOWN_STATEMENTS]),
        ),
        key=f"{holder.pointer}/{keyword}",
    )


def _server_shapes(corpus: Context) -> Iterator[Site]:
    found: dict[tuple[str, str], Site] = {}
    for site in named_shapes(corpus):
        found[(site.document.path, site.pointer)] = site
    for use in use_sites(corpus):
        target = follow(corpus, use.site)
        found.setdefault((target.document.path, target.pointer), target)
    for (path, pointer), site in sorted(found.items()):
        if is_object_shape(site.node) and "server-emitted" in corpus.roles.roles_of(path, pointer):
            yield site
