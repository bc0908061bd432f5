/**
 * Every file caplint writes (`-o`/`--output` of every command, `report --html`, `mcp dump -o`) goes
 * through one atomic writer: a disk that fills up part-way leaves the previous file as it was, no
 * temporary file behind, and the run ends with exit 2 and the reason. The disk fills up for real:
 * under `ulimit -f` the kernel takes part of a write and refuses the rest (EFBIG), as a full disk does
 * (ENOSPC); `/dev/full` refuses every write with ENOSPC; where a mount namespace can be had, a 64 KiB
 * tmpfs fills up. Before, the part-taken write was not noticed: the truncated report replaced the old
 * one and the run exited 0.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const PREVIOUS = "the previous report, which a failed run must leave as it is\n";

/** A folder with the demo app, an old copy of it missing one capability, a bad recording and a bad dump: generated, never stored. */
function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-full-disk-"));
  cpSync(path.join(ROOT, "examples", "demo-app"), path.join(dir, "app"), { recursive: true });
  cpSync(path.join(dir, "app"), path.join(dir, "old"), { recursive: true });
  rmSync(path.join(dir, "old", "src-tauri", "capabilities", "remote-docs.json"));
  // Windows enough that every query's answer is well over the limit.
  const windows = Array.from({ length: 100 }, (_, i) => `tool-window-${i}`);
  const many = {
    identifier: "many-windows",
    windows,
    permissions: ["fs:allow-read-text-file", "core:default", "core:default"],
  };
  writeFileSync(
    path.join(dir, "app", "src-tauri", "capabilities", "many.json"),
    JSON.stringify(many, null, 2),
  );
  const badLines = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({ type: "no_such_event", n: i }),
  );
  writeFileSync(path.join(dir, "recording.jsonl"), badLines.join("\n") + "\n");
  const tools = Array.from({ length: 100 }, (_, i) => ({
    name: `Bad Tool ${i}`,
    inputSchema: { type: "string" },
  }));
  writeFileSync(path.join(dir, "dump.json"), JSON.stringify({ tools }));
  mkdirSync(path.join(dir, "out"));
  return dir;
}

/** Every command that writes a file, with arguments that make a report well over the 1 KiB limit below. */
const WRITERS: { name: string; args: string[]; option?: string }[] = [
  { name: "check", args: ["check", "--app", "app"] },
  { name: "access", args: ["access", "--app", "app", "--window", "main"] },
  { name: "who-can", args: ["who-can", "plugin:fs|read_text_file", "--app", "app", "-f", "json"] },
  { name: "matrix", args: ["matrix", "--app", "app"] },
  { name: "resolve", args: ["resolve", "--app", "app"] },
  { name: "diff", args: ["diff", "old", "app", "-f", "json"] },
  {
    name: "explain",
    args: [
      "explain",
      "Command plugin:fs|read_text_file not allowed by ACL",
      "--app",
      "app",
      "-f",
      "json",
    ],
  },
  { name: "least-privilege", args: ["least-privilege", "--app", "app"] },
  { name: "permissions", args: ["permissions"] },
  { name: "schema", args: ["schema"] },
  { name: "rules", args: ["rules"] },
  { name: "report --html", args: ["report", "--app", "app"], option: "--html" },
  { name: "events", args: ["events", "recording.jsonl"] },
  { name: "mcp", args: ["mcp", "dump.json"] },
  {
    name: "mcp dump",
    args: [
      "mcp",
      "dump",
      "--stdio",
      "--",
      process.execPath,
      path.join(ROOT, "fixtures", "mcp", "good-server.mjs"),
    ],
  },
];

