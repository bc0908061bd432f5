import { describe, expect, it } from "vitest";
import path from "node:path";
import { relativeInFolder, relativeFile } from "../../../src/capabilities/load/project.js";

describe("relativeInFolder", () => {
  it("names a file as relativeFile does, the folder's part worked out once per folder", () => {
    const cwds = ["/", "/a", "/a/b", "/a/b/c", "/a/b/c/d/e", "/x/y", "/a/bc"];
    const files = [
      "/a/b/c/x.json",
      "/a/b/c/y.json",
      "/a/b/x.json",
      "/a/bc/x.json",
      "/a/b",
      "/a",
      "/x.json",
      "/a/b/c/d/e/f/g.toml",
      "/p/q/r/s/t/u.json",
      "/a/./b/x.json",
      "/a/b/../c/x.json",
      "/a//b/x.json",
      "/a/b/.hidden.json",
      "/a/b/..",
      "/a/b/.",
      "/a/b/",
    ];
    for (const cwd of cwds)
      for (const file of [...files, ...files.reverse()])
        expect(relativeInFolder(cwd, file), `${cwd} ${file}`).toBe(relativeFile(cwd, file));
    expect(relativeInFolder("/a/b", path.join("/a/b", "capabilities", "x.json"))).toBe(
      "capabilities/x.json",
    );
  });
});
