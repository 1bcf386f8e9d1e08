"""`m2lsp curate` and `m2lsp note` from the command line: a curated gold of its own, decided
and recorded (the annotators' files only read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main

NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
A = """\
S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S We need more time .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S She arrive at Monday .
A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0
A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0

S need more time .
A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0

S It rain .
A 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0
"""
B = """\
S He go to school .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0

S We need more time .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S She arrive at Monday .
A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0

S need more time .
A 0 0|||M:PRON|||We|||REQUIRED|||-NONE-|||0

S It rain .
"""


@pytest.fixture
def team(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("M2LSP_NOW", "2026-01-02T03:04:05Z")
    monkeypatch.chdir(tmp_path)
    Path("A.m2").write_text(A, encoding="utf-8")
    Path("B.m2").write_text(B, encoding="utf-8")
    assert main(["curate", "A.m2", "B.m2", "-o", "gold.m2", "--who", "cara"]) == 0
    return tmp_path


def _blocks(path: str) -> list[list[str]]:
    return [b.split("\n") for b in Path(path).read_text(encoding="utf-8").strip().split("\n\n")]


def _status(capsys: pytest.CaptureFixture[str]) -> dict:
    capsys.readouterr()
    main(["curate", "gold.m2", "--status", "--format", "json"])
    return json.loads(capsys.readouterr().out)


def test_start_merges_what_everyone_agrees_on(team: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert (Path("A.m2").read_text(encoding="utf-8"), Path("B.m2").read_text(
        encoding="utf-8")) == (A, B)
    status = _status(capsys)
    assert [(o["state"], o["rule"]) for o in status["outcomes"]] == [
        ("auto", "auto-merged"), ("auto", "auto-merged"), ("open", ""), ("open", ""),
        ("open", "")]
    assert (status["curated"], status["complete"]) == (2, False)
    assert status["outcomes"][4]["versions"] == {"0": ["1 2|||R:VERB:SVA|||rains"], "1": None}
    # open sentences are written with a noop: the gold is a whole M2 file
    assert [b[1:] for b in _blocks("gold.m2")] == [
        ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"], [NOOP], [NOOP], [NOOP], [NOOP]]
    [start] = Path("gold.m2.curation.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(start) == {"time": "2026-01-02T03:04:05Z", "who": "cara",
                                 "action": "start", "inputs": ["A.m2", "B.m2"]}


def test_status_exit_code_says_whether_the_curation_is_finished(
        team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["curate", "gold.m2", "--status"]) == 1
    out = capsys.readouterr().out
    assert "curated 2 of 5 sentences (auto-merged 2, decided 0, in progress 0, open 3)" in out
    assert "annotator 1: (no line yet)" in out and "unfinished: 3 sentences" in out
    for decision in (["--sentence", "3", "--take", "1"], ["--sentence", "4", "--take", "0"],
                     ["--sentence", "5", "--take", "0"]):
        assert main(["curate", "gold.m2", *decision]) == 0
    assert main(["curate", "gold.m2", "--status"]) == 0
    assert "curated 5 of 5 sentences" in capsys.readouterr().out


# decision flags -> the gold's lines of sentence 3 ("She arrive at Monday ."), its state
DECISIONS = [
    (["--take", "0"], ["A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0",
                       "A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0"], "decided", "took 0"),
    (["--take", "1"], ["A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0"], "decided",
     "took 1"),
    (["--accept", "2 3|||R:PREP|||on"], ["A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0"],
     "in progress", "in progress"),
    (["--accept", "2 3|||R:PREP|||on", "--from", "0"],
     ["A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0"], "in progress", "in progress"),
    (["--edit", "3 4|||R:NOUN|||Mondays"], ["A 3 4|||R:NOUN|||Mondays|||REQUIRED|||-NONE-|||0"],
     "in progress", "in progress"),
    (["--correct"], [NOOP], "decided", "correct as it is"),
    (["--done"], [NOOP], "decided", "curated"),
]


@pytest.mark.parametrize(("flags", "lines", "state", "rule"), DECISIONS)
def test_a_decision(team: Path, capsys: pytest.CaptureFixture[str], flags: list[str],
                    lines: list[str], state: str, rule: str) -> None:
    assert main(["curate", "gold.m2", "--sentence", "3", "--who", "dee", *flags]) == 0
    assert _blocks("gold.m2")[2][1:] == lines
    outcome = _status(capsys)["outcomes"][2]
    assert (outcome["state"], outcome["rule"]) == (state, rule)
    last = json.loads(Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
                      .splitlines()[-1])
    assert (last["who"], last["sentence"], last["time"]) == (
        "dee", outcome["key"], "2026-01-02T03:04:05Z")
    assert (Path("A.m2").read_text(encoding="utf-8"), Path("B.m2").read_text(
        encoding="utf-8")) == (A, B)


def test_an_accepted_edit_replaces_the_one_it_competes_with(team: Path) -> None:
    """Accepting both annotators' insertions at one point kept both ("we , we need")."""
    assert main(["curate", "gold.m2", "--sentence", "4", "--accept", "0 0|||M:PRON|||we"]) == 0
    assert main(["curate", "gold.m2", "--sentence", "4", "--accept", "0 0|||M:PRON|||We"]) == 0
    assert _blocks("gold.m2")[3][1:] == ["A 0 0|||M:PRON|||We|||REQUIRED|||-NONE-|||0"]
    assert main(["curate", "gold.m2", "--sentence", "4", "--reject", "0 0|||M:PRON|||We"]) == 0
    assert _blocks("gold.m2")[3][1:] == [NOOP]


