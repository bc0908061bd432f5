import type { NearMissWindow } from "../queries/explain.js";
import { quoteLabel } from "../../core/did-you-mean.js";

/** The pointer to a capability whose window pattern is a typo or case away from the window asked about, said before any new grant is proposed. */
export function nearMissText(
  miss: NearMissWindow,
  window: string,
  command: string | undefined,
): string {
  return `capability ${miss.capability} names window ${quoteLabel(miss.pattern)} (${miss.file}:${miss.line}), a typo or case away from ${quoteLabel(window)}${
    miss.grantsCommand && command
      ? ` and grants ${command}: if it is meant for this window, fix the label there instead of adding a grant`
      : ": if it is meant for this window, fix the label there"
  }`;
}
