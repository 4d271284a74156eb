"""Instructions that resolve (issue 25, item 9): the README's Install commands work as written in a
fresh virtual environment, the tour of docs/getting-started.md leaves the checkout as it was, the release workflow that would publish v0.1.0 is a valid workflow that
checks the tag against the versions before it publishes, and a virtual environment made by the
instructions is not committed."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from test_action import load, vendored

from conftest import OPENWOP, REPOSITORY, snapshot_checkout, write_files

CLONE_URL = "https://github.com/speclint/speclint.git"
EXPRESSION = re.compile(r"\$\{\{")


def readme_block(heading: str) -> str:
    """The first ```sh block of the README section under ``heading``."""
    readme = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert found, f"the README's {heading} section has no sh block"
    return found.group(1)


def tour_blocks() -> list[str]:
    """The ```sh blocks of the tour (docs/getting-started.md): its section up to the next."""
    page = (REPOSITORY / "docs" / "getting-started.md").read_text(encoding="utf-8")
    tour = page.split("\n## A 60-second tour\n", 1)[1].split("\n#", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", tour, re.S)


# The tests that failed once the tour had left `corpus/build/` in the checkout (issue 44, item 11).
AFTER_THE_TOUR = (
    "tests/outputs/test_build.py::test_check_passes_after_build_and_fails_after_a_schema_edit",
    "tests/corpus/test_trust.py::test_a_forged_manifest_cannot_make_the_build_delete",
    "tests/corpus/test_trust.py::test_a_committed_output_symlink_out_of_the_root_is_refused",
    "tests/corpus/test_trust.py::test_writes_into_a_read_only_folder_fail_clearly",
)


def release_version() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "release_version", REPOSITORY / "scripts" / "release_version.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def workflow(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = load(
        (REPOSITORY / ".github" / "workflows" / name).read_text(encoding="utf-8")
    )
    jsonschema.validate(loaded, vendored("github-workflows"))
    return loaded


@pytest.mark.slow
def test_the_readme_install_commands_work_as_written(tmp_path: Path) -> None:
    """The Install block, run line for line by bash in a fresh folder: the clone (from a
    repository holding this checkout, in place of the URL), a new venv with nothing of this
    interpreter's packages, the install from PyPI, and the first check."""
    commands = readme_block("Install")
    assert CLONE_URL in commands, "the Install block no longer clones speclint"
    # Named as the URL names it, so `git clone` makes the folder the next line enters.
    origin = tmp_path / "remote" / "speclint"
    snapshot_checkout(origin)
    user = tmp_path / "user"
    user.mkdir()
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PIP_USER"}
    }
    # `python3` is this interpreter (pyenv shims could pick another); its packages are not seen by
    # the venv the README makes.
    environment["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environment["PATH"]])
    ran = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", commands.replace(CLONE_URL, origin.as_posix())],
        cwd=user,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    clone = user / "speclint"
    assert (clone / ".venv" / "bin" / "speclint").is_file(), ran.stderr[-3000:]
    assert "speclint, version" in ran.stdout, ran.stderr[-3000:]
    # The last command is the tour's first check: corpus/ is seeded with errors, so it exits 1
    # with its findings and the line that says what was checked.
    assert ran.returncode == 1, (ran.returncode, ran.stderr[-3000:])
    assert "[parse-error]" in ran.stdout
    assert "speclint: checked " in ran.stdout + ran.stderr
    # The venv is the installed speclint's, not this interpreter's.
    where = subprocess.run(
        [
            str(clone / ".venv" / "bin" / "python"),
            "-c",
            "import speclint; print(speclint.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where.strip()).is_relative_to(clone)
    # The venv the instructions make is not something git would commit.
    ignored = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert ".venv" not in ignored


@pytest.mark.slow
def test_the_readme_tour_leaves_the_checkout_as_it_found_it(tmp_path: Path) -> None:
    """The tour's commands, run by bash as written in a clone of this checkout (beside a
    `../shared` that holds OpenWOP when this machine has it), write nothing into the clone; and the
    tests that once failed after a build into `corpus/build/` pass in a clone that has one."""
    blocks = tour_blocks()
    assert len(blocks) == 2 and "speclint build corpus/" in blocks[1], blocks
    origin = tmp_path / "origin"
    snapshot_checkout(origin)
    # The tour compares with origin/main, as in a clone of speclint.
    subprocess.run(["git", "branch", "-M", "main"], cwd=origin, check=True, capture_output=True)
    clone = tmp_path / "work" / "speclint"
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True, capture_output=True)
    if (OPENWOP / "SNAPSHOT.md").is_file():
        (clone.parent / "shared").symlink_to(OPENWOP.parent, target_is_directory=True)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    failures = tmp_path / "failures"
    environment = {
        **os.environ,
        # This interpreter's speclint, the one under test; mktemp makes its folder here.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
        "TMPDIR": str(temporary),
        "TOUR_FAILURES": str(failures),
    }
    # Every command that fails says its exit code: 1 (findings) is what the tour expects.
    record = """trap 'echo "$? $BASH_COMMAND" >> "$TOUR_FAILURES"' ERR\n"""
    ran = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", record + "\n".join(blocks)],
        cwd=clone,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert "Traceback" not in ran.stderr, ran.stderr[-3000:]
    failed = failures.read_text(encoding="utf-8").splitlines() if failures.exists() else []
    for line in failed:
        code, command = line.split(" ", 1)
        absent = "openwop" in command and not (clone.parent / "shared").exists()
        assert code == "1" or absent, (line, ran.stderr[-3000:])
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=all"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == "", status.stdout
    # The build went to the tour's own folder.
    (tour,) = temporary.iterdir()
    assert (tour / "build" / "catalog.json").is_file(), ran.stderr[-3000:]

    # A reader who goes on to "Building self-contained schemas" builds into corpus/build/: the
    # suite does not depend on its absence.
    built = subprocess.run(
        [sys.executable, "-m", "speclint", "build", "corpus/"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (clone / "corpus/build/catalog.json").is_file(), built.stderr
    suite = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            *AFTER_THE_TOUR,
        ],
        cwd=clone,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert suite.returncode == 0, suite.stdout[-5000:] + suite.stderr[-2000:]
    assert " passed" in suite.stdout and "skipped" not in suite.stdout, suite.stdout[-2000:]


def test_the_release_workflow_checks_the_tag_then_tests_builds_and_publishes() -> None:
    release = workflow("release.yml")
    # GitHub reads `on:` as a key (YAML 1.2); only version tags start a release.
    assert release["on"] == {"push": {"tags": ["v[0-9]+.[0-9]+.[0-9]+"]}}
    assert release["permissions"] == {"contents": "read"}
    jobs = release["jobs"]
    build = [step.get("run", "") for step in jobs["build"]["steps"]]
    order = [
        next(i for i, run in enumerate(build) if "scripts/release_version.py" in run),
        next(i for i, run in enumerate(build) if run == "bash .ci/run"),
        next(i for i, run in enumerate(build) if "python -m build" in run),
    ]
    assert order == sorted(order), "the tag is checked, then the tests run, then the build"
    # Trusted publishing: a short-lived token for the publishing job only, nothing stored.
    assert jobs["publish"]["permissions"] == {"id-token": "write"}
    assert jobs["publish"]["needs"] == "build"
    assert any(
        step.get("uses", "").startswith("pypa/gh-action-pypi-publish@")
        for step in jobs["publish"]["steps"]
    )
    assert "secrets." not in (REPOSITORY / ".github/workflows/release.yml").read_text()
    assert set(jobs["release"]["needs"]) == {"build", "publish"}
    # The tag name reaches the scripts through env only: a `${{ }}` in a run would let a crafted
    # tag name inject shell code.
    for job in jobs.values():
        for step in job["steps"]:
            assert not EXPRESSION.search(step.get("run", "")), step


def test_ci_workflow_runs_the_ci_script() -> None:
    ci = workflow("ci.yml")
    assert [step.get("run") for step in ci["jobs"]["test"]["steps"]][-1] == "bash .ci/run"


def test_the_release_tag_must_name_the_versions_in_the_tree(tmp_path: Path) -> None:
    versions = release_version()
    current = versions.package_version(REPOSITORY)
    assert versions.module_version(REPOSITORY) == current
    major = current.split(".")[0]
    assert versions.check(f"v{current}") == f"v{major}"
    # A tree bumped in one place only stops the release, naming the file that lags.
    write_files(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "speclint"\nversion = "0.2.0"\n',
            "linter/__init__.py": '"""speclint."""\n\n__version__ = "0.1.0"\n',
        },
    )
    with pytest.raises(ValueError, match=r"linter/__init__\.py says 0\.1\.0"):
        versions.check("v0.2.0", tmp_path)
    with pytest.raises(ValueError, match=r"pyproject\.toml says 0\.2\.0"):
        versions.check("v0.1.0", tmp_path)
    for tag in ("0.2.0", "v0.2", "v0.2.0-rc1", "v01.2.0"):
        with pytest.raises(ValueError, match="not a release tag"):
            versions.check(tag, tmp_path)
    # The script as the workflow runs it: the major tag on stdout, exit 1 and the reason otherwise.
    script = REPOSITORY / "scripts" / "release_version.py"
    ok = subprocess.run(
        [sys.executable, str(script), f"v{current}"], capture_output=True, text=True
    )
    assert (ok.returncode, ok.stdout) == (0, f"v{major}\n")
    bad = subprocess.run([sys.executable, str(script), "v99.0.0"], capture_output=True, text=True)
    assert bad.returncode == 1 and "pyproject.toml says" in bad.stderr


def test_a_virtual_environment_is_ignored() -> None:
    for path in (".venv/bin/python", "venv/pyvenv.cfg"):
        ignored = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=REPOSITORY)
        assert ignored.returncode == 0, path
