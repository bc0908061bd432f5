import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, run } from "../helpers/run.js";
import { binForAnyUser } from "../helpers/bin-for-any-user.js";

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "caplint-hostile-"));
}

async function checkFile(name: string, content: string | Buffer, extra: string[] = []) {
  const dir = tempDir();
  writeFileSync(path.join(dir, name), content);
  return run(["check", "--format", "compact", name, ...extra], dir);
}

const CAPABILITY = { identifier: "main", windows: ["main"], permissions: ["core:default"] };

describe("hostile inputs: a finding or a fatal message, never a crash", () => {
  it("binary content", async () => {
    const result = await checkFile("bin.json", Buffer.from([0x7b, 0x00, 0xff, 0x10, 0x00]));
    expect(result.stdout).toMatch(
      /^bin\.json:1:2: error the file contains NUL bytes: it looks binary, not JSON or TOML \[parse\]\n$/,
    );
    expect(result.code).toBe(1);
  });

  it("a UTF-8 byte order mark, which the host rejects", async () => {
    const result = await checkFile("bom.json", "\uFEFF" + JSON.stringify(CAPABILITY));
    expect(result.stdout).toContain("byte order mark, which the app's build rejects");
    expect(result.code).toBe(1);
  });

  it("invalid UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"identifier": "m'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('", "permissions": []}'),
    ]);
    const result = await checkFile("latin.json", bytes);
    expect(result.stdout).toMatch(/^latin\.json:1:18: error the file is not valid UTF-8/);
  });

  it("an empty file and a whitespace-only file", async () => {
    expect((await checkFile("empty.json", "")).stdout).toContain("the file is empty");
    expect((await checkFile("blank.toml", "\n  \n")).stdout).toContain("the file is empty");
  });

  it("100,000-deep nesting", async () => {
    const result = await checkFile("deep.json", "[".repeat(100_000) + "]".repeat(100_000));
    expect(result.stdout).toMatch(/^deep\.json:1:257: error nesting deeper than 256 levels/);
    const toml = await checkFile("deep.toml", `a = ${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(toml.stdout).toContain("nesting deeper than 256 levels");
  });

  it("a 50 MB file is refused with a clear, configurable limit", async () => {
    const dir = tempDir();
    const file = path.join(dir, "huge.json");
    writeFileSync(file, "");
    truncateSync(file, 50 * 1024 * 1024);
    const result = await run(["check", "--format", "compact", "huge.json"], dir);
    expect(result.stdout).toBe(
      "huge.json:1:1: error file is 50.0 MB, over the 10.0 MB limit (raise it with --max-file-size) [parse]\n",
    );
    const raised = await run(
      ["check", "--format", "compact", "--max-file-size", String(60 * 1024 * 1024), "huge.json"],
      dir,
    );
    expect(raised.stdout).toContain("NUL bytes");
    expect((await run(["check", "--max-file-size", "lots", "huge.json"], dir)).code).toBe(2);
  });

  it("a 20,000-capability list", async () => {
    const list = Array.from({ length: 20_000 }, (_, i) => ({
      ...CAPABILITY,
      identifier: `cap-${i}`,
    }));
    const result = await checkFile("many.json", JSON.stringify(list));
    expect(result).toMatchObject({ code: 0, stdout: "" });
  }, 120_000);

  it("very long strings are shortened in messages", async () => {
    const long = "x".repeat(1_000_000);
    const result = await checkFile(
      "long.json",
      JSON.stringify({ ...CAPABILITY, permissions: [`fs:${long}`], [long]: 1 }),
    );
    const lines = result.stdout.trim().split("\n");
    expect(lines.length).toBe(2);
    for (const line of lines) expect(line.length).toBeLessThan(400);
    expect(result.stdout).toContain("(1000003 characters)");
  });

  it("__proto__ and constructor keys are plain data", async () => {
    const text = `{"identifier": "main", "windows": ["main"], "permissions": ["core:default"], "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}`;
    const result = await checkFile("proto.json", text);
    expect(result.stdout).toContain('unknown capability field "__proto__"');
    expect(result.stdout).toContain('unknown capability field "constructor"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a directory named x.json inside a capabilities folder", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "caps", "x.json"), { recursive: true });
    writeFileSync(path.join(dir, "caps", "ok.json"), JSON.stringify(CAPABILITY));
    const result = await run(["check", "--format", "compact", "caps"], dir);
    expect(result.stdout).toBe(
      "caps/x.json:1:1: error is a directory with a capability file extension; skipped [parse]\n",
    );
  });

  it("a symlink loop in a capabilities folder", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "caps", "sub"), { recursive: true });
    writeFileSync(path.join(dir, "caps", "ok.json"), JSON.stringify(CAPABILITY));
    symlinkSync("..", path.join(dir, "caps", "sub", "up"));
    symlinkSync("self.json", path.join(dir, "caps", "self.json"));
    const result = await run(["check", "--format", "compact", "caps"], dir);
    expect(result.stdout).toBe(
      "caps/self.json:1:1: error broken symbolic link: too many levels of symbolic links [parse]\n",
    );
  });

  it("a FIFO in a folder is skipped with a finding, and refused when named", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "caps"));
    execFileSync("mkfifo", [path.join(dir, "caps", "pipe.json")]);
    const result = await run(["check", "--format", "compact", "caps"], dir);
    expect(result.stdout).toBe(
      "caps/pipe.json:1:1: error is not a regular file (FIFO, socket or device); skipped [parse]\n",
    );
    const named = await run(["check", "caps/pipe.json"], dir);
    expect(named).toMatchObject({
      code: 2,
      stderr: "caplint: caps/pipe.json: not a regular file or folder\n",
    });
  });

  it("an unreadable file", () => {
    const dir = tempDir();
    const file = path.join(dir, "secret.json");
    writeFileSync(file, JSON.stringify(CAPABILITY));
    chmodSync(file, 0o000);
    chmodSync(dir, 0o755);
    // root reads anything, so the check runs as an unprivileged user when the tests run as root.
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? "runuser" : process.execPath;
    const args = asRoot
      ? ["-u", "nobody", "--", process.execPath, binForAnyUser()]
      : [path.join(ROOT, "bin/caplint.js")];
    const result = spawnSync(command, [...args, "check", "-f", "compact", "."], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(result.stdout).toBe(
      "secret.json:1:1: error cannot read file: permission denied [parse]\n",
    );
    expect(result.status).toBe(1);
  });
});
