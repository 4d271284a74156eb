r"""Benchmark speclint against the targets of a pre-commit hook.

Usage::

    python benchmarks/run.py [CORPUS] [--repeat N] [--scale K] [--schemas N] [--compare [DIR]]

CORPUS defaults to ``../shared/openwop-corpus`` (beside the checkout) when it is there, else the
bundled ``corpus/``. The script copies it to a temporary folder (nothing is written to the
original), generates a synthetic corpus ``--scale`` times its size (default 10: that many copies,
each with its ``$id`` URLs moved to their own prefix, under one configuration), and prints, for
both, the median of ``--repeat`` runs (default 3) of:

- **parse floor**: a fresh Python process reading every file speclint discovers and parsing it once
  with the fastest standard parsers (``json``, PyYAML's C loader, markdown-it): what any tool pays;
- **cold**: ``speclint check`` with no cache;
- **warm**: ``speclint check`` again, nothing changed (the run cache answers);
- **one page** / **one schema**: ``speclint check`` after one Markdown page / one JSON Schema
  changed (the parse cache serves the rest; the rules that depend on it run again);
- **peak memory**: the largest resident set of any speclint process in those runs;
- **through the daemon**: nothing changed, one page, one schema, with ``--daemon`` (a daemon
  started and warmed first, in a daemon folder of the benchmark's own), and the daemon's peak.

It also generates a corpus of ``--schemas`` (default 1,000) schemas with cross-file ``$ref``\s,
prose and an OpenAPI document (``benchmarks/scale.py generate``) and times its cold check;
``--series 1000,2000,4000,8000`` times the scaling series (each size against the one before: a
doubling should cost no more than 2.1 ×), and ``--ecosystem RUN`` lists each repository's time and
peak from an ecosystem run (``benchmarks/ecosystem/check.py``; its runs are under its scratch
folder's ``runs/``).

It then times the pre-commit hook (``benchmarks/commits.py``) on the corpus and on the large
repository pinned as ``commits.LARGE`` in ``ecosystem/repos.toml`` (the Model Context Protocol's,
~950 files), extracted from its mirror (``--mirrors``, as ``ecosystem/check.py`` does) or given
as ``--large TREE``: a clean commit, a one-page and a one-schema commit, in the hook's own process
and through the resident checker it starts, and ``speclint check`` with nothing changed (issue
51: ≤ 0.5 s, ≤ 1.0 s, ≤ 2.0 s and ≤ 0.15 s on the large one). ``--no-hook`` skips them.

``--compare`` times the one-document linters on the same machine, in the same run, alternating
with speclint's cold check: Spectral (``spectral:oas`` and ``spectral:asyncapi``) on the corpus's
OpenAPI and AsyncAPI documents, and Redocly on its OpenAPI documents. They are npm packages,
installed outside this repository, for example::

    npm install --prefix /tmp/speclint-anchors @stoplight/spectral-cli @redocly/cli
    python benchmarks/run.py --compare /tmp/speclint-anchors

and it prints the ratios the targets are stated in (issues 16 and 51): cold ≤ 0.8 × Spectral, one
page ≤ 0.2 ×, one schema ≤ 0.4 ×, nothing changed ≤ 0.15 s, the ×10 corpus ≤ 10 × the cold time
and ≤ 300 MB, the 1,000-schema corpus ≤ 15 s and ≤ 500 MB, each doubling of the series ≤ 2.1 ×;
through the daemon (issue 29), one page ≤ 0.1 × and nothing changed ≤ 0.1 s. Figures are
measured here and reported in notes, never asserted in tests.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# Beside this script (its folder is first on sys.path when it runs).
from commits import LARGE, HookFigures, hook_figures, print_hook_figures
from ecosystem.check import extract, load_repos

HERE = Path(__file__).resolve().parent.parent
OPENWOP = HERE.parent / "shared" / "openwop-corpus"

FLOOR = r"""
import json, sys, time
from pathlib import Path
import yaml
from markdown_it import MarkdownIt
from speclint.model.config import load_config
from speclint.model.corpus import discover
root = Path(sys.argv[1]).resolve()
paths = discover(root, load_config(root))
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
markdown = MarkdownIt("commonmark")
for relative in paths:
    full = root / relative
    if full.is_symlink() or full.stat().st_size > 25 * 1024 * 1024:
        continue
    text = full.read_bytes().decode("utf-8", "replace")
    try:
        if relative.endswith(".json"):
            json.loads(text)
        elif relative.endswith((".yaml", ".yml")):
            yaml.load(text, Loader=loader)
        elif relative.endswith(".md"):
            markdown.parse(text)
    except Exception:
        pass
