-- Drives caplint's language server through Neovim's own LSP client, for test/integrations/neovim.test.ts.
-- The init file (the README's set-up snippet) attaches caplint to JSON buffers. This script opens the
-- capability file $CAPLINT_TEST_FILE, asks for hover and completion, types a typo, reads the diagnostic
-- back, applies the quick fix and writes the file, recording what it saw as JSON in $CAPLINT_TEST_RESULT
-- after every step, so a failing step still leaves what came before it for the test to show.
local file = assert(os.getenv("CAPLINT_TEST_FILE"), "CAPLINT_TEST_FILE")
local result_path = assert(os.getenv("CAPLINT_TEST_RESULT"), "CAPLINT_TEST_RESULT")
local timeout = tonumber(os.getenv("CAPLINT_TEST_TIMEOUT_MS") or "60000")
local uri = vim.uri_from_fname(file)
-- Beside this script: what the drivers share.
local steps_lib = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/steps.lua")
local caplint_client = steps_lib.caplint_client
local result = { nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor) }


-- How many diagnostics notifications the file got: a clean file is told so with an empty list, which
-- vim.diagnostic.get cannot tell apart from "not checked yet".
local publishes = 0
local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
  if params and params.uri == uri then publishes = publishes + 1 end
  return publish(err, params, ctx, config)
end

local function diagnostics()
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(list, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source, code = d.code })
  end
  return list
end

local function has_code(code)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == code then return d end
  end
end


-- One answer from caplint to a request on this buffer (nil when it had none).
local function request(method, params)
  local answers, err = vim.lsp.buf_request_sync(0, method, params, timeout)
  assert(answers, method .. ": " .. tostring(err))
  for id, answer in pairs(answers) do
    if id == caplint_client().id then
      assert(not answer.err, method .. ": " .. vim.inspect(answer.err))
      return answer.result
    end
  end
end

local function position_of(pattern, offset)
  local row = vim.fn.search(pattern, "cw")
  assert(row > 0, "not in the buffer: " .. pattern)
  local col = vim.fn.col(".") - 1
  return { line = row - 1, character = col + (offset or 0) }
end

local steps = {
  { "attach", function()
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    assert(vim.wait(timeout, function() return caplint_client() ~= nil end, 20), "caplint did not attach to the buffer")
    local client = caplint_client()
    assert(vim.wait(timeout, function() return client.initialized end, 20), "caplint did not answer initialize")
    result.server = client.server_capabilities
    assert(vim.wait(timeout, function() return publishes > 0 end, 20), "no diagnostics published for " .. uri)
    result.opened = diagnostics()
  end },
  { "hover", function()
    if not caplint_client().server_capabilities.hoverProvider then return end
    result.hover = request("textDocument/hover", { textDocument = { uri = uri }, position = position_of([["\zsshell:allow-open"]], 3) })
  end },
  { "completion", function()
    if not caplint_client().server_capabilities.completionProvider then return end
    -- A new entry, typed with its closing quote and comma as an editor that pairs quotes leaves it.
    vim.fn.search([["dialog:default",]], "cw")
    vim.cmd([[normal! o"dialog:",]])
    result.completion = request("textDocument/completion", { textDocument = { uri = uri }, position = position_of([["dialog:\zs",]]) })
    vim.cmd("normal! dd")
  end },
  { "typo", function()
    vim.fn.search([["shell:allow-\zsopen"]], "cw")
    vim.cmd("normal! cwopne")
    -- The client may send the keystrokes as several changes, and a check of a text half typed
    -- ("shell:allow-o") publishes its own finding first: wait for the one about the whole typo.
    assert(vim.wait(timeout, function()
      local d = has_code("unknown-permission")
      return d ~= nil and d.message:find('"shell:allow-opne"', 1, true) ~= nil
    end, 20), "no unknown-permission diagnostic about the typo")
    result.typed = diagnostics()
  end },
  { "code action", function()
    if not caplint_client().server_capabilities.codeActionProvider then return end
    local client = caplint_client()
    -- What Neovim's own vim.lsp.buf.code_action() sends: the cursor's range and the line's diagnostics.
    vim.fn.search([["shell:allow-opne"]], "cw")
    local params = vim.lsp.util.make_range_params()
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(), only = { "quickfix" } }
    local actions = request("textDocument/codeAction", params) or {}
    result.actions = actions
    local chosen
    for _, action in ipairs(actions) do
      if action.title:find("shell:allow-open", 1, true) then chosen = action break end
    end
    assert(chosen, "no quick fix that writes shell:allow-open")
    if not chosen.edit and not chosen.command and (client.server_capabilities.codeActionProvider or {}).resolveProvider then
      chosen = request("codeAction/resolve", chosen)
    end
    result.applied = chosen.title
    if chosen.edit then vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding) end
    if chosen.command then request("workspace/executeCommand", chosen.command) end
    assert(vim.wait(timeout, function() return has_code("unknown-permission") == nil end, 20), "the diagnostic stayed after the fix")
    result.fixed = diagnostics()
    vim.cmd("write")
  end },
}

steps_lib.run(steps, result, result_path)
