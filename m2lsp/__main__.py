"""`python -m m2lsp ...`"""

from m2lsp.cli import entry

entry()
