"""brat standoff (`X.ann` beside `X.txt`): detection and the conversions to and from M2,
with the configurations brat needs to show the types.  No rule family: m2lsp does not lint
brat files; `m2lsp check` checks the M2 they convert to."""
