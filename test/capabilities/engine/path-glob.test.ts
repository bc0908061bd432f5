/**
 * The file-system scope glob, against the Rust `glob` crate's `matches_path_with` with the host's
 * options (`require_literal_separator: true`, `require_literal_leading_dot` per platform), and the
 * folder variables read back from a path.
 */
import { describe, expect, it } from "vitest";
import {
  escapePathGlob,
  pathGlobMatches,
} from "../../../src/capabilities/engine/match/path-glob.js";
import {
  expandScopePath,
  homeOfPath,
  pathWithVariable,
} from "../../../src/capabilities/queries/fs-variables.js";

const unix = { literalLeadingDot: true };
const windows = { literalLeadingDot: false, windows: true };

describe("pathGlobMatches", () => {
  it.each([
    ["/home/a/**", "/home/a/notes/x.md", unix, true],
    ["/home/a/**", "/home/a/.ssh/id_rsa", unix, false],
    ["/home/a/**", "/home/a/.ssh/id_rsa", { literalLeadingDot: false }, true],
    ["/home/a/*", "/home/a/x.md", unix, true],
    ["/home/a/*", "/home/a/notes/x.md", unix, false],
    ["/home/a/*", "/home/a/.bashrc", unix, false],
    ["/home/a/.bashrc", "/home/a/.bashrc", unix, true],
    ["/home/a/.*", "/home/a/.bashrc", unix, true],
    ["/home/a/?bashrc", "/home/a/.bashrc", unix, false],
    ["/home/a/[.]bashrc", "/home/a/.bashrc", unix, false],
    ["/home/a/**/*.md", "/home/a/x.md", unix, true],
    ["/home/a/**/*.md", "/home/a/b/c/x.md", unix, true],
    ["/home/a/**/*.md", "/home/a/.b/x.md", unix, false],
    ["/home/a/x[0-9].md", "/home/a/x7.md", unix, true],
    ["/home/a/x[!0-9].md", "/home/a/x7.md", unix, false],
    ["/home/a/a**", "/home/a/ab", unix, false],
    ["C:/Users/a/**", "C:/Users/a/.ssh/id_rsa", windows, true],
    ["C:\\Users\\a\\*", "C:/Users/a/x", windows, true],
  ] as const)("%s against %s", (pattern, path, options, expected) => {
    expect(pathGlobMatches(pattern, path, options)).toBe(expected);
  });

  it("without literal separators a * crosses folders (how the pattern reads to most people)", () => {
    expect(
      pathGlobMatches("/home/a/*", "/home/a/notes/x.md", {
        literalLeadingDot: true,
        literalSeparator: false,
      }),
    ).toBe(true);
  });

  it("escapes the crate's metacharacters so a literal name matches only itself", () => {
    const literal = escapePathGlob("/home/a/[draft]*?.md");
    expect(literal).toBe("/home/a/[[]draft[]][*][?].md");
    expect(pathGlobMatches(literal, "/home/a/[draft]*?.md", unix)).toBe(true);
    expect(pathGlobMatches(literal, "/home/a/d.md", unix)).toBe(false);
  });

  it("gives no match for inputs over the length limit", () => {
    expect(pathGlobMatches("/**", `/${"a".repeat(5000)}`, unix)).toBe(false);
  });
});

describe("folder variables", () => {
  it("reads the platform and home from a path's shape", () => {
    expect(homeOfPath("/home/alice/x")).toEqual({ platform: "linux", home: "/home/alice" });
    expect(homeOfPath("/Users/bob/Library/x")).toEqual({ platform: "macOS", home: "/Users/bob" });
    expect(homeOfPath("C:\\Users\\carol\\x")).toEqual({
      platform: "windows",
      home: "C:/Users/carol",
    });
    expect(homeOfPath("/opt/app/x")).toBeUndefined();
  });

  it("writes a path with the most specific variable that holds it", () => {
    expect(pathWithVariable("/home/alice/.local/share/com.x/notes/a.md", "com.x")).toBe(
      "$APPDATA/notes/a.md",
    );
    expect(pathWithVariable("/home/alice/.local/share/com.x/logs/a.log", "com.x")).toBe(
      "$APPLOG/a.log",
    );
    expect(pathWithVariable("/Users/bob/Library/Application Support/com.x/db", "com.x")).toBe(
      "$APPDATA/db",
    );
    expect(pathWithVariable("C:\\Users\\carol\\AppData\\Local\\com.x\\cache.bin", "com.x")).toBe(
      "$APPLOCALDATA/cache.bin",
    );
    expect(pathWithVariable("/home/alice/Documents/a.txt", undefined)).toBe("$DOCUMENT/a.txt");
    expect(pathWithVariable("/home/alice/.bashrc", "com.x")).toBe("$HOME/.bashrc");
    expect(pathWithVariable("/opt/app/x", "com.x")).toBe("/opt/app/x");
  });

  it("expands a scope entry's variable for a platform and home", () => {
    const where = { platform: "macOS" as const, home: "/Users/bob" };
    expect(expandScopePath("$APPCACHE/**", where, "com.x")).toBe(
      "/Users/bob/Library/Caches/com.x/**",
    );
    expect(expandScopePath("~/x", where, undefined)).toBe("/Users/bob/x");
    expect(expandScopePath("$APPDATA/x", where, undefined)).toBeUndefined();
    expect(expandScopePath("$RESOURCE/x", where, "com.x")).toBeUndefined();
  });
});
