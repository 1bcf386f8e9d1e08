"""`m2lsp serve`: the language server."""

from __future__ import annotations

import argparse


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Nothing yet."""
