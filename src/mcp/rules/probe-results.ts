import { isObject, type At, type ProbeCall } from "../listing.js";

/** True when the server refused the call: a JSON-RPC error or a result with isError. */
export function rejected(call: ProbeCall): boolean {
  return call.error !== undefined || (isObject(call.result) && call.result.isError === true);
}

/** The text of a result's first text content block. */
export function firstText(result: unknown): { text: string; index: number } | undefined {
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  const index = result.content.findIndex(
    (block) => isObject(block) && block.type === "text" && typeof block.text === "string",
  );
  return index < 0 ? undefined : { text: (result.content[index] as { text: string }).text, index };
}

export function callsFor(
  calls: ReadonlyArray<At<ProbeCall>>,
  purpose: ProbeCall["purpose"],
): Array<At<ProbeCall>> {
  return calls.filter((call) => call.value.purpose === purpose);
}
