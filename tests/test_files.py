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


@pytest.mark.parametrize("together", [False, True])
def test_the_folder_is_flushed_after_the_rename(tmp_path: Path, monkeypatch, together) -> None:
    """The file's content is flushed before the rename, its folder after it: the new name
    outlives a power loss, not only a killed process."""
    from m2lsp.files import writing
    from m2lsp.files.writing import write_together

    flushed: list[tuple[bool, bool]] = []  # (a folder?, the target there yet?)
    target = tmp_path / "out.m2"
    real = os.fsync

    def fsync(fd: int) -> None:
        flushed.append((stat.S_ISDIR(os.fstat(fd).st_mode), target.exists()))
        real(fd)

    monkeypatch.setattr(writing.os, "fsync", fsync)
    if together:
        write_together([(target, "S a\n"), (tmp_path / "b.m2", "S b\n")])
    else:
        write_atomic(target, "S a\n")
    files = [f for f in flushed if not f[0]]
    assert files and all(not there for _, there in files)  # before the rename
    assert flushed[-1] == (True, True) and flushed.count((True, True)) == 1  # once after


@pytest.mark.parametrize("most", [1, 3, 1 << 20], ids=["a byte", "3 bytes", "all"])
def test_parts_are_written_whole_however_little_each_call_writes(tmp_path, monkeypatch, most):
    """`write_parts` (a file kept in pieces, written again whole without joining them):
    writev may write less than it was given, and past 1,024 parts it is called again."""
    import m2lsp.files.writing as writing

    writev = os.writev
    monkeypatch.setattr(writing.os, "writev",
                        lambda fd, parts: writev(fd, [bytes(b"".join(parts)[:most])]))
    parts = [b"", b"S a b\n\n", *(f"S {n}\n\n".encode() for n in range(1500)), b"\xc3\xa9"]
    path = tmp_path / "f.m2"
    with atomic_open(path, binary=True) as out:
        out.write(b"# head\n")
        out.write_parts(parts)
    assert path.read_bytes() == b"# head\n" + b"".join(parts)


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


# -- what the output path names: devices, pipes, links, protected files ------------------

A_M2 = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
B_M2 = "S The cat sat .\nA 3 3|||M:ADV|||down|||REQUIRED|||-NONE-|||0\n\n"
MERGED = ("S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
          "A 3 3|||M:ADV|||down|||REQUIRED|||-NONE-|||1\n\n")
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (mknod, chown)")
OTHER_UID = 4321


def _merge_into(tmp_path: Path, output: Path, capsys) -> tuple[int, str]:
    from m2lsp.cli import main

    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    (folder / "a.m2").write_text(A_M2, "utf-8")
    (folder / "b.m2").write_text(B_M2, "utf-8")
    code = main(["merge", str(folder / "a.m2"), str(folder / "b.m2"), "-o", str(output)])
    return code, capsys.readouterr().err