def test_accept_agreed_takes_every_shared_edit(team: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["curate", "gold.m2", "--accept-agreed", "--who", "cara"]) == 0
    assert _blocks("gold.m2")[2][1:] == ["A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0"]
    last = json.loads(Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
                      .splitlines()[-1])
    assert (last["action"], last["from"], last["edit"]) == (
        "accept", "0,1", "1 2|||R:VERB:SVA|||arrives")
    assert _status(capsys)["counts"] == {"auto": 2, "decided": 0, "in progress": 1, "open": 2}


def test_continuing_picks_up_the_annotators_later_work(
        team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "1"]) == 0
    Path("B.m2").write_text(B + "A 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0\n",
                            encoding="utf-8")
    assert main(["curate", "gold.m2"]) == 0
    states = [o["state"] for o in _status(capsys)["outcomes"]]
    assert states == ["auto", "auto", "decided", "open", "auto"]


def test_the_gold_is_redone_from_the_log_whatever_the_order(team: Path) -> None:
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "0"]) == 0
    assert main(["curate", "gold.m2", "--sentence", "4", "--accept", "0 0|||M:PRON|||We"]) == 0
    gold = Path("gold.m2").read_text(encoding="utf-8")
    Path("gold.m2").unlink()
    assert main(["curate", "gold.m2"]) == 0
    assert Path("gold.m2").read_text(encoding="utf-8") == gold
    # the annotators' files re-ordered (both the same way): the decisions follow the keys
    for name in ("A.m2", "B.m2"):
        blocks = Path(name).read_text(encoding="utf-8").strip().split("\n\n")
        Path(name).write_text("\n\n".join(reversed(blocks)) + "\n", encoding="utf-8")
    assert main(["curate", "gold.m2"]) == 0
    again = Path("gold.m2").read_text(encoding="utf-8").strip().split("\n\n")
    assert "\n\n".join(reversed(again)) + "\n\n" == gold


def test_one_merged_file_is_an_input_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in (("A.m2", A), ("B.m2", B)):
        Path(name).write_text(text, encoding="utf-8")
    assert main(["merge", "A.m2", "B.m2", "-o", "both.m2"]) == 0
    assert main(["curate", "both.m2", "-o", "gold.m2", "--who", "x"]) == 0
    assert _status(capsys)["curated"] == 2


