import type { AccessMatrix } from "../engine/index.js";
import { describePlatforms } from "../queries/platforms.js";
import { originDisplay } from "../queries/project-model.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import type { ManifestUnionNote } from "../queries/manifest-union.js";
import { manifestUnionLines } from "./manifest-union.js";

/** One matrix per group of platforms that resolve alike. */
export interface PlatformMatrix {
  platforms: string[];
  matrix: AccessMatrix;
}

const MARK = { granted: "✔", denied: "✖", none: "·" } as const;
type State = keyof typeof MARK;

function stateOf(matrix: AccessMatrix, rowIndex: number, command: string): State {
  const row = matrix.rows[rowIndex]!;
  if (row.overridden.includes(command)) return "denied";
  return row.granted.includes(command) ? "granted" : "none";
}

/** A cell's state on each platform group; one entry when every platform agrees. */
function cellStates(
  matrices: readonly PlatformMatrix[],
  rowIndex: number,
  command: string,
): Array<{ state: State; platforms: string[] }> {
  const states: Array<{ state: State; platforms: string[] }> = [];
  for (const { platforms, matrix } of matrices) {
    const state = matrix.commands.includes(command) ? stateOf(matrix, rowIndex, command) : "none";
    const same = states.find((s) => s.state === state);
    if (same) same.platforms.push(...platforms);
    else states.push({ state, platforms: [...platforms] });
  }
  return states;
}

function allCommands(matrices: readonly PlatformMatrix[]): string[] {
  return [...new Set(matrices.flatMap(({ matrix }) => matrix.commands))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

/** With colour: ✔ green, ✖ red, · dim. */
export function renderMatrixText(
  matrices: readonly PlatformMatrix[],
  asked: readonly string[],
  paint: Paint = NO_PAINT,
  manifestUnion: readonly ManifestUnionNote[] = [],
  uncheckedAppCommands?: string,
): string {
  const painted: Record<State, string> = {
    granted: paint.ok(MARK.granted),
    denied: paint.error(MARK.denied),
    none: paint.dim(MARK.none),
  };
  const { matrix: first } = matrices[0]!;
  if (first.windows.length === 0)
    return "no window labels: declare windows in tauri.conf.json or pass --window\n";
  const columns = allCommands(matrices).filter((command) =>
    matrices.some(({ matrix }) =>
      matrix.rows.some((row) => row.granted.includes(command) || row.overridden.includes(command)),
    ),
  );
  const width = Math.max(7, ...columns.map((c) => c.length));
  const header = `${"command".padEnd(width)}  ${first.windows.join("  ")}`;
  const split = matrices.length > 1;
  const where = asked.length === 1 ? `platform ${asked[0]}` : describePlatforms(asked, asked);
  const lines = [
    `${where}, origin ${originDisplay(first.origin)}; ${painted.granted} callable, ${painted.denied} granted but denied, ${painted.none} not granted`,
  ];
  // Platforms that answer differently get one mark each, in a fixed order, so a split reads at a glance.
  if (split)
    lines.push(
      `platforms differ: each cell has one mark per group: ${matrices.map(({ platforms }, i) => `${i + 1}. ${platforms.join(", ")}`).join("; ")}`,
    );
  lines.push(header);
  for (const command of columns) {
    const cells = first.windows.map((window, i) => {
      const states = matrices.map(({ matrix }) =>
        matrix.commands.includes(command) ? stateOf(matrix, i, command) : "none",
      );
      // Padded by the marks' own width: colour adds none.
      return (
        states.map((state) => painted[state]).join("") +
        " ".repeat(Math.max(0, window.length - states.length))
      );
    });
    lines.push(`${command.padEnd(width)}  ${cells.join("  ")}`.trimEnd());
  }
  lines.push("");
  for (const [i, window] of first.windows.entries()) {
    const parts = matrices.map(({ platforms, matrix }) => {
      const row = matrix.rows[i]!;
      const text = `${row.granted.length} callable, via ${row.capabilities.length ? row.capabilities.join(", ") : "no capability"}`;
      return split ? `${text} on ${describePlatforms(platforms, asked)}` : text;
    });
    lines.push(`${window}: ${parts.join("; ")}`);
  }
  if (uncheckedAppCommands)
    lines.push(
      "",
      `${paint.error("exposed:")} not in the matrix, and not checked: ${uncheckedAppCommands}`,
    );
  if (manifestUnion.length) lines.push("", ...manifestUnionLines(manifestUnion, paint));
  return textLines(lines);
}

export function renderMatrixCsv(matrices: readonly PlatformMatrix[]): string {
  const escape = (value: string) =>
    /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  const windows = matrices[0]!.matrix.windows;
  const lines = [["command", ...windows].map(escape).join(",")];
  for (const command of allCommands(matrices)) {
    const cells = windows.map((_, i) => {
      const states = cellStates(matrices, i, command);
      return states.length === 1
        ? states[0]!.state
        : states.map((s) => `${s.state} on ${s.platforms.join(" ")}`).join("; ");
    });
    lines.push([command, ...cells].map(escape).join(","));
  }
  return lines.join("\n") + "\n";
}

/**
 * `frontendCalls`: per window that loads local pages, the commands its frontend calls, when the
 * frontend was scanned; each such row gets `usedByFrontend`, the granted commands the frontend calls.
 */
export function renderMatrixJson(
  matrices: readonly PlatformMatrix[],
  asked: readonly string[],
  manifestUnion: readonly ManifestUnionNote[] = [],
  frontendCalls?: ReadonlyMap<string, ReadonlySet<string>>,
  uncheckedAppCommands?: string,
): string {
  const json = (matrix: PlatformMatrix["matrix"]) => {
    const value = matrix.toJSON();
    if (!frontendCalls) return value;
    const rows = value.rows.map((row) => {
      const calls = frontendCalls.get(row.window);
      return calls
        ? { ...row, usedByFrontend: row.granted.filter((command) => calls.has(command)) }
        : row;
    });
    return { ...value, rows };
  };
  const single = matrices.length === 1 ? json(matrices[0]!.matrix) : {};
  return (
    JSON.stringify(
      {
        ...(asked.length === 1 ? { platform: asked[0] } : {}),
        platforms: asked,
        ...single,
        byPlatform: matrices.map(({ platforms, matrix }) => ({ platforms, ...json(matrix) })),
        ...(manifestUnion.length ? { manifestUnion } : {}),
        ...(uncheckedAppCommands ? { uncheckedAppCommands } : {}),
      },
      null,
      2,
    ) + "\n"
  );
}
