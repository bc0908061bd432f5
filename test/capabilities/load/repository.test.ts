import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lint, loadProject, resolveAccess } from "../../../src/index.js";
import { run } from "../../helpers/run.js";

const CAPABILITY = { identifier: "main", windows: ["main"], permissions: ["core:default"] };
const SECRET = "//registry.npmjs.org/:_authToken=npm_SECRET_TOKEN\n";

function temp(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `caplint-${prefix}-`));
}

/** An app whose files include links to a secret outside it, in every place caplint reads from. */
function appWithOutsideLinks(): { dir: string; secret: string; outside: string } {
  const outside = temp("outside");
  const secret = path.join(outside, "npmrc.json");
  writeFileSync(secret, SECRET);
  mkdirSync(path.join(outside, "folder"));
  writeFileSync(
    path.join(outside, "folder", "cap.json"),
    JSON.stringify({ ...CAPABILITY, identifier: "smuggled", permissions: ["fs:allow-read-file"] }),
  );
  const dir = temp("links");
  const src = path.join(dir, "src-tauri");
  mkdirSync(path.join(src, "capabilities", "nested"), { recursive: true });
  mkdirSync(path.join(src, "permissions"), { recursive: true });
  mkdirSync(path.join(src, "gen", "schemas"), { recursive: true });
  writeFileSync(
    path.join(src, "tauri.conf.json"),
    JSON.stringify({ app: { windows: [{ label: "main" }] } }),
  );
  writeFileSync(path.join(src, "capabilities", "main.json"), JSON.stringify(CAPABILITY));
  symlinkSync(secret, path.join(src, "capabilities", "token.json"));
  symlinkSync("/proc/self/environ", path.join(src, "capabilities", "environ.json"));
  symlinkSync(
    path.join(outside, "folder"),
    path.join(src, "capabilities", "nested", "linked-folder"),
  );
  symlinkSync(secret, path.join(src, "permissions", "perm.toml"));
  symlinkSync(secret, path.join(src, "gen", "schemas", "acl-manifests.json"));
  // A link that stays inside the app is followed as before.
  symlinkSync(
    path.join(src, "capabilities", "main.json"),
    path.join(src, "capabilities", "nested", "alias.json"),
  );
  return { dir, secret, outside };
}

