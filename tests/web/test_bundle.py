"""The pages' bundle: the committed m2lsp/web/static/app.js and app.css are what
web-client/ builds (`npm ci`, the type check, esbuild: compared byte for byte, so
`pip install .` needs no Node), and the page asks the server only for routes it has."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

CLIENT = ROOT / "web-client"
STATIC = ROOT / "m2lsp" / "web" / "static"
NPM = shutil.which("npm")


@pytest.mark.slow
def test_the_committed_bundle_is_what_the_sources_build(tmp_path):
    if NPM is None:
        if os.environ.get("M2LSP_REQUIRE_EDITORS") == "1":
            pytest.fail("npm is not installed and M2LSP_REQUIRE_EDITORS=1")
        pytest.skip("npm (Node 20) is not installed: the pages' bundle cannot be rebuilt")
    folder = tmp_path / "web-client"
    shutil.copytree(CLIENT, folder, ignore=shutil.ignore_patterns("node_modules"))
    out = tmp_path / "static"
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "typecheck"],
                 ["run", "build", "--", str(out)]):
        done = subprocess.run([NPM, *step], cwd=folder, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"npm {' '.join(step)} failed:\n{done.stdout}\n{done.stderr}"
    built = sorted(p.name for p in out.iterdir())
    assert built == ["app.css", "app.js"]
    for name in built:
        assert (out / name).read_bytes() == (STATIC / name).read_bytes(), (
            f"m2lsp/web/static/{name} is not what web-client builds: cd web-client && "
            "npm ci && npm run build, then commit it")


def test_the_page_asks_only_for_routes_the_server_has():
    pytest.importorskip("starlette")
    import importlib
    import pkgutil

    from starlette.routing import Match

    from m2lsp.web import views

    routes = [route for found in pkgutil.iter_modules(views.__path__)
              for route in getattr(importlib.import_module(f"{views.__name__}.{found.name}"),
                                   "ROUTES", [])]
    asked, paths = set(), set()
    for source in (CLIENT / "src").glob("*.ts"):
        text = source.read_text(encoding="utf-8")
        for method, path in re.findall(r'api(?:<[^>]*>)?\(\s*"([A-Z]+)",\s*[`"]([^`"]+)[`"]',
                                       text):
            asked.add((method, re.sub(r"\$\{[^}]+\}", "1", path)))
        paths |= {re.sub(r"\$\{[^}]+\}", "1", p) for p in re.findall(r'[`"](/api/[^`"]*)[`"]',
                                                                     text)}
    assert {("PUT", "/api/sentences/1"), ("GET", "/api/me"), ("POST", "/api/assignments"),
            ("GET", "/api/curating/1"), ("POST", "/api/sentences/1/type")} <= asked
    assert {"/api/curation", "/api/curation/1"} <= paths  # a decision's path is a variable

    def served(method: str | None, path: str) -> bool:
        scope = {"type": "http", "method": method or "GET", "path": path, "path_params": {}}
        wanted = (Match.FULL,) if method else (Match.FULL, Match.PARTIAL)
        return any(r.matches(scope)[0] in wanted for r in routes)

    assert [a for a in asked if not served(*a)] == []
    assert [p for p in paths if not served(None, p)] == []
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    fetched = {ref for ref in re.findall(r'(?:src|href)="([^"]+)"', html)
               if not ref.startswith("data:")}  # an empty icon in place: no request
    assert fetched == {"/static/app.js", "/static/app.css"}
