"""What a file is, read from its content: the classification behind discovery (issue 14).

speclint finds the files of any spec repository by what they are, not where they are: a JSON or
YAML document is an OpenAPI, AsyncAPI or Arazzo document by its version key, a JSON Schema by its
``$schema`` (or, without one, by being the target of a schema's ``$ref``, or by its keywords), an
instance when it names the schema it follows (``$schema`` naming a document that is not a
metaschema, a ``# yaml-language-server: $schema=...`` modeline, or the configuration's
``[instances]`` table), and other data otherwise. Each classification keeps its reason, which
``speclint files`` prints.

This module knows nothing of the corpus; ``speclint.model.corpus`` calls it while parsing.
"""

from __future__ import annotations

import enum
import posixpath
import re
from collections.abc import Collection, Container, Iterable
from dataclasses import dataclass
from typing import Any


class DocumentKind(enum.Enum):
    SCHEMA = "json-schema"
    OPENAPI = "openapi"
    ASYNCAPI = "asyncapi"
    # An OpenAPI Overlay (`overlay: 1.0.x`): JSONPath-targeted edits of an OpenAPI document
    # (issue 49; ``speclint.analyses.workflows.overlays`` reads it).
    OVERLAY = "overlay"
    INSTANCE = "instance"  # data that names the schema it follows
    DATA = "data"  # JSON/YAML that is none of the above (package.json, config files)
    MARKDOWN = "markdown"
    PROTO = "protobuf"  # a Protocol Buffers file (`.proto`), compiled by protoc (issue 30)
    # An Arazzo workflow document (`arazzo: 1.0.x`): sequences of calls to the operations of the
    # API documents it names (issue 49; ``speclint.model.arazzo`` reads it).
    ARAZZO = "arazzo"
    # A file a tool renders into JSON/YAML/Markdown (a Helm chart's `templates/`, Jinja, a
    # cookiecutter project): listed, not read as a document (``speclint.parsing.templates``).
    TEMPLATE = "template"


# The files speclint reads, by the ending of their names, and what each is read as (JSON and YAML
# are refined from their content once parsed: ``classify``). The one list (issue 44, item 10)
# behind discovery's default ``include`` (``speclint.model.config``), the pre-commit hook's
# ``files`` pattern (.pre-commit-hooks.yaml), the editors' set-ups (``speclint.frontends.lsp``)
# and the README: tests/model/test_read_files.py holds each of them to it. The default ``include``
# matches endings as written (`README.MD` is not read); ``kind_for_path`` reads them in any case,
# for an ``include`` that names `*.MD`.
READ_SUFFIXES: dict[str, DocumentKind] = {
    ".json": DocumentKind.DATA,
    ".jsonc": DocumentKind.DATA,  # JSON with comments (``speclint.model.corpus.is_jsonc``)
    ".yaml": DocumentKind.DATA,
    ".yml": DocumentKind.DATA,
    ".md": DocumentKind.MARKDOWN,
    ".mdx": DocumentKind.MARKDOWN,  # MDX: Markdown with JSX, as Docusaurus and Mintlify sites
    ".markdown": DocumentKind.MARKDOWN,
    ".proto": DocumentKind.PROTO,
}
STRUCTURED_SUFFIXES = tuple(s for s, kind in READ_SUFFIXES.items() if kind is DocumentKind.DATA)
MARKDOWN_SUFFIXES = tuple(s for s, kind in READ_SUFFIXES.items() if kind is DocumentKind.MARKDOWN)
# Read beside the corpus's files: which files a tool wrote or copied (``gitattributes_rules``).
ATTRIBUTES_FILE = ".gitattributes"
# Where a corpus's configuration is, by name, in its root folder (``model.config.load_config``):
# here, below the model, so that the root finder and the replay front need not import it.
CONFIGURATION_FILES = ("speclint.toml", "pyproject.toml")


def kind_for_path(path: str) -> DocumentKind | None:
    """What the file at ``path`` is read as, by its name (None: speclint does not read it)."""
    lowered = path.lower()
    for suffix, kind in READ_SUFFIXES.items():
        if lowered.endswith(suffix):
            return kind
    return None


