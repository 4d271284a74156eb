"""``speclint changes`` against the established diff tools, on real revision pairs (issue 47 item 2).

Usage::

    python benchmarks/changes/run.py --scratch DIR --mirrors MIRRORS
        [--pairs benchmarks/changes/pairs.toml] [--only ID ...]
        [--json-schema-diff PATH] [--openapi-diff PATH] [--optic PATH] [--buf PATH]
        [--speclint COMMAND] [--tool-timeout SECONDS]

For each pair of ``pairs.toml`` (a repository, a base and a head commit, the files compared), it

1. reads the compared files of both commits out of the bare git mirror ``MIRRORS/<mirror>`` (one
   ``git cat-file`` per file: nothing of the repository is checked out or run) into
   ``DIR/<id>/base`` and ``DIR/<id>/head``, each under the path it takes in both (``as``);
2. commits the base files, then the head files, in a two-commit git repository ``DIR/<id>/repo``
   and runs ``speclint changes repo --diff-base HEAD~1`` there;
3. runs the external tools that fit the pair's kind on the same files: Atlassian's
   ``json-schema-diff`` for ``schema`` (through its node API, once per top-level definition, so
   that its verdict has the same granularity as a report line), ``openapi-diff`` and Optic
   (``optic diff --check``) for ``openapi``, ``buf breaking`` (rules ``PACKAGE`` and
   ``WIRE_JSON``, as ``speclint changes`` judges ``.proto`` files) for ``proto``;
4. pairs the reports by *unit* (a top-level schema definition or the schema root, an API
   operation — a change to ``components/schemas/X`` counts for every operation that reaches
   ``X`` — or a top-level proto message, enum or service) and writes, per unit, what each side
   reports and whether each calls it breaking. A unit where only one side reports a change, or
   where the breaking verdicts differ, is a disagreement; each gets a ``hint`` when a known
   difference of scope explains it (``json-schema-diff`` reads no ``enum``/``const``, ...).
5. checks every change the pair's changelog calls breaking (``[[pair.named]]``) against the
   breaking lines of each report.

The results go to ``DIR/results.json`` and ``DIR/table.md``, deterministic (sorted, no times, no
absolute paths). ``DIR`` must not be inside this repository. A tool that is not given (option or
environment variable ``SPECLINT_BENCH_<TOOL>``, e.g. ``SPECLINT_BENCH_BUF``) is skipped, and the
report says so.

``json-schema-diff`` speaks in sets: *removals* (values the base accepted that the head rejects: a
narrowing) and *additions* (a widening). A narrowing breaks a client-submitted schema, a widening
a server-emitted one; a schema no use reaches (``unused``, what ``speclint`` calls a schema with no
role) is judged both ways, as ``speclint`` does. The role is the one ``speclint`` names for the
unit.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

REPOSITORY = Path(__file__).resolve().parents[2]
TOOLS = ("json-schema-diff", "openapi-diff", "optic", "buf")
KIND_TOOLS = {
    "schema": ("json-schema-diff",),
    "openapi": ("openapi-diff", "optic"),
    "proto": ("buf",),
}
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# speclint's change kinds read as sets of accepted values (what json-schema-diff measures):
# a narrowing rejects something the base accepted, a widening accepts something new.
NARROWING = {
    "enum value removed",
    "required added",
    "shape closed",
    "type narrowed",
    "bound tightened",
    "pattern added",
}
WIDENING = {"enum value added", "required removed", "type widened", "property removed"}
# Kinds json-schema-diff cannot see (its KEYWORDS.md: no enum, const, pattern, format, ...).
UNSEEN_BY_JSON_SCHEMA_DIFF = {"enum value added", "enum value removed", "pattern added"}

_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<verdict>breaking|additive) "
    r"\[(?P<kind>[^\]]+)\] (?P<description>.*)$"
)
_POINTER = re.compile(r"`([^`\s]*#[^`\s]*)`")
_ROLE = re.compile(r"\b(client-submitted|server-emitted|both|unused)\b `")


@dataclass(frozen=True)
class Reported:
    """One change as one side reports it."""

    unit: str
    kind: str
    breaking: bool
    text: str

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "breaking": self.breaking, "text": self.text}


@dataclass
class Side:
    """What one side (speclint or one tool) says of a pair: its changes, or why it said nothing."""

    name: str
    changes: list[Reported] = field(default_factory=list)
    skipped: str | None = None  # the tool is absent, could not read the files, ...
    errors: list[str] = field(default_factory=list)
    roles: dict[str, str] = field(default_factory=dict)  # speclint: unit -> role it names
    failed: set[str] = field(default_factory=set)  # units the tool gave no verdict on


# ---------------------------------------------------------------------------------------------
# Reading the reports


def parse_speclint(text: str, kind: str) -> Side:
    """``speclint changes`` text lines -> changes keyed by unit (see ``unit_of_pointer``)."""
    side = Side("speclint")
    for raw in text.splitlines():
        match = _LINE.match(raw.strip())
        if match is None:
            continue
        description = match["description"]
        path = match["path"].removeprefix("./")
        if kind == "proto":
            unit = speclint_proto_unit(match["kind"], description, path)
        else:
            pointer = _POINTER.search(description)
            unit = unit_of_pointer(pointer[1] if pointer else f"{path}#")
        role = _ROLE.search(description)
        if role and unit not in side.roles:
            side.roles[unit] = role[1]
        side.changes.append(
            Reported(
                unit,
                match["kind"],
                match["verdict"] == "breaking",
                f"[{match['kind']}] {description}",
            )
        )
    return side


def unit_of_pointer(reference: str) -> str:
    """``file#/definitions/X/properties/y`` -> ``file#/definitions/X``; the root stays ``file#``;
    an API location keeps ``file#/paths/<path>/<method>`` or ``file#/components/<kind>/<name>``."""
    path, _, pointer = reference.partition("#")
    parts = [p for p in pointer.split("/") if p != ""]
    if parts[:1] in (["definitions"], ["$defs"]) and len(parts) >= 2:
        return f"{path}#/{parts[0]}/{parts[1]}"
    if parts[:1] == ["paths"] and len(parts) >= 3 and parts[2] in HTTP_METHODS:
        return f"{path}#/paths/{parts[1]}/{parts[2]}"
    if parts[:1] == ["paths"] and len(parts) >= 2:
        return f"{path}#/paths/{parts[1]}"
    if parts[:1] == ["components"] and len(parts) >= 3:
        return f"{path}#/components/{parts[1]}/{parts[2]}"
    return f"{path}#"


