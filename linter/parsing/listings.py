"""The members an object listing in a code block declares, read as text, never run (issue 46,
item 8: type and requiredness claims in the shapes specifications write them).

Three shapes list an object's members with a type and a requiredness each:

- a *pseudo-schema*, the notation of the inference protocols' pages: ``$name =`` then a brace
  block whose members are ``"member" : $string``, ``"shape" : [ $number, ... ]`` (an array of
  numbers), ``"inputs" : [ $metadata_tensor, ... ]`` (another pseudo-schema's name) or
  ``<free text>``; ``#optional`` after a member marks it optional, and the notation calls every
  other member required;
- a Python model class (pydantic ``BaseModel``, a ``@dataclass``, a ``TypedDict``): each
  annotated member, ``state: AnyHttpUrl``, is required when it has no default and its type
  does not admit ``None`` (pydantic's rule, and the dataclass constructor's); ``Field(...)`` is
  no default; ``total=False`` and ``NotRequired[...]`` make a ``TypedDict`` member optional;
- a TypeScript ``interface Name {`` (or ``type Name = {``): ``id?: string`` is optional,
  ``id: string`` required.

:func:`listings` gives each listing's name, its members with the type as a prose word
(``string``, ``array of uri``, ``Job``; None where the listing's type is a union, a literal or
free text) and the requiredness the listing states (None where it states none: a default
value says what a constructor fills in, not whether the wire may leave the member out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ListedMember:
    name: str
    offset: int  # the line in the block's text, from 0
    column: int  # from 1
    type: str | None  # the type as a prose word, for `type_claims.parse_type`
    required: bool | None
    said: str  # how the requiredness is written


@dataclass(frozen=True)
class Listing:
    name: str
    form: str  # "pseudo-schema", "Python class", "TypeScript interface"
    offset: int
    members: tuple[ListedMember, ...]
    marks_optional: bool  # some member is marked optional (the notation says "required")


def listings(text: str) -> list[Listing]:
    """Every object listing of a code block's text, in order."""
    lines = text.split("\n")
    found = _pseudo_schemas(lines) + _python_classes(lines) + _typescript(lines)
    return sorted((f for f in found if f.members), key=lambda f: f.offset)


# --- pseudo-schemas ------------------------------------------------------------------------------

_PSEUDO_HEAD = re.compile(r"^\s*\$(?P<name>[A-Za-z_][\w]*)\s*=\s*(?P<brace>\{)?\s*$")
_PSEUDO_MEMBER = re.compile(
    r'^(?P<indent>\s*)"(?P<name>[^"\s]+)"\s*:\s*(?P<value>.*?)\s*'
    r"(?P<optional>#\s*optional)?\s*,?\s*(?P<after>#.*)?$"
)
_PSEUDO_TYPES = {
    "string": "string", "number": "number", "integer": "integer", "int": "integer",
    "boolean": "boolean", "bool": "boolean", "object": "object",
}  # fmt: skip


def _pseudo_type(value: str) -> str | None:
    value = value.strip().rstrip(",").strip()
    array = re.fullmatch(r"\[\s*(.+?)\s*,\s*\.\.\.\s*\]", value)
    if array:
        inner = _pseudo_type(array.group(1))
        return f"array of {inner}" if inner else "array"
    word = re.fullmatch(r"\$([A-Za-z_]\w*)", value)
    if word:
        return _PSEUDO_TYPES.get(word.group(1).lower())  # another pseudo-schema: not typed here
    return None


