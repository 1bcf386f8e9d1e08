"""A project's sentences, from the text a person gives: an M2 file's S lines, or raw
sentences (one a line, blank lines skipped) tokenised as `m2lsp skeleton` tokenises them,
or split at whitespace when they are tokenised already.  `m2lsp web init --from` takes
them so; POST /api/source (`load`) loads them into a project made without sentences, once.
Pure of HTTP."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.web.project import GOLD, Project, sentences_of_m2

_LOADING = threading.Lock()  # two managers' loads, one after the other: the second refused


def is_m2(text: str) -> bool:
    """Whether a given text is an M2 file (an S line first, or after a newline)."""
    return text.startswith("S ") or "\nS " in text


def skipped(text: str) -> str:
    """What a text's blank lines mean for the numbers, said when there are any (raw
    sentences only: an M2 file's blocks are its sentences): "" otherwise."""
    count = 0 if is_m2(text) else sum(1 for line in text.splitlines() if not line.split())
    if not count:
        return ""
    lines = "a blank line was" if count == 1 else f"{count} blank lines were"
    return (f"{lines} skipped: sentence numbers count the other lines (a system's output "
            "to score or suggest leaves them out too)")


def sentences_of(text: str, language: str, tokenised: bool, near: Path) -> list[list[str]]:
    """The tokens of each sentence `text` gives (`near`: where the pyproject.toml naming a
    spaCy pipeline is looked for, as `m2lsp skeleton` looks beside its input)."""
    if is_m2(text):
        return sentences_of_m2(text)
    lines = text.splitlines()
    if tokenised:
        return [words for line in lines if (words := line.split())]
    from m2lsp.annotation.tokenising import tokeniser
    from m2lsp.config import config_for

    tokens = tokeniser(language, config_for([near]).score, None)
    return [words for line in lines if (words := tokens(line))]


def load(project: Project, body: Any) -> dict[str, Any]:
    """Load `{"text", "tokenised": false}` as the sentences of a project that has none
    yet: `source.m2` and every annotator's layer, written together (all or none).
    Refused once the project has a sentence, a layer an edit, or there is a gold."""
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise UsageError("the body is a JSON object: text (raw sentences, one a line, or an "
                         "M2 file), and tokenised (true: split at whitespace)")
    tokenised = body.get("tokenised", False)
    if not isinstance(tokenised, bool):
        raise UsageError("tokenised is true or false")
    refuse_loaded(project)
    sentences = sentences_of(body["text"], project.language, tokenised, project.root)
    if not sentences:
        raise UsageError("no sentence to annotate (the text has no non-blank line)")
    with _LOADING:
        refuse_loaded(project)
        _write(project, "".join(f"S {' '.join(tokens)}\n\n" for tokens in sentences))
    return {"sentences": len(sentences), "skipped": skipped(body["text"])}


def refuse_loaded(project: Project) -> None:
    """A UsageError when the project holds annotation to lose: sentences, a layer's edit,
    a gold (sentences are loaded once, before anyone annotates)."""
    if project.store.get(project.source).count:
        raise UsageError(f"the project has its sentences already ({project.source.name}): "
                         "they are loaded once, before anyone annotates")
    for name in project.layer_names():
        index = project.store.get(project.layer(name))
        if any(index.done(n) for n in range(1, index.count + 1)):
            raise UsageError(f"layers/{name}.m2 has edits: the sentences are loaded "
                             "before anyone annotates")
    if project.gold.exists():
        raise UsageError(f"the project has a gold ({GOLD}): the sentences are loaded before "
                         "anyone curates")


def _write(project: Project, text: str) -> None:
    """The source and each layer (its sentences, no edit yet), all written or none."""
    from m2lsp.files.writing import write_together

    layers = [(project.layer(name), text) for name in project.layer_names()]
    write_together([*layers, (project.source, text)])
