import type { Command } from "commander";
import { accessMatrix, type AccessMatrix } from "../../engine/index.js";
import { knownWindowLabels } from "../../query/project-model.js";
import type { MainOptions } from "../io.js";
import { addQueryOptions, loadModel, type QueryOptions } from "../query-options.js";
import { originOf } from "./access.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

interface MatrixOptions extends QueryOptions {
  window: string[];
  url?: string;
}

export function registerMatrix(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("matrix")
    .description("windows × commands: who can call what (labels from tauri.conf.json, else the literal labels in capabilities)")
    .option("-w, --window <label>", "a window to include (repeatable; default: every known label)", (v: string, p: string[]) => [...p, v], [])
    .option("-u, --url <url>", "origin of the calling pages (default: local)");
  addQueryOptions(command, ["text", "json", "csv"]).action(async (paths: string[], options: MatrixOptions) => {
    const { project, model } = await loadModel(paths, options, io);
    const windows = options.window.length ? options.window : knownWindowLabels(project);
    const matrix = accessMatrix(model, windows, originOf(options.url, project));
    const render = options.format === "json" ? renderJson : options.format === "csv" ? renderCsv : renderText;
    io.stdout.write(render(matrix, model.platform));
    setExitCode(0);
  });
}

const MARK = { granted: "✔", denied: "✖", none: "·" } as const;

function stateOf(matrix: AccessMatrix, rowIndex: number, command: string): keyof typeof MARK {
  const row = matrix.rows[rowIndex]!;
  if (row.overridden.includes(command)) return "denied";
  return row.granted.includes(command) ? "granted" : "none";
}

function renderText(matrix: AccessMatrix, platform: string): string {
  if (matrix.windows.length === 0) return "no window labels: declare windows in tauri.conf.json or pass --window\n";
  const columns = matrix.commands.filter((command) => matrix.rows.some((row) => row.granted.includes(command) || row.overridden.includes(command)));
  const width = Math.max(7, ...columns.map((c) => c.length));
  const header = `${"command".padEnd(width)}  ${matrix.windows.join("  ")}`;
  const lines = [`platform ${platform}, origin ${matrix.origin.kind === "local" ? "local" : matrix.origin.url}; ✔ callable, ✖ granted but denied, · not granted`, header];
  for (const command of columns) {
    const cells = matrix.windows.map((window, i) => MARK[stateOf(matrix, i, command)].padEnd(window.length));
    lines.push(`${command.padEnd(width)}  ${cells.join("  ")}`);
  }
  lines.push("");
  for (const row of matrix.rows) lines.push(`${row.window}: ${row.granted.length} callable, via ${row.capabilities.length ? row.capabilities.join(", ") : "no capability"}`);
  return textLines(lines);
}

function renderCsv(matrix: AccessMatrix): string {
  const escape = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [["command", ...matrix.windows].map(escape).join(",")];
  for (const command of matrix.commands) {
    lines.push([command, ...matrix.windows.map((_, i) => stateOf(matrix, i, command))].map(escape).join(","));
  }
  return lines.join("\n") + "\n";
}

function renderJson(matrix: AccessMatrix, platform: string): string {
  return JSON.stringify({ platform, ...matrix.toJSON() }, null, 2) + "\n";
}
