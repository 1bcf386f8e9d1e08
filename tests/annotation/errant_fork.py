"""Runs MultiGEC-2025's fork of ERRANT (github.com/cainesap/errant, not part of m2lsp: a
checkout of it is given) as its `errant_parallel -lang xx` runs, over a given parse, to
compare m2lsp's output with it:

    python errant_fork.py FORK MODEL ORIG COR... OUT            # an installed spaCy pipeline
    python errant_fork.py FORK --conllu LANG ORIG COR... OUT    # CoNLL-U: ORIG.conllu, ...

The fork's `load` takes the given pipeline (it would load spacy-udpipe's model of the
language, which is not on this machine, and it admits only its 12 languages: the language
code only chooses its Icelandic path, so `cs` is passed); with `--conllu`, its `parse`
returns the sentences spacy-conll reads from the CoNLL-U files beside the text files
(`NAME.conllu`), as its own Icelandic path reads UDPipe's.  Its imports of spacy_udpipe
are given a stand-in module (never called here).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path


def _stand_ins() -> str:
    folder = tempfile.mkdtemp(prefix="errant-fork-")
    (Path(folder) / "spacy_udpipe.py").write_text(
        "def load(*a, **k):\n    raise RuntimeError('not here')\n"
        "load_from_path = load\n"
        "class UDPipeTokenizer:\n    pass\n", encoding="utf-8")
    return folder


def main(argv: list[str]) -> None:
    fork, *rest = argv
    sys.path[:0] = [fork, _stand_ins()]
    import errant
    import errant.commands.parallel_to_m2 as command
    import spacy
    from errant.annotator import Annotator

    assert Path(errant.__file__).resolve().is_relative_to(Path(fork).resolve()), errant.__file__
    if rest[0] == "--conllu":
        lang, files = rest[1], rest[2:]
        nlp = spacy.blank(lang)
        table = _conllu_table(nlp, [Path(f).with_suffix(".conllu") for f in files[:-1]])
        Annotator.parse = lambda self, text, tokenise=True, lang="en": table[  # type: ignore
            "".join(text.split())]
    else:
        model, files = rest[0], rest[1:]
        nlp = spacy.load(model, disable=["ner"])
    annotator = errant.load("cs", nlp)  # the fork's own load, given the pipeline
    errant.load = lambda lang, nlp=None: annotator  # what its command then loads
    sys.argv = ["errant_parallel", "-orig", files[0], "-cor", *files[1:-1], "-out", files[-1],
                "-lang", "cs"]
    command.main()


def _conllu_table(nlp, paths: list[Path]) -> dict:
    """Each sentence of the files, as spacy-conll 4 reads it, by its words."""
    from types import SimpleNamespace

    from spacy_conll.parser import ConllParser

    # its reading of the text, without its formatter component (which this spaCy's config
    # validation refuses to build): the formatter only adds CoNLL-U strings to the Doc
    reader = SimpleNamespace(nlp=SimpleNamespace(vocab=nlp.vocab,
                                                 get_pipe=lambda name: lambda doc: doc))
    table = {}
    for path in paths:
        for chunk in path.read_text(encoding="utf-8").split("\n\n"):
            if chunk.strip():
                doc = ConllParser.parse_conll_text_as_spacy(reader, chunk.strip("\n") + "\n")
                table.setdefault("".join(t.text for t in doc), doc)
    return table


if __name__ == "__main__":
    main(sys.argv[1:])
