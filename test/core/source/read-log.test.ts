import { describe, expect, it } from "vitest";
import path from "node:path";
import { newReadLog, noteRead, readPaths, recordReads } from "../../../src/core/source/read-log.js";

const file = (name: string) => path.resolve("/project", name);
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("read log", () => {
  it("records the reads made until the body settles, across awaits, and none after", async () => {
    const log = newReadLog();
    await recordReads(log, async () => {
      noteRead("files", file("a.json"));
      await tick();
      noteRead("folders", file("capabilities"));
    });
    noteRead("files", file("late.json"));
    expect(log.files).toEqual(new Set([file("a.json")]));
    expect(log.folders).toEqual(new Set([file("capabilities")]));
    expect(readPaths(log)).toEqual([file("a.json"), file("capabilities")]);
  });

  it("records a nested recording's reads into the outer one too, and stops when the body throws", async () => {
    const outer = newReadLog();
    const inner = newReadLog();
    await recordReads(outer, async () => {
      noteRead("files", file("config.json"));
      await expect(
        recordReads(inner, async () => {
          noteRead("trees", file("permissions"));
          throw new Error("load failed");
        }),
      ).rejects.toThrow("load failed");
      noteRead("files", file("after.json"));
    });
    expect(readPaths(inner)).toEqual([file("permissions")]);
    expect(readPaths(outer).sort()).toEqual(
      [file("after.json"), file("config.json"), file("permissions")].sort(),
    );
  });

  it("keeps recording into a log entered twice until the outer recording settles", async () => {
    const log = newReadLog();
    await recordReads(log, async () => {
      await recordReads(log, async () => noteRead("files", file("a.json")));
      noteRead("files", file("b.json"));
    });
    expect([...log.files]).toEqual([file("a.json"), file("b.json")]);
  });

  it("lets loads running at once miss none of their own reads", async () => {
    const first = newReadLog();
    const second = newReadLog();
    await Promise.all([
      recordReads(first, async () => {
        await tick();
        noteRead("files", file("first.json"));
        await tick();
      }),
      recordReads(second, async () => {
        noteRead("files", file("second.json"));
        await tick();
      }),
    ]);
    expect(first.files.has(file("first.json"))).toBe(true);
    expect(second.files.has(file("second.json"))).toBe(true);
  });

  it("logs every path as resolving it gives it, keeping a resolved path's own string", async () => {
    const log = newReadLog();
    const targets = [
      "/a/b.json",
      "/a/./b.json",
      "/a//b.json",
      "/a/c/../b.json",
      "/a/dir/",
      "/a/dir/.",
      "/a/dir/..",
      "/a/.hidden",
      "/a/..b/c..",
      "/",
      "relative/x.json",
      "./y.json",
    ];
    await recordReads(log, async () => {
      for (const target of targets) noteRead("files", target);
    });
    expect([...log.files]).toEqual([...new Set(targets.map((target) => path.resolve(target)))]);
  });
});
