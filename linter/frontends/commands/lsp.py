"""``speclint lsp``: the language server on stdio (``speclint.frontends.lsp``)."""

from __future__ import annotations

import click

from speclint.frontends.options import fail


@click.command(name="lsp")
def language_server() -> None:
    """Run the language server on stdio: diagnostics for every file of the workspace's corpus
    while you type (install the extra: pip install 'speclint[lsp]')."""
    try:
        # Deferred: the language server needs the lsp extra (pygls).
        from speclint.frontends.lsp import serve
    except ImportError as error:
        fail(f"the language server needs pygls ({error}): pip install 'speclint[lsp]'")
    serve()
