import type { ReaderWording } from "../../core/source/document.js";

/** How the shared reader words problems of capability, permission and app config files. */
export const CAPABILITY_WORDING: ReaderWording = {
  expected: "a capability object or array",
  nestingUnneeded: "no capability file needs that",
  rejectsBom: "which the app's build rejects",
  rejectsSurrogates: "the app's build rejects it",
};
