"""The rules, one module per family; importing this package registers them all in
`m2lsp.rules.base.RULES`."""

from m2lsp.rules import (  # noqa: F401
    cged,
    cged_input,
    cged_truth,
    m2_annotators,
    m2_edits,
    m2_offsets,
    m2_structure,
    text,
)
