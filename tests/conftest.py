"""Shared fixtures: small corpora written to tmp_path, the CLI, and the shared OpenWOP snapshot."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from speclint.cli import main

REPOSITORY = Path(__file__).resolve().parent.parent
BUNDLED_CORPUS = REPOSITORY / "corpus"
OPENWOP = REPOSITORY.parent / "shared" / "openwop-corpus"

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# The caches of every speclint the tests start (in process, or as a child that inherits the
# environment) go to a folder of this session, not the user's cache folder.
if "SPECLINT_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="speclint-test-cache-")
    os.environ["SPECLINT_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)


def schema(**body: Any) -> str:
    return json.dumps({"$schema": DIALECT, **body}, indent=2) + "\n"


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_corpus(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    def build(files: dict[str, str | bytes]) -> Path:
        return write_files(tmp_path / "spec", files)

    return build


def run_cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="session")
def openwop() -> Path:
    if not (OPENWOP / "SNAPSHOT.md").is_file():
        pytest.skip(
            f"the shared OpenWOP snapshot is not at {OPENWOP} (it lives in ../shared beside the checkout)"
        )
    return OPENWOP
