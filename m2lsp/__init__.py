"""m2lsp: language server, linter and scorer for grammatical-error-correction data."""

__version__ = "0.1.0"
