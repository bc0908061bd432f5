import path from "node:path";
import { describeIoError } from "./source/read.js";
import { FatalError } from "./errors.js";
import { writeFileAtomic } from "./write-file-atomic.js";

export { writeFileAtomic };

/** `--output FILE`: the report written atomically, relative to the working directory; failures are fatal (exit 2). */
export async function writeOutputFile(file: string, text: string, cwd: string): Promise<void> {
  try {
    await writeFileAtomic(path.resolve(cwd, file), text);
  } catch (error) {
    throw new FatalError(`--output ${file}: cannot write the report: ${describeIoError(error)}`);
  }
}

/** Collects what a reporter prints, to be written to a file afterwards; not a terminal, so no colour by default. */
export class CapturedOutput {
  text = "";
  write(chunk: string): void {
    this.text += chunk;
  }
}
