"""Parse JSON and YAML into plain data plus a position for every JSON pointer.

Every finding needs a line and a column, so parsing keeps, for each RFC 6901 pointer, where its key
(for a mapping member) or item (for a sequence element) starts. Duplicate keys are recorded, not
silently collapsed: JSON (RFC 8259 §4) and YAML both leave them undefined and real parsers keep the
last one, which hides a defect.

- JSON is read by a small recursive-descent reader over the standard library's C string scanner:
  exact JSON semantics, positions, duplicate keys, and a nesting limit that fails with a location
  instead of a ``RecursionError``.
- YAML is read with ruamel.yaml as YAML 1.2 (``on:`` stays a string key, ``no`` stays a string),
  composing the node graph so aliases can be bounded: a document whose alias expansion exceeds
  ``MAX_NODES`` is a parse error, not an hour of CPU (the "billion laughs" attack). YAML 1.1's
  merge key (``<<: *base``), which YAML 1.2 tools still read, merges as 1.1 defines it.
"""

from __future__ import annotations

import io
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import unquote

MAX_DEPTH = 256
MAX_NODES = 2_000_000

Position = tuple[int, int]


class ParseFailure(Exception):
    """The text is not a well-formed document; ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class DuplicateKey:
    pointer: str  # pointer of the mapping member that is repeated
    first: Position
    again: Position
    same: bool = False  # the repetition gives the value the first occurrence gave


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``1`` is not ``true`` nor ``1.0`` here, as Python's ``==`` has it."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@dataclass
class Parsed:
    data: Any
    positions: dict[str, Position] = field(default_factory=dict)
    duplicates: list[DuplicateKey] = field(default_factory=list)
    # YAML only: the pointers of the mapping members whose key is no string (`200:`, `true:`,
    # `null:`), kept as the key's JSON text ("200") in ``data``; JSON keys are always strings.
    non_string_keys: list[str] = field(default_factory=list)
    # YAML only: the values in a block collection whose continuation lines are not indented past
    # the collection (``deficient_indents``): (pointer, line, column, parent column), 1-based.
    deficient_indents: list[tuple[str, int, int, int]] = field(default_factory=list)


def json_type(value: Any) -> str:
    """The JSON Schema type name of a parsed JSON value (Validation 2020-12 §6.1.1: a value is
    ``integer`` and ``number`` both; the narrower name is given)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def canonical(value: Any) -> str:
    """A JSON value as one string, the same for the same value whatever its members' order: what
    two values are compared, set apart or named by (``enum`` values, union members, schemas).
    Python's equality, not JSON's: ``1`` and ``1.0`` read apart, as ``same_value`` has them."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def node_count(data: Any) -> int:
    """How many JSON values ``data`` holds, itself included (a measure of work: walked without
    recursion, so a deep document costs no stack)."""
    count, stack = 0, [data]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def escape_token(token: str | int) -> str:
    text = token if isinstance(token, str) else str(token)
    # Most tokens need no escape: no copies, no scans past the two tests (RFC 6901 §3).
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def join_pointer(base: str, token: str | int) -> str:
    return f"{base}/{escape_token(token)}"


def pointer_of(tokens: Iterable[str | int]) -> str:
    """The JSON pointer of a path of member names and indexes (each escaped)."""
    pointer = ""
    for token in tokens:
        pointer = join_pointer(pointer, token)
    return pointer


def resolve_pointer(data: Any, pointer: str) -> Any:
    """The value at a JSON pointer, or None when there is none."""
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def holds_pointer(data: Any, pointer: str) -> bool:
    """Whether ``data`` has a member at the JSON pointer (one holding ``null`` counts, which
    :func:`resolve_pointer` cannot tell from none)."""
    node = data
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def pointer_within(pointer: str, subtree: str) -> bool:
    """Whether ``pointer`` is ``subtree`` or below it ("" holds everything): a prefix of whole
    tokens, so ``/ab`` is not within ``/a``."""
    return subtree == "" or pointer == subtree or pointer.startswith(subtree + "/")


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    if pointer == "/":
        return [""]
    tokens = pointer.lstrip("/").split("/")
    return [unescape_token(t) for t in tokens] if "~" in pointer else tokens


# Local references followed one after another before a follow gives up: a chain of `$ref`s to
# `$ref`s longer than this is a loop.
LOCAL_HOPS = 32


def local_pointer(reference: str) -> str | None:
    """The JSON pointer a reference into its own document names (``#/components/schemas/Job``,
    percent-decoded as a URI fragment: RFC 6901 §6; ``#`` is the whole document), or None: a
    reference to another document, or an anchor (``#job``), names no pointer."""
    if reference == "#":
        return ""
    if not reference.startswith("#/"):
        return None
    return unquote(reference[1:])


def follow_local(data: Any, node: Any, pointer: str = "") -> tuple[str, Any]:
    """Where ``node`` (at ``pointer`` of ``data``) leads when its local ``$ref``\\s are followed
    (a JSON Schema ``$ref``, an OpenAPI or AsyncAPI Reference Object): the pointer and value of
    the first node that is no local reference, a reference to another document or an anchor
    included. The value is None where a reference leads nowhere, or around a loop (more than
    ``LOCAL_HOPS`` references one after another)."""
    for _ in range(LOCAL_HOPS):
        reference = node.get("$ref") if isinstance(node, dict) else None
        target = local_pointer(reference) if isinstance(reference, str) else None
        if target is None:
            return pointer, node
        pointer, node = target, resolve_pointer(data, target)
    return pointer, None


# --- JSON ---------------------------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
_LITERALS = {"true": True, "false": False, "null": None}
_VALUE_STARTS = frozenset('{["-0123456789tfn')
_BARE_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")


class _JsonReader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.positions: dict[str, Position] = {"": (1, 1)}
        self.duplicates: list[DuplicateKey] = []
        # Offsets of line starts, for offset -> (line, column) by bisection.
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def where(self, offset: int) -> Position:

        index = bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def fail(self, message: str, offset: int) -> ParseFailure:
        line, column = self.where(min(offset, len(self.text)))
        return ParseFailure(message, line, column)

    def skip(self, offset: int) -> int:
        match = _WS.match(self.text, offset)
        return match.end() if match else offset

    def read(self) -> Any:
        offset = self.skip(0)
        if offset < len(self.text) and self.text[offset] == "\ufeff":
            offset = self.skip(offset + 1)
        value, offset = self.value(offset, "", 0)
        offset = self.skip(offset)
        if offset != len(self.text):
            raise self.fail("extra data after the JSON document", offset)
        return value

    def value(
        self, offset: int, pointer: str, depth: int, within: tuple[str, int] | None = None
    ) -> tuple[Any, int]:
        """The value at ``offset``; ``within``: the container it is in and where that opened."""
        if offset >= len(self.text):
            if within is not None:
                raise self.unexpected(offset, "a JSON value", *within)
            raise self.fail("unexpected end of file: expected a JSON value", offset)
        char = self.text[offset]
        if char == "{" or char == "[":
            if depth >= MAX_DEPTH:
                raise self.fail(f"nesting deeper than {MAX_DEPTH} levels", offset)
            if char == "{":
                return self.object(offset + 1, pointer, depth + 1)
            return self.array(offset + 1, pointer, depth + 1)
        if char == '"':
            return self.string(offset + 1)
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, offset):
                return literal, offset + len(word)
        match = _NUMBER.match(self.text, offset)
        if match and match.end() > offset:
            number = match.group(0)
            if match.group(1) or match.group(2):
                return float(number), match.end()
            return int(number), match.end()
        fault = self.fault_at(offset)
        if fault is not None:
            raise self.fail(f"expected a JSON value: {fault}", offset)
        raise self.fail(f"expected a JSON value, found {char!r}", offset)

    def string(self, offset: int) -> tuple[str, int]:
        try:
            return json.decoder.scanstring(self.text, offset, True)  # type: ignore[attr-defined,no-any-return]
        except json.JSONDecodeError as error:
            raise self.fail(self.string_fault(error), error.pos) from None

    def string_fault(self, error: json.JSONDecodeError) -> str:
        """The decoder's message for a bad string, said whole: its messages end in "at" before
        the position they were written to be followed by, which a finding gives apart."""
        message = error.msg.lower().removesuffix(" at")
        if message == "invalid control character":
            found = self.text[error.pos : error.pos + 1]
            if found in ("\n", "\r"):
                # RFC 8259 §7: control characters (U+0000 to U+001F) must be escaped.
                return (
                    "a line break inside a string: JSON strings cannot span lines (write `\\n`, "
                    "or join the lines)"
                )
            code = f"U+{ord(found or ' '):04X}"
            return f"a raw control character ({code}) inside a string: escape it (RFC 8259 §7)"
        if message == "unterminated string starting":
            return "unterminated string: the string opened here is not closed"
        return message

    def object(self, offset: int, pointer: str, depth: int) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        opened = offset - 1
        offset = self.skip(offset)
        if self.text.startswith("}", offset):
            return result, offset + 1
        while True:
            if not self.text.startswith('"', offset):
                raise self.unexpected(offset, "a double-quoted property name", "object", opened)
            key_at = self.where(offset)
            key, offset = self.string(offset + 1)
            member = join_pointer(pointer, key)
            repeated = key in result
            first_at = self.positions[member] if repeated else key_at
            self.positions[member] = key_at
            offset = self.skip(offset)
            if not self.text.startswith(":", offset):
                raise self.unexpected(offset, "':' after the property name", "object", opened)
            offset = self.skip(offset + 1)
            earlier, order = result.get(key), len(self.duplicates)
            result[key], offset = self.value(offset, member, depth, ("object", opened))
            if repeated:  # listed before the duplicates inside its value, as they are written
                same = same_value(earlier, result[key])
                self.duplicates.insert(order, DuplicateKey(member, first_at, key_at, same))
            offset = self.skip(offset)
            if self.text.startswith(",", offset):
                comma, offset = offset, self.skip(offset + 1)
                if self.text.startswith("}", offset):
                    raise self.trailing_comma(comma, "}")
                continue
            if self.text.startswith("}", offset):
                return result, offset + 1
            if self.text.startswith('"', offset):
                raise self.fail(
                    "expected ',' or '}' after an object member: a ',' is missing before this "
                    "member",
                    offset,
                )
            raise self.unexpected(offset, "',' or '}' after an object member", "object", opened)

    def array(self, offset: int, pointer: str, depth: int) -> tuple[list[Any], int]:
        result: list[Any] = []
        opened = offset - 1
        offset = self.skip(offset)
        if self.text.startswith("]", offset):
            return result, offset + 1
        while True:
            item = join_pointer(pointer, len(result))
            self.positions[item] = self.where(offset)
            value, offset = self.value(offset, item, depth, ("array", opened))
            result.append(value)
            offset = self.skip(offset)
            if self.text.startswith(",", offset):
                comma, offset = offset, self.skip(offset + 1)
                if self.text.startswith("]", offset):
                    raise self.trailing_comma(comma, "]")
                continue
            if self.text.startswith("]", offset):
                return result, offset + 1
            if offset < len(self.text) and self.text[offset] in _VALUE_STARTS:
                raise self.fail(
                    "expected ',' or ']' after an array item: a ',' is missing before this item",
                    offset,
                )
            raise self.unexpected(offset, "',' or ']' after an array item", "array", opened)

    # The faults people make writing JSON by hand, named where they are (issue 25, item 16): a
    # parser's "expected a double-quoted property name" on the line after a trailing comma sends
    # the reader to the wrong line.

    def trailing_comma(self, comma: int, closing: str) -> ParseFailure:
        last = "member (RFC 8259 §4)" if closing == "}" else "item (RFC 8259 §5)"
        return self.fail(
            f"trailing comma before `{closing}`: JSON allows no ',' after the last {last}", comma
        )

    def unexpected(self, offset: int, expected: str, container: str, opened: int) -> ParseFailure:
        """What was expected at ``offset``, with what the text has there instead when it is a
        common mistake: the end of the file, a comment, single quotes, an unquoted name."""
        if offset >= len(self.text):
            line = self.where(opened)[0]
            return self.fail(
                f"unexpected end of file: the {container} opened at line {line} is not closed",
                offset,
            )
        found = self.fault_at(offset)
        if found is None and expected.startswith("a double-quoted"):
            name = _BARE_NAME.match(self.text, offset)
            if name is not None:
                found = f'property name `{name.group(0)}` is not quoted: write "{name.group(0)}"'
        return self.fail(f"expected {expected}" + (f": {found}" if found else ""), offset)

    def fault_at(self, offset: int) -> str | None:
        if self.text.startswith(("//", "/*"), offset):
            return (
                "JSON has no comments (a file of JSON with comments is read as such when it is "
                "named `*.jsonc`)"
            )
        if self.text.startswith("'", offset):
            return "JSON strings and property names are in double quotes, not single quotes"
        return None


def strip_jsonc(text: str, original: str | None = None) -> str:
    """JSON with comments (``//``, ``/* */``) and trailing commas, as VS Code and TypeScript read
    ``tsconfig.json`` and ``*.jsonc``, turned into JSON of the same length: comments and trailing
    commas become spaces (newlines kept), so every line and column stays where the author sees
    it. ``original``: the text before an example's notes were blanked in ``text`` (of the same
    length, ``speclint.parsing.sketches``); a trailing comma is then dropped only where a note
    or a comment stood between it and the bracket (``"a": 1,`` before a ``...`` line) or on
    its own line (``"apis": [...],``), and any other is left for the parse to report: a note
    excuses the comma it leaves trailing."""
    out = list(text)
    index, length = 0, len(text)
    last_comma: int | None = None
    noted = original is None
    while index < length:
        char = text[index]
        if char == '"':
            last_comma = None
            index += 1
            while index < length and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
            index += 1
            continue
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            out[index:end] = " " * (end - index)
            index = end
            noted = True
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end < 0 else end + 2
            out[index:end] = [c if c == "\n" else " " for c in text[index:end]]
            index = end
            noted = True
            continue
        if char == ",":
            last_comma = index
            # a note on the comma's own line (`"apis": [...],`: a member elided in part)
            start = text.rfind("\n", 0, index) + 1
            noted = original is None or original[start:index] != text[start:index]
        elif char in "}]" and last_comma is not None:
            if noted:
                out[last_comma] = " "
            last_comma = None
        elif not char.isspace():
            last_comma = None
        elif original is not None and original[index : index + 1] != char:
            noted = True  # a note blanked here
        index += 1
    return "".join(out)


# YAML front matter above a JSON text: `---` on the first line, then YAML, then `---` alone on a
# line, then the JSON value.
_FRONT_MATTER = re.compile(r"---[ \t]*\r?\n(?:.*\n)*?---[ \t]*\r?\n(?=\s*[\[{])")


def without_front_matter(text: str) -> str | None:
    """``text`` with its YAML front matter blanked (its lines kept, empty), when a JSON value
    follows front matter: what a site generator serves (Jekyll processes every file that starts
    with front matter, strips it, and serves the rest); None when there is none."""
    found = _FRONT_MATTER.match(text)
    if found is None:
        return None
    return "\n" * found.group(0).count("\n") + text[found.end() :]


def parse_json(text: str) -> Parsed:
    reader = _JsonReader(text)
    data = reader.read()
    return Parsed(data, reader.positions, reader.duplicates)


def fast_json(text: str) -> tuple[Any] | None:
    """``(data,)`` read by the C decoder, when it reads ``text`` exactly as :func:`parse_json`
    would: no duplicate key, no ``NaN``/``Infinity``, no BOM, nesting within ``MAX_DEPTH``. Its
    positions are left for :func:`parse_json` to find if a finding ever needs one: the scanner is
    twenty times slower than the decoder, and most documents have no finding (issue 16). None
    when only the scanner can say what the text is (it also says where it goes wrong)."""
    duplicated = False

    def members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        result = dict(pairs)
        if len(result) != len(pairs):
            duplicated = True
        return result

    def constant(name: str) -> Any:
        raise ValueError(name)  # JSON (RFC 8259 §6) has no NaN or Infinity

    try:
        data = json.loads(text, object_pairs_hook=members, parse_constant=constant)
    except (ValueError, RecursionError):
        return None
    if duplicated or not _nested_within(data, MAX_DEPTH):
        return None
    return (data,)


def _nested_within(data: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


# --- YAML ---------------------------------------------------------------------------------------


class _Reading(io.StringIO):
    """The text, read by the YAML parser in chunks, telling ``progress`` how many characters are read: a
    20 MB document takes a minute to compose, and a bar that does not move looks like a hang."""

    def __init__(self, text: str, progress: Callable[[int], None]) -> None:
        super().__init__(text)
        self.progress = progress

    def read(self, size: int | None = -1) -> str:
        # Small chunks, so the bar moves often: libyaml asks for its whole buffer at a time.
        chunk = super().read(min(size, self.CHUNK) if size is not None and size > 0 else self.CHUNK)
        self.progress(self.tell())
        return chunk

    CHUNK = 8192


# The line breaks the YAML readers count lines by (libyaml reads YAML 1.1's NEL, LS and PS too).
_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
# The tags of the YAML 1.2 core schema (and 1.1's timestamp, binary, set and omap, which the safe
# constructor knows); any other tag is an application's.
_CORE_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "binary", "merge", "value")
)


