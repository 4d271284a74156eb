"""speclint: a linter for specification corpora (JSON Schema, OpenAPI, AsyncAPI, Markdown).

The package is in layers (``docs/architecture.md``): ``common``, ``parsing``, ``model``,
``analyses``, ``run``, ``outputs``, ``frontends``; the rules are ``speclint.rules``.
"""

from speclint.old_paths import install

__version__ = "0.1.0"

install()
