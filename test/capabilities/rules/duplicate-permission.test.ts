import duplicatePermission from "../../../src/capabilities/rules/duplicate-permission.js";
import { testRule } from "../../helpers/rule-tester.js";

testRule(duplicatePermission, {
  valid: [
    '{ "identifier": "main", "windows": ["main"], "permissions": ["core:default", "fs:allow-read-file"] }',
    {
      name: "the same permission with two different scopes",
      code: '{ "identifier": "main", "windows": ["main"], "permissions": [{ "identifier": "fs:allow-read-file", "allow": [{ "path": "$APPDATA/*" }] }, { "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }] }',
    },
  ],
  invalid: [
    {
      name: "a string and a scope-less object name the same grant; the fix removes the repeat",
      code: '{ "identifier": "main", "windows": ["main"], "permissions": ["fs:allow-read-file", { "identifier": "fs:allow-read-file" }] }',
      errors: [
        {
          messageId: "duplicate",
          message: 'permission "fs:allow-read-file" is already listed at entry 0',
          hint: "remove this entry",
          line: 1,
          column: 84,
        },
      ],
      output:
        '{ "identifier": "main", "windows": ["main"], "permissions": ["fs:allow-read-file"] }',
    },
    {
      // Scoped keys are made only when needed; these pin that the two key spaces still meet exactly as
      // when every scoped key was made at once (a plain identifier is keyed by its text).
      name: "a plain identifier written as a scoped entry's key text, after it, repeats it",
      code: '{ "identifier": "main", "windows": ["main"], "permissions": [{ "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }, "[\\"fs:allow-read-file\\",[{\\"path\\":\\"$HOME/*\\"}],null]"] }',
      errors: [{ messageId: "duplicate", line: 1, column: 136 }],
      output:
        '{ "identifier": "main", "windows": ["main"], "permissions": [{ "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }] }',
    },
    {
      name: "a plain identifier written as a scoped key, before two scoped entries: both repeat it",
      code: '{ "identifier": "main", "windows": ["main"], "permissions": ["[\\"fs:allow-read-file\\",[{\\"path\\":\\"$HOME/*\\"}],null]", { "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }, { "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }] }',
      errors: [
        {
          messageId: "duplicate",
          message: 'permission "fs:allow-read-file" is already listed at entry 0',
          line: 1,
          column: 120,
        },
        {
          messageId: "duplicate",
          message: 'permission "fs:allow-read-file" is already listed at entry 0',
          line: 1,
          column: 194,
        },
      ],
      // One pass of fixes: the two adjacent removals overlap, so the second waits for the next pass.
      output:
        '{ "identifier": "main", "windows": ["main"], "permissions": ["[\\"fs:allow-read-file\\",[{\\"path\\":\\"$HOME/*\\"}],null]", { "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }] }',
    },
    {
      // A scoped entry's key is made when an earlier entry of the capability has its spelling and a
      // scope: the first such entry's key is made then, with its own index.
      name: "scoped entries of one identifier: a repeat of the first after a different scope",
      code: '{ "identifier": "main", "windows": ["main"], "permissions": [{ "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }, "fs:allow-read-file", { "identifier": "fs:allow-read-file", "allow": [{ "path": "$APPDATA/*" }] }, { "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }, { "identifier": "fs:allow-read-file", "allow": [{ "path": "$APPDATA/*" }] }] }',
      errors: [
        {
          messageId: "duplicate",
          message: 'permission "fs:allow-read-file" is already listed at entry 0',
          line: 1,
          column: 235,
        },
        {
          messageId: "duplicate",
          message: 'permission "fs:allow-read-file" is already listed at entry 2',
          line: 1,
          column: 309,
        },
      ],
      output:
        '{ "identifier": "main", "windows": ["main"], "permissions": [{ "identifier": "fs:allow-read-file", "allow": [{ "path": "$HOME/*" }] }, "fs:allow-read-file", { "identifier": "fs:allow-read-file", "allow": [{ "path": "$APPDATA/*" }] }, { "identifier": "fs:allow-read-file", "allow": [{ "path": "$APPDATA/*" }] }] }',
    },
    {
      name: "in TOML",
      filename: "main.toml",
      code: 'identifier = "main"\nwindows = ["main"]\npermissions = ["core:default", "core:default"]\n',
      errors: [{ messageId: "duplicate", line: 3, column: 32, severity: "suggestion" }],
      output: 'identifier = "main"\nwindows = ["main"]\npermissions = ["core:default"]\n',
    },
  ],
});
