"""The server's index of an M2 file gives what parsing the whole file gives, sentence by
sentence, and a save through it writes what replacing the block in the text writes."""

from __future__ import annotations

import pytest

from m2lsp.files.writing import WriteRefused
from m2lsp.parsing.m2 import parse_m2
from m2lsp.web.layers import is_done
from m2lsp.web.project import replaced, version
from m2lsp.web.store import Store

NEW = ["A 0 1|||R:OTHER|||X|||REQUIRED|||-NONE-|||0", "A 2 2|||M:DET|||the|||REQUIRED|||-NONE-|||0"]

TEXTS = {
    "plain": "S a b c\n\nS d e\nA 0 1|||R:NOUN|||f|||REQUIRED|||-NONE-|||0\n\nS g h\n\n",
    "no final blank line": "S a b c\n\nS d e\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
    "no final break": "S a b c\n\nS d e",
    "two blank lines": "S a b c\n\n\nS d e\n\n\n",
    "a comment first": "# a team's notes\n\nS a b c\n\nS d e\n\n",
    "edits before an S line": "S a b\n\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\nS c d\n\n",
    "a whitespace line": "S a b\n \nS c d\n\n",
    "CRLF": "S a b c\r\n\r\nS d e\r\nA 0 1|||R:NOUN|||f|||REQUIRED|||-NONE-|||0\r\n\r\n",
}


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_the_index_reads_each_sentence_as_parsing_the_file_does(tmp_path, text):
    path = tmp_path / "layer.m2"
    path.write_bytes(text.encode())
    document = parse_m2(text)
    index = Store().get(path)
    assert index.count == len(document.blocks)
    for number, block in enumerate(document.blocks, 1):
        assert index.block(number).lines == block.lines
        assert index.version(number) == version(block)
        assert index.text_of(number) == (block.sentence.text if block.sentence else "")
        assert index.done(number) == is_done(block)
    with pytest.raises(LookupError):
        index.block(index.count + 1)


ENDED = {k: v for k, v in TEXTS.items() if k != "no final break"}


@pytest.mark.parametrize("text", ENDED.values(), ids=ENDED.keys())
@pytest.mark.parametrize("lines", [NEW, []], ids=["edits", "none"])
def test_a_save_writes_what_replacing_the_block_in_the_text_writes(tmp_path, text, lines):
    path = tmp_path / "layer.m2"
    path.write_bytes(text.encode())
    store = Store()
    for number in range(1, len(parse_m2(text).blocks) + 1):
        before = path.read_bytes().decode()
        new = store.replace(path, store.get(path), number, lines)
        expected = replaced(parse_m2(before), before, number, lines)
        assert path.read_bytes().decode().replace("\r\n", "\n") == expected.replace("\r\n", "\n")
        assert new is store.get(path)  # the index written is the file's: not read again
        fresh = Store().get(path)
        assert [fresh.block_lines(n) for n in range(1, fresh.count + 1)] == \
            [new.block_lines(n) for n in range(1, new.count + 1)]
        assert [fresh.version(n) for n in range(1, fresh.count + 1)] == \
            [new.version(n) for n in range(1, new.count + 1)]


def test_a_save_to_a_last_line_without_a_break_puts_one_between_the_lines(tmp_path):
    path = tmp_path / "layer.m2"
    path.write_text(TEXTS["no final break"])
    store = Store()
    store.replace(path, store.get(path), 2, NEW)
    assert path.read_text() == "S a b c\n\nS d e\n" + "\n".join(NEW)


@pytest.mark.parametrize(("name", "text"), TEXTS.items(), ids=TEXTS.keys())
def test_a_file_as_the_server_writes_it_is_cut_as_any_file_is(name, text):
    from m2lsp.web.store import _any, _as_written

    fast, slow = _as_written(text, (0, 0, 0)), _any(text, (0, 0, 0))
    assert (fast is not None) == (name == "plain")  # the others: the parser's cut
    assert fast is None or (fast.head, fast.pieces, fast.sizes) == (slow.head, slow.pieces,
                                                                     slow.sizes)


def test_a_file_changed_since_it_was_indexed_is_not_overwritten(tmp_path):
    path = tmp_path / "layer.m2"
    path.write_text(TEXTS["plain"])
    store = Store()
    index = store.get(path)
    path.write_text(TEXTS["plain"].replace("S g h", "S g h i"))  # an editor saved it
    with pytest.raises(WriteRefused):
        store.replace(path, index, 1, NEW)
    assert "S g h i" in path.read_text()
    assert store.get(path).text_of(3) == "g h i"  # read again: the file is the truth


def test_warming_indexes_the_files_in_the_background_and_skips_an_unreadable_one(tmp_path):
    good, bad = tmp_path / "a.m2", tmp_path / "b.m2"
    good.write_text(TEXTS["plain"])
    bad.write_bytes(b"S \xff\xfe\n\n")
    store = Store()
    store.warm([bad, tmp_path / "gone.m2", good]).join(10)
    assert list(store.files) == [good]


def test_the_sentence_list_follows_each_save(tmp_path):
    path = tmp_path / "layer.m2"
    path.write_text(TEXTS["plain"])
    store = Store()
    assert [r["state"] for r in store.rows(path, [1, 2, 3, 4])] == ["new", "done", "new"]
    store.replace(path, store.get(path), 3, NEW)
    store.replace(path, store.get(path), 2, [])
    rows = store.rows(path, [1, 2, 3])
    fresh = Store().rows(path, [1, 2, 3])
    assert rows == fresh and [r["state"] for r in rows] == ["new", "new", "done"]


def test_saves_of_one_layer_at_once_all_land(tmp_path):
    """Two tabs (or a tab and a suggestion's acceptance) saving other sentences of one
    layer at the same moment: each save is based on its own sentence's version, so none
    is refused for the other's write, and every one is in the file."""
    from concurrent.futures import ThreadPoolExecutor

    from m2lsp.web.layers import Change, save
    from m2lsp.web.project import add_layer, init_project

    project = init_project(tmp_path / "p", [["a", "b", str(n)] for n in range(40)], "en")
    add_layer(project, "ann")
    index = project.store.get(project.layer("ann"))
    versions = {n: index.version(n) for n in range(1, 41)}

    def one(number: int) -> str:
        line = f"A 0 1|||R:OTHER|||x{number}|||REQUIRED|||-NONE-|||0"
        return save(project, "ann", number, Change(versions[number], lines=(line,)))["version"]

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(1, 41)))  # a refused save raises Stale here
    blocks = parse_m2(project.layer("ann").read_text()).blocks
    assert [b.edits[0].canonical[0] for b in blocks] == [f"x{n}" for n in range(1, 41)]
