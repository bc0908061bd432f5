/** The resolution engine: pure functions from capabilities and a catalog to access answers. */
export { checkLabel, compileLabelPattern, labelMatches, LABEL_ALPHABET_MESSAGE, type LabelPattern } from "./match/glob.js";
export { compileRemotePattern, LOCAL_ORIGIN, remoteUrlMatches, type CompileRemoteOptions, type Origin, type RemotePattern } from "./match/origin.js";
export {
  commandName,
  expandIdentifier,
  compareCodePoints,
  MAX_LEAVES_PER_ENTRY,
  qualifiedIdentifier,
  resolve,
  type Context,
  type EntryProvenance,
  type GlobalScope,
  type GlobalScopeContribution,
  type PatternProblem,
  type ResolutionProblem,
  type ResolutionRule,
  type ResolveInput,
  type ResolvedCapability,
  type ResolvedCommand,
  type ResolvedModel,
  type ScopeLists,
} from "./resolve.js";
export { normalize, sortMapKeys, type NormalizedEntry, type NormalizedModel } from "./normalize.js";
export {
  AccessMatrix,
  accessMatrix,
  formatAllowedOn,
  formatReferences,
  resolveAccess,
  whoCan,
  type AccessQuery,
  type AccessResult,
  type AllowedCommand,
  type CellState,
  type CommandExplanation,
  type DeniedCommand,
  type MatrixCell,
  type MatrixRow,
  type Verdict,
  type WhoCanResult,
} from "./access.js";
