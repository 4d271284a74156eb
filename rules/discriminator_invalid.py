"""A discriminator ``mapping`` value naming no schema; a Swagger 2.0 discriminator not required.

What it does
    In OpenAPI 3.x, reports each ``discriminator.mapping`` value that names no schema: a bare
    name with no ``components/schemas`` entry of that name in the document that reads the
    schema, or a reference (``#/components/schemas/Dog``, ``dog.yaml``) to nothing in the
    corpus. In Swagger 2.0, reports a ``discriminator`` whose property the schema (or an
    ``allOf`` member of it) does not define in ``properties``, or does not list in ``required``.
    Schema files are judged where written, with the components of the documents reading them.

Why is this bad?
    The mapping's values are "schema names or references" (OpenAPI 3.0.4 §4.7.25.1, 3.1.1
    §4.8.25.1): one that names nothing sends every payload with that discriminator value to no
    schema, and generated clients fail to build the polymorphic type. Swagger 2.0: "The property
    name used MUST be defined at this schema and it MUST be in the ``required`` property list"
    (2.0 Schema Object): a payload without the property cannot be dispatched.

Example
    ::

        openapi: 3.0.3
        components:
          schemas:
            Pet:
              type: object
              properties: {kind: {type: string}}
              discriminator:
                propertyName: kind
                mapping: {dog: Dgo}
            Dog: {allOf: [{$ref: '#/components/schemas/Pet'}]}

    FAIL: ``error [discriminator-invalid] discriminator mapping `dog` names `Dgo`, which is no
    schema ...``

Use instead
    ::

                mapping: {dog: Dog}

    PASS.

Options
    None.

Limitations
    A reference to a file outside the corpus (a URL, a path out of the root) is not judged
    (``unresolved-ref`` reports what it can). In 2.0, only the schema and its ``allOf`` members
    written inline or by a local ``$ref`` are read for the property. In a schema file, a
    ``#/components/schemas/Dog`` naming a ``oneOf`` branch file ``Dog.yaml`` is left to the build.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from speclint.analyses.api.api_schemas import ApiSchema, api_schema_objects
from speclint.analyses.context import Context
from speclint.common.findings import Finding, Severity
from speclint.parsing.kinds import DocumentKind
from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

ID = "discriminator-invalid"
SEVERITY = Severity.ERROR
PREVIEW = True  # new (issue 52): labelled in benchmarks/ecosystem (precision.json); leaving preview is decided there
FACTS = ("references",)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for found in api_schema_objects(corpus):
        discriminator = found.schema.node.get("discriminator")
        if isinstance(discriminator, dict) and found.families & {"3.0", "3.1+"}:
            yield from _mapping(corpus, found, discriminator)
        elif isinstance(discriminator, str) and found.families == {"2.0"}:
            yield from _swagger(corpus, found, discriminator)


def _mapping(corpus: Context, found: ApiSchema, discriminator: dict[str, Any]) -> Iterator[Finding]:
    mapping = discriminator.get("mapping")
    if not isinstance(mapping, dict):
        return
    at = join_pointer(join_pointer(found.schema.pointer, "discriminator"), "mapping")
    for value_name, target in mapping.items():
        if not isinstance(target, str) or _names_a_schema(corpus, found, target):
            continue
        yield Finding(
            ID,
            SEVERITY,
            f"discriminator mapping `{value_name}` names `{target}`, which is no schema: a "
            "mapping value is a schema name under `components/schemas` or a reference to a "
            "schema (OpenAPI 3.0.4 §4.7.25.1, 3.1.1 §4.8.25.1); correct it to the schema that "
            f"payloads with `{value_name}` follow, or delete the entry",
            found.document.location(join_pointer(at, str(value_name))),
            key=f"mapping:{at}/{value_name}",
        )


def _names_a_schema(corpus: Context, found: ApiSchema, target: str) -> bool:
    readers = [corpus.documents.get(path) for path in found.roots]
    for reader in readers:
        data = reader.data if reader is not None else None
        schemas = resolve_pointer(data, "/components/schemas") if isinstance(data, dict) else None
        if isinstance(schemas, dict) and target in schemas:
            return True  # a schema name (3.0.4 §4.7.25.1: names are tried first)
    if _branch_file(found, target):
        return True
    if "#" not in target and "/" not in target and "." not in target:
        return False  # a bare name no document reading the schema defines
    if "://" in target:
        return True  # a URL: not judged offline
    file_part, _, fragment = target.partition("#")
    pointer = unquote(fragment)
    holders = []
    if file_part:
        named = posixpath.normpath(
            posixpath.join(posixpath.dirname(found.document.path), unquote(file_part))
        )
        if named.startswith("../"):
            return True  # out of the root: not judged
        holder = corpus.documents.get(named)
        if holder is None:
            return False
        holders.append(holder)
    else:
        # A fragment alone names the file it is written in; a bundler reads it in the
        # document the file is part of, so either place will do.
        holders += [found.document, *(r for r in readers if r is not None)]
    return any(holder.usable and _reaches(holder.data, pointer) for holder in holders)


def _branch_file(found: ApiSchema, target: str) -> bool:
    """Whether ``target`` (``#/components/schemas/Dog``), in a schema kept in a file of its own,
    names a file one of the schema's ``oneOf``/``anyOf`` branches reference by name
    (``./Dog.yaml``): a split source whose build names each component after its file, so the
    pointer resolves in the assembled document (a text merge speclint does not read)."""
    if found.document.kind is DocumentKind.OPENAPI or not target.startswith("#/components/"):
        return False
    name = target.rsplit("/", 1)[-1]
    node = found.schema.node
    for keyword in ("oneOf", "anyOf"):
        for branch in node.get(keyword) or ():
            reference = branch.get("$ref") if isinstance(branch, dict) else None
            if isinstance(reference, str) and not reference.startswith("#"):
                stem = posixpath.splitext(posixpath.basename(reference.partition("#")[0]))[0]
                if stem == name:
                    return True
    return False


def _reaches(data: Any, pointer: str) -> bool:
    """Whether ``pointer`` names a node of ``data``, passing through local references on the
    way, as resolvers do for a pointer written against the dereferenced document (a generated
    mapping that names a branch below a ``$ref``)."""
    node = data
    for token in split_pointer(pointer):
        for _ in range(16):
            if isinstance(node, dict) and token not in node and isinstance(node.get("$ref"), str):
                reference = node["$ref"]
                if not reference.startswith("#"):
                    return True  # into another file: not followed here
                node = resolve_pointer(data, unquote(reference[1:]))
            else:
                break
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def _swagger(corpus: Context, found: ApiSchema, name: str) -> Iterator[Finding]:
    node = found.schema.node
    members = [node, *_all_of(found, node)]
    defined = any(
        isinstance(m.get("properties"), dict) and name in m["properties"] for m in members
    )
    required = any(isinstance(m.get("required"), list) and name in m["required"] for m in members)
    missing = [
        *([] if defined else ["defined in `properties`"]),
        *([] if required else ["listed in `required`"]),
    ]
    if not missing:
        return
    yield Finding(
        ID,
        SEVERITY,
        f"discriminator `{name}` is not {' nor '.join(missing)}: Swagger 2.0 says the property "
        '"MUST be defined at this schema and it MUST be in the `required` property list" '
        f"(2.0 Schema Object); add `{name}` to `properties` and `required`",
        found.document.location(join_pointer(found.schema.pointer, "discriminator")),
        key=f"discriminator:{found.schema.pointer}",
    )


def _all_of(found: ApiSchema, node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    branches = node.get("allOf")
    for branch in branches if isinstance(branches, list) else ():
        if not isinstance(branch, dict):
            continue
        reference = branch.get("$ref")
        if isinstance(reference, str) and reference.startswith("#"):
            target = resolve_pointer(found.document.data, unquote(reference[1:]))
            branch = target if isinstance(target, dict) else {}
        yield branch
