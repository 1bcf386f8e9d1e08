"""BEA-2019 JSON essays (one `{"text", "edits"}` object a line): the model, the parser, and
the conversions to M2 (as the release's `json_to_m2.py -gold`) and from it.  Rules:
`m2lsp.rules.bea_json`."""
