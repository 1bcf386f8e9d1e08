-- m2lsp in Neovim 0.7 and later (no plugin needed).  Put this file in your config (e.g.
-- ~/.config/nvim/lua/m2lsp.lua) and `require("m2lsp").setup()` from init.lua, or
-- `:luafile` it.  The server is the `m2lsp` command: on $PATH, else in a `.venv/bin/` at
-- or above the current folder (the README's install), else `python3 -m m2lsp` where that
-- Python has it; setup{cmd = {...}} names another.  If none is found it says so plainly.
--
--   *.m2 files get the filetype gec-m2 (not Modula-2) and the m2lsp server; CGED SGML/XML
--   (recognised by its elements, *.sgml and *.xml) gec-cged;
--   :M2Score SYSTEM   scores the M2 gold in the current buffer against a system file, keeps
--                     the score live, and fills the quickfix list with every wrong (FP) and
--                     missed (FN) edit, worst sentences first;
--   :M2Review [SORT]  fills the quickfix list again from the current score (SORT: f, fp, fn,
--                     line);
--   :M2ScoreClear     drops the score;
--   :M2Annotate [TEXT] on an S or A line: the corrected sentence TEXT (asked for, prefilled
--                     with the annotator's current correction, when not given) becomes that
--                     annotator's A lines, with ERRANT's (English) or ChERRANT's (char-level
--                     Chinese) types where installed; one undo step;
--   :M2Disagreements  fills the quickfix list with every sentence the annotators disagree on.
-- The server's code actions (vim.lsp.buf.code_action(), on tokens of an S line selected in
-- visual mode: "Add an edit for tokens i–j…"; on an A line: "Re-classify this edit"; on a
-- disagreement: "Adopt annotator N's edits as annotator K", ...) work as they are: the
-- correction and the annotator they need are asked for here (vim.lsp.commands).
local M = {}

local function client_of(bufnr)
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == "m2lsp" then
      return client
    end
  end
end

