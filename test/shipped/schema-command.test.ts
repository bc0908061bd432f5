import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { checkoutBin, inProcess } from "../helpers/hosts.js";
import { ROOT } from "../helpers/run.js";

/**
 * `caplint schema` is for editors: the permission identifiers are listed with descriptions (as the
 * host's generated schema lists them), so completion works before the first build. Run through the
 * shipped bin: the in-process test once passed while the bin crashed on a moved file.
 */
interface IdentifierChoice {
  const: string;
  description: string;
  markdownDescription: string;
}

async function schemaOf(args: string[], cwd = ROOT) {
  const result = await checkoutBin.run({ argv: ["schema", ...args], cwd });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { definitions: Record<string, any> };
}

function choices(schema: { definitions: Record<string, any> }): IdentifierChoice[] {
  return schema.definitions.Identifier.anyOf[0].oneOf as IdentifierChoice[];
}

/**
 * Ajv takes some 15 s to generate code for a `oneOf` of ~900 `const` branches (editors read it at
 * once). Distinct string consts, each a plain `{description, type, const, markdownDescription}`, make
 * that `oneOf` the same set as an `enum` of them, which is what gets compiled here.
 */
function validator(schema: { definitions: Record<string, any> }) {
  const listed = choices(schema);
  for (const choice of listed)
    expect(Object.keys(choice).sort()).toEqual([
      "const",
      "description",
      "markdownDescription",
      "type",
    ]);
  expect(new Set(listed.map((c) => c.const)).size).toBe(listed.length);
  const compiled = structuredClone(schema);
  compiled.definitions.Identifier.anyOf[0] = { type: "string", enum: listed.map((c) => c.const) };
  const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: false, allErrors: true });
  return ajv.compile(compiled);
}

const capability = (...permissions: unknown[]) => ({
  identifier: "main",
  windows: ["main"],
  permissions,
});

