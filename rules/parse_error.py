"""A JSON, YAML or Markdown file that cannot be read or parsed.

What it does
    Reports every corpus file that is not well-formed (a JSON or YAML syntax error, bytes that
    are not UTF-8, a binary file with a ``.json`` name, nesting past 256 levels, a YAML alias
    expansion past two million nodes) at the line and column where parsing stopped, and every
    file speclint will not read because reading it is unsafe or impossible (a symlink out of the
    root or to itself, a FIFO, socket or device, a file over 25 MB, a name that is not UTF-8).
    A draft (in ``rfcs/``, ``adr/``) is reported at info.

    Not reported, and counted in the run's summary instead (``speclint files`` lists each):

    - a YAML stream of data documents (a Kubernetes manifest, a catalog of resources): only a
      stream holding a spec document (an ``openapi``, ``asyncapi``, ``swagger``, ``$schema`` or
      ``$id`` key, or a ``yaml-language-server`` modeline) is, as API tools read only the first;
    - a template (a Helm chart's ``templates/``, a cookiecutter folder, ``*.j2.yaml``, template
      syntax where YAML or JSON syntax goes): "2 templates not read";
    - an empty file: "1 empty file not read";
    - a ``.json`` file a page shows as an example (a fence's whole text, an included file, an
      examples folder the pages say has comments), read as that fence would be;
    - a ``.json`` file that fails only at its ``...`` elisions: "1 JSON sketch not read".

    A ``.json`` file under YAML front matter (a Jekyll site's source) is read after it.

Why is this bad?
    A file that does not parse is invisible to every other check and every tool downstream (code
    generators, validators); speclint checks the rest, so one broken file never hides the others'
    findings.

Example
    ``schemas/run.schema.json``::

        {
          "type": "object",
          "required": ["id"],
        }

    FAIL: ``schemas/run.schema.json:3:21: error [parse-error] trailing comma before `}` ...``. The
    message names the fault where it is: a trailing comma at the comma, a missing comma at the
    member after it, single quotes, an unquoted name, a comment, an object or array left open (with
    the line it opened at).

Use instead
    ``"required": ["id"]`` without the trailing comma. PASS.

Options
    None.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from speclint.analyses.context import Context
from speclint.common.findings import Finding, Location, Severity
from speclint.model.corpus import Document
from speclint.parsing.fence_text import fence_failure
from speclint.parsing.kinds import DocumentKind, in_design_folder
from speclint.parsing.sketches import ELISION, JSON_STRING, sketch_notes
from speclint.parsing.structured import ParseFailure, fast_json, parse_json

ID = "parse-error"
SEVERITY = Severity.ERROR
# speclint.parsing.structured's message for a YAML stream of several documents (`---` between them).
MULTI_DOCUMENT = "more than one YAML document"
# A top-level key, or the editor modeline, that makes a YAML document a spec document.
_SPEC_KEY = re.compile(
    r"^(?:openapi|asyncapi|swagger|\$schema|\$id)\s*:|^#\s*yaml-language-server:\s*\$schema=",
    re.MULTILINE,
)


def _spec_like(text: str) -> bool:
    """Whether a document of a YAML stream is an API document, a schema or an instance that
    names its schema: for those, a second document is one no tool reads. A stream of resources
    (each document with its own ``apiVersion`` and ``kind``: Kubernetes manifests, a Backstage
    ``catalog-info.yaml`` of several entities, each naming its schema in its own modeline) is
    read document by document by the tools it is written for."""
    if _SPEC_KEY.search(text) is None:
        return False
    documents = [d for d in _DOCUMENT_BREAK.split(text) if _CONTENT.search(d)]
    resources = all(_API_VERSION.search(d) and _KIND.search(d) for d in documents)
    return not (len(documents) > 1 and resources and not _API_KEY.search(text))


_DOCUMENT_BREAK = re.compile(r"^---[ \t]*(?:#.*)?$", re.MULTILINE)
_CONTENT = re.compile(r"^[^#\s]", re.MULTILINE)
_API_VERSION = re.compile(r"^apiVersion\s*:", re.MULTILINE)
_KIND = re.compile(r"^kind\s*:", re.MULTILINE)
_API_KEY = re.compile(r"^(?:openapi|asyncapi|swagger)\s*:", re.MULTILINE)


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document in corpus.documents.values():
        problem = document.problem
        if problem is None:
            continue
        if problem.message.startswith(MULTI_DOCUMENT) and not _spec_like(document.text or ""):
            continue  # a YAML stream of data (a Kubernetes manifest): YAML, not a defect
        shown = _shown(corpus, document)
        if shown:
            yield Finding(
                ID,
                Severity.INFO,
                f"not read as data: {shown}, and it parses as the page's fence would, its "
                f"comments and elisions read as notes ({problem.message} at line {problem.line})",
                Location(document.path, problem.line, problem.column),
                key=problem.message,
                coverage="example-source",
            )
            continue
        if _sketch(document):
            yield Finding(
                ID,
                Severity.INFO,
                f"not read: a sketch, not data: it leaves members out with `...` ({problem.message}"
                f" at line {problem.line}; it parses once they are read as elisions)",
                Location(document.path, problem.line, problem.column),
                key=problem.message,
                coverage="json-sketch",
            )
            continue
        advice = (
            " (nothing in it was checked)"
            if problem.unread
            else "; fix the file so it parses (nothing else is checked in it)"
        )
        if in_design_folder(document.path):
            # A design record's or a proposal's file is a draft of a change under discussion,
            # as its fences are (fence-invalid does not judge those): told, not an error.
            advice += " (a design record's file: a draft, not the specification)"
        yield Finding(
            ID,
            Severity.INFO if in_design_folder(document.path) else SEVERITY,
            f"{problem.message}{advice}",
            Location(document.path, problem.line, problem.column),
            key=_key(problem.message),
        )


# The JSON reader's messages for a bad string, reworded (a raw line break was "invalid control
# character at", cut before its position), with the wording a finding's key keeps: baselines and
# labels written before still match it.
_EARLIER_WORDING = {
    "a line break inside a string": "invalid control character at",
    "a raw control character": "invalid control character at",
    "unterminated string:": "unterminated string starting at",
}


def _key(message: str) -> str:
    return next((k for m, k in _EARLIER_WORDING.items() if message.startswith(m)), message)


def _sketch(document: Document) -> bool:
    """Whether a JSON file fails where it elides members (``...`` outside a string, on the line
    its parse stopped at) and parses once its elisions are read as such."""
    problem, text = document.problem, document.text
    if problem is None or problem.unread or text is None or not document.path.endswith(".json"):
        return False
    lines = text.split("\n")
    if not 1 <= problem.line <= len(lines):
        return False
    if not ELISION.search(JSON_STRING.sub('""', lines[problem.line - 1])):
        return False
    noted = sketch_notes(text, elisions_only=True)
    if fast_json(noted) is not None:
        return True
    try:
        parse_json(noted)
    except ParseFailure:
        return False
    return True


# --- an example file shown by a page ------------------------------------------------------------

# A repository saying its JSON examples carry comments ("Some of the JSON examples in this
# document include comments"): its example files are JSON with comments, whatever their name.
_COMMENTS_STATED = re.compile(
    r"(?i)\bexamples?\b[^.\n]{0,80}?\b(?:include|contain|carry|have|has|with|use)s?\b"
    r"[^.\n]{0,20}?\bcomments?\b"
)
# A line of a JSON file holding only a comment.
_COMMENT_LINE = re.compile(r"^[ \t]*//", re.MULTILINE)
# A page's MyST or Sphinx directive that shows a file as its fence.
_LITERAL_INCLUDE = re.compile(r"^\{literalinclude\}\s+(\S+)")
_EXAMPLE_FOLDERS = frozenset({"example", "examples"})


@dataclass
class _Shown:
    """What the pages show of the corpus's files: fence bodies, the files they include, and
    where the repository says its examples carry comments."""

    bodies: dict[str, str] = field(default_factory=dict)  # a fence's body: "page line N"
    included: dict[str, str] = field(default_factory=dict)  # a file's path: "page line N"
    comments_stated: str = ""  # "page line N", or ""


def _shown(corpus: Context, document: Document) -> str:
    """Why a ``.json`` file that does not parse is an example a page shows, read as that page's
    fence would be read ("" when it is not one, or a fence of it would be reported): its whole
    text is the body of a page's fence, a page includes it (``{literalinclude}``), or it has
    comment lines in an examples folder of a repository that says its examples carry comments."""
    problem, text = document.problem, document.text
    if problem is None or problem.unread or text is None or not document.path.endswith(".json"):
        return ""
    shown = _pages_show(corpus)
    why = ""
    if text.strip() in shown.bodies:
        why = f"an example {shown.bodies[text.strip()]} shows"
    elif document.path in shown.included:
        why = f"an example {shown.included[document.path]} includes"
    elif (
        shown.comments_stated
        and _EXAMPLE_FOLDERS & set(document.path.lower().split("/")[:-1])
        and _COMMENT_LINE.search(text)
    ):
        why = f"an example with comments, as {shown.comments_stated} says the examples are"
    return why if why and fence_failure("json", text) is None else ""


def _pages_show(corpus: Context) -> _Shown:
    found = corpus.memo.get(ID + ":shown")
    if isinstance(found, _Shown):
        return found
    shown = _Shown()
    for page in corpus.of_kind(DocumentKind.MARKDOWN):
        if page.text is None:
            continue
        if not shown.comments_stated:
            stated = _COMMENTS_STATED.search(page.text)
            if stated is not None:
                line = page.text.count("\n", 0, stated.start()) + 1
                shown.comments_stated = f"{page.path} line {line}"
        for fence in page.prose.fences if page.prose is not None else ():
            where = f"{page.path} line {fence.line}"
            included = _LITERAL_INCLUDE.match(fence.info.strip())
            if included is not None:
                target = included.group(1)
                folder = posixpath.dirname(page.path)
                for path in (
                    posixpath.normpath(posixpath.join(folder, target)),
                    target.lstrip("/"),
                ):
                    shown.included.setdefault(path, where)
            elif fence.content.strip():
                shown.bodies.setdefault(fence.content.strip(), where)
    corpus.memo[ID + ":shown"] = shown
    return shown
