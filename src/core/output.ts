import { FatalError } from "./errors.js";
import { describeIoError } from "./source/read.js";
import { writeReport, type OutputTarget } from "./file-output.js";

/** `--output FILE` / `--html FILE`: failures and refusals are fatal (exit 2), with the target untouched. */
export async function writeOutputFile(option: string, target: OutputTarget, text: string): Promise<void> {
  try {
    await writeReport(target, text);
  } catch (error) {
    throw new FatalError(`${option} ${target.given}: cannot write the report: ${describeIoError(error)}`);
  }
}

/** Collects what a reporter prints, to be written to a file afterwards; not a terminal, so no colour by default. */
export class CapturedOutput {
  text = "";
  write(chunk: string): void {
    this.text += chunk;
  }
}