def test_duplicate_sentences_keep_their_own_decisions(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    two = ("S It rain .\nA 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0\n\n"
           "S It rain .\nA 1 2|||R:VERB:SVA|||rained|||REQUIRED|||-NONE-|||0\n")
    Path("A.m2").write_text(two, encoding="utf-8")
    Path("B.m2").write_text("S It rain .\n" + NOOP + "\n\nS It rain .\n" + NOOP + "\n",
                            encoding="utf-8")
    assert main(["curate", "A.m2", "B.m2", "-o", "gold.m2", "--who", "x"]) == 0
    assert main(["curate", "gold.m2", "--sentence", "2", "--take", "0"]) == 0
    assert [b[1:] for b in _blocks("gold.m2")] == [
        [NOOP], ["A 1 2|||R:VERB:SVA|||rained|||REQUIRED|||-NONE-|||0"]]
    log = Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
    assert json.loads(log.splitlines()[-1])["sentence"].endswith(".2")


ERRORS = [
    (["curate", "A.m2", "B.m2"], "name the curated gold"),
    (["curate", "A.m2", "-o", "A.m2"], "is one of the annotators' files"),
    (["curate", "gold.m2", "--sentence", "9", "--take", "1"], "there is no sentence 9"),
    (["curate", "gold.m2", "--sentence", "nokey", "--take", "1"], "no sentence has the key"),
    (["curate", "gold.m2", "--sentence", "3", "--take", "7"], "there is no annotator 7"),
    (["curate", "gold.m2", "--sentence", "3", "--accept", "0 1|||X|||y"],
     "no annotator made 0 1|||X|||y"),
    (["curate", "gold.m2", "--sentence", "3", "--accept", "2 3|||R:PREP|||on", "--from", "1"],
     "annotator 1 made no edit"),
    (["curate", "gold.m2", "--sentence", "3", "--edit", "2 9|||R:PREP|||on"],
     "ends after the sentence's 5 tokens"),
    (["curate", "gold.m2", "--sentence", "3", "--edit", "two|||R|||x"], "is no edit"),
    (["curate", "gold.m2", "--sentence", "3", "--reject", "1 2|||X|||y"], "holds no edit"),
    (["curate", "gold.m2", "--sentence", "3", "--correct", "--done"], "one decision a run"),
    (["curate", "gold.m2", "--take", "1"], "--take needs --sentence"),
    (["curate", "gold.m2", "--sentence", "3"], "--sentence needs a decision"),
    (["curate", "gold.m2", "--accept-agreed", "--sentence", "3"], "--accept-agreed takes no"),
    (["curate", "new.m2", "-o", "other.m2"], "new.m2 is not a file"),
    (["note", "gold.m2", "3", "--edit", "0 1|||X|||y", "--text", "?"], "has no edit 0 1"),
    (["note", "gold.m2", "3"], "a note needs --text or --unsure"),
    (["note", "gold.m2", "12", "--text", "?"], "there is no sentence '12'"),
]


@pytest.mark.parametrize(("argv", "said"), ERRORS)
def test_what_cannot_be_done_is_said(team: Path, capsys: pytest.CaptureFixture[str],
                                     argv: list[str], said: str) -> None:
    log = Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
    gold = Path("gold.m2").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(argv) == 2
    assert said in capsys.readouterr().err
    assert Path("gold.m2.curation.jsonl").read_text(encoding="utf-8") == log
    assert Path("gold.m2").read_text(encoding="utf-8") == gold


def test_a_broken_log_line_is_named(team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Path("gold.m2.curation.jsonl").open("a", encoding="utf-8") as log:
        log.write("not json\n")
    assert main(["curate", "gold.m2", "--status"]) == 2
    assert "gold.m2.curation.jsonl:2: not a decision" in capsys.readouterr().err


def test_notes_on_a_sentence_and_an_edit(team: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["note", "A.m2", "3", "--edit", "2 3|||R:PREP|||on", "--text", "on or in?",
                 "--unsure", "--who", "ana"]) == 0
    assert main(["note", "A.m2", "1", "--text", "easy", "--who", "ana"]) == 0
    assert Path("A.m2").read_text(encoding="utf-8") == A  # notes live beside the file
    [first, _] = Path("A.m2.notes.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(first) == {"time": "2026-01-02T03:04:05Z", "who": "ana",
                                 "sentence": json.loads(first)["sentence"],
                                 "edit": "2 3|||R:PREP|||on", "text": "on or in?",
                                 "unsure": True}
    capsys.readouterr()
    assert main(["note", "A.m2"]) == 0
    assert capsys.readouterr().out == (
        "sentence 3 edit 2 3|||R:PREP|||on: ana [unsure]: on or in?\n"
        "sentence 1: ana: easy\n")
    # re-ordered, the notes follow their sentences; an edit removed leaves its note orphaned
    blocks = A.strip().split("\n\n")
    blocks[2] = blocks[2].replace("\nA 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0", "")
    Path("A.m2").write_text("\n\n".join(reversed(blocks)) + "\n", encoding="utf-8")
    assert main(["note", "A.m2"]) == 0
    assert capsys.readouterr().out == (
        "sentence 3 edit 2 3|||R:PREP|||on (edit gone): ana [unsure]: on or in?\n"
        "sentence 5: ana: easy\n")


def test_check_reports_an_unfinished_curation_and_orphaned_notes(
        team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["check", "gold.m2"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "gold.m2:7:1: N001 curation unfinished: 3 of 5 sentences still to decide (this is "
        "the first; m2lsp curate --status lists them)")
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "0"]) == 0
    assert main(["note", "gold.m2", "3", "--edit", "2 3|||R:PREP|||on", "--text", "on?"]) == 0
    for number in ("4", "5"):
        assert main(["curate", "gold.m2", "--sentence", number, "--take", "0"]) == 0
    capsys.readouterr()
    assert main(["check", "gold.m2"]) == 0
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "1"]) == 0
    capsys.readouterr()
    assert main(["check", "gold.m2"]) == 1
    assert "N002 a note by" in capsys.readouterr().out


