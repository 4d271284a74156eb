"""Templated files: a template is not a document, and is not read as one (issue 45, item 2).

A Helm chart's ``templates/``, a Jinja-rendered OpenAPI document, a cookiecutter project or a
JSON file with ``${PORT}`` where a number goes become JSON or YAML only once a tool renders them;
read as they are, they give parse errors nobody can fix (a chart in a repository failed every
run) or, worse, are validated as real APIs whose paths are ``/{%-name-%}``. A file is a template
when its text holds template syntax that is not part of valid content, or when where it lives says
so:

- by its folder: a file under the ``templates/`` folder of a Helm chart (the folder holding
  ``Chart.yaml``), or under a folder whose name is a template expression (cookiecutter's and
  copier's ``{{cookiecutter.project_slug}}/``) (:func:`template_folder`);
- by its name: ``*.j2.yaml``, ``*.jinja.json``, ``*.tmpl.md``, ``*.tpl.json`` and the like;
- by its text (:func:`template_text`): a Go-template, Jinja or Liquid action (``{{ ... }}``,
  ``{% ... %}``, ``{# ... #}``) where a YAML value, key or line starts (not inside a quoted
  string, a block scalar or a comment, where it is text), or any action or ``${...}`` outside a
  string of a JSON file that does not parse;
- by what it declares (:func:`template_data`): an API document or schema whose paths, channels,
  ``operationId``\\s, ``$ref``\\s or ``$id`` hold template expressions.

A valid document whose strings merely contain ``{{name}}`` (a Mustache example in a
``description``, ``${{ matrix.os }}`` in a workflow) is no template: its template syntax is
content. A template is listed by ``speclint files`` as ``template`` with the evidence, counted in
the run's summary ("2 templates not read"), and no rule reads it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Container, Iterable
from typing import Any

# Go templates (Helm), Jinja, Liquid, Mustache and Handlebars actions; Jinja's and Liquid's
# statements and comments. Each on one line: a template's actions are.
_ACTION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")
# `${...}`: shell, Terraform, Maven and JavaScript template literals. Valid inside YAML plain
# scalars (`image: ${IMAGE}` is a string), so a template sign only where JSON has no string.
_PLACEHOLDER = re.compile(r"\$\{[^{}\n]*\}")
_ANY = re.compile(_ACTION.pattern + "|" + _PLACEHOLDER.pattern)
# `${NAME}` as a whole path segment below a literal one (`/models/${MODEL}/ready`).
_SEGMENT_VARIABLE = re.compile(r"(?<=[\w-]/)\$\{[A-Za-z_]\w*\}(?=/|\Z)")
# The names template engines' files take before the output's suffix (`openapi.j2.yaml`).
_TEMPLATE_NAME = re.compile(
    r"\.(?:j2|jinja2?|tmpl|tpl|gotmpl|mustache|hbs|handlebars|njk|liquid)\.[A-Za-z]+\Z",
    re.IGNORECASE,
)
# A YAML line that opens a block scalar (`description: |`, `- >-`): YAML 1.2 §8.1.
_BLOCK_SCALAR = re.compile(r"^(\s*)(?:-\s+)*(?:[^#\s][^#]*?:\s+)?[|>][-+0-9]*\s*(?:#.*)?$")
# Where a YAML node starts: at the start of the line (after `- ` items) or after a key's `: `.
# An action there is read as YAML syntax (`{` opens a flow mapping) or is no YAML at all;
# further on a line it is part of a plain scalar (`image: repo/{{ .Values.tag }}`): a string.
_TOKEN_START = re.compile(r"(?:^\s*(?:-\s+)*|:\s+)\Z")
HELM_CHART = "Chart.yaml"  # Helm's chart file: `templates/` beside it holds the templates


def template_folder(path: str, files: Container[str]) -> str | None:
    """Why ``path`` is a template by where it lives (its folder names it, or it is in a Helm
    chart's ``templates/``), or None. ``files`` is the repository's file listing."""
    parts = path.split("/")
    for index, part in enumerate(parts[:-1]):
        if _ACTION.search(part):
            return f"a project template's file (`{part}` in its path)"
        if part == "templates":
            chart = posixpath.join(*parts[:index], HELM_CHART) if index else HELM_CHART
            if chart in files:
                return f"a Helm chart template (`templates/` of the chart `{chart}`)"
    if _ACTION.search(parts[-1]):
        return f"a project template's file (`{parts[-1]}` is a template expression)"
    return None


def template_name(path: str) -> str | None:
    """Why ``path`` is a template by its name (``openapi.j2.yaml``), or None."""
    found = _TEMPLATE_NAME.search(path.rpartition("/")[2])
    if found is None:
        return None
    return f"a template by its name (`{found.group(0).rsplit('.', 1)[0]}`)"


def has_marks(text: str) -> bool:
    """Whether ``text`` holds any template mark at all (``{{``, ``{%``, ``{#``, ``${``): a file
    without one is no template, and is not walked for one."""
    return "{{" in text or "{%" in text or "{#" in text or "${" in text


def template_text(text: str, json: bool, parsed: bool, data: Any = None) -> str | None:
    """Why ``text`` (a JSON file's when ``json``, else YAML's) is a template by its syntax, or
    None: a template action where a YAML node starts (outside quoted strings, block scalars and
    comments; in a YAML file that parsed, one its ``data`` holds in no string, so YAML read it as
    syntax: ``name: {{ .Values.name }}`` is a flow mapping), or, in a JSON file that did not
    parse (``parsed`` False), an action or a ``${...}`` outside its strings."""
    if not has_marks(text):
        return None  # the common case, at the cost of four scans
    if json:
        if parsed:
            return None  # every action is inside a string: content
        for number, line in enumerate(text.split("\n"), 1):
            for found in _ANY.finditer(line):
                if not _in_quotes(line[: found.start()], '"'):
                    return _evidence(found.group(0), number)
        return None
    strings: set[str] | None = None  # every key and string of ``data``, made when first needed
    block = -1  # the indentation of the line that opened the block scalar we are in, or -1
    for number, line in enumerate(text.split("\n"), 1):
        indent = len(line) - len(line.lstrip(" "))
        if block >= 0:
            if not line.strip() or indent > block:
                continue  # a block scalar's text: content
            block = -1
        for found in _ACTION.finditer(line):
            before = line[: found.start()]
            if _comment_starts(before):
                break
            if _in_quotes(before, "\"'"):
                continue
            if not _TOKEN_START.search(before):
                continue
            if parsed:
                # A plain scalar's continuation line may start with `{{`: text, as the parse
                # says.
                strings = _strings(data) if strings is None else strings
                if any(found.group(0) in string for string in strings):
                    continue
            return _evidence(found.group(0), number)
        opened = _BLOCK_SCALAR.match(line)
        if opened is not None:
            block = len(opened.group(1))
    return None


def template_data(kind: str, data: Any) -> str | None:
    """Why a parsed API document or schema (``kind``: a ``DocumentKind`` value) is a template by
    what it declares, or None: its paths or channels (OpenAPI ``paths``/``webhooks``, AsyncAPI
    ``channels``) are named, or an ``operationId``, ``$ref`` or ``$id`` is written, with template
    expressions. Those are the document's structure: no API has a path ``/{%-name-%}``."""
    if kind not in ("openapi", "asyncapi", "json-schema") or not isinstance(data, dict):
        return None
    for section in ("paths", "webhooks", "channels"):
        names = data.get(section)
        for name in names if isinstance(names, dict) else ():
            # `/models/${MODEL}/ready`: a path variable in another notation (published
            # documents write it), not a template's; one that starts the path is a deployment's
            if isinstance(name, str) and _ANY.search(_SEGMENT_VARIABLE.sub("{}", name)):
                return f"its {section} are named with template expressions (`{name}`)"
    stack: list[Any] = [data]
    while stack:  # iterative: generated schemas nest deeper than Python's recursion limit
        node = stack.pop()
        if isinstance(node, dict):
            for key in ("operationId", "$ref", "$id"):
                value = node.get(key)
                if isinstance(value, str) and _ANY.search(value):
                    return f"a `{key}` is a template expression (`{value[:80]}`)"
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _strings(data: Any) -> set[str]:
    """Every string of ``data``, keys and values."""
    found: set[str] = set()
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            found.update(key for key in node if isinstance(key, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _evidence(action: str, line: int) -> str:
    shown = action if len(action) <= 40 else action[:37] + "..."
    return f"template syntax (`{shown}` at line {line}) where the document's own syntax goes"


def _in_quotes(before: str, quotes: Iterable[str]) -> bool:
    """Whether the text after ``before`` (a line's start) is inside a quoted string."""
    open_quote = ""
    index = 0
    while index < len(before):
        char = before[index]
        if open_quote:
            if char == "\\" and open_quote == '"':
                index += 1
            elif char == open_quote:
                open_quote = ""
        elif char in quotes:
            open_quote = char
        index += 1
    return bool(open_quote)


def _comment_starts(before: str) -> bool:
    """Whether a YAML comment starts in ``before`` (a ``#`` at the line start or after a
    space, outside quotes): what follows is a comment."""
    return re.search(r"(?:^|\s)#", before) is not None


# A build-time include that puts a file's content where it stands, written alone on its line:
# spec-up's `[[insert: path]]` (or `[[insert ./path]]`), pymdownx.snippets' `--8<-- "path"`, markdown-include's
# `{!path!}`, Jekyll's and Liquid's `{% include path %}`, Hugo's `{{< readfile >}}`.
_INCLUDE = re.compile(
    r"^\s*(?:\[\[\s*insert\b[^\]\n]*\]\]|-{1,2}8<-{1,2}(?:\s.*)?|\{!\s*[^!\n]+!\}"
    r"|\{%-?\s*include(?:_relative)?\s[^%\n]*%\}|\{\{<\s*(?:readfile|include)\b[^\n]*>\}\})\s*$",
    re.MULTILINE,
)


def include_directive(text: str) -> str | None:
    """The first build-time include directive written on a line of its own in ``text`` (a code
    fence the site's build fills from a file), or None: such a fence is not its example until
    the build runs, and the file it names is checked as itself."""
    found = _INCLUDE.search(text)
    return found.group(0).strip() if found else None