print(len(paths))
"""


@dataclass
class Figures:
    name: str
    files: int
    megabytes: float
    floor: float
    cold: float
    warm: float
    one_file: float
    peak_mb: float
    one_schema: float = 0.0
    anchors: dict[str, float] = field(default_factory=dict)  # tool -> median seconds
    # Through the resident checker (``--daemon``): nothing changed, one page, one schema; the
    # daemon's own peak resident set.
    daemon: dict[str, float] = field(default_factory=dict)


def run_once(
    command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float, str]:
    """Seconds and peak RSS (MB, of this process and all its descendants) of one run: the
    command runs under a fresh Python that reports its own children's peak, so one tool's
    memory is not another's."""
    probe = (
        "import resource, subprocess, sys; "
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "sys.stdout.write(done.stdout); sys.stderr.write(done.stderr); "
        "print(f'\\nPEAK {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}', "
        "file=sys.stderr); sys.exit(done.returncode)"
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", probe, *command],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=cwd,
    )
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    found = re.search(r"PEAK (\d+)", done.stderr)
    return elapsed, (int(found.group(1)) / 1024 if found else 0.0), done.stdout


def timed(
    command: list[str], repeat: int, before: object = None, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """Median seconds and peak RSS (MB) of ``command`` in fresh processes."""
    times, peak, output = [], 0.0, ""
    for _ in range(repeat):
        if callable(before):
            before()
        elapsed, rss, output = run_once(command, env)
        times.append(elapsed)
        peak = max(peak, rss)
    return statistics.median(times), peak, output


def anchors(tools: Path | None, root: Path) -> dict[str, list[str]]:
    """The one-document linters' commands on ``root``'s API documents (those installed)."""
    if tools is None:
        return {}
    from speclint.analyses.context import Context
    from speclint.parsing.kinds import DocumentKind

    corpus = Context.load(root)
    openapi = [d.path for d in corpus.of_kind(DocumentKind.OPENAPI)]
    asyncapi = [d.path for d in corpus.of_kind(DocumentKind.ASYNCAPI)]
    found: dict[str, list[str]] = {}
    binaries = tools / "node_modules" / ".bin"
    spectral = binaries / "spectral"
    if spectral.is_file() and openapi + asyncapi:
        ruleset = root.parent / "spectral-ruleset.yaml"
        ruleset.write_text('extends: ["spectral:oas", "spectral:asyncapi"]\n')
        found["Spectral (API documents)"] = [
            str(spectral),
            "lint",
            *openapi,
            *asyncapi,
            "--ruleset",
            str(ruleset),
            "--quiet",
        ]
    redocly = binaries / "redocly"
    if redocly.is_file() and openapi:
        found["Redocly (OpenAPI)"] = [str(redocly), "lint", *openapi, "--format", "summary"]
    return found


def measure(name: str, root: Path, repeat: int, tools: Path | None = None) -> Figures:
    speclint = [sys.executable, "-m", "speclint", "check", str(root), "--no-progress"]
    # A cache folder of this benchmark's own (speclint keeps caches in the user's cache folder).
    cache = root.parent / f"cache-{root.name}"
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(cache)}

    def no_cache() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    floor, _, count = timed([sys.executable, "-c", FLOOR, str(root)], repeat)
    # Side by side: each round runs every tool once, alternating, so a slower moment of the
    # machine falls on all of them.
    others = anchors(tools, root)
    rounds: dict[str, list[float]] = {tool: [] for tool in [*others, "speclint"]}
    peak_cold = 0.0
    for _ in range(repeat):
        for tool, command in others.items():
            elapsed, _, _ = run_once(command, cwd=root)
            rounds[tool].append(elapsed)
        no_cache()
        elapsed, rss, _ = run_once(speclint, env)
        rounds["speclint"].append(elapsed)
        peak_cold = max(peak_cold, rss)
    cold = statistics.median(rounds["speclint"])
    timed(speclint, 1, env=env)  # fill the cache
    warm, peak_warm, _ = timed(speclint, repeat, env=env)
    page = next(iter(sorted(root.rglob("*.md"))))
    original = page.read_bytes()
    edits = iter(range(1_000_000))

    def touch_one() -> None:
        page.write_bytes(original + f"\n<!-- edit {next(edits)} -->\n".encode())

    one_file, peak_one, _ = timed(speclint, repeat, touch_one, env)
    page.write_bytes(original)
    schema = next(iter(sorted(root.rglob("*.schema.json"))), None) or next(
        iter(sorted(root.rglob("*.json")))
    )
    schema_bytes = schema.read_bytes()

    def touch_schema() -> None:
        schema.write_bytes(schema_bytes + b" " * (1 + next(edits) % 7))

    timed(speclint, 1, env=env)
    one_schema, peak_schema, _ = timed(speclint, repeat, touch_schema, env)
    schema.write_bytes(schema_bytes)
    daemon = through_daemon(root, speclint, repeat, touch_one, touch_schema)
    page.write_bytes(original)
    schema.write_bytes(schema_bytes)
    size = sum(
        p.stat().st_size
        for p in root.rglob("*")
        if p.is_file() and ".speclint-cache" not in p.parts
    )
    return Figures(
        name,
        int(count.strip() or 0),
        size / 1e6,
        floor,
        cold,
        warm,
        one_file,
        max(peak_cold, peak_warm, peak_one, peak_schema),
        one_schema,
        {tool: statistics.median(times) for tool, times in rounds.items() if tool != "speclint"},
        daemon,
    )


