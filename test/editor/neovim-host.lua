-- Neovim 0.7 with a Python file open: the server reads the ONNX text in its parse_model string.
-- Writes the buffer's filetype, its diagnostics and a hover inside the string to $RESULT as JSON.
-- Started by neovim.test.ts: nvim --headless -u neovim-host.lua FILE.py.
vim.o.swapfile = false

local function main()
  local out = {}
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  local client_id = vim.lsp.start_client({ name = "onnxtxt", cmd = { vim.env.NODE, vim.env.ONNXTXT_LS, "--stdio" }, root_dir = vim.fn.getcwd() })
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  out.initialized = vim.wait(15000, function() return client.initialized end, 20)
  out.shown = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(out.diagnostics, { line = d.lnum, col = d.col, code = d.code }) end
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local at = string.find(line, "T = Relu", 1, true)
    if at then
      local r = vim.lsp.buf_request_sync(buf, "textDocument/hover", { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = i - 1, character = at - 1 } }, 15000)
      for _, v in pairs(r or {}) do out.hover = v.result and v.result.contents.value end
    end
  end
  client.stop()
  vim.wait(5000, function() return client.is_stopped() end, 20)
  local f = io.open(vim.env.RESULT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end

vim.api.nvim_create_autocmd("VimEnter", { callback = function() vim.schedule(main) end })