# What is said of a whole file or package, not of one definition: its unit is the file (buf's
# FILE_* rules, located at the file) or the package (buf's PACKAGE_NO_DELETE, located nowhere),
# never a name read out of the text, where a value (a `csharp_namespace` of `OpenTelemetry.Proto.
# Logs.V1`, the `Any` of an explanation) would pass for a message's name.
SPECLINT_FILE_KINDS = {"file option changed", "proto not compared"}
SPECLINT_PACKAGE_KINDS = {"package renamed"}
BUF_PACKAGE_TYPES = {"PACKAGE_NO_DELETE"}
_FIRST_QUOTED = re.compile(r'[`"]([^`"]+)[`"]')


def speclint_proto_unit(kind: str, description: str, path: str) -> str:
    """The unit of one ``speclint changes`` line about a ``.proto`` file (see ``proto_unit``)."""
    if kind in SPECLINT_FILE_KINDS:
        return f"file {path}"
    named = _FIRST_QUOTED.search(description)
    if kind in SPECLINT_PACKAGE_KINDS and named:
        return f"package {named[1]}"  # the old name, as buf names the package it finds deleted
    return proto_unit(description) or f"file {path}"


def buf_unit(rule: str, message: str, path: str) -> str:
    """The unit of one ``buf breaking`` row (see ``proto_unit``)."""
    if rule.startswith("FILE_") and path:
        return f"file {path}"
    named = _FIRST_QUOTED.search(message)
    if rule in BUF_PACKAGE_TYPES and named:
        return f"package {named[1]}"
    return proto_unit(message) or f"file {path or '?'}"


_PROTO_NAME = re.compile(r'\b(?:message|enum|service|Message|Enum|Service)\s+[`"]([\w.]+)[`"]')
_SPECLINT_PROTO_NAME = re.compile(r"`([A-Za-z_][\w.]*)`")


def proto_unit(text: str) -> str | None:
    """The top-level message, enum or service a proto change is about, package dropped.

    buf says ``on message "Outer.Inner"``; speclint names `` `pkg.Outer.Inner.field` ``. Both
    come down to ``Outer`` (the first capitalised name segment)."""
    found = _PROTO_NAME.search(text)
    names = [found[1]] if found else _SPECLINT_PROTO_NAME.findall(text)
    for name in names:
        for segment in name.split("."):
            if segment[:1].isupper():
                return segment
    return None


def parse_json_schema_diff(lines: str, roles: dict[str, str]) -> Side:
    """The driver's JSON lines (one per unit: additions, removals or an error) -> changes.

    The verdict follows the unit's role (module docstring); a unit ``speclint`` names no role
    for is taken as ``unused``, judged both ways."""
    side = Side("json-schema-diff")
    for raw in lines.splitlines():
        if not raw.startswith("{"):
            continue
        row = json.loads(raw)
        unit = row["unit"]
        if row.get("error"):
            side.errors.append(f"{unit}: {row['error']}")
            side.failed.add(unit)
            continue
        role = roles.get(unit, "unused")
        if row["removals"]:
            breaking = role in ("client-submitted", "both", "unused")
            side.changes.append(
                Reported(unit, "narrowed", breaking, "removals found (values rejected)")
            )
        if row["additions"]:
            breaking = role in ("server-emitted", "both", "unused")
            side.changes.append(
                Reported(unit, "widened", breaking, "additions found (values accepted)")
            )
    return side


_OPENAPI_DIFF_LOCATION = re.compile(
    r"^paths\.(?P<path>/.*?)(?:\.(?P<method>" + "|".join(HTTP_METHODS) + r")(?:\.|$)|$)"
)


