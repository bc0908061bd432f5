import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import {
  addCapabilitySchemas,
  VALIDATOR_OPTIONS,
} from "../../src/capabilities/schema/validator-setup.js";
import { ROOT } from "../helpers/run.js";

/**
 * The build's validators (scripts/build-validator.mjs) skip the permission entry validator for a
 * string entry, which the schema accepts whatever it says: bench row 6's 400,000 entries each cost a
 * call with a new options object and instance path. They must judge every file as Ajv compiling the
 * schema at run time does.
 */
type Validators = Record<"single" | "list" | "wrapped", ValidateFunction>;

const generatedFile = path.join(ROOT, "dist", "generated", "capability-validators.cjs");
const built = createRequire(import.meta.url)(generatedFile) as Validators;

function compiledNow(): Validators {
  const ajv = new (Ajv as unknown as typeof Ajv.default)(VALIDATOR_OPTIONS);
  addFormats.default(ajv);
  const schema = JSON.parse(
    readFileSync(path.join(ROOT, "schema", "capability.schema.json"), "utf8"),
  ) as { $id: string };
  const ids = addCapabilitySchemas(ajv, schema);
  return {
    single: ajv.getSchema(ids.single)!,
    list: ajv.getSchema(ids.list)!,
    wrapped: ajv.getSchema(ids.wrapped)!,
  };
}

describe("the build's capability validators", () => {
  it("call the entry validator for no string entry, in each file form's loop", () => {
    const code = readFileSync(generatedFile, "utf8");
    const guarded = code.match(/if\(typeof data\d+\[i\d+\] !== "string" && !\(validate\d+\(/g);
    expect(guarded).toHaveLength(3);
    expect(code).not.toMatch(
      /if\(!\(validate\d+\(data\d+\[i\d+\], \{instancePath:instancePath\+"\/permissions\//,
    );
  });

  it("judge entries of every kind as the schema compiled at run time does", () => {
    const now = compiledNow();
    const permissions = [
      "core:default",
      "",
      "not an identifier at all",
      7,
      null,
      true,
      ["core:default"],
      { identifier: "fs:allow-read", allow: [{ path: "$HOME" }], deny: null },
      { identifier: 3 },
      { allow: [] },
      { identifier: "fs:scope", allow: "no list", deny: [1, "x", null] },
    ];
    const capability = (entries: unknown[]) => ({
      identifier: "main",
      windows: ["main"],
      permissions: entries,
    });
    const files: Array<[keyof Validators, unknown]> = [
      ["single", capability(permissions)],
      ["single", capability(["core:default", "shell:allow-open"])],
      ["list", [capability(permissions), capability(["a", "b"]), capability([5])]],
      ["wrapped", { capabilities: [capability(permissions)] }],
      ["wrapped", { capabilities: [capability([])] }],
    ];
    for (const [form, file] of files) {
      const verdict = built[form](file);
      expect(verdict).toBe(now[form](file));
      expect(built[form].errors ?? null).toEqual(now[form].errors ?? null);
    }
  });

  it("accept JSON scope values and object entries before Ajv's branches, and no other value", () => {
    const code = readFileSync(generatedFile, "utf8");
    // The value validator and the entry validator each return at once for what they accept, and an
    // entry's `allow` and `deny` items that are JSON values are not passed to the value validator.
    expect(
      code.match(/\{if\(isJsonValue\(data\)\)\{validate\d+\.errors = null;return true;\}/g),
    ).toHaveLength(1);
    expect(
      code.match(
        /&& isValueList\(data\.allow\) && isValueList\(data\.deny\)\)\{validate\d+\.errors = null;return true;\}/g,
      ),
    ).toHaveLength(1);
    expect(code.match(/if\(!isJsonValue\(data\d+\[i\d+\]\) && !\(validate\d+\(/g)).toHaveLength(2);
    const now = compiledNow();
    class Shape {
      constructor(readonly path: string) {}
    }
    const inherited = Object.create({ extra: undefined }) as Record<string, unknown>;
    inherited.path = "$HOME";
    const holey: unknown[] = ["a"];
    holey[2] = "c";
    const values: unknown[] = [
      null,
      true,
      0,
      -1.5,
      Infinity,
      Number.NaN,
      "",
      "$APPDATA/**",
      [],
      {},
      [1, [2, [3, { deep: [null, { deeper: "x" }] }]]],
      { path: "$HOME/**", nested: { list: [true, null, 1e300] }, __proto__: "kept" },
      JSON.parse('{"__proto__": {"a": 1}, "b": [{}]}'),
      new Shape("$HOME"),
      new Date(0),
      undefined,
      [undefined],
      { a: undefined },
      { a: [1, undefined] },
      holey,
      10n,
      { big: 10n },
      () => "x",
      Symbol("x"),
      inherited,
    ];
    const entries: unknown[] = [
      ...values.map((value) => ({ identifier: "fs:scope", allow: [value], deny: [value, "x"] })),
      ...values.map((value) => ({ identifier: "fs:scope", allow: value })),
      ...values.map((value) => ({ identifier: value, deny: [] })),
      { identifier: "fs:scope", allow: null, deny: undefined },
      { identifier: "fs:scope", allow: [], extra: 1 },
      Object.assign(Object.create({ identifier: "fs:inherited" }) as object, { allow: [1] }),
      { identifier: "fs:scope", allow: holey },
    ];
    const capability = (permissions: unknown[]) => ({ identifier: "main", permissions });
    const files: Array<[keyof Validators, unknown]> = [
      ...entries.map((entry): [keyof Validators, unknown] => ["single", capability([entry])]),
      ["single", capability(entries)],
      ["list", [capability(entries), capability(["a", { identifier: "b", allow: [{}] }])]],
      ["wrapped", { capabilities: [capability(entries)] }],
    ];
    for (const [form, file] of files) {
      const verdict = built[form](file);
      expect(verdict).toBe(now[form](file));
      expect(built[form].errors ?? null).toEqual(now[form].errors ?? null);
    }
    // Each kind of value was judged both ways: JSON values pass, the others fail with Ajv's errors.
    const judged = values.map((value) =>
      built.single(capability([{ identifier: "fs:scope", allow: [value] }])),
    );
    expect(judged.filter(Boolean).length).toBe(15);
  });
});
