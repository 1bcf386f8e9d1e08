-- Headless Neovim 0.7+: the workbench through Neovim's own LSP client -- token numbers
-- (textDocument/inlayHint), completion of offsets after `A `, the code action "Add an edit
-- for tokens i–j…" on a selection of an S line's tokens, its command run with a correction
-- (the server's workspace/applyEdit applied by Neovim to the buffer); writes what it saw to
-- $M2LSP_NVIM_OUT as JSON.
local m2lsp = dofile(os.getenv("M2LSP_NVIM_SETUP"))
m2lsp.setup({ cmd = vim.fn.json_decode(os.getenv("M2LSP_NVIM_CMD")),
  settings = { m2lsp = { spacyModel = "no_such_pipeline", annotationType = "OTHER",
                         tokenNumbers = "always" } } })
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("M2LSP_NVIM_GOLD")))
local attached = vim.wait(30000, function()
  return next(vim.lsp.buf_get_clients(0)) ~= nil
end, 50)
vim.wait(3000)
local client = select(2, next(vim.lsp.buf_get_clients(0)))
local uri = vim.uri_from_bufnr(0)
local function lines() return vim.api.nvim_buf_get_lines(0, 0, -1, false) end

local out = { attached = attached }
local hints = client.request_sync("textDocument/inlayHint", { textDocument = { uri = uri },
  range = { start = { line = 0, character = 0 }, ["end"] = { line = 20, character = 0 } } },
  10000, 0)
out.numbers = {}
for _, hint in ipairs((hints or {}).result or {}) do
  if hint.kind == 2 then
    table.insert(out.numbers, { hint.position.line, hint.position.character, hint.label })
  end
end

-- `A ` typed on a new line under the last S line: the start offsets
vim.api.nvim_buf_set_lines(0, -1, -1, false, { "A " })
vim.wait(500)
local row = #lines() - 1
local completion = client.request_sync("textDocument/completion", { textDocument = { uri = uri },
  position = { line = row, character = 2 } }, 10000, 0)
out.starts = {}
for _, item in ipairs(((completion or {}).result or {}).items or {}) do
  table.insert(out.starts, { item.label, item.detail })
end
vim.api.nvim_buf_set_lines(0, row, row + 1, false, {})
vim.wait(500)

-- "here" (token 1 of the last S line) selected: the action, and its command run
local s_row = #lines() - 1
local actions = client.request_sync("textDocument/codeAction", { textDocument = { uri = uri },
  range = { start = { line = s_row, character = 9 }, ["end"] = { line = s_row, character = 13 } },
  context = { diagnostics = {} } }, 10000, 0)
out.titles = {}
local add
for _, action in ipairs((actions or {}).result or {}) do
  table.insert(out.titles, action.title)
  if action.title:find("^Add an edit") then add = action.command end
end
if add then
  local arguments = add.arguments
  local answer = client.request_sync("workspace/executeCommand", { command = add.command,
    arguments = { arguments[1], arguments[2], arguments[3], arguments[4], "there", "0",
                  arguments[9] } },
    30000, 0)
  out.applied = answer and answer.result and answer.result.applied
  vim.wait(1000)
end
out.after = lines()

-- the same through Neovim's own code-action menu and the recipe's client command: "go" of
-- the first S line, its correction asked for (vim.ui.input answered here)
vim.ui.select = function(items, opts, on_choice)
  for index, item in ipairs(items) do
    local title = type(item) == "table" and (item.title or (item[2] or {}).title) or tostring(item)
    if title and title:find("^Add an edit") then
      return on_choice(item, index)
    end
  end
  on_choice(nil, nil)
end
vim.ui.input = function(opts, on_confirm)
  out.asked = opts.default
  on_confirm("went")  -- not the gold's "goes" again: an edit it has already is refused
end
local before = table.concat(lines(), "\n")
vim.lsp.buf.range_code_action({ diagnostics = {} }, { 1, 5 }, { 1, 6 })
vim.wait(20000, function() return table.concat(lines(), "\n") ~= before end, 50)
out.menu = lines()

local file = io.open(os.getenv("M2LSP_NVIM_OUT"), "w")
file:write(vim.fn.json_encode(out))
file:close()
for _, c in pairs(vim.lsp.buf_get_clients(0)) do c.stop() end
vim.cmd("qa!")