def parse_openapi_diff(text: str, file: str, base_document: Any) -> Side:
    """openapi-diff's JSON result (after its one-line verdict) -> changes by operation."""
    side = Side("openapi-diff")
    start = text.find("{")
    if start < 0 and text.strip().startswith("No changes found"):
        return side
    if start < 0:
        side.skipped = (
            f"no result: {text.strip().splitlines()[0][:200] if text.strip() else 'no output'}"
        )
        return side
    try:
        result = json.loads(text[start:])
    except ValueError:  # an error it printed (a JavaScript object, not JSON)
        result = None
    if not isinstance(result, dict):
        side.skipped = f"no result: {text.strip().splitlines()[0][:200]}"
        return side
    for group in ("breakingDifferences", "nonBreakingDifferences", "unclassifiedDifferences"):
        for difference in result.get(group) or []:
            details = (difference.get("sourceSpecEntityDetails") or []) + (
                difference.get("destinationSpecEntityDetails") or []
            )
            location = details[0]["location"] if details else ""
            code = difference.get("code", "?")
            for unit in _openapi_diff_units(file, location, base_document):
                side.changes.append(
                    Reported(
                        unit, code, difference.get("type") == "breaking", f"{code} at {location}"
                    )
                )
    return side


def _openapi_diff_units(file: str, location: str, base_document: Any) -> list[str]:
    match = _OPENAPI_DIFF_LOCATION.match(location)
    if match is None:
        return [f"{file}#"]
    path = _escape(match["path"])
    if match["method"]:
        return [f"{file}#/paths/{path}/{match['method']}"]
    item = (
        (base_document.get("paths") or {}).get(match["path"])
        if isinstance(base_document, dict)
        else None
    )
    methods = [m for m in HTTP_METHODS if isinstance(item, dict) and m in item]
    return [f"{file}#/paths/{path}/{m}" for m in methods] or [f"{file}#/paths/{path}"]


_OPTIC_OPERATION = re.compile(
    r"^\S*\s*(?P<method>GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) (?P<path>\S+?):"
)
_OPTIC_CHECK = re.compile(r"^\s*(?P<mark>x|!|✓|✔)\s+\[(?P<rule>[^\]]+)\]\s+(?P<message>.*)$")


_OPTIC_SUMMARY = re.compile(r"^\s*\S*\s*(Operations|Checks):|No changes", re.MULTILINE)


def parse_optic(text: str, file: str) -> Side:
    """``optic diff A B --check`` text -> failed checks (breaking) and changes by operation."""
    side = Side("optic")
    operation: str | None = None
    for raw in text.splitlines():
        heading = _OPTIC_OPERATION.match(raw)
        if heading and not raw.startswith(" "):
            operation = f"{file}#/paths/{_escape(heading['path'])}/{heading['method'].lower()}"
            if raw.rstrip().endswith(("removed", "added")):
                what = "operation " + raw.rstrip().rsplit(" ", 1)[1]
                side.changes.append(Reported(operation, what, False, what))
            continue
        check = _OPTIC_CHECK.match(raw)
        if check and check["mark"] in ("x", "!"):
            unit = operation or f"{file}#"
            side.changes.append(
                Reported(
                    unit,
                    check["rule"],
                    check["mark"] == "x",
                    f"[{check['rule']}] {check['message']}",
                )
            )
    return side


def parse_buf(text: str) -> Side:
    """``buf breaking --error-format json`` lines -> changes by top-level proto name."""
    side = Side("buf")
    for raw in text.splitlines():
        if not raw.startswith("{"):
            continue
        row = json.loads(raw)
        if str(row.get("path", "")).startswith("google/"):
            continue  # googleapis' own files, the same on both sides
        message = row.get("message", "")
        unit = buf_unit(str(row.get("type", "")), message, str(row.get("path", "")))
        side.changes.append(
            Reported(unit, row.get("type", "?"), True, f"[{row.get('type')}] {message}")
        )
    return side


def _escape(path: str) -> str:
    return path.replace("~", "~0").replace("/", "~1")


# ---------------------------------------------------------------------------------------------
# Pairing the reports


def operations_reaching(document: Any, file: str) -> dict[str, list[str]]:
    """``file#/components/<kind>/<name>`` -> the operation units whose subtree reaches it through
    local ``$ref``s (transitively): a change to a shared schema is a change of those operations."""
    if not isinstance(document, dict):
        return {}
    components = document.get("components") or {}

    def refs(node: Any, found: set[str]) -> None:
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                target = item.get("$ref")
                if isinstance(target, str) and target.startswith("#/components/"):
                    parts = target[2:].split("/")
                    key = "/".join(parts[:3])
                    if key not in found:
                        found.add(key)
                        value = (
                            (components.get(parts[1]) or {}).get(parts[2])
                            if len(parts) >= 3
                            else None
                        )
                        stack.append(value)
                stack.extend(v for k, v in item.items() if k != "$ref")
            elif isinstance(item, list):
                stack.extend(item)

    reach: dict[str, list[str]] = {}
    for path, item in sorted((document.get("paths") or {}).items()):
        if not isinstance(item, dict):
            continue
        shared = item.get("parameters")
        for method in HTTP_METHODS:
            if method not in item:
                continue
            found: set[str] = set()
            refs([item[method], shared], found)
            for key in found:
                reach.setdefault(f"{file}#/{key}", []).append(
                    f"{file}#/paths/{_escape(path)}/{method}"
                )
    return {k: sorted(set(v)) for k, v in reach.items()}


