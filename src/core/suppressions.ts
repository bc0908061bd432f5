import type { JsonPath } from "./location.js";

/** Where a suppression applies: a part of one file (a capability object, a recorded event…). */
export interface SuppressionScope {
  absolutePath: string;
  /** Path of the scope's root inside the file; findings at or below it are covered. */
  path: JsonPath;
  /** The scope in words, for the message about an unused suppression: `capability "main"`. */
  label: string;
}

/** One rule id named in a domain's in-file suppression list. */
export interface Suppression {
  scope: SuppressionScope;
  ruleId: string;
  /** Path of this id inside the file, for reporting it when unused. */
  path: JsonPath;
  used: boolean;
}

/** The suppression that covers a finding: same file, inside the scope, naming its rule. */
export function findSuppression(
  suppressions: readonly Suppression[],
  ruleId: string,
  absolutePath: string,
  path: JsonPath,
): Suppression | undefined {
  return suppressions.find(
    (s) =>
      s.ruleId === ruleId && s.scope.absolutePath === absolutePath && isPrefix(s.scope.path, path),
  );
}

function isPrefix(prefix: JsonPath, path: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((key, index) => path[index] === key);
}
