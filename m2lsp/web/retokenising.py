"""Fixing the project's source tokens from the annotator's page: splitting one token of a
sentence or joining several, as `m2lsp retokenise` and the editor's split and join do
(`authoring.source_tokens`).

The source is one for the whole project, so a retokenisation rewrites sentence N in every
file that holds it: `source.m2`, every annotator's layer (each layer's edits moved to stay
on their words) and every suggestion set; the notes on the sentence follow it (their key
is its tokens), as do the decisions on its suggestions (their ids hold the offsets).
Every other annotator's version of the sentence moves on, so a tab of theirs opened
before is refused as any stale save is (409).  Once a curation has started
(`gold.m2` exists) it is refused: the gold and its log name edits by their offsets.
Each file is written atomically, as a save is; a layer saved at the same moment is
retokenised after that save (its file is read again).  Pure of HTTP."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.authoring.source_tokens import Retokenised
from m2lsp.curation.notes import Note
from m2lsp.errors import UsageError
from m2lsp.model import Block
from m2lsp.web.layers import Stale, shown
from m2lsp.web.project import Project, version
from m2lsp.web.suggestions import suggestion_id

_ONE = threading.Lock()  # one retokenisation at a time: a second one based on the same
# version is then stale (409), never applied over the first
TRIES = 3  # a file saved while it was rewritten is read again, this many times at most
Retokeniser = Callable[[Block], Retokenised]


@dataclass(frozen=True)
class Done:
    """A retokenisation made: the sentence as its annotator now sees it, each layer's new
    version of it (for the events), and the annotator's edits that straddled a join."""

    sentence: dict[str, Any]
    versions: dict[str, tuple[str, bool]]
    notes: tuple[str, ...]
    suggestions: dict[str, str] = field(default_factory=dict)  # old id -> new id


def split(project: Project, user: str, number: int, body: Any) -> Done:
    """`{"version", "token", "pieces"}`: token `token` (from 0) of sentence `number` cut
    where `pieces` (its characters) has spaces."""
    from m2lsp.authoring.source_tokens import split_token

    based_on = _version_of(body, "token, pieces")
    token, pieces = body.get("token"), body.get("pieces")
    if type(token) is not int or not isinstance(pieces, str) or "\n" in pieces:
        raise UsageError("token is a token number and pieces its text with spaces where it "
                         "is cut")
    return _retokenised(project, user, number, based_on,
                        lambda found: split_token(found, token, pieces))


def join(project: Project, user: str, number: int, body: Any) -> Done:
    """`{"version", "start", "end"}`: tokens `start`..`end` (end exclusive, two or more)
    of sentence `number` joined into one."""
    from m2lsp.authoring.source_tokens import join_tokens

    based_on = _version_of(body, "start, end")
    start, end = body.get("start"), body.get("end")
    if type(start) is not int or type(end) is not int:
        raise UsageError("start and end are token numbers")
    if project.language == "zh":
        raise UsageError("a Chinese project's tokens are characters: they are not joined")
    return _retokenised(project, user, number, based_on,
                        lambda found: join_tokens(found, start, end))


def _version_of(body: Any, rest: str) -> str:
    if not isinstance(body, dict) or not isinstance(body.get("version"), str):
        raise UsageError(f"the body is a JSON object: version, {rest}")
    return str(body["version"])


def _retokenised(project: Project, user: str, number: int, based_on: str,
                 work: Retokeniser) -> Done:
    """Check everything, then rewrite sentence `number` by `work` in every file that
    holds it, and move its notes."""
    with _ONE:
        return _one_retokenised(project, user, number, based_on, work)


