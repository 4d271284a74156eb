"""A Protocol Buffers file, or a proto fence meant as a whole file, that does not compile.

What it does
    Compiles the corpus's ``.proto`` files, and the ``proto``/``protobuf`` fences of its pages
    that declare a ``syntax`` or ``edition`` (a whole file, not an excerpt), with protoc (the
    one grpcio-tools ships, the well-known types and googleapis-common-protos'
    ``google/api``, ``google/rpc`` and ``google/type`` files importable), and reports each of
    protoc's errors at its line and column: a syntax error, a name that is not defined, a field
    number used twice, an import that is not there.

    An import that is neither in the corpus nor shipped with those packages (a
    ``buf.build`` dependency that is not vendored) is no finding: the file is read with an
    empty file in its place, the custom options it would have declared are set aside, and the
    rest of the file is still checked; the run lists the import among what it did not check
    ("not checked: 10 proto imports not in the repository"). What that import would have
    defined is not reported as missing. The options are set aside as protoc reads them
    (comments, strings holding ``//``, aggregates over lines, the comma between two options),
    so the file stays as valid as it was written; should protoc still reject it where speclint
    set an option aside (or an option cannot be set aside), the file is listed as not checked
    too, as are the files that fail only because they import it: speclint's rewriting is never
    reported as the author's error.

    A file that fails because a file it imports fails is not reported again: the error is
    reported once, where it is. In a fence, a name the fence uses and does not define (a
    service shown without its messages) is an excerpt's, not an error, and an import the fence
    names is not required to be there; a fence's errors are warnings (an example, not the
    contract). protoc's own warnings (an unused import) are not reported.

    What keeps protoc from reading a file is a warning saying so, never a silent pass: protoc
    missing (speclint installed without grpcio-tools: nothing is checked, said once), protoc
    running out of its time box (the file is not checked), protoc's runs spending their time
    budget (60 s; each file that does not compile costs a run) or their number of runs (one
    per file and four more; a run that sets options aside does not count) before they got to
    the file, a name protoc cannot be given safely (a backslash, a name that is no relative
    path, one that starts with ``-`` or ``@``, which protoc reads as options, a control
    character, a ``:`` before a digit or a space, which reads as a diagnostic's position), and
    one file imported under two names.

Why is this bad?
    A ``.proto`` that does not compile breaks every client and server generated from it, and a
    proto example that does not compile is one a reader cannot paste. protoc only says so when
    someone runs it; a spec repository's CI often does not.

Example
    ::

        syntax = "proto3";
        package tasks.v1;
        message Task {
          string id = 1;
          string context_id = 1;
        }

    FAIL: ``api/tasks.proto:5:23: error [proto-invalid] protoc: Field number 1 has already been
    used in "tasks.v1.Task" by field "id". Next available field number is 2. ...``

Use instead
    ``string context_id = 2;``. PASS.

Options
    None.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.protos import ProtoFence, corpus_protos
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.protobuf import NOT_CHECKED, REWRITE, ProtoProblem

ID = "proto-invalid"
SEVERITY = Severity.ERROR
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
# In a fence, what an excerpt leaves to the file it is taken from.
_EXCERPT = ("is not defined.", "File not found.", "was not found or had errors.")
# How to mend what kept protoc from reading a file (its alias message says so itself).
_HINTS = {
    "timeout": ": the file was not checked; split it, or look for what makes protoc loop",
    "unread": ": rename the file",
    "budget": ": the file was not checked; fix the files that do not compile (protoc runs once "
    "more for each), or check fewer protos at a time",
    "alias": "",
    # speclint's own rewriting (the options of a missing import set aside) is what failed: the
    # author's text may well compile, so this is no finding against it.
    REWRITE: ": vendor the import (or add its package's path) to have the file checked",
    "passes": ": the file was not checked; fix the files that do not compile, or check fewer "
    "protos at a time",
}
# what keeps protoc from reading a file, and one file imported under two names
_NOT_READ = NOT_CHECKED | {"alias"}


def check(corpus: Context, options: Mapping[str, Any]) -> Iterator[Finding]:
    protos = corpus_protos(corpus)
    if not protos.files and not any(fence.whole for fence in protos.fences):
        return
    if protos.compilation.unavailable:
        if protos.files:
            where = Location(protos.files[0], 1, 1)
        else:
            first = next(fence for fence in protos.fences if fence.whole)
            line, column = first.page_position(1, 1)
            anchor = first.fence.heading.anchor if first.fence.heading else None
            where = Location(first.page, line, column, heading=anchor)
        yield Finding(
            ID,
            Severity.WARNING,
            f"the Protocol Buffers of the corpus were not checked: {protos.compilation.unavailable}"
            ": install speclint with its dependencies (grpcio-tools ships protoc)",
            where,
        )
        return
    fences = {fence.name: fence for fence in protos.fences if fence.whole}
    for problem in protos.compilation.problems:
        fence = fences.get(problem.path)
        if fence is not None:
            found = _in_fence(problem, fence)
            if found is not None:
                yield found
        elif problem.kind != "warning":
            yield _in_file(problem)


def _in_file(problem: ProtoProblem) -> Finding:
    where = Location(problem.path, problem.line, problem.column)
    if problem.kind == "import":
        return Finding(
            ID,
            Severity.INFO,
            problem.message + "; vendor it (or add its package's path) to have it checked",
            where,
            key=f"import:{problem.message}",
            coverage="proto-import",
        )
    if problem.kind == REWRITE:
        # Not read for want of an import that is not here: like the import's own note, what
        # speclint did not check, not a finding (the author's text is not known to be wrong).
        return Finding(
            ID,
            Severity.INFO,
            problem.message + _HINTS[problem.kind],
            where,
            coverage="proto-rewrite",
        )
    if problem.kind in _NOT_READ:
        return Finding(ID, Severity.WARNING, problem.message + _HINTS[problem.kind], where)
    said = problem.message if problem.message.endswith(".") else problem.message + "."
    return Finding(
        ID,
        SEVERITY,
        f"protoc: {said} The file does not compile: fix it here (each client and server "
        "generated from it fails the same way)",
        where,
        key=problem.message,
    )


def _in_fence(problem: ProtoProblem, fence: ProtoFence) -> Finding | None:
    line, column = fence.page_position(problem.line, problem.column)
    heading = fence.fence.heading.anchor if fence.fence.heading else None
    if problem.kind in _NOT_READ:  # not checked (a timeout or an alias too: never silent)
        return Finding(
            ID,
            Severity.INFO if problem.kind == REWRITE else Severity.WARNING,
            f"the {fence.fence.language} fence is {problem.message}"
            + (": rename the page" if problem.kind == "unread" else _HINTS[problem.kind]),
            Location(fence.page, line, column, heading=heading),
            key=f"fence:{fence.fence.line}:{problem.kind}",
            # speclint's own rewriting failed, as in a file: what the run did not check
            coverage="proto-rewrite" if problem.kind == REWRITE else None,
        )
    if problem.kind != "error" or problem.message.endswith(_EXCERPT):
        return None
    return Finding(
        ID,
        Severity.WARNING,
        f"the {fence.fence.language} fence does not compile: {problem.message} (line "
        f"{problem.line} of the fence); fix the example, or drop its `syntax` line if it is an "
        "excerpt",
        Location(fence.page, line, column, heading=heading),
        key=f"fence:{fence.fence.line}:{problem.message}",
    )