def _pseudo_schemas(lines: list[str]) -> list[Listing]:
    found: list[Listing] = []
    index = 0
    while index < len(lines):
        head = _PSEUDO_HEAD.match(lines[index])
        if head is None:
            index += 1
            continue
        start = index
        at = index + 1
        if head.group("brace") is None:
            while at < len(lines) and not lines[at].strip():
                at += 1
            if at >= len(lines) or lines[at].strip() != "{":
                index += 1
                continue
            at += 1
        depth = 1
        members: list[ListedMember] = []
        marked = False
        while at < len(lines) and depth > 0:
            row = lines[at]
            member = _PSEUDO_MEMBER.match(row) if depth == 1 else None
            if member is not None:
                optional = member.group("optional") is not None
                marked = marked or optional
                members.append(
                    ListedMember(
                        member.group("name"),
                        at,
                        len(member.group("indent")) + 1,
                        _pseudo_type(member.group("value")),
                        not optional,
                        "the listing marks it `#optional`"
                        if optional
                        else "the listing shows it without `#optional`",
                    )
                )
            depth += row.count("{") + row.count("[") - row.count("}") - row.count("]")
            at += 1
        if depth == 0:
            found.append(
                Listing(head.group("name"), "pseudo-schema", start, tuple(members), marked)
            )
        index = at
    return found


# --- Python model classes ------------------------------------------------------------------------

_CLASS = re.compile(r"^(?P<indent>\s*)class\s+(?P<name>[A-Za-z_]\w*)\s*(?:\((?P<bases>[^)]*)\))?:")
_ANNOTATED = re.compile(
    r"^(?P<indent>\s+)(?P<name>[A-Za-z_]\w*)\s*:\s*(?P<type>[^=#]+?)\s*(?:=\s*(?P<default>[^#]*?))?"
    r"\s*(?:#.*)?$"
)
_NOT_MODELS = re.compile(r"\b(?:Enum|IntEnum|StrEnum|Exception|Protocol|ABC)\b")
_PYTHON_TYPES = {
    "str": "string", "int": "integer", "float": "number", "bool": "boolean", "dict": "object",
    "Dict": "object", "Mapping": "object", "UUID": "uuid", "UUID4": "uuid",
    "AnyHttpUrl": "uri", "HttpUrl": "uri", "AnyUrl": "uri", "datetime": "date-time",
    "date": "date", "EmailStr": "email", "bytes": "string",
}  # fmt: skip
_PYTHON_ARRAYS = ("list", "List", "Sequence", "set", "Set", "tuple", "Tuple")


def _python_type(written: str) -> tuple[str | None, bool]:
    """The type as a prose word, and whether it admits ``None``."""
    text = written.strip().strip("\"'")
    for wrapper in ("Required", "NotRequired", "Annotated", "ReadOnly"):
        inner = re.fullmatch(rf"(?:typing\.|typing_extensions\.)?{wrapper}\[(.+)\]", text)
        if inner:
            text = (
                inner.group(1).split(",")[0].strip() if wrapper == "Annotated" else inner.group(1)
            )
    if re.fullmatch(r"Optional\[.+\]", text) or re.search(r"(?:^|\|)\s*None\s*(?:\||$)", text):
        return None, True
    if re.search(r"\bNone\b", text) or "|" in text or text.startswith(("Union[", "Literal[")):
        return None, "None" in text
    array = re.fullmatch(rf"(?:{'|'.join(_PYTHON_ARRAYS)})\[(.+)\]", text)
    if array:
        element, _ = _python_type(array.group(1))
        return (f"array of {element}" if element else "array"), False
    if re.fullmatch(r"(?:dict|Dict|Mapping)\[.+\]", text):
        return "object", False
    if text in _PYTHON_TYPES:
        return _PYTHON_TYPES[text], False
    if re.fullmatch(r"[A-Z][A-Za-z0-9_]*", text) and text not in ("Any", "Json", "ClassVar"):
        return text, False
    return None, False


def _python_classes(lines: list[str]) -> list[Listing]:
    found: list[Listing] = []
    for index, row in enumerate(lines):
        head = _CLASS.match(row)
        if head is None or _NOT_MODELS.search(head.group("bases") or ""):
            continue
        bases = head.group("bases") or ""
        partial = re.search(r"\btotal\s*=\s*False\b", bases) is not None
        indent = len(head.group("indent"))
        members: list[ListedMember] = []
        body = None
        for at in range(index + 1, len(lines)):
            line = lines[at]
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            here = len(line) - len(line.lstrip())
            if here <= indent:
                break
            body = here if body is None else body
            if here != body:
                continue  # a method's body, a nested class's members
            member = _ANNOTATED.match(line)
            if member is None or member.group("type").startswith("ClassVar"):
                continue
            members.append(_python_member(member, at, partial))
        found.append(Listing(head.group("name"), "Python class", index, tuple(members), False))
    return found


