import type { CheckRequest } from "../../src/capabilities/check-run.js";
import { RULES_BY_ID } from "../../src/registry.js";

/** A check of the app in `cwd` as the CLI asks with no options: every rule, no paths or extra inputs. */
export const checkRequest = (cwd: string): CheckRequest => ({
  cwd,
  env: {},
  paths: [],
  manifest: [],
  plugins: [],
  permissions: [],
  rules: RULES_BY_ID,
});
