"""The caches' file format: msgpack, read back only into speclint's own data classes.

A cache entry is read by a later run, so reading one must never run code. Pickle would: an entry
names the callables that rebuild it, and a forged entry names ``os.system`` (issue 13 found a
committed ``durations.pickle`` that did exactly that). msgpack is data. Decoding yields ``str``,
``int``, ``float``, ``bool``, ``None``, ``bytes``, lists and dicts, plus what this module tags with
msgpack extension types and rebuilds itself:

- tuples, sets and frozensets;
- members of speclint's own enums, looked up by value;
- instances of speclint's own dataclasses, made with ``object.__new__`` and given their fields,
  without calling any method of the class (the way pickle restores them, minus the callables);
- a back-reference to an instance written earlier in the same entry. The prose model points every
  node at its ``Heading`` object: written once each, a parsed page is half the size and decodes
  twice as fast, and the identities come back as they were.

A tag that names a module outside ``speclint``, or a class that is not a dataclass or an enum, is
refused, and so is anything malformed: :func:`loads` raises :class:`StorageError`, which the caches
treat as a miss. Values msgpack cannot hold (an integer over 64 bits in a JSON document) make
:func:`dumps` raise it too, and that entry is simply not stored.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import re
import sys
from typing import Any

import msgpack

MAGIC = b"speclint-cache\x00\x01"  # file format version 1
_TUPLE, _OBJECT, _MEMBER, _AGAIN, _SET, _FROZENSET = range(1, 7)
_CLASS_NAME = re.compile(r"speclint(?:\.[a-z_][a-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*")


class StorageError(Exception):
    """An entry that cannot be written or read back; the caches treat it as absent."""


class _Tag:
    """A decoded extension type: what the list that starts with it stands for."""

    __slots__ = ("cls", "code", "fields", "setters")

    def __init__(
        self,
        code: int,
        cls: Any = None,
        fields: tuple[str, ...] = (),
        setters: tuple[Any, ...] | None = None,
    ) -> None:
        self.code, self.cls, self.fields, self.setters = code, cls, fields, setters


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The ``__set__`` of each field's slot descriptor, for a dataclass made with ``slots=True``
    (no ``__dict__`` to fill); None for a class with a ``__dict__``. A slot descriptor is the
    interpreter's own accessor: setting through it runs no method of the class."""
    if "__slots__" not in vars(cls):
        return None
    setters = []
    for name in names:
        descriptor: Any = vars(cls).get(name)
        if descriptor is None or type(descriptor).__name__ != "member_descriptor":
            raise StorageError(f"{cls.__qualname__}.{name} is not a slot")
        setters.append(descriptor.__set__)
    return tuple(setters)


_PLAIN_TAGS = {code: msgpack.ExtType(code, b"") for code in (_TUPLE, _AGAIN, _SET, _FROZENSET)}
# type -> (extension tag, field names) for speclint's classes; None for a type we do not write.
_encodable: dict[type, tuple[msgpack.ExtType, tuple[str, ...]] | None] = {}


def _describe(kind: type) -> tuple[msgpack.ExtType, tuple[str, ...]] | None:
    if kind in _encodable:
        return _encodable[kind]
    found: tuple[msgpack.ExtType, tuple[str, ...]] | None = None
    module = kind.__module__
    if module == "speclint" or module.startswith("speclint."):
        name = f"{module}:{kind.__qualname__}".encode()
        if issubclass(kind, enum.Enum):
            found = (msgpack.ExtType(_MEMBER, name), ())
        elif dataclasses.is_dataclass(kind):
            names = tuple(f.name for f in dataclasses.fields(kind))
            found = (msgpack.ExtType(_OBJECT, name), names)
    _encodable[kind] = found
    return found