def through_daemon(
    root: Path, speclint: list[str], repeat: int, touch_page: object, touch_schema: object
) -> dict[str, float]:
    """The same checks through the corpus's daemon (``--daemon``), started and warmed first,
    with a daemon folder of this benchmark's own; and the daemon's peak memory."""
    runtime = Path(tempfile.mkdtemp(prefix="sl-bench-", dir="/tmp"))
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    command = [*speclint, "--daemon"]
    try:
        timed(command, 2, env=env)  # starts it, then a warm check
        figures = {
            "nothing changed": timed(command, repeat, env=env)[0],
            "one page changed": timed(command, repeat, touch_page, env)[0],
            "one schema changed": timed(command, repeat, touch_schema, env)[0],
        }
        status = subprocess.run(
            [sys.executable, "-m", "speclint", "daemon", "status", str(root)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        found = re.search(r"process (\d+)", status.stdout)
        if found:
            memory = Path(f"/proc/{found.group(1)}/status")
            high = re.search(r"VmHWM:\s+(\d+) kB", memory.read_text()) if memory.exists() else None
            if high:
                figures["peak MB"] = int(high.group(1)) / 1024
    finally:
        subprocess.run(
            [sys.executable, "-m", "speclint", "daemon", "stop", str(root)],
            capture_output=True,
            env=env,
            check=False,
        )
        shutil.rmtree(runtime, ignore_errors=True)
    return figures


def scaled(source: Path, target: Path, scale: int) -> Path:
    """``scale`` copies of ``source`` under one root, each with its own ``$id`` URL prefix."""
    hosts = sorted(
        set(
            re.findall(
                rb"https://[a-z0-9.-]+/",
                b"".join(p.read_bytes() for p in source.rglob("*.json") if p.is_file()),
            )
        )
    )
    for index in range(scale):
        copy = target / f"copy{index}"
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".speclint-cache", ".git"))
        for path in copy.rglob("*"):
            if path.suffix in {".json", ".yaml", ".yml", ".md"} and path.is_file():
                data = path.read_bytes()
                for host in hosts:
                    data = data.replace(host, host + f"copy{index}/".encode())
                path.write_bytes(data)
    (target / "speclint.toml").write_text(
        'include = ["*/schemas/**/*.json", "*/api/**/*.yaml", "*/api/**/*.yml", '
        '"*/spec/**/*.md", "*/spec/**/*.json", "*/RFCS/**/*.md", "*/rfcs/**/*.md", '
        '"*/*.md", "*/package.json"]\n'
    )
    return target


