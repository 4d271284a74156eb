"""A JSON, YAML or Markdown file that cannot be read or parsed.

What it does
    Reports every corpus file that is not well-formed: a JSON syntax error, a YAML error, bytes that
    are not UTF-8, a binary file with a ``.json`` name, nesting deeper than 256 levels, or a YAML
    alias expansion past two million nodes. The finding points at the line and column where
    parsing stopped.

    It also reports the files speclint will not read, because reading them is unsafe or
    impossible: a symlink that leaves the corpus root or points back at itself, a FIFO, socket
    or device with a schema's name (opening a FIFO would wait forever), a file over 25 MB, and a
    file whose name is not UTF-8 (it could appear in no report, URI or ``$ref``; the finding
    shows its bytes as ``\\xff`` escapes).

Why is this bad?
    A file that does not parse is invisible to every other check, and to every tool downstream
    (code generators, validators). speclint still checks the rest of the corpus, so one broken file
    never hides the others' findings.

Example
    ``schemas/run.schema.json``::

        {
          "type": "object",
          "required": ["id"],
        }

    FAIL: ``schemas/run.schema.json:3:21: error [parse-error] trailing comma before `}` ...``

    The message names the fault where it is: a trailing comma at the comma, a missing comma at
    the member after it, single quotes, an unquoted property name, a comment, an object or array
    left open (with the line it opened at).

Use instead
    ::

        {
          "type": "object",
          "required": ["id"]
        }

    PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.corpus import Corpus
from speclint.findings import Finding, Location, Severity

ID = "parse-error"
SEVERITY = Severity.ERROR


def check(corpus: Corpus, options: Mapping[str, Any]) -> Iterator[Finding]:
    for document in corpus.documents.values():
        problem = document.problem
        if problem is None:
            continue
        advice = (
            " (nothing in it was checked)"
            if problem.unread
            else "; fix the file so it parses (nothing else is checked in it)"
        )
        yield Finding(
            ID,
            SEVERITY,
            f"{problem.message}{advice}",
            Location(document.path, problem.line, problem.column),
            key=problem.message,
        )
