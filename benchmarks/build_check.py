r"""Check ``speclint build``'s bundles with the established validators, beside their sources.

Usage::

    python benchmarks/build_check.py TREES SCRATCH [--jobs N] [--only TEXT ...]
        [--json FILE] [--markdown FILE] [--build-timeout S] [--check-timeout S]

TREES is a folder of repository trees (one folder each, named ``OWNER+NAME@COMMIT`` as the
ecosystem check extracts them; any other folder name is taken as the repository's name). SCRATCH is
where everything is written (never inside this repository; nothing is written into the trees:
``speclint build -o SCRATCH/bundles/TREE``). For each tree it:

1. runs ``speclint build TREE -o SCRATCH/bundles/TREE`` (the ``speclint`` of this Python: ``python
   -m speclint``), and reads what it built from the output folder's manifest and catalog, and what
   it did not build (and why) from its ``not built:`` lines;
2. checks every schema bundle, and every schema source (built or not), with ``check-jsonschema
   --check-metaschema``; every OpenAPI bundle and source with openapi-spec-validator (3.0 and 3.1:
   the source from its file URL, so its relative ``$ref``\s are followed) and every AsyncAPI one
   with the official AsyncAPI schema of its version that speclint ships (``asyncapi-invalid``'s:
   the document as written, a ``$ref`` left a Reference Object);
3. reports per repository what was built, not built (with the build's reason), each bundle's and
   each source's verdict, and the acceptance list of issue 47: **a bundle that fails where its
   source passes**, which must be empty; beside it, a source that passes but is not built.

"The source passes" means every file the bundle is made of passes in the role it is used in. The
root file's validator sees only the root: openapi-spec-validator reads a Reference Object as data
and never judges its target (a path item kept in a file, a schema file a 3.0 document names), and
a schema bundle embeds files the root's check never opens. So a failing bundle is listed apart,
not on the acceptance list, when (a) the embedded file its error is inside fails the same check
alone, or (b) ``speclint check --preview`` reports a defect of that kind (``SOURCE_RULES``) in a
file the source reaches by ``$ref`` (the finding is quoted beside it, to be read: the list says
which). Both lists are the sources' defects carried into the bundle, not the build's.

A repository with no schema and no API document is listed as such. Every child process has a time
limit (a hang is a verdict, ``timeout``, never a stuck run), the validators run with the network
cut (a remote ``$ref`` is not fetched: ``unchecked``), and the outputs, ``SCRATCH/build-check.json``
and ``SCRATCH/build-check.md`` (and ``--json`` / ``--markdown`` copies), are deterministic: sorted,
with no times and no absolute paths. Each tree's files are listed (path, size, mtime) before and
after, and any difference is reported: the build must not write into the tree.

Not compared (left): the verdicts of the repositories' own example instances against source and
bundle.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent.parent
MANIFEST = ".speclint-build.json"
CATALOG = "catalog.json"
# `speclint: not built: PATH: MESSAGE (and N more)` (frontends/commands/build.py)
NOT_BUILT = re.compile(r"^speclint: not built: (?P<path>.+?): (?P<message>.*)$")
API_NOT_BUILT = re.compile(
    r"^speclint: \d+ API document\(s\) could not be bundled \((?P<paths>.*)\)"
)
CHUNK = 50  # files per check-jsonschema run
MESSAGE_LIMIT = 400
# check-jsonschema's path of an error inside an embedded resource: `$['$defs']['URI']...` (2019-09
# and 2020-12 bundles), `$.definitions['URI']...` / `$['definitions']['URI']` (draft-04..07).
EMBEDDED = re.compile(r"^\$(?:\['\$defs'\]|\.definitions|\['definitions'\])\['(?P<uri>[^']+)'\]")
# The rules whose findings say a source file is invalid in its role, as a bundle's validators
# judge it (a preview rule among them runs with --preview); a rule the installed speclint does
# not know is left out of --select.
SOURCE_RULES = (
    "openapi-invalid",
    "asyncapi-invalid",
    "schema-invalid",
    "pattern-portability",
)

# Prepended to every validator child: no socket can connect, so a remote `$ref` is not fetched
# (the machine may have no network; a validator that tried would hang or depend on it).
NO_NETWORK = """
import socket
def _refused(*args, **kwargs):
    raise OSError("network disabled by build_check: a remote reference is not fetched")