def parse_yaml(text: str, progress: Callable[[int], None] | None = None) -> Parsed:
    """The YAML 1.2 document in ``text``, with the line and column of every value;
    ``progress``, when given, is told how many characters are read as the parse goes."""
    libyaml = _libyaml_loader() is not None
    MarkedYAMLError, YAMLError, MappingNode, _, ScalarNode, SequenceNode = _yaml_types(libyaml)
    try:
        documents = (
            _compose_with_libyaml(text, progress)
            if libyaml
            else _compose_with_ruamel(text, progress)
        )
    except MarkedYAMLError as error:
        # libyaml is stricter than YAML 1.2 in places (a tab inside a block scalar's content,
        # §8.1.1.2 and §6.1 allow it): a document ruamel's YAML 1.2 reader composes is read
        # from its nodes, and only a document both refuse is unreadable.
        composed = _composed_by_ruamel(text) if libyaml and len(text) <= _RETRIED else None
        if composed is None:
            mark = error.problem_mark or error.context_mark
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            raise ParseFailure(_yaml_message(error), line, column) from None
        documents = composed
        MarkedYAMLError, YAMLError, MappingNode, _, ScalarNode, SequenceNode = _yaml_types(False)
    except YAMLError as error:
        raise ParseFailure(str(error).strip().splitlines()[0]) from None
    except RecursionError:
        raise ParseFailure("YAML nesting too deep to parse") from None
    if len(documents) > 1:
        second = documents[1]
        mark = second.start_mark if second is not None else None
        raise ParseFailure(
            "more than one YAML document in the file; a spec document must be a single document",
            mark.line + 1 if mark else 1,
        )
    root = documents[0] if documents else None
    if root is None:
        return Parsed(None, {"": (1, 1)})

    positions: dict[str, Position] = {"": (root.start_mark.line + 1, root.start_mark.column + 1)}
    duplicates: list[DuplicateKey] = []
    non_string_keys: list[str] = []
    deficient: list[tuple[str, int, int, int]] = []
    lines: list[str] = []
    sizes: dict[int, int] = {}

    def check_indent(node: Any, parent: int, pointer: str) -> None:
        # YAML 1.2 §8.2.3 / §7.3, §7.4: a flow collection or a quoted scalar that is the value
        # of a block mapping entry or a block sequence entry at indentation n continues on lines
        # indented at least n+1 spaces (`s-l+flow-in-block(n)` = `s-separate(n+1, ...)`).
        # libyaml and ruamel accept less; strict parsers (Redocly's) refuse the whole file.
        if id(node) in built:
            return  # an alias: judged where its anchor is written
        if isinstance(node, ScalarNode):
            if node.style not in ('"', "'"):
                return
        elif not isinstance(node, (MappingNode, SequenceNode)) or not node.flow_style:
            return
        first, last = node.start_mark.line, node.end_mark.line
        if last <= first:
            return
        if not lines:
            lines.extend(_YAML_BREAK.split(text))
        for number in range(first + 1, min(last, len(lines) - 1) + 1):
            line = lines[number]
            content = line.lstrip(" ")
            if not content.strip() or content[0] == "\t":
                continue  # empty lines may be indented less (l-empty); tabs: not judged
            if content[0] == "#" and not isinstance(node, ScalarNode):
                continue  # a comment line in a flow collection
            indent = len(line) - len(content)
            if indent <= parent:
                deficient.append((pointer, number + 1, indent + 1, parent + 1))
                return

    def expanded_size(node: Any, depth: int) -> int:
        # Aliases make the node graph a DAG; its tree expansion can be exponential in its size.
        known = sizes.get(id(node))
        if known is not None:
            if known < 0:
                raise ParseFailure("recursive YAML alias", node.start_mark.line + 1)
            return known
        if depth > MAX_DEPTH:
            raise ParseFailure(f"nesting deeper than {MAX_DEPTH} levels", node.start_mark.line + 1)
        sizes[id(node)] = -1
        total = 1
        if isinstance(node, MappingNode):
            total += sum(expanded_size(v, depth + 1) for _, v in node.value)
        elif isinstance(node, SequenceNode):
            total += sum(expanded_size(v, depth + 1) for v in node.value)
        if total > MAX_NODES:
            raise ParseFailure(
                f"document expands to more than {MAX_NODES:,} nodes (YAML alias bomb?)",
                node.start_mark.line + 1,
                node.start_mark.column + 1,
            )
        sizes[id(node)] = total
        return total

    expanded_size(root, 0)
    built: dict[int, Any] = {}

    def build(node: Any, pointer: str) -> Any:
        # An aliased node is built once and shared; positions are recorded at its first use.
        if id(node) in built:
            return built[id(node)]
        if isinstance(node, ScalarNode):
            if node.tag not in _CORE_TAGS:
                # An application tag (`!!python/name:...` in mkdocs.yml, `!Ref` in CloudFormation)
                # is valid YAML that only its application constructs: keep the text, construct
                # nothing (and never run anything).
                return node.value
            return _core_scalar(node.tag, node.value, node.start_mark)
        if isinstance(node, SequenceNode):
            items: list[Any] = []
            built[id(node)] = items
            block = not node.flow_style
            for index, child in enumerate(node.value):
                item = join_pointer(pointer, index)
                positions.setdefault(item, (child.start_mark.line + 1, child.start_mark.column + 1))
                if block:
                    check_indent(child, node.start_mark.column, item)
                items.append(build(child, item))
            return items
        if isinstance(node, MappingNode):
            mapping: dict[str, Any] = {}
            built[id(node)] = mapping
            merged: dict[str, Any] = {}
            merged_at: dict[str, Position] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                    for key_text, value in _merged(value_node, pointer).items():
                        merged.setdefault(key_text, value)
                        merged_at.setdefault(key_text, at)
                    continue
                key = build(key_node, pointer)
                key_text = key if isinstance(key, str) else json.dumps(key)
                member = join_pointer(pointer, key_text)
                if key_text is not key:
                    non_string_keys.append(member)
                at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                repeated = key_text in mapping
                first_at = positions.get(member, at)
                positions[member] = at
                earlier, order = mapping.get(key_text), len(duplicates)
                if not node.flow_style:
                    check_indent(value_node, key_node.start_mark.column, member)
                mapping[key_text] = build(value_node, member)
                if repeated:  # listed before the duplicates inside its value, as written
                    same = same_value(earlier, mapping[key_text])
                    duplicates.insert(order, DuplicateKey(member, first_at, at, same))
            # YAML 1.1 merge (yaml.org/type/merge.html): the keys written in the mapping win,
            # then the merged mappings in the order given; a merged key is no duplicate.
            for key_text, value in merged.items():
                if key_text not in mapping:
                    mapping[key_text] = value
                    positions.setdefault(join_pointer(pointer, key_text), merged_at[key_text])
            return mapping
        raise ParseFailure(f"unsupported YAML node {type(node).__name__}")

    def _merged(value_node: Any, pointer: str) -> dict[str, Any]:
        # `<<: *base` or `<<: [*a, *b]`; a mapping earlier in the list wins over a later one.
        sources = value_node.value if isinstance(value_node, SequenceNode) else [value_node]
        found: dict[str, Any] = {}
        for source in sources:
            if not isinstance(source, MappingNode):
                raise ParseFailure(
                    "a YAML merge key (<<) takes a mapping or a list of mappings",
                    source.start_mark.line + 1,
                    source.start_mark.column + 1,
                )
            value = build(source, pointer)
            for key_text, item in value.items():
                found.setdefault(key_text, item)
        return found

    try:
        data = build(root, "")
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise ParseFailure(
            _yaml_message(error), mark.line + 1 if mark else 1, mark.column + 1 if mark else 1
        ) from None
    return Parsed(data, positions, duplicates, non_string_keys, deficient)