describe("caplint schema", { timeout: 60_000 }, () => {
  it("lists every built-in permission identifier with a description, in the host's order", async () => {
    const schema = await schemaOf([]);
    const ids = choices(schema).map((c) => c.const);
    expect(new Set(ids).size, "no identifier twice (oneOf would reject it)").toBe(ids.length);
    for (const id of [
      "core:default",
      "core:window:allow-set-title",
      "core:app:allow-host-version",
      "fs:allow-read-file",
      "fs:default",
      "dialog:allow-save",
    ])
      expect(ids).toContain(id);
    expect(ids.indexOf("fs:default")).toBeLessThan(ids.indexOf("fs:allow-read-file"));
    const readFile = choices(schema).find((c) => c.const === "fs:allow-read-file")!;
    expect(readFile.description).toBe(
      "Enables the read_file command without any pre-configured scope.",
    );
    const coreDefault = choices(schema).find((c) => c.const === "core:default")!;
    expect(coreDefault.description).toContain(
      "includes: core:path:default, core:event:default, core:window:default",
    );
    expect(coreDefault.markdownDescription).toContain("- `core:window:default`");
  });

  it("validates: known ids pass, a typo of a known plugin fails, an unknown plugin is left to caplint check", async () => {
    const validate = validator(await schemaOf([]));
    expect(
      validate(
        capability("core:default", "fs:allow-read-file", {
          identifier: "fs:allow-read-file",
          allow: [{ path: "$APPDATA/**" }],
        }),
      ),
    ).toBe(true);
    expect(validate(capability("fs:allow-reed-file"))).toBe(false);
    expect(validate(capability("core:window:allow-set-titel"))).toBe(false);
    expect(validate(capability("some-community-plugin:allow-thing"))).toBe(true);
    expect(
      validate(capability("allow-my-command")),
      "app permissions are unknown without --app",
    ).toBe(true);
  });

  it("types an entry's allow/deny with the plugin's scope schema", async () => {
    const validate = validator(await schemaOf([]));
    expect(
      validate(
        capability({ identifier: "fs:allow-read-file", allow: [{ path: "$HOME/docs/**" }] }),
      ),
    ).toBe(true);
    expect(
      validate(
        capability({ identifier: "fs:allow-read-file", allow: [{ paht: "$HOME/docs/**" }] }),
      ),
    ).toBe(false);
    expect(
      validate(capability({ identifier: "core:window:allow-close", allow: [{ anything: 1 }] })),
      "no scope schema: any value",
    ).toBe(true);
  });

  it("with --app adds the app's generated manifest and its own permissions, and checks unprefixed ids", async () => {
    const schema = await schemaOf(["--app", "examples/demo-app"]);
    const ids = choices(schema).map((c) => c.const);
    expect(ids).toContain("allow-greet");
    expect(choices(schema).find((c) => c.const === "allow-greet")!.description).toBe(
      "Enables the greet command.",
    );
    const validate = validator(schema);
    expect(validate(capability("allow-greet"))).toBe(true);
    expect(
      validate(capability("allow-gret")),
      "the app's own permissions are known: a typo fails",
    ).toBe(false);
    const generated = JSON.parse(
      readFileSync(
        path.join(ROOT, "examples/demo-app/src-tauri/gen/schemas/acl-manifests.json"),
        "utf8",
      ),
    ) as Record<string, unknown>;
    const builtin = choices(await schemaOf([])).map((c) => c.const);
    const extraKeys = Object.keys(generated).filter(
      (key) => key !== "__app-acl__" && !builtin.some((id) => id.startsWith(`${key}:`)),
    );
    expect(
      extraKeys.length,
      "the demo app's manifest has a plugin the built-in catalog lacks",
    ).toBeGreaterThan(0);
    for (const key of extraKeys)
      expect(
        ids.some((id) => id.startsWith(`${key}:`)),
        `${key} from the generated manifest`,
      ).toBe(true);
  });

  it("with --app or -c completes the plugins of the config's manifests, as check knows them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-schema-config-"));
    mkdirSync(path.join(dir, "vendor"));
    mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
    const vendored = {
      "acme-vault": {
        default_permission: null,
        permissions: {
          "allow-unlock": {
            identifier: "allow-unlock",
            description: "Unlocks the vault.",
            commands: { allow: ["unlock"], deny: [] },
          },
        },
        permission_sets: {},
        global_scope_schema: null,
      },
    };
    writeFileSync(path.join(dir, "vendor", "acl-manifests.json"), JSON.stringify(vendored));
    writeFileSync(
      path.join(dir, "caplint.config.json"),
      '{ "manifests": ["vendor/acl-manifests.json"] } // vendored plugins\n',
    );
    writeFileSync(
      path.join(dir, "src-tauri", "tauri.conf.json"),
      JSON.stringify({ identifier: "dev.caplint.vault" }),
    );
    const idsOf = async (args: string[], cwd: string) =>
      choices(await schemaOf(args, cwd)).map((c) => c.const);
    expect(await idsOf(["--app", "."], dir)).toContain("acme-vault:allow-unlock");
    expect(await idsOf(["-c", path.join(dir, "caplint.config.json")], ROOT)).toContain(
      "acme-vault:allow-unlock",
    );
    expect(
      await idsOf([], dir),
      "without --app or -c the folder it runs in adds nothing",
    ).not.toContain("acme-vault:allow-unlock");
  });

  it("accepts both spellings of the brand word, with descriptions, with and without --app", async () => {
    for (const args of [
      [],
      ["--app", "fixtures/spelling/tauri-app"],
      ["--app", "fixtures/spelling/host-app"],
    ]) {
      const schema = await schemaOf(args);
      const byId = new Map(choices(schema).map((c) => [c.const, c]));
      for (const action of ["allow", "deny"]) {
        const host = byId.get(`core:app:${action}-host-version`);
        const tauri = byId.get(`core:app:${action}-tauri-version`);
        expect(host, `${action}-host-version with ${args.join(" ") || "no app"}`).toBeDefined();
        expect(tauri, `${action}-tauri-version with ${args.join(" ") || "no app"}`).toBeDefined();
        expect(host!.description).toMatch(/_version command/);
        expect(tauri!.description).toMatch(/_version command/);
        expect(`${host!.description} ${tauri!.description}`).toContain(
          "Tauri accepts both spellings",
        );
      }
      const validate = validator(schema);
      expect(
        validate(capability("core:app:allow-tauri-version", "core:app:deny-host-version")),
      ).toBe(true);
      expect(
        validate(capability("core:app:allow-tauri-versio")),
        "a typo of either spelling still fails",
      ).toBe(false);
    }
  });

  it("the base schema is unchanged around the identifiers (draft-07, three file forms)", async () => {
    const schema = (await schemaOf([])) as any;
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.anyOf).toHaveLength(3);
    expect(schema.definitions.Capability.required).toEqual(["identifier", "permissions"]);
    const validate = validator(schema);
    expect(validate([capability("core:default")])).toBe(true);
    expect(validate({ capabilities: [capability("core:default")] })).toBe(true);
    expect(validate({ identifier: "x" })).toBe(false);
  });

  it("-o writes the file (the flag every command shares); main() prints what the bin prints", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-schema-"));
    const file = path.join(dir, "capability.schema.json");
    const written = await checkoutBin.run({ argv: ["schema", "-o", file], cwd: ROOT });
    expect(written).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const printed = await inProcess.run({ argv: ["schema"], cwd: ROOT });
    expect(readFileSync(file, "utf8")).toBe(printed.stdout);
  });
});
