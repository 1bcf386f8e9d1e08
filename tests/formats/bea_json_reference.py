"""Runs a copy of the BEA-2019 release's `json_to_m2.py` (not part of m2lsp: its path is
given) as `json_to_m2.py JSON -out OUT -gold` runs, over a given spaCy pipeline, to compare
`m2lsp convert JSON --to m2` with it:

    python bea_json_reference.py SCRIPT MODEL JSON OUT

The script loads spaCy's old `en` shortcut, which spaCy 3 has not: it is given the named
pipeline instead.  Later copies of the script hard-code `sent_tokenised=True` (for texts
already cut into sentences); the release cut paragraphs into sentences, so its `get_sents`
is called with the flag off.
"""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str]) -> None:
    script, model, json_file, out = argv
    import spacy

    load = spacy.load
    spacy.load = lambda name, *a, **k: load(model, *a, **k)  # its "en"
    spec = importlib.util.spec_from_file_location("json_to_m2", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cut = module.get_sents
    module.get_sents = lambda orig, edits, *flag, **named: cut(orig, edits, False)
    sys.argv = ["json_to_m2.py", json_file, "-out", out, "-gold"]
    module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
