"""`m2lsp convert`: between CGED SGML, truth files, M2 and parallel text."""

from __future__ import annotations

import argparse


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Nothing yet."""
