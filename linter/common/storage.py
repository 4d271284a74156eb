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

Only the classes :data:`STORED` lists are written or read back, and a tag that names any other is
refused before anything is imported (issue 25: an entry naming ``speclint.__main__`` ran the command
line inside decoding, and its ``SystemExit`` escaped). Every field of a rebuilt instance is checked
against the field's declared type, and :func:`loads` checks the whole value against the type its
reader expects: an entry of the right classes with a line number that is a string would otherwise
end the run with an internal error far from here. Anything refused or malformed makes :func:`loads`
raise :class:`StorageError`, which the caches treat as a miss. Values msgpack cannot hold (an
integer over 64 bits in a JSON document) make :func:`dumps` raise it too, and that entry is simply
not stored.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import importlib
import operator
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import msgpack

MAGIC = b"speclint-cache\x00\x01"  # file format version 1
Check = Callable[[Any], bool]
_TUPLE, _OBJECT, _MEMBER, _AGAIN, _SET, _FROZENSET = range(1, 7)

# The classes an entry may hold, by the name it is written under (``module:qualname``). Nothing
# else is ever looked up, so an entry can make speclint import only these modules, which it
# imports for every run anyway. A class the caches newly store goes here (a test holds this list
# to the classes the stored ones hold); until it does, an entry holding it is not stored.
STORED = frozenset(
    {
        "speclint.model.corpus:Document",
        "speclint.analyses.prose.enumerations:ProseSet",
        "speclint.analyses.prose.policies:Statement",
        "speclint.analyses.schemas.shapes:PolicyClause",
        "speclint.common.findings:Finding",
        "speclint.common.findings:Location",
        "speclint.common.findings:Member",
        "speclint.common.findings:Severity",
        "speclint.common.findings:Table",
        "speclint.parsing.kinds:DocumentKind",
        "speclint.parsing.links:LinkSite",
        "speclint.parsing.links:Page",
        "speclint.parsing.links:SectionSite",
        "speclint.parsing.prose:CodeFence",
        "speclint.parsing.prose:Heading",
        "speclint.parsing.prose:HtmlComment",
        "speclint.parsing.prose:InlineCode",
        "speclint.parsing.prose:Link",
        "speclint.parsing.prose:PageText",
        "speclint.parsing.prose:ListItem",
        "speclint.parsing.prose:Paragraph",
        "speclint.parsing.prose:ProseDocument",
        "speclint.parsing.prose:Table",
        "speclint.parsing.prose:TableCell",
        "speclint.parsing.reading:LoadProblem",
        "speclint.analyses.schemas.references:Reference",
        "speclint.rules.broken_link:Problem",
        "speclint.parsing.structured:DuplicateKey",
        "speclint.run.waivers:Waived",
        "speclint.run.waivers:Waiver",
    }
)


class StorageError(Exception):
    """An entry that cannot be written or read back; the caches treat it as absent."""


class _Tag:
    """A decoded extension type: what the list that starts with it stands for."""

    __slots__ = ("cls", "code", "deep", "fields", "kinds", "setters")

    def __init__(
        self,
        code: int,
        cls: Any = None,
        fields: tuple[str, ...] = (),
        setters: tuple[Any, ...] | None = None,
        checks: tuple[tuple[Any, ...], tuple[tuple[int, Check], ...]] = ((), ()),
    ) -> None:
        self.code, self.cls, self.fields, self.setters = code, cls, fields, setters
        self.kinds, self.deep = checks


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
Values = Callable[[Any], tuple[Any, ...]]
# type -> (extension tag, its fields' values in order) for speclint's classes; None for a type we
# do not write.
_encodable: dict[type, tuple[msgpack.ExtType, Values] | None] = {}


def _describe(kind: type) -> tuple[msgpack.ExtType, Values] | None:
    if kind in _encodable:
        return _encodable[kind]
    found: tuple[msgpack.ExtType, Values] | None = None
    text = f"{kind.__module__}:{kind.__qualname__}"
    if text in STORED:
        name = text.encode()
        if issubclass(kind, enum.Enum):
            found = (msgpack.ExtType(_MEMBER, name), values_of(()))
        elif dataclasses.is_dataclass(kind):
            names = tuple(f.name for f in dataclasses.fields(kind))
            found = (msgpack.ExtType(_OBJECT, name), values_of(names))
    _encodable[kind] = found
    return found


