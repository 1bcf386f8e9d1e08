-- Headless Neovim (0.7+) as a second real LSP client: start m2lsp on the opened buffer,
-- wait for its diagnostics, ask for a hover, write what came back to $M2LSP_NVIM_OUT as JSON.
local cmd = vim.fn.json_decode(os.getenv("M2LSP_NVIM_CMD"))
local out = os.getenv("M2LSP_NVIM_OUT")
local client_id = vim.lsp.start_client({
  name = "m2lsp",
  cmd = cmd,
  root_dir = vim.fn.getcwd(),
})
vim.lsp.buf_attach_client(0, client_id)
local arrived = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, {
    line = d.lnum, col = d.col, end_line = d.end_lnum, end_col = d.end_col,
    code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
    message = d.message, severity = d.severity, source = d.source,
  })
end
local client = vim.lsp.get_client_by_id(client_id)
local hover = client.request_sync("textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = 1, character = 0 },
}, 10000, 0)
local result = {
  arrived = arrived,
  diagnostics = found,
  hover = hover and hover.result and hover.result.contents.value or vim.NIL,
}
local file = io.open(out, "w")
file:write(vim.fn.json_encode(result))
file:close()
client.stop()
vim.cmd("qa!")
