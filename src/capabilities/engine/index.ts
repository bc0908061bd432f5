/** The resolution engine: pure functions from capabilities and a catalog to access answers. */
export { compileLabelPattern, labelMatches } from "./match/glob.js";
export { compileRemotePattern, LOCAL_ORIGIN, type Origin } from "./match/origin.js";
export {
  commandName,
  compareCodePoints,
  qualifiedIdentifier,
  type Context,
  type EntryProvenance,
  type ResolutionProblem,
  type ResolutionProblemKind,
  type ResolvedCommand,
  type ResolvedModel,
  type ScopeLists,
  type SetLimit,
} from "./model.js";
export { expanderFor, expandIdentifier, MAX_LEAVES_PER_ENTRY, MAX_SET_DEPTH } from "./expand.js";
export { resolve, resolveAll, Resolution, type ModelToJudge } from "./resolve.js";
export { grantsWithin, type GrantLeaves } from "./platform-model.js";
export { normalize, type NormalizedEntry, type NormalizedModel } from "./normalize.js";
export {
  AccessMatrix,
  accessMatrix,
  resolveAccess,
  whoCan,
  type AccessResult,
  type AllowedCommand,
  type CommandExplanation,
  type DeniedCommand,
} from "./access.js";