def print_ecosystem(run: Path) -> None:
    """Each repository's time and peak memory in an ecosystem run (its JSON files)."""
    rows = []
    for found in sorted(run.glob("*.json")):
        try:
            record = json.loads(found.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(record, dict) and "seconds" in record:
            rows.append(record)
    print(f"\n| ecosystem run {run.name} | files | findings | seconds | peak |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for record in rows:
        print(
            f"| {record.get('repo')} | {record.get('files')} | {len(record.get('findings', []))} "
            f"| {record.get('seconds', 0):.1f} s | {record.get('peak_mb', 0):.0f} MB |"
        )
    total = sum(float(r.get("seconds", 0)) for r in rows)
    peak = max((float(r.get("peak_mb", 0)) for r in rows), default=0.0)
    print(f"| total ({len(rows)}) | | | {total:.1f} s | {peak:.0f} MB |")


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = OPENWOP if (OPENWOP / "SNAPSHOT.md").is_file() else HERE / "corpus"
    parser.add_argument("corpus", nargs="?", type=Path, default=default)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--schemas", type=int, default=1000)
    parser.add_argument(
        "--series",
        default="",
        metavar="N,N,...",
        help="also time a cold check of generated corpora of these many schemas (the scaling "
        "series: each size against the one before)",
    )
    parser.add_argument(
        "--ecosystem",
        type=Path,
        default=None,
        metavar="RUN",
        help="also list the times and peaks of an ecosystem run (a folder "
        "benchmarks/ecosystem/check.py wrote under SCRATCH/runs/)",
    )
    parser.add_argument(
        "--large",
        type=Path,
        default=None,
        metavar="TREE",
        help=f"the large repository the hook is timed on (default: {LARGE} at its pinned commit, "
        "extracted from --mirrors)",
    )
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--no-hook", action="store_true", help="do not time the pre-commit hook")
    parser.add_argument(
        "--compare",
        nargs="?",
        type=Path,
        const=Path("/tmp/speclint-anchors"),
        default=None,
        help="the npm prefix where @stoplight/spectral-cli and @redocly/cli are installed",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(HERE / "benchmarks"))
    # Bytecode as an installed package has it: with PYTHONDONTWRITEBYTECODE set (some CI images
    # set it) every run would compile speclint's modules again, a cost no user pays.
    import compileall

    import speclint.rules

    for package in {Path(speclint.__file__).parent, Path(speclint.rules.__file__).parent}:
        compileall.compile_dir(str(package), quiet=2)
    interpreter, _, _ = timed([sys.executable, "-c", "pass"], max(3, args.repeat))
    from scale import generate_small

    with tempfile.TemporaryDirectory(prefix="speclint-bench-") as scratch:
        original = Path(scratch) / "original"
        shutil.copytree(
            args.corpus, original, ignore=shutil.ignore_patterns(".speclint-cache", ".git")
        )
        big = scaled(original, Path(scratch) / f"x{args.scale}", args.scale)
        generated = Path(scratch) / f"schemas{args.schemas}"
        generate_small(generated, args.schemas, 50)
        rows = [
            measure(args.corpus.name, original, args.repeat, args.compare),
            measure(f"{args.corpus.name} ×{args.scale} (synthetic)", big, args.repeat),
        ]
        cache = Path(scratch) / "cache-generated"
        env = {**os.environ, "SPECLINT_CACHE_DIR": str(cache)}
        generated_cold, generated_peak, _ = timed(
            [sys.executable, "-m", "speclint", "check", str(generated), "--no-progress"],
            args.repeat,
            lambda: shutil.rmtree(cache, ignore_errors=True),
            env,
        )
        series = []
        for count in (int(n) for n in args.series.split(",") if n.strip()):
            folder = Path(scratch) / f"series{count}"
            generate_small(folder, count, 50)
            command = [sys.executable, "-m", "speclint", "check", str(folder), "--no-progress"]
            seconds, peak, _ = timed(command, 1, env={**os.environ, "SPECLINT_NO_CACHE": "1"})
            series.append((count, seconds, peak))
            shutil.rmtree(folder, ignore_errors=True)
        hooks = [] if args.no_hook else hook_rows(args, original, Path(scratch))
    print(f"speclint benchmark on {os.cpu_count()} CPU(s), median of {args.repeat}\n")
    print(
        "| corpus | files | MB | parse floor | cold | warm | one page changed | "
        "one schema changed | peak memory |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r.name} | {r.files} | {r.megabytes:.1f} | {r.floor:.2f} s | {r.cold:.2f} s | "
            f"{r.warm:.2f} s | {r.one_file:.2f} s | {r.one_schema:.2f} s | {r.peak_mb:.0f} MB |"
        )
    print(
        f"| {args.schemas} generated schemas | | | | {generated_cold:.2f} s | | | | "
        f"{generated_peak:.0f} MB |"
    )
    small, large = rows
    print(
        "\n| through the daemon (--daemon) | nothing changed | one page | one schema | daemon peak |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        d = r.daemon
        print(
            f"| {r.name} | {d.get('nothing changed', 0):.2f} s | {d.get('one page changed', 0):.2f} s "
            f"| {d.get('one schema changed', 0):.2f} s | {d.get('peak MB', 0):.0f} MB |"
        )
    if small.anchors:
        print("\n| tool, same run, alternating | median | speclint cold ÷ it |")
        print("| --- | ---: | ---: |")
        for tool, seconds in small.anchors.items():
            print(f"| {tool} | {seconds:.2f} s | {small.cold / seconds:.2f} × |")
    spectral = next((v for k, v in small.anchors.items() if k.startswith("Spectral")), None)
    print("\n| target | figure | |")
    print("| --- | --- | --- |")
    if spectral is not None:
        for label, figure, limit in (
            ("cold ≤ 0.8 × Spectral", small.cold, 0.8),
            ("one page changed ≤ 0.2 × Spectral", small.one_file, 0.2),
            ("one schema changed ≤ 0.4 × Spectral", small.one_schema, 0.4),
            ("one page changed, daemon ≤ 0.1 × Spectral", small.daemon["one page changed"], 0.1),
            (
                "one schema changed, daemon ≤ 0.4 × Spectral",
                small.daemon["one schema changed"],
                0.4,
            ),
        ):
            ratio = figure / spectral
            print(f"| {label} | {ratio:.2f} × | {verdict(ratio <= limit)} |")
    else:
        print("| against Spectral | not installed (see --compare) | |")
    print(
        f"| nothing changed ≤ 0.15 s | {small.warm:.2f} s (this Python starts in "
        f"{interpreter:.2f} s) | {verdict(small.warm <= 0.15)} |"
    )
    quiet = small.daemon["nothing changed"]
    print(
        f"| nothing changed, daemon ≤ 0.1 s | {quiet:.2f} s (this Python starts in "
        f"{interpreter:.2f} s) | {verdict(quiet <= 0.1)} |"
    )
    growth = large.cold / small.cold
    print(
        f"| ×{args.scale} corpus ≤ {args.scale} × cold | {growth:.1f} × | "
        f"{verdict(growth <= args.scale)} |"
    )
    print(
        f"| ×{args.scale} peak ≤ 300 MB | {large.peak_mb:.0f} MB | {verdict(large.peak_mb <= 300)} |"
    )
    for (smaller, before, _), (count, seconds, _) in itertools.pairwise(series):
        ratio = seconds / before
        print(
            f"| {smaller} → {count} schemas ≤ 2.1 × | {ratio:.2f} × ({seconds:.2f} s) | "
            f"{verdict(ratio <= 2.1)} |"
        )
    print(
        f"| {args.schemas} schemas cold ≤ 15 s | {generated_cold:.2f} s | "
        f"{verdict(generated_cold <= 15)} |"
    )
    print(
        f"| {args.schemas} schemas peak ≤ 500 MB | {generated_peak:.0f} MB | "
        f"{verdict(generated_peak <= 500)} |"
    )
    if series:
        print("\n| generated schemas | cold | peak |")
        print("| ---: | ---: | ---: |")
        for count, seconds, peak in series:
            print(f"| {count} | {seconds:.2f} s | {peak:.0f} MB |")
    if hooks:
        print_hook_figures(hooks)


def hook_rows(args: argparse.Namespace, original: Path, scratch: Path) -> list[HookFigures]:
    """The hook's figures on the corpus and on the large repository (when it can be had)."""
    rows = [hook_figures(args.corpus.name, original, args.repeat, scratch)]
    large = args.large
    if large is None:
        pinned = next(repo for repo in load_repos() if repo.name == LARGE)
        try:
            large = extract(pinned, args.mirrors, scratch)
        except FileNotFoundError as error:
            print(f"the large repository is not timed: {error}", file=sys.stderr)
            return rows
    rows.append(hook_figures(large.name.partition("@")[0], large, args.repeat, scratch))
    return rows


if __name__ == "__main__":
    main()