describe("symbolic links out of the project are reported, never followed", () => {
  it.each(["compact", "stylish", "json", "sarif"])(
    "%s output never shows the target's content",
    async (format) => {
      const { dir } = appWithOutsideLinks();
      const result = await run(["check", "--format", format], dir);
      expect(result.stdout).not.toContain("SECRET_TOKEN");
      expect(result.stdout).not.toContain("smuggled");
      expect(result.stderr).toBe("");
    },
  );

  it("each link is an ignored-file finding with the reason", async () => {
    const { dir } = appWithOutsideLinks();
    const result = await run(["check", "--format", "compact"], dir);
    for (const link of [
      "capabilities/token.json",
      "capabilities/environ.json",
      "capabilities/nested/linked-folder",
      "permissions/perm.toml",
      "gen/schemas/acl-manifests.json",
    ]) {
      expect(result.stdout).toMatch(
        new RegExp(
          `^src-tauri/${link.replace(/\./g, "\\.")}:1:1: warning symbolic link leading out of the project \\(to [^)]+\\) is not read: caplint follows no link whose target leaves the repository \\(the app.s folder outside a repository, or the folder given\\) \\[ignored-file\\]$`,
          "m",
        ),
      );
    }
    // The in-app alias is a second copy of "main": followed, so the duplicate is found.
    expect(result.stdout).toContain("[duplicate-capability]");
  });

  it("a capability file linked to a file elsewhere in the repository is read, as the host's build reads it; one leaving the repository is not", async () => {
    const repo = temp("repo-links");
    mkdirSync(path.join(repo, ".git"));
    mkdirSync(path.join(repo, "shared"));
    writeFileSync(
      path.join(repo, "shared", "danger.json"),
      JSON.stringify({
        ...CAPABILITY,
        identifier: "danger",
        permissions: ["fs:allow-read-file", "fs:scope-home-recursive"],
      }),
    );
    const src = path.join(repo, "apps", "a", "src-tauri");
    mkdirSync(path.join(src, "capabilities"), { recursive: true });
    writeFileSync(
      path.join(src, "tauri.conf.json"),
      JSON.stringify({ app: { windows: [{ label: "main" }] } }),
    );
    writeFileSync(path.join(src, "capabilities", "main.json"), JSON.stringify(CAPABILITY));
    symlinkSync("../../../../shared/danger.json", path.join(src, "capabilities", "danger.json"));
    const outside = temp("outside-repo");
    writeFileSync(
      path.join(outside, "x.json"),
      JSON.stringify({
        ...CAPABILITY,
        identifier: "smuggled",
        permissions: ["fs:allow-write-file"],
      }),
    );
    symlinkSync(path.join(outside, "x.json"), path.join(src, "capabilities", "smuggled.json"));
    const app = path.join(repo, "apps", "a");
    const access = await run(
      ["access", "--window", "main", "--platform", "linux", "--format", "json"],
      app,
    );
    const data = JSON.parse(access.stdout);
    expect(data.capabilities).toEqual(["danger", "main"]);
    expect(data.allowed.map((a: { command: string }) => a.command)).toContain(
      "plugin:fs|read_file",
    );
    expect(data.allowed.map((a: { command: string }) => a.command)).not.toContain(
      "plugin:fs|write_file",
    );
    const check = await run(["check", "--format", "compact"], app);
    expect(check.stdout).toMatch(
      /^src-tauri\/capabilities\/smuggled\.json:1:1: warning symbolic link leading out of the project/m,
    );
    expect(check.stdout).not.toMatch(/danger\.json:1:1: warning symbolic link/);
  });

  it("a folder given on the command line is its own root, and --fix never writes through a link", async () => {
    const { dir, secret } = appWithOutsideLinks();
    const result = await run(
      ["check", "--format", "compact", "--fix", "src-tauri/capabilities"],
      dir,
    );
    expect(result.stdout).toContain(
      "src-tauri/capabilities/token.json:1:1: warning symbolic link leading out of the project",
    );
    expect(readFileSync(secret, "utf8")).toBe(SECRET);
  });

  it("the queries do not see what a link out of the app grants", async () => {
    const { dir } = appWithOutsideLinks();
    const who = await run(
      ["who-can", "plugin:fs|read_file", "--platform", "linux", "--format", "json"],
      dir,
    );
    expect(JSON.parse(who.stdout).allowedBy).toEqual([]);
  });
});

