"""The files speclint reads, named once (issue 44, item 10).

``speclint.parsing.kinds.READ_SUFFIXES`` is the list: discovery's default ``include`` is made of
it, and everything that must name the same files is held to it here: the pre-commit hook's
``files`` pattern (a hook that skips `.mdx` lets a Model Context Protocol-style repository commit
a broken example unchecked), the editors' set-ups the language server documents, and the documentation pages.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPOSITORY, write_files
from speclint.model.config import DEFAULT_INCLUDE, Config
from speclint.model.corpus import discover
from speclint.parsing.kinds import (
    ATTRIBUTES_FILE,
    CONFIGURATION_FILES,
    READ_SUFFIXES,
    DocumentKind,
    kind_for_path,
)
from speclint.parsing.tree import listing

# The files that say how the corpus is read, beside the files read.
SETTINGS_FILES = (*CONFIGURATION_FILES, ATTRIBUTES_FILE)


def hook_files_pattern() -> str:
    [hook] = yaml.safe_load((REPOSITORY / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return str(hook["files"])


def expected_files_pattern() -> str:
    """The settings files by their names, the files read by their endings in any letter case:
    ``kind_for_path`` reads `docs/PAGE.MD` when an ``include`` names it (issue 44 review, item
    14)."""
    names = "|".join(re.escape(name) for name in SETTINGS_FILES)
    suffixes = "|".join(re.escape(suffix.removeprefix(".")) for suffix in READ_SUFFIXES)
    return rf"(^|/)({names})$|(?i:\.({suffixes}))$"


def page(name: str) -> str:
    """A page of the documentation (docs/NAME.md)."""
    return (REPOSITORY / "docs" / f"{name}.md").read_text(encoding="utf-8")


def test_discovery_reads_the_listed_kinds_by_default() -> None:
    assert tuple(f"**/*{suffix}" for suffix in READ_SUFFIXES) == DEFAULT_INCLUDE
    for suffix, kind in READ_SUFFIXES.items():
        assert kind_for_path(f"spec/page{suffix}") is kind
    assert kind_for_path("spec/page.mdx") is DocumentKind.MARKDOWN
    assert kind_for_path("api/service.proto") is DocumentKind.PROTO
    assert kind_for_path("notes.txt") is None


def test_the_hook_pattern_is_made_of_the_list() -> None:
    assert hook_files_pattern() == expected_files_pattern()


def test_the_hook_runs_on_a_commit_of_any_file_discovery_reads(tmp_path: Path) -> None:
    """As pre-commit reads ``files`` (``re.search`` on each staged path), it selects what
    discovery reads with the default configuration, and the files that configure the reading."""
    names = [
        *(f"page{suffix}" for suffix in READ_SUFFIXES),
        *(f"spec/deep/page{suffix}" for suffix in READ_SUFFIXES),
        *SETTINGS_FILES,
        *(f"corpus/{name}" for name in SETTINGS_FILES),
        "src/main.py",
        "Cargo.toml",
        "notes.txt",
        "page.md.orig",
        "logo.png",
        "spec/mdx",
        "my-speclint.toml",
    ]
    root = write_files(tmp_path / "repo", dict.fromkeys(names, "{}\n"))
    read = set(discover(root, Config(), listing(root)))
    pattern = re.compile(hook_files_pattern())
    selected = {name for name in names if pattern.search(name)}
    assert selected == read | {name for name in names if name.rpartition("/")[2] in SETTINGS_FILES}
    assert {"page.mdx", "page.proto", "page.jsonc", "spec/deep/page.mdx"} <= selected
    assert not {"Cargo.toml", "notes.txt", "page.md.orig", "my-speclint.toml"} & selected


def test_the_hook_runs_on_a_commit_of_a_file_read_in_another_letter_case(tmp_path: Path) -> None:
    """Issue 44 review, item 14: with ``include = ["**/*.MD"]`` speclint reads `docs/PAGE.MD`;
    a commit touching only it must run the hook."""
    names = ["docs/PAGE.MD", "docs/Api.Proto", "schemas/A.JSON", "notes.TXT"]
    root = write_files(tmp_path / "repo", dict.fromkeys(names, "{}\n"))
    config = Config(include=("**/*.MD", "**/*.Proto", "**/*.JSON"))
    read = set(discover(root, config, listing(root)))
    assert read == set(names) - {"notes.TXT"}
    pattern = re.compile(hook_files_pattern())
    assert {name for name in names if pattern.search(name)} == read
    # The settings files are named exactly, as speclint looks for them.
    assert not pattern.search("SPECLINT.TOML") and pattern.search("corpus/speclint.toml")


def test_the_editor_set_ups_name_every_kind_read() -> None:
    pytest.importorskip("pygls", reason="the language server is the speclint[lsp] extra")
    from speclint.frontends.lsp import NEOVIM_FILETYPES, VSCODE_LANGUAGES

    assert list(VSCODE_LANGUAGES) == list(READ_SUFFIXES)
    assert list(NEOVIM_FILETYPES) == list(READ_SUFFIXES)
    section = page("editor")
    block = re.search(r"```json\n(.*?)```", section, re.DOTALL)
    assert block is not None
    settings = json.loads(block.group(1))
    assert settings["glspc.server.languageId"] == list(dict.fromkeys(VSCODE_LANGUAGES.values()))
    lua = re.search(r"filetypes = \{([^}]*)\}", section)
    assert lua is not None
    filetypes = [name.strip().strip('"') for name in lua.group(1).split(",")]
    assert filetypes == list(dict.fromkeys(NEOVIM_FILETYPES.values()))
    for suffix in READ_SUFFIXES:
        assert f"`{suffix}`" in section


@pytest.mark.parametrize("title", ["pre-commit", "configuration", "editor"])
def test_the_documentation_names_every_kind_read(title: str) -> None:
    section = page(title)
    missing = [suffix for suffix in READ_SUFFIXES if f"`{suffix}`" not in section]
    assert missing == [], f"{title} does not name {missing}"


def test_the_documentation_says_which_settings_files_run_the_hook() -> None:
    section = page("pre-commit")
    assert [name for name in SETTINGS_FILES if f"`{name}`" not in section] == []


def test_the_hook_command_judges_a_commit_of_an_mdx_page_alone(tmp_path: Path) -> None:
    """``speclint hook`` itself (what the pre-commit hook runs) reads a commit that changes only
    an MDX page: its broken example is the commit's finding."""
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {
            "Message": {
                "type": "object",
                "properties": {"kind": {"const": "message"}, "role": {"enum": ["user", "agent"]}},
                "required": ["kind", "role"],
            }
        },
    }
    good = '# Messages\n\n```json\n{"kind": "message", "role": "user"}\n```\n'
    repo = write_files(
        tmp_path / "repo",
        {"schemas/protocol.json": json.dumps(schema), "docs/messages.mdx": good},
    )

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=a", "-c", "user.email=a@example.org", "commit", "-q", "-m", "base")
    (repo / "docs/messages.mdx").write_text(good.replace('"user"', '"robot"'))
    git("add", "-A")
    done = subprocess.run(
        [sys.executable, "-m", "speclint", "hook"], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "docs/messages.mdx:4:21:" in done.stdout and "[example-invalid]" in done.stdout