@ROOT_ONLY
def test_a_device_node_is_written_through_never_replaced(tmp_path: Path, capsys) -> None:
    null = tmp_path / "null"
    os.mknod(null, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # a private /dev/null
    code, err = _merge_into(tmp_path, null, capsys)
    assert code == 0, err
    info = os.lstat(null)
    assert stat.S_ISCHR(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name != "in"] == ["null"]


@ROOT_ONLY
def test_a_full_device_says_no_space_left(tmp_path: Path, capsys) -> None:
    full = tmp_path / "full"
    os.mknod(full, 0o600 | stat.S_IFCHR, os.makedev(1, 7))  # a private /dev/full
    code, err = _merge_into(tmp_path, full, capsys)
    assert code == 2
    assert err.strip() == f"m2lsp: error: cannot write {full}: No space left on device"
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_a_fifo_with_a_reader_gets_the_gold_and_stays_a_fifo(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "gold.m2"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, err = _merge_into(tmp_path, fifo, capsys)
    if reader.is_alive():  # nothing opened it: let the reader see an end, not wait for ever
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(timeout=30)
    assert code == 0, err
    assert got == [MERGED.encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_check_fix_of_a_pipe_does_not_write_it_back(tmp_path: Path, capsys) -> None:
    from m2lsp.cli import main

    fifo = tmp_path / "gold.m2"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(
        b"S a . \nA 0 1|||R:X|||b|||REQUIRED|||-NONE-|||0 \n\n"))
    writer.start()
    code = main(["check", "--fix", str(fifo)])  # writing back would wait for a reader
    writer.join(timeout=30)
    assert code == 2 and "not written back" in capsys.readouterr().err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("alias", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_stdout_by_name_into_a_pipe(tmp_path: Path, alias: str) -> None:
    import subprocess
    import sys

    (tmp_path / "a.m2").write_text(A_M2, "utf-8")
    (tmp_path / "b.m2").write_text(B_M2, "utf-8")
    done = subprocess.run([sys.executable, "-m", "m2lsp", "merge", "a.m2", "b.m2", "-o",
                           alias], cwd=tmp_path, capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert done.returncode == 0, done.stderr
    assert done.stdout == MERGED.encode() and b"Traceback" not in done.stderr


def test_a_folder_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "out").mkdir()
    code, err = _merge_into(tmp_path, tmp_path / "out", capsys)
    assert code == 2 and "it is a folder" in err and "Traceback" not in err


def _shared_folder(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # as /tmp: sticky, world-writable, owned by root
    return shared


@ROOT_ONLY
def test_another_users_link_in_a_shared_folder_is_not_followed(tmp_path: Path,
                                                               capsys) -> None:
    victim = tmp_path / "home" / "thesis.tex"
    victim.parent.mkdir()
    victim.write_text("years of work\n")
    os.chown(victim, 1234, 1234)
    link = _shared_folder(tmp_path) / "gold.m2"
    link.symlink_to(victim)
    os.lchown(link, OTHER_UID, OTHER_UID)  # planted by another user
    code, err = _merge_into(tmp_path, link, capsys)
    assert code == 2 and "symbolic link of another user" in err
    assert victim.read_text() == "years of work\n" and link.is_symlink()


@ROOT_ONLY
def test_another_users_link_to_a_folder_in_a_shared_folder_is_not_followed(
        tmp_path: Path, capsys) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "gold.m2").write_text("years of work\n")
    link = _shared_folder(tmp_path) / "project"
    link.symlink_to(home)
    os.lchown(link, OTHER_UID, OTHER_UID)
    code, err = _merge_into(tmp_path, link / "gold.m2", capsys)
    assert code == 2 and "symbolic link of another user" in err
    assert (home / "gold.m2").read_text() == "years of work\n"


@ROOT_ONLY
@pytest.mark.parametrize("owner", ["mine", "the folder's"])
def test_a_link_of_the_user_or_the_folders_owner_is_followed(tmp_path: Path, capsys,
                                                             owner: str) -> None:
    shared = _shared_folder(tmp_path)
    real = tmp_path / "real.m2"
    real.write_text("old\n")
    link = shared / "gold.m2"
    link.symlink_to(real)
    if owner == "the folder's":
        os.chown(shared, OTHER_UID, OTHER_UID)
        os.lchown(link, OTHER_UID, OTHER_UID)
    code, err = _merge_into(tmp_path, link, capsys)
    assert code == 0, err
    assert link.is_symlink() and real.read_text() == MERGED


@pytest.mark.parametrize("mode", [0o444, 0o044, 0o400], ids=["0444", "0044", "0400"])
def test_a_read_only_file_is_not_replaced(tmp_path: Path, capsys, mode: int) -> None:
    target = tmp_path / "gold.m2"
    target.write_text("kept\n")
    os.chmod(target, mode)
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 2 and "is read-only" in err
    assert target.read_text() == "kept\n" and stat.S_IMODE(target.stat().st_mode) == mode


@ROOT_ONLY
def test_root_replaces_another_users_file_keeping_its_owner(tmp_path: Path, capsys) -> None:
    target = tmp_path / "gold.m2"
    target.write_text("old\n")
    os.chown(target, OTHER_UID, 1234)
    os.chmod(target, 0o640)
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 0, err
    info = target.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (OTHER_UID, 1234, 0o640)
    assert target.read_text() == MERGED


@ROOT_ONLY
def test_another_users_file_in_a_shared_folder_is_not_replaced(tmp_path: Path,
                                                               capsys) -> None:
    target = _shared_folder(tmp_path) / "gold.m2"
    target.write_text("kept\n")
    os.chown(target, OTHER_UID, OTHER_UID)  # put there by another user
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 2 and "protected_regular" in err
    assert target.read_text() == "kept\n" and target.stat().st_uid == OTHER_UID


def test_a_user_other_than_root_does_not_replace_another_users_file(
        tmp_path: Path, capsys, monkeypatch) -> None:
    target = tmp_path / "gold.m2"
    target.write_text("kept\n")
    owner = target.stat().st_uid
    monkeypatch.setattr(os, "geteuid", lambda: owner + 1000)  # as if another user ran it
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 2 and "belongs to another user" in err and "could not keep its owner" in err
    assert target.read_text() == "kept\n"


def _planted(path: Path) -> None:
    os.chmod(path.parent, 0o1777)
    os.chown(path, OTHER_UID, OTHER_UID)


@ROOT_ONLY
@pytest.mark.parametrize(("protect", "said"), [
    (_planted, "belongs to another user"),
    (lambda p: os.chmod(p, 0o444), "is read-only")], ids=["other-user-in-tmp", "0444"])
def test_check_fix_does_not_replace_a_protected_file(tmp_path: Path, capsys, protect,
                                                     said: str) -> None:
    from m2lsp.cli import main

    target = tmp_path / "gold.m2"
    target.write_text("S a . \nA 0 1|||R:X|||b|||REQUIRED|||-NONE-|||0 \n\n")
    protect(target)
    before, info = target.read_bytes(), target.stat()
    assert main(["check", "--fix", str(target)]) == 2
    assert said in capsys.readouterr().err
    assert target.read_bytes() == before
    assert (target.stat().st_uid, target.stat().st_mode) == (info.st_uid, info.st_mode)


@ROOT_ONLY
def test_check_fix_as_root_keeps_the_owner(tmp_path: Path, capsys) -> None:
    from m2lsp.cli import main

    target = tmp_path / "gold.m2"
    target.write_text("S a . \nA 0 1|||R:X|||b|||REQUIRED|||-NONE-|||0 \n\n")
    os.chown(target, OTHER_UID, OTHER_UID)  # a checkout of the host's user, in a container
    assert main(["check", "--fix", str(target)]) == 0, capsys.readouterr().err
    assert b" \n" not in target.read_bytes() and target.stat().st_uid == OTHER_UID


@ROOT_ONLY
def test_the_group_is_kept(tmp_path: Path, capsys) -> None:
    target = tmp_path / "gold.m2"
    target.write_text("old\n")
    os.chown(target, os.geteuid(), 1234)
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 0, err
    assert target.stat().st_gid == 1234 and target.read_text() == MERGED


def test_a_hard_link_split_from_its_file_is_said(tmp_path: Path, capsys) -> None:
    target = tmp_path / "gold.m2"
    target.write_text("old\n")
    os.link(target, tmp_path / "backup.m2")
    code, err = _merge_into(tmp_path, target, capsys)
    assert code == 0 and target.read_text() == MERGED
    assert "1 other hard link(s); they keep the old content" in err
    assert (tmp_path / "backup.m2").read_text() == "old\n"


@ROOT_ONLY
@pytest.mark.slow
def test_annotate_into_a_device_makes_no_shards_beside_it(tmp_path: Path, capsys,
                                                          monkeypatch) -> None:
    from m2lsp.annotation import shards
    from m2lsp.cli import main
    from tests.annotation.conftest import spacy_model

    model = spacy_model()
    null = tmp_path / "dev" / "null"
    null.parent.mkdir()
    os.mknod(null, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    (tmp_path / "o.txt").write_text("The cat sat .\n")
    (tmp_path / "c.txt").write_text("The dog sat .\n")

    def no_parts(output: Path) -> None:
        raise AssertionError(f"a shard folder beside {output}")

    monkeypatch.setattr(shards.Parts, "beside", staticmethod(no_parts))
    assert main(["annotate", "--spacy-model", model, "--orig", str(tmp_path / "o.txt"),
                 "--cor", str(tmp_path / "c.txt"), "-o", str(null)]) == 0, \
        capsys.readouterr().err
    assert [p.name for p in null.parent.iterdir()] == ["null"]