socket.create_connection = _refused
socket.getaddrinfo = _refused
socket.socket.connect = _refused
"""


# --- the verdicts --------------------------------------------------------------------------------


@dataclass
class Verdict:
    verdict: str  # valid | invalid | unparsable | unchecked | timeout
    error: str = ""


@dataclass
class Entry:
    """One source the build takes up: a schema or an API document, and its bundle if built."""

    kind: str  # schema | openapi | asyncapi
    source: str  # tree-relative
    version: str = ""  # the API document's `openapi`/`asyncapi` value
    bundle: str | None = None  # output-relative, when built
    not_built: str = ""  # the build's reason, when not built
    bundle_check: Verdict | None = None
    source_check: Verdict | None = None
    # A schema bundle that fails inside an embedded resource: that resource's file, and the
    # verdict of that file checked alone (`invalid`: the bundle embeds a schema that fails alone)
    embedded: str = ""
    embedded_check: Verdict | None = None
    # A failing bundle whose source reaches a file `speclint check` reports invalid in its role:
    # `PATH:LINE: RULE: MESSAGE` of the first such finding (the closest to the bundle's error).
    reported: str = ""


def _embedded_source_fails(entry: Entry) -> bool:
    check = entry.embedded_check
    return check is not None and check.verdict in ("invalid", "unparsable")


def _source_defect(entry: Entry) -> bool:
    return _embedded_source_fails(entry) or bool(entry.reported)


@dataclass
class Repository:
    name: str
    tree: str
    build_exit: int | None = None  # None: timed out
    build_error: str = ""  # the build's own failure (exit 2), or its time-out
    entries: list[Entry] = field(default_factory=list)
    warnings: int = 0  # the build's `warning:` lines
    tree_changed: list[str] = field(default_factory=list)

    def _failing_bundles(self) -> list[Entry]:
        return [
            e
            for e in self.entries
            if e.bundle is not None
            and e.source_check is not None
            and e.source_check.verdict == "valid"
            and e.bundle_check is not None
            and e.bundle_check.verdict != "valid"
            and e.bundle_check.verdict != "unchecked"
        ]

    @property
    def fails_where_source_passes(self) -> list[Entry]:
        """Bundles that fail where every source they are made of passes: the build's defects
        (the acceptance list, which must be empty)."""
        return [e for e in self._failing_bundles() if not _source_defect(e)]

    @property
    def fails_in_an_embedded_source(self) -> list[Entry]:
        """Bundles that fail inside an embedded file which fails the same check alone: the
        source's defect, carried into the bundle, not the build's."""
        return [e for e in self._failing_bundles() if _embedded_source_fails(e)]

    @property
    def fails_in_a_reported_source(self) -> list[Entry]:
        """Bundles that fail where the root passes and ``speclint check`` reports a file the
        source reaches invalid in its role: the source's defect, which the root's validator
        does not see."""
        return [e for e in self._failing_bundles() if e.reported and not _embedded_source_fails(e)]

    @property
    def not_built_where_source_passes(self) -> list[Entry]:
        return [
            e
            for e in self.entries
            if e.bundle is None and e.source_check is not None and e.source_check.verdict == "valid"
        ]


# --- child processes with a time limit ------------------------------------------------------------


def run(
    command: Sequence[str], timeout: float, cwd: Path | None = None
) -> tuple[int | None, str, str]:
    """Exit code (None: killed at the time limit), stdout, stderr."""
    try:
        done = subprocess.run(
            list(command),
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode(errors="replace") if isinstance(expired.stdout, bytes) else ""
        return None, out, ""
    return done.returncode, done.stdout, done.stderr


def clip(text: str, *roots: tuple[Path, str]) -> str:
    """One line, without this run's absolute paths, at most MESSAGE_LIMIT characters."""
    for root, name in roots:
        text = text.replace(root.as_uri(), name).replace(str(root), name)
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


# --- the build ------------------------------------------------------------------------------------


def speclint_command() -> list[str]:
    return [sys.executable, "-m", "speclint"]