def test_the_gold_never_holds_edits_its_rules_flag(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """An agreed edit set the rules flag is not auto-merged; a decision that would put one
    in the gold is refused."""
    monkeypatch.chdir(tmp_path)
    flagged = "S He go to school .\nA 1 2|||M:DET|||goes|||REQUIRED|||-NONE-|||0\n"
    Path("A.m2").write_text(A + "\n" + flagged, encoding="utf-8")
    Path("B.m2").write_text(B + NOOP + "\n\n" + flagged, encoding="utf-8")
    assert main(["curate", "A.m2", "B.m2", "-o", "gold.m2", "--who", "x"]) == 0
    outcome = _status(capsys)["outcomes"][5]
    assert (outcome["state"], outcome["rule"]) == ("open", "agreed, but the rules flag the "
                                                   "edits")
    assert main(["curate", "gold.m2", "--sentence", "6", "--take", "0", "--who", "x"]) == 2
    assert "sentence 6 would hold edits the rules flag, so the decision is refused: M409" in \
        capsys.readouterr().err
    assert main(["curate", "gold.m2", "--sentence", "1", "--edit", "1 2|||M:DET|||the"]) == 2
    assert main(["curate", "gold.m2", "--sentence", "6", "--edit",
                 "1 2|||R:VERB:SVA|||goes", "--who", "x"]) == 0
    assert _blocks("gold.m2")[5][1:] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"]


def test_an_annotator_who_has_not_begun_leaves_every_sentence_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Annotator 0 alone agrees with no one: nothing is auto-merged until the second file
    has lines."""
    monkeypatch.chdir(tmp_path)
    Path("A.m2").write_text(A, encoding="utf-8")
    Path("B.m2").write_text("".join(f"{line}\n\n" for line in A.splitlines()
                                    if line.startswith("S ")), encoding="utf-8")
    assert main(["curate", "A.m2", "B.m2", "-o", "gold.m2", "--who", "x"]) == 0
    status = _status(capsys)
    assert (status["annotators"], status["curated"]) == (["0", "1"], 0)
    assert status["outcomes"][0]["versions"] == {"0": ["1 2|||R:VERB:SVA|||goes"], "1": None}
    Path("B.m2").write_text(B, encoding="utf-8")
    assert main(["curate", "gold.m2"]) == 0
    assert _status(capsys)["curated"] == 2
    Path("one.m2").write_text(A, encoding="utf-8")
    assert main(["curate", "one.m2", "-o", "solo.m2", "--who", "x"]) == 0
    capsys.readouterr()
    main(["curate", "solo.m2", "--status", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["curated"] == 0


def test_a_take_records_the_edits_taken(team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The log says what was chosen: an annotator's later change does not alter a sentence
    decided by taking their edits, and the status says they changed it."""
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "1", "--who", "x"]) == 0
    last = json.loads(Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
                      .splitlines()[-1])
    assert (last["from"], last["edits"]) == ("1", ["1 2|||R:VERB:SVA|||arrives"])
    Path("B.m2").write_text(B.replace("|||arrives|||", "|||arrived|||"), encoding="utf-8")
    assert main(["curate", "gold.m2"]) == 0
    assert _blocks("gold.m2")[2][1:] == ["A 1 2|||R:VERB:SVA|||arrives|||REQUIRED|||-NONE-|||0"]
    outcome = _status(capsys)["outcomes"][2]
    assert (outcome["state"], outcome["rule"]) == ("decided",
                                                   "took 1 (annotator 1 has changed it since)")
    assert main(["curate", "gold.m2", "--sentence", "5", "--take", "1"]) == 2
    assert "annotator 1 has not annotated sentence 5 yet" in capsys.readouterr().err