# The largest document a libyaml refusal is read again by ruamel (pure Python, ~10x slower): a
# broken file of tens of megabytes is reported at once, not after minutes.
_RETRIED = 2_000_000


def _composed_by_ruamel(text: str) -> list[Any] | None:
    """The nodes ruamel's YAML 1.2 reader composes of ``text``; None where it refuses it too."""
    try:
        return _compose_with_ruamel(text, None)
    except Exception:  # any refusal: the libyaml error stands (it says where)
        return None


def _compose_with_ruamel(text: str, progress: Callable[[int], None] | None) -> list[Any]:
    # Deferred: ruamel.yaml takes 0.02 s to import, and it composes only where libyaml is
    # missing; a run that parses no YAML (a page edit, a warm run) never needs it.
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)  # type: ignore[assignment]
    return list(yaml.compose_all(text if progress is None else _Reading(text, progress)))


def _compose_with_libyaml(text: str, progress: Callable[[int], None] | None) -> list[Any]:
    """The node trees of ``text`` from libyaml's C parser and composer (PyYAML's CParser), with
    YAML 1.2 core-schema tags: ten times the speed of the pure-Python composer, the same nodes
    and marks (issue 16). At most two: a second document is reported by the caller."""
    loader = _libyaml_loader()(text if progress is None else _Reading(text, progress))
    try:
        documents: list[Any] = []
        while len(documents) < 2 and loader.check_node():
            documents.append(loader.get_node())
        return documents
    finally:
        loader.dispose()