# The published metaschemas, by the draft name speclint reports (JSON Schema Core 2020-12,
# section 8.1.1: `$schema` identifies the dialect). Trailing `#` and the http/https scheme vary
# in the wild; both are accepted.
DRAFTS: dict[str, str] = {
    "json-schema.org/draft-03/schema": "draft-03",
    "json-schema.org/draft-04/schema": "draft-04",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft/2020-12/schema": "2020-12",
}
# Other dialects a schema may declare: OpenAPI's schema-object dialects (they extend 2020-12).
DIALECT_HOSTS = ("json-schema.org/", "spec.openapis.org/oas/")

# JSON Schema keywords of every draft (Core and Validation, draft-04 to 2020-12): a document with
# no `$schema` is read as a schema when every top-level key is one of these (or an annotation or
# an `x-` extension) and at least one says what its instances look like.
SCHEMA_KEYWORDS = frozenset(
    {
        "$schema", "$id", "id", "$ref", "$defs", "definitions", "$anchor", "$dynamicAnchor",
        "$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment",
        "type", "enum", "const", "properties", "patternProperties", "additionalProperties",
        "required", "items", "prefixItems", "additionalItems", "contains", "minContains",
        "maxContains", "unevaluatedProperties", "unevaluatedItems", "propertyNames",
        "dependencies", "dependentRequired", "dependentSchemas", "allOf", "anyOf", "oneOf",
        "not", "if", "then", "else", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
        "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
        "contentEncoding", "contentMediaType", "contentSchema",
        "title", "description", "default", "examples", "example", "readOnly", "writeOnly",
        "deprecated", "discriminator", "nullable", "xml", "externalDocs",
    }
)  # fmt: skip
SHAPING_KEYWORDS = frozenset(
    {
        "$ref", "$defs", "definitions", "type", "properties", "patternProperties", "items",
        "prefixItems", "allOf", "anyOf", "oneOf", "enum", "const", "required",
    }
)  # fmt: skip
JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})

# Folders that are installed software or a tool's working files, never a repository's own
# content, by a name only such tools use (issue 25, item 10: `python -m venv .venv` at the root
# made 202 of a check's 334 findings).
INSTALLED_FOLDER_NAMES: dict[str, str] = {
    "node_modules": "installed npm packages (node_modules)",
    "site-packages": "installed Python packages (site-packages)",
    "dist-packages": "installed Python packages (dist-packages)",
    "__pypackages__": "installed Python packages (PEP 582 __pypackages__)",
    ".tox": "tox's environments (.tox)",
    ".nox": "nox's environments (.nox)",
}


_ENVIRONMENT_FOLDERS = frozenset({"bin", "Scripts", "lib", "Lib", "lib64", "include", "Include"})
_ALONE = frozenset({"pyvenv.cfg", ".gitignore"})


def installed_folder(name: str, files: Collection[str], folders: Collection[str]) -> str | None:
    """Why the folder ``name``, holding ``files`` and ``folders``, is installed software or a
    tool's cache and not the repository's content (None: it is content).

    Beyond the names above, only a marker an installer or tool leaves decides: a name says too
    little (`vendor/schemas/` is often a corpus's own copy of a standard's schemas, which
    `[ref-map]` points at; Go's and Composer's `vendor/` is not)."""
    named = INSTALLED_FOLDER_NAMES.get(name)
    if named is not None:
        return named
    # PEP 405: every virtual environment has a pyvenv.cfg, beside its own bin/ (Scripts/) and
    # lib/. A pyvenv.cfg committed alone beside a tool's script (the environment itself
    # ignored by git) leaves the folder the repository's content.
    if "pyvenv.cfg" in files and (_ENVIRONMENT_FOLDERS & set(folders) or set(files) <= _ALONE):
        return "a Python virtual environment (pyvenv.cfg)"
    if "conda-meta" in folders:
        return "a conda environment (conda-meta/)"
    if "CACHEDIR.TAG" in files:  # the Cache Directory Tagging convention (pytest, mypy, ruff)
        return "a cache folder (CACHEDIR.TAG)"
    if name == "vendor" and "modules.txt" in files:
        return "Go modules copied by `go mod vendor` (modules.txt)"
    if name == "vendor" and "autoload.php" in files and "composer" in folders:
        return "PHP packages installed by Composer (autoload.php, composer/)"
    if "gems" in folders and "specifications" in folders:
        return "Ruby gems installed by Bundler or gem (gems/, specifications/)"
    return None