describe("exactness", () => {
  async function checkText(name: string, content: string | Buffer) {
    const dir = temp("exact");
    writeFileSync(path.join(dir, name), content);
    return run(["check", "--format", "compact", name], dir);
  }

  it("a real U+FFFD is a character, invalid bytes are not", async () => {
    expect(
      await checkText(
        "fffd.json",
        JSON.stringify({ ...CAPABILITY, description: "replacement \ufffd character" }),
      ),
    ).toMatchObject({ code: 0, stdout: "" });
    expect(
      (
        await checkText(
          "fffd.toml",
          `identifier = "main"\ndescription = "\ufffd"\nwindows = ["main"]\npermissions = ["core:default"]\n`,
        )
      ).stdout,
    ).toBe("");
    const invalid = Buffer.concat([
      Buffer.from('{"identifier": "\ufffd m'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    expect((await checkText("bad.json", invalid)).stdout).toBe(
      "bad.json:1:20: error the file is not valid UTF-8 (first bad byte here) [parse]\n",
    );
    const truncated = Buffer.concat([Buffer.from('{"identifier": "'), Buffer.from([0xe2, 0x82])]);
    expect((await checkText("cut.json", truncated)).stdout).toMatch(
      /^cut\.json:1:17: error the file is not valid UTF-8/,
    );
  });

  it("a lone surrogate escape is a parse error; pairs and escaped backslashes are not", async () => {
    for (const escape of ["\\ud800", "\\uDBFF", "\\udc00", "\\ud800\\u0041", "x\\udfff"]) {
      const result = await checkText(
        "lone.json",
        `{"identifier": "main", "description": "${escape}", "windows": ["main"], "permissions": ["core:default"]}`,
      );
      expect(result.stdout, escape).toMatch(
        /^lone\.json:1:\d+: error invalid JSON: a lone surrogate escape is not a character \(the app's build rejects it\) \[parse\]\n$/,
      );
    }
    for (const fine of ["\\ud83d\\ude00", "\\\\ud800", "\\\\\\\\ud800", "\\u0041"]) {
      const result = await checkText(
        "fine.json",
        `{"identifier": "main", "description": "${fine}", "windows": ["main"], "permissions": ["core:default"]}`,
      );
      expect(result, fine).toMatchObject({ code: 0, stdout: "" });
    }
  });
});

describe("messages never come from the prototype chain", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])(
    "%s as a value everywhere",
    async (word) => {
      const dir = temp("proto");
      writeFileSync(
        path.join(dir, "proto.json"),
        JSON.stringify({
          identifier: word,
          windows: [word],
          webviews: [word],
          platforms: [word],
          local: true,
          permissions: [
            word,
            `core:${word}`,
            `${word}:default`,
            `fs:${word}`,
            { identifier: word, allow: [{ [word]: word }] },
          ],
        }),
      );
      for (const argv of [
        ["check", "--format", "compact", "proto.json"],
        ["who-can", word, "proto.json"],
        ["access", "--window", word, "proto.json"],
        ["permissions", "--filter", word],
      ]) {
        const result = await run(argv, dir);
        const output = result.stdout + result.stderr;
        expect(output, argv.join(" ")).not.toMatch(
          /function |\[native code\]|\[object Object\]|undefined|internal error/,
        );
      }
    },
  );
});

describe("the library validates its options, naming the option", () => {
  const dir = temp("options");
  mkdirSync(path.join(dir, "caps"));
  writeFileSync(path.join(dir, "caps", "main.json"), JSON.stringify(CAPABILITY));

  it.each([
    [
      { cwd: dir, paths: "caps" },
      /^paths: expected an array of strings, got "caps" \(write \["caps"\]\)$/,
    ],
    [{ cwd: dir, paths: ["caps", 3] }, /^paths\[1\]: expected a string, got 3$/],
    [
      { cwd: dir, paths: ["caps"], maxFileBytes: Number.NaN },
      /^maxFileBytes: expected a whole number of bytes \(0 or more\), got NaN$/,
    ],
    [{ cwd: dir, paths: ["caps"], maxFileBytes: -1 }, /^maxFileBytes: /],
    [
      { cwd: "relative", paths: ["caps"] },
      /^cwd: expected an absolute folder path, got "relative"$/,
    ],
    [{ cwd: dir, manifests: "m.json" }, /^manifests: expected an array of strings/],
    [{ cwd: dir, app: 1 }, /^app: expected a string, got 1$/],
  ])("loadProject(%o)", async (options, message) => {
    await expect(loadProject(options as never)).rejects.toThrow(message);
  });

  it("platforms: other casings are normalised, unknown names refused", async () => {
    const project = await loadProject({ cwd: dir, paths: ["caps"] });
    expect((await lint(project, { platforms: ["Linux", "MACOS"] })).diagnostics).toEqual([]);
    await expect(lint(project, { platforms: ["beos"] })).rejects.toThrow(
      /^platforms\[0\]: expected one of "linux", "macOS", "windows", "android", "iOS", got "beos"$/,
    );
    await expect(lint(project, { platforms: "linux" as never })).rejects.toThrow(
      /^platforms: expected an array of strings/,
    );
    expect(
      resolveAccess(project, { window: "main", platform: "Linux" }).allowed.length,
    ).toBeGreaterThan(0);
    expect(() => resolveAccess(project, { window: "main", platform: "constructor" })).toThrow(
      /^platform: expected one of/,
    );
    expect(() => resolveAccess(project, { window: 7 as never })).toThrow(
      /^window: expected a window label, got 7$/,
    );
  });
});

describe("malformed manifests and permission files are findings at their place", () => {
  const capability = JSON.stringify({
    identifier: "main",
    windows: ["main"],
    permissions: ["p:a", "p:default", "q:x"],
  });

  it("acl-manifests.json: missing deny, wrong types, null entries", async () => {
    const dir = temp("manifest");
    writeFileSync(path.join(dir, "cap.json"), capability);
    const manifest = {
      p: {
        default_permission: { identifier: "default", permissions: "a" },
        permissions: {
          a: { identifier: "a", commands: { allow: ["x"] } },
          b: { commands: 7 },
          c: null,
        },
        permission_sets: { s: { permissions: [1] } },
      },
      q: {
        permissions: {
          x: {
            identifier: "x",
            commands: { allow: "y", deny: null },
            scope: 5,
            platforms: "linux",
          },
        },
      },
      r: "not a manifest",
    };
    writeFileSync(path.join(dir, "m.json"), JSON.stringify(manifest, null, 2));
    const result = await run(
      ["check", "--format", "compact", "--manifest", "m.json", "cap.json"],
      dir,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("m.json:")).length).toBeGreaterThanOrEqual(10);
    expect(result.stdout).toMatch(
      /^m\.json:10:21: error "commands\.deny" of permission "p:a" must be a list of strings, found nothing \(the app's build rejects this manifest\) \[parse\]$/m,
    );
    expect(result.stdout).toMatch(
      /^m\.json:\d+:\d+: error manifest "r" must be an object, found a string/m,
    );
    // The well-formed part is still used: p:a resolves.
    expect(result.stdout).not.toMatch(/unknown (permission|plugin) "p:a"/);
    for (const argv of [
      ["who-can", "plugin:p|x"],
      ["access", "--window", "main"],
      ["permissions", "p"],
    ]) {
      const query = await run(
        [...argv, "--manifest", "m.json", ...(argv[0] === "permissions" ? [] : ["cap.json"])],
        dir,
      );
      expect(query.stderr, argv.join(" ")).not.toContain("internal error");
    }
  });

  it("permission files: wrong types in [[permission]], [default] and [[set]]", async () => {
    const dir = temp("permission-files");
    writeFileSync(
      path.join(dir, "cap.json"),
      JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["a"] }),
    );
    mkdirSync(path.join(dir, "perms"));
    writeFileSync(
      path.join(dir, "perms", "p.toml"),
      '[[permission]]\nidentifier = "a"\ncommands.allow = "x"\n\n[default]\npermissions = 5\n\n[[set]]\nidentifier = 7\n',
    );
    writeFileSync(
      path.join(dir, "perms", "q.json"),
      JSON.stringify({ permission: { identifier: "b" }, set: [null] }),
    );
    const result = await run(
      ["check", "--format", "compact", "--permissions", "perms", "cap.json"],
      dir,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      'perms/p.toml:1:3: error "commands.allow" of permission "a" must be a list of strings, found a string (the app\'s build rejects this permission file) [parse]',
    );
    expect(result.stdout).toMatch(
      /^perms\/p\.toml:6:\d+: error "permissions" of \[default\] must be a list of strings, found a number/m,
    );
    expect(result.stdout).toMatch(
      /^perms\/p\.toml:9:\d+: error a \[\[set\]\] needs a string "identifier", found a number/m,
    );
    expect(result.stdout).toMatch(
      /^perms\/q\.json:1:\d+: error \[\[permission\]\] must be a list of tables, found an object/m,
    );
    expect(result.stdout).toMatch(
      /^perms\/q\.json:1:\d+: error a \[\[set\]\] must be an object, found null/m,
    );
  });
});
