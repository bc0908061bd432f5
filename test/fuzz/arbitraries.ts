/** Generators shared by the fuzz properties. */
import fc from "fast-check";
import { RULES } from "../../src/registry.js";
import { fromPlain, type J } from "./support.js";

export const RULE_IDS = RULES.map((rule) => rule.id);

/** Identifiers caplint knows (core, plugins, legacy v1 names) and near misses of them. */
export const KNOWN_PERMISSIONS = [
  "core:default",
  "core:app:default",
  "core:app:allow-version",
  "core:window:default",
  "core:window:allow-close",
  "core:window:deny-close",
  "core:window:allow-set-title",
  "core:event:allow-emit",
  "core:webview:allow-print",
  "fs:default",
  "fs:allow-read-file",
  "fs:allow-write-file",
  "fs:read-all",
  "fs:scope",
  "fs:allow-app-read-recursive",
  "shell:allow-open",
  "shell:allow-execute",
  "http:default",
  "opener:default",
  "dialog:default",
  "dialog:allow-open",
  "os:default",
  "clipboard-manager:allow-read-text",
  "window:allow-close",
  "app:default",
  "event:default",
  "path:default",
  "allow-echo",
  "default",
];

export const PLATFORM_VALUES = [
  "linux",
  "macOS",
  "windows",
  "android",
  "iOS",
  "MacOS",
  "macos",
  " linux",
  "Windows ",
  "IOS",
  "ios",
  "darwin",
  "win32",
  "web",
  "",
  " ",
];

/** Strings that have broken parsers and position finders before. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\t\r\n",
  "\\",
  '"',
  "'",
  "\u2028\u2029",
  "\uFEFF",
  "\uD800",
  "\uDC00x",
  "🙂",
  "e\u0301",
  "日本語",
  "x".repeat(300),
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "${jndi}",
  "%s%n",
  "a = 1",
  "[table]",
  "#comment",
  "main*",
  "*",
  "**",
  "[",
  "https://*",
  "core:",
  ":",
  "host-plugin-fs:default",
];

/** Keys that are plain data in a capability file but special to JavaScript objects. */
export const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "__defineGetter__",
  "valueOf",
  "hasOwnProperty",
  "toString",
];

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Any JSON value, with full unicode (lone surrogates included) and occasional odd number spellings. */
export const anyJson: fc.Arbitrary<J> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 5, stringUnit: "binary" }).map(fromPlain) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<J>(
      { num: "1e400" },
      { num: "-0.0" },
      { num: "123456789012345678901234567890" },
      { num: "1E-400" },
      { num: "0.1e1" },
    ),
  },
);

const smallWrong = fc.oneof(
  fc.constantFrom<J>(
    null,
    0,
    -1,
    1.5,
    true,
    false,
    "",
    "x",
    [],
    { obj: [] },
    ["main"],
    { obj: [["urls", "x"]] },
    [null],
    [[]],
  ),
  fc.jsonValue({ maxDepth: 2 }).map(fromPlain),
);

/** A value of the expected shape most of the time, a wrong type sometimes. */
function mostly(arbitrary: fc.Arbitrary<J>): fc.Arbitrary<J> {
  return fc.oneof({ weight: 5, arbitrary }, { weight: 1, arbitrary: smallWrong });
}

/** A rename of a permission identifier in one of the ways people (and the fixes) get them wrong. */
export const RENAMES: Array<(id: string, other: string) => string> = [
  (id) => id.replace(/-/g, "_"),
  (id) => `host-plugin-${id}`,
  (id) => `${id}-`,
  (id) => id.replace("-", "--"),
  (id) => id.replace(/:/g, "."),
  (id) => id.toUpperCase(),
  (id) => ` ${id} `,
  (id) => id.slice(0, -1),
  (id) => `${id}s`,
  (id) => (id.startsWith("core:") ? id.slice(5) : `core:${id}`),
  (id) => id.slice(id.lastIndexOf(":") + 1),
  (id, other) => `${other.split(":")[0]}:${id.slice(id.lastIndexOf(":") + 1)}`,
  (id) => id.replace(/allow/, "deny"),
  (id) => `${id}:${id}`,
  (id) => id.replace(/:/, ":-"),
  () => "",
];

export const permissionId: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KNOWN_PERMISSIONS) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...KNOWN_PERMISSIONS), fc.constantFrom(...KNOWN_PERMISSIONS), fc.nat())
      .map(([id, other, n]) => RENAMES[n % RENAMES.length]!(id, other)),
  },
  { weight: 1, arbitrary: nastyString },
);

const scopeValue: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom<J>(
    "$APPDATA/**",
    "**",
    "https://*",
    { obj: [["path", "$HOME/**"]] },
    { obj: [["url", "https://*.example.com"]] },
    {
      obj: [
        ["name", "sh"],
        ["cmd", "sh"],
        ["args", true],
      ],
    },
  ),
  anyJson,
);

