import { UsageError } from "../errors.js";
import { formatBytes } from "./read.js";

/**
 * Standard input for `check -` (as ESLint, Biome and actionlint read it), bounded like a file:
 * more than `maxBytes` is refused instead of being buffered without limit.
 */
export async function readStandardInput(
  stdin: AsyncIterable<Buffer | string> | undefined,
  maxBytes: number,
): Promise<string> {
  if (!stdin) throw new UsageError("-: no standard input to read");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    size += buffer.length;
    if (size > maxBytes)
      throw new UsageError(
        `-: standard input is larger than ${formatBytes(maxBytes)} (--max-file-size)`,
      );
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
