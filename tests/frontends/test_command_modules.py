"""The command line's arrangement (issue 50, item 5): one module per command or command group
under ``speclint.frontends.commands``, registered on the group of ``speclint.frontends.cli``; the
options several commands take defined once (``speclint.frontends.options``); and nothing heavy
imported by the command modules before a command runs."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import click

from conftest import REPOSITORY
from speclint.frontends.cli import main

COMMANDS = REPOSITORY / "linter" / "frontends" / "commands"

# Every command of the command line, with its subcommands.
EXPECTED = {
    "afp": (),
    "baseline": ("write",),
    "bindings": (),
    "build": (),
    "changes": (),
    "check": (),
    "daemon": ("start", "status", "stop"),
    "files": (),
    "hook": (),
    "lsp": (),
    "roles": (),
    "rule": (),
    "rules": (),
}


def test_the_command_line_has_its_commands_and_subcommands() -> None:
    found = {
        name: tuple(sorted(command.commands)) if isinstance(command, click.Group) else ()
        for name, command in main.commands.items()
    }
    assert found == EXPECTED


def test_each_command_is_defined_in_a_module_of_its_own_and_every_module_holds_one() -> None:
    modules = {name: main.commands[name].callback.__module__ for name in main.commands}  # type: ignore[union-attr]
    assert all(module.startswith("speclint.frontends.commands.") for module in modules.values())
    # `rule` and `rules` share a module (one rule's documentation, and the list); every other
    # command or group has one.
    assert modules["rule"] == modules["rules"]
    files = {path.stem for path in COMMANDS.glob("*.py") if path.stem != "__init__"}
    assert {module.rsplit(".", 1)[1] for module in modules.values()} == files


def test_an_option_that_check_and_hook_both_take_reads_the_same() -> None:
    def options(name: str) -> dict[str, click.Option]:
        return {
            parameter.name: parameter
            for parameter in main.commands[name].params
            if isinstance(parameter, click.Option) and parameter.name is not None
        }

    check, hook = options("check"), options("hook")
    shared = set(check) & set(hook)
    assert {"fail_on", "config_path", "select", "ignore", "preview", "time_limit"} <= shared
    # The hook's --daemon is one of a pair: it uses a resident checker by default, which
    # --no-daemon turns off (issue 51); check's is a flag. `--daemon` means the same in both.
    assert check["use_daemon"].opts == hook["use_daemon"].opts == ["--daemon"]
    assert hook["use_daemon"].secondary_opts == ["--no-daemon"]
    for name in shared - {"use_daemon"}:
        assert check[name].to_info_dict() == hook[name].to_info_dict(), name


def test_importing_the_command_line_imports_neither_the_engine_nor_the_validators() -> None:
    # `speclint --version`, `--help` and a command that fails on its arguments do not pay for
    # them (the module docstring of speclint.frontends.options).
    probe = (
        "import sys, speclint.frontends.cli; "
        "print(sorted(m for m in ('speclint.run.engine', 'speclint.analyses.context', "
        "'speclint.outputs.reporters', 'jsonschema', 'referencing', 'ruamel.yaml') "
        "if m in sys.modules))"
    )
    imported = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert imported.strip() == "[]"


def test_every_package_of_the_source_tree_is_installed() -> None:
    # pyproject.toml lists the packages one by one (speclint is linter/): one left out is missing
    # from a wheel and from pre-commit's install, while an editable install finds it.
    root = COMMANDS.parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(("speclint", *path.parent.relative_to(root / "linter").parts))
        for path in (root / "linter").rglob("__init__.py")
    }
    assert found - listed == set()