def build(tree: Path, out: Path, timeout: float) -> tuple[int | None, str]:
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    code, _stdout, stderr = run([*speclint_command(), "build", str(tree), "-o", str(out)], timeout)
    return code, stderr


def not_built(stderr: str) -> tuple[dict[str, str], set[str], int]:
    """The build's `not built` reasons by source path, the API documents among them, and how
    many warning lines it printed."""
    reasons: dict[str, str] = {}
    api: set[str] = set()
    warnings = 0
    for line in stderr.splitlines():
        match = NOT_BUILT.match(line)
        if match:
            reasons[match["path"]] = match["message"]
        elif line.startswith("speclint: warning: "):
            warnings += 1
        listed = API_NOT_BUILT.match(line)
        if listed:
            api.update(p for p in listed["paths"].split(", ") if p)
    return reasons, api, warnings


def read_data(path: Path) -> Any:
    """A JSON or YAML file's data, or None."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return yaml.safe_load(text)
    except Exception:  # any parse failure (YAML's, a recursion) is "no data"
        return None


def catalog_files(out: Path) -> dict[str, str]:
    """The catalog's `$id` -> file."""
    catalog = read_data(out / CATALOG)
    if not isinstance(catalog, dict):
        return {}
    return {
        uri: entry["file"]
        for uri, entry in catalog.items()
        if isinstance(entry, dict) and isinstance(entry.get("file"), str)
    }


def api_kind(data: Any) -> tuple[str, str] | None:
    if not isinstance(data, dict):
        return None
    for kind in ("openapi", "asyncapi"):
        if kind in data:
            return kind, str(data[kind])
    return None


def api_source(tree: Path, output: str) -> str:
    """The source of an API bundle: the same path, else the same stem in another format (the
    build writes ``[build] api-format``'s extension)."""
    if (tree / output).is_file():
        return output
    stem = output.rsplit(".", 1)[0]
    for extension in (".yaml", ".yml", ".json"):
        if (tree / (stem + extension)).is_file():
            return stem + extension
    return output


def entries(tree: Path, out: Path, stderr: str) -> tuple[list[Entry], int]:
    reasons, api_not_built, warnings = not_built(stderr)
    manifest = read_data(out / MANIFEST)
    files = sorted(manifest.get("files", {})) if isinstance(manifest, dict) else []
    catalog = read_data(out / CATALOG)
    schema_files = (
        {v.get("file") for v in catalog.values() if isinstance(v, dict)}
        if isinstance(catalog, dict)
        else set()
    )
    found: list[Entry] = []
    for relative in files:
        if relative in (MANIFEST, CATALOG):
            continue
        bundle_data = read_data(out / relative)
        kind = None if relative in schema_files else api_kind(bundle_data)
        if kind is None:
            found.append(Entry("schema", relative, bundle=relative))
        else:
            found.append(Entry(kind[0], api_source(tree, relative), kind[1], bundle=relative))
    for source, reason in sorted(reasons.items()):
        data = read_data(tree / source)
        kind = api_kind(data) if source in api_not_built else None
        if source in api_not_built:
            name, version = kind if kind else ("openapi", "")
            found.append(Entry(name, source, version, not_built=reason))
        else:
            found.append(Entry("schema", source, not_built=reason))
    return sorted(found, key=lambda e: (e.source, e.kind)), warnings


# --- check-jsonschema --check-metaschema ----------------------------------------------------------


def check_jsonschema_available() -> bool:
    return importlib.util.find_spec("check_jsonschema") is not None


