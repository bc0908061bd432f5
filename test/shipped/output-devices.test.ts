import { spawnSync, execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { binForAnyUser } from "../helpers/bin-for-any-user.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";
import { describeWithTool, IN_CI } from "../helpers/tools.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const SOURCE = path.join(
  FIXTURES,
  "capabilities",
  "duplicate-permission",
  "invalid",
  "repeats.json",
);
/** A file with error-level findings, for the exit code 1 (repeated permissions are warnings). */
const WITH_ERRORS = path.join(
  FIXTURES,
  "capabilities",
  "unknown-permission",
  "invalid",
  "typos.json",
);
const isRoot = process.getuid?.() === 0;

function fixture(
  name = "repeats.json",
  source = SOURCE,
): { dir: string; file: string; original: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-out-"));
  const file = path.join(dir, name);
  copyFileSync(source, file);
  return { dir, file, original: readFileSync(source, "utf8") };
}

/** The built bin through a shell, so that pipes and redirections are real. */
function shell(
  script: string,
  cwd: string,
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync("bash", ["-o", "pipefail", "-c", script], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CAPLINT: `${process.execPath} ${BIN}` },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("--output onto devices, FIFOs, standard output and inputs", { timeout: 60_000 }, () => {
  it("/dev/null stays a character device", async () => {
    const { dir } = fixture("repeats.json", WITH_ERRORS);
    const result = await run(["check", "-f", "json", "-o", "/dev/null", "repeats.json"], dir);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: "" });
    expect(lstatSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("/dev/stdout into a pipe, into a file, and `-`", () => {
    const { dir } = fixture("repeats.json", WITH_ERRORS);
    const piped = shell(`$CAPLINT check -f compact -o /dev/stdout repeats.json | cat`, dir);
    expect(piped.stdout).toMatch(/^repeats\.json:\d+:\d+: (error|warning) /);
    expect(piped.status).toBe(1);
    const redirected = shell(
      `$CAPLINT check -f compact -o /dev/stdout repeats.json > out.txt; echo "exit $?"`,
      dir,
    );
    expect(redirected.stdout).toBe("exit 1\n");
    expect(readFileSync(path.join(dir, "out.txt"), "utf8")).toMatch(
      /^repeats\.json:\d+:\d+: (error|warning) /,
    );
    const dash = shell(`$CAPLINT check -f compact -o - repeats.json | cat`, dir);
    expect(dash.stdout).toBe(piped.stdout);
  });

  it("a FIFO is written, not replaced", () => {
    const { dir } = fixture("repeats.json", WITH_ERRORS);
    execFileSync("mkfifo", [path.join(dir, "report.fifo")]);
    const result = shell(
      `cat report.fifo > received.txt & $CAPLINT check -f compact -o report.fifo repeats.json; code=$?; wait; echo "exit $code"`,
      dir,
    );
    expect(result.stdout).toBe("exit 1\n");
    expect(lstatSync(path.join(dir, "report.fifo")).isFIFO()).toBe(true);
    expect(readFileSync(path.join(dir, "received.txt"), "utf8")).toMatch(
      /^repeats\.json:\d+:\d+: (error|warning) /,
    );
  });

  it("refuses to replace an input with the report, by any name (exit 2)", async () => {
    const { dir, file, original } = fixture();
    linkSync(file, path.join(dir, "hardlink.json"));
    symlinkSync("repeats.json", path.join(dir, "alias.json"));
    for (const target of ["repeats.json", "./repeats.json", file, "hardlink.json", "alias.json"]) {
      const result = await run(["check", "-f", "json", "-o", target, "repeats.json"], dir);
      expect(result.code, target).toBe(2);
      expect(result.stderr).toMatch(
        /cannot write the report: (is one of the files being checked|is a symbolic link)/,
      );
    }
    const appInput = await run(["report", "--html", "repeats.json", "repeats.json"], dir);
    expect(appInput.code).toBe(2);
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("never writes through a symbolic link, and refuses a block device", async () => {
    const { dir } = fixture();
    const outside = mkdtempSync(path.join(tmpdir(), "caplint-outside-"));
    writeFileSync(path.join(outside, "authorized_keys"), "ssh-ed25519 AAAA\n");
    symlinkSync(path.join(outside, "authorized_keys"), path.join(dir, "report.sarif"));
    const result = await run(["check", "-f", "sarif", "-o", "report.sarif", "repeats.json"], dir);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "caplint: --output report.sarif: cannot write the report: is a symbolic link; not written through it (give the path of its target)\n",
    });
    expect(readFileSync(path.join(outside, "authorized_keys"), "utf8")).toBe("ssh-ed25519 AAAA\n");
    const block = readdirSync("/dev")
      .map((name) => path.join("/dev", name))
      .find((device) => {
        try {
          return lstatSync(device).isBlockDevice();
        } catch {
          return false;
        }
      });
    if (block)
      expect(
        (await run(["check", "-f", "json", "-o", block, "repeats.json"], dir)).stderr,
      ).toContain("is a block device; refusing to write a report onto it");
  });
});

describe(
  "--output never replaces a file the run reads, nor writes out of the repository",
  { timeout: 120_000 },
  () => {
    function app(): string {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-out-app-"));
      cpSync(path.join(FIXTURES, "cli", "app-build"), dir, { recursive: true });
      mkdirSync(path.join(dir, ".git"));
      return dir;
    }
    const READ_BY_CHECK = [
      "src-tauri/Cargo.lock",
      "src-tauri/Cargo.toml",
      "src-tauri/build.rs",
      "src-tauri/tauri.conf.json",
      "src-tauri/capabilities/default.json",
      "src-tauri/permissions/database/extra.toml",
      "plugins/tauri-plugin-local/Cargo.toml",
      "plugins/tauri-plugin-local/build.rs",
      "plugins/tauri-plugin-local/permissions/default.toml",
    ];

    it("refuses every Cargo, build, config, capability and permission file `check` reads (exit 2, untouched)", () => {
      const dir = app();
      for (const target of READ_BY_CHECK) {
        const before = readFileSync(path.join(dir, target), "utf8");
        const result = shell(`$CAPLINT check -f json -o ${target}`, dir);
        expect(result.status, target).toBe(2);
        expect(result.stderr, target).toMatch(
          /^caplint: --output .*: cannot write the report: is one of the files being checked; refusing to replace it with the report\n$/,
        );
        expect(readFileSync(path.join(dir, target), "utf8"), target).toBe(before);
      }
      expect(
        readdirSync(path.join(dir, "src-tauri")).filter((name) => name.includes(".caplint-")),
      ).toEqual([]);
    });

    it("refuses an app's files under commands that do not read them (`schema -o tauri.conf.json`)", () => {
      const dir = app();
      for (const target of ["tauri.conf.json", "Cargo.toml", "Cargo.lock", "build.rs"]) {
        const before = readFileSync(path.join(dir, "src-tauri", target), "utf8");
        const result = shell(`$CAPLINT schema -o ${target}`, path.join(dir, "src-tauri"));
        expect(result.status, target).toBe(2);
        expect(result.stderr, target).toMatch(
          /cannot write the report: is (one of the files being checked|an app file caplint reads)/,
        );
        expect(readFileSync(path.join(dir, "src-tauri", target), "utf8"), target).toBe(before);
      }
      expect(shell(`$CAPLINT schema -o capability.schema.json`, dir).status).toBe(0);
      expect(readFileSync(path.join(dir, "capability.schema.json"), "utf8")).toMatch(/^\{/);
    });

    it("refuses a committed folder link that leaves the repository, and writes through one that stays inside", () => {
      const dir = app();
      const outside = mkdtempSync(path.join(tmpdir(), "caplint-out-outside-"));
      symlinkSync(outside, path.join(dir, "reports"));
      const refused = shell(`$CAPLINT check -f json -o reports/report.json`, dir);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(
        /^caplint: --output reports\/report\.json: cannot write the report: is reached through a symbolic link out of the repository \(to .*\); not written through it\n$/,
      );
      expect(readdirSync(outside)).toEqual([]);
      // A missing folder below that link is not made out there either.
      const deeper = shell(`$CAPLINT check -f json -o reports/ci/new/report.json`, dir);
      expect(deeper.status).toBe(2);
      expect(deeper.stderr).toMatch(/is reached through a symbolic link out of the repository/);
      expect(readdirSync(outside)).toEqual([]);
      mkdirSync(path.join(dir, "build-output"));
      symlinkSync("build-output", path.join(dir, "out"));
      const inside = shell(`$CAPLINT check -f json -o out/report.json`, dir);
      expect(inside.stderr).toBe("");
      expect(
        JSON.parse(readFileSync(path.join(dir, "build-output", "report.json"), "utf8")),
      ).toBeTruthy();
    });
  },
);

describe("closed pipes end quietly with the run's exit code", { timeout: 60_000 }, () => {
  it.each([
    ["permissions", 0],
    ["permissions --format json", 0],
    ["check -f compact --max-warnings 0 many.json", 1],
    ["check --max-warnings 0 many.json", 1],
  ] as const)("caplint %s | head -c 20", (command, code) => {
    const { dir } = fixture();
    // Far more than a pipe buffer, so the writes go on after head has gone.
    writeFileSync(
      path.join(dir, "many.json"),
      JSON.stringify({
        identifier: "m",
        windows: ["main"],
        permissions: Array.from({ length: 5000 }, (_, i) => `nope:p${i}`),
      }),
    );
    const result = shell(
      `$CAPLINT ${command} | head -c 20; status=\${PIPESTATUS[0]}; echo; echo "exit $status"`,
      dir,
    );
    expect(result.stderr).not.toMatch(/EPIPE|internal error|\n\s+at /);
    expect(result.stdout).toMatch(new RegExp(`^.{20}\\nexit ${code}\\n$`, "s"));
  });
});

describe("a full disk under standard output (/dev/full) is one line and exit 2", () => {
  it.each([
    ["--version"],
    ["check repeats.json"],
    ["check -f json repeats.json"],
    ["permissions"],
  ] as const)("caplint %s > /dev/full", (command) => {
    const { dir } = fixture();
    const result = shell(`$CAPLINT ${command} > /dev/full`, dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^caplint: cannot write the output: .*ENOSPC.*\n$/);
  });
});

describe("standard output on a pipe a Node parent made non-blocking", { timeout: 60_000 }, () => {
  // The bin writes standard output with fs.writeSync; on a pipe a Node parent made non-blocking, with
  // a slow reader, a write fails (EAGAIN) or is taken in part: the rest must reach the reader through
  // Node's stream, whole and in order, with the exit code.
  it.each([
    ["permissions --format json", 0],
    ["check -f json --max-warnings 0 many.json", 1],
    ["check --max-warnings 0 many.json", 1],
  ] as const)("caplint %s, read late", (command, code) => {
    const { dir } = fixture();
    writeFileSync(
      path.join(dir, "many.json"),
      JSON.stringify({
        identifier: "m",
        windows: ["main"],
        permissions: Array.from({ length: 3000 }, (_, i) => `nope:p${i}`),
      }),
    );
    const parent = path.join(dir, "parent.mjs");
    writeFileSync(
      parent,
      `import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
const child = spawn(process.execPath, [${JSON.stringify(BIN)}, ...process.argv.slice(2)], { stdio: ["ignore", "inherit", "inherit"] });
child.on("exit", (code) => {
  process.stderr.write("exit " + code + "\\n");
  writeFileSync("exited", "");
});
// Node gives a child its standard streams blocking, then a parent that prints while the child runs
// (npm-run-all, turbo, any Node tool) makes the shared pipe non-blocking when it first reads its own.
process.stdout;
if (existsSync("/proc/self/fdinfo/1")) {
  const flags = Number.parseInt(/flags:\\s*(\\d+)/.exec(readFileSync("/proc/self/fdinfo/1", "utf8"))[1], 8);
  process.stderr.write((flags & 0o4000) !== 0 ? "non-blocking\\n" : "blocking\\n");
}
`,
    );
    const reference = shell(`$CAPLINT ${command} > reference.txt; echo "exit $?"`, dir);
    const expected = readFileSync(path.join(dir, "reference.txt"), "utf8");
    // More than a pipe holds (64 KB), so the writer meets a full pipe while the reader sleeps.
    expect(expected.length).toBeGreaterThan(200_000);
    const result = shell(
      // The reader starts once the child exited, or after 5 s (see the next test).
      `${JSON.stringify(process.execPath)} parent.mjs ${command} | { for i in $(seq 50); do [ -e exited ] && break; sleep 0.1; done; cat > late.txt; }`,
      dir,
    );
    expect(reference.stdout).toBe(`exit ${code}\n`);
    if (existsSync("/proc/self/fdinfo/1")) expect(result.stderr).toMatch(/^non-blocking\n/);
    expect(result.stderr).toMatch(new RegExp(`exit ${code}\n$`));
    expect(result.stderr).not.toMatch(/EAGAIN|internal error|\n\s+at /);
    expect(readFileSync(path.join(dir, "late.txt"), "utf8")).toBe(expected);
  });

  it.each([["--help"], ["--version"]])(
    "caplint %s (answered without the bundle) into a full non-blocking pipe",
    (option) => {
      const { dir } = fixture();
      const expected = shell(`$CAPLINT ${option} > reference.txt`, dir);
      expect(expected.status).toBe(0);
      const reference = readFileSync(path.join(dir, "reference.txt"), "utf8");
      // The parent fills the pipe before the child writes, so the child's first write is refused.
      writeFileSync(
        path.join(dir, "parent.mjs"),
        `import { spawn } from "node:child_process";
import { writeFileSync, writeSync } from "node:fs";
// The child starts half a second late (a shell that sleeps), once the pipe is full.
const child = spawn("sh", ["-c", 'sleep 0.5; exec "$0" "$@"', process.execPath, ${JSON.stringify(BIN)}, ${JSON.stringify(option)}], { stdio: ["ignore", "inherit", "inherit"] });
child.on("exit", (code) => {
  process.stderr.write("exit " + code + "\\n");
  writeFileSync("exited", "");
});
process.stdout;
let filled = 0;
// A write of up to 4 KB is taken whole or not at all: single bytes fill the last page's room too.
for (const size of [4096, 1]) {
  try { for (;;) filled += writeSync(1, "x".repeat(size)); } catch (error) { if (error.code !== "EAGAIN") throw error; }
}
process.stderr.write("filled " + filled + "\\n");
`,
      );
      const result = shell(
        // The reader starts once the child exited, or after 5 s: a child that writes in time always
        // meets the full pipe (one that waits for the reader exits only after it read).
        `${JSON.stringify(process.execPath)} parent.mjs | { for i in $(seq 50); do [ -e exited ] && break; sleep 0.1; done; cat > late.txt; }`,
        dir,
      );
      expect(result.stderr).toMatch(/^filled \d+\nexit 0\n$/);
      const filled = Number(/filled (\d+)/.exec(result.stderr)![1]);
      const late = readFileSync(path.join(dir, "late.txt"), "utf8");
      expect(late.length).toBe(filled + reference.length);
      expect(late.replace(/^x+/, "")).toBe(reference);
    },
  );
});

describe("--fix keeps the file's identity", { timeout: 60_000 }, () => {
  it("owner and group (as root)", async ({ skip }) => {
    skip(!isRoot, "only root can give a file another owner");
    const { dir, file, original } = fixture();
    chownSync(file, 65534, 65534);
    expect((await run(["check", "--fix", "repeats.json"], dir)).code).toBe(0);
    expect(readFileSync(file, "utf8")).not.toBe(original);
    expect(statSync(file)).toMatchObject({ uid: 65534, gid: 65534 });
  });

  it("hard links: every name sees the fix, the inode stays", async () => {
    const { dir, file, original } = fixture();
    const other = path.join(dir, "elsewhere.json.bak");
    linkSync(file, other);
    const inode = statSync(file).ino;
    expect((await run(["check", "--fix", "repeats.json"], dir)).code).toBe(0);
    expect(statSync(file).ino).toBe(inode);
    expect(statSync(file).nlink).toBe(2);
    expect(readFileSync(other, "utf8")).toBe(readFileSync(file, "utf8"));
    expect(readFileSync(file, "utf8")).not.toBe(original);
    expect(readdirSync(dir).sort()).toEqual(["elsewhere.json.bak", "repeats.json"]);
  });

  it("a read-only file is refused, even as root", async () => {
    const { dir, file, original } = fixture();
    chmodSync(file, 0o444);
    const result = await run(["check", "--fix", "repeats.json"], dir);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "caplint: repeats.json: cannot write the fixed file, original left untouched: is read-only; not written (make it writable first)\n",
    });
    expect(readFileSync(file, "utf8")).toBe(original);
    expect(statSync(file).mode & 0o777).toBe(0o444);
  });

  it("a symbolic link is never written through", async () => {
    const { dir, file, original } = fixture();
    const outside = mkdtempSync(path.join(tmpdir(), "caplint-outside-"));
    copyFileSync(file, path.join(outside, "target.json"));
    symlinkSync(path.join(outside, "target.json"), path.join(dir, "link.json"));
    const result = await run(["check", "--fix", "link.json"], dir);
    expect(result.code).not.toBe(0);
    expect(readFileSync(path.join(outside, "target.json"), "utf8")).toBe(original);
    expect(lstatSync(path.join(dir, "link.json")).isSymbolicLink()).toBe(true);
  });

  it.each([200, 250, 255])("a name of %i bytes", async (length) => {
    const name = `${"n".repeat(length - ".json".length)}.json`;
    const { dir, file, original } = fixture(name);
    expect((await run(["check", "--fix", name], dir)).code).toBe(0);
    expect(readFileSync(file, "utf8")).not.toBe(original);
    expect(readdirSync(dir)).toEqual([name]);
  });
});

const HAS_ATTR_TOOLS =
  spawnSync("getfattr", ["--version"]).status === 0 &&
  spawnSync("setfattr", ["--version"]).status === 0;

/** `getfattr -d -m -`: every attribute the file has, as the attr package prints them. */
function attributesOf(file: string): string {
  return execFileSync("getfattr", ["--absolute-names", "-d", "-m", "-", file], {
    encoding: "utf8",
  }).replace(/^# file: .*\n/, "");
}

/** Whether the file system under the temporary folder takes user attributes (tmpfs before Linux 6.6 does not). */
function userAttributesRefusedHere(): string | undefined {
  const { file } = fixture();
  const result = spawnSync("setfattr", ["-n", "user.probe", "-v", "1", file], { encoding: "utf8" });
  return result.status === 0
    ? undefined
    : `the file system of ${tmpdir()} refuses user attributes (${result.stderr.trim()}); set TMPDIR to one that takes them`;
}

describeWithTool(
  "setfattr/getfattr",
  HAS_ATTR_TOOLS,
  "run scripts/ensure-tools.sh (apt-get install attr)",
  "--fix keeps extended attributes",
  () => {
    it("user attributes survive the atomic replace", async ({ skip }) => {
      const refused = userAttributesRefusedHere();
      if (refused && IN_CI) throw new Error(refused);
      skip(refused !== undefined, refused);
      expect(
        existsSync(path.join(ROOT, "node_modules", "@napi-rs", "xattr")),
        "@napi-rs/xattr is not installed: run npm ci",
      ).toBe(true);
      const { dir, file, original } = fixture();
      execFileSync("setfattr", ["-n", "user.review", "-v", "approved by security", file]);
      execFileSync("setfattr", ["-n", "user.binary", "-v", "0x00ff10", file]);
      const before = attributesOf(file);
      expect(before).toContain('user.review="approved by security"');
      const inode = statSync(file).ino;
      expect((await run(["check", "--fix", "repeats.json"], dir)).code).toBe(0);
      expect(readFileSync(file, "utf8")).not.toBe(original);
      expect(attributesOf(file)).toBe(before);
      // Still a rename: the attributes were carried to the new file, not kept by writing in place.
      expect(statSync(file).ino).not.toBe(inode);
      expect(readdirSync(dir)).toEqual(["repeats.json"]);
    });

    it("an attribute the user may not set on a new file (security.*, as nobody) is kept by writing in place", async ({
      skip,
    }) => {
      skip(
        !isRoot || !HAS_SETPRIV,
        "needs root (to set a security.* attribute) and util-linux's setpriv (to run as nobody)",
      );
      const { dir, file, original } = fixture();
      chownSync(dir, 65534, 65534);
      chownSync(file, 65534, 65534);
      execFileSync("setfattr", ["-n", "security.caplint-test", "-v", "kept", file]);
      const inode = statSync(file).ino;
      const result = spawnSync(
        "setpriv",
        [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          process.execPath,
          binWithAttributes(),
          "check",
          "--fix",
          "repeats.json",
        ],
        {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1" },
        },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(readFileSync(file, "utf8")).not.toBe(original);
      expect(attributesOf(file)).toContain('security.caplint-test="kept"');
      expect(statSync(file)).toMatchObject({ ino: inode, uid: 65534 });
      expect(readdirSync(dir)).toEqual(["repeats.json"]);
    });
  },
);

const HAS_SETPRIV = spawnSync("setpriv", ["--version"]).status === 0;

/** The bin copy every user can read, with the native attribute module it loads from node_modules. */
function binWithAttributes(): string {
  const bin = binForAnyUser();
  const modules = path.join(path.dirname(path.dirname(bin)), "node_modules", "@napi-rs");
  cpSync(path.join(ROOT, "node_modules", "@napi-rs"), modules, { recursive: true });
  for (let dir = modules; dir.endsWith("node_modules") || dir === modules; dir = path.dirname(dir))
    chmodSync(dir, 0o755);
  return bin;
}