def definitions_reaching(documents: dict[str, Any]) -> dict[str, list[str]]:
    """``file#/$defs/X`` (or a file's root ``file#``) -> itself and every schema unit whose
    subtree reaches it through ``$ref``s (transitively, across the compared files): json-schema-
    diff diffs each unit with its references resolved, so a change of ``X`` is a change of every
    unit that reaches it, as a component's is of every operation (``operations_reaching``)."""
    direct: dict[str, set[str]] = {}
    for file, document in documents.items():
        if not isinstance(document, dict):
            continue
        tables = [k for k in ("definitions", "$defs") if isinstance(document.get(k), dict)]
        body = {k: v for k, v in document.items() if k not in tables}
        units = [(f"{file}#", body)] + [
            (f"{file}#/{k}/{_escape(name)}", node)
            for k in tables
            for name, node in document[k].items()
        ]
        for unit, node in units:
            found = direct.setdefault(unit, set())
            stack = [node]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    target = item.get("$ref")
                    if isinstance(target, str) and "://" not in target:
                        where, _, pointer = target.partition("#")
                        path = (
                            str(PurePosixPath(file).parent / where).removeprefix("./")
                            if where
                            else file
                        )
                        found.add(unit_of_pointer(f"{path}#{pointer}"))
                    stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
    reach: dict[str, set[str]] = {unit: {unit} for unit in direct}
    for unit in direct:
        seen = {unit}
        pending = list(direct[unit])
        while pending:
            target = pending.pop()
            if target in seen:
                continue
            seen.add(target)
            reach.setdefault(target, {target}).add(unit)
            pending.extend(direct.get(target, ()))
    return {unit: sorted(units) for unit, units in reach.items()}


def spread_components(side: Side, reach: dict[str, list[str]]) -> Side:
    """Each change of a component counted for every operation that reaches it (tools report
    per operation)."""
    spread = Side(
        side.name, skipped=side.skipped, errors=side.errors, roles=side.roles, failed=side.failed
    )
    for change in side.changes:
        for unit in reach.get(change.unit, [change.unit]):
            spread.changes.append(Reported(unit, change.kind, change.breaking, change.text))
    return spread


def compare(speclint: Side, tool: Side) -> list[dict[str, Any]]:
    """Per unit: what each side reports and whether it calls it breaking; disagreements marked."""
    units = sorted({c.unit for c in speclint.changes} | {c.unit for c in tool.changes})
    rows = []
    for unit in units:
        ours = [c for c in speclint.changes if c.unit == unit]
        theirs = [c for c in tool.changes if c.unit == unit]
        ours_breaking = any(c.breaking for c in ours)
        theirs_breaking = any(c.breaking for c in theirs)
        reported = "both" if ours and theirs else ("only speclint" if ours else f"only {tool.name}")
        if unit in tool.failed and not theirs:
            reported = f"{tool.name} gave no verdict"  # timed out, or could not read the unit
        row: dict[str, Any] = {
            "unit": unit,
            "reported": reported,
            "speclint_breaking": ours_breaking if ours else None,
            "tool_breaking": theirs_breaking if theirs else None,
            "disagreement": (reported.startswith("only") and (ours_breaking or theirs_breaking))
            or (reported == "both" and ours_breaking != theirs_breaking),
            "speclint": sorted({json.dumps(c.as_json(), sort_keys=True) for c in ours}),
            "tool": sorted({json.dumps(c.as_json(), sort_keys=True) for c in theirs}),
        }
        row["speclint"] = [json.loads(c) for c in row["speclint"]]
        row["tool"] = [json.loads(c) for c in row["tool"]]
        row["hint"] = (
            hint(tool.name, ours, theirs, speclint.roles.get(unit)) if row["disagreement"] else None
        )
        rows.append(row)
    return rows


def hint(tool: str, ours: list[Reported], theirs: list[Reported], role: str | None) -> str | None:
    """A known difference of scope that explains a disagreement, or None (to be read by hand)."""
    kinds = {c.kind for c in ours}
    if tool == "json-schema-diff":
        if ours and not theirs and kinds <= UNSEEN_BY_JSON_SCHEMA_DIFF:
            return "json-schema-diff reads no enum/const/pattern (its KEYWORDS.md)"
        if (
            ours
            and not theirs
            and kinds <= {"property added", "property removed", "required removed"}
        ):
            return "optional property added/removed: no set of values changes for json-schema-diff"
        if theirs and not ours:
            narrowed = any(c.kind == "narrowed" for c in theirs)
            return (
                "narrowed where speclint lists nothing: a new constrained property of an open object "
                "(set semantics), or a change speclint missed (a union member removed): read it"
                if narrowed
                else None
            )
    if tool == "buf" and ours and not theirs:
        return None
    return None


def named_found(named: list[dict[str, str]], side: Side) -> list[dict[str, Any]]:
    """Each change the changelog calls breaking: is there a breaking line of ``side`` matching it?"""
    found = []
    for entry in named:
        pattern = re.compile(entry["match"])
        hits = sorted(
            {c.text for c in side.changes if c.breaking and pattern.search(c.text + " " + c.unit)}
        )
        found.append({"text": entry["text"], "found": bool(hits), "evidence": hits[:3]})
    return found


# ---------------------------------------------------------------------------------------------
# Running


def git(args: list[str], cwd: Path | None = None, stdin: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", *args], cwd=cwd, input=stdin, capture_output=True, check=True
    ).stdout