def metaschema(
    files: list[Path], timeout: float, roots: Sequence[tuple[Path, str]]
) -> dict[Path, Verdict]:
    """`check-jsonschema --check-metaschema` on files, CHUNK at a time; a chunk that times out is
    halved until the file that hangs is alone (its verdict: timeout)."""
    verdicts: dict[Path, Verdict] = {}
    pending = [files[i : i + CHUNK] for i in range(0, len(files), CHUNK)]
    while pending:
        chunk = pending.pop()
        command = [
            sys.executable,
            "-c",
            NO_NETWORK + "import runpy; runpy.run_module('check_jsonschema', run_name='__main__')",
            "--check-metaschema",
            "-o",
            "json",
            *[str(f) for f in chunk],
        ]
        code, stdout, stderr = run(command, timeout)
        if code is None:
            if len(chunk) == 1:
                verdicts[chunk[0]] = Verdict("timeout", f"check-jsonschema ran over {timeout:g} s")
            else:
                half = len(chunk) // 2
                pending += [chunk[:half], chunk[half:]]
            continue
        try:
            report = json.loads(stdout)
        except ValueError:
            # Not its report: a crash. Each file alone says which (a crash of one file alone
            # is that file's verdict).
            if len(chunk) == 1:
                verdicts[chunk[0]] = Verdict("unchecked", clip(stderr or stdout, *roots))
            else:
                pending += [[f] for f in chunk]
            continue
        by_name = {str(f): f for f in chunk}
        for error in report.get("errors", []):
            path = by_name.get(error.get("filename", ""))
            if path is not None and path not in verdicts:
                where = error.get("path", "")
                best = error.get("best_deep_match") or {}
                message = best.get("message") or error.get("message", "")
                verdicts[path] = Verdict("invalid", clip(f"{where}: {message}", *roots))
        for error in report.get("parse_errors", []):
            path = by_name.get(error.get("filename", ""))
            if path is not None and path not in verdicts:
                verdicts[path] = Verdict("unparsable", clip(error.get("message", ""), *roots))
        for path in chunk:
            verdicts.setdefault(path, Verdict("valid"))
    return verdicts


def embedded(schemas: list[Entry], verdicts: dict[Path, Verdict], tree: Path, out: Path) -> None:
    """Name the embedded file a schema bundle fails in, with that file's verdict alone."""
    files = catalog_files(out)
    for e in schemas:
        inside = EMBEDDED.match(e.bundle_check.error) if e.bundle_check else None
        if inside is not None:
            uri = inside["uri"]
            e.embedded = files.get(uri, uri.removeprefix("file:///corpus/"))
            e.embedded_check = verdicts.get(tree / e.embedded)


# --- what `speclint check` says of the files a source is made of ---------------------------------


def reached_files(tree: Path, source: str) -> set[str]:
    """The tree-relative files ``source`` is made of: itself and every file a relative ``$ref``
    reaches, transitively (a remote one is not the build's to embed, nor a file out of the
    tree)."""
    seen = {source}
    pending = [source]
    root = tree.resolve()
    while pending:
        current = pending.pop()
        for value in _ref_values(read_data(tree / current)):
            target = value.split("#", 1)[0]
            if not target or "://" in target or target.startswith("urn:"):
                continue
            resolved = (tree / current).parent.joinpath(target).resolve()
            if root not in resolved.parents or not resolved.is_file():
                continue
            relative = resolved.relative_to(root).as_posix()
            if relative not in seen:
                seen.add(relative)
                pending.append(relative)
    return seen


def _ref_values(data: Any) -> Iterable[str]:
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield ref
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


@functools.cache
def known_rules(timeout: float) -> frozenset[str]:
    """The rule ids the installed speclint knows: asked once a run, not once a tree."""
    code, stdout, _ = run([*speclint_command(), "rules"], timeout)
    if code != 0:
        return frozenset()
    return frozenset(line.split()[0] for line in stdout.splitlines() if line.strip())


def reported_defects(tree: Path, scratch: Path, timeout: float) -> list[dict[str, Any]]:
    """The findings of ``SOURCE_RULES`` (errors and warnings) ``speclint check --preview`` makes
    on the tree, each ``{path, line, rule, message, pointer}``."""
    rules = [rule for rule in SOURCE_RULES if rule in known_rules(timeout)]
    if not rules:
        return []
    output = scratch / "checks" / f"{tree.name}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [*speclint_command(), "check", str(tree), "--preview", "--select", ",".join(rules)]
    run([*command, "--format", "json", "--output", str(output)], timeout)
    report = read_data(output)
    findings = report.get("findings", []) if isinstance(report, dict) else []
    return [
        {
            "path": f["location"]["path"],
            "line": f["location"].get("line") or 0,
            "pointer": f["location"].get("pointer") or "",
            "rule": f["rule"],
            "message": f["message"],
        }
        for f in findings
        if isinstance(f, dict) and f.get("severity") in ("error", "warning")
    ]


