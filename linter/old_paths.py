"""The import paths of speclint 0.1's flat layout, kept for one release (issue 27).

Issue 27 moved every module of ``speclint`` into a package of its layer (``speclint.corpus`` is
now ``speclint.model.corpus``; ``docs/architecture.md``). Code that imports an old path still
works: this finder, first on ``sys.meta_path`` from the moment ``speclint`` is imported, answers
an old name with the module at its new place (the same module object, so its classes are the
same classes) and warns with a ``DeprecationWarning`` that names the new path. It answers only the
names in ``MOVED``; everything else is left to Python's own finders. Remove it in 0.3.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # for the type checker only: see OldPaths
    from importlib.abc import Loader

# Each package now, and the old modules (below ``speclint.``) it holds.
LAYERS = {
    "common": "findings progress lifecycle unions parallel writing stack storage",
    "parsing": "reading structured prose links kinds versions dialects gitbase",
    "model": "config corpus",
    "analyses": (
        "references roles lineage rfcs enumerations shapes fingerprints fences policies "
        "schema_catalogs schema_objects satisfiability witnesses validation compat assembly units"
    ),
    "run": "engine runner cache catalog baseline waivers inventory history twins roots",
    "outputs": "build api_bundle afp reporters",
    "frontends": "cli lsp",
}
# The analyses' subpackage of each old analyses module (``context`` and ``units`` stay on top).
ANALYSES = {
    "references": "schemas",
    "roles": "schemas",
    "shapes": "schemas",
    "fingerprints": "schemas",
    "schema_catalogs": "schemas",
    "schema_objects": "schemas",
    "satisfiability": "schemas",
    "witnesses": "schemas",
    "validation": "schemas",
    "lineage": "repository",
    "rfcs": "prose",
    "enumerations": "prose",
    "fences": "prose",
    "policies": "prose",
    "assembly": "prose",
    "compat": "changes",
}
MOVED = {old: package for package, olds in LAYERS.items() for old in olds.split()}


def new_name(old: str) -> str | None:
    """The module an old import path names now, or None when ``old`` is not an old path."""
    parts = old.split(".")
    if len(parts) < 2 or parts[0] != "speclint" or parts[1] not in MOVED:
        return None
    if len(parts) > 2 and parts[1] != "reporters":  # only reporters was a package
        return None
    if MOVED[parts[1]] == "analyses" and parts[1] in ANALYSES:
        # The analyses were grouped by subject after issue 27 (issue 50).
        return f"speclint.analyses.{ANALYSES[parts[1]]}.{parts[1]}"
    return ".".join(["speclint", MOVED[parts[1]], *parts[1:]])


class OldPaths:
    """The finder and loader of the old paths. Python asks a finder on ``sys.meta_path`` only for
    ``find_spec``, and the loader of a spec only for ``create_module`` and ``exec_module`` (the
    import system's protocols, PEP 451): no base class from ``importlib.abc``, whose import
    brings in ``importlib.resources`` and its own imports, a few milliseconds of every command's
    start, ``speclint hook``'s through its checker among them (issue 51)."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if new_name(fullname) is None:
            return None
        # What ``importlib.util.spec_from_loader`` makes of a loader without ``get_filename``
        # or ``is_package``: a spec of a module, not a package, with no origin.
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = new_name(spec.name)
        assert new is not None  # find_spec answered only old names
        warnings.warn(
            f"{spec.name} moved to {new} (issue 27); the old path goes in speclint 0.3",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module at the new path is already executed."""


def install() -> None:
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        # First: Python's path finder would otherwise load ``speclint.reporters.text_report``
        # again, as a second module, from the moved package's folder.
        sys.meta_path.insert(0, OldPaths())