-- The buffer and its m2lsp client, or nil after saying that m2lsp is not attached.
local function attached(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = client_of(bufnr)
  if not client then
    vim.notify("m2lsp is not attached to this buffer", vim.log.levels.WARN)
  end
  return bufnr, client
end

local function byte_col(bufnr, line, character)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
  local ok, col = pcall(vim.str_byteindex, text, character, true)
  return (ok and col or character) + 1
end

-- The quickfix list from m2lsp/scoreReport: every FP and FN edit, in the report's order.
function M.review(bufnr, sort)
  local client
  bufnr, client = attached(bufnr)
  if not client then
    return
  end
  client.request("m2lsp/scoreReport", { uri = vim.uri_from_bufnr(bufnr), sort = sort or "f" },
    function(err, report)
      if err or not report or report.error then
        return vim.notify("m2lsp: " .. tostring(err and err.message or (report or {}).error),
          vim.log.levels.WARN)
      end
      local items = {}
      for _, sentence in ipairs(report.sentences) do
        for _, edit in ipairs(sentence.edits) do
          if edit.kind ~= "TP" then
            local start = edit.range.start
            table.insert(items, {
              bufnr = bufnr, lnum = start.line + 1,
              col = byte_col(bufnr, start.line, start.character),
              type = edit.kind == "FP" and "W" or "I",
              text = edit.kind .. " " .. edit.message,
            })
          end
        end
      end
      vim.fn.setqflist({}, " ", { title = string.format("m2lsp: F%s %.4f (P %.4f R %.4f)",
        report.beta, report.f, report.precision, report.recall), items = items })
      vim.notify(string.format("m2lsp: F%s %.4f; %d edits in the quickfix list",
        report.beta, report.f, #items))
    end, bufnr)
end

function M.score(system, bufnr)
  local client
  bufnr, client = attached(bufnr)
  if not client then
    return
  end
  client.request("workspace/executeCommand", {
    command = "m2lsp.score",
    arguments = { vim.uri_from_bufnr(bufnr), vim.fn.fnamemodify(system, ":p") },
  }, function(err, result)
    if err then
      return vim.notify("m2lsp: scoring failed: " .. tostring(err.message), vim.log.levels.ERROR)
    end
    M.review(bufnr) -- without a result, the report says why scoring failed
  end, bufnr)
end

-- :M2Annotate: the server's "Annotate from a correction…" action at the cursor gives the
-- block's line, the annotator and the current correction; the corrected sentence is `text`
-- or asked for; the server makes the edits and applies them (workspace/applyEdit).
function M.annotate(text, bufnr)
  local client
  bufnr, client = attached(bufnr)
  if not client then
    return
  end
  local line = vim.api.nvim_win_get_cursor(0)[1] - 1
  local at = { line = line, character = 0 }
  client.request("textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = { start = at, ["end"] = at },
    context = { diagnostics = {}, only = { "refactor.rewrite" } },
  }, function(err, actions)
    local args
    for _, action in ipairs(actions or {}) do
      local command = action.command
      if type(command) == "table" and command.command == "m2lsp.annotateFromCorrection" then
        args = command.arguments
      end
    end
    if err or not args then
      return vim.notify("m2lsp: no M2 sentence here (put the cursor on an S or A line)",
        vim.log.levels.WARN)
    end
    local function run(corrected)
      if not corrected then
        return
      end
      client.request("workspace/executeCommand", { command = "m2lsp.annotateFromCorrection",
        arguments = { args[1], args[2], corrected, args[4] } }, function(e, answer)
          if e or (answer and answer.error) then
            vim.notify("m2lsp: " .. tostring(e and e.message or answer.error),
              vim.log.levels.WARN)
          end
        end, bufnr)
    end
    if text and text ~= "" then
      return run(text)
    end
    vim.ui.input({ prompt = "Corrected (annotator " .. tostring(args[4]) .. "): ",
      default = args[5] }, run)
  end, bufnr)
end

-- :M2Disagreements: every sentence where the annotators' edit sets differ (m2lsp.disagreements).
function M.disagreements(bufnr)
  local client
  bufnr, client = attached(bufnr)
  if not client then
    return
  end
  client.request("workspace/executeCommand", { command = "m2lsp.disagreements",
    arguments = { vim.uri_from_bufnr(bufnr) } }, function(err, found)
      if err or not found then
        return vim.notify("m2lsp: " .. tostring(err and err.message or "no M2 document"),
          vim.log.levels.WARN)
      end
      local items = {}
      for _, d in ipairs(found.disagreements) do
        local parts = {}
        for annotator, edits in pairs(d.only) do
          table.insert(parts, string.format("annotator %s: %d edit(s) others lack", annotator, #edits))
        end
        table.insert(items, { bufnr = bufnr, lnum = d.line, col = 1,
          text = string.format("sentence %d: %s", d.sentence, table.concat(parts, "; ")) })
      end
      vim.fn.setqflist({}, " ", { title = string.format("m2lsp: %d of %d sentences disagree",
        #items, found.sentences), items = items })
    end, bufnr)
end

-- The server's code actions that carry no text: ask for it here, then run the command.
local function run_on_server(ctx, command, arguments)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  client.request("workspace/executeCommand", { command = command, arguments = arguments },
    function(e, answer)
      if e or (answer and answer.error) then
        vim.notify("m2lsp: " .. tostring(e and e.message or answer.error), vim.log.levels.WARN)
      end
    end, ctx.bufnr)
end

local function client_commands()
  if not vim.lsp.commands then
    return
  end
  -- [uri, line, start, end, null, null, annotators, tokens, where]: `where` (the version
  -- and sentence the action was made for) passed on
  vim.lsp.commands["m2lsp.addEdit"] = function(command, ctx)
    local a = command.arguments
    if a[5] ~= nil and a[5] ~= vim.NIL then
      return run_on_server(ctx, command.command, a)
    end
    vim.ui.input({ prompt = "Correction of '" .. tostring(a[8]) .. "': ", default = a[8] },
      function(correction)
        if correction == nil then
          return
        end
        local annotators = type(a[7]) == "table" and a[7] or { "0" }
        local function add(annotator)
          if annotator then
            run_on_server(ctx, command.command,
              { a[1], a[2], a[3], a[4], correction, annotator, a[9] })
          end
        end
        if #annotators > 1 then
          vim.ui.select(annotators, { prompt = "Whose edit is it? " }, add)
        else
          add(annotators[1])
        end
      end)
  end
  -- [uri, line, index, null, token, where]: the token cut with spaces, `where` passed on
  vim.lsp.commands["m2lsp.splitToken"] = function(command, ctx)
    local a = command.arguments
    vim.ui.input({ prompt = "Split '" .. tostring(a[5]) .. "' at spaces: ", default = a[5] },
      function(pieces)
        if pieces then
          run_on_server(ctx, command.command, { a[1], a[2], a[3], pieces, a[5], a[6] })
        end
      end)
  end
  -- [uri, line, null, annotator, current correction]
  vim.lsp.commands["m2lsp.annotateFromCorrection"] = function(command, ctx)
    local a = command.arguments
    vim.ui.input({ prompt = "Corrected (annotator " .. tostring(a[4]) .. "): ", default = a[5] },
      function(text)
        if text then
          run_on_server(ctx, command.command, { a[1], a[2], text, a[4] })
        end
      end)
  end
end

-- The command that starts the server, or nil and why not.
function M.server_command()
  if vim.fn.executable("m2lsp") == 1 then
    return { "m2lsp", "serve" }
  end
  local venv = vim.fn.finddir(".venv", vim.fn.getcwd() .. ";")
  if venv ~= "" then
    local exe = vim.fn.fnamemodify(venv, ":p") .. "bin/m2lsp"
    if vim.fn.executable(exe) == 1 then
      return { exe, "serve" }
    end
  end
  if vim.fn.executable("python3") == 1 then
    vim.fn.system({ "python3", "-c", "import m2lsp" })
    if vim.v.shell_error == 0 then
      return { "python3", "-m", "m2lsp", "serve" }
    end
  end
  return nil, "m2lsp: the language server was not found: no `m2lsp` on $PATH, none in "
    .. "a .venv/bin at or above " .. vim.fn.getcwd() .. ", and python3 cannot import m2lsp. "
    .. "Install it (pip install m2lsp) or pass setup{cmd = {...}}."
end

-- CGED SGML/XML by its elements in the first lines, not by the name alone (a pom.xml is no
-- CGED file).
function M.detect_cged()
  for _, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, 20, false)) do
    local lower = line:lower()
    for _, element in ipairs({ "<doc", "<text", "<sentence", "<error", "<mistake" }) do
      local at = lower:find(element, 1, true)
      if at and lower:sub(at + #element, at + #element):match("[%s>]") then
        vim.bo.filetype = "gec-cged"
        return
      end
    end
  end
end

function M.setup(opts)
  opts = opts or {}
  local cmd, missing = opts.cmd, nil
  if not cmd then
    cmd, missing = M.server_command()
  end
  _G.m2lsp_detect_cged = M.detect_cged
  -- `set filetype`, not `setfiletype`: Vim already calls *.m2 Modula-2
  vim.cmd([[augroup m2lsp
    autocmd!
    autocmd BufRead,BufNewFile *.m2 set filetype=gec-m2
    autocmd BufRead,BufNewFile *.sgml,*.xml lua m2lsp_detect_cged()
    autocmd BufRead,BufNewFile *[Tt]ruth*.txt set filetype=gec-cged-truth
  augroup END]])
  _G.m2lsp_attach = function()
    if not cmd then
      return vim.notify(missing, vim.log.levels.ERROR)
    end
    -- vim.lsp.start (0.8+) reuses one server; start_client + buf_attach_client on 0.7.
    -- The settings go as initializationOptions too: Neovim 0.7 neither answers
    -- workspace/configuration nor sends them otherwise.
    if vim.lsp.start then
      vim.lsp.start({ name = "m2lsp", cmd = cmd, root_dir = vim.fn.getcwd(),
        settings = opts.settings, init_options = opts.settings })
    else
      M.client_id = M.client_id or vim.lsp.start_client({ name = "m2lsp", cmd = cmd,
        root_dir = vim.fn.getcwd(), settings = opts.settings, init_options = opts.settings })
      vim.lsp.buf_attach_client(0, M.client_id)
    end
  end
  vim.cmd([[augroup m2lsp_start
    autocmd!
    autocmd FileType gec-m2,gec-cged,gec-cged-truth lua m2lsp_attach()
  augroup END]])
  vim.api.nvim_create_user_command("M2Score", function(a) M.score(a.args) end,
    { nargs = 1, complete = "file" })
  vim.api.nvim_create_user_command("M2Review", function(a) M.review(nil, a.args ~= "" and a.args or nil) end,
    { nargs = "?" })
  vim.api.nvim_create_user_command("M2Annotate", function(a) M.annotate(a.args) end,
    { nargs = "?" })
  vim.api.nvim_create_user_command("M2Disagreements", function() M.disagreements() end, {})
  client_commands()
  vim.api.nvim_create_user_command("M2ScoreClear", function()
    local client = client_of(0)
    if client then
      client.request("workspace/executeCommand", { command = "m2lsp.clearScores",
        arguments = { vim.uri_from_bufnr(0) } }, function() end, 0)
    end
  end, {})
end

return M