# Words every validator message has: sharing them says nothing about sharing a defect.
_COMMON_WORDS = (
    "the and not are was were for from this that with has have its any one none valid "
    "invalid error schema schemas property properties object objects value values under "
    "listed keyword failed validating instance allowed expected unexpected document file"
)
_COMMON = frozenset(_COMMON_WORDS.split())


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w$.^{}\\-]{4,}", text) if w.lower() not in _COMMON}


def _said(finding: dict[str, Any]) -> set[str]:
    """The words of a finding's message and of its pointer's tokens (the component's name, which
    the bundle's error path names too when the message is clipped before the value)."""
    return _words(finding["message"] + " " + finding["pointer"].replace("/", " "))


def attribute(
    failing: list[Entry],
    tree: Path,
    findings: list[dict[str, Any]],
    roots: Sequence[tuple[Path, str]],
) -> None:
    """Name, for each failing bundle, the finding ``speclint check`` makes on a file its source
    reaches: the one that shares the most words with the bundle's error first (a pattern quoted
    by both, a property or component name), so that the report quotes the defect the bundle carries. None
    when no finding shares a word beyond those every validator message has."""
    for e in failing:
        files = reached_files(tree, e.source)
        candidates = [f for f in findings if f["path"] in files]
        if not candidates:
            continue
        error = _words(e.bundle_check.error if e.bundle_check else "")
        best = sorted(
            candidates,
            key=lambda f: (-len(error & _said(f)), f["path"], f["line"], f["rule"]),
        )[0]
        shared = sorted(error & _said(best))
        if not shared:
            continue  # a defect of the file, but not one the bundle's error shows
        e.reported = clip(
            f"{best['path']}:{best['line']}: {best['rule']}: {best['message']} "
            f"(shares {', '.join(f'`{w}`' for w in shared[:5])})",
            *roots,
        )


# --- the API validators (in a child process: see `worker`) ----------------------------------------


def api_checks(
    files: list[Path], timeout: float, roots: Sequence[tuple[Path, str]]
) -> dict[Path, Verdict]:
    """Each file's verdict from a worker child (``WORKER``), which prints one JSON line per file;
    a file that takes longer than ``timeout`` is killed with its worker (verdict: timeout) and the
    rest go to a new one."""
    verdicts: dict[Path, Verdict] = {}
    remaining = list(files)
    while remaining:
        command = [sys.executable, "-c", NO_NETWORK + WORKER, *[str(f) for f in remaining]]
        child = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream: Any = child.stdout, sink: queue.Queue[str | None] = lines) -> None:
            for line in stream:
                sink.put(line)
            sink.put(None)

        threading.Thread(target=pump, daemon=True).start()
        while remaining:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                child.kill()
                verdicts[remaining.pop(0)] = Verdict(
                    "timeout", f"the validator ran over {timeout:g} s"
                )
                break
            if line is None:  # the worker died: the file it was on is unchecked
                verdicts[remaining.pop(0)] = Verdict("unchecked", "the validator crashed")
                break
            try:
                answer = json.loads(line)
            except ValueError:
                continue
            verdicts[remaining.pop(0)] = Verdict(answer["verdict"], clip(answer["error"], *roots))
        child.kill()
        child.wait()
    return verdicts


