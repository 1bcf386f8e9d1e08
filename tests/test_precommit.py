"""The pre-commit hooks, run by the real `pre-commit` tool against this repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
BAD = "S The cat sat .\nA 5 6|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
GOOD = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def _store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pre-commit's store: one for the run's xdist workers (the run's shared temporary
    folder), so the hook's environment is installed once, not once a worker (25 s each);
    pre-commit locks its store while it installs one."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "pre-commit"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    folder = tmp_path_factory.mktemp("precommit")
    env = {**os.environ, "PRE_COMMIT_HOME": str(_store(tmp_path_factory)), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    repo = folder / "data"
    repo.mkdir()
    (repo / "bad.m2").write_text(BAD, encoding="utf-8")
    (repo / "good.m2").write_text(GOOD, encoding="utf-8")
    (repo / "fixable.m2").write_text(GOOD.replace("|||0\n", "|||0  \n"), encoding="utf-8")
    run(["git", "init", "-q"], repo, env)
    run(["git", "add", "."], repo, env)
    return repo, env


def test_manifest_is_valid() -> None:
    manifest = str(ROOT / ".pre-commit-hooks.yaml")
    result = subprocess.run([*PRE_COMMIT, "validate-manifest", manifest],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_hook_fails_on_a_bad_file_and_passes_on_a_good_one(workspace) -> None:
    repo, env = workspace
    bad = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-m2", "--files", "bad.m2"], repo, env)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.m2:2:3: M102 edit ends at token 6 but the sentence has 4 token(s)" in bad.stdout
    good = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-m2", "--files", "good.m2"], repo, env)
    assert good.returncode == 0, good.stdout + good.stderr


@pytest.mark.slow
def test_fix_hook_rewrites_the_file(workspace) -> None:
    repo, env = workspace
    result = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-fix", "--files", "fixable.m2"],
                 repo, env)
    assert result.returncode == 1  # pre-commit fails a hook that changed files
    assert (repo / "fixable.m2").read_text(encoding="utf-8") == GOOD


@pytest.mark.slow
def test_batches_never_say_passed_after_another_found_problems(workspace) -> None:
    repo, env = workspace
    names = [f"good{i}.m2" for i in range(6)]
    for name in names:
        (repo / name).write_text(GOOD, encoding="utf-8")
    result = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-m2", "--files", "bad.m2", *names],
                 repo, env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "M102" in result.stdout
    assert "passed" not in result.stdout.replace("Passed", "")  # pre-commit's own word aside


POM = ('<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">'
       "\n  <modelVersion>4.0.0</modelVersion>\n</project>\n")
CGED_BAD = ('<DOC>\n<TEXT id="1">我喜歡你</TEXT>\n'
            '<ERROR start_off="9" end_off="9" type="S"></ERROR>\n</DOC>\n')


@pytest.mark.slow
def test_cged_hook_checks_cged_xml_and_skips_other_xml(workspace) -> None:
    """Selected by name (*.xml), a pom.xml is no CGED file: skipped and counted, not C001."""
    repo, env = workspace
    (repo / "pom.xml").write_text(POM, encoding="utf-8")
    (repo / "cged.xml").write_text(CGED_BAD, encoding="utf-8")
    alone = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-cged", "--verbose", "--files",
                 "pom.xml"], repo, env)
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert "No file was checked; 1 skipped (not M2 or CGED)." in alone.stdout
    both = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-cged", "--files", "pom.xml",
                "cged.xml"], repo, env)
    assert both.returncode == 1, both.stdout + both.stderr
    assert "cged.xml:3:" in both.stdout and "pom.xml" not in both.stdout


@pytest.mark.slow
def test_a_gold_with_a_control_byte_is_checked(workspace) -> None:
    """`types: [text]` passed over any file with a NUL or control byte in its first KiB
    ("no files to check"): such a gold must be checked like any other."""
    repo, env = workspace
    (repo / "x.m2").write_bytes(b"S The cat sat .\nA 9 1|||Det|||A|||REQUIRED|||-NONE-|||0\n"
                                b"\x1a")
    (repo / "nul.m2").write_bytes(b"S The cat\x00 sat .\n")
    result = run([*PRE_COMMIT, "try-repo", str(ROOT), "m2lsp-m2", "--files", "x.m2",
                  "nul.m2"], repo, env)
    assert result.returncode == 1, result.stdout + result.stderr
    for found in ("x.m2:2:3: M101", "x.m2:2:3: M102", "M009"):
        assert found in result.stdout, result.stdout