CHANGED_SINCE = [  # (the decision on sentence 4, whose files change after it, the rule)
    (["--correct"], ["A.m2"], "correct as it is (annotator 0 has changed it since)"),
    (["--done"], ["B.m2"], "curated (annotator 1 has changed it since)"),
    (["--take", "0"], ["A.m2", "B.m2"], "took 0 (annotators 0, 1 have changed it since)"),
    (["--accept", "0 0|||M:PRON|||we", "--from", "0"], ["B.m2"],
     "in progress"),  # not decided yet: nothing to look at again
]


@pytest.mark.parametrize(("decision", "files", "rule"), CHANGED_SINCE)
def test_a_decided_sentence_an_annotator_changed_since_says_so(
        team: Path, capsys: pytest.CaptureFixture[str], decision: list[str],
        files: list[str], rule: str) -> None:
    """The decision records what it saw (`seen`); an annotator's later change leaves the
    gold as decided and says who changed it, until the curator decides on it again."""
    assert main(["curate", "gold.m2", "--sentence", "4", *decision, "--who", "x"]) == 0
    gold = Path("gold.m2").read_text(encoding="utf-8")
    seen = json.loads(Path("gold.m2.curation.jsonl").read_text(encoding="utf-8")
                      .splitlines()[-1])["seen"]
    assert seen == {"0": ["0 0|||M:PRON|||we"], "1": ["0 0|||M:PRON|||We"]}
    for name in files:
        text = Path(name).read_text(encoding="utf-8")
        Path(name).write_text(text.replace("S need more time .\nA 0 0|||M:PRON|||",
                                           "S need more time .\nA 0 0|||M:PRON|||You"),
                              encoding="utf-8")
    assert main(["curate", "gold.m2"]) == 0
    assert Path("gold.m2").read_text(encoding="utf-8") == gold
    outcome = _status(capsys)["outcomes"][3]
    assert outcome["rule"] == rule
    assert outcome["changed"] == ([] if rule == "in progress" else
                                  [str("AB".index(f[0])) for f in files])
    capsys.readouterr()  # and check says so (N004), at the sentence
    assert main(["check", "gold.m2", "--select", "N004"]) == (0 if rule == "in progress"
                                                               else 1)
    said = capsys.readouterr().out
    assert ("gold.m2:10:1: N004" in said) is (rule != "in progress"), said
    assert main(["curate", "gold.m2", "--sentence", "4", "--done", "--who", "x"]) == 0
    assert _status(capsys)["outcomes"][3]["changed"] == []  # looked at again: settled
    assert main(["check", "gold.m2", "--select", "N004"]) == 0


