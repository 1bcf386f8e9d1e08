"""Formats m2lsp converts from and to, one module each (BEA-2019 JSON, brat standoff):
reading, writing, and what cannot be carried over, said."""
