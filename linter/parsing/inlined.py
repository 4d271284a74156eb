"""A document's ``$ref``\\s and their inlined copies as one (issue 46, item 4).

A build often publishes an API document twice: as written, with each schema defined once under
``components`` and used by ``$ref``, and *dereferenced*, every local ``$ref`` replaced by a copy
of its target (``redocly bundle --dereferenced``, ``swagger-cli bundle -r``, json-schema-ref-
parser's ``dereference``). The two say the same thing, but a schema used in six places is one
node in the first and six in the second, at other JSON pointers. Two readings make them one:

- :func:`content_digest`: a schema's text with each local ``$ref`` read as its target's text,
  so an inlined copy and its ``$ref`` have the same digest;
- :func:`source_pointer`: where a JSON pointer of the dereferenced copy leads in the document
  as written, its ``$ref``\\s followed (``/paths/~1tasks/post/…/schema/properties/input`` of
  the copy is ``/components/schemas/Task/properties/input`` of the source).

Only local references (``#/…``) are read: a reference to another file is another document's
content, kept as written. A reference that recurs (a tree's ``children`` of its own type) is
read as its target's pointer, the form a dereferencer also keeps for a cycle.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import unquote

from speclint.parsing.structured import join_pointer, resolve_pointer, split_pointer

# Local references followed one after another before a walk gives up (a chain of `$ref`s to
# `$ref`s, or a loop of them).
_HOPS = 32


def _local(node: Any) -> str | None:
    """The pointer a mapping's local ``$ref`` names, or None."""
    if not isinstance(node, dict):
        return None
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#"):
        return unquote(reference[1:])
    return None


def has_local_refs(node: Any) -> bool:
    """Whether a document (or a node of it) holds a local ``$ref``: one written with them, not
    a dereferenced copy."""
    stack = [node]
    while stack:  # iterative: a dereferenced document nests as deep as its schemas
        item = stack.pop()
        if isinstance(item, dict):
            if _local(item) is not None:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def content_digest(root: Any, node: Any, memo: dict[str, str] | None = None) -> str:
    """A digest of ``node``'s content with each local ``$ref`` of ``root`` read as its target's
    (members beside a ``$ref`` read over the target's, as a dereferencer merges them). Each
    target is digested once (``memo``, by pointer), so a document whose schemas refer to one
    another many times over costs its size, not the size of its expansion."""
    memo = {} if memo is None else memo
    return _digest(root, node, memo, ())


def _digest(root: Any, node: Any, memo: dict[str, str], open_: tuple[str, ...]) -> str:
    pointer = _local(node)
    if pointer is not None:
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        if pointer in open_:
            target = f"cycle:{pointer}"  # a recursive schema: its pointer stands for it
        elif pointer in memo:
            target = memo[pointer]
        else:
            found = resolve_pointer(root, pointer)
            target = _digest(root, found, memo, (*open_, pointer))
            memo[pointer] = target
        if not siblings:
            return target
        return _hash(["ref", target, _digest(root, siblings, memo, open_)])
    if isinstance(node, dict):
        return _hash(
            ["object", *sorted((str(k), _digest(root, v, memo, open_)) for k, v in node.items())]
        )
    if isinstance(node, list):
        return _hash(["array", *(_digest(root, v, memo, open_) for v in node)])
    return _hash(["value", json.dumps(node, sort_keys=True, default=str)])


def _hash(parts: list[Any]) -> str:
    text = json.dumps(parts, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def source_pointer(root: Any, pointer: str) -> str | None:
    """Where ``pointer`` leads in ``root``, each local ``$ref`` met on the way followed (a
    pointer of a dereferenced copy read in the document as written): the pointer of the node
    reached, or None where the walk leaves the document."""
    at = ""
    node = root
    for token in split_pointer(pointer):
        for _ in range(_HOPS):
            target = _local(node)
            if target is None or token in node:
                break
            node, at = resolve_pointer(root, target), target
        else:
            return None
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        at = join_pointer(at, token)
    return at