# The worker, run as `python -c NO_NETWORK+WORKER FILE...`: one JSON line per file.
WORKER = r"""
import json, re, sys
from pathlib import Path

def verdict(path):
    from openapi_spec_validator.readers import read_from_filename
    try:
        data, base_uri = read_from_filename(path)
    except Exception as error:
        return "unparsable", f"{type(error).__name__}: {error}"
    if not isinstance(data, dict):
        return "unparsable", "not a mapping"
    if "asyncapi" in data:
        from speclint.analyses.schemas.validation import asyncapi_validator, asyncapi_versions
        version = str(data["asyncapi"])
        if version not in asyncapi_versions():
            return "unchecked", f"no official AsyncAPI schema of {version} shipped"
        errors = sorted(asyncapi_validator(version).iter_errors(data), key=lambda e: list(e.absolute_path))
        if not errors:
            return "valid", ""
        error = errors[0]
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        return "invalid", f"{where}: {error.message} ({len(errors)} error(s))"
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    try:
        validate(data, base_uri=base_uri)
    except ValidatorDetectError as error:
        return "unchecked", str(error)
    except Exception as error:
        message = getattr(error, "message", None) or str(error)
        path = getattr(error, "absolute_path", None) or getattr(error, "path", None)
        where = "/" + "/".join(str(p) for p in path) if path else ""
        if "network disabled by build_check" in message or re.search(r"Unresolvable: https?://", message):
            return "unchecked", "a remote $ref (not fetched): " + message
        return "invalid", f"{where}: {type(error).__name__}: {message}"
    return "valid", ""

for name in sys.argv[1:]:
    try:
        kind, error = verdict(name)
    except RecursionError:
        kind, error = "unchecked", "the validator recursed too deep"
    except Exception as error_:
        kind, error = "unchecked", f"the validator crashed: {type(error_).__name__}: {error_}"
    print(json.dumps({"verdict": kind, "error": error}), flush=True)
"""


# --- one repository -------------------------------------------------------------------------------


def listing(tree: Path) -> dict[str, tuple[int, int]]:
    seen: dict[str, tuple[int, int]] = {}
    for folder, folders, files in os.walk(tree):
        for name in files + [f for f in folders if os.path.islink(os.path.join(folder, f))]:
            path = os.path.join(folder, name)
            try:
                status = os.lstat(path)
            except OSError:
                continue
            seen[os.path.relpath(path, tree)] = (status.st_size, status.st_mtime_ns)
    return seen


def repository_name(tree: Path) -> str:
    name = tree.name.split("@", 1)[0]
    return name.replace("+", "/", 1)


def check_repository(tree: Path, scratch: Path, args: argparse.Namespace) -> Repository:
    repository = Repository(repository_name(tree), tree.name)
    out = scratch / "bundles" / tree.name
    roots = ((out, "<bundle>"), (tree, "<tree>"))
    before = listing(tree)
    code, stderr = build(tree, out, args.build_timeout)
    log = scratch / "logs" / f"{tree.name}.build.txt"  # what the build said, whole
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(stderr, encoding="utf-8")
    repository.build_exit = code
    if code is None:
        repository.build_error = f"speclint build ran over {args.build_timeout:g} s"
    elif code not in (0, 1):
        repository.build_error = clip(
            stderr.strip().splitlines()[-1] if stderr.strip() else "", *roots
        )
    after = listing(tree)
    repository.tree_changed = sorted(
        path for path in set(before) | set(after) if before.get(path) != after.get(path)
    )
    repository.entries, repository.warnings = entries(tree, out, stderr)
    schemas = [e for e in repository.entries if e.kind == "schema"]
    apis = [e for e in repository.entries if e.kind != "schema"]
    if schemas and args.check_jsonschema:
        files = [tree / e.source for e in schemas] + [out / e.bundle for e in schemas if e.bundle]
        verdicts = metaschema(files, args.check_timeout, roots)
        for e in schemas:
            e.source_check = verdicts.get(tree / e.source)
            if e.bundle:
                e.bundle_check = verdicts.get(out / e.bundle)
        embedded(schemas, verdicts, tree, out)
    if apis:
        files = [tree / e.source for e in apis] + [out / e.bundle for e in apis if e.bundle]
        verdicts = api_checks(files, args.check_timeout, roots)
        for e in apis:
            e.source_check = verdicts.get(tree / e.source)
            if e.bundle:
                e.bundle_check = verdicts.get(out / e.bundle)
    failing = [e for e in repository._failing_bundles() if not _embedded_source_fails(e)]
    if failing:
        # Only then: a whole `speclint check` of the tree is the slowest step of a small one.
        attribute(failing, tree, reported_defects(tree, scratch, args.build_timeout), roots)
    return repository


# --- the report -----------------------------------------------------------------------------------