/** The built bin under a file-size limit of `kib` KiB (none when undefined): what it writes past it is refused. */
function caplintLimited(args: string[], cwd: string, kib?: number) {
  const limit = kib === undefined ? "" : `ulimit -f ${kib}; `;
  const result = spawnSync(
    "bash",
    ["-c", `${limit}exec "$0" "$@"`, process.execPath, BIN, ...args],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 60_000,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The output option goes before `--`, after which everything is the server's command. */
function withOutput(args: string[], option: string, target: string): string[] {
  const end = args.indexOf("--");
  return end < 0
    ? [...args, option, target]
    : [...args.slice(0, end), option, target, ...args.slice(end)];
}

function leftovers(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.startsWith(".caplint-"));
}

describe("an output file on a disk that fills up part-way", { timeout: 240_000 }, () => {
  const dir = workspace();

  it.each(WRITERS)(
    "$name: the previous file stays, nothing is left behind, exit 2 with the reason",
    ({ args, option = "--output" }) => {
      const target = path.join("out", `${args[0]}-${args[1] ?? ""}.out`.replace(/[^\w.-]/g, "_"));
      // Unlimited, the report is written whole and is well over the limit: the limited run must fail part-way.
      const whole = caplintLimited(withOutput(args, option, target), dir);
      expect(whole.stderr).toBe("");
      expect(statSync(path.join(dir, target)).size).toBeGreaterThan(2048);

      writeFileSync(path.join(dir, target), PREVIOUS);
      chmodSync(path.join(dir, target), 0o640);
      const failed = caplintLimited(withOutput(args, option, target), dir, 1);
      expect(failed.stderr).toBe(
        `caplint: ${option} ${target}: cannot write the report: file too large: over the file-size limit (EFBIG, ulimit -f)\n`,
      );
      expect(failed.code).toBe(2);
      expect(readFileSync(path.join(dir, target), "utf8")).toBe(PREVIOUS);
      expect(statSync(path.join(dir, target)).mode & 0o777).toBe(0o640);
      expect(leftovers(path.join(dir, "out"))).toEqual([]);
    },
  );

  it("check --fix: a fixed file that does not fit leaves the original, exit 2 with the reason", () => {
    const capability = path.join(dir, "app", "src-tauri", "capabilities", "many.json");
    const before = readFileSync(capability, "utf8");
    expect(before.length).toBeGreaterThan(2048);
    const failed = caplintLimited(["check", "--fix", "--app", "app", "-f", "compact"], dir, 1);
    expect(failed.stderr).toBe(
      "caplint: app/src-tauri/capabilities/many.json: cannot write the fixed file, original left untouched: file too large: over the file-size limit (EFBIG, ulimit -f)\n",
    );
    expect(failed.code).toBe(2);
    expect(readFileSync(capability, "utf8")).toBe(before);
    expect(leftovers(path.dirname(capability))).toEqual([]);
  });

  it("a report that fits is still written, keeping the old file's mode", () => {
    const target = path.join("out", "fits.json");
    writeFileSync(path.join(dir, target), PREVIOUS);
    chmodSync(path.join(dir, target), 0o640);
    const result = caplintLimited(
      ["who-can", "plugin:fs|read_text_file", "--app", "app", "-f", "json", "-o", target],
      dir,
      1024,
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(readFileSync(path.join(dir, target), "utf8"))).toBeTypeOf("object");
    expect(statSync(path.join(dir, target)).mode & 0o777).toBe(0o640);
  });

  it("ENOSPC is named: /dev/full, written directly as a device, refuses every write", () => {
    for (const [args, option] of [
      [["schema"], "--output"],
      [["events", "recording.jsonl"], "--output"],
      [["report", "--app", "app"], "--html"],
    ] as const) {
      const result = caplintLimited([...args, option, "/dev/full"], dir);
      expect(result.stderr, args.join(" ")).toBe(
        `caplint: ${option} /dev/full: cannot write the report: no space left on device (ENOSPC)\n`,
      );
      expect(result.code).toBe(2);
    }
  });

  // A mount namespace needs root or unprivileged user namespaces; the ulimit runs above hold the same guarantee without either.
  const namespace = ["-m"].concat(process.getuid?.() === 0 ? [] : ["-r"]);
  const canMount = spawnSync("unshare", [...namespace, "true"]).status === 0;
  it.runIf(canMount)(
    "ENOSPC on a real full file system (a 64 KiB tmpfs): the previous file stays",
    () => {
      const mount = path.join(dir, "tiny");
      mkdirSync(mount);
      const script = [
        `mount -t tmpfs -o size=64k caplint-full "$1"`,
        `printf %s "$2" > "$1/schema.json"`,
        `"$3" "$4" schema -o "$1/schema.json"`,
        `echo "exit=$?"`,
        `cat "$1/schema.json"`,
        `ls -A "$1"`,
      ].join("; ");
      const result = spawnSync(
        "unshare",
        [...namespace, "bash", "-c", script, "full", mount, PREVIOUS, process.execPath, BIN],
        {
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1" },
        },
      );
      expect(result.stderr).toBe(
        `caplint: --output ${path.join(mount, "schema.json")}: cannot write the report: no space left on device (ENOSPC)\n`,
      );
      expect(result.stdout).toBe(`exit=2\n${PREVIOUS}schema.json\n`);
    },
  );
});
