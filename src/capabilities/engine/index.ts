/** The resolution engine: pure functions from capabilities and a catalog to access answers. */
export { checkLabel, compileLabelPattern, labelMatches, LABEL_ALPHABET_MESSAGE, type LabelPattern } from "./match/glob.js";
export { compileRemotePattern, LOCAL_ORIGIN, remoteUrlMatches, type CompileRemoteOptions, type Origin, type RemotePattern } from "./match/origin.js";
export {
  commandName,
  compareCodePoints,
  platformMask,
  platformsOf,
  qualifiedIdentifier,
  type CommandEntries,
  type Context,
  type EntryProvenance,
  type ExpansionProblem,
  type GlobalScope,
  type GlobalScopeContribution,
  type PatternProblem,
  type ResolutionProblem,
  type ResolutionProblemKind,
  type ResolvedCapability,
  type ResolvedCommand,
  type ResolvedModel,
  type ScopeLists,
  type SetLimit,
} from "./model.js";
export { expandIdentifier, MAX_LEAVES_PER_ENTRY, MAX_SET_DEPTH } from "./expand.js";
export { resolve, resolveAll, Resolution, type ResolveAllInput, type ResolveInput } from "./resolve.js";
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