def report_data(repositories: Iterable[Repository], check_jsonschema: bool) -> dict[str, Any]:
    listed = sorted(repositories, key=lambda r: r.tree)
    return {
        "check_jsonschema": check_jsonschema,
        "repositories": [
            {
                "name": r.name,
                "tree": r.tree,
                "build_exit": r.build_exit,
                "build_error": r.build_error,
                "warnings": r.warnings,
                "tree_changed": r.tree_changed,
                "entries": [asdict(e) for e in r.entries],
            }
            for r in listed
        ],
        "fails_where_source_passes": [
            {"repository": r.name, **asdict(e)} for r in listed for e in r.fails_where_source_passes
        ],
        "fails_in_an_embedded_source": [
            {"repository": r.name, **asdict(e)}
            for r in listed
            for e in r.fails_in_an_embedded_source
        ],
        "fails_in_a_reported_source": [
            {"repository": r.name, **asdict(e)}
            for r in listed
            for e in r.fails_in_a_reported_source
        ],
        "not_built_where_source_passes": [
            {"repository": r.name, **asdict(e)}
            for r in listed
            for e in r.not_built_where_source_passes
        ],
    }


def counts(r: Repository) -> dict[str, int]:
    def n(kind: str, test: Any) -> int:
        return sum(1 for e in r.entries if (e.kind == "schema") == (kind == "schema") and test(e))

    def verdict(check: Verdict | None, value: str) -> bool:
        return check is not None and check.verdict == value

    result = {}
    for kind in ("schema", "api"):
        result[f"{kind}_built"] = n(kind, lambda e: e.bundle is not None)
        result[f"{kind}_not_built"] = n(kind, lambda e: e.bundle is None)
        result[f"{kind}_bundle_invalid"] = n(
            kind, lambda e: e.bundle is not None and not verdict(e.bundle_check, "valid")
        )
        result[f"{kind}_source_invalid"] = n(kind, lambda e: not verdict(e.source_check, "valid"))
    return result


