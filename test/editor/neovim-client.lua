-- Neovim 0.7 as a user's LSP client of onnxtxt-ls, headless: drives the editor the way a user
-- would (edits in the buffer, hover, run, format) and writes what it saw to $RESULT as JSON.
-- Started by neovim.test.ts: nvim --headless -u neovim-client.lua MODEL.
vim.o.swapfile = false

-- The model is loaded after this file runs: start once the editor has it.
local function main()
  local out = {}
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  local client_id = vim.lsp.start_client({ name = "onnxtxt", cmd = { vim.env.NODE, vim.env.ONNXTXT_LS, "--stdio" }, root_dir = vim.fn.getcwd() })
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  out.initialized = vim.wait(15000, function() return client.initialized end, 20)

  local function codes()
    local list = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(list, { line = d.lnum, col = d.col, code = d.code, message = d.message }) end
    return list
  end
  local function wait_for(code)
    return vim.wait(15000, function()
      for _, d in ipairs(vim.diagnostic.get(buf)) do if d.code == code then return true end end
      return false
    end, 20)
  end
  -- The 0-based line and column of `text` in the buffer.
  local function find(text)
    for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      local at = string.find(line, text, 1, true)
      if at then return i - 1, at - 1 end
    end
  end
  local function request(method, params)
    local r = vim.lsp.buf_request_sync(buf, method, params, 15000)
    for _, v in pairs(r or {}) do return v.result, v.err end
  end

  -- A hover over `h` in `y = Relu (h)`.
  local hl, hc = find("Relu (h)")
  local hover = request("textDocument/hover", { textDocument = { uri = uri }, position = { line = hl, character = hc + 6 } })
  out.hover = hover and hover.contents.value

  -- A typo in an op name, then its fix.
  local ol, oc = find("MatMul")
  vim.api.nvim_buf_set_text(buf, ol, oc + 5, ol, oc + 6, { "x" })
  out.typo_shown = wait_for("unknown-op")
  out.typo = codes()
  vim.api.nvim_buf_set_text(buf, ol, oc + 5, ol, oc + 6, { "l" })
  out.typo_fixed = vim.wait(15000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

  -- An output declaration the node contradicts: reported where it is written.
  local dl, dc = find("2] y")
  vim.api.nvim_buf_set_text(buf, dl, dc, dl, dc + 1, { "3" })
  out.declared_shown = wait_for("declared-type-mismatch")
  out.declared = codes()
  vim.api.nvim_buf_set_text(buf, dl, dc, dl, dc + 1, { "2" })
  out.declared_fixed = vim.wait(15000, function() return #vim.diagnostic.get(buf) == 0 end, 20)

  -- Run, as the code lens's command does; the summary arrives as a message, not a prompt.
  local lenses = request("textDocument/codeLens", { textDocument = { uri = uri } })
  local command = lenses and lenses[1] and lenses[1].command
  out.lens = command and command.title
  local ran = command and request("workspace/executeCommand", { command = command.command, arguments = command.arguments })
  out.run_outputs = ran and ran.outputs
  vim.wait(500, function() return false end, 20)
  out.messages = vim.api.nvim_exec("messages", true)

  -- Formatting, with a messy line in the buffer.
  vim.api.nvim_buf_set_lines(buf, hl, hl + 1, false, { "    y=Relu(h)" })
  vim.lsp.buf.formatting_sync(nil, 15000)
  out.formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"

  vim.lsp.stop_client(client_id)
  out.stopped = vim.wait(15000, function() return vim.lsp.client_is_stopped(client_id) end, 20)
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.RESULT)
  vim.cmd("qa!")
end

vim.api.nvim_create_autocmd("VimEnter", { callback = main, once = true })
