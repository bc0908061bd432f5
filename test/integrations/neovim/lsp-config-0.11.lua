-- Neovim 0.11's vim.lsp.config / vim.lsp.enable, reduced to what the README's snippet uses, on Neovim
-- 0.7's client (Debian has no 0.11), so the snippet's own values (cmd, filetypes, root_markers) start
-- and attach the server as 0.11 would: on a buffer of a listed filetype, the root is the nearest folder
-- above the file holding a marker, one client per root, started from Neovim's working directory.
local configs = {}
vim.lsp.config = function(name, config)
  configs[name] = vim.tbl_extend("force", configs[name] or {}, config)
end
vim.lsp.enable = function(name)
  local clients = {}
  vim.api.nvim_create_autocmd("FileType", {
    pattern = configs[name].filetypes,
    callback = function(args)
      local config = configs[name]
      local folder = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
      local root
      for _, marker in ipairs(config.root_markers or {}) do
        local found = vim.fn.findfile(marker, folder .. ";")
        if found ~= "" then root = vim.fn.fnamemodify(found, ":p:h") break end
      end
      if not root then return end
      clients[root] = clients[root] or vim.lsp.start_client({ name = name, cmd = config.cmd, root_dir = root })
      vim.lsp.buf_attach_client(args.buf, clients[root])
    end,
  })
end
