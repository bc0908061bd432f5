/**
 * A kind of input caplint checks (ESLint 9's "language"): its name, the command that lints it, its
 * rules, its keys in caplint.config.json and how the shared reader words problems for it. Each kind lives in its own folder under
 * src/ and exports one Domain from its `domain.ts`; src/registry.ts lists them. The core never
 * names one.
 */
import type { ConfigSection } from "../config.js";
import type { ReaderWording } from "../source/document.js";
import type { RuleMeta } from "./rule.js";

export interface Domain<R extends RuleMeta = RuleMeta> {
  /** What its rules' `domain` says, `caplint rules --domain` takes and the settings name in messages. */
  readonly name: string;
  /** The command that lints it (`caplint rules` lists it beside each rule). */
  readonly lintCommand: string;
  /** Its rules and pipeline steps, in the order `caplint rules` lists them within the domain. */
  readonly rules: readonly R[];
  /** How the shared JSON/TOML reader words what an input of this kind should have been (for a domain whose inputs it reads). */
  readonly wording?: ReaderWording;
  /** Its own keys in caplint.config.json (beside the shared `rules` and `overrides`), for a domain that has any. */
  readonly config?: ConfigSection;
}
