import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";
import { describeWithTool } from "../helpers/tools.js";
import { editorProject, readmeBlock } from "./editor-project.js";
import { frontendApp } from "./lsp/frontend-app.js";

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
  server?: { hoverProvider?: unknown; completionProvider?: unknown; codeActionProvider?: unknown };
  opened?: SeenDiagnostic[];
  hover?: { contents: { kind: string; value: string } };
  completion?: CompletionItem[] | { items: CompletionItem[] };
  typed?: SeenDiagnostic[];
  actions?: Array<{ title: string; kind?: string }>;
  applied?: string;
  fixed?: SeenDiagnostic[];
}

interface CompletionItem {
  label: string;
  detail?: string;
  documentation?: { kind: string; value: string };
  textEdit?: {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  };
}

/** Runs a driver script in headless Neovim with `init` as its init file, in `cwd`, on `file`; what it recorded as JSON. */
function runNeovim<T>(
  init: string,
  driver: string,
  cwd: string,
  file: string,
): { run: T; output: string } {
  const scratch = mkdtempSync(path.join(tmpdir(), "caplint-nvim-"));
  try {
    const initFile = path.join(scratch, "init.lua");
    writeFileSync(initFile, init);
    const resultFile = path.join(scratch, "result.json");
    const nvim = spawnSync(
      "nvim",
      [
        "--headless",
        "--clean",
        "-u",
        initFile,
        "-c",
        `luafile ${path.join(ROOT, "test/integrations/neovim", driver)}`,
      ],
      {
        cwd,
        encoding: "utf8",
        timeout: 170_000,
        env: {
          ...process.env,
          CAPLINT_TEST_FILE: file,
          CAPLINT_TEST_RESULT: resultFile,
          // No registry plugins from this machine's ~/.cargo: the verdicts depend on the fixture only.
          CAPLINT_CARGO_REGISTRY: "off",
          // Neovim's log (lsp.log) and state go to the scratch folder, not the user's.
          XDG_CACHE_HOME: path.join(scratch, "cache"),
          XDG_STATE_HOME: path.join(scratch, "state"),
          XDG_DATA_HOME: path.join(scratch, "data"),
          XDG_CONFIG_HOME: path.join(scratch, "config"),
        },
      },
    );
    const output = `${nvim.error ?? ""}${nvim.stderr}${nvim.stdout}`;
    try {
      return { run: JSON.parse(readFileSync(resultFile, "utf8")) as T, output };
    } catch {
      throw new Error(
        `Neovim wrote no result (exit ${nvim.status}, signal ${nvim.signal}):\n${output}`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs drive.lua in a fresh project; what it recorded, and the capability file afterwards. */
function driveNeovim(init: string): {
  run: Run;
  original: string;
  written: string;
  rewritten: boolean;
  output: string;
} {
  const project = editorProject();
  try {
    const original = readFileSync(project.capability, "utf8");
    const before = statSync(project.capability).mtimeMs;
    const { run, output } = runNeovim<Run>(init, "drive.lua", project.root, project.capability);
    return {
      run,
      original,
      written: readFileSync(project.capability, "utf8"),
      rewritten: statSync(project.capability).mtimeMs !== before,
      output,
    };
  } finally {
    project.remove();
  }
}

const TYPO_MESSAGE =
  /^unknown permission "shell:allow-opne": plugin "shell" has no permission or set "allow-opne"\nhelp: did you mean "shell:allow-open"/;

describeWithTool(
  "neovim",
  usable,
  "run scripts/ensure-tools.sh (apt-get install neovim: 0.7 or newer)",
  "Neovim's LSP client with caplint lsp --stdio",
  () => {
    describe("set up with the README's Neovim 0.7 snippet (vim.lsp.start_client)", () => {
      let result: ReturnType<typeof driveNeovim>;
      beforeAll(() => {
        result = driveNeovim(readmeBlock("lua", "vim.lsp.start_client("));
      }, 180_000);

      it("attaches and gets the file's diagnostics (none: the app is clean)", () => {
        expect(result.run.error ?? "", result.output).toBe("");
        expect(result.run.done).toBe("code action");
        expect(result.run.server).toMatchObject({
          hoverProvider: expect.anything(),
          completionProvider: expect.anything(),
          codeActionProvider: expect.anything(),
        });
        expect(result.run.opened).toEqual([]);
      });

      it("hovers a permission: what it allows and which window gets it through this capability", () => {
        const hover = result.run.hover!.contents;
        expect(hover.kind).toBe("markdown");
        expect(hover.value).toMatch(/^\*\*`shell:allow-open`\*\* · permission/);
        expect(hover.value).toContain("**Allows:** 1 command: `plugin:shell|open`");
        expect(hover.value).toContain("**Through capability `default`:** window `main`");
      });

      it("completes a permission being typed from the plugins this app's build has, with what each allows", () => {
        const completion = result.run.completion!;
        const items = Array.isArray(completion) ? completion : completion.items;
        const open = items.find((item) => item.label === "dialog:allow-open");
        expect(open, items.map((item) => item.label).join(", ")).toBeDefined();
        expect(open!.documentation!.value).toContain("`plugin:dialog|open`");
        // The typed prefix (`dialog:`, line 12 of the buffer, inside the quotes) is what the item replaces.
        expect(open!.textEdit).toEqual({
          range: { start: { line: 11, character: 5 }, end: { line: 11, character: 12 } },
          newText: "dialog:allow-open",
        });
        // fs is no dependency of this app: none of its permissions is offered.
        expect(items.filter((item) => item.label.startsWith("fs:"))).toEqual([]);
      });

      it("types a typo and reads the diagnostic back from vim.diagnostic", () => {
        const typo = result.run.typed?.find((d) => d.code === "unknown-permission");
        expect(typo, JSON.stringify(result.run)).toBeDefined();
        expect(typo).toMatchObject({
          lnum: 9,
          col: 4,
          end_col: 22,
          severity: ERROR,
          source: "caplint",
        });
        expect(typo!.message).toMatch(TYPO_MESSAGE);
      });

      it("applies the did-you-mean quick fix and writes the file: the typo is gone from the buffer and the disk", () => {
        expect(result.run.actions!.every((action) => action.kind === "quickfix")).toBe(true);
        expect(result.run.applied).toBe('Replace with "shell:allow-open"');
        expect(result.run.fixed).toEqual([]);
        expect(result.rewritten, "Neovim wrote the file").toBe(true);
        expect(result.written).toBe(result.original);
      });
    });

    describe("set up with the README's Neovim 0.11 snippet (vim.lsp.config and enable, emulated on 0.7)", () => {
      it("attaches from the snippet's filetypes and root markers and reads the typo's diagnostic back", () => {
        const shim = readFileSync(
          path.join(ROOT, "test/integrations/neovim/lsp-config-0.11.lua"),
          "utf8",
        );
        const { run, output } = driveNeovim(`${shim}\n${readmeBlock("lua", "vim.lsp.enable(")}`);
        expect(run.error ?? "", output).toBe("");
        expect(run.typed?.find((d) => d.code === "unknown-permission")?.message).toMatch(
          TYPO_MESSAGE,
        );
      }, 180_000);
    });
    describe("a frontend file with a refused call (the README's 0.7 snippet attaches TypeScript too)", () => {
      it("shows frontend-command-not-granted at the call, applies the grant and writes the capability file", () => {
        const app = frontendApp();
        try {
          // caplint installed in the app as npm leaves it, for the snippet's `npx caplint lsp --stdio`.
          const manifest = JSON.parse(
            readFileSync(path.join(app.dir, "package.json"), "utf8"),
          ) as Record<string, unknown>;
          writeFileSync(
            path.join(app.dir, "package.json"),
            JSON.stringify({ ...manifest, devDependencies: { caplint: "*" } }, null, 2),
          );
          mkdirSync(path.join(app.dir, "node_modules", ".bin"), { recursive: true });
          symlinkSync(ROOT, path.join(app.dir, "node_modules", "caplint"));
          symlinkSync(
            path.join("..", "caplint", "bin", "caplint.js"),
            path.join(app.dir, "node_modules", ".bin", "caplint"),
          );
          const { run, output } = runNeovim<{
            done?: string;
            error?: string;
            filetype?: string;
            diagnostic?: SeenDiagnostic;
            actions?: string[];
            applied?: string;
            fixed?: number;
          }>(
            readmeBlock("lua", "vim.lsp.start_client("),
            "drive-frontend.lua",
            app.dir,
            path.join(app.dir, "src/main.ts"),
          );
          expect(run.error ?? "", output).toBe("");
          expect(run.filetype).toBe("typescript");
          expect(run.done).toBe("code action");
          expect(run.diagnostic).toMatchObject({
            lnum: 2,
            severity: 2,
            code: "frontend-command-not-granted",
          });
          expect(run.diagnostic!.message).toMatch(
            /^Window\.startDragging\(\) invokes "plugin:window\|start_dragging", which window "main" cannot call: no capability grants it/,
          );
          expect(run.applied).toBe(
            'Grant core:window:allow-start-dragging to capability "default" (src-tauri/capabilities/default.json) for "main"',
          );
          expect(run.fixed).toBe(0);
          expect(
            readFileSync(path.join(app.dir, "src-tauri/capabilities/default.json"), "utf8"),
          ).toBe(
            '{\n  "identifier": "default",\n  "windows": ["main"],\n  "permissions": [\n    "core:default",\n    "core:window:allow-set-title",\n    "core:window:allow-start-dragging"\n  ]\n}\n',
          );
        } finally {
          app.remove();
        }
      }, 180_000);
    });
  },
);