def _yaml_types(libyaml: bool) -> tuple[Any, ...]:
    """The error and node classes of the composer in use: PyYAML's over libyaml, else ruamel's
    pure-Python one (a PyYAML built without libyaml). Imported here: which one is known only
    at run time."""
    if libyaml:
        from yaml import error, nodes
    else:
        from ruamel.yaml import error, nodes  # type: ignore[no-redef]
    return (
        error.MarkedYAMLError,
        error.YAMLError,
        nodes.MappingNode,
        nodes.Node,
        nodes.ScalarNode,
        nodes.SequenceNode,
    )


@cache
def _libyaml_loader() -> Any:
    """A loader class of libyaml's parser and composer and a YAML 1.2 core-schema resolver
    (YAML 1.2.2 §10.3.2): `on`, `yes` and `no` stay strings, `0o17` is octal, `017` is 17.
    None where PyYAML was built without libyaml (the import below fails)."""
    try:
        from yaml.cyaml import CParser  # type: ignore[attr-defined]
        from yaml.resolver import BaseResolver
    except ImportError:
        return None

    class CoreSchema(BaseResolver):  # type: ignore[misc]
        pass

    implicit = (
        ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
        ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
        (
            "tag:yaml.org,2002:int",
            r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$",
            list("-+0123456789"),
        ),
        (
            "tag:yaml.org,2002:float",
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
            list("-+.0123456789"),
        ),
        # Not 1.2, but YAML 1.1's merge key is what YAML tools of every version still read
        # (ruamel reads it so too): `<<: *base` merges, it is not a key named `<<`.
        ("tag:yaml.org,2002:merge", r"^<<$", ["<"]),
    )
    for tag, pattern, first in implicit:
        CoreSchema.add_implicit_resolver(tag, re.compile(pattern), first)

    class Loader(CParser, CoreSchema):  # type: ignore[misc]
        def __init__(self, stream: Any) -> None:
            CParser.__init__(self, stream)
            CoreSchema.__init__(self)

    return Loader


