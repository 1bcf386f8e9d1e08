"""Annotation with ERRANT: errant_parallel's output for a source and its corrections,
computed with the `errant` package itself over a spaCy pipeline -- for English as errant
3.0.2 does it, for any other language as MultiGEC-2025's fork does it (`languages`: the
English merger and classifier over a UD parse, from a pipeline or from CoNLL-U files).

What m2lsp adds is speed, not edits: parses come from the parse cache or from spaCy's batched
`nlp.pipe` (the same parses as one at a time), and ERRANT's alignment is handed the tokens as a
list (its own code, without making a new token object at each step of its table).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import m2lsp.defaults as defaults
from m2lsp.annotation.parse_cache import ParseCache
from m2lsp.annotation.pipelines import meta_of, resolve
from m2lsp.errors import InputError, UsageError

INSTALL = "pip install 'm2lsp[errant]'"
FORMAT = "1"  # of the cached parses: text, spaces, lemmas, tags, POS, dependencies, heads


@dataclass(frozen=True)
class EnglishSettings:
    """errant_parallel's flags, the spaCy pipeline, and the language (ERRANT's settings:
    English by errant 3.0.2, another language by the MultiGEC route)."""

    tokenise: bool = False  # -tok: spaCy tokenises (else the text is split at whitespace)
    lev: bool = False  # -lev: standard Levenshtein alignment
    merge: str = defaults.MERGES[0]  # -merge
    model: str | None = None  # None: not named (en_core_web_sm, or the one installed)
    lang: str = "en"
    conllu: tuple[str, ...] = ()  # CoNLL-U files whose sentences are the parses (no model)


def load_errant() -> Any:
    try:
        import errant
        import spacy  # noqa: F401
    except ImportError as exc:
        raise UsageError(f"English annotation needs ERRANT and spaCy ({exc.name} is not "
                         f"installed): {INSTALL}") from None
    if errant.__version__ != "3.0.2":
        raise UsageError(f"m2lsp reproduces errant 3.0.2, but errant {errant.__version__} is "
                         f"installed: {INSTALL}")
    return errant


@cache  # a package's metadata is read from disk (4 ms), and a server types many edits
def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        raise UsageError(f"English annotation needs ERRANT and spaCy ({package} is not "
                         f"installed): {INSTALL}") from None


def check_errant() -> None:
    """What `load_errant` checks, from the installed packages' metadata (without importing
    spaCy, which takes half a second)."""
    import importlib.util

    for package in ("errant", "spacy"):
        try:
            found = importlib.util.find_spec(package)
        except (ImportError, ValueError):  # e.g. blocked in sys.modules
            found = None
        if found is None:
            raise UsageError(f"English annotation needs ERRANT and spaCy ({package} is not "
                             f"installed): {INSTALL}")
    installed = _version("errant")
    if installed != "3.0.2":
        raise UsageError(f"m2lsp reproduces errant 3.0.2, but errant {installed} is "
                         f"installed: {INSTALL}")


@cache
def pipeline(model: str, lang: str = "en") -> tuple[Any, Any]:
    """The spaCy pipeline `model` (without its entity recogniser, as errant loads it) and
    an ERRANT annotator over it (for a language other than English, the MultiGEC one),
    loaded once per process."""
    errant = load_errant()
    import spacy

    try:
        nlp = spacy.load(model, exclude=["ner"])  # errant disables it; never run, never read
    except (OSError, TypeError, ValueError) as exc:
        from m2lsp.annotation.pipelines import HOW

        raise UsageError(f"the spaCy pipeline {model!r} cannot be loaded ({exc}); {HOW}"
                         ) from None
    if lang == "en":
        return nlp, errant.load("en", nlp)
    from m2lsp.annotation.languages import ud_annotator

    return nlp, ud_annotator(lang, nlp)


@cache
def conllu_parses(lang: str, paths: tuple[str, ...]) -> tuple[Any, Any]:
    """A blank pipeline of the language (its vocabulary: no model), with the sentences of
    the CoNLL-U files by their words (`nlp.m2lsp_conllu`), and the MultiGEC annotator."""
    load_errant()
    import spacy

    from m2lsp.annotation import conllu
    from m2lsp.annotation.languages import ud_annotator

    try:
        nlp = spacy.blank(lang)
    except (ImportError, KeyError, ValueError):
        nlp = spacy.blank("xx")
    table: dict[str, Any] = {}
    for path in paths:
        for words in conllu.sentences(Path(path)):
            table.setdefault("".join(w.form for w in words), words)
    setattr(nlp, "m2lsp_conllu", table)  # noqa: B010 (kept with the pipeline it makes Docs of)
    return nlp, ud_annotator(lang, nlp)


class EnglishAnnotator:
    """One pipeline; `block(orig, cors)` is errant_parallel's M2 block for a line.  The
    pipeline is loaded when a line needs parsing (`load`): when every block comes from the
    cache, spaCy is not even imported (most of a warm command's time)."""

    def __init__(self, settings: EnglishSettings, cache: ParseCache | None = None) -> None:
        self.settings = settings
        self._loaded: tuple[Any, Any] | None = None
        self.cache = cache if cache is not None else ParseCache(None)
        check_errant()
        if settings.conllu:
            from m2lsp.annotation.conllu import digest

            self.model = ""
            self.model_id = f"conllu-{digest(tuple(Path(p) for p in settings.conllu))}"
        else:
            self.model = resolve(settings.model, settings.lang)
            meta = meta_of(self.model)
            if meta is None:  # no meta.json where the pipeline is: its own, once loaded
                meta = self.nlp.meta
            self.model_id = (f"{meta.get('lang', '')}_{meta.get('name', '')}-"
                             f"{meta.get('version', '')}")
        self.namespace = (f"{self.model_id}|spacy-{_version('spacy')}|"
                          f"tok-{int(settings.tokenise)}|lang-{settings.lang}|format-{FORMAT}")

    def load(self) -> None:
        """Load the pipeline now (before forking workers, which then share it)."""
        if self._loaded is None:
            self._loaded = (conllu_parses(self.settings.lang, self.settings.conllu)
                            if self.settings.conllu
                            else pipeline(self.model, self.settings.lang))

    @property
    def nlp(self) -> Any:
        self.load()
        assert self._loaded is not None
        return self._loaded[0]

    @property
    def errant(self) -> Any:
        self.load()
        assert self._loaded is not None
        return self._loaded[1]

    @property
    def versions(self) -> dict[str, str]:
        """What made the edits: errant's version and the pipeline's name and version (or
        the CoNLL-U files' digest); another language than English says the MultiGEC
        route (the English merger and classifier over UD tags)."""
        settings = self.settings
        route = "" if settings.lang == "en" else f"-ud-{settings.lang}"
        chosen = {"annotator": f"errant-{_version('errant')}{route}",
                  "spacy-model": self.model_id}
        chosen.update({"tok": "yes"} if settings.tokenise else {})
        chosen.update({"lev": "yes"} if settings.lev else {})
        if settings.merge != defaults.MERGES[0]:
            chosen["merge"] = settings.merge
        return chosen

    def parse(self, texts: Sequence[str]) -> list[Any]:
        """Parses of `texts`, as errant's `Annotator.parse(text, tok)` makes them."""

        unique = list(dict.fromkeys(texts))
        keys = {t: ParseCache.key(self.namespace, t) for t in unique}
        stored = self.cache.get(list(keys.values()))
        docs: dict[str, Any] = {}
        for text in unique:
            if (data := stored.get(keys[text])) is not None:
                with contextlib.suppress(ValueError, TypeError):  # unreadable: parse again
                    docs[text] = unpacked(self.nlp.vocab, data)
        fresh = [t for t in unique if t not in docs]
        new = []
        for text, doc in zip(fresh, self._parsed(fresh), strict=True):
            docs[text] = doc
            new.append((keys[text], packed(doc)))
        self.cache.put(new)
        return [docs[t] for t in texts]

    def _parsed(self, texts: list[str]) -> list[Any]:
        """New parses: errant 3.0.2's (English: split at whitespace, or -tok), the fork's
        (another language: its cut at single spaces; with --tok, the pipeline's tokenizer),
        or the CoNLL-U files' sentences."""
        from spacy.tokens import Doc

        nlp = self.nlp
        if self.settings.conllu:
            return [self._from_conllu(nlp, t) for t in texts]
        if self.settings.lang != "en":
            from m2lsp.annotation.languages import whitespace_doc

            # --tok: the pipeline's own tokenizer (the fork's -tok ran UDPipe's, which is not
            # reproduced); else the fork's cut at single spaces
            inputs = [_tokenised(nlp, t) if self.settings.tokenise
                      else whitespace_doc(nlp.vocab, t) for t in texts]
        else:
            inputs = [nlp.make_doc(t) if self.settings.tokenise else Doc(nlp.vocab, t.split())
                      for t in texts]
        return piped(nlp, inputs)

    def _from_conllu(self, nlp: Any, text: str) -> Any:
        from m2lsp.annotation.conllu import doc_of

        words = nlp.m2lsp_conllu.get("".join(text.split()))
        if words is None:
            raise InputError(f"no sentence of the CoNLL-U files ({', '.join(self.settings.conllu)})"
                             f" has the words of {text[:60]!r}: give one parse per line of "
                             "the text, in order")
        return doc_of(nlp.vocab, words)

    def edits(self, orig: Any, cor: Any) -> list[Any]:
        """errant's `Annotator.annotate(orig, cor, lev, merge)`, the alignment compiled
        (`aligned`)."""
        alignment = aligned(orig, cor, self.settings.lev)
        edits = self.errant.merge(alignment, self.settings.merge)
        for edit in edits:
            self.errant.classify(edit)
        return edits

    def close(self) -> None:
        self.cache.close()

    @property
    def edit_namespace(self) -> str:
        """What a block of edits depends on, beyond its text."""
        from m2lsp.version import __version__

        settings = self.settings
        return (f"edits|{self.namespace}|{'|'.join(f'{k}-{v}' for k, v in self.versions.items())}"
                f"|lev-{int(settings.lev)}|merge-{settings.merge}|m2lsp-{__version__}")

    def blocks(self, lines: Sequence[tuple[str, Sequence[str]]], first: int = 0
               ) -> list[str | None]:
        """errant_parallel's block for each (source line, correction lines): the `S` line,
        each correction's edits (a noop when it equals the source), a blank line; None
        where the source is empty (errant_parallel writes nothing for it).  Blocks made
        before for the same lines come from the cache."""
        from m2lsp.annotation.edit_cache import cached_blocks

        return cached_blocks(self.cache, self.edit_namespace, lines, first,
                             lambda rows: self._fresh([(o, c) for _, o, c in rows]))

    def stored(self, lines: Sequence[tuple[str, Sequence[str]]]) -> list[str | None] | None:
        """Every line's block from the cache, or None if one is not there."""
        from m2lsp.annotation.edit_cache import stored_blocks

        return stored_blocks(self.cache, self.edit_namespace, lines)

    def _fresh(self, lines: Sequence[tuple[str, Sequence[str]]]) -> list[str | None]:
        for orig, cors in lines:  # before anything of the chunk is parsed
            if (problem := length_problem(self.settings, orig, cors)) is not None:
                raise InputError(problem)
        origs = [orig.strip() for orig, _ in lines]
        parsed = self.parse([o for o in origs if o])
        orig_docs = iter(parsed)
        docs = [next(orig_docs) if o else None for o in origs]
        surfaces = [None if doc is None else surface(doc) for doc in docs]
        wanted = [c.strip() for seen, (_, cors) in zip(surfaces, lines, strict=True)
                  if seen is not None for c in cors if seen[1] != c.strip()]
        cor_docs = dict(zip(wanted, self.parse(wanted), strict=True))
        return [None if doc is None or seen is None else self._block(doc, seen, cors, cor_docs)
                for doc, seen, (_, cors) in zip(docs, surfaces, lines, strict=True)]

    def _block(self, orig: Any, seen: tuple[list[str], str], cors: Sequence[str],
               cor_docs: dict[str, Any]) -> str:
        """`seen`: the source's `surface`."""
        rows = [" ".join(["S", *seen[0]])]
        for cor_id, cor in enumerate(cors):
            if seen[1] == cor.strip():  # errant_parallel's `unchanged`
                rows.append(noop_edit(cor_id))
                continue
            rows.extend(edit.to_m2(cor_id) for edit in self.edits(orig, cor_docs[cor.strip()]))
        return "\n".join(rows) + "\n\n"


try:  # built from _errant_align.c when a C compiler was there at install time
    from m2lsp.annotation import _errant_align as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised where no compiler is installed
    compiled = None


MAX_CELLS = 25_000_000  # of one alignment table (about 300 MB in C, gigabytes in errant's)
# tokens of one side at most: spaCy holds about 8 KB a token while it parses (1M tokens a
# side took 15.9 GB), so 50,000 is about 400 MB, as much as the largest table allowed
MAX_SIDE_TOKENS = MAX_CELLS // 500


def length_problem(settings: EnglishSettings, orig: str, cors: Sequence[str]) -> str | None:
    """Why a line cannot be annotated within the bounds, told from its text before any
    parse (so the memory a parse would take is never spent on it), or None.  Without
    `tokenise` a side's tokens are its whitespace-separated words, exactly; with it spaCy
    may cut them further, never into more tokens than the text has characters: each side
    is bounded by that upper count, and the table by the words (a lower count; the
    parsed table is checked again before it is filled)."""
    orig = orig.strip()
    words = len(orig.split())
    if _most_tokens(settings, orig) > MAX_SIDE_TOKENS:
        return _too_long("sentence", orig, settings)
    for cor in cors:
        cor = cor.strip()
        if cor == orig:
            continue
        if _most_tokens(settings, cor) > MAX_SIDE_TOKENS:
            return _too_long("correction", cor, settings)
        theirs = len(cor.split())
        if (words + 1) * (theirs + 1) > MAX_CELLS:
            return (f"a sentence of {words:,} tokens and its correction of {theirs:,} are "
                    f"too long to align (a table of more than {MAX_CELLS:,} cells); the "
                    f"sentence starts {orig[:60]!r}")
    return None


def _most_tokens(settings: EnglishSettings, text: str) -> int:
    return len(text) if settings.tokenise else len(text.split())


def _too_long(what: str, text: str, settings: EnglishSettings) -> str:
    size = (f"{len(text):,} characters (spaCy may make a token of each)" if settings.tokenise
            else f"{len(text.split()):,} tokens")
    return (f"a {what} of {size} is longer than the {MAX_SIDE_TOKENS:,} tokens a side may "
            f"have (parsing it would take gigabytes); it starts {text[:60]!r}")


def aligned(orig: Any, cor: Any, lev: bool, use_compiled: bool = True) -> Any:
    """errant's `Alignment(orig, cor, lev)` of two parses: its table filled in C when the
    compiled core is there (only `align_seq`, what the mergers read, is set), else by errant
    itself over the tokens as lists (the same table, faster to index than the Doc).  A pair
    whose table would pass MAX_CELLS is an InputError naming it."""
    from errant.alignment import Alignment

    if (len(orig) + 1) * (len(cor) + 1) > MAX_CELLS:
        raise InputError(f"a sentence of {len(orig):,} tokens and its correction of "
                         f"{len(cor):,} are too long to align (a table of more than "
                         f"{MAX_CELLS:,} cells); the sentence starts {orig.text[:60]!r}")

    if not use_compiled or compiled is None:
        alignment = Alignment(list(orig), list(cor), lev)
    else:
        alignment = Alignment.__new__(Alignment)
        alignment.align_seq = compiled.align_seq(
            _token_ids(orig), _token_ids(cor), [t.text for t in orig], [t.text for t in cor],
            _open_pos(), lev)
    alignment.orig, alignment.cor = orig, cor
    return alignment


def _token_ids(doc: Any) -> bytes:
    from spacy.attrs import LEMMA, LOWER, ORTH, POS

    return bytes(doc.to_array([ORTH, LOWER, LEMMA, POS]).astype("uint64", copy=False).data)


@cache
def _open_pos() -> tuple[int, int, int, int]:
    """errant's `Alignment._open_pos` (ADJ, ADV, NOUN, VERB), in a fixed order."""
    from errant.alignment import Alignment

    ids = sorted(Alignment._open_pos)
    assert len(ids) == 4
    return ids[0], ids[1], ids[2], ids[3]


def unchanged(orig: Any, cor: str) -> bool:
    """errant_parallel's test for a correction that is its source (written as a noop)."""
    return bool(orig.text.strip() == cor.strip())


def surface(doc: Any) -> tuple[list[str], str]:
    """A Doc's words and its text stripped (`doc.text.strip()`: each word with its
    following space), read as one array instead of a Token per word (`unchanged` and the
    `S` line read them token by token: the oracle in the tests)."""
    from spacy.attrs import ORTH, SPACY

    strings = doc.vocab.strings
    rows = doc.to_array([ORTH, SPACY]).tolist()
    words = [strings[orth] for orth, _ in rows]
    return words, "".join(w + " " if row[1] else w for w, row in zip(words, rows,
                                                                      strict=True)).strip()


def _tokenised(nlp: Any, text: str) -> Any:
    """The pipeline's tokens of the text, without the tokens that are whitespace (a
    no-break space, a tab: spaCy keeps them as tokens, and an S line cannot)."""
    from spacy.tokens import Doc

    words = [token.text for token in nlp.make_doc(text) if not token.is_space]
    return Doc(nlp.vocab, words=words or [text.strip() or "."])


def piped(nlp: Any, docs: list[Any]) -> list[Any]:
    """`nlp.pipe(docs)`, one component at a time over all the docs (the components read
    what the ones before them wrote, as in `nlp.pipe`), with the attribute ruler's rules
    applied without spaCy's Matcher and the rule lemmatizer's lemmas written as arrays,
    where they are of the kind `attribute_rules` and `lemmas` reproduce."""
    for _, component in nlp.pipeline:
        component = _fast(component)
        docs = list(component.pipe(docs, batch_size=256) if hasattr(component, "pipe")
                    else map(component, docs))
    return docs


def _fast(component: Any) -> Any:
    """The component's fast stand-in (`attribute_rules.fast_ruler`,
    `lemmas.fast_lemmatizer`), made once and kept on the component; else the component."""
    from m2lsp.annotation.attribute_rules import fast_ruler
    from m2lsp.annotation.lemmas import fast_lemmatizer

    maker = {"AttributeRuler": fast_ruler, "Lemmatizer": fast_lemmatizer,
             "EnglishLemmatizer": fast_lemmatizer}.get(type(component).__name__)
    if maker is None:  # (the parser and others take no attribute of ours)
        return component
    made = getattr(component, "_m2lsp_fast", None)
    if made is None:
        made = maker(component) or component
        component._m2lsp_fast = made
    return made


def packed(doc: Any) -> bytes:
    """What ERRANT reads of a parse (spaCy's own DocBin reads back ten times slower): the
    tokens' texts, spaces, lemmas, tags, POS, dependencies and heads, read as one array
    (the same lists as reading each token: `packed_by_tokens`, the oracle in the tests)."""
    from spacy.attrs import DEP, HEAD, LEMMA, ORTH, POS, SPACY, TAG

    columns = doc.to_array([ORTH, SPACY, LEMMA, TAG, POS, DEP, HEAD]).T
    strings = doc.vocab.strings
    words, spaces, lemmas, tags, pos, deps = (column.tolist() for column in columns[:6])
    offsets = columns[6].astype("int64").tolist()  # HEAD is the offset to the head
    rows = [[strings[x] for x in words], [bool(x) for x in spaces],
            [strings[x] for x in lemmas], [strings[x] for x in tags],
            [strings[x] for x in pos], [strings[x] for x in deps],
            [i + offset for i, offset in enumerate(offsets)]]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def packed_by_tokens(doc: Any) -> bytes:
    """`packed`, token by token."""
    rows = [[t.text for t in doc], [bool(t.whitespace_) for t in doc],
            [t.lemma_ for t in doc], [t.tag_ for t in doc], [t.pos_ for t in doc],
            [t.dep_ for t in doc], [t.head.i for t in doc]]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def unpacked(vocab: Any, data: bytes) -> Any:
    """The parse `packed` kept, as a Doc with the same tokens, lemmas, tags and tree."""
    from spacy.tokens import Doc

    words, spaces, lemmas, tags, pos, deps, heads = json.loads(data)
    return Doc(vocab, words=words, spaces=spaces, lemmas=lemmas, tags=tags, pos=pos,
               deps=deps, heads=heads)


def noop_edit(coder: int) -> str:
    """errant_parallel's line for a correction equal to its source."""
    return f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}"
