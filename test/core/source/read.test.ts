import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  forgetFilesRead,
  LARGE_FILE_BYTES,
  readTextFile,
  readWork,
  SMALL_READ_BYTES,
  walk,
  wasReadThisRun,
} from "../../../src/core/source/read.js";

const temp = () => mkdtempSync(path.join(os.tmpdir(), "caplint-read-"));

describe("readTextFile", () => {
  it("decodes valid UTF-8 natively: only a text with a U+FFFD is decided by the exact decoder", () => {
    const dir = temp();
    const files = {
      ascii: '{"identifier": "main"}',
      accents: '{"description": "déjà vu, 日本語, 🦀"}',
      bom: "\ufeff{}",
      nul: "{\u0000}",
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const before = readWork.exactDecodes;
    for (const [name, text] of Object.entries(files))
      expect(readTextFile(path.join(dir, name), 1024)).toEqual({ ok: true, text });
    // Before: every file went through the exact decoder (4 here).
    expect(readWork.exactDecodes - before).toBe(0);

    writeFileSync(path.join(dir, "real"), "a \ufffd b");
    writeFileSync(path.join(dir, "invalid"), Buffer.from([0x61, 0xef, 0xbf, 0xbd, 0xc3, 0x28]));
    writeFileSync(path.join(dir, "cut"), Buffer.from([0x61, 0xe2, 0x82]));
    writeFileSync(path.join(dir, "surrogate"), Buffer.from([0x61, 0xed, 0xa0, 0x80]));
    expect(readTextFile(path.join(dir, "real"), 1024)).toEqual({ ok: true, text: "a \ufffd b" });
    // The real U+FFFD at 1 is a character; the invalid byte after it is the first bad one.
    expect(readTextFile(path.join(dir, "invalid"), 1024)).toEqual({
      ok: true,
      text: "a\ufffd\ufffd(",
      invalidUtf8At: 2,
    });
    expect(readTextFile(path.join(dir, "cut"), 1024)).toEqual({
      ok: true,
      text: "a\ufffd",
      invalidUtf8At: 1,
    });
    expect(readTextFile(path.join(dir, "surrogate"), 1024)).toMatchObject({
      ok: true,
      invalidUtf8At: 1,
    });
    expect(readWork.exactDecodes - before).toBe(4);
  });

  it("reads a large file as bytes, ASCII without decoding, and decides the rest as a small file's", () => {
    const dir = temp();
    const padding = " ".repeat(LARGE_FILE_BYTES);
    const files: Record<string, Buffer> = {
      ascii: Buffer.from(`{"identifier": "main"}${padding}`),
      accents: Buffer.from(`{"description": "déjà vu, 日本語, 🦀"}${padding}`),
      bom: Buffer.from(`\ufeff{}${padding}`),
      real: Buffer.from(`a \ufffd b${padding}`),
      invalid: Buffer.concat([
        Buffer.from([0x61, 0xef, 0xbf, 0xbd, 0xc3, 0x28]),
        Buffer.from(padding),
      ]),
      latin1: Buffer.concat([Buffer.from([0x61, 0xe9]), Buffer.from(padding)]),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
    const read = (name: string) => readTextFile(path.join(dir, name), 4 * LARGE_FILE_BYTES);
    const reads = readWork.largeReads;
    const decodes = readWork.exactDecodes;
    expect(read("ascii")).toEqual({ ok: true, text: `{"identifier": "main"}${padding}` });
    expect(read("accents")).toEqual({
      ok: true,
      text: `{"description": "déjà vu, 日本語, 🦀"}${padding}`,
    });
    expect(read("bom")).toEqual({ ok: true, text: `\ufeff{}${padding}` });
    expect(readWork.exactDecodes - decodes).toBe(0);
    expect(read("real")).toEqual({ ok: true, text: `a \ufffd b${padding}` });
    expect(read("invalid")).toEqual({
      ok: true,
      text: `a\ufffd\ufffd(${padding}`,
      invalidUtf8At: 2,
    });
    // A byte over 0x7f alone is no character of UTF-8, though Latin-1 would read it as one.
    expect(read("latin1")).toEqual({ ok: true, text: `a\ufffd${padding}`, invalidUtf8At: 1 });
    expect(readWork.exactDecodes - decodes).toBe(3);
    expect(readWork.largeReads - reads).toBe(6);
  });

  it("refuses folders, files over the limit and missing files, naming why", () => {
    const dir = temp();
    writeFileSync(path.join(dir, "big.json"), "x".repeat(2048));
    mkdirSync(path.join(dir, "folder.json"));
    expect(readTextFile(path.join(dir, "big.json"), 1024)).toEqual({
      ok: false,
      message: "file is 2.0 KB, over the 1.0 KB limit (raise it with --max-file-size)",
    });
    expect(readTextFile(path.join(dir, "folder.json"), 1024)).toEqual({
      ok: false,
      message: "is a directory, not a file",
    });
    expect(readTextFile(path.join(dir, "missing.json"), 1024)).toEqual({
      ok: false,
      message: "cannot read file: no such file or directory",
    });
  });
});

describe("readTextFile of a file known to be a regular file", () => {
  it("reads a small file without a stat, as any read would, and its identity is still known", () => {
    const dir = temp();
    const files: Record<string, string | Buffer> = {
      ascii: '{"identifier": "main"}',
      accents: '{"description": "déjà vu, 日本語, 🦀"}',
      bom: "\ufeff{}",
      real: "a \ufffd b",
      invalid: Buffer.from([0x61, 0xef, 0xbf, 0xbd, 0xc3, 0x28]),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    forgetFilesRead();
    const reads = readWork.smallRegularReads;
    for (const name of Object.keys(files)) {
      const file = path.join(dir, name);
      expect(readTextFile(file, 1024, "regular file")).toEqual(readTextFile(file, 1024));
    }
    expect(readWork.smallRegularReads - reads).toBe(5);
    // Each file read either way is one `--output` refuses to replace.
    forgetFilesRead();
    readTextFile(path.join(dir, "ascii"), 1024, "regular file");
    expect(wasReadThisRun(statSync(path.join(dir, "ascii")))).toBe(true);
    expect(wasReadThisRun(statSync(path.join(dir, "accents")))).toBe(false);
    forgetFilesRead();
    expect(wasReadThisRun(statSync(path.join(dir, "ascii")))).toBe(false);
    // A file read again (`--watch` reloads at every change) is asked for once, and only once asked.
    const asked = readWork.identitiesAsked;
    for (let reload = 0; reload < 3; reload++)
      readTextFile(path.join(dir, "bom"), 1024, "regular file");
    expect(readWork.identitiesAsked - asked).toBe(0);
    expect(wasReadThisRun(statSync(path.join(dir, "bom")))).toBe(true);
    expect(wasReadThisRun(statSync(path.join(dir, "bom")))).toBe(true);
    expect(readWork.identitiesAsked - asked).toBe(1);
  });

  it("reads any other as any file: empty, over the limit, at the small size, a folder, a FIFO, missing", () => {
    const dir = temp();
    writeFileSync(path.join(dir, "empty.json"), "");
    writeFileSync(path.join(dir, "big.json"), "x".repeat(2048));
    writeFileSync(path.join(dir, "limit.json"), "x".repeat(1024));
    writeFileSync(path.join(dir, "large.json"), "y".repeat(SMALL_READ_BYTES));
    mkdirSync(path.join(dir, "folder.json"));
    execFileSync("mkfifo", [path.join(dir, "pipe.json")]);
    const reads = readWork.smallRegularReads;
    const read = (name: string, limit = 1024) =>
      readTextFile(path.join(dir, name), limit, "regular file");
    expect(read("empty.json")).toEqual({ ok: true, text: "" });
    expect(read("big.json")).toEqual({
      ok: false,
      message: "file is 2.0 KB, over the 1.0 KB limit (raise it with --max-file-size)",
    });
    expect(read("limit.json")).toEqual({ ok: true, text: "x".repeat(1024) });
    expect(read("large.json", 2 * SMALL_READ_BYTES)).toEqual({
      ok: true,
      text: "y".repeat(SMALL_READ_BYTES),
    });
    expect(read("folder.json")).toEqual({ ok: false, message: "is a directory, not a file" });
    expect(read("pipe.json")).toEqual({
      ok: false,
      message: "is not a regular file (FIFO, socket or device); skipped",
    });
    expect(read("missing.json")).toEqual({
      ok: false,
      message: "cannot read file: no such file or directory",
    });
    // Only the file of exactly the limit was small enough to be read without its stat.
    expect(readWork.smallRegularReads - reads).toBe(1);
  });
});

describe("walk", () => {
  it("names every entry as path.join does, from any spelling of the root", async () => {
    const dir = temp();
    mkdirSync(path.join(dir, "caps", "nested"), { recursive: true });
    for (const name of ["a.json", "b.toml", ".hidden.json", "nested/c.json"])
      writeFileSync(path.join(dir, "caps", name), "{}");
    symlinkSync(path.join(dir, "caps", "a.json"), path.join(dir, "caps", "link.json"));
    const expected = ["a.json", "b.toml", "link.json", "nested/c.json"];
    for (const root of [
      path.join(dir, "caps"),
      `${path.join(dir, "caps")}${path.sep}`,
      path.join(dir, "caps", "nested", ".."),
      `${dir}${path.sep}${path.sep}caps`,
    ]) {
      const result = await walk(root, [".json", ".toml"], { ignoreName: (n) => n.startsWith(".") });
      expect(result.files).toEqual(expected.map((name) => path.join(root, name)));
      expect(result.problems).toEqual([]);
    }
    const relative = path.relative(process.cwd(), path.join(dir, "caps"));
    const result = await walk(relative, [".json", ".toml"], {
      ignoreName: (n) => n.startsWith("."),
    });
    expect(result.files).toEqual(expected.map((name) => path.join(relative, name)));
  });

  it("lists a folder of plain names as text, in the order of the names' bytes; any other folder as bytes", async () => {
    const dir = temp();
    const plain = path.join(dir, "plain");
    const wide = path.join(dir, "wide");
    mkdirSync(path.join(plain, "sub"), { recursive: true });
    mkdirSync(wide);
    // Byte order, not UTF-16 order: U+FF21 (EF BC A1) before U+1F600 (F0 9F 98 80), whose first
    // code unit (U+D83D) sorts before U+FF21's; and `B` (42) before `a` (61), `é` (C3 A9) after `z`.
    const plainNames = ["B.json", "a.json", "a-b.json", "z.json", "\u00e9.json", "sub/c.json"];
    const wideNames = ["a\u{1F600}.json", "a\uFF21.json", "a.json", "\uFFFD.json"];
    for (const name of plainNames) writeFileSync(path.join(plain, name), "{}");
    for (const name of wideNames) writeFileSync(path.join(wide, name), "{}");
    const byBytes = (names: string[]) =>
      [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const before = readWork.folderByteListings;
    const listed = await walk(plain, [".json"]);
    expect(listed.files).toEqual(byBytes(plainNames).map((name) => path.join(plain, name)));
    expect(readWork.folderByteListings - before).toBe(0);
    const wideListed = await walk(wide, [".json"]);
    expect(wideListed.files).toEqual(byBytes(wideNames).map((name) => path.join(wide, name)));
    expect(wideListed.files.map((file) => path.basename(file))).toEqual([
      "a.json",
      "a\uFF21.json",
      "a\u{1F600}.json",
      "\uFFFD.json",
    ]);
    expect(readWork.folderByteListings - before).toBe(1);
  });
});
