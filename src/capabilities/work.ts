/**
 * Counts of unit operations, for tests that guard linear growth without timing anything: ten times the
 * input must cost about ten times these counts (test/performance/linearity.test.ts walks every one).
 * One object for the engine, the rules and the loader, so a counter added anywhere is guarded too.
 * Plain increments: the cost is a few nanoseconds on paths that do far more per step.
 */
export const work = {
  /** Resolved (command, capability, context) entries created. */
  resolvedEntries: 0,
  /** Resolution problem objects made (per kind asked for: `Resolution.problemsOf`). */
  problemsMade: 0,
  /** Set members walked while expanding permission sets (memoised expansions count once). */
  setMembers: 0,
  /** Scope values examined by dangerous-permission. */
  scopeValues: 0,
  /**
   * Global scopes of a plugin whose lent values dangerous-permission worked out for a danger: once per
   * model that lends differently, not once per platform model.
   */
  lentScopesJudged: 0,
  /**
   * Grants of a dangerous command (entry, leaf, command) dangerous-permission made to judge: once per
   * capability, whatever its contexts and the platform models it is judged on.
   */
  dangerousLeaves: 0,
  /**
   * Dangers dangerous-permission judged on a set of platforms (`judgeGrants`): once per distinct content
   * of a capability's dangerous grants (`dangerContentKey`), not once per copy of the capability.
   */
  dangerJudgements: 0,
  /** Window or webview patterns compared with each other by diff. */
  patternComparisons: 0,
  /**
   * Commands listed for rules to walk: each platform model's list (`allowed.keys()`, `denied.keys()`)
   * counts its commands, the resolution's denied commands over platform sets (`deniedCommandSets`)
   * count once. A rule that walks every model's denied commands pays it once per distinct model.
   */
  commandsListed: 0,
  /**
   * Grant and site pairs compared to find one capability's allows of a command without the command's
   * grant list (`allowGrantsIn`): at most a fixed number per call, the list made past it.
   */
  ownGrantPairs: 0,
  /**
   * Distinct identifiers unknown-permission judged (classified, looked up in other releases, worded):
   * once per identifier however many entries grant it.
   */
  identifiersJudged: 0,
  /**
   * Permission entries given a number for their identifier (rules/support/entry-identifiers.ts): once
   * per entries list, shared by the identifier rules, which then judge each distinct identifier once.
   */
  entriesNumbered: 0,
  /**
   * Entries handed to an identifier rule's visit by `forEachJudgedEntry`: only those of the
   * identifiers it judged (from the shared index of entries by identifier), not every entry.
   */
  judgedEntriesVisited: 0,
  /**
   * Entries with a scope list handed to a rule about scopes (dead-scope, scope-conflict) from the
   * shared index (`scopedEntryIndexes`): the entries without one are not walked.
   */
  scopedEntriesVisited: 0,
  /**
   * Distinct identifiers of scoped entries dead-scope judged (plugin, whether a command reads a scope,
   * the scope schema's fields): once per identifier and run, however many entries name it.
   */
  scopedIdentifiersJudged: 0,
  /**
   * Decisions of redundant-permission worded (each covered entry's group item, path down the set and
   * fix title): once per distinct decision, however many capabilities are decided alike.
   */
  redundancyWordings: 0,
  /**
   * A capability's build impact worked out (`buildImpactOf`, for legacy-identifier and
   * unknown-permission): once per capability's run of findings, not per finding.
   */
  buildImpactsWorkedOut: 0,
  /**
   * Edit-distance tables filled for identifier suggestions (`Catalog.suggest`): candidates whose
   * length or letters already put them beyond the limit need none.
   */
  suggestionDistanceTables: 0,
  /** Identifier pools (a plugin's identifiers, lowercased) made for suggestions: once per manifest and run. */
  identifierPoolsMade: 0,
  /**
   * Distinct window or webview patterns invalid-label-pattern judged (compiled, their literal text
   * checked): once per pattern and run, however many capabilities list it.
   */
  labelPatternsJudged: 0,
  /**
   * Indexes of the capabilities by file and identifier made to place resolution problems (set-cycle,
   * unknown-set-member, default-without-set): one per run's capabilities list, shared by the rules.
   */
  problemCapabilityIndexes: 0,
  /**
   * `remote.urls` items listed for the remote rules (`remotePatterns`): once per run's capabilities,
   * shared by broad-remote and insecure-remote.
   */
  remotePatternsListed: 0,
  /** Host reaches broad-remote worked out: once per distinct scheme and host components and run. */
  hostReachesWorkedOut: 0,
  /** Grants a rule walked that the engine's counters do not see (dead-scope's shell grants). */
  ruleSteps: 0,
  /** Capability and permission files the loader parsed. */
  filesParsed: 0,
  /**
   * Capability and permission files read each behind an `await` of its own (a permission folder's
   * files); an app's capability files are read in one synchronous loop, none of them here.
   */
  filesReadAfterAwait: 0,
  /** Folders the scan for windows created in code read (the app's Rust and frontend sources). */
  sourceFoldersRead: 0,
  // Work the loader shares between apps with the same inputs: it grows with the distinct committed
  // manifests, members, lock files and releases of a run, not with its apps.
  /** Committed `acl-manifests.json` texts parsed. */
  manifestsParsed: 0,
  /** Committed manifests compared with the release catalog (per text and app facts). */
  manifestsCompared: 0,
  /** Members of committed manifests (one plugin's manifest text) shape-checked. */
  manifestMembersChecked: 0,
  /** Members of committed manifests compared with the release catalog (per text and facts). */
  manifestMembersCompared: 0,
  /** `Cargo.lock` texts read into packages. */
  lockFilesParsed: 0,
  /** Built-in manifests built as of a release (per plugin and release). */
  releaseManifestsBuilt: 0,
  /** Set expanders made: one per distinct catalog content (apps on the same releases and plugins share one). */
  expandersMade: 0,
  /** URLPattern constructor strings parsed (by the polyfill: once per distinct string and run). */
  urlPatternsParsed: 0,
  /**
   * Of those, the ones the polyfill's constructor parsed: a simple string (`https://*.example.com/*`)
   * is read without it (engine/match/origin.ts, `simpleComponents`).
   */
  urlPatternsConstructed: 0,
  /**
   * Component patterns of remote URL patterns compiled (parsed into parts, then an automaton): once per
   * distinct component and run, not once per pattern (`*` is the username of every pattern).
   */
  urlComponentsCompiled: 0,
  /** Grants the resolution's walk of the global scope contributions visits (only those with command-less leaves). */
  globalScopeGrantsWalked: 0,
  /** Safe fixes built for findings (none when the caller reads no fix: a compact report). */
  fixesMade: 0,
  /** Findings made without their data and group (the caller reads neither: a compact, GitHub or SARIF report). */
  findingsWithoutData: 0,
};

export type WorkCounter = keyof typeof work;

export function resetWork(): void {
  for (const key of Object.keys(work) as WorkCounter[]) work[key] = 0;
}