def extract(
    git_dir: Path, rev: str, files: list[dict[str, str]], side: str, dest: Path
) -> list[str]:
    """The compared files of ``rev`` (and the files they import, for ``.proto``) written under
    ``dest`` at the path both sides share; returns those paths, sorted."""
    listing = git(["--git-dir", str(git_dir), "ls-tree", "-r", "-z", rev]).split(b"\0")
    blobs: dict[str, str] = {}
    for row in filter(None, listing):
        meta, path = row.split(b"\t", 1)
        _, kind, sha = meta.split()
        if kind == b"blob":
            blobs[path.decode()] = sha.decode()
    wanted: dict[str, str] = {}  # shared path -> path at rev
    for entry in files:
        if "glob" in entry:
            for path in blobs:
                if fnmatch.fnmatch(path, entry["glob"]) or PurePosixPath(path).match(entry["glob"]):
                    wanted[path] = path
        elif entry[side] in blobs:
            wanted[entry.get("as", entry[side])] = entry[side]
    written = []
    for shared, original in sorted(wanted.items()):
        content = git(["--git-dir", str(git_dir), "cat-file", "blob", blobs[original]])
        target = dest / shared
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        written.append(shared)
    return written


def load_document(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError):
        return None


def two_commit_repository(repo: Path, base: Path, head: Path) -> None:
    repo.mkdir(parents=True)
    identity = [
        "-c",
        "user.name=bench",
        "-c",
        "user.email=bench@example.invalid",
        "-c",
        "commit.gpgsign=false",
    ]
    git(["init", "-q"], cwd=repo)
    for side, message in ((base, "base"), (head, "head")):
        for item in repo.iterdir():
            if item.name != ".git":
                shutil.rmtree(item) if item.is_dir() else item.unlink()
        shutil.copytree(side, repo, dirs_exist_ok=True)
        git(["add", "-A"], cwd=repo)
        git([*identity, "commit", "-q", "--allow-empty", "-m", message], cwd=repo)


