import { describe, it } from "vitest";

/**
 * Tests that drive a real external tool (pre-commit, Chromium). In CI (`CI` set, as `.ci/run` does
 * after installing the tools with scripts/ensure-tools.sh) a missing tool is a failure, so CI can
 * never go green without having run them; locally they skip with the reason and how to get the tool.
 */
export const IN_CI =
  Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";

export function describeWithTool(
  tool: string,
  available: boolean,
  howToGet: string,
  name: string,
  body: () => void,
): void {
  if (available) {
    describe(name, body);
  } else if (IN_CI) {
    describe(name, () => {
      it(`needs ${tool}, which is missing (CI=true): ${howToGet}`, () => {
        throw new Error(`${tool} is missing on this CI machine; ${howToGet}`);
      });
    });
  } else {
    describe.skip(`${name} [skipped: ${tool} is missing; ${howToGet}]`, body);
  }
}
