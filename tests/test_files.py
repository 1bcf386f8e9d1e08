"""The one writer and the bounded reader (m2lsp.files): whole or nothing, never over an
input, never over a change it did not see; pipes within a bound, devices refused."""

from __future__ import annotations

import contextlib
import os
import stat
import threading
from pathlib import Path

import pytest

from m2lsp.files import reading
from m2lsp.files.writing import (
    TEMP_SUFFIX,
    Snapshot,
    WriteRefused,
    atomic_open,
    write_atomic,
)


def test_a_write_replaces_the_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"old\n")
    write_atomic(target, "new\n")
    assert target.read_bytes() == b"new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["gold.m2"]


def test_a_failure_inside_the_block_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"old\n")
    with pytest.raises(RuntimeError), atomic_open(target) as out:
        out.write("half of the new")
        raise RuntimeError("killed")
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["gold.m2"]


def test_the_mode_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"old\n")
    os.chmod(target, 0o640)
    write_atomic(target, b"new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.m2", b"x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.m2").stat().st_mode) == 0o644


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.m2"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.m2"
    link.symlink_to(real.name)
    write_atomic(link, b"new\n")
    assert link.is_symlink() and real.read_bytes() == b"new\n"


@pytest.mark.parametrize("alias", ["same", "symlink", "hardlink", "dotted"])
def test_an_input_is_never_an_output(tmp_path: Path, alias: str) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(b"source\n")
    output = {"same": source, "dotted": tmp_path / "." / "in.txt",
              "symlink": tmp_path / "s.txt", "hardlink": tmp_path / "h.txt"}[alias]
    if alias == "symlink":
        output.symlink_to(source)
    if alias == "hardlink":
        os.link(source, output)
    with pytest.raises(WriteRefused, match="also an input"):
        write_atomic(output, b"M2\n", inputs=[tmp_path / "other.txt", source])
    assert source.read_bytes() == b"source\n"


def test_a_file_changed_since_it_was_read_is_not_written(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"S a .\n")
    snapshot = Snapshot.of(target, target.read_bytes())
    with target.open("ab") as other:  # another program appends a sentence
        other.write(b"\nS b .\n")
    with pytest.raises(WriteRefused, match="changed since"):
        write_atomic(target, b"S a .", expect=snapshot)
    assert target.read_bytes() == b"S a .\n\nS b .\n"


def test_same_size_and_time_but_other_bytes_is_a_change(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"S a .\n")
    snapshot = Snapshot.of(target, target.read_bytes())
    info = target.stat()
    target.write_bytes(b"S b .\n")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert not snapshot.still(target)


def test_an_unchanged_file_is_written(tmp_path: Path) -> None:
    target = tmp_path / "gold.m2"
    target.write_bytes(b"S a . \n")
    write_atomic(target, b"S a .\n", expect=Snapshot.of(target, target.read_bytes()))
    assert target.read_bytes() == b"S a .\n"


def test_temporary_names_are_recognisable(tmp_path: Path) -> None:
    seen = []
    with atomic_open(tmp_path / "x.m2") as out:
        seen = [p.name for p in tmp_path.iterdir()]
        out.write("x")
    assert len(seen) == 1 and seen[0].endswith(TEMP_SUFFIX) and seen[0].startswith(".x.m2.")


# -- reading --------------------------------------------------------------------------


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"abc")
    assert reading.read_bytes(tmp_path / "a") == b"abc"


def test_a_device_is_refused_unread(tmp_path: Path) -> None:
    link = tmp_path / "z.m2"
    link.symlink_to("/dev/zero")
    with pytest.raises(reading.NotReadable, match="a device"):
        reading.read_bytes(link)


def test_a_pipe_is_read_to_its_end(tmp_path: Path) -> None:
    fifo = tmp_path / "p.m2"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(b"S a .\n" * 1000))
    writer.start()
    assert reading.read_bytes(fifo) == b"S a .\n" * 1000
    writer.join()


def test_a_pipe_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "p.m2"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as out, contextlib.suppress(BrokenPipeError):
            out.write(b"x" * 5000)

    writer = threading.Thread(target=write)
    writer.start()
    with pytest.raises(reading.NotReadable, match="longer than"):
        reading.read_bytes(fifo, limit=1000)
    writer.join()


def test_the_server_reads_no_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "p.m2"
    os.mkfifo(fifo)  # nobody writes: opening it would wait for ever
    with pytest.raises(reading.NotReadable, match="a pipe"):
        reading.read_bytes(fifo, pipes=False)
