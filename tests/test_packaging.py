"""The wheel ships the grammars, the report's template and the web pages as package data,
the compiled cores, and the console scripts."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.run_once import shared_folder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel `python -m build` makes (the wheel from the sdist, as a
    release's), built once for the run's workers (tests/run_once.py): the two tests below
    read the same release (each built its own, compiling every C core)."""
    return shared_folder(tmp_path_factory, "release", _build) / "dist"


def _build(into: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(into / "dist"),
                           str(ROOT)], capture_output=True, text=True, timeout=1200)
    if done.returncode and "Could not fetch" in done.stdout + done.stderr:
        pytest.skip("the package index cannot be reached to build in isolation")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.mark.slow
def test_wheel_contains_grammars_and_packages(dist: Path) -> None:
    wheel = next(dist.glob("m2lsp-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for grammar in ("m2.lark", "cged.lark", "cged_truth.lark"):
        assert f"m2lsp/grammar/{grammar}" in names
    assert "m2lsp/rules/m2_edits.py" in names and "m2lsp/scoring/__init__.py" in names
    # every package data file: the report's page template and the web pages' bundle too
    data = {p.relative_to(ROOT).as_posix() for p in [*(ROOT / "m2lsp").rglob("*.j2"),
                                                      *(ROOT / "m2lsp/web/static").iterdir()]}
    assert data and data <= names, data - names
    # every package of the source tree is in the wheel (the package list is written out)
    packages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "m2lsp").rglob("__init__.py")}
    assert packages <= names, packages - names
    # every C source is listed as an extension and compiled into the wheel (this machine
    # has a compiler; each stays optional where none is)
    sources = {p.relative_to(ROOT).with_suffix("").as_posix()
               for p in (ROOT / "m2lsp").rglob("_*.c")}
    built = {n.split(".", 1)[0] for n in names if n.endswith(".so")}
    assert sources and sources <= built, sources - built
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "m2lsp = m2lsp.cli:entry" in text


@pytest.mark.slow
def test_a_release_builds_checks_and_installs(dist: Path, tmp_path: Path) -> None:
    """`python -m build` makes the sdist and the wheel, `twine check` passes them, and the
    wheel installed in a fresh venv runs `m2lsp check` on the bundled example (the README's
    first command, from a wheel)."""
    sdist, wheel = next(dist.glob("m2lsp-*.tar.gz")), next(dist.glob("m2lsp-*.whl"))
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(sdist),
                              str(wheel)], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-2000:]
    ran = subprocess.run([str(venv / "bin" / "m2lsp"), "check", "--exit-zero",
                          str(ROOT / "examples")], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "examples/annotated.m2:" in ran.stdout and "problem" in ran.stdout


@pytest.mark.slow
def test_a_wheel_built_without_a_compiler_gives_the_same_numbers(tmp_path: Path) -> None:
    """The release's pure-Python job, here: with no C compiler (CC=false) every C core is
    skipped, the wheel still installs, and `check` and `score` print what the compiled
    build prints."""
    import os
    import shutil

    tree = tmp_path / "src"  # the checkout's files, as a release's clean checkout has them
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, cwd=ROOT, check=True).stdout
    for name in listed.splitlines():
        if (ROOT / name).is_file() and not name.endswith(".so"):
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tree / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(tree), "--no-deps",
                           "-q", "--no-build-isolation", "-w", str(tmp_path / "pure")],
                          capture_output=True, text=True, timeout=900,
                          env={**os.environ, "CC": "false", "LDSHARED": "false"})
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = next((tmp_path / "pure").glob("m2lsp-*.whl"))
    assert not any(n.endswith(".so") for n in zipfile.ZipFile(wheel).namelist())
    target = tmp_path / "site"  # the pure wheel, before this environment's m2lsp
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(target), str(wheel)], check=True, timeout=600)
    example = str(ROOT / "examples" / "annotated.m2")
    system = tmp_path / "sys.txt"
    system.write_text("".join(line[2:] + "\n" for line in
                              (ROOT / "examples" / "annotated.m2").read_text().splitlines()
                              if line.startswith("S ")))
    outputs = []
    for path in (str(target), str(ROOT)):
        env = {**os.environ, "PYTHONPATH": path}
        runs = [subprocess.run([sys.executable, "-m", "m2lsp", *argv], capture_output=True,
                               text=True, timeout=300, cwd=tmp_path, env=env)
                for argv in (["check", "--exit-zero", example],
                             ["score", str(system), example])]
        outputs.append([(r.returncode, r.stdout, r.stderr) for r in runs])
    pure = subprocess.run([sys.executable, "-c", "import m2lsp.scoring.m2.lattice as l; "
                           "print(l.compiled, l.__file__)"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300, env={**os.environ,
                                                          "PYTHONPATH": str(target)})
    assert pure.stdout.startswith(f"None {target}"), pure.stdout + pure.stderr
    assert outputs[0] == outputs[1]


def test_the_release_wheels_are_configured() -> None:
    """cibuildwheel reads its configuration (pyproject.toml) and would build CPython
    3.11-3.13 wheels for Linux, macOS and Windows."""
    import shutil as _shutil

    found = _shutil.which("cibuildwheel", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("cibuildwheel is not installed (the release workflow installs it)")
    for platform, expected in (("linux", "cp311-manylinux_x86_64"),
                               ("windows", "cp313-win_amd64"),
                               ("macos", "cp312-macosx_x86_64")):
        done = subprocess.run([found, "--print-build-identifiers", "--platform", platform],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0 and expected in done.stdout.split(), done.stderr
