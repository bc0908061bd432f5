import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";
import { describeWithTool } from "../helpers/tools.js";
import { editorProject, readmeBlock, type EditorProject } from "./editor-project.js";

/**
 * caplint's language server driven by a real editor: Debian's Neovim (0.7, `vim.lsp.start_client`)
 * headless, set up with the README's snippet, on a real app copied to a temporary project where
 * caplint is installed. test/integrations/neovim/drive.lua opens the app's capability file, asks for
 * hover and completion, types a typo, reads the diagnostic back, applies the quick fix and writes the
 * file; it records what it saw as JSON, read here.
 */
const version = spawnSync("nvim", ["--version"], { encoding: "utf8" });
const nvimVersion = /NVIM v(\d+)\.(\d+)/.exec(version.stdout ?? "");
const usable = nvimVersion !== null && (Number(nvimVersion[1]) > 0 || Number(nvimVersion[2]) >= 7);
const ERROR = 1;

interface SeenDiagnostic {
  lnum: number;
  col: number;
  end_col: number;
  severity: number;
  message: string;
  source: string;
  code: string;
}

interface Run {
  done?: string;
  error?: string;
  nvim: string;
  opened?: SeenDiagnostic[];
  typed?: SeenDiagnostic[];
}

describeWithTool("neovim", usable, "run scripts/ensure-tools.sh (apt-get install neovim: 0.7 or newer)", "Neovim's LSP client with caplint lsp --stdio", () => {
  let project: EditorProject;
  let scratch: string;
  let original: string;
  let run: Run;
  let stderr: string;

  beforeAll(() => {
    project = editorProject();
    original = readFileSync(project.capability, "utf8");
    scratch = mkdtempSync(path.join(tmpdir(), "caplint-nvim-"));
    const init = path.join(scratch, "init.lua");
    writeFileSync(init, readmeBlock("lua", "vim.lsp.start_client("));
    const resultFile = path.join(scratch, "result.json");
    const nvim = spawnSync("nvim", ["--headless", "--clean", "-u", init, "-c", `luafile ${path.join(ROOT, "test/integrations/neovim/drive.lua")}`], {
      cwd: project.root,
      encoding: "utf8",
      timeout: 170_000,
      env: {
        ...process.env,
        CAPLINT_TEST_FILE: project.capability,
        CAPLINT_TEST_RESULT: resultFile,
        // No registry plugins from this machine's ~/.cargo: the verdicts depend on the fixture only.
        CAPLINT_CARGO_REGISTRY: "off",
        // Neovim's log (lsp.log) and state go to the scratch folder, not the user's.
        XDG_CACHE_HOME: path.join(scratch, "cache"),
        XDG_STATE_HOME: path.join(scratch, "state"),
        XDG_DATA_HOME: path.join(scratch, "data"),
        XDG_CONFIG_HOME: path.join(scratch, "config"),
      },
    });
    stderr = `${nvim.error ?? ""}${nvim.stderr}${nvim.stdout}`;
    try {
      run = JSON.parse(readFileSync(resultFile, "utf8")) as Run;
    } catch {
      throw new Error(`Neovim wrote no result (exit ${nvim.status}, signal ${nvim.signal}):\n${stderr}`);
    }
  }, 180_000);
  afterAll(() => {
    project.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("attaches with the README's snippet and gets the file's diagnostics (none: the app is clean)", () => {
    expect(run.error ?? "", stderr).toBe("");
    expect(run.opened).toEqual([]);
  });

  it("types a typo and reads the diagnostic back from vim.diagnostic", () => {
    const typo = run.typed?.find((d) => d.code === "unknown-permission");
    expect(typo, JSON.stringify(run)).toBeDefined();
    expect(typo).toMatchObject({ lnum: 9, col: 4, end_col: 22, severity: ERROR, source: "caplint" });
    expect(typo!.message).toMatch(
      /^unknown permission "shell:allow-opne": plugin "shell" has no permission or set "allow-opne"\nhelp: did you mean "shell:allow-open"/,
    );
    // The edit was in the buffer only: the file on disk is untouched until the editor writes it.
    expect(readFileSync(project.capability, "utf8")).toBe(original);
  });
});
