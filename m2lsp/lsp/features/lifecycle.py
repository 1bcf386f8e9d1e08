"""Start-up and settings: initialize (pyproject.toml at the root, initializationOptions),
then workspace/configuration, and later changes of it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp.config import Config, load_config
from m2lsp.errors import UsageError
from m2lsp.lsp.server import M2Server
from m2lsp.scoring.metric import names

log = logging.getLogger(__name__)


def register(ls: M2Server) -> None:
    ls.feature(types.INITIALIZE)(initialize)
    ls.feature(types.INITIALIZED)(initialized)
    ls.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    ls.feature(SERVER_STATS)(server_stats)


SERVER_STATS = "m2lsp/serverStats"


def server_stats(ls: M2Server, *_params: Any) -> dict[str, Any]:
    """What the server holds (for leak hunting and bug reports): open documents, requests
    in flight, its resident memory in KiB (0 where /proc is not there), and the work
    running in threads (a cancelled report leaves it)."""
    return {"documents": len(ls.documents),
            "pendingFutures": len(ls.protocol._request_futures),
            "rssKiB": _rss_kib(), "working": sorted(ls.working)}


def _rss_kib() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def initialize(ls: M2Server, params: types.InitializeParams) -> None:
    caps = params.capabilities
    text = caps.text_document
    ls.pull = bool(text and text.diagnostic)
    workspace = caps.workspace
    ls.refresh_support = bool(workspace and workspace.diagnostics and
                              workspace.diagnostics.refresh_support)
    ls.asks_configuration = bool(workspace and workspace.configuration)
    ls.code_lens_refresh = bool(workspace and workspace.code_lens and
                                workspace.code_lens.refresh_support)
    ls.inlay_hint_refresh = bool(workspace and workspace.inlay_hint and
                                 workspace.inlay_hint.refresh_support)
    root = to_fs_path(params.root_uri) if params.root_uri else params.root_path
    ls.roots = _roots(root, params.workspace_folders)
    if root:
        ls.base = ls.config = _project_config(ls, Path(root))
    if params.initialization_options:
        ls.apply_config(params.initialization_options, "initializationOptions", base=True)


def _roots(root: str | None, folders: Sequence[types.WorkspaceFolder] | None) -> list[Path]:
    """The workspace's folders, resolved (what a command may read over TCP)."""
    found = [root] if root else []
    found += [to_fs_path(f.uri) or "" for f in folders or () if f.uri.startswith("file:")]
    return [Path(folder).resolve() for folder in found if folder]


def _project_config(ls: M2Server, root: Path) -> Config:
    """[tool.m2lsp] of the workspace's pyproject.toml; what is wrong with it (not TOML, an
    unknown key, a bad value) is shown to the user, and the rest of it is used."""
    try:
        return load_config(root, strict=True, metrics=names())
    except UsageError as exc:
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning, message=f"m2lsp: {exc}"))
        return load_config(root, metrics=names())


CONFIGURATION_SECONDS = 10.0  # how long the client may take to send its settings


async def client_settings(ls: M2Server) -> Any:
    """The client's `m2lsp` section (workspace/configuration), or None."""
    if not ls.asks_configuration:
        return None
    found = await ls.ask(ls.workspace_configuration_async(types.ConfigurationParams(
        items=[types.ConfigurationItem(section="m2lsp")])), CONFIGURATION_SECONDS,
        "workspace/configuration (the current settings are kept)")
    return found[0] if found else None


async def initialized(ls: M2Server, params: types.InitializedParams) -> None:
    from m2lsp.lsp.features.sidecars import start_watching

    start_watching(ls)
    settings = await client_settings(ls)
    if settings:
        ls.apply_config(settings, "workspace/configuration")
        if ls.pull and ls.refresh_support:
            ls.workspace_diagnostic_refresh(None)


async def did_change_configuration(ls: M2Server,
                                   params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings or await client_settings(ls)
    if settings:
        ls.apply_config(settings, "workspace/didChangeConfiguration")
    if ls.pull and ls.refresh_support:
        ls.workspace_diagnostic_refresh(None)
