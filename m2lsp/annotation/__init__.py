"""Annotation: a source sentence and its corrections in, M2 edits out.

English edits come from ERRANT itself (the `errant` package: its alignment, merging and
classifier over a spaCy parse), written byte for byte as errant_parallel writes them; m2lsp
adds the parse cache, batching and parallel workers around it.  Needs the extra
`m2lsp[errant]` and a spaCy pipeline (`en_core_web_sm`).
"""
