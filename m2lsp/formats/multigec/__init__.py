"""MultiGEC-2025 essays (`### essay_id = N` Markdown): the model, the parser, and pairing
an original with its corrections as parallel columns.  Rules: `m2lsp.rules.multigec`."""
