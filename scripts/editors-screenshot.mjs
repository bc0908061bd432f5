#!/usr/bin/env node
// Makes docs/editors-screenshot.png from a real run: Debian's Neovim in tmux, set up with the README's
// Neovim 0.7 snippet, on ActivityWatch's capability file (a real app, fixtures/real-world/build-truth) in
// a temporary project with this checkout's caplint installed; a permission is mistyped with normal-mode
// keys, caplint's diagnostic shows, and its float is opened. The pane is captured with its colours
// (`tmux capture-pane -e -p`), turned into HTML here, and rendered by headless Chromium.
// Needs nvim, tmux and /usr/bin/chromium (scripts/ensure-tools.sh installs nvim and Chromium).
// Usage: node scripts/editors-screenshot.mjs [output.png]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { editorProject } from "./lib/editor-project.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = path.resolve(process.argv[2] ?? path.join(ROOT, "docs", "editors-screenshot.png"));
const COLUMNS = 112;
const ROWS = 24;
const SOCKET = `caplint-screenshot-${process.pid}`;

/** The README's Neovim 0.7 set-up, as a user pastes it into init.lua. */
function readmeSnippet() {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const block = [...readme.matchAll(/^```lua\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1])
    .find((text) => text.includes("vim.lsp.start_client("));
  if (!block)
    throw new Error(
      "README.md has no Neovim 0.7 snippet (a ```lua block with vim.lsp.start_client)",
    );
  return block;
}

const tmux = (...args) =>
  execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForPane(predicate, what, timeoutMs = 60_000) {
  const start = Date.now();
  for (;;) {
    const text = tmux("capture-pane", "-p", "-t", "shot");
    if (predicate(text)) return;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${what}; the pane shows:\n${text}`);
    await sleep(250);
  }
}

// xterm's 256-colour palette: 16 system colours (the terminal's; these are xterm's), a 6×6×6 cube, 24 greys.
const SYSTEM = [
  "#000000",
  "#cd0000",
  "#00cd00",
  "#cdcd00",
  "#0000ee",
  "#cd00cd",
  "#00cdcd",
  "#e5e5e5",
  "#7f7f7f",
  "#ff0000",
  "#00ff00",
  "#ffff00",
  "#5c5cff",
  "#ff00ff",
  "#00ffff",
  "#ffffff",
];
function palette(n) {
  if (n < 16) return SYSTEM[n];
  if (n < 232) {
    const level = (v) => (v === 0 ? 0 : 55 + v * 40);
    const i = n - 16;
    return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`;
  }
  const grey = 8 + (n - 232) * 10;
  return `rgb(${grey},${grey},${grey})`;
}

