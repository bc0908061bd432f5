-- Drives caplint's language server on a frontend file through Neovim's own LSP client, for
-- test/integrations/neovim.test.ts. It opens $CAPLINT_TEST_FILE (a TypeScript module whose call the
-- window's capability does not grant), waits for the frontend-command-not-granted diagnostic, asks for
-- the code actions at it, applies the one that grants the permission (a workspace edit of the
-- capability file) and writes every buffer, recording what it saw as JSON in $CAPLINT_TEST_RESULT.
local file = assert(os.getenv("CAPLINT_TEST_FILE"), "CAPLINT_TEST_FILE")
local result_path = assert(os.getenv("CAPLINT_TEST_RESULT"), "CAPLINT_TEST_RESULT")
local timeout = tonumber(os.getenv("CAPLINT_TEST_TIMEOUT_MS") or "60000")
-- Beside this script: what the drivers share.
local steps_lib = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/steps.lua")
local caplint_client = steps_lib.caplint_client
local result = { nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor) }



local function refused()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == "frontend-command-not-granted" then return d end
  end
end

local steps = {
  { "attach", function()
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    result.filetype = vim.bo.filetype
    assert(vim.wait(timeout, function() return caplint_client() ~= nil end, 20), "caplint did not attach to the buffer")
  end },
  { "diagnostic", function()
    assert(vim.wait(timeout, function() return refused() ~= nil end, 20), "no frontend-command-not-granted diagnostic")
    local d = refused()
    result.diagnostic = { lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, message = d.message, code = d.code }
  end },
  { "code action", function()
    local client = caplint_client()
    local d = refused()
    vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col + 1 })
    -- What vim.lsp.buf.code_action() sends: the cursor's range and the line's diagnostics.
    local params = vim.lsp.util.make_range_params()
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(), only = { "quickfix" } }
    local answers = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, timeout)
    local actions = (answers[client.id] or {}).result or {}
    result.actions = {}
    local chosen
    for _, action in ipairs(actions) do
      table.insert(result.actions, action.title)
      if not chosen and action.title:find("^Grant ") then chosen = action end
    end
    assert(chosen, "no code action that grants the permission")
    result.applied = chosen.title
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
    -- The edited capability file is a buffer now: written to disk as :wall writes it.
    vim.cmd("wall")
    assert(vim.wait(timeout, function() return refused() == nil end, 20), "the diagnostic stayed after the permission was granted")
    result.fixed = #vim.diagnostic.get(0)
  end },
}

steps_lib.run(steps, result, result_path)
