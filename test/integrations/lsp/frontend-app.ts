/** A generated Tauri app with a frontend, for the language server's tests (JSON-RPC and Neovim). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TextEdit } from "vscode-languageserver-protocol/node";

/** A Tauri app with a frontend, two pages, a JSON capability for "main" and a TOML one for "settings"; `extraModules` more modules imported by main.ts (for the timing of a larger graph). */
export function frontendApp(extraModules = 0): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-lsp-frontend-"));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write(
    "package.json",
    JSON.stringify(
      {
        name: "app",
        private: true,
        dependencies: { "@tauri-apps/api": "^2.10.1", "@tauri-apps/plugin-fs": "^2.5.0" },
      },
      null,
      2,
    ),
  );
  write("index.html", '<!doctype html>\n<script type="module" src="/src/main.ts"></script>\n');
  write(
    "settings.html",
    '<!doctype html>\n<script type="module" src="/src/settings.ts"></script>\n',
  );
  const modules = Array.from({ length: extraModules }, (_, i) => `m${i}`);
  write(
    "src/main.ts",
    [
      'import { getCurrentWindow } from "@tauri-apps/api/window";',
      ...modules.map((name) => `import { ${name} } from "./lib/${name}";`),
      "",
      'document.querySelector("#bar")!.addEventListener("mousedown", () => getCurrentWindow().startDragging());',
      ...modules.map((name) => `${name}();`),
      "",
    ].join("\n"),
  );
  for (const [index, name] of modules.entries())
    write(
      `src/lib/${name}.ts`,
      `import { getCurrentWindow } from "@tauri-apps/api/window";\n\nexport function ${name}() {\n  return getCurrentWindow().setTitle("${index}");\n}\n`,
    );
  write(
    "src/settings.ts",
    'import { BaseDirectory, readTextFile } from "@tauri-apps/plugin-fs";\n\nexport const theme = await readTextFile("theme.css", { baseDir: BaseDirectory.AppConfig });\n',
  );
  write(
    "src-tauri/tauri.conf.json",
    JSON.stringify(
      {
        identifier: "dev.caplint.frontend",
        build: { frontendDist: "../dist" },
        app: { windows: [{ label: "main" }, { label: "settings", url: "settings.html" }] },
      },
      null,
      2,
    ),
  );
  write(
    "src-tauri/capabilities/default.json",
    '{\n  "identifier": "default",\n  "windows": ["main"],\n  "permissions": [\n    "core:default",\n    "core:window:allow-set-title"\n  ]\n}\n',
  );
  write(
    "src-tauri/capabilities/settings.toml",
    'identifier = "settings"\nwindows = ["settings"]\npermissions = [\n  "core:default",\n  "core:window:default",\n]\n',
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Applies LSP text edits to a text (edits do not overlap; applied from the last). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offsetOf = (line: number, character: number) => {
    let offset = 0;
    for (let i = 0; i < line; i++) offset = text.indexOf("\n", offset) + 1;
    return offset + character;
  };
  const sorted = [...edits].sort(
    (a, b) =>
      offsetOf(b.range.start.line, b.range.start.character) -
      offsetOf(a.range.start.line, a.range.start.character),
  );
  let result = text;
  for (const edit of sorted) {
    const start = offsetOf(edit.range.start.line, edit.range.start.character);
    const end = offsetOf(edit.range.end.line, edit.range.end.character);
    result = result.slice(0, start) + edit.newText + result.slice(end);
  }
  return result;
}
