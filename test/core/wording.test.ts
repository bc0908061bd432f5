import { describe, expect, it } from "vitest";
import { agree, plural } from "../../src/core/wording.js";

describe("counts in words", () => {
  it("gives the noun and the verb the number of the count", () => {
    expect(`${plural(1, "warning")} ${agree(1, "exceeds", "exceed")}`).toBe("1 warning exceeds");
    expect(`${plural(2, "warning")} ${agree(2, "exceeds", "exceed")}`).toBe("2 warnings exceed");
    expect(`${plural(0, "warning")} ${agree(0, "exceeds", "exceed")}`).toBe("0 warnings exceed");
    expect(plural(3, "capability", "capabilities")).toBe("3 capabilities");
  });
});