const FOREGROUND = "#d0d0d0";
const BACKGROUND = "#1c1c1c";
const escapeHtml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The pane's text with its SGR colour codes as HTML spans (tmux emits only SGR sequences with -e). */
function ansiToHtml(ansi) {
  let style = {};
  let html = "";
  const open = () => {
    const fg = style.reverse ? (style.bg ?? BACKGROUND) : style.fg;
    const bg = style.reverse ? (style.fg ?? FOREGROUND) : style.bg;
    const css = [
      fg && `color:${fg}`,
      bg && `background:${bg}`,
      style.bold && "font-weight:bold",
      style.italic && "font-style:italic",
      style.underline && "text-decoration:underline",
    ].filter(Boolean);
    return css.length ? `<span style="${css.join(";")}">` : "<span>";
  };
  html += open();
  for (const part of ansi.split(/(\x1b\[[0-9;:]*m)/)) {
    const sgr = /^\x1b\[([0-9;:]*)m$/.exec(part);
    if (!sgr) {
      html += escapeHtml(part.replace(/\x1b[^a-zA-Z]*[a-zA-Z]/g, ""));
      continue;
    }
    const codes = sgr[1] === "" ? [0] : sgr[1].split(/[;:]/).map(Number);
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (code === 0) style = {};
      else if (code === 1) style.bold = true;
      else if (code === 3) style.italic = true;
      else if (code === 4) style.underline = true;
      else if (code === 7) style.reverse = true;
      else if (code === 22) style.bold = false;
      else if (code === 23) style.italic = false;
      else if (code === 24) style.underline = false;
      else if (code === 27) style.reverse = false;
      else if (code >= 30 && code <= 37) style.fg = palette(code - 30);
      else if (code >= 90 && code <= 97) style.fg = palette(code - 82);
      else if (code >= 40 && code <= 47) style.bg = palette(code - 40);
      else if (code >= 100 && code <= 107) style.bg = palette(code - 92);
      else if (code === 39) style.fg = undefined;
      else if (code === 49) style.bg = undefined;
      else if ((code === 38 || code === 48) && codes[i + 1] === 5) {
        style[code === 38 ? "fg" : "bg"] = palette(codes[i + 2]);
        i += 2;
      } else if ((code === 38 || code === 48) && codes[i + 1] === 2) {
        style[code === 38 ? "fg" : "bg"] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
        i += 4;
      } else if (code === 58) {
        // The underline's colour (Neovim's diagnostic underline): 58;5;N or 58;2;R;G;B.
        style.underlineColor =
          codes[i + 1] === 5
            ? palette(codes[i + 2])
            : `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
        i += codes[i + 1] === 5 ? 2 : 4;
      } else if (code === 59) style.underlineColor = undefined;
    }
    html += `</span>${open()}`;
  }
  return `${html}</span>`;
}

const project = editorProject();
const scratch = mkdtempSync(path.join(tmpdir(), "caplint-screenshot-"));
try {
  const init = path.join(scratch, "init.lua");
  // The README's set-up, then display settings only: line numbers, a quiet sign column, a framed float.
  const display = [
    "vim.opt.number = true",
    'vim.opt.signcolumn = "yes"',
    'vim.opt.shortmess:append("I")',
    'vim.diagnostic.config({ float = { border = "rounded", source = "always" } })',
    'vim.cmd("highlight SignColumn ctermbg=NONE | highlight NormalFloat ctermbg=236 ctermfg=252 | highlight FloatBorder ctermbg=236 ctermfg=244")',
  ];
  writeFileSync(init, `${readmeSnippet()}\n${display.join("\n")}\n`);
  const file = path.relative(project.root, project.capability);
  tmux(
    "new-session",
    "-d",
    "-s",
    "shot",
    "-x",
    String(COLUMNS),
    "-y",
    String(ROWS),
    "-c",
    project.root,
    "-e",
    "CAPLINT_CARGO_REGISTRY=off",
    "-e",
    `XDG_STATE_HOME=${scratch}/state`,
    "-e",
    `XDG_CACHE_HOME=${scratch}/cache`,
    `nvim --clean -u ${init} ${file}`,
  );
  tmux("set-option", "-t", "shot", "status", "off");
  await waitForPane((text) => text.includes('"shell:allow-open"'), "the file to open");
  // The mistake: "open" becomes "opne", typed in normal mode, as a user would.
  tmux("send-keys", "-t", "shot", ":call search('allow-\\zsopen')", "Enter");
  tmux("send-keys", "-t", "shot", "cwopne", "Escape");
  await waitForPane((text) => /unknown permission/.test(text), "caplint's diagnostic");
  tmux("send-keys", "-t", "shot", ":lua vim.diagnostic.open_float()", "Enter");
  await waitForPane((text) => /did you mean/.test(text), "the diagnostic's float");
  // Clears the command line; the float stays open until the cursor moves.
  tmux("send-keys", "-t", "shot", ':echo ""', "Enter");
  await sleep(500);
  const ansi = tmux("capture-pane", "-e", "-p", "-t", "shot");
  const html = `<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; background: ${BACKGROUND}; }
    pre { margin: 0; padding: 12px 14px; display: inline-block; color: ${FOREGROUND}; background: ${BACKGROUND};
          font: 14px/normal "DejaVu Sans Mono", "Liberation Mono", monospace; }
  </style><pre>${ansiToHtml(ansi.replace(/\n+$/, ""))}</pre>`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 2 });
    await page.setContent(html);
    await page.locator("pre").screenshot({ path: OUTPUT });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} (${COLUMNS}×${ROWS} pane)`);
} finally {
  spawnSync("tmux", ["-L", SOCKET, "kill-server"]);
  project.remove();
  rmSync(scratch, { recursive: true, force: true });
}