def markdown(repositories: Iterable[Repository], check_jsonschema: bool) -> str:
    listed = sorted(repositories, key=lambda r: r.tree)
    with_entries = [r for r in listed if r.entries or r.build_error]
    lines = [
        "# speclint build: bundles checked beside their sources",
        "",
        "Schemas: `check-jsonschema --check-metaschema`"
        + ("" if check_jsonschema else " (not installed: schemas not checked)")
        + "; OpenAPI: openapi-spec-validator; AsyncAPI: the official schema speclint ships. "
        "Built / not built; bundles and sources not valid (invalid, unparsable, unchecked or "
        "timed out); **fails**: bundles that fail where their source passes.",
        "",
        f"{len(with_entries)} of {len(listed)} repositories have schemas or API documents.",
        "",
        "| repository | exit | schemas built | not built | bundle not valid | source not valid "
        "| API built | not built | bundle not valid | source not valid | **fails** |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in with_entries:
        c = counts(r)
        exit_code = "timeout" if r.build_exit is None else str(r.build_exit)
        lines.append(
            f"| {r.name} | {exit_code} | {c['schema_built']} | {c['schema_not_built']} | "
            f"{c['schema_bundle_invalid']} | {c['schema_source_invalid']} | {c['api_built']} | "
            f"{c['api_not_built']} | {c['api_bundle_invalid']} | {c['api_source_invalid']} | "
            f"{len(r.fails_where_source_passes)} |"
        )
    fails = [(r, e) for r in listed for e in r.fails_where_source_passes]
    lines += ["", f"## Bundles that fail where the source passes ({len(fails)}; must be 0)", ""]
    for r, e in fails:
        check = e.bundle_check or Verdict("")
        inside = ""
        if e.embedded:
            alone = e.embedded_check.verdict if e.embedded_check else "not checked"
            inside = f" [in the embedded `{e.embedded}`, which alone is {alone}]"
        lines.append(
            f"- {r.name} `{e.source}` ({e.kind} {e.version}): {check.verdict}: {check.error}"
            f"{inside}"
        )
    carried = [(r, e) for r in listed for e in r.fails_in_an_embedded_source]
    lines += [
        "",
        f"## Bundles that fail inside an embedded file that fails alone ({len(carried)})",
        "",
    ]
    for r, e in carried:
        check = e.bundle_check or Verdict("")
        lines.append(
            f"- {r.name} `{e.source}` ({e.kind} {e.version}): in `{e.embedded}`: {check.error}"
        )
    reported = [(r, e) for r in listed for e in r.fails_in_a_reported_source]
    lines += [
        "",
        f"## Bundles that fail where `speclint check` reports a file the source reaches "
        f"({len(reported)})",
        "",
        "Read each: the finding quoted should be the defect the bundle's error shows.",
        "",
    ]
    for r, e in reported:
        check = e.bundle_check or Verdict("")
        lines.append(
            f"- {r.name} `{e.source}` ({e.kind} {e.version}): {check.error} — speclint: "
            f"{e.reported}"
        )
    unbuilt = [(r, e) for r in listed for e in r.not_built_where_source_passes]
    lines += ["", f"## Not built where the source passes ({len(unbuilt)})", ""]
    for r, e in unbuilt:
        lines.append(f"- {r.name} `{e.source}` ({e.kind} {e.version}): {clip(e.not_built)}")
    others = [
        (r, e)
        for r in listed
        for e in r.entries
        if e.bundle is None and e not in r.not_built_where_source_passes
    ]
    lines += ["", f"## Not built, the source not valid either ({len(others)})", ""]
    for r, e in others:
        check = e.source_check or Verdict("unchecked")
        lines.append(
            f"- {r.name} `{e.source}` ({e.kind} {e.version}): {clip(e.not_built)} — source "
            f"{check.verdict}: {check.error}"
        )
    failed = [r for r in listed if r.build_error or r.tree_changed]
    if failed:
        lines += ["", "## Build failures and trees written into", ""]
        for r in failed:
            if r.build_error:
                lines.append(f"- {r.name}: {r.build_error}")
            if r.tree_changed:
                lines.append(f"- {r.name}: the tree changed: {', '.join(r.tree_changed[:10])}")
    return "\n".join(lines) + "\n"


def trees(folder: Path, only: Sequence[str]) -> list[Path]:
    found = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
    return [p for p in found if not only or any(o.lower() in p.name.lower() for o in only)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", type=Path, help="a folder of repository trees")
    parser.add_argument("scratch", type=Path, help="where the bundles and reports go")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[], help="trees whose name has TEXT")
    parser.add_argument("--json", type=Path, help="also write the JSON report here")
    parser.add_argument("--markdown", type=Path, help="also write the Markdown report here")
    parser.add_argument("--build-timeout", type=float, default=900.0)
    parser.add_argument("--check-timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    scratch = args.scratch.resolve()
    folder = args.trees.resolve()
    if scratch == HERE or HERE in scratch.parents:
        parser.error("the scratch folder must be outside this repository")
    if scratch == folder or folder in scratch.parents:
        parser.error("the scratch folder must be outside the trees")
    args.check_jsonschema = check_jsonschema_available()
    if not args.check_jsonschema:
        print(
            "build_check: check-jsonschema is not installed: schemas are not checked",
            file=sys.stderr,
        )
    scratch.mkdir(parents=True, exist_ok=True)
    chosen = trees(folder, args.only)

    def one(tree: Path) -> Repository:
        result = check_repository(tree, scratch, args)
        # Each repository's report as soon as it is done: a long run can be read while it runs.
        partial = report_data([result], args.check_jsonschema)
        done = scratch / "repositories" / f"{tree.name}.json"
        done.parent.mkdir(parents=True, exist_ok=True)
        done.write_text(json.dumps(partial, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(
            f"build_check: {result.name}: {len(result.entries)} source(s), "
            f"{len(result.fails_where_source_passes)} failing where the source passes",
            file=sys.stderr,
            flush=True,
        )
        return result

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, chosen))
    data = json.dumps(report_data(results, args.check_jsonschema), indent=2, sort_keys=True) + "\n"
    table = markdown(results, args.check_jsonschema)
    targets = [(scratch / "build-check.json", data), (scratch / "build-check.md", table)]
    if args.json:
        targets.append((args.json, data))
    if args.markdown:
        targets.append((args.markdown, table))
    for path, text in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    failing = sum(len(r.fails_where_source_passes) for r in results)
    print(
        f"build_check: {failing} bundle(s) fail where the source passes; {scratch}/build-check.md"
    )
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
