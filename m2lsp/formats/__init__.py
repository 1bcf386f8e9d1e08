"""The formats m2lsp reads, writes and converts, one folder each: its model (`model.py`),
its parser (`parser.py`; the Lark grammar stays in the top-level `grammar/`), its writer
(`writer.py`) and its conversions to and from M2 (`conversion.py`), as it has them.  Its
rules are a family in `m2lsp.rules`; what a conversion could not carry over is an
`unconverted.Unconverted`.  M2 is the exception: see `m2/__init__.py`."""
