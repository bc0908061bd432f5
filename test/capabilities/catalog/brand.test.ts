import { describe, expect, it } from "vitest";
import { majoritySpelling } from "../../../src/capabilities/catalog/brand.js";

describe("majoritySpelling", () => {
  it("counts each identifier as often as the entries write it, read once per distinct identifier", () => {
    // One distinct identifier of each spelling: the one written more often wins.
    expect(
      majoritySpelling(
        new Map([
          ["core:app:allow-host-version", 1],
          ["core:app:allow-tauri-version", 3],
          ["fs:default", 40],
        ]),
      ),
    ).toBe("tauri");
    expect(
      majoritySpelling(
        new Map([
          ["core:app:allow-host-version", 2],
          ["core:app:deny-tauri-version", 1],
        ]),
      ),
    ).toBe("host");
    expect(
      majoritySpelling(
        new Map([
          ["core:app:allow-host-version", 2],
          ["core:app:deny-tauri-version", 2],
        ]),
      ),
    ).toBeUndefined();
    expect(majoritySpelling(new Map([["core:default", 5]]))).toBeUndefined();
  });
});
