import type { JsonPath } from "../../core/location.js";
import { valueAt } from "../../core/source/document.js";
import { CAPABILITY_FIELDS, fileForm, PERMISSION_ENTRY_FIELDS, REMOTE_FIELDS, WRAPPED_FILE_FIELDS } from "../model/capability.js";
import { isPlainObject } from "../../core/json.js";
import { nearest } from "../../core/did-you-mean.js";
import { defineRule, type RuleContext } from "./types.js";

/** Fields the host ignores that are not mistakes. */
const TOLERATED = ["$schema", "caplint-disable"];

export default defineRule({
  id: "unknown-field",
  description: "Report fields the capability format does not define: the host silently ignores them.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: { unknownField: 'unknown {{what}} field "{{field}}": the host ignores it' },
  check(context) {
    for (const document of context.project.documents) {
      if (!document.ok || fileForm(document.value) !== "wrapped") continue;
      checkObject(context, document, [], WRAPPED_FILE_FIELDS, "file");
    }
    for (const capability of context.capabilities) {
      const document = context.document(capability.source);
      if (!document) continue;
      const raw = context.raw(capability);
      checkObject(context, document, capability.source.path, CAPABILITY_FIELDS, "capability");
      if (isPlainObject(raw.remote)) checkObject(context, document, [...capability.source.path, "remote"], REMOTE_FIELDS, "remote");
      for (const entry of capability.permissions) {
        if (entry.extended) checkObject(context, document, entry.path, PERMISSION_ENTRY_FIELDS, "permission entry");
      }
    }
  },
});

function checkObject(
  context: RuleContext,
  document: { absolutePath: string; value: unknown },
  path: JsonPath,
  known: readonly string[],
  what: string,
) {
  const object = valueAt(document.value, path);
  if (!isPlainObject(object)) return;
  const present = Object.keys(object);
  // Renaming a typo to a field the object already has would write that field twice, which the host
  // rejects; such a typo is suggested only as a leftover to merge and remove.
  const missing = known.filter((field) => !present.includes(field));
  for (const key of present) {
    if (known.includes(key) || TOLERATED.includes(key)) continue;
    const suggestion = nearest(key, missing, 1)[0];
    const alreadySet = suggestion ? undefined : nearest(key, known, 1)[0];
    context.report({
      at: document,
      path: [...path, key],
      target: "key",
      messageId: "unknownField",
      data: { what, field: key },
      hint: suggestion
        ? `did you mean "${suggestion}"?`
        : alreadySet
          ? `this ${what} already has "${alreadySet}": move what "${key}" holds into it, then remove "${key}"`
          : `known fields: ${known.join(", ")}`,
    });
  }
}
