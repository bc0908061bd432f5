import { describe, expect, it } from "vitest";
import { toCapability, unknownFileFields } from "../../src/capabilities/model/capability.js";

const build = (value: Record<string, unknown>, path: (string | number)[] = []) =>
  toCapability({ path, value }, { file: "c.json", absolutePath: "/c.json" })!;

describe("the capability model", () => {
  it("keeps each list item's own path when it drops wrongly typed items", () => {
    const capability = build(
      {
        identifier: "mixed",
        windows: [1, "main"],
        webviews: [null, "panel", "*"],
        platforms: [7, "linux"],
        remote: { urls: [123, "example.com"] },
        permissions: ["core:default"],
      },
      ["capabilities", 2],
    );
    expect(capability.windows).toEqual([
      { value: "main", path: ["capabilities", 2, "windows", 1] },
    ]);
    expect(capability.webviews.map((item) => item.path)).toEqual([
      ["capabilities", 2, "webviews", 1],
      ["capabilities", 2, "webviews", 2],
    ]);
    expect(capability.platforms).toEqual([
      { value: "linux", path: ["capabilities", 2, "platforms", 1] },
    ]);
    expect(capability.remote?.urls).toEqual([
      { value: "example.com", path: ["capabilities", 2, "remote", "urls", 1] },
    ]);
  });

  it("records the lists as written: lengths with wrongly typed items, null for a value that is no list, nothing when absent", () => {
    const capability = build({
      identifier: "c",
      windows: [1],
      webviews: "main",
      platforms: [],
      local: false,
      remote: {},
      permissions: [],
    });
    expect(capability.written.listLengths).toEqual({ windows: 1, webviews: null, platforms: 0 });
    expect(capability.written.remoteObject).toBe(true);
    expect(capability.platforms).toEqual([]);
    expect(capability.remote).toBeUndefined();
    expect(build({ identifier: "c", permissions: [] }).written).toEqual({
      listLengths: {},
      remoteObject: false,
      unknownFields: [],
      suppressions: [],
    });
  });

  it("records unknown fields of the capability, its remote and its extended entries, with the keys beside them", () => {
    const capability = build({
      identifier: "c",
      windowz: ["main"],
      remote: { url: ["https://x.dev"] },
      permissions: ["core:default", { identifier: "fs:scope", alow: [] }],
      "caplint-disable": ["no-target", 3, "unknown-field"],
    });
    expect(
      capability.written.unknownFields.map(({ key, path, object }) => ({ key, path, object })),
    ).toEqual([
      { key: "windowz", path: ["windowz"], object: "capability" },
      { key: "caplint-disable", path: ["caplint-disable"], object: "capability" },
      { key: "alow", path: ["permissions", 1, "alow"], object: "permission entry" },
      { key: "url", path: ["remote", "url"], object: "remote" },
    ]);
    expect(capability.written.unknownFields[0]!.siblings).toEqual(
      new Set(["identifier", "windowz", "remote", "permissions", "caplint-disable"]),
    );
    expect(capability.written.suppressions).toEqual([
      { value: "no-target", path: ["caplint-disable", 0] },
      { value: "unknown-field", path: ["caplint-disable", 2] },
    ]);
  });

  it("records unknown fields of a wrapped file's top level only", () => {
    expect(unknownFileFields({ capabilities: [], extra: 1 })).toEqual([
      { key: "extra", path: ["extra"], siblings: new Set(["capabilities", "extra"]) },
    ]);
    expect(unknownFileFields({ identifier: "single", extra: 1 })).toEqual([]);
    expect(unknownFileFields([{ identifier: "listed" }])).toEqual([]);
  });
});