# --- generated content (issue 26) ---------------------------------------------------------------
# A file or block a tool writes is fixed in the tool, not by hand: the rules that judge writing do
# not report inside it (``speclint.run.inventory.GENERATED_STILL_CHECKED`` says which still do,
# and ``GENERATED_CONTENT_RULES`` which report a generated API document's defects at its source).

# Go's convention (go.dev/s/generatedcode): a line `Code generated ... DO NOT EDIT.`.
_GO_GENERATED = re.compile(r"Code generated\b[^\n]*?\bDO NOT EDIT\b")
_SAYS_GENERATED = re.compile(
    r"(?i)\b(?:auto-?generated|automatically generated|generated (?:by|from|with|automatically)|"
    r"this (?:file|page|document) (?:is|was) generated)\b[^\n]{0,200}?\bdo not (?:edit|modify)\b"
)
_DO_NOT_EDIT = re.compile(r"(?:<!--|#|//|/\*|\*)\s*[^\n]{0,80}?\bDO NOT EDIT\b")
_BLOCK_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
HEADER_LINES = 10  # a header is among the first lines of the file (after a shebang, a title)


def generated_header(text: str) -> str | None:
    """Why the comments among the first lines of ``text`` mark the file as written by a tool, or
    None. Only comments count: a README that says in its prose that *another* file is generated
    and not to be edited is not itself generated."""
    lines = text[:4096].split("\n")[:HEADER_LINES]
    comments = [body.replace("\n", " ") for body in _BLOCK_COMMENT.findall("\n".join(lines))]
    # A JSON file has no comments; its `"$comment"` (JSON Schema) or `"//"` member says it.
    openers = ("#", "//", "/*", "* ", '"$comment"', '"//"')
    comments += [line for line in lines if line.lstrip().startswith(openers)]
    head = "\n".join(comments)
    if _GO_GENERATED.search(head):
        return "a `Code generated ... DO NOT EDIT.` header"
    if _SAYS_GENERATED.search(head):
        return "a `generated ... do not edit` header"
    if _DO_NOT_EDIT.search(head):
        return "a `DO NOT EDIT` header"
    return None


# openapi-generator's pages: each model and API page of its `docs/` ends with links back to the
# README's lists (`[[Back to Model list]](../README.md#documentation-for-models)`), and its README
# names the generator class that wrote it (`Build package: org.openapitools.codegen...`);
# swagger-codegen's, `io.swagger.codegen...`. No page written by hand says either.
_GENERATOR_PAGE = re.compile(
    r"\[\[Back to (?:Model|API) list\]\]\(|Build package: (?:org\.openapitools|io\.swagger)\.codegen"
)
# The manifests the generators leave in their output folder: openapi-generator lists what it
# wrote in `.openapi-generator/FILES` (paths relative to the output folder); swagger-codegen
# leaves `.swagger-codegen/VERSION` only, so all of its folder is its output.
GENERATOR_MANIFEST = ".openapi-generator/FILES"
SWAGGER_CODEGEN_MARK = ".swagger-codegen/VERSION"


def generator_page(text: str) -> str | None:
    """Why a Markdown page is an API client generator's output, or None."""
    found = _GENERATOR_PAGE.search(text)
    if found is None:
        return None
    if found.group(0).startswith("[["):
        return "an openapi-generator docs page (`[[Back to Model list]]` links)"
    return "a client generator's README (`Build package: ...codegen...`)"


