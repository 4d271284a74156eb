"""Scale benchmark: synthetic corpora far larger than any real one, to find what collapses.

Usage::

    python benchmarks/scale.py generate DIR [--schemas N] [--big-openapi MB]
                                            [--pages-x-schemas PAGES SCHEMAS [--distinct]]
                                            [--protos-x-schemas PROTOS SCHEMAS [--distinct]]
                                            [--fences N] [--value-files N]
    python benchmarks/scale.py measure DIR [--rule-limit SECONDS]

``generate`` writes, deterministically, an OpenWOP-shaped corpus into DIR (which must not exist):

- ``--schemas N`` (default 5000): N small JSON Schema 2020-12 files, each ``$ref``-ing the previous
  one in runs of ``--chain`` (default 50; ``$ref`` chains that deep are what recursive validators
  choke on; give N for one chain through them all), a shared ``common`` schema, enum
  values documented in Markdown tables under ``spec/``, ``examples`` (one in fifty invalid), every
  third schema closed, every tenth an event; and an ``api/openapi.yaml`` with a path for every
  fifth schema (a ``get`` returning it and a ``post`` whose body is ``allOf`` an inline object
  and it, closed on both sides every thirtieth), and a drifted inline copy of every hundredth;
- ``--big-openapi MB``: instead, a single OpenAPI 3.1 document of about that many megabytes, its
  schemas inline under ``components/schemas`` referencing each other (in runs of ``--chain``);
- ``--pages-x-schemas PAGES SCHEMAS``: instead, PAGES pages each saying "the `a` field is one of
  `x` | `y` | `q`" and SCHEMAS schemas whose `a` is ``enum: [x, y, z]``: every page binds to every
  schema by the field's name, one disagreement PAGES × SCHEMAS times over (issue 44 item 7: at
  280 × 2,100, 590,100 findings, 5.5 GB and a 678 MB report from 445 KB before they were grouped).
  With ``--distinct``, page n lists `x` | `y` | `pn` and schema n `x`, `y`, `zn`: still every
  page against every schema, each pair a disagreement of its own.
- ``--protos-x-schemas PROTOS SCHEMAS``: instead, PROTOS ``.proto`` files (a package each) whose
  ``TaskState`` is ``TASK_STATE_X``, ``_Y``, ``_Q`` and SCHEMAS schemas whose ``$defs/TaskState``
  is ``enum: [x, y, z]``: every proto enum binds to every schema enum by its name, one
  disagreement PROTOS × SCHEMAS times over (issue 44 item 7, proto-enum-drift: at 40 × 400,
  16,000 findings and a 14.5 MB report before they were grouped). With ``--distinct``, proto n
  lists ``TASK_STATE_PN`` for ``_Q`` and schema n ``zn`` for ``z``: each pair a disagreement of
  its own.
- ``--fences N``: instead, one page of N JSON fences, each directly under a heading of its own
  and followed by a paragraph: the even ones under `` ## `Thing` n ``, tied to the ``Thing``
  schema by the heading's name (tie 5) and failing it, the odd ones a JSON-RPC response under a
  plain heading that no tie binds (tie 7 looks above it). Each fence once looked through every
  code span and every paragraph of the page (review of issue 44, item 4: 20,000 fences took
  16 s, 50,000 outlived example-invalid's time box).
- ``--value-files N``: instead, N Helm-style values files under ``examples/``, each a
  discriminator written at another version (``dev.scale.released.0.9`` where the schema fixes
  ``...1.0.0``) and four configuration strings of about 60 KB (``receiver-n: endpoint-vn.1-rc.1``
  lines), against a schema that declares them all: every string is asked whether it is a
  versioned identifier (issue 45: the regular expression that asked took time quadratic in the
  string, 141 s on one Helm repository's 162 configuration strings, and example-invalid outran
  its time box).

``measure`` prints, for DIR:

- each set-up phase in this process (listing and reading, parsing, the reference index, the
  roles, the prose value sets), in seconds;
- each rule run alone in a forked child on the primed corpus, with its finding count, stopped
  after ``--rule-limit`` seconds (default 300);
- ``speclint check --no-cache`` as a user runs it: wall time, exit code, finding count, the
  ``internal-error`` and ``unknown`` findings, and the peak resident memory.

Figures are reported in notes, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

KINDS = ("queued", "running", "paused", "completed", "failed", "cancelled", "expired")


def _schema(i: int, chain: int) -> dict[str, object]:
    kinds = [f"{KINDS[(i + k) % len(KINDS)]}" for k in range(3)]
    properties: dict[str, object] = {
        "id": {"$ref": "common.schema.json#/$defs/Id"},
        "kind": {"enum": kinds, "description": "What this item is."},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 16},
        "count": {"type": "integer", "minimum": 0},
        "createdAt": {"$ref": "common.schema.json#/$defs/Timestamp"},
    }
    if i % chain:
        properties["previous"] = {"$ref": f"s{i - 1:05d}.schema.json"}
    if i % 10 == 0:
        properties["type"] = {"const": f"item.event{i}"}
    schema: dict[str, object] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://scale.example/schemas/s{i:05d}.schema.json",
        "title": f"Item{i}",
        "description": f"Item number {i} of the synthetic corpus.",
        "type": "object",
        "required": ["id", "kind"],
        "properties": properties,
        "examples": [
            {"id": f"item-{i}", "kind": kinds[0]}
            if i % 50
            else {"id": f"item-{i}", "kind": "unheard-of"}
        ],
    }
    if i % 3 == 0:
        schema["additionalProperties"] = False
    if i % 7 == 0:
        schema["oneOf"] = [{"required": ["tags"]}, {"required": ["count"]}]
    return schema


def generate_small(folder: Path, count: int, chain: int) -> None:
    (folder / "schemas").mkdir(parents=True)
    (folder / "spec").mkdir()
    (folder / "api").mkdir()
    (folder / "speclint.toml").write_text('fail-on = "error"\n', encoding="utf-8")
    common = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://scale.example/schemas/common.schema.json",
        "$defs": {
            "Id": {"type": "string", "minLength": 1, "maxLength": 64},
            "Timestamp": {"type": "string", "format": "date-time"},
        },
    }
    (folder / "schemas" / "common.schema.json").write_text(json.dumps(common, indent=2))
    for i in range(count):
        text = json.dumps(_schema(i, chain), indent=2) + "\n"
        (folder / "schemas" / f"s{i:05d}.schema.json").write_text(text, encoding="utf-8")
    for section in range(0, count, 50):
        rows = "\n".join(
            f"| `{KINDS[(i + k) % len(KINDS)]}` | Item{i} | state {k} |"
            for i in range(section, min(section + 50, count))
            for k in range(1)
        )
        text = (
            f"# Items {section} to {section + 49}\n\n"
            "Every item has a `kind`; the values are:\n\n"
            "| Value | Schema | Meaning |\n|---|---|---|\n"
            f"{rows}\n\n"
            "Consumers MUST ignore unknown event types.\n"
        )
        (folder / "spec" / f"items-{section:05d}.md").write_text(text, encoding="utf-8")
    lines = [
        "openapi: 3.1.0",
        "info:",
        "  title: Scale",
        '  version: "1.0"',
        "  license: {name: Apache-2.0, identifier: Apache-2.0}",
        "paths:",
    ]
    for i in range(0, count, 5):
        lines += [
            f"  /v1/items{i}:",
            "    get:",
            f"      operationId: getItem{i}",
            "      responses:",
            "        '200':",
            "          description: The item.",
            "          content:",
            "            application/json:",
            "              schema:",
            f"                $ref: '../schemas/s{i:05d}.schema.json'",
            # A createRun-shaped body: an inline branch and the schema; both closed every 30th
            # item, so no body can pass (RFC 0094 section A).
            "    post:",
            f"      operationId: createItem{i}",
            "      requestBody:",
            "        required: true",
            "        content:",
            "          application/json:",
            "            schema:",
            "              allOf:",
            "                - type: object",
            "                  required: [name]",
            "                  properties: {name: {type: string}}",
            *(["                  additionalProperties: false"] if i % 10 == 0 else []),
            f"                - $ref: '../schemas/s{i:05d}.schema.json'",
            "      responses:",
            "        '201': {description: Created.}",
        ]
    lines += ["components:", "  schemas:"]
    for i in range(0, count, 100):
        # An inline copy of a schema file that has drifted: `count` became required.
        lines += [
            f"    Item{i}:",
            "      type: object",
            "      required: [id, kind, count]",
            "      properties:",
            "        id: {type: string}",
            "        kind: {type: string}",
            "        tags: {type: array, items: {type: string}}",
            "        count: {type: integer, minimum: 0}",
        ]
    (folder / "api" / "openapi.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def generate_big(folder: Path, megabytes: float, chain: int) -> None:
    (folder / "api").mkdir(parents=True)
    (folder / "speclint.toml").write_text('fail-on = "error"\n', encoding="utf-8")
    target = int(megabytes * 1024 * 1024)
    head = [
        "openapi: 3.1.0",
        "info:",
        "  title: Big",
        '  version: "1.0"',
        "  license: {name: Apache-2.0, identifier: Apache-2.0}",
        "paths:",
    ]
    components: list[str] = ["components:", "  schemas:"]
    paths: list[str] = []
    size = 0
    i = 0
    while size < target:
        block = [
            f"    C{i}:",
            "      type: object",
            "      required: [id, state]",
            "      properties:",
            "        id: {type: string, minLength: 1}",
            f"        state: {{enum: [{', '.join(KINDS[: 3 + i % 4])}]}}",
        ]
        for field in range(12):
            block.append(
                f"        field{field}: {{type: string, description: 'Field {field} of C{i}.'}}"
            )
        if i % chain:
            block.append(f"        previous: {{$ref: '#/components/schemas/C{i - 1}'}}")
        block.append("      additionalProperties: false" if i % 3 == 0 else "")
        components += [line for line in block if line]
        if i % 4 == 0:
            paths += [
                f"  /v1/c{i}:",
                "    get:",
                f"      operationId: getC{i}",
                "      responses:",
                "        '200':",
                "          description: The item.",
                "          content:",
                "            application/json:",
                f"              schema: {{$ref: '#/components/schemas/C{i}'}}",
            ]
        size += sum(len(line) + 1 for line in block) + (300 if i % 4 == 0 else 0)
        i += 1
    text = "\n".join(head + paths + components) + "\n"
    (folder / "api" / "openapi.yaml").write_text(text, encoding="utf-8")


def generate_product(folder: Path, pages: int, schemas: int, distinct: bool) -> None:
    (folder / "spec").mkdir(parents=True)
    (folder / "schemas").mkdir()
    for page in range(pages):
        own = f"p{page}" if distinct else "q"
        text = f"# Page {page}\n\nThe `a` field is one of `x` | `y` | `{own}`.\n"
        (folder / "spec" / f"p{page:04d}.md").write_text(text, encoding="utf-8")
    for number in range(schemas):
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://scale.example/schemas/s{number:05d}.schema.json",
            "type": "object",
            "properties": {"a": {"enum": ["x", "y", f"z{number}" if distinct else "z"]}},
        }
        text = json.dumps(schema) + "\n"
        (folder / "schemas" / f"s{number:05d}.schema.json").write_text(text, encoding="utf-8")


def generate_protos(folder: Path, protos: int, schemas: int, distinct: bool) -> None:
    (folder / "protos").mkdir(parents=True)
    (folder / "schemas").mkdir()
    for number in range(protos):
        own = f"P{number}" if distinct else "Q"
        text = (
            f'syntax = "proto3";\n\npackage scale.p{number};\n\nenum TaskState {{\n'
            "  TASK_STATE_UNSPECIFIED = 0;\n  TASK_STATE_X = 1;\n  TASK_STATE_Y = 2;\n"
            f"  TASK_STATE_{own} = 3;\n}}\n"
        )
        (folder / "protos" / f"p{number:04d}.proto").write_text(text, encoding="utf-8")
    for number in range(schemas):
        schema = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://scale.example/schemas/s{number:05d}.schema.json",
            "$defs": {
                "TaskState": {
                    "type": "string",
                    "enum": ["x", "y", f"z{number}" if distinct else "z"],
                }
            },
        }
        text = json.dumps(schema) + "\n"
        (folder / "schemas" / f"s{number:05d}.schema.json").write_text(text, encoding="utf-8")


def generate_fences(folder: Path, fences: int) -> None:
    (folder / "spec").mkdir(parents=True)
    (folder / "schemas").mkdir()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://scale.example/schemas/thing.schema.json",
        "title": "Thing",
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "required": ["n"],
    }
    text = json.dumps(schema, indent=2) + "\n"
    (folder / "schemas" / "thing.schema.json").write_text(text, encoding="utf-8")
    blocks = ["# Things\n\nA `Thing` ([schema](../schemas/thing.schema.json)):\n"]
    for number in range(fences):
        if number % 2 == 0:
            heading, example = f"`Thing` {number}", {"n": f"x{number}"}
        else:
            heading, example = f"Reply {number}", {"id": number, "result": {"n": 1}}
        blocks.append(f"\n## {heading}\n\n```json\n{json.dumps(example)}\n```\n\nA note.\n")
    (folder / "spec" / "things.md").write_text("".join(blocks), encoding="utf-8")


def generate_value_files(folder: Path, files: int) -> None:
    (folder / "examples").mkdir(parents=True)
    (folder / "schemas").mkdir()
    members: dict[str, object] = {f"config{k}": {"type": "string"} for k in range(4)}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Released": {
                "type": "object",
                "properties": {"type": {"const": "dev.scale.released.1.0.0"}, **members},
                "required": ["type"],
            }
        },
    }
    text = json.dumps(schema, indent=2) + "\n"
    (folder / "schemas" / "released.schema.json").write_text(text, encoding="utf-8")
    lines = "".join(f"receiver-{n}: endpoint-v{n}.1-rc.1\n" for n in range(1600))
    for number in range(files):
        example = {"type": "dev.scale.released.0.9"}
        example.update({f"config{k}": f"# file {number} part {k}\n{lines}" for k in range(4)})
        text = json.dumps(example) + "\n"
        (folder / "examples" / f"values-{number:04d}.json").write_text(text, encoding="utf-8")


def _phase(name: str, started: float) -> float:
    now = time.monotonic()
    print(f"  {name:<28} {now - started:8.2f} s", flush=True)
    return now


def measure(folder: Path, rule_limit: float) -> None:
    from speclint.analyses.context import Context
    from speclint.analyses.prose.enumerations import prose_sets
    from speclint.model.config import load_config
    from speclint.model.corpus import listing, snapshot
    from speclint.parsing.kinds import DocumentKind
    from speclint.run.runner import select_rules

    root = folder.resolve()
    print(f"{root}: set-up phases")
    config = load_config(root)
    started = time.monotonic()
    tree = listing(root)
    files = snapshot(root, config, tree)
    at = _phase(f"listing and reading ({len(files)})", started)
    corpus = Context.from_snapshot(root, config, files, None, tree)
    at = _phase("parsing", at)
    corpus.references  # noqa: B018
    at = _phase("reference index", at)
    corpus.roles  # noqa: B018
    at = _phase("roles", at)
    for document in corpus.of_kind(DocumentKind.MARKDOWN):
        prose_sets(document)
    _phase("prose value sets", at)

    print("rules, each alone on the primed corpus:")
    for rule_id, info in select_rules(corpus).items():
        options = corpus.config.rule_options.get(rule_id, {})
        read, write = os.pipe()
        began = time.monotonic()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child
            os.close(read)
            count = 0
            try:
                for _ in info.check(corpus, options):
                    count += 1
                message = str(count)
            except BaseException as error:
                message = f"crashed: {type(error).__name__}: {str(error)[:80]}"
            os.write(write, message.encode())
            os._exit(0)
        os.close(write)
        outcome = "stopped at the limit"
        while time.monotonic() - began < rule_limit:
            finished, _ = os.waitpid(child, os.WNOHANG)
            if finished:
                outcome = os.read(read, 200).decode() + " findings"
                break
            time.sleep(0.05)
        else:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
        os.close(read)
        print(f"  {rule_id:<28} {time.monotonic() - began:8.2f} s  {outcome}", flush=True)

    print("speclint check --no-cache:")
    began = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "speclint", "check", str(root), "--no-cache", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.monotonic() - began
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    try:
        findings = json.loads(run.stdout)["findings"]
    except (ValueError, KeyError, TypeError):
        print(f"  exit {run.returncode}, no JSON report; stderr: {run.stderr[-500:]}")
        return
    by_rule: dict[str, int] = {}
    for finding in findings:
        by_rule[finding["rule"]] = by_rule.get(finding["rule"], 0) + 1
    print(
        f"  wall {wall:.1f} s, exit {run.returncode}, {len(findings)} findings, peak {peak:.0f} MB"
    )
    print("  by rule: " + ", ".join(f"{rule} {n}" for rule, n in sorted(by_rule.items())))
    for finding in findings:
        if finding["rule"] == "internal-error":
            print(f"  internal-error: {finding['message'][:160]}")
    print(f"  stderr: {run.stderr.strip()[-400:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate")
    make.add_argument("folder", type=Path)
    make.add_argument("--schemas", type=int, default=5000)
    make.add_argument("--big-openapi", type=float, default=None, metavar="MB")
    make.add_argument("--chain", type=int, default=50, help="length of the $ref chains")
    make.add_argument(
        "--pages-x-schemas", type=int, nargs=2, default=None, metavar=("PAGES", "SCHEMAS")
    )
    make.add_argument(
        "--protos-x-schemas", type=int, nargs=2, default=None, metavar=("PROTOS", "SCHEMAS")
    )
    make.add_argument(
        "--distinct", action="store_true", help="with --pages-x-schemas or --protos-x-schemas"
    )
    make.add_argument("--fences", type=int, default=None, metavar="N")
    make.add_argument("--value-files", type=int, default=None, metavar="N")
    check = commands.add_parser("measure")
    check.add_argument("folder", type=Path)
    check.add_argument("--rule-limit", type=float, default=300.0)
    arguments = parser.parse_args()
    if arguments.command == "generate":
        if arguments.folder.exists():
            parser.error(f"{arguments.folder} exists; give a new folder")
        if arguments.pages_x_schemas:
            generate_product(arguments.folder, *arguments.pages_x_schemas, arguments.distinct)
        elif arguments.protos_x_schemas:
            generate_protos(arguments.folder, *arguments.protos_x_schemas, arguments.distinct)
        elif arguments.fences is not None:
            generate_fences(arguments.folder, arguments.fences)
        elif arguments.value_files is not None:
            generate_value_files(arguments.folder, arguments.value_files)
        elif arguments.big_openapi:
            generate_big(arguments.folder, arguments.big_openapi, arguments.chain)
        else:
            generate_small(arguments.folder, arguments.schemas, arguments.chain)
    else:
        measure(arguments.folder, arguments.rule_limit)


if __name__ == "__main__":
    main()
