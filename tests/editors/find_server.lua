-- Headless Neovim: which server command the README's setup finds, and which filetype it
-- gives a CGED XML file and another XML file; JSON to $M2LSP_NVIM_OUT.
local m2lsp = dofile(os.getenv("M2LSP_NVIM_SETUP"))
local cmd, why = m2lsp.server_command()
m2lsp.setup({ cmd = vim.fn.json_decode(os.getenv("M2LSP_NVIM_CMD")) })
local filetypes = {}
for _, name in ipairs({ "cged.xml", "pom.xml" }) do
  vim.cmd("edit " .. name)
  filetypes[name] = vim.bo.filetype
end
local file = io.open(os.getenv("M2LSP_NVIM_OUT"), "w")
file:write(vim.fn.json_encode({ cmd = cmd or vim.NIL, why = why or vim.NIL,
  filetypes = filetypes }))
file:close()
for _, client in pairs(vim.lsp.get_active_clients()) do client.stop() end
vim.cmd("qa!")
