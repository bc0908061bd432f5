-- What the Neovim drivers share (drive.lua, drive-frontend.lua): the caplint client of the current
-- buffer, and running named steps that record the result as JSON after each one, so a failing step
-- still leaves what came before it for the test to show; then Neovim quits.
local M = {}

function M.caplint_client()
  for _, client in pairs(vim.lsp.buf_get_clients(0)) do
    if client.name == "caplint" then return client end
  end
end

function M.run(steps, result, result_path)
  local function save()
    local out = assert(io.open(result_path, "w"))
    out:write(vim.fn.json_encode(result))
    out:close()
  end
  for _, step in ipairs(steps) do
    local ok, err = pcall(step[2])
    if not ok then
      result.error = step[1] .. ": " .. tostring(err)
      break
    end
    result.done = step[1]
    save()
  end
  save()
  vim.cmd("qa!")
end

return M
