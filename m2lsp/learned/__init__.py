"""Learned metrics' models: loading them (hub ids or local folders, one clear error when a
model cannot be had), batching sentences by length, and the models' arithmetic (IMPARA,
SOME, Scribendi, BERTScore).  torch and transformers (the `m2lsp[neural]` extra) are
imported only here and only when a learned metric runs: `import m2lsp` and the other
metrics never load them."""