def dumps(value: Any) -> bytes:
    memo: dict[int, int] = {}
    keep: list[Any] = []  # ids stay unique while the objects they name are alive

    def default(item: Any) -> Any:
        kind = type(item)
        if kind is tuple:
            return [_PLAIN_TAGS[_TUPLE], *item]
        if kind is frozenset:
            return [_PLAIN_TAGS[_FROZENSET], *item]
        if kind is set:
            return [_PLAIN_TAGS[_SET], *item]
        described = _describe(kind)
        if described is None:
            raise TypeError(f"{kind.__module__}.{kind.__qualname__} is not stored in caches")
        tag, names = described
        if tag.code == _MEMBER:
            return [tag, item.value]
        seen = memo.get(id(item))
        if seen is not None:
            return [_PLAIN_TAGS[_AGAIN], seen]
        memo[id(item)] = number = len(memo)
        keep.append(item)
        return [tag, number, *(getattr(item, name) for name in names)]

    try:
        packed: bytes = msgpack.packb(value, default=default, strict_types=True, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as error:
        raise StorageError(str(error)) from None
    return MAGIC + packed


_decoded_tags: dict[tuple[int, bytes], _Tag] = {}


def _resolve(name: bytes) -> Any:
    text = name.decode("ascii", "strict")
    if not _CLASS_NAME.fullmatch(text):
        raise StorageError(f"refused class name {text!r}")
    module_name, _, qualname = text.partition(":")
    # Importing one of speclint's own modules runs only speclint's code.
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    found = getattr(module, qualname, None)
    if not isinstance(found, type) or found.__module__ != module_name:
        raise StorageError(f"{text} is not a class of {module_name}")
    return found


def _extension(code: int, data: bytes) -> _Tag:
    key = (code, data)
    tag = _decoded_tags.get(key)
    if tag is not None:
        return tag
    if code in (_TUPLE, _AGAIN, _SET, _FROZENSET) and not data:
        tag = _Tag(code)
    elif code == _MEMBER:
        cls = _resolve(data)
        if not issubclass(cls, enum.Enum):
            raise StorageError(f"{cls.__qualname__} is not an enum")
        tag = _Tag(code, cls)
    elif code == _OBJECT:
        cls = _resolve(data)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)) or issubclass(
            cls, enum.Enum
        ):
            raise StorageError(f"{cls.__qualname__} is not a dataclass")
        names = tuple(f.name for f in dataclasses.fields(cls))
        tag = _Tag(code, cls, names, _slot_setters(cls, names))
    else:
        raise StorageError(f"unknown extension type {code}")
    _decoded_tags[key] = tag
    return tag


def loads(blob: bytes) -> Any:
    """The value :func:`dumps` wrote; :class:`StorageError` for anything else."""
    if not blob.startswith(MAGIC):
        raise StorageError("not a speclint cache entry (or another format version)")
    memo: dict[int, Any] = {}

    def rebuild(items: list[Any]) -> Any:
        if not items or type(items[0]) is not _Tag:
            return items
        tag: _Tag = items[0]
        code = tag.code
        if code == _TUPLE:
            return tuple(items[1:])
        if code == _AGAIN:
            return memo[items[1]]
        if code == _OBJECT:
            if len(items) != len(tag.fields) + 2:
                raise StorageError(f"{tag.cls.__qualname__}: wrong number of fields")
            made = object.__new__(tag.cls)
            if tag.setters is None:  # frozen or not: no method runs
                made.__dict__.update(zip(tag.fields, items[2:], strict=True))
            else:
                for setter, value in zip(tag.setters, items[2:], strict=True):
                    setter(made, value)
            memo[items[1]] = made
            return made
        if code == _MEMBER:
            return tag.cls(items[1])
        if code == _SET:
            return set(items[1:])
        return frozenset(items[1:])

    try:
        return msgpack.unpackb(
            blob[len(MAGIC) :],
            ext_hook=_extension,
            list_hook=rebuild,
            strict_map_key=False,
            raw=False,
        )
    except StorageError:
        raise
    except Exception as error:  # truncated, malformed, a value of the wrong shape: a miss
        raise StorageError(f"{type(error).__name__}: {error}") from None
