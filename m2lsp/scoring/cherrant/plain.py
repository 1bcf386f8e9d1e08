"""A plain-text hypothesis (or ChERRANT's parallel file) scored with ChERRANT in one step:
annotated as `parallel_to_m2.py -g char` would annotate it, then scored as
`compare_m2_for_evaluation.py` scores that M2 against the reference."""

from __future__ import annotations

from typing import Any

from m2lsp.scoring.errant.plain import Annotated
from m2lsp.scoring.metric import Request


def is_cherrant_parallel(lines: list[str]) -> bool:
    """Whether a hypothesis is ChERRANT's parallel file (every line has a tab)."""
    return bool(lines) and all("\t" in line for line in lines if line.strip())


def annotate_chinese(request: Request, refs: Any, hyp: Any) -> Annotated:
    from m2lsp.annotation.chinese import ChineseAnnotator
    from m2lsp.annotation.parallel import (
        ParallelText,
        annotate,
        check_lengths,
        cherrant_text,
        default_jobs,
        read_lines,
        source_lines,
    )

    options = request.options
    settings = options.annotation()
    hypotheses = source_lines(hyp)  # read once, by `run`
    _refuse_word_level(refs, request)
    if is_cherrant_parallel(hypotheses):
        text = cherrant_text(hypotheses, request.system)
        name = str(request.system)
    else:
        source = request.shared.source
        if source is not None:
            sources, name = read_lines(source, "source", request.encoding), str(source)
        else:
            sources = ["".join(block.tokens) for block in refs]
            name = f"{request.gold} (its S lines)"
            _say_source(request, sources, hypotheses)
        check_lengths(name, len(sources), request.system, len(hypotheses))
        text = ParallelText(sources, [hypotheses])
    blocks = annotate(text, settings, options.jobs or default_jobs(), request.progress)
    return Annotated("".join(blocks), ChineseAnnotator(settings).versions, name)


def _say_source(request: Request, sources: list[str], hypotheses: list[str]) -> None:
    """Without --source the hypothesis is annotated against the gold's S lines: say so, and
    warn where the hypothesis looks made from another version of the input."""
    if request.warn is None:
        return
    request.warn(f"note: {request.system} is annotated against the S lines of {request.gold} "
                 "(no --source)")
    found = width_variants(sources, hypotheses)
    if found:
        index, theirs, ours = found[0]
        request.warn(
            f"warning: {len(found)} sentence(s) of {request.system} have a full-width mark "
            f"where the S line of {request.gold} has its half-width form (first: sentence "
            f"{index + 1}, {theirs!r} for {ours!r}): ChERRANT's golds normalise "
            "such marks, so the hypothesis looks made from another version of the input, "
            "and each counts as an edit of the system here; if it is, give --source with "
            "the system's input")


def width_variants(sources: list[str], hypotheses: list[str]) -> list[tuple[int, str, str]]:
    """Per sentence whose hypothesis has a character absent from its source whose NFKC
    form (its other width) the source has: (index, the hypothesis's, the source's)."""
    import unicodedata

    found = []
    for index, (source, hypothesis) in enumerate(zip(sources, hypotheses, strict=False)):
        have = set(source)
        for char in dict.fromkeys(hypothesis):
            other = unicodedata.normalize("NFKC", char)
            if char not in have and other != char and other in have:
                found.append((index, char, other))
                break
    return found


def _refuse_word_level(refs: Any, request: Request) -> None:
    """A plain-text hypothesis is annotated at char level (every character a token, Latin
    letters and digits too), so its edits' offsets count characters; a gold whose S lines
    hold longer tokens is ChERRANT's word level, and no sentence of it could be compared."""
    from m2lsp.errors import UsageError

    for number, block in enumerate(refs, 1):
        word = next((token for token in block.tokens if len(token) > 1), None)
        if word is not None:
            raise UsageError(
                f"{request.gold} is a word-level gold (sentence {number} has the token "
                f"{word!r}; a char-level S line has one character a token), but a plain-text "
                "hypothesis is annotated at char level, as ChERRANT's parallel_to_m2.py -g "
                "char does: score against the char-level gold, or give the hypothesis as "
                "the M2 that parallel_to_m2.py -g word writes")
