"""`m2lsp score` and `m2lsp compare` (the scorers' command line)."""

from __future__ import annotations

import argparse


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Nothing yet."""