def run_command(
    command: list[str], cwd: Path, timeout: float, stdin: str | None = None
) -> tuple[int, str, str]:
    env = dict(os.environ, OPTIC_TELEMETRY_LEVEL="off", NO_COLOR="1", FORCE_COLOR="0")
    try:
        done = subprocess.run(
            command, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired as expired:
        out = (
            expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        )
        return -1, out, f"timed out after {timeout:.0f} s"
    return done.returncode, done.stdout, done.stderr


# The json-schema-diff driver: its node API, one unit at a time, one JSON line each (flushed, so a
# timeout keeps the units done). Each side is bundled from its file first, so that a `$ref` to a
# sibling file resolves against that side's folder.
_JSD_DRIVER = r"""
const path = require('path');
const [pkg, listing] = process.argv.slice(1);
const jsd = require(pkg);
const RefParser = require(require.resolve('@apidevtools/json-schema-ref-parser', {paths: [pkg]}));
const units = JSON.parse(require('fs').readFileSync(listing, 'utf8'));
(async () => {
  for (const u of units) {
    let row;
    try {
      const source = await RefParser.bundle(u.base);
      const destination = await RefParser.bundle(u.head);
      const r = await jsd.diffSchemas({sourceSchema: source, destinationSchema: destination});
      row = {unit: u.unit, additions: r.additionsFound, removals: r.removalsFound};
    } catch (e) {
      row = {unit: u.unit, error: String(e && e.message || e).split('\n')[0].slice(0, 160)};
    }
    process.stdout.write(JSON.stringify(row) + '\n');
  }
})();
"""

STARTUP_SECONDS = 120.0
_DRAFT_KEYS = ("$schema", "$id", "id")


def schema_units(document: Any) -> list[tuple[str, Any]]:
    """(pointer, schema to diff) per top-level definition, and the root when it says more than
    its definitions: each a copy of the document whose root is ``allOf: [{$ref: unit}]``."""
    if not isinstance(document, dict):
        return []
    defs = {k: document[k] for k in ("definitions", "$defs") if isinstance(document.get(k), dict)}
    units: list[tuple[str, Any]] = []
    body = {k: v for k, v in document.items() if k not in defs and k not in _DRAFT_KEYS}
    if any(k not in ("title", "description", "$comment") for k in body):
        units.append(("", {k: v for k, v in document.items() if k not in _DRAFT_KEYS}))
    for keyword, table in sorted(defs.items()):
        for name in sorted(table):
            pointer = f"/{keyword}/{name.replace('~', '~0').replace('/', '~1')}"
            units.append((pointer, {"allOf": [{"$ref": "#" + pointer}], **defs}))
    return units


def _unit_name(pointer: str) -> str:
    return pointer.rsplit("/", 1)[-1] if pointer else ""


def run_json_schema_diff(
    package: Path, pair_dir: Path, files: list[str], roles: dict[str, str], timeout: float
) -> Side:
    listing = []
    for number, shared in enumerate(sorted(files)):
        base_doc = load_document(pair_dir / "base" / shared)
        head_doc = load_document(pair_dir / "head" / shared)
        # Paired by name: a draft-07 `definitions/X` is the 2020-12 `$defs/X` of the next
        # release (MCP moved between them); the unit is named by its head pointer.
        head_units = {_unit_name(p): (p, u) for p, u in schema_units(head_doc)}
        for base_pointer, base_unit in schema_units(base_doc):
            if _unit_name(base_pointer) not in head_units:
                continue
            pointer, head_unit = head_units[_unit_name(base_pointer)]
            index = len(listing)
            paths = {}
            for side, unit in (("base", base_unit), ("head", head_unit)):
                # Beside the original, so that relative `$ref`s resolve as they do there.
                where = (
                    pair_dir
                    / side
                    / PurePosixPath(shared).parent
                    / f".bench-unit-{number}-{index}.json"
                )
                where.write_text(json.dumps(unit), encoding="utf-8")
                paths[side] = str(where)
            listing.append({"unit": f"{shared}#{pointer}", **paths})
    side = parse_json_schema_diff(diff_units(package, pair_dir, listing, timeout), roles)
    for unit in listing:
        if unit.get("error"):
            side.errors.append(f"{unit['unit']}: {unit['error']}")
            side.failed.add(unit["unit"])
    return side


def diff_units(package: Path, pair_dir: Path, listing: list[dict[str, str]], timeout: float) -> str:
    """Run the driver over ``listing``; a unit that takes longer than ``timeout`` seconds (its
    set algebra is exponential in nested ``oneOf``s) is marked timed out and the driver restarted
    after it."""
    lines: list[str] = []
    pending = list(listing)
    while pending:
        listing_file = pair_dir / "json-schema-diff-units.json"
        listing_file.write_text(json.dumps(pending), encoding="utf-8")
        process = subprocess.Popen(
            ["node", "-e", _JSD_DRIVER, str(package), str(listing_file)],
            cwd=pair_dir,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdout is not None
        done = 0
        buffer = b""
        # Raw reads, not readline: a buffered reader may hold lines that select() cannot see.
        descriptor = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(descriptor, selectors.EVENT_READ)
            while done < len(pending):
                if b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    lines.append(line.decode("utf-8", "replace"))
                    done += 1
                    continue
                # The first unit's clock includes starting node and loading the package.
                if not selector.select(timeout + (STARTUP_SECONDS if done == 0 else 0)):
                    pending[done]["error"] = f"timed out after {timeout:.0f} s"
                    done += 1
                    break
                chunk = os.read(descriptor, 65536)
                if not chunk:  # the driver died: the unit it was on is not diffed
                    pending[done]["error"] = "not diffed (the driver stopped)"
                    done += 1
                    break
                buffer += chunk
        process.kill()
        process.wait()
        pending = pending[done:]
    return "\n".join(lines)


def package_folder(given: Path) -> Path:
    """The json-schema-diff package folder, from itself or its CLI (``node_modules/.bin/...``)."""
    for folder in (given, *given.parents):
        manifest = folder / "package.json"
        if (
            manifest.is_file()
            and json.loads(manifest.read_text(encoding="utf-8")).get("name") == "json-schema-diff"
        ):
            return folder
    return given


def tool_side(
    name: str,
    executable: Path,
    pair_dir: Path,
    files: list[str],
    speclint: Side,
    timeout: float,
    unit_timeout: float,
) -> Side:
    base, head = pair_dir / "base", pair_dir / "head"
    if name == "json-schema-diff":
        return run_json_schema_diff(
            package_folder(executable), pair_dir, files, speclint.roles, unit_timeout
        )
    if name == "buf":
        return run_buf(executable, pair_dir, timeout)
    merged = Side(name)
    for shared in files:
        if name == "openapi-diff":
            # openapi-diff reads JSON only: the YAML documents converted, in the scratch folder.
            converted = []
            for side_dir in (base, head):
                target = pair_dir / f"{side_dir.name}.openapi.json"
                target.write_text(
                    json.dumps(load_document(side_dir / shared), default=str), encoding="utf-8"
                )
                converted.append(str(target))
            code, out, err = run_command([str(executable), *converted], pair_dir, timeout)
            side = parse_openapi_diff(out + err, shared, load_document(base / shared))
        else:
            code, out, err = run_command(
                [str(executable), "diff", str(base / shared), str(head / shared), "--check"],
                pair_dir,
                timeout,
            )
            side = parse_optic(out, shared)
            if not side.changes and (not _OPTIC_SUMMARY.search(out) or code not in (0, 1)):
                # Optic says why it did not compare (a remote `$ref` it could not fetch...) and
                # may still exit 0: no summary line, no result.
                side.skipped = f"exit {code}: {(err or out).strip()[:200]}"
        merged.changes.extend(side.changes)
        merged.skipped = merged.skipped or side.skipped
        if code not in (0, 1) and not side.changes:
            merged.errors.append(f"{shared}: exit {code}: {(err or out).strip()[:200]}")
    return merged


def googleapis_folder() -> Path | None:
    """googleapis-common-protos' sources (``google/api/annotations.proto``...), which the proto
    files import and buf otherwise fetches from its registry."""
    try:
        spec = importlib.util.find_spec("google.api")
    except ImportError:  # no `google` package at all
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).parent.parent


_IMPORT = re.compile(r'^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"', re.MULTILINE)


def add_imports(folder: Path, shipped: Path | None) -> None:
    """Copy the googleapis files the protos import (transitively) beside them."""
    if shipped is None:
        return
    pending = [p for p in folder.rglob("*.proto")]
    while pending:
        for name in _IMPORT.findall(pending.pop().read_text(encoding="utf-8", errors="replace")):
            source, target = shipped / name, folder / name
            if (
                name.startswith("google/")
                and not name.startswith("google/protobuf/")
                and source.is_file()
                and not target.exists()
            ):
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
                pending.append(target)


def run_buf(executable: Path, pair_dir: Path, timeout: float) -> Side:
    shipped = googleapis_folder()
    folders = {}
    for side in ("base", "head"):
        folder = pair_dir / f"buf-{side}"
        shutil.copytree(pair_dir / side, folder)
        add_imports(folder, shipped)
        folders[side] = folder
    config = json.dumps({"version": "v2", "breaking": {"use": ["PACKAGE", "WIRE_JSON"]}})
    code, out, err = run_command(
        [
            str(executable),
            "breaking",
            ".",
            "--against",
            str(folders["base"]),
            "--error-format",
            "json",
            "--config",
            config,
        ],
        folders["head"],
        timeout,
    )
    side = parse_buf(out)
    if code not in (0, 100) and not side.changes:
        side.skipped = f"exit {code}: {(err or out).strip()[:300]}"
    return side


def run_pair(
    pair: dict[str, Any], options: argparse.Namespace, tools: dict[str, Path | None]
) -> dict[str, Any]:
    pair_dir = options.scratch / pair["id"]
    if pair_dir.exists():
        shutil.rmtree(pair_dir)
    git_dir = options.mirrors / pair["mirror"]
    if (git_dir / "repo").is_dir():
        git_dir = git_dir / "repo"
    base_files = extract(git_dir, pair["base"], pair["files"], "base", pair_dir / "base")
    head_files = extract(git_dir, pair["head"], pair["files"], "head", pair_dir / "head")
    files = sorted(set(base_files) & set(head_files))
    two_commit_repository(pair_dir / "repo", pair_dir / "base", pair_dir / "head")
    code, out, err = run_command(
        [*options.speclint, "changes", ".", "--diff-base", "HEAD~1"],
        pair_dir / "repo",
        options.tool_timeout,
    )
    speclint = parse_speclint(out, pair["kind"])
    if code not in (0, 1):
        speclint.errors.append(f"exit {code}: {err.strip()[-300:]}")
    # Counted as speclint lists them, before a component's change is spread over operations.
    listed = (len(speclint.changes), sum(c.breaking for c in speclint.changes))
    reach: dict[str, list[str]] = {}
    if pair["kind"] == "openapi":
        for shared in files:
            for document in (
                load_document(pair_dir / "base" / shared),
                load_document(pair_dir / "head" / shared),
            ):
                for key, ops in operations_reaching(document, shared).items():
                    reach[key] = sorted(set(reach.get(key, [])) | set(ops))
        speclint = spread_components(speclint, reach)
    elif pair["kind"] == "schema":
        reach = definitions_reaching(
            {shared: load_document(pair_dir / "head" / shared) for shared in files}
        )
        # a change speclint locates at a definition counts for every unit that reaches it
        speclint = spread_components(speclint, reach)
    result: dict[str, Any] = {
        "id": pair["id"],
        "repository": pair["repository"],
        "kind": pair["kind"],
        "base": pair["base"],
        "head": pair["head"],
        "files": files,
        "only_in_base": sorted(set(base_files) - set(head_files)),
        "only_in_head": sorted(set(head_files) - set(base_files)),
        "changelog_url": pair.get("changelog_url", ""),
        "changelog_says": pair.get("changelog_says", ""),
        "speclint": {
            "changes": listed[0],
            "breaking": listed[1],
            "errors": speclint.errors,
            "named": named_found(pair.get("named", []), speclint),
        },
        "tools": {},
    }
    for name in KIND_TOOLS[pair["kind"]]:
        executable = tools.get(name)
        if executable is None:
            result["tools"][name] = {"skipped": f"not given (--{name} or {_env(name)})"}
            continue
        side = tool_side(
            name, executable, pair_dir, files, speclint, options.tool_timeout, options.unit_timeout
        )
        if pair["kind"] == "openapi":
            side = spread_components(side, reach)
        rows = compare(speclint, side) if side.skipped is None else []
        result["tools"][name] = {
            "skipped": side.skipped,
            "errors": sorted(side.errors),
            "changes": len(side.changes),
            "breaking": sum(c.breaking for c in side.changes),
            "named": named_found(pair.get("named", []), side),
            "units": {
                "both": sum(r["reported"] == "both" for r in rows),
                "only speclint": sum(r["reported"] == "only speclint" for r in rows),
                f"only {name}": sum(r["reported"] == f"only {name}" for r in rows),
                "no verdict": sum(r["reported"] == f"{name} gave no verdict" for r in rows),
                "agree": sum(not r["disagreement"] for r in rows),
                "disagree": sum(r["disagreement"] for r in rows),
            },
            "rows": rows,
        }
    return without_scratch(result, pair_dir)


def without_scratch(result: dict[str, Any], pair_dir: Path) -> dict[str, Any]:
    """The result with the scratch folder's path (in tools' error messages) written ``<pair>``:
    the same pair run in another folder writes the same report."""
    text = json.dumps(result, sort_keys=True).replace(str(pair_dir), "<pair>")
    return dict(json.loads(text))


def _env(name: str) -> str:
    return "SPECLINT_BENCH_" + name.upper().replace("-", "_")


# ---------------------------------------------------------------------------------------------
# The Markdown table


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _verdict(value: bool | None) -> str:
    return "—" if value is None else ("breaking" if value else "not breaking")


def _no_verdict(units: dict[str, int]) -> str:
    count = units.get("no verdict", 0)
    return f" (+{count} the tool gave no verdict on)" if count else ""


def markdown(results: list[dict[str, Any]]) -> str:
    lines = ["# speclint changes against the established diff tools", ""]
    lines += [
        "| pair | kind | speclint changes (breaking) | tool | tool changes (breaking) | units both / only speclint / only tool | disagreements |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for result in results:
        for name, tool in result["tools"].items():
            ours = f"{result['speclint']['changes']} ({result['speclint']['breaking']})"
            if tool.get("skipped"):
                lines.append(
                    f"| {result['id']} | {result['kind']} | {ours} | {name} | skipped: {_cell(tool['skipped'], 80)} | | |"
                )
                continue
            units = tool["units"]
            lines.append(
                f"| {result['id']} | {result['kind']} | {ours} | {name} | {tool['changes']} ({tool['breaking']}) | "
                f"{units['both']} / {units['only speclint']} / {units['only ' + name]}"
                f"{_no_verdict(units)} | {units['disagree']} |"
            )
    lines += ["", "## Breaking changes the changelogs name", ""]
    lines += ["| pair | change | speclint | tools |", "| --- | --- | --- | --- |"]
    for result in results:
        for number, entry in enumerate(result["speclint"]["named"]):
            tools = ", ".join(
                f"{name}: {'found' if tool['named'][number]['found'] else 'missed'}"
                for name, tool in result["tools"].items()
                if not tool.get("skipped")
            )
            lines.append(
                f"| {result['id']} | {_cell(entry['text'])} | {'found' if entry['found'] else 'MISSED'} | {tools} |"
            )
    lines += ["", "## Disagreements", ""]
    lines += [
        "| pair | tool | unit | speclint | tool | hint |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for result in results:
        for name, tool in result["tools"].items():
            for row in tool.get("rows", []):
                if not row["disagreement"]:
                    continue
                ours = "; ".join(f"{c['text']}" for c in row["speclint"][:3]) + (
                    " …" if len(row["speclint"]) > 3 else ""
                )
                theirs = "; ".join(c["text"] for c in row["tool"][:3]) + (
                    " …" if len(row["tool"]) > 3 else ""
                )
                lines.append(
                    f"| {result['id']} | {name} | `{_cell(row['unit'], 80)}` | {_verdict(row['speclint_breaking'])}: {_cell(ours)} "
                    f"| {_verdict(row['tool_breaking'])}: {_cell(theirs)} | {row['hint'] or ''} |"
                )
    errors = [
        f"- {result['id']} {name}: {error}"
        for result in results
        for name, tool in [("speclint", result["speclint"]), *result["tools"].items()]
        for error in tool.get("errors", [])
    ]
    if errors:
        lines += ["", "## Errors", "", *errors]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scratch", type=Path, required=True, help="Work folder (outside this repository)."
    )
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=os.environ.get("SPECLINT_BENCH_MIRRORS"),
        help="Folder of bare git mirrors, one per pair's `mirror` (or SPECLINT_BENCH_MIRRORS).",
    )
    parser.add_argument("--pairs", type=Path, default=Path(__file__).with_name("pairs.toml"))
    parser.add_argument("--only", nargs="*", default=None, help="Run these pair ids only.")
    parser.add_argument(
        "--speclint", default="speclint", help="The speclint command (split on spaces)."
    )
    parser.add_argument("--tool-timeout", type=float, default=600.0, help="Seconds per tool run.")
    parser.add_argument(
        "--unit-timeout", type=float, default=60.0, help="Seconds per json-schema-diff unit."
    )
    for name in TOOLS:
        parser.add_argument(
            f"--{name}",
            type=Path,
            default=os.environ.get(_env(name)),
            help=f"{name}: its executable ({'the package folder' if name == 'json-schema-diff' else 'CLI'}).",
        )
    options = parser.parse_args(argv)
    options.speclint = options.speclint.split()
    if options.mirrors is None:
        parser.error("--mirrors (or SPECLINT_BENCH_MIRRORS) is required")
    scratch = options.scratch.resolve()
    if scratch == REPOSITORY or REPOSITORY in scratch.parents:
        parser.error("--scratch must not be inside the repository")
    scratch.mkdir(parents=True, exist_ok=True)
    options.scratch = scratch
    tools: dict[str, Path | None] = {}
    for name in TOOLS:
        given = getattr(options, name.replace("-", "_"))
        tools[name] = Path(given).resolve() if given else None
        if tools[name] is not None and not tools[name].exists():
            print(f"{name}: {given} does not exist; skipped", file=sys.stderr)
            tools[name] = None
        elif tools[name] is None:
            print(f"{name}: not given; skipped", file=sys.stderr)
    with options.pairs.open("rb") as handle:
        pairs = tomllib.load(handle)["pair"]
    results = []
    for pair in pairs:
        if options.only and pair["id"] not in options.only:
            continue
        print(f"{pair['id']} ...", file=sys.stderr)
        results.append(run_pair(pair, options, tools))
        # Written after every pair, so that a long run stopped half way still reports.
        write_reports(scratch, results)
    write_reports(scratch, results)
    print(f"wrote {scratch / 'results.json'} and {scratch / 'table.md'}", file=sys.stderr)
    return 0


def write_reports(scratch: Path, results: list[dict[str, Any]]) -> None:
    (scratch / "results.json").write_text(
        json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    (scratch / "table.md").write_text(markdown(results), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
