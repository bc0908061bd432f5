import { describe, expect, it } from "vitest";
import type { AclManifests } from "../../src/capabilities/catalog/types.js";
import { accessMatrix, resolve, resolveAccess } from "../../src/capabilities/engine/index.js";
import { resetWork, work } from "../../src/capabilities/work.js";
import { capability, catalogOf, manifest } from "../capabilities/engine/helpers.js";

/** 40 plugins × 25 commands, each with a default set of 10 and a nested `all` set. */
function syntheticCatalog(): AclManifests {
  const manifests: AclManifests = {};
  for (let p = 0; p < 40; p++) {
    const permissions: Record<string, { allow?: string[]; deny?: string[] }> = {};
    for (let c = 0; c < 25; c++) {
      permissions[`allow-cmd-${c}`] = { allow: [`cmd_${c}`] };
      permissions[`deny-cmd-${c}`] = { deny: [`cmd_${c}`] };
    }
    const firstTen = Array.from({ length: 10 }, (_, c) => `allow-cmd-${c}`);
    manifests[`plugin-${p}`] = manifest({
      permissions,
      default: firstTen,
      sets: { all: ["default", ...Array.from({ length: 15 }, (_, c) => `allow-cmd-${c + 10}`)] },
    });
  }
  return manifests;
}

function syntheticCapabilities(count: number) {
  return Array.from({ length: count }, (_, i) =>
    capability({
      identifier: `cap-${String(i).padStart(5, "0")}`,
      windows:
        i % 3 === 0
          ? [`win-${i % 250}`]
          : i % 3 === 1
            ? [`group-${i % 20}-*`, `win-${(i * 7) % 250}`]
            : [],
      webviews: i % 3 === 2 ? [`win-${i % 250}`, `panel-*-${i % 5}`] : [],
      remote: i % 10 === 0 ? { urls: [`https://*.site-${i % 13}.dev`] } : undefined,
      permissions: [
        `plugin-${i % 40}:default`,
        `plugin-${(i * 3) % 40}:all`,
        `plugin-${(i * 11) % 40}:allow-cmd-${i % 25}`,
        ...(i % 997 === 0 ? [`plugin-${i % 40}:deny-cmd-3`] : []),
      ],
    }),
  );
}

/**
 * Linear growth, guarded by operation counts rather than a clock (timings flake on a busy machine; `npm run
 * bench` row 4 times the same shape through the bin): resolving 5,000 capabilities and building their
 * 200-window matrix must cost at most ~11 times the work for 500. Quadratic resolution (each capability against
 * every other) shows as a factor near 100.
 */
describe("performance on a large synthetic project", () => {
  it("resolves 5,000 capabilities and builds a 200-window matrix with ten times the work of 500", () => {
    const catalog = catalogOf(syntheticCatalog());
    const windows = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0 ? `win-${i}` : `group-${i % 20}-${i}`,
    );
    const counted = (count: number) => {
      resetWork();
      const model = resolve({
        capabilities: syntheticCapabilities(count),
        catalog,
        platform: "linux",
      });
      const matrix = accessMatrix(model, windows, { kind: "local" });
      return { model, matrix, work: { ...work } };
    };
    const small = counted(500);
    const { model, matrix, work: large } = counted(5000);
    expect(small.work.resolvedEntries).toBeGreaterThan(0);
    expect(small.work.setMembers).toBeGreaterThan(0);
    for (const counter of ["resolvedEntries", "setMembers"] as const)
      expect(
        large[counter] / small.work[counter],
        `${counter}: ${small.work[counter]} → ${large[counter]}`,
      ).toBeLessThanOrEqual(11);

    const remoteMatrix = accessMatrix(model, windows, {
      kind: "remote",
      url: "https://a.site-3.dev/x",
    });
    expect(model.problems).toEqual([]);
    expect(matrix.rows).toHaveLength(200);
    expect(remoteMatrix.rows.some((row) => row.granted.length > 0)).toBe(true);

    // Spot-check rows against the per-window query.
    for (const row of [matrix.rows[0]!, matrix.rows[1]!, matrix.rows[77]!]) {
      const single = resolveAccess(model, { window: row.window });
      expect(row.granted).toEqual(single.allowed.map((a) => a.command));
    }
  });
});
