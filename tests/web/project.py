"""A small project for the web tests: three sentences, two annotators, a curator and a
manager (the passwords are each name twice and `-pw`), and clients logged in as each."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from starlette.testclient import TestClient

from m2lsp.web.accounts import add_user
from m2lsp.web.app import build_app
from m2lsp.web.assignments import assign
from m2lsp.web.db import connect
from m2lsp.web.project import add_layer, init_project

SENTENCES = ["This are a test .", "He go home .", "She like cats ."]
PEOPLE = {"ann": "annotator", "bob": "annotator", "cur": "curator", "boss": "manager"}


def password(name: str) -> str:
    return f"{name}{name}-pw"


def make_project(root: Path) -> Path:
    project = init_project(root, [s.split() for s in SENTENCES], "en")
    db = connect(project.database)
    for name, role in PEOPLE.items():
        add_user(db, name, role, password(name))
        if role == "annotator":
            add_layer(project, name)
    assign(db, project, {"user": "ann", "first": 1, "last": 2})
    assign(db, project, {"user": "bob", "first": 1, "last": 3})
    db.close()
    return root


@dataclass
class Team:
    root: Path
    app: object

    def client(self, name: str | None = None, **kwargs: object) -> TestClient:
        """A client (no cookie), or one logged in as `name` with its CSRF header set."""
        client = TestClient(self.app, **kwargs)  # type: ignore[arg-type]
        if name is not None:
            answer = client.post("/login", json={"name": name, "password": password(name)})
            assert answer.status_code == 200, answer.text
            client.headers["X-CSRF-Token"] = answer.json()["csrf"]
        return client

    def state(self) -> tuple[dict[str, bytes], list]:
        """Every file of the project (but the database's) and every row of the database:
        what a refused request must leave as it was."""
        files = {str(p.relative_to(self.root)): p.read_bytes() for p in self.root.rglob("*")
                 if p.is_file() and not p.name.startswith("m2lsp-web.sqlite3")}
        db = sqlite3.connect(self.root / "m2lsp-web.sqlite3")
        rows = [list(db.execute(f"SELECT * FROM {t} ORDER BY 1, 2"))
                for t in ("users", "sessions", "assignments", "events",
                          "suggestion_decisions")]
        db.close()
        return files, rows


@cache
def _made() -> Path:
    """The project made once a test run (hashing four passwords takes a while), copied for
    each test."""
    folder = tempfile.mkdtemp(prefix="m2lsp-web-")
    atexit.register(shutil.rmtree, folder, True)
    return make_project(Path(folder) / "project")


def team(tmp_path: Path) -> Team:
    """A copy of the project, served with the plain alignment's types (`UNK`): the tests
    of typing build their app with ERRANT's (tests/web/test_types.py)."""
    root = tmp_path / "project"
    shutil.copytree(_made(), root)
    return Team(root, build_app(root, types=False))
