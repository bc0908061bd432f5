import type { AccessMatrix } from "../engine/index.js";
import { textLines } from "../../core/terminal-text.js";

const MARK = { granted: "✔", denied: "✖", none: "·" } as const;

function stateOf(matrix: AccessMatrix, rowIndex: number, command: string): keyof typeof MARK {
  const row = matrix.rows[rowIndex]!;
  if (row.overridden.includes(command)) return "denied";
  return row.granted.includes(command) ? "granted" : "none";
}

export function renderMatrixText(matrix: AccessMatrix, platform: string): string {
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

export function renderMatrixCsv(matrix: AccessMatrix): string {
  const escape = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [["command", ...matrix.windows].map(escape).join(",")];
  for (const command of matrix.commands) {
    lines.push([command, ...matrix.windows.map((_, i) => stateOf(matrix, i, command))].map(escape).join(","));
  }
  return lines.join("\n") + "\n";
}

export function renderMatrixJson(matrix: AccessMatrix, platform: string): string {
  return JSON.stringify({ platform, ...matrix.toJSON() }, null, 2) + "\n";
}
