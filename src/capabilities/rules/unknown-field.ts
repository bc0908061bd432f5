import type { JsonPath } from "../../core/location.js";
import {
  CAPABILITY_FIELDS,
  PERMISSION_ENTRY_FIELDS,
  REMOTE_FIELDS,
  SUPPRESSION_FIELD,
  unknownFileFields,
  WRAPPED_FILE_FIELDS,
} from "../model/capability.js";
import { nearestField } from "../../core/did-you-mean.js";
import { defineRule, type RuleContext } from "./types.js";

/** Fields the host ignores that are not mistakes. */
const TOLERATED = ["$schema", SUPPRESSION_FIELD];

const KNOWN_FIELDS = {
  capability: CAPABILITY_FIELDS,
  remote: REMOTE_FIELDS,
  "permission entry": PERMISSION_ENTRY_FIELDS,
  file: WRAPPED_FILE_FIELDS,
} as const;

export default defineRule({
  id: "unknown-field",
  description: "Report fields the capability format does not define: Tauri silently ignores them.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: { unknownField: 'unknown {{what}} field "{{field}}": {{framework}} ignores it' },
  check(context) {
    for (const document of context.project.documents) {
      if (!document.ok) continue;
      for (const field of unknownFileFields(document.value))
        report(context, document, { ...field, object: "file" });
    }
    for (const capability of context.capabilities) {
      for (const field of capability.written.unknownFields)
        report(context, capability.source, field);
    }
  },
});

function report(
  context: RuleContext,
  at: { absolutePath: string },
  field: {
    key: string;
    path: JsonPath;
    object: keyof typeof KNOWN_FIELDS;
    siblings: ReadonlySet<string>;
  },
) {
  const { key, object, siblings } = field;
  if (TOLERATED.includes(key)) return;
  const known: readonly string[] = KNOWN_FIELDS[object];
  context.report({
    at,
    path: field.path,
    target: "key",
    messageId: "unknownField",
    data: { what: object, field: key, framework: context.catalog.framework },
    // Read only for a finding that is kept: a file of 1,000,000 unknown keys lists 10,000 of them
    // (MAX_FINDINGS_PER_FILE), and the nearest field of the others was most of the run's time.
    get hint() {
      const { missing: suggestion, present: alreadySet } = nearestField(key, known, (name) =>
        siblings.has(name),
      );
      return suggestion
        ? `did you mean "${suggestion}"?`
        : alreadySet
          ? `this ${object} already has "${alreadySet}": move what "${key}" holds into it, then remove "${key}"`
          : `known fields: ${known.join(", ")}`;
    },
  });
}