const permissionEntry: fc.Arbitrary<J> = fc.oneof(
  { weight: 5, arbitrary: permissionId },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          identifier: mostly(permissionId),
          allow: mostly(fc.array(scopeValue, { maxLength: 3 })),
          deny: mostly(fc.array(scopeValue, { maxLength: 3 })),
          extra: fc.tuple(fc.constantFrom(...PROTO_KEYS, "description"), anyJson),
        },
        { requiredKeys: [] },
      )
      .map(({ extra, ...fields }) => ({
        obj: [...Object.entries(fields), ...(extra ? [extra] : [])] as Array<[string, J]>,
      })),
  },
  { weight: 1, arbitrary: smallWrong },
);

export const labelPattern = fc.oneof(
  fc.constantFrom(
    "main",
    "*",
    "main-*",
    "settings",
    "[!a]*",
    "**",
    "a/**/b",
    "panel-?",
    "日本",
    "[z-a]",
    "",
  ),
  nastyString,
);

const capabilityFields: Array<[string, fc.Arbitrary<J>]> = [
  [
    "$schema",
    mostly(fc.constantFrom("../gen/schemas/desktop-schema.json", "https://schema.example/x.json")),
  ],
  [
    "identifier",
    mostly(fc.oneof(fc.constantFrom("main", "default", "main-capability", "dup"), nastyString)),
  ],
  ["description", mostly(nastyString)],
  ["local", mostly(fc.boolean())],
  ["windows", mostly(fc.array(mostly(labelPattern), { maxLength: 4 }))],
  ["webviews", mostly(fc.array(mostly(labelPattern), { maxLength: 3 }))],
  ["permissions", mostly(fc.array(permissionEntry, { maxLength: 8 }))],
  ["platforms", mostly(fc.array(mostly(fc.constantFrom(...PLATFORM_VALUES)), { maxLength: 4 }))],
  [
    "remote",
    mostly(
      fc
        .record(
          {
            urls: mostly(
              fc.array(
                mostly(
                  fc.oneof(
                    fc.constantFrom(
                      "https://*.example.com",
                      "http://localhost:*",
                      "https://*",
                      "app://*",
                      "*://*/*",
                    ),
                    nastyString,
                  ),
                ),
                {
                  maxLength: 3,
                },
              ),
            ),
          },
          { requiredKeys: [] },
        )
        .map((r) => ({ obj: Object.entries<J>(r) })),
    ),
  ],
  [
    "caplint-disable",
    mostly(
      fc.array(
        mostly(
          fc.oneof(
            fc.constantFrom(...RULE_IDS),
            fc.constantFrom("no-such-rule", "parse", "schema", ""),
          ),
        ),
        { maxLength: 3 },
      ),
    ),
  ],
];

/** A capability object: known fields (some of the wrong type), extra keys (prototype names among them), shuffled, sometimes repeated. */
export const capabilityObject: fc.Arbitrary<J> = fc
  .tuple(
    fc.tuple(
      ...capabilityFields.map(([key, arbitrary]) =>
        fc.option(
          arbitrary.map((v): [string, J] => [key, v]),
          { freq: 4, nil: undefined },
        ),
      ),
    ),
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...PROTO_KEYS, "identifer", "permisions", "Windows", "remote.urls"),
          nastyString,
        ),
        anyJson,
      ),
      { maxLength: 3 },
    ),
    fc.option(fc.nat(), { nil: undefined }),
    fc.nat(),
  )
  .map(([fields, extras, repeat, order]) => {
    const entries = [...fields.filter((f): f is [string, J] => f !== undefined), ...extras];
    if (repeat !== undefined && entries.length) entries.push(entries[repeat % entries.length]!);
    // A deterministic shuffle driven by `order`.
    let seed = order;
    for (let i = entries.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const j = seed % (i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return { obj: entries };
  });

/** One capability, a list of them, the wrapped form, or one of those buried a few levels down. */
export const capabilityFile: fc.Arbitrary<J> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: capabilityObject },
      {
        weight: 2,
        arbitrary: fc.array(
          fc.oneof({ weight: 4, arbitrary: capabilityObject }, { weight: 1, arbitrary: anyJson }),
          { maxLength: 4 },
        ),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            mostly(fc.array(capabilityObject, { maxLength: 3 })),
            fc.array(fc.tuple(nastyString, anyJson), { maxLength: 2 }),
          )
          .map(([list, extra]): J => ({ obj: [["capabilities", list], ...extra] })),
      },
    ),
    fc.option(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean()), {
      freq: 6,
      nil: undefined,
    }),
  )
  .map(([value, nesting]) => {
    if (!nesting) return value;
    // Deep-ish nesting: up to 300 levels of arrays or objects around the value (the parsers stop at 256).
    let out = value;
    for (let i = 0; i < nesting[0]; i++)
      out = nesting[1] ? [out] : { obj: [["capabilities", [out]]] };
    return out;
  });