def test_a_log_line_with_a_broken_seen_is_named(team: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with Path("gold.m2.curation.jsonl").open("a", encoding="utf-8") as log:
        log.write('{"time": "t", "who": "x", "action": "done", "sentence": "s", '
                  '"seen": {"0": "goes"}}\n')
    assert main(["curate", "gold.m2", "--status"]) == 2
    assert "gold.m2.curation.jsonl:2: not a decision (seen must map each annotator" in \
        capsys.readouterr().err


def test_an_agreed_sentence_an_annotator_changed_since_is_no_hand_edit(
        team: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Sentence 1 was auto-merged ("goes", both annotators); ana changes hers to "went":
    the gold's "goes" is what was merged then, not an edit by hand, and the next decision
    is made (sentence 1 is open again, a disagreement)."""
    assert _blocks("gold.m2")[0][1:] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"]
    Path("A.m2").write_text(A.replace("|||goes|||", "|||went|||"), encoding="utf-8")
    capsys.readouterr()
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "0"]) == 0, \
        capsys.readouterr().err
    assert _blocks("gold.m2")[0][1:] == [NOOP]
    assert _status(capsys)["outcomes"][0]["state"] == "open"


def test_a_gold_edited_by_hand_is_not_overwritten(team: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = Path("gold.m2").read_text(encoding="utf-8")
    edited = text.replace("S It rain .\n" + NOOP,
                          "S It rain .\nA 1 2|||R:VERB:SVA|||rains|||REQUIRED|||-NONE-|||0")
    Path("gold.m2").write_text(edited, encoding="utf-8")
    capsys.readouterr()
    assert main(["curate", "gold.m2", "--sentence", "3", "--take", "0"]) == 2
    assert "gold.m2 was edited by hand at sentence 5" in capsys.readouterr().err
    assert Path("gold.m2").read_text(encoding="utf-8") == edited
    assert main(["curate", "gold.m2", "--sentence", "5", "--take", "0"]) == 0  # recorded
    assert Path("gold.m2").read_text(encoding="utf-8") == edited


def _marked(text: str, *edits: str) -> str:
    """`text` with the A lines of `edits` (their `START END|||TYPE|||CORRECTION`) OPTIONAL."""
    for edit in edits:
        text = text.replace(f"A {edit}|||REQUIRED|||", f"A {edit}|||OPTIONAL|||")
    return text


SVA, ON = "1 2|||R:VERB:SVA|||arrives", "2 3|||R:PREP|||on"


@pytest.mark.parametrize(("a", "b", "flags", "lines"), [
    ([SVA], [SVA], ["--accept-agreed"], [f"A {SVA}|||OPTIONAL|||-NONE-|||0"]),  # both
    ([SVA], [], ["--accept-agreed"], [f"A {SVA}|||REQUIRED|||-NONE-|||0"]),  # one only
    ([SVA, ON], [SVA], ["--sentence", "3", "--take", "0"],
     [f"A {SVA}|||OPTIONAL|||-NONE-|||0", f"A {ON}|||OPTIONAL|||-NONE-|||0"]),
    ([ON], [], ["--sentence", "3", "--accept", ON], [f"A {ON}|||OPTIONAL|||-NONE-|||0"]),
    ([SVA, ON], [], ["--sentence", "3", "--take", "0"],  # b has SVA, REQUIRED
     [f"A {SVA}|||REQUIRED|||-NONE-|||0", f"A {ON}|||OPTIONAL|||-NONE-|||0"]),
    ([ON], [], ["--sentence", "3", "--edit", "3 4|||R:NOUN|||Mondays"],  # the curator's own
     ["A 3 4|||R:NOUN|||Mondays|||REQUIRED|||-NONE-|||0"]),
], ids=["agreed, both optional", "agreed, one optional", "taken", "accepted",
        "taken, the other required", "own edit"])
def test_an_edit_an_annotator_marked_optional_stays_so_in_the_gold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, a: list[str], b: list[str],
        flags: list[str], lines: list[str]) -> None:
    """An edit is OPTIONAL in the gold where every annotator whose version has it marked
    it so; the key (and the log) say nothing of it, and the annotators still agree."""
    monkeypatch.chdir(tmp_path)
    Path("A.m2").write_text(_marked(A, *a), encoding="utf-8")
    Path("B.m2").write_text(_marked(B, *b), encoding="utf-8")
    assert main(["curate", "A.m2", "B.m2", "-o", "gold.m2"]) == 0
    assert main(["curate", "gold.m2", *flags]) == 0
    assert _blocks("gold.m2")[2][1:] == lines