def generator_outputs(manifest: str, text: str) -> dict[str, str]:
    """The files an openapi-generator ``FILES`` manifest at ``manifest`` (a root-relative path)
    lists, root-relative, each with the evidence. A line that leaves the output folder
    (``..``, an absolute path) names nothing."""
    folder = manifest[: -len(GENERATOR_MANIFEST)].rstrip("/")
    found: dict[str, str] = {}
    for line in text.splitlines():
        name = line.strip()
        if not name or name.startswith(("#", "/")) or ".." in name.split("/"):
            continue
        path = f"{folder}/{name}" if folder else name
        found[path] = f"listed in {manifest} (openapi-generator's output)"
    return found


_COMMENT = re.compile(r"<!--(.*?)-->")
_OPENS = re.compile(r"(?<![A-Za-z])(?:START|BEGIN)(?![a-z])", re.IGNORECASE)
_CLOSES = re.compile(r"(?<![A-Za-z])END(?![a-z])", re.IGNORECASE)
# The tools that fence what they write in a Markdown page with a pair of comments: all-contributors
# (`ALL-CONTRIBUTORS-LIST:START`), markdown-magic (`AUTO-GENERATED-CONTENT:START`), doctoc,
# terraform-docs (`BEGIN_TF_DOCS`), and any pair that says "generated".
_TOOL_WORD = re.compile(r"(?i)all-contributors|tf_docs|doctoc|generated")


def generated_blocks(text: str) -> tuple[tuple[int, int, str], ...]:
    """The blocks of a Markdown page between a tool's start and end comments: (first line, last
    line, the start comment), 1-based and inclusive. A start without its end marks nothing."""
    found: list[tuple[int, int, str]] = []
    opened: tuple[int, str, str] | None = None  # line, tool word, comment
    for number, line in enumerate(text.split("\n"), 1):
        if "<!--" not in line:
            continue
        for comment in _COMMENT.findall(line):
            tool = _TOOL_WORD.search(comment)
            if tool is None:
                continue
            word = tool.group(0).lower()
            if opened is None and _OPENS.search(comment):
                opened = (number, word, comment.strip())
            elif opened is not None and word == opened[1] and _CLOSES.search(comment):
                found.append((opened[0], number, f"<!-- {opened[2][:60]} -->"))
                opened = None
    return tuple(found)


@dataclass(frozen=True)
class AttributeRule:
    folder: str  # the folder of the .gitattributes file ("" for the root)
    pattern: re.Pattern[str]  # matched against the path relative to ``folder``
    generated: bool  # set (True) or unset (False)
    attribute: str = "linguist-generated"  # or "linguist-vendored"


def gitattributes_rules(folder: str, text: str) -> list[AttributeRule]:
    """The ``linguist-generated`` and ``linguist-vendored`` lines of one ``.gitattributes`` file
    (gitattributes(5)): ``linguist-generated`` and ``linguist-generated=true`` set it,
    ``-linguist-generated``, ``!linguist-generated`` and ``=false`` unset it (and the same for
    ``linguist-vendored``). Read as text; nothing is run."""
    rules: list[AttributeRule] = []
    for raw in text.split("\n"):
        fields = raw.strip().split()
        if len(fields) < 2 or fields[0].startswith(("#", "[attr]", '"')):
            continue
        for attribute in fields[1:]:
            name, _, value = attribute.partition("=")
            bare = name.lstrip("-!")
            if bare not in LINGUIST_ATTRIBUTES:
                continue
            state = name == bare and (value.lower() not in ("false", "0") if value else True)
            rules.append(AttributeRule(folder, _attribute_pattern(fields[0]), state, bare))
    return rules


# Folders of design records and proposals (ADRs, RFCs, OTEPs, SEPs): sketches of what might be,
# not the contract; their examples and schema copies are drafts of a change under discussion.
DESIGN_FOLDERS = frozenset(
    {
        "adr", "adrs", "decisions", "architecture-decisions", "design-decisions", "design",
        "proposals", "proposal", "rfcs", "rfc", "oteps", "enhancements", "seps",
    }
)  # fmt: skip