def values_of(names: tuple[str, ...]) -> Values:
    """An object's values of ``names``, in order, read by one ``attrgetter`` call: a cold run
    writes 96,000 objects of OpenWOP's parse, and a ``getattr`` for each field of each was a
    third of writing them."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda item: (one(item),)
    return lambda item: ()


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
        tag, values = described
        if tag.code == _MEMBER:
            return [tag, item.value]
        seen = memo.get(id(item))
        if seen is not None:
            return [_PLAIN_TAGS[_AGAIN], seen]
        memo[id(item)] = number = len(memo)
        keep.append(item)
        return [tag, number, *values(item)]

    try:
        packed: bytes = msgpack.packb(value, default=default, strict_types=True, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as error:
        raise StorageError(str(error)) from None
    return MAGIC + packed


_decoded_tags: dict[tuple[int, bytes], _Tag] = {}


def _resolve(name: bytes) -> Any:
    return stored_class(name.decode("ascii", "strict"))


def stored_class(text: str) -> Any:
    """The class :data:`STORED` lists under ``text``; :class:`StorageError` for any other name."""
    if text not in STORED:
        raise StorageError(f"refused class name {text!r}")
    return _stored_class(text)


def _stored_class(text: str) -> Any:
    module_name, _, qualname = text.partition(":")
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    found = getattr(module, qualname, None)
    if not isinstance(found, type) or found.__module__ != module_name:
        raise StorageError(f"{text} is not a class of {module_name}")
    return found


@functools.cache
def _stored_names() -> dict[str, Any]:
    """Every stored class by its name: what the modules' annotations name (some only under
    ``TYPE_CHECKING``, to keep their imports one way)."""
    return {text.partition(":")[2]: _stored_class(text) for text in sorted(STORED)}


@functools.cache
def field_types(cls: type) -> dict[str, Any]:
    """Each field of dataclass ``cls`` and its declared type, resolved."""
    module = sys.modules[cls.__module__]
    try:
        hints = typing.get_type_hints(cls, {**_stored_names(), **vars(module)})
    except Exception as error:  # an annotation that names what it cannot see
        raise StorageError(f"{cls.__qualname__}: {error}") from None
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}  # type: ignore[arg-type]


_ABSTRACT = {
    collections.abc.Sequence: (list, tuple),
    collections.abc.Mapping: (dict,),
    collections.abc.Set: (set, frozenset),
}


class _Everything:
    """The kinds of a value of type ``Any``."""

    def __contains__(self, kind: object) -> bool:
        return True


_EVERYTHING: Any = _Everything()


@functools.cache
def kinds_of(hint: Any) -> frozenset[type] | None:
    """The exact types a value of type ``hint`` may have, when its type alone settles it (no
    items to look into); None otherwise. Decoded values are of exactly their class: msgpack makes
    ``int``, ``str``, ``list``...; :func:`loads` makes stored classes with ``object.__new__``."""
    if hint is None or hint is type(None):
        return frozenset({type(None)})
    if hint is float:  # 0 is a fine number of seconds
        return frozenset({float, int})
    origin = typing.get_origin(hint)
    if origin is None:
        # A class: an int field takes no True, and no IntEnum member.
        return frozenset({hint}) if isinstance(hint, type) and hint is not object else None
    if origin is typing.Union or origin is types.UnionType:
        options = [kinds_of(option) for option in typing.get_args(hint)]
        return None if None in options else frozenset().union(*options)  # type: ignore[arg-type]
    return None


@functools.cache
def checker(hint: Any) -> Check:
    """Whether a decoded value (plain data and stored classes) is of type ``hint``, as a function
    made once per type: a corpus's parse cache holds a hundred thousand objects. For the types the
    stored classes' fields declare; a value of any other type is refused."""
    if hint is Any or hint is object:
        return lambda value: True
    kinds = kinds_of(hint)
    if kinds is not None:
        return lambda value: type(value) in kinds
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        options = tuple(checker(option) for option in arguments)
        return lambda value: any(check(value) for check in options)
    if origin is typing.Literal:
        return lambda value: any(
            type(value) is type(option) and value == option for option in arguments
        )
    if origin is tuple and not (len(arguments) == 2 and arguments[1] is Ellipsis):
        parts = tuple(checker(argument) for argument in arguments)
        return lambda value: (
            type(value) is tuple
            and len(value) == len(parts)
            and all(check(item) for check, item in zip(parts, value, strict=True))
        )
    containers = _ABSTRACT.get(origin, (origin,))
    if not all(isinstance(container, type) for container in containers):
        return lambda value: False
    if dict in containers:
        key, item = (checker(argument) for argument in arguments or (Any, Any))
        return lambda value: (
            type(value) is dict and all(key(k) and item(v) for k, v in value.items())
        )
    each = arguments[0] if arguments else Any
    if each is Any or each is object:
        return lambda value: type(value) in containers
    simple = kinds_of(each)
    if simple is not None:  # tuple[Heading, ...]: the items' types, in C
        return lambda value: (
            type(value) in containers and all(map(simple.__contains__, map(type, value)))
        )
    check = checker(each)
    return lambda value: type(value) in containers and all(map(check, value))


def _field_checks(
    declared: dict[str, Any],
) -> tuple[tuple[Any, ...], tuple[tuple[int, Check], ...]]:
    """For each field, the types its value may have (what its own type settles), and the fields
    whose items must be looked into, with their checks."""
    kinds: list[Any] = []
    deep: list[tuple[int, Check]] = []
    for index, hint in enumerate(declared.values()):
        if hint is Any or hint is object:
            kinds.append(_EVERYTHING)
            continue
        settled = kinds_of(hint)
        if settled is None:
            kinds.append(_EVERYTHING)
            deep.append((index, checker(hint)))
        else:
            kinds.append(settled)
    return tuple(kinds), tuple(deep)


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
        declared = field_types(cls)
        names = tuple(declared)
        tag = _Tag(code, cls, names, _slot_setters(cls, names), _field_checks(declared))
    else:
        raise StorageError(f"unknown extension type {code}")
    _decoded_tags[key] = tag
    return tag


def loads(blob: bytes, expected: Any = Any) -> Any:
    """The value :func:`dumps` wrote, when it is of type ``expected``; :class:`StorageError` for
    anything else."""
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
            values = items[2:]
            if not all(map(operator.contains, tag.kinds, map(type, values))) or not all(
                check(values[index]) for index, check in tag.deep
            ):
                raise StorageError(f"{tag.cls.__qualname__}: a field of another type")
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
        value = msgpack.unpackb(
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
    if not checker(expected)(value):
        raise StorageError(f"not a {expected}")
    return value
