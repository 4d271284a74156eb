"""A Protocol Buffers file, or a proto fence meant as a whole file, that does not compile.

What it does
    Compiles the corpus's ``.proto`` files, and the ``proto``/``protobuf`` fences of its pages
    that declare a ``syntax`` or ``edition`` (a whole file, not an excerpt), with protoc (the
    one grpcio-tools ships, with the well-known types and googleapis-common-protos'
    ``google/api``, ``google/rpc`` and ``google/type``), and reports each of protoc's errors
    at its line and column, once, in the file where it is. Files are compiled as their builds
    compile them: files linked by imports together, files that share no import apart; an
    import under the repository's own module path (``go.mod``, Bazel's ``import_prefix``)
    names the repository's file. A fence's errors are ``warning``\\s (an example, not the
    contract).

    What keeps protoc from reading a file is said, never a silent pass: protoc missing or past
    its time limit is a ``warning``; a file it cannot be given safely is a ``warning`` at the
    file or listed among what the run did not check.

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

Limitations
    An import found nowhere (a ``buf.build`` dependency not vendored) is listed as not
    checked, not reported; the file is compiled without it, and a name only it could define
    is not reported missing. In a fence, what an excerpt leaves out (the messages of a
    service it shows, an import) is no error. protoc's own warnings are not reported.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from speclint.analyses.context import Context
from speclint.analyses.grpc.protos import ProtoFence, corpus_protos
from speclint.common.findings import Finding, Location, Severity
from speclint.parsing.protobuf import DEPENDENCY, NOT_CHECKED, REWRITE, Compilation, ProtoProblem

ID = "proto-invalid"
SEVERITY = Severity.ERROR
READS_PROTOS = True  # the compiled protos, of a page its proto fences (speclint.run.catalog)
# In a fence, what an excerpt leaves to the file it is taken from.
_EXCERPT = ("is not defined.", "File not found.", "was not found or had errors.")
# A custom option protoc does not know: `(google.api.resource)`. A custom option is an extension,
# declared by an `extend` block of some file (descriptor.proto, "Custom options"): in a fence
# that declares none, it can only come from an import the excerpt does not show. A built-in
# option's name (`ruby_namespace`) has no parentheses: unknown, it is the author's typo.
_CUSTOM_OPTION = re.compile(r'^Option "(?:[\w.]*\.)?\([^)]+\)[^"]*" unknown\.')
_EXTEND = re.compile(r"^\s*extend\b", re.MULTILINE)
# What kept protoc from reading a file: what the run did not check (a coverage kind), not a
# defect of the file. A name protoc cannot be given ("unread": rename it) and one file imported
# under two names ("alias") are the author's to mend: warnings.
# (A timeout is not among them: protoc that hangs stops the whole compile, `unavailable`, and
# the rule says so once, with the timeout's hint.)
_COVERAGE = {
    "budget": "proto-limit",
    "passes": "proto-limit",
    REWRITE: "proto-rewrite",
    DEPENDENCY: "proto-dependency",
}
# Why a file was not read, as the one warning of a proto surface wholly unread counts them.
_REASONS = {
    "proto-limit": "past speclint's limits on protoc's runs",
    "proto-rewrite": "rejected once options of missing imports were set aside",
    "proto-dependency": "failing for want of imports not in the repository",
}
# How to have a file that was not read checked.
_HINTS = {
    "timeout": ": split it, or look for what makes protoc loop",
    "unread": ": rename the file",
    "budget": ": fix the files that do not compile (protoc runs once more for each), or check "
    "fewer protos at a time",
    # speclint's own rewriting (the options of a missing import set aside) is what failed: the
    # author's text may well compile.
    REWRITE: ": vendor the import (or add its package's path) to have the file checked",
    DEPENDENCY: ": vendor the import (or add its package's path) to have the file checked",
    "passes": ": fix the files that do not compile, or check fewer protos at a time",
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
            + (
                # protoc ran and hung (the compile's time guard stopped it): not a missing install
                _HINTS["timeout"]
                if any(p.kind == "timeout" for p in protos.compilation.problems)
                else ": install speclint with its dependencies (grpcio-tools ships protoc)"
            ),
            where,
        )
        return
    fences = {fence.name: fence for fence in protos.fences if fence.whole}
    of_fence: dict[str, list[ProtoProblem]] = {}
    found: list[Finding] = []
    for problem in protos.compilation.problems:
        if problem.path in fences:
            of_fence.setdefault(problem.path, []).append(problem)
        elif problem.kind != "warning":
            found.append(_in_file(problem))
    for name, problems in of_fence.items():
        found += _in_fence(problems, fences[name])
    yield from found
    unread = _surface_unread(protos.files, protos.compilation, found)
    if unread is not None:
        yield unread


def _surface_unread(
    files: Sequence[str], compilation: Compilation, found: Sequence[Finding]
) -> Finding | None:
    """One warning when not one of the corpus's ``.proto`` files could be checked and none is
    reported: each file's reason is what the run did not check, but a proto surface that went
    wholly unread must not pass the gate as clean."""
    if not files or any(path in compilation.files for path in files):
        return None
    if any(f.coverage is None and f.location.path in files for f in found):
        return None
    reasons = Counter(
        _REASONS[_COVERAGE[p.kind]]
        for p in compilation.problems
        if p.path in files and p.kind in _COVERAGE
    )
    if not reasons:
        return None
    why = "; ".join(f"{number} {reason}" for reason, number in sorted(reasons.items()))
    return Finding(
        ID,
        Severity.WARNING,
        f"none of the corpus's {len(files)} Protocol Buffers files could be checked ({why}; "
        "`speclint files` says why, per file): vendor the imports they need, or fix what the "
        "run lists as not checked",
        Location(files[0], 1, 1),
        key="surface-unread",
    )


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
    if problem.kind in _COVERAGE:
        # Not read: what speclint did not check, not a finding (the author's text is not known
        # to be wrong), and the same for the same corpus whatever the machine's load.
        return Finding(
            ID,
            Severity.INFO,
            problem.message + _HINTS[problem.kind],
            where,
            coverage=_COVERAGE[problem.kind],
        )
    if problem.kind in ("alias", "unread"):
        return Finding(ID, Severity.WARNING, problem.message + _HINTS.get(problem.kind, ""), where)
    said = problem.message if problem.message.endswith(".") else problem.message + "."
    return Finding(
        ID,
        SEVERITY,
        f"protoc: {said} The file does not compile: fix it here (each client and server "
        "generated from it fails the same way)",
        where,
        key=problem.message,
    )


def _in_fence(problems: Sequence[ProtoProblem], fence: ProtoFence) -> list[Finding]:
    """A fence's findings: what kept protoc from reading it (coverage, or an alias), its real
    errors (warnings: an example, not the contract), and, when its only errors are custom
    options of imports it does not show, one note that the excerpt was not compiled."""
    heading = fence.fence.heading.anchor if fence.fence.heading else None

    def at(problem: ProtoProblem) -> Location:
        line, column = fence.page_position(problem.line, problem.column)
        return Location(fence.page, line, column, heading=heading)

    found = []
    errors = [p for p in problems if p.kind == "error" and not p.message.endswith(_EXCERPT)]
    declares = bool(_EXTEND.search(fence.fence.content))
    unshown = [p for p in errors if not declares and _CUSTOM_OPTION.match(p.message)]
    for problem in problems:
        if problem.kind in _NOT_READ:  # not checked (an alias too: never silent)
            found.append(
                Finding(
                    ID,
                    Severity.INFO if problem.kind in _COVERAGE else Severity.WARNING,
                    f"the {fence.fence.language} fence is {problem.message}"
                    + (
                        ": rename the page"
                        if problem.kind == "unread"
                        else _HINTS.get(problem.kind, "")
                    ),
                    at(problem),
                    key=f"fence:{fence.fence.line}:{problem.kind}",
                    coverage=_COVERAGE.get(problem.kind),
                )
            )
    if unshown and len(unshown) == len(errors):
        first = unshown[0]
        option = first.message.split('"')[1] if '"' in first.message else "a custom option"
        found.append(
            Finding(
                ID,
                Severity.INFO,
                f"the {fence.fence.language} fence was not compiled: its option {option} comes "
                "from an import the excerpt does not show; show the import to have it checked",
                at(first),
                key=f"fence:{fence.fence.line}:imports-not-shown",
                coverage="proto-excerpt",
            )
        )
        return found
    for problem in errors:
        if problem in unshown:  # beside a real error, not a second finding
            continue
        found.append(
            Finding(
                ID,
                Severity.WARNING,
                f"the {fence.fence.language} fence does not compile: {problem.message} (line "
                f"{problem.line} of the fence); fix the example, or drop its `syntax` line if it "
                "is an excerpt",
                at(problem),
                key=f"fence:{fence.fence.line}:{problem.message}",
            )
        )
    return found
