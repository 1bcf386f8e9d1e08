"""m2lsp's version: the bottom floor of the house, so that any room can name it without
importing the package face (`m2lsp/__init__.py`); pyproject.toml reads it from here."""

__version__ = "0.1.0"