def in_design_folder(path: str) -> bool:
    """Whether ``path`` lies in a folder of design records or proposals (``DESIGN_FOLDERS``)."""
    return any(part.lower() in DESIGN_FOLDERS for part in path.split("/")[:-1])


def folder_holding(files: Container[str], path: str, names: Iterable[str]) -> str | None:
    """The nearest folder above ``path`` (up to the root, "") that holds a file named one of
    ``names``: the configuration of a build that renders it (Sphinx's ``conf.py``,
    ``mkdocs.yml``), a Hugo section's ``_index.md``; None when none does."""
    wanted = tuple(names)
    folder = posixpath.dirname(path)
    while True:
        if any(posixpath.join(folder, name) in files for name in wanted):
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def under_folder_holding(files: Container[str], path: str, names: Iterable[str]) -> bool:
    """Whether a folder above ``path`` (up to the root) holds a file named one of ``names``
    (``folder_holding``)."""
    return folder_holding(files, path, names) is not None


# Folders of samples: a schema's examples beside it, a sample API. The one list of their names:
# a data file there is an example of the corpus's schemas (``speclint.analyses.prose.fences``, which
# adds conformance sets of sample events); an API document there is a sample that versions
# itself, not the specification (version-drift, which adds demos and test data).
SAMPLE_FOLDERS = frozenset({"example", "examples", "sample", "samples"})


def in_sample_folder(path: str) -> bool:
    """Whether ``path`` lies in a folder of samples (``SAMPLE_FOLDERS``)."""
    return any(part.lower() in SAMPLE_FOLDERS for part in path.split("/")[:-1])


# The keywords whose value is data shown as an example, not a schema: JSON Schema's `examples`
# (2020-12 Validation §9.5: "an array ... of instances"), OpenAPI's `example` and `examples` (a
# Media Type's, a Parameter's, a Schema Object's; `components/examples` holds Example Objects).
# A `$ref` under one names an example file (a corpus that assembles its examples with a
# resolver: matrix-style `example: {$ref: ../examples/event.json}`), never a schema.
EXAMPLE_KEYWORDS = frozenset({"example", "examples"})
# The maps whose keys are names the author chose: a *property* named `example` is a schema.
_NAME_MAPS = frozenset(
    {
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
        "schemas", "parameters", "responses", "headers", "requestBodies", "messages",
        "channels", "pathItems", "securitySchemes", "links", "callbacks",
    }
)  # fmt: skip


def at_example(pointer: str) -> bool:
    """Whether the escaped JSON pointer ``pointer`` (of the object holding a `$ref`) lies in the
    value of an example keyword (``EXAMPLE_KEYWORDS``), read as a keyword: not a name in a
    map of names (``/properties/example`` is a property's schema)."""
    tokens = pointer.split("/")[1:]
    return any(
        token in EXAMPLE_KEYWORDS and (index == 0 or tokens[index - 1] not in _NAME_MAPS)
        for index, token in enumerate(tokens)
    )


# A test suite's data folders by their plain names, in the order discovery's default
# ``fixtures`` lists them (``speclint.model.config.DEFAULT_FIXTURES``, which adds patterns:
# `*_test/`, `pass/`, `fail/`, fakes). Discovery leaves them out; where a configuration checks
# them, version-drift still takes an API document there for a sample.
TEST_FOLDERS = ("test", "tests", "__tests__", "fixtures", "testdata", "mocks")


# Folders of records: meetings (minutes, agendas, notes of a call: what was said on a day, quoted
# passages and links as they stood then) and archives (`_archive_/`, `attic/`: kept, declared no
# longer maintained; the archive words are ``ARCHIVE_WORDS``, read by :func:`archive_folder`).
# Nobody edits them afterwards.
RECORD_FOLDERS = frozenset(
    {
        "minutes", "meeting_minutes", "meeting-minutes", "meetings", "meeting-notes",
        "meeting_notes", "agendas", "agenda", "attic",
    }
)  # fmt: skip
ARCHIVE_WORDS = frozenset({"archive", "archives", "archived"})
# The words of a folder's name: separated by `-`, `_`, `.` or spaces (`overlays_archive`).
_NAME_WORDS = re.compile(r"[-_.\s]+")
# A date or a release after an archive word (`archive-2019`, `archive_v1`).
_DATE_OR_RELEASE = re.compile(r"v?\d+")


