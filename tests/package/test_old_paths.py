"""The flat layout's import paths still work for one release (issue 27): the same modules and
classes, with a DeprecationWarning that names the new path."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from speclint.old_paths import MOVED, new_name


def test_every_old_module_names_a_module_that_exists() -> None:
    for old in MOVED:
        new = new_name(f"speclint.{old}")
        assert new is not None
        assert importlib.import_module(new).__name__ == new


def test_new_name_leaves_other_names_alone() -> None:
    assert new_name("speclint.rules") is None
    assert new_name("speclint.model.corpus") is None
    assert new_name("speclint.corpus.x") is None  # only reporters was a package
    assert new_name("speclint.reporters.text_report") == "speclint.outputs.reporters.text_report"
    assert new_name("corpus") is None


def test_an_old_path_gives_the_same_module_with_a_warning() -> None:
    # In a fresh interpreter: this one has imported the new paths already.
    code = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    import speclint.runner\n"
        "except DeprecationWarning as warning:\n"
        "    print(warning)\n"
        "warnings.simplefilter('ignore')\n"
        "from speclint.corpus import Document as Old\n"
        "from speclint.model.corpus import Document as New\n"
        "from speclint.reporters.text_report import shown_path as old_shown\n"
        "from speclint.outputs.reporters.text_report import shown_path as new_shown\n"
        "import speclint.outputs.reporters.text_report as moved, sys\n"
        "print(Old is New, old_shown is new_shown,"
        " sys.modules['speclint.reporters.text_report'] is moved)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    first, second = run.stdout.splitlines()
    assert first.startswith("speclint.runner moved to speclint.run.runner")
    assert second == "True True True"


def test_an_old_path_warns_in_this_process_too() -> None:
    sys.modules.pop("speclint.cli", None)  # an earlier import would answer without the finder
    with pytest.warns(DeprecationWarning, match="speclint.cli moved to speclint.frontends.cli"):
        import speclint.cli  # noqa: F401


def test_the_finder_imports_no_abstract_base_classes() -> None:
    # `importlib.abc` brings in `importlib.resources` and its imports: milliseconds of every
    # command's start, `speclint hook`'s through its checker among them (issue 51). Counted in a
    # fresh interpreter, from after its start (`site` may have imported them for itself).
    probe = (
        "import sys; before = set(sys.modules); import speclint; "
        "print(sorted({'importlib.abc', 'importlib.resources'} & (set(sys.modules) - before)))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
