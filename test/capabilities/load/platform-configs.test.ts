import { describe, expect, it } from "vitest";
import { mergePatch } from "../../../src/capabilities/load/app-config.js";

describe("platform configs (tauri.<platform>.conf.json, Tauri.<platform>.toml)", () => {
  it("merges as RFC 7396 does: objects key by key, null deletes, arrays and other values replace", () => {
    const base = {
      app: {
        windows: [{ label: "main" }],
        withGlobalTauri: true,
        security: { csp: "x", capabilities: ["a"] },
      },
      version: "1",
    };
    const patch = {
      app: { windows: [{ label: "tray" }], security: { csp: null } },
      version: { major: 1, minor: null },
    };
    expect(mergePatch(base, patch)).toEqual({
      app: {
        windows: [{ label: "tray" }],
        withGlobalTauri: true,
        security: { capabilities: ["a"] },
      },
      version: { major: 1 },
    });
    // The RFC's own examples (appendix A), a few of them.
    expect(mergePatch({ a: "b" }, { a: "c" })).toEqual({ a: "c" });
    expect(mergePatch({ a: ["b"] }, { a: "c" })).toEqual({ a: "c" });
    expect(mergePatch({ a: [{ b: "c" }] }, { a: [1] })).toEqual({ a: [1] });
    expect(mergePatch(["a", "b"], ["c", "d"])).toEqual(["c", "d"]);
    expect(mergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
    // A "__proto__" key stays a key: the merged object's prototype is untouched.
    const merged = mergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(["__proto__"]);
  });
});