def archive_folder(name: str) -> bool:
    """Whether a folder's name says it is an archive: an archive word alone (`archive`,
    `_archive_`, `archives`), as the name's last word, qualified by what it keeps or when
    (`overlays_archive`, `overlay-archives`, `old_archive`: a docs repository's applied
    overlays), or followed only by a date or a release (`archive-2019`). A
    name that merely begins with one is none: `archiver/`, `archive-utils/` (a tool that
    makes archives), `archive.org/` (a site)."""
    words = [word for word in _NAME_WORDS.split(name.lower()) if word]
    if not words:
        return False
    if words[-1] in ARCHIVE_WORDS:
        return True
    return words[0] in ARCHIVE_WORDS and all(_DATE_OR_RELEASE.fullmatch(w) for w in words[1:])


def in_record_folder(path: str) -> bool:
    """Whether ``path`` lies in a folder of records (``RECORD_FOLDERS``) or an archive
    (:func:`archive_folder`)."""
    return any(
        part.lower() in RECORD_FOLDERS or archive_folder(part) for part in path.split("/")[:-1]
    )


# Folders of pages kept for what an API was (an obsolete version's pages, an `old/` folder): what
# they show is the API as it stood then, so no binding to today's definitions is made from them.
SUPERSEDED_FOLDERS = frozenset({"obsolete", "deprecated", "superseded", "legacy", "retired", "old"})


def in_superseded_folder(path: str) -> bool:
    """Whether ``path`` lies in a folder of superseded pages (``SUPERSEDED_FOLDERS``)."""
    return any(part.lower() in SUPERSEDED_FOLDERS for part in path.split("/")[:-1])


# A page of what changed between releases (a changelog, release notes, a history): what it says
# of a field or a route is what the API was or became, not what it is.
_CHANGELOG_PAGE = re.compile(
    r"(?i)^(?:changelog|changes|history|news|releases?|release[-_ ]notes)(?:\.\w+)*$"
)


def is_changelog(path: str) -> bool:
    """Whether ``path`` names a changelog or release-notes page (``_CHANGELOG_PAGE``)."""
    return bool(_CHANGELOG_PAGE.match(path.rsplit("/", 1)[-1]))


# GitHub Linguist's attributes that say a file is not written by hand here: generated by a tool,
# or vendored (someone else's code or output kept in the repository).
LINGUIST_ATTRIBUTES = ("linguist-generated", "linguist-vendored")


def _attribute_pattern(pattern: str) -> re.Pattern[str]:
    """A gitattributes pattern (gitignore(5) rules, without negation): one without a slash matches
    a file name at any depth; one with a slash is relative to its file's folder; ``*`` and ``?``
    stay within a name, ``**`` crosses folders."""
    anchored = "/" in pattern.rstrip("/")
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + glob_body(pattern.lstrip("/"), classes=True) + r"\Z")


def glob_body(pattern: str, classes: bool = False) -> str:
    """The regex of a root-relative glob: ``**/`` any number of folders, ``**`` anything, ``*``
    and ``?`` within a name; ``[...]`` a character class when ``classes`` (gitattributes), else
    a literal (speclint's own globs, as they have always read)."""
    parts: list[str] = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            parts.append(".*")
            index += 2
        elif pattern[index] == "*":
            parts.append("[^/]*")
            index += 1
        elif pattern[index] == "?":
            parts.append("[^/]")
            index += 1
        elif pattern[index] == "[" and classes:
            end = pattern.find("]", index + 1)
            if end < 0:
                parts.append(re.escape("["))
                index += 1
                continue
            body = pattern[index + 1 : end]
            negate = body[:1] == "!"
            body = re.escape(body[1:] if negate else body).replace(r"\-", "-")
            parts.append(f"[{'^' if negate else ''}{body}]")
            index = end + 1
        else:
            parts.append(re.escape(pattern[index]))
            index += 1
    return "".join(parts)


