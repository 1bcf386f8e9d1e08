"""M2, the format every other converts through.  Its model is `m2lsp.model` and its parser
`m2lsp.parsing.m2` (with the compiled scanner `parsing/_m2scan.c`): nearly every room reads
them, so they stay where they are.  Here: what conversions read of an M2 document
(`sentences.py`) and the order of its annotators (`annotators.py`)."""
