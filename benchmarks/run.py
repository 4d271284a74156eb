"""Benchmark speclint against the targets of a pre-commit hook.

Usage::

    python benchmarks/run.py [CORPUS] [--repeat N] [--scale K]

CORPUS defaults to ``../shared/openwop-corpus`` (beside the checkout) when it is there, else the
bundled ``corpus/``. The script copies it to a temporary folder (nothing is written to the
original), generates a synthetic corpus ``--scale`` times its size (default 10: that many copies,
each with its ``$id`` URLs moved to their own prefix, under one configuration), and prints, for
both, the median of ``--repeat`` runs (default 3) of:

- **parse floor**: a fresh Python process reading every file speclint discovers and parsing it once
  with the fastest standard parsers (``json``, PyYAML's C loader, markdown-it): what any tool pays;
- **cold**: ``speclint check`` with no cache;
- **warm**: ``speclint check`` again, nothing changed (the run cache answers);
- **one file**: ``speclint check`` after one Markdown file changed (the parse cache serves the
  rest; the rules run again);
- **peak memory**: the largest resident set of any speclint process in those runs.

and checks them against the targets: warm ≤ 0.3 s, one file ≤ 1 s, cold ≤ 3 × the parse floor,
the scaled corpus's cold time ≤ 1.1 × scale × the original's, peak ≤ 300 MB. Figures are
measured here and reported in notes, never asserted in tests.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
OPENWOP = HERE.parent / "shared" / "openwop-corpus"

FLOOR = r"""
import json, sys, time
from pathlib import Path
import yaml
from markdown_it import MarkdownIt
from speclint.config import load_config
from speclint.corpus import discover
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


def timed(
    command: list[str], repeat: int, before: object = None, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """Median seconds and peak RSS (MB) of ``command`` in fresh processes."""
    times, peak, output = [], 0.0, ""
    for _ in range(repeat):
        if callable(before):
            before()
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        output = done.stdout
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    return statistics.median(times), peak, output


def measure(name: str, root: Path, repeat: int) -> Figures:
    speclint = [sys.executable, "-m", "speclint", "check", str(root), "--no-progress"]
    # A cache folder of this benchmark's own (speclint keeps caches in the user's cache folder).
    cache = root.parent / f"cache-{root.name}"
    env = {**os.environ, "SPECLINT_CACHE_DIR": str(cache)}

    def no_cache() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    floor, _, count = timed([sys.executable, "-c", FLOOR, str(root)], repeat)
    cold, peak_cold, _ = timed(speclint, repeat, no_cache, env)
    timed(speclint, 1, env=env)  # fill the cache
    warm, peak_warm, _ = timed(speclint, repeat, env=env)
    page = next(iter(sorted(root.rglob("*.md"))))
    original = page.read_bytes()
    edits = iter(range(1_000_000))

    def touch_one() -> None:
        page.write_bytes(original + f"\n<!-- edit {next(edits)} -->\n".encode())

    one_file, peak_one, _ = timed(speclint, repeat, touch_one, env)
    page.write_bytes(original)
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
        max(peak_cold, peak_warm, peak_one),
    )


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


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = OPENWOP if (OPENWOP / "SNAPSHOT.md").is_file() else HERE / "corpus"
    parser.add_argument("corpus", nargs="?", type=Path, default=default)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="speclint-bench-") as scratch:
        original = Path(scratch) / "original"
        shutil.copytree(
            args.corpus, original, ignore=shutil.ignore_patterns(".speclint-cache", ".git")
        )
        big = scaled(original, Path(scratch) / f"x{args.scale}", args.scale)
        rows = [
            measure(args.corpus.name, original, args.repeat),
            measure(f"{args.corpus.name} ×{args.scale} (synthetic)", big, args.repeat),
        ]
    print(f"speclint benchmark on {os.cpu_count()} CPU(s), median of {args.repeat}\n")
    print("| corpus | files | MB | parse floor | cold | warm | one file changed | peak memory |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r.name} | {r.files} | {r.megabytes:.1f} | {r.floor:.2f} s | {r.cold:.2f} s | "
            f"{r.warm:.2f} s | {r.one_file:.2f} s | {r.peak_mb:.0f} MB |"
        )
    small, large = rows
    print("\n| target | figure | |")
    print("| --- | --- | --- |")
    print(f"| warm ≤ 0.3 s | {small.warm:.2f} s | {verdict(small.warm <= 0.3)} |")
    print(f"| one file changed ≤ 1 s | {small.one_file:.2f} s | {verdict(small.one_file <= 1.0)} |")
    ratio = small.cold / small.floor
    print(f"| cold ≤ 3 × parse floor | {ratio:.1f} × | {verdict(ratio <= 3)} |")
    growth = large.cold / small.cold
    print(
        f"| ×{args.scale} corpus ≤ {1.1 * args.scale:.0f} × time | {growth:.1f} × | "
        f"{verdict(growth <= 1.1 * args.scale)} |"
    )
    peak = max(small.peak_mb, large.peak_mb)
    print(f"| peak memory ≤ 300 MB | {peak:.0f} MB | {verdict(peak <= 300)} |")


if __name__ == "__main__":
    main()