def linguist_generated(
    path: str, rules: list[AttributeRule], attribute: str = "linguist-generated"
) -> bool:
    """Whether ``path`` has ``attribute`` (``linguist-generated`` or ``linguist-vendored``) set:
    the last matching line wins, and a deeper ``.gitattributes`` wins over a shallower one
    (``rules`` in that order)."""
    state = False
    for rule in rules:
        prefix = f"{rule.folder}/" if rule.folder else ""
        if (
            rule.attribute == attribute
            and path.startswith(prefix)
            and rule.pattern.match(path[len(prefix) :])
        ):
            state = rule.generated
    return state


# `# yaml-language-server: $schema=<uri>` (the Red Hat YAML language server's modeline), in the
# comments at the top of a YAML file.
MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Classification:
    kind: DocumentKind
    dialect: str = ""  # "2020-12", "draft-07", "OpenAPI 3.1", "AsyncAPI 2.6.0"; "" unknown
    reason: str = ""  # why, for `speclint files`
    schema: str | None = None  # an instance's schema, as written


def draft_of(uri: object) -> str | None:
    """The draft a ``$schema`` URI names (``"draft-07"``), or None for another dialect."""
    if not isinstance(uri, str):
        return None
    bare = uri.split("://", 1)[-1].rstrip("#")
    return DRAFTS.get(bare)


def is_dialect_uri(uri: object) -> bool:
    """Whether a ``$schema`` value names a metaschema (a dialect), not a schema to follow."""
    return isinstance(uri, str) and any(host in uri for host in DIALECT_HOSTS)


def looks_like_schema(data: Any) -> bool:
    """Whether a document with no ``$schema`` reads as a JSON Schema by its keywords."""
    if isinstance(data, bool):
        return False  # `true` alone is a schema, but far more often a data file's value
    if not isinstance(data, dict) or not data:
        return False
    keys = [k for k in data if not k.startswith("x-")]
    if not keys:
        return False
    if not all(k in SCHEMA_KEYWORDS for k in keys):
        return _object_schema(data)
    if not any(k in SHAPING_KEYWORDS for k in keys):
        return False
    if contradicts_schema(data):
        return False  # `"type": "module"` (package.json-like) is not a schema's type
    properties = data.get("properties")
    return properties is None or (
        isinstance(properties, dict)
        and all(isinstance(v, (dict, bool)) for v in properties.values())
    )


def _object_schema(data: dict[str, Any]) -> bool:
    """Whether a document with keys of its own (a data package's ``name``, ``path``) is still an
    object schema: ``"type": "object"`` and two or more ``properties`` that are each a schema
    (a shaping keyword apiece). JSON Schema lets any other keyword be an annotation (2020-12
    Core §6.5), and a table-schema style file (each table's columns as `properties`) is read
    so, not as data."""
    properties = data.get("properties")
    if any(k.startswith("$") and k not in SCHEMA_KEYWORDS for k in data):
        return False  # a core keyword no dialect has (`"$schema "`): a dialect not known here
    return (
        data.get("type") == "object"
        and isinstance(properties, dict)
        and len(properties) >= 2
        and all(isinstance(v, dict) and SHAPING_KEYWORDS & set(v) for v in properties.values())
    )


# The start of the reason ``speclint.model.corpus.refine`` gives a file it classifies as a schema
# only because a `$ref` names it (the file says nothing of itself).
REFERENCED_REASON = "the target of a `$ref`"
# An Overlay's version as written (`1.0.0`; `1.0`, a YAML number): a release number.
OVERLAY_VERSION = re.compile(r"^\d+\.\d+")


