"""The Lark grammars of the formats m2lsp reads, installed as the package `m2lsp.grammar`."""
