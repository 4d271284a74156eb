"""Refresh the AsyncAPI JSON Schemas that speclint ships, from the official npm package.

speclint validates AsyncAPI documents against the schemas the AsyncAPI Initiative publishes in the
``@asyncapi/specs`` package (the same files its own parser uses). They are copied byte for byte into
``linter/data/asyncapi/`` so that validation needs no network and no Node.js at run time;
``PROVENANCE.json`` records the package, version, tarball integrity and each file's sha256, and a
test checks the files against it.

Usage: python scripts/vendor_asyncapi_schemas.py [VERSION]   (needs npm and the npm registry)
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "@asyncapi/specs"
DEFAULT_VERSION = "6.11.1"
TARGET = Path(__file__).resolve().parent.parent / "linter" / "data" / "asyncapi"
# 2.x and 3.x documents are what spec repositories publish today; 1.x is long retired.
WANTED = re.compile(r"^package/schemas/([23]\.\d+\.\d+)\.json$")


def main(version: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        output = subprocess.run(
            ["npm", "pack", f"{PACKAGE}@{version}", "--json", "--pack-destination", scratch],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        meta = json.loads(output)[0]
        tarball = Path(scratch) / meta["filename"]
        files = {}
        TARGET.mkdir(parents=True, exist_ok=True)
        for old in TARGET.glob("*.json"):
            old.unlink()
        with tarfile.open(tarball) as archive:
            for member in sorted(archive.getmembers(), key=lambda m: m.name):
                match = WANTED.match(member.name)
                if member.name == "package/LICENSE":
                    (TARGET / "LICENSE").write_bytes(archive.extractfile(member).read())  # type: ignore[union-attr]
                if not match:
                    continue
                content = archive.extractfile(member).read()  # type: ignore[union-attr]
                name = f"{match.group(1)}.json"
                (TARGET / name).write_bytes(content)
                files[name] = hashlib.sha256(content).hexdigest()
    provenance = {
        "package": PACKAGE,
        "version": version,
        "integrity": meta["integrity"],
        "source": "schemas/<version>.json in the package tarball, copied unchanged",
        "files": files,
    }
    (TARGET / "PROVENANCE.json").write_text(json.dumps(provenance, indent=2) + "\n")
    print(f"vendored {len(files)} schemas from {PACKAGE}@{version}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_VERSION)
