"""Parsing: bytes to text, text to the document model (`m2lsp.model`)."""
