"""Parallel text: a source and one correction per annotator on each line, tab separated.
M2 to parallel text is `conversion.py`; parallel text to M2 is annotation
(`m2lsp.annotation.parallel`), which aligns each pair."""