def _one_retokenised(project: Project, user: str, number: int, based_on: str,
                     work: Retokeniser) -> Done:
    if project.gold.exists():
        raise UsageError("the curation has started (gold.m2 exists): the gold and its log "
                         "name edits by their offsets, so the source's tokens stay as they "
                         "are now; retokenise before curating")
    if based_on != version(project.store.get(project.layer(user)).block(number)):
        raise Stale(shown(project, user, number))
    source = project.store.get(project.source).block(number)
    assert source.sentence is not None
    tokens = source.sentence.tokens
    work(source)  # a UsageError here (a bad token number) before any write
    layers = project.layer_names()
    paths = [project.layer(name) for name in layers] + _suggestion_sets(project)
    for path in paths:
        _check_tokens(path, project.store.get(path).block(number), number, tokens)
    old_key = _sentence_key(project, number)
    notes = {name: _notes(project, name) for name in layers}  # refused before any write
    _rewrite(project, project.source, number, tokens, work)
    new_key = _sentence_key(project, number)
    said: list[str] = []
    versions: dict[str, tuple[str, bool]] = {}
    for name, path in zip(layers, paths, strict=False):
        moved = _rewrite(project, path, number, tokens, work)
        if name == user:  # blind annotation: another's straddling edit is theirs to see
            said += list(moved.notes)
        found = project.store.get(path)
        versions[name] = found.version(number), found.done(number)
        if notes[name]:
            _move_notes(project, name, notes[name], old_key, new_key, moved.keys)
    ids: dict[str, str] = {}
    for path in paths[len(layers):]:
        ids |= {suggestion_id(path.stem, a): suggestion_id(path.stem, b) for a, b in
                _rewrite(project, path, number, tokens, work).lines.items()}
    return Done(shown(project, user, number), versions, tuple(said), ids)


@dataclass(frozen=True)
class _Rewritten:
    """What a file's rewrite did: the straddling edits' notes, each edit's new key."""

    notes: tuple[str, ...] = ()
    keys: dict[str, str] = field(default_factory=dict)
    lines: dict[str, str] = field(default_factory=dict)  # each A line before -> after


def _suggestion_sets(project: Project) -> list[Path]:
    from m2lsp.web.suggestions import folder, set_names

    return [folder(project) / f"{name}.m2" for name in set_names(project)]


def _check_tokens(path: Path, found: Block, number: int, tokens: tuple[str, ...]) -> None:
    if found.sentence is None or found.sentence.tokens != tokens:
        raise UsageError(f"sentence {number} of {path.parent.name}/{path.name} is not the "
                         "source's (an editor changed it?): nothing was retokenised")


def _rewrite(project: Project, path: Path, number: int, tokens: tuple[str, ...],
             work: Retokeniser) -> _Rewritten:
    """Sentence `number` of `path` rewritten by `work`, written atomically; read again
    when the file changed meanwhile (a save of the same moment)."""
    from m2lsp.curation.keys import EditSpec
    from m2lsp.files.writing import WriteRefused
    from m2lsp.parsing.m2 import parse_m2

    for attempt in range(TRIES):
        index = project.store.get(path)
        found = index.block(number)
        if found.sentence is None or found.sentence.tokens != tokens:
            return _Rewritten()  # another rewrite's, already
        made = work(found)
        try:
            project.store.replace(path, index, number, made.lines[1:], head=made.lines[0])
        except WriteRefused:
            if attempt == TRIES - 1:
                raise
            continue
        after = parse_m2("\n".join(made.lines) + "\n").blocks[0]
        # the rewrite keeps each line in its row: the edits pair up in order
        pairs = [(a, b) for a, b in zip(found.edits, after.edits, strict=True)
                 if not a.is_noop]
        return _Rewritten(made.notes, {EditSpec.of(a).key: EditSpec.of(b).key
                                       for a, b in pairs},
                          {a.text.rstrip("\r\n"): b.text.rstrip("\r\n") for a, b in pairs})
    return _Rewritten()


def _sentence_key(project: Project, number: int) -> str:
    """The notes' key of sentence `number` (its tokens; a repeated sentence's copy counted
    as `curation.keys` counts it), from the source's kept texts: no parse of the file."""
    from m2lsp.curation.keys import sentence_key

    texts = [text for text, _ in project.store.get(project.source).summaries()]
    text = texts[number - 1]
    return sentence_key(text.split(" "), texts[:number].count(text))


def _notes(project: Project, name: str) -> list[Note]:
    from m2lsp.curation.notes import read_notes
    from m2lsp.web.notes import notes_path

    path = notes_path(project, name)
    if not path.is_file():
        return []
    return read_notes(path.read_text(encoding="utf-8"), str(path))


def _move_notes(project: Project, name: str, notes: list[Note], old_key: str, new_key: str,
                keys: dict[str, str]) -> None:
    """The layer's notes on the sentence given its new key, and a note on an edit the
    edit's new offsets."""
    from dataclasses import replace

    from m2lsp.files.writing import write_atomic
    from m2lsp.web.notes import notes_path

    if old_key == new_key or not any(n.sentence == old_key for n in notes):
        return
    moved = [replace(n, sentence=new_key, edit=keys.get(n.edit, n.edit) if n.edit else None)
             if n.sentence == old_key else n for n in notes]
    write_atomic(notes_path(project, name), "".join(n.line() for n in moved))
