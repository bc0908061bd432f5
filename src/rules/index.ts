import duplicateCapability from "./duplicate-capability.js";
import duplicatePermission from "./duplicate-permission.js";
import invalidIdentifier from "./invalid-identifier.js";
import invalidPlatform from "./invalid-platform.js";
import parse from "./parse.js";
import schema from "./schema.js";
import unknownField from "./unknown-field.js";
import unknownPermission from "./unknown-permission.js";
import unknownPlugin from "./unknown-plugin.js";
import unusedSuppression from "./unused-suppression.js";
import type { Rule } from "./types.js";

/** Every rule, sorted by id. A meta-test checks each has docs and fixtures. */
export const RULES: readonly Rule[] = [
  duplicateCapability,
  duplicatePermission,
  invalidIdentifier,
  invalidPlatform,
  parse,
  schema,
  unknownField,
  unknownPermission,
  unknownPlugin,
  unusedSuppression,
].sort((a, b) => (a.id < b.id ? -1 : 1));

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((rule) => [rule.id, rule]));
