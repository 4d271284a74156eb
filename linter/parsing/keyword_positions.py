"""Whether a member of a JSON Schema or API document is a keyword, a name, or data: the one place
that decides it for every walk of those documents (the reference walk, the bundlers, the
readers of schemas).

A key means what its position says. ``default`` is a keyword (its value is instance data, JSON
Schema 2020-12 Validation §9.2) in a schema object, but the name of a property in ``properties:
{default: {$ref: ...}}``, whose value is a schema like any other; ``default`` under an OpenAPI
operation's ``responses`` is its default response (OpenAPI 3.1.1 §4.8.16.1). So a walk carries
the position of each object it enters, and asks :func:`member_position` for each member's:

- a **schema** object's members are keywords: ``enum``, ``const``, ``default``, ``example``,
  ``examples`` (and the ``x-examples`` extension) hold data; ``properties``,
  ``patternProperties``, ``$defs``, ``definitions``, ``dependentSchemas`` and draft-07's
  ``dependencies`` hold **names** of schemas;
- an **API** object's (OpenAPI, AsyncAPI) members are fields: ``example``,
  ``default``, ``enum`` and ``const`` hold data (a server variable's default, a parameter's
  example), ``schema``, ``payload`` and AsyncAPI's message ``headers`` hold a schema, and the
  maps whose keys are names (``paths``, ``responses``, ``content``, ``components/<kind>``,
  AsyncAPI's ``channels``, ``messages``...) hold **names** of API objects (of schemas:
  ``components/schemas``, Swagger 2.0's ``definitions``);
- a name's value is an object of the kind its map holds, whatever the name;
- an OpenAPI ``examples`` field (of a media type, a parameter, a header, ``components``) maps
  names to Example Objects, each a ``$ref`` or an object whose members are data (a schema's
  ``examples`` is data, and so is an AsyncAPI message's, read apart by the reference walk);
- data holds nothing but data.

A list's items take the position of the list, but that the items of a map of names (OpenAPI's
``parameters`` is a map in ``components`` and a list in an operation) are the objects it holds.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from speclint.parsing.kinds import DocumentKind


class Position(enum.Enum):
    SCHEMA = "schema"  # a schema object: its members are keywords
    SCHEMA_NAMES = "schema names"  # a map of names to schemas (`properties`, `$defs`)
    API = "api"  # an OpenAPI / AsyncAPI object: its members are fields
    COMPONENTS = "components"  # a Components Object: a map of kinds to maps of names
    API_NAMES = "api names"  # a map of names to API objects (`paths`, `responses`)
    EXAMPLES = "examples"  # OpenAPI's map of names to Example Objects
    EXAMPLE = "example"  # an Example Object (or a Reference Object): its members are data
    DATA = "data"  # instance data: nothing in it is a keyword


# Keywords and fields whose value is instance data, not a schema or an API object.
DATA_KEYWORDS = frozenset({"enum", "const", "examples", "example", "default", "x-examples"})
# JSON Schema keywords whose value maps names to schemas (2020-12 Core §10.3.2, §8.2.4;
# draft-07 Validation §6.5.7 `dependencies`).
SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)
# Fields of an API object whose value is a schema.
_SCHEMA_FIELDS = frozenset({"schema", "payload"})
# Fields whose value maps names to API objects. OpenAPI 3.x (3.1.1 §4.8) and Swagger 2.0 (its
# root `parameters`, `responses`, `securityDefinitions`): paths and webhooks, responses, media
# types, headers, encodings, links, callbacks, server variables, OAuth scopes, discriminator
# mappings.
_OPENAPI_MAPS = frozenset(
    {
        "paths",
        "webhooks",
        "responses",
        "content",
        "headers",
        "encoding",
        "links",
        "callbacks",
        "variables",
        "scopes",
        "mapping",
        "securityDefinitions",
        "parameters",
    }
)
# AsyncAPI 2.x and 3.0: channels, operations, messages, servers, channel parameters, server
# variables, bindings (by protocol), OAuth scopes.
_ASYNCAPI_MAPS = frozenset(
    {
        "channels",
        "operations",
        "messages",
        "servers",
        "parameters",
        "variables",
        "bindings",
        "scopes",
        "availableScopes",
    }
)


def root_position(kind: DocumentKind) -> Position:
    """The position of a document's root: a schema's is a schema object, any other's an API
    object (an API document, or a part of one kept in a file of its own)."""
    return Position.SCHEMA if kind is DocumentKind.SCHEMA else Position.API


def member_position(position: Position, key: object, api: DocumentKind | None = None) -> Position:
    """The position of the value of member ``key`` of an object at ``position``, in a document
    of kind ``api`` (an OpenAPI or AsyncAPI document; None for a part of one kept in another file,
    read as either). ``Position.DATA`` means: not a keyword here, nothing in it is one."""
    if position in (Position.DATA, Position.EXAMPLE):
        return Position.DATA
    if position is Position.EXAMPLES:
        return Position.EXAMPLE
    name = str(key)
    if name == "examples" and api is not DocumentKind.ASYNCAPI and position in _FIELDS:
        # A media type's, parameter's or header's `examples`, and `components/examples`: Example
        # Objects by name, each of which may be a `$ref` (OpenAPI 3.1.1 §4.8.14.1, §4.8.22).
        return Position.EXAMPLES
    if position is Position.SCHEMA_NAMES:
        return Position.SCHEMA
    if position is Position.API_NAMES:
        return Position.API
    if position is Position.COMPONENTS:
        return Position.SCHEMA_NAMES if name == "schemas" else Position.API_NAMES
    if name in DATA_KEYWORDS:
        return Position.DATA
    if name in SCHEMA_MAPS:
        return Position.SCHEMA_NAMES
    if position is Position.SCHEMA:
        return Position.SCHEMA
    # An API object's field.
    if name in _SCHEMA_FIELDS:
        return Position.SCHEMA
    if name == "components":
        return Position.COMPONENTS
    if name == "headers" and api is DocumentKind.ASYNCAPI:
        return Position.SCHEMA  # a Message Object's headers are a schema (AsyncAPI 3.0.0 §3.3.27)
    if (api is not DocumentKind.ASYNCAPI and name in _OPENAPI_MAPS) or (
        api is not DocumentKind.OPENAPI and name in _ASYNCAPI_MAPS
    ):
        return Position.API_NAMES
    return Position.API


_FIELDS = (Position.API, Position.COMPONENTS)


def item_position(position: Position) -> Position:
    """The position of the items of a list at ``position``."""
    if position is Position.EXAMPLES:
        return Position.EXAMPLE  # an AsyncAPI message's examples, in a file of their own
    if position is Position.SCHEMA_NAMES:
        return Position.SCHEMA
    if position in (Position.API_NAMES, Position.COMPONENTS):
        return Position.API
    return position


def position_at(
    tokens: Iterable[object], start: Position, api: DocumentKind | None = None
) -> Position:
    """The position of the value that the pointer ``tokens`` names below an object at ``start``.
    A list index reads as a member whose name is digits, which comes to the same position."""
    position = start
    for token in tokens:
        position = member_position(position, token, api)
    return position


def holds_data(position: Position, key: object, api: DocumentKind | None = None) -> bool:
    """Whether the value of member ``key`` of an object at ``position`` is instance data (an
    ``enum``, a ``default``, an example), where a ``$ref`` is a value and not a reference."""
    return member_position(position, key, api) is Position.DATA


# The two spellings of the keyword that holds a schema's definitions: draft-07's `definitions`,
# renamed `$defs` by 2019-09 (Core §8.2.4), its meaning kept.
DEFINITIONS_RESPELLED = {"$defs": "definitions", "definitions": "$defs"}


def definition_keywords(
    tokens: Iterable[str], start: Position, api: DocumentKind | None = None
) -> list[int]:
    """The indices of the tokens of the pointer ``tokens`` (below an object at ``start``) that
    are a ``$defs`` or ``definitions`` keyword of a schema: what a schema moved from one
    dialect to the other respells. A property *named* ``$defs`` (a member of ``properties``)
    is not one."""
    position = start
    found: list[int] = []
    for index, token in enumerate(tokens):
        if position is Position.SCHEMA and token in DEFINITIONS_RESPELLED:
            found.append(index)
        position = member_position(position, token, api)
    return found
