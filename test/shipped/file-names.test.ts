import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutBin } from "../helpers/hosts.js";

/**
 * File names are bytes on Linux and need not be UTF-8. A repository from a stranger can commit one:
 * caplint reads such a file by its bytes, shows its name escaped (`\xff`) in every output, never
 * crashes, and never mixes up two files whose names decode to the same lossy text.
 */
const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

const bytes = (...parts: Array<string | number[] | Buffer>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))),
  );
const capability = (identifier: string, permissions: string[]) =>
  JSON.stringify({ identifier, windows: ["main"], permissions });

/** An app whose capabilities folder holds files (and a folder) with names that are not UTF-8. */
function app(): { dir: string; capabilities: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-names-"));
  temporary.push(dir);
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ identifier: "dev.caplint.names", app: { windows: [{ label: "main" }] } }),
  );
  const capabilities = Buffer.from(path.join(dir, "src-tauri", "capabilities") + path.sep);
  // Two names that a lossy decoding would both read as "a\uFFFD.json": each must be read as itself.
  writeFileSync(
    bytes(capabilities, "a", [0xff], ".json"),
    capability("ff", ["core:window:allow-set-titel"]),
  );
  writeFileSync(
    bytes(capabilities, "a", [0xfe], ".json"),
    capability("fe", ["core:window:allow-closee"]),
  );
  // A real U+FFFD in a UTF-8 name is just a character.
  writeFileSync(
    bytes(capabilities, "a\ufffd.json"),
    capability("replacement", ["core:window:allow-close"]),
  );
  // A control character and a lone continuation byte; and a folder whose name is not UTF-8.
  writeFileSync(
    bytes(capabilities, "b", [0x1b], "[2J", [0x80], ".json"),
    capability("escape", ["core:window:allow-hidee"]),
  );
  mkdirSync(bytes(capabilities, "dir", [0xc3, 0x28]));
  writeFileSync(
    bytes(capabilities, "dir", [0xc3, 0x28], "/inner.json"),
    capability("inner", ["core:window:allow-shoow"]),
  );
  return { dir, capabilities };
}

async function check(dir: string, args: string[]) {
  const result = await checkoutBin.run({ argv: ["check", "--app", ".", ...args], cwd: dir });
  expect(result.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
  return result;
}

describe("file names that are not UTF-8", { timeout: 60_000 }, () => {
  it("are read by their bytes, each file as itself, and shown escaped in every text format", async () => {
    const { dir } = app();
    const names = {
      ff: "src-tauri/capabilities/a\\xff.json",
      fe: "src-tauri/capabilities/a\\xfe.json",
      escape: "src-tauri/capabilities/b\\u001b[2J\\x80.json",
      inner: "src-tauri/capabilities/dir\\xc3(/inner.json",
    };
    const compact = await check(dir, ["-f", "compact"]);
    expect(compact.code).toBe(1);
    const lines = compact.stdout.trim().split("\n");
    expect(lines).toContain(
      `${names.ff}:1:54: error unknown permission "core:window:allow-set-titel": plugin "core:window" has no permission or set "allow-set-titel" [unknown-permission]`,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(names.fe)}:1:\\d+: error unknown permission "core:window:allow-closee"`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(names.escape)}:1:\\d+: error unknown permission "core:window:allow-hidee"`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(names.inner)}:1:\\d+: error unknown permission "core:window:allow-shoow"`,
        ),
      ),
    );
    // The UTF-8 name with a real U+FFFD is valid and clean; nothing else is reported.
    expect(lines).toHaveLength(4);

    for (const format of ["stylish", "compact", "github"]) {
      const result = await check(dir, ["-f", format]);
      expect(result.code, format).toBe(1);
      expect(result.stdout, format).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(result.stdout, format).not.toContain("\ufffd.json\n");
      expect(result.stdout, format).toContain(format === "github" ? "a\\xff.json" : names.ff);
      expect(result.stdout, format).toContain("dir\\xc3(");
    }
    const json = JSON.parse((await check(dir, ["-f", "json"])).stdout) as {
      diagnostics: Array<{ file: string; message: string }>;
    };
    expect(json.diagnostics.map((d) => d.file).sort()).toEqual(
      [names.ff, names.fe, names.escape.replace("\\u001b", "\u001b"), names.inner].sort(),
    );
    const sarif = JSON.parse((await check(dir, ["-f", "sarif"])).stdout) as {
      runs: Array<{ results: unknown[] }>;
    };
    expect(sarif.runs[0]!.results).toHaveLength(4);
  });

  it("--fix refuses to rewrite such a file (a write by the shown name would make another file) and leaves it untouched", async () => {
    const { dir, capabilities } = app();
    const raw = bytes(capabilities, "a", [0xff], ".json");
    writeFileSync(
      raw,
      JSON.stringify(
        {
          identifier: "ff",
          windows: ["main"],
          permissions: ["core:window:allow-close", "core:window:allow-close"],
        },
        null,
        2,
      ),
    );
    const before = readFileSync(raw);
    const result = await check(dir, ["--fix"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "a\\xff.json: the file name is not UTF-8 (shown escaped); caplint does not rewrite such a file",
    );
    expect(readFileSync(raw)).toEqual(before);
    expect(
      readdirSync(capabilities, { encoding: "buffer" })
        .map((name) => name.toString("latin1"))
        .sort(),
    ).toEqual(
      [
        "a\xff.json",
        "a\xfe.json",
        Buffer.from("a\ufffd.json").toString("latin1"),
        "b\x1b[2J\x80.json",
        "dir\xc3(",
      ].sort(),
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
