import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckSession, checkCapabilities } from "../../src/capabilities/check-run.js";
import { checkRequest } from "../helpers/check-request.js";
import { FIXTURES } from "../helpers/run.js";

/** An app with a Cargo build, its own permission files and a config: every kind of input a reload may keep or must read again. */
let dir: string;
let capability: string;
let permission: string;
let config: string;

beforeEach(() => {
  dir = path.join(mkdtempSync(path.join(tmpdir(), "caplint-check-run-")), "app");
  cpSync(path.join(FIXTURES, "cli", "app-build"), dir, { recursive: true });
  capability = path.join(dir, "src-tauri", "capabilities", "default.json");
  permission = path.join(dir, "src-tauri", "permissions", "database", "extra.toml");
  config = path.join(dir, "caplint.config.json");
  writeFileSync(config, JSON.stringify({ rules: { "unknown-permission": "warning" } }));
});

afterEach(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

const request = () => checkRequest(dir);

/** What a check reports, without the model it was found in. */
const reported = async (outcome: ReturnType<typeof checkCapabilities>) => {
  const { result, config, inputs } = await outcome;
  return { result, config, inputs: [...inputs].sort() };
};

const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, "utf8");
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
};

describe("a check session (the language server's check)", () => {
  it("after an edit of a capability file reloads only the capability files, and reports what a fresh check reports", async () => {
    const session = new CheckSession();
    const first = await session.run(request());
    expect(first.result.diagnostics.some((d) => d.message.includes("allow-nope"))).toBe(true);
    edit(capability, '"database:allow-nope",', '"database:allow-nope", "database:allow-nopf",');
    const second = await session.run(request(), new Set([capability]));
    // The catalog was kept (its lookups warm): nothing it depends on changed.
    expect(second.checks[0]!.project.catalog).toBe(first.checks[0]!.project.catalog);
    expect(second.result.diagnostics.some((d) => d.message.includes("allow-nopf"))).toBe(true);
    expect(await reported(Promise.resolve(second))).toEqual(
      await reported(checkCapabilities(request())),
    );
  });

  it("after an edit remakes the capabilities of the edited file only: the others are the same objects", async () => {
    const other = path.join(dir, "src-tauri", "capabilities", "other.json");
    writeFileSync(
      other,
      JSON.stringify({ identifier: "other", windows: ["main"], permissions: ["core:default"] }),
    );
    const session = new CheckSession();
    const first = await session.run(request());
    const before = new Map(
      first.checks[0]!.project.capabilities.map((c) => [c.identifier, c] as const),
    );
    edit(capability, '"database:allow-nope",', '"database:allow-nope", "database:allow-nopf",');
    const second = await session.run(request(), new Set([capability]));
    const after = new Map(
      second.checks[0]!.project.capabilities.map((c) => [c.identifier, c] as const),
    );
    expect([...after.keys()].sort()).toEqual(["main", "other"]);
    expect(after.get("other")).toBe(before.get("other"));
    expect(after.get("main")).not.toBe(before.get("main"));
    expect(await reported(Promise.resolve(second))).toEqual(
      await reported(checkCapabilities(request())),
    );
  });

  it("loads everything again when a permission file, the config or an unknown change is among the changes", async () => {
    const session = new CheckSession();
    let last = await session.run(request());
    for (const [file, from, to] of [
      [permission, '"query"', '"query", "exec"'],
      [config, '"warning"', '"error"'],
    ] as const) {
      edit(file, from, to);
      const next = await session.run(request(), new Set([file]));
      expect(next.checks[0]!.project.catalog).not.toBe(last.checks[0]!.project.catalog);
      expect(await reported(Promise.resolve(next))).toEqual(
        await reported(checkCapabilities(request())),
      );
      last = next;
    }
    const anything = await session.run(request());
    expect(anything.checks[0]!.project.catalog).not.toBe(last.checks[0]!.project.catalog);
  });

  it("sees an input changed on disk behind its back (a config written by a tool), though told only of a capability file", async () => {
    const session = new CheckSession();
    const first = await session.run(request());
    expect(
      first.result.diagnostics.some(
        (d) => d.ruleId === "unknown-permission" && d.severity === "error",
      ),
    ).toBe(false);
    writeFileSync(
      config,
      JSON.stringify({ rules: { "unknown-permission": "error", "unknown-plugin": "off" } }),
    );
    edit(capability, '"local:allow-nope",', '"local:allow-nope", ');
    const second = await session.run(request(), new Set([capability]));
    expect(
      second.result.diagnostics.some(
        (d) => d.ruleId === "unknown-permission" && d.severity === "error",
      ),
    ).toBe(true);
    expect(await reported(Promise.resolve(second))).toEqual(
      await reported(checkCapabilities(request())),
    );
  });
});
