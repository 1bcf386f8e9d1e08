-- Headless Neovim 0.7+: the README's setup (docs/editors/m2lsp.lua), then :M2Annotate on an
-- A line, once with the text given and once through the prompt (vim.ui.input answered
-- here), then one undo; writes what it saw to $M2LSP_NVIM_OUT as JSON.
local m2lsp = dofile(os.getenv("M2LSP_NVIM_SETUP"))
m2lsp.setup({ cmd = vim.fn.json_decode(os.getenv("M2LSP_NVIM_CMD")),
  settings = { m2lsp = { spacyModel = "no_such_pipeline", annotationType = "OTHER" } } })
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("M2LSP_NVIM_GOLD")))
local attached = vim.wait(30000, function()
  return next(vim.lsp.buf_get_clients(0)) ~= nil
end, 50)
vim.wait(4000)
local function lines() return vim.api.nvim_buf_get_lines(0, 0, -1, false) end
local original = lines()
local function changed(before)
  return vim.wait(60000, function() return table.concat(lines(), "\n") ~= before end, 50)
end

vim.api.nvim_win_set_cursor(0, { 3, 0 }) -- annotator 1's first A line
local before = table.concat(lines(), "\n")
vim.cmd("M2Annotate He goes to the school yesterday .")
local given = changed(before) and lines() or nil

local asked = {}
vim.ui.input = function(opts, on_confirm)
  asked = { prompt = opts.prompt, default = opts.default }
  on_confirm("It is very fine .")
end
vim.api.nvim_win_set_cursor(0, { #lines(), 0 }) -- the last S line, no edits yet
before = table.concat(lines(), "\n")
vim.cmd("let &undolevels = &undolevels") -- a new undo step, as a user's next command starts
vim.cmd("M2Annotate")
local prompted = changed(before) and lines() or nil
vim.cmd("undo")
local undone = lines()

local file = io.open(os.getenv("M2LSP_NVIM_OUT"), "w")
file:write(vim.fn.json_encode({ attached = attached, original = original, given = given,
  asked = asked, prompted = prompted, undone = undone }))
file:close()
for _, client in pairs(vim.lsp.buf_get_clients(0)) do client.stop() end
vim.cmd("qa!")
