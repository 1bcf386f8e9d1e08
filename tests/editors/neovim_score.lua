-- Headless Neovim 0.7+: the README's setup (docs/editors/m2lsp.lua), then :M2Score on a
-- gold file; writes the filetype and the quickfix list to $M2LSP_NVIM_OUT as JSON.
local m2lsp = dofile(os.getenv("M2LSP_NVIM_SETUP"))
m2lsp.setup({ cmd = vim.fn.json_decode(os.getenv("M2LSP_NVIM_CMD")) })
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("M2LSP_NVIM_GOLD")))
local attached = vim.wait(30000, function()
  return next(vim.lsp.buf_get_clients(0)) ~= nil and #vim.diagnostic.get(0) > 0
end, 50)
vim.cmd("M2Score " .. vim.fn.fnameescape(os.getenv("M2LSP_NVIM_SYSTEM")))
local filled = vim.wait(120000, function() return #vim.fn.getqflist() > 0 end, 100)
local items = {}
for _, item in ipairs(vim.fn.getqflist()) do
  table.insert(items, { lnum = item.lnum, col = item.col, text = item.text, type = item.type })
end
local file = io.open(os.getenv("M2LSP_NVIM_OUT"), "w")
file:write(vim.fn.json_encode({
  attached = attached, filled = filled, filetype = vim.bo.filetype,
  title = vim.fn.getqflist({ title = 1 }).title, items = items,
}))
file:close()
for _, client in pairs(vim.lsp.buf_get_clients(0)) do client.stop() end
vim.cmd("qa!")