def contradicts_schema(data: Any) -> bool:
    """Whether a document's root says it is not a JSON Schema: a ``type`` member whose value is
    no JSON type name (``"type": "m.room.message"``, an event example's type)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind is None:
        return False
    names = kind if isinstance(kind, list) else [kind]
    return not all(isinstance(name, str) and name in JSON_TYPES for name in names)


def classify(
    path: str, data: Any, text: str | None = None, mapped_schema: str | None = None
) -> Classification:
    """What a parsed JSON/YAML document is; ``mapped_schema`` is the schema the configuration's
    ``[instances]`` table names for this path, if any."""
    if mapped_schema is not None:
        return Classification(
            DocumentKind.INSTANCE, reason="named by [instances] in the configuration",
            schema=mapped_schema,
        )  # fmt: skip
    if isinstance(data, dict):
        version = data.get("openapi")
        # A version key whose value is a section (Redocly's `redocly.yaml` has an `openapi:`
        # block of rendering options) is a tool's configuration, not an API document.
        if version is not None and not isinstance(version, (dict, list)):
            text_version = str(version)
            return Classification(
                DocumentKind.OPENAPI,
                f"OpenAPI {'.'.join(text_version.split('.')[:2])}",
                f"`openapi: {text_version}`",
            )
        if "swagger" in data and not isinstance(data["swagger"], (dict, list)):
            return Classification(
                DocumentKind.OPENAPI, f"Swagger {data['swagger']}", f"`swagger: {data['swagger']}`"
            )
        if (
            "overlay" in data
            and OVERLAY_VERSION.match(str(data["overlay"]))
            and ("actions" in data or "info" in data)
        ):
            # Overlay 1.0.0 §4.4.1 (Overlay Object): `overlay` (REQUIRED) is its version, beside
            # `info` and `actions`; an `overlay: true` flag of a tool's configuration is none.
            text_version = str(data["overlay"])
            return Classification(
                DocumentKind.OVERLAY,
                f"Overlay {'.'.join(text_version.split('.')[:2])}",
                f"`overlay: {text_version}`",
            )
        if "asyncapi" in data and not isinstance(data["asyncapi"], (dict, list)):
            text_version = str(data["asyncapi"])
            return Classification(
                DocumentKind.ASYNCAPI,
                f"AsyncAPI {'.'.join(text_version.split('.')[:2])}",
                f"`asyncapi: {text_version}`",
            )
        if "arazzo" in data and not isinstance(data["arazzo"], (dict, list)):
            # Arazzo 1.0.1 §4.6.1: `arazzo` (REQUIRED) is the version the document uses; a
            # release speclint has no schema of is still read as Arazzo (arazzo-invalid says
            # it was not validated).
            text_version = str(data["arazzo"])
            return Classification(
                DocumentKind.ARAZZO,
                f"Arazzo {'.'.join(text_version.split('.')[:2])}",
                f"`arazzo: {text_version}`",
            )
        declared = data.get("$schema")
        if isinstance(declared, str):
            draft = draft_of(declared)
            if draft is not None:
                return Classification(DocumentKind.SCHEMA, draft, f"`$schema` is {draft}")
            if is_dialect_uri(declared) or looks_like_schema(data):
                return Classification(
                    DocumentKind.SCHEMA, "", f"`$schema` names the dialect {declared}"
                )
            return Classification(
                DocumentKind.INSTANCE, reason=f"`$schema` names {declared}", schema=declared
            )
    if text is not None and not path.lower().endswith(".json"):
        modeline = MODELINE.search(text[:4096])
        if modeline is not None:
            return Classification(
                DocumentKind.INSTANCE,
                reason="a `yaml-language-server: $schema=` modeline",
                schema=modeline.group(1),
            )
    if path.lower().endswith(".schema.json") and isinstance(data, (dict, bool)):
        return Classification(DocumentKind.SCHEMA, "", "named `*.schema.json`")
    if looks_like_schema(data):
        own = isinstance(data, dict) and any(
            k not in SCHEMA_KEYWORDS and not k.startswith("x-") for k in data
        )
        reason = (
            "`type: object` with schemas as `properties` (its other keys annotations)"
            if own
            else "its keywords are JSON Schema keywords"
        )
        return Classification(DocumentKind.SCHEMA, "", reason)
    return Classification(DocumentKind.DATA, reason="not a schema, API document or instance")
