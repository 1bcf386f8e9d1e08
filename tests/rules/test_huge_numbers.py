"""Linear-size linting: no structure is sized by a number read from the file.  Every
numeric field (offsets, annotator ids, CGED offsets and ids, truth-file offsets) gets huge
values; the memory the linter takes stays bounded by the input's size, in process (measured
with tracemalloc) and as a command under an address-space limit (`ulimit -v`)."""

from __future__ import annotations

import resource
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText

HUGE = st.one_of(st.integers(2**31 - 2, 2**31 + 2), st.integers(10**10, 10**30),
                 st.integers(0, 3), st.integers(-(10**20), -1)).map(str)
# digit strings Python will not convert (over 4,300 digits), with leading zeros or a sign
LONG = st.builds(lambda sign, zeros, digits: sign + "0" * zeros + "7" * digits,
                 st.sampled_from(["", "-"]), st.sampled_from([0, 5000]),
                 st.sampled_from([1, 101, 4301, 6000]))
PEAK = 32 * 2**20  # far above what a few-line input needs, far below a huge-number table


def m2_text(numbers: list[str]) -> str:
    a, b, c, d, e, f = numbers
    return (f"S a b c\nA {a} {b}|||R:NOUN|||x|||REQUIRED|||-NONE-|||{c}\n"
            f"A {d} {e}|||M:DET|||the|||REQUIRED|||-NONE-|||{f}\n"
            "A 0 1|||R:NOUN|||y|||REQUIRED|||-NONE-|||0\n\n"
            f"S d e\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{c}\n")


def cged_text(numbers: list[str]) -> str:
    a, b, c, d, e, f = numbers
    return (f'<DOC>\n<TEXT id="{a}">我送你那裡</TEXT>\n'
            f'<ERROR start_off="{b}" end_off="{c}" type="M" answer="到"></ERROR>\n'
            f'<ERROR start_off="{d}" end_off="{e}" type="W"></ERROR>\n</DOC>\n'
            f'<DOC>\n<SENTENCE id="{f}">他們高興</SENTENCE>\n'
            f'<MISTAKE start_off="{e}" end_off="{a}"><TYPE>S</TYPE></MISTAKE>\n</DOC>\n')


def truth_text(numbers: list[str]) -> str:
    a, b, c, d, e, f = numbers
    return f"{a}, {b}, {c}, M, 到\n{d}, {e}, {f}, W\n{a}, correct\n{f}, {a}, {b}, S\n"


FORMATS = {Format.M2: m2_text, Format.CGED: cged_text, Format.TRUTH: truth_text}


@contextmanager
def address_space(extra: int) -> Iterator[None]:
    """This process may take `extra` more bytes of address space: a regression fails with
    MemoryError instead of taking the machine."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    pages = int(Path("/proc/self/statm").read_text().split()[0])
    resource.setrlimit(resource.RLIMIT_AS, (pages * resource.getpagesize() + extra, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(FORMATS)),
       st.lists(st.one_of(HUGE, LONG), min_size=6, max_size=6))
def test_lint_memory_does_not_grow_with_the_numbers_in_the_file(fmt: Format,
                                                                numbers: list[str]) -> None:
    text = FORMATS[fmt](numbers)
    tracemalloc.start()
    try:
        with address_space(512 * 2**20):
            lint(SourceText(text), fmt)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < PEAK, (fmt, numbers, peak)


def test_check_and_its_fixes_under_a_memory_cap(tmp_path: Path) -> None:
    """The reported case (`|||99999999999` as an annotator id) and every field huge, checked
    and fixed as a command limited to 1 GiB of address space."""
    values = ["99999999999", "4294967296", "2147483648", "10" * 15, "1", "0"]
    (tmp_path / "reported.m2").write_text(
        "S a b\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||99999999999\n", encoding="utf-8")
    for fmt, make in FORMATS.items():
        suffix = {Format.M2: ".m2", Format.CGED: ".sgml", Format.TRUTH: "_truth.txt"}[fmt]
        (tmp_path / f"huge{suffix}").write_text(make(values), encoding="utf-8")
        (tmp_path / f"reversed{suffix}").write_text(make(values[::-1]), encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    for extra in ([], ["--fix", "--unsafe-fixes"], ["--output-format", "json"]):
        result = subprocess.run([sys.executable, "-m", "m2lsp", "check", str(tmp_path), *extra],
                                capture_output=True, text=True, timeout=300, preexec_fn=limit)
        assert result.returncode == 1, result.stderr[-2000:]
        assert "Traceback" not in result.stderr
        if not extra:
            assert "reported.m2:2:42: M303 annotator ids 99999999999 are not contiguous: " \
                   "0-99999999998 never used" in result.stdout