def _core_scalar(tag: str, value: str, mark: Any) -> Any:
    """A scalar of the YAML 1.2 core schema (or a 1.1 tag the safe constructor knew: a
    timestamp, binary, kept as the text the author wrote)."""
    name = tag.rsplit(":", 1)[-1]
    try:
        if name == "null":
            return None
        if name == "bool":
            lowered = value.lower()
            if lowered in ("true", "false"):
                return lowered == "true"
            raise ValueError(value)
        if name == "int":
            cleaned = value.replace("_", "")
            if cleaned.startswith(("0o", "+0o", "-0o")):
                return int(cleaned.replace("0o", ""), 8)
            if cleaned.startswith(("0x", "+0x", "-0x")):
                return int(cleaned, 16)
            return int(cleaned, 10)
        if name == "float":
            lowered = value.lower()
            if lowered.endswith(".inf"):
                return float("-inf") if lowered.startswith("-") else float("inf")
            if lowered == ".nan":
                return float("nan")
            return float(value)
    except ValueError:
        raise ParseFailure(
            f"`{value}` is tagged !!{name} but is not one", mark.line + 1, mark.column + 1
        ) from None
    return value


def _yaml_message(error: Exception) -> str:
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    return f"{context}: {problem}" if context else str(problem)


_JSON5_ERROR = re.compile(r"^<string>:(\d+) (.*?)(?: at column (\d+))?$", re.DOTALL)


def parse_json5(text: str) -> Any:
    """``text`` read as JSON5 (json5.org: unquoted keys, single quotes, comments, trailing
    commas, hexadecimal numbers), by the json5 package, the reference's Python port; a
    :class:`ParseFailure` at the place it stops when it is not."""
    # Deferred: json5 costs every run 3 ms to import, and only a `json5` fence is read by it.
    import json5

    try:
        return json5.loads(text)
    except ValueError as error:
        found = _JSON5_ERROR.match(str(error))
        if found is None:
            raise ParseFailure(str(error)) from None
        line, message, column = found.groups()
        raise ParseFailure(message[:1].lower() + message[1:], int(line), int(column or 1)) from None
    except RecursionError:
        raise ParseFailure("nested too deep to read") from None