def _python_member(member: re.Match[str], at: int, partial: bool) -> ListedMember:
    written = member.group("type")
    type_word, nullable = _python_type(written)
    default = member.group("default")
    required: bool | None = None
    said = ""
    if default is not None:
        call = re.fullmatch(r"Field\((.*)\)?", default.strip())
        arguments = call.group(1).strip() if call else ""
        if call and (
            arguments.startswith("...")
            or not re.match(r"^(?:default|default_factory)\s*=|^[^=\s,]+\s*(?:,|$)", arguments)
        ):
            default = None  # `Field(...)`, `Field(description=...)`: no default
    if re.match(r"(?:typing\.|typing_extensions\.)?NotRequired\[", written) or (
        partial and not written.startswith("Required[")
    ):
        required, said = False, "the class marks it `NotRequired` (or `total=False`)"
    elif default is None and not nullable:
        required, said = True, "the class declares it with no default"
    return ListedMember(
        member.group("name"), at, len(member.group("indent")) + 1, type_word, required, said
    )


# --- TypeScript interfaces -----------------------------------------------------------------------

_INTERFACE = re.compile(
    r"^\s*(?:export\s+)?(?:declare\s+)?(?:interface\s+(?P<a>[A-Za-z_]\w*)(?:\s+extends\s+[^{]+)?"
    r"|type\s+(?P<b>[A-Za-z_]\w*)\s*=)\s*\{\s*$"
)
_TS_MEMBER = re.compile(
    r"^(?P<indent>\s*)(?:readonly\s+)?(?P<quote>[\"']?)(?P<name>[A-Za-z_$][\w$-]*)(?P=quote)"
    r"(?P<optional>\?)?\s*:\s*(?P<type>[^;/]+?)\s*[;,]?\s*(?://.*)?$"
)
_TS_TYPES = {
    "string": "string", "number": "number", "boolean": "boolean", "object": "object",
    "bigint": "integer", "Date": "Date",
}  # fmt: skip


def _typescript_type(written: str) -> str | None:
    text = written.strip()
    if "|" in text or "&" in text or text.startswith(("'", '"', "{", "(")):
        return None
    array = re.fullmatch(r"(.+?)\[\]", text) or re.fullmatch(r"(?:Readonly)?Array<(.+)>", text)
    if array:
        inner = _typescript_type(array.group(1))
        return f"array of {inner}" if inner else "array"
    if re.fullmatch(r"(?:Record|Map|Partial)<.+>", text):
        return "object"
    if text in _TS_TYPES:
        return _TS_TYPES[text]
    if re.fullmatch(r"[A-Z][A-Za-z0-9_]*", text):
        return text
    return None


def _typescript(lines: list[str]) -> list[Listing]:
    found: list[Listing] = []
    for index, row in enumerate(lines):
        head = _INTERFACE.match(row)
        if head is None:
            continue
        members: list[ListedMember] = []
        depth = 1
        for at in range(index + 1, len(lines)):
            line = lines[at]
            member = _TS_MEMBER.match(line) if depth == 1 else None
            if member is not None and "(" not in member.group("name"):
                optional = member.group("optional") is not None
                members.append(
                    ListedMember(
                        member.group("name"),
                        at,
                        len(member.group("indent")) + len(member.group("quote")) + 1,
                        _typescript_type(member.group("type")),
                        not optional,
                        "the interface marks it `?`"
                        if optional
                        else "the interface declares it without `?`",
                    )
                )
            depth += line.count("{") - line.count("}")
            if depth <= 0:
                break
        found.append(
            Listing(head.group("a") or head.group("b"), "TypeScript interface", index,
                    tuple(members), False)
        )  # fmt: skip
    return found
