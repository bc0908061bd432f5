import noTarget from "../../../src/capabilities/rules/no-target.js";
import { testRule } from "../../helpers/rule-tester.js";

testRule(noTarget, {
  valid: [
    '{ "identifier": "main", "windows": ["main"], "permissions": ["core:default"] }',
    {
      name: "a webview label is a target too",
      code: '{ "identifier": "main", "webviews": ["preview"], "permissions": ["core:default"] }',
    },
  ],
  invalid: [
    {
      name: "no windows and no webviews",
      code: '{\n  "identifier": "http-access",\n  "permissions": ["core:default"]\n}',
      errors: [
        {
          messageId: "noWindow",
          message:
            'capability "http-access" applies to no window: it needs a "windows" or "webviews" label pattern',
          line: 2,
          column: 17,
        },
      ],
    },
    {
      name: "local pages off and no remote",
      code: '{ "identifier": "docs-site", "windows": ["main"], "local": false, "permissions": ["core:default"] }',
      errors: [{ messageId: "noPage", severity: "warning" }],
    },
  ],
});
