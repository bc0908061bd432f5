import { FatalError } from "./errors.js";
import { describeIoError } from "./source/read.js";
import { openReport, writeReport, type FileSink, type OutputTarget } from "./file-output.js";

/** `--output FILE` / `--html FILE`: failures and refusals are fatal (exit 2), with the target untouched. */
export async function writeOutputFile(
  option: string,
  target: OutputTarget,
  text: string,
): Promise<void> {
  try {
    await writeReport(target, text);
  } catch (error) {
    throw new FatalError(
      `${option} ${target.given}: cannot write the report: ${describeIoError(error)}`,
    );
  }
}

/**
 * `--output FILE` written as the report is produced (`events`): opening refuses what `writeReport`
 * refuses, and a failure to write or finish is fatal (exit 2) with the target untouched.
 */
export async function openOutputFile(option: string, target: OutputTarget): Promise<FileSink> {
  const failed = (error: unknown) =>
    new FatalError(`${option} ${target.given}: cannot write the report: ${describeIoError(error)}`);
  const sink = await openReport(target).catch((error: unknown) => {
    throw failed(error);
  });
  return {
    ...sink,
    finish: () =>
      sink.finish().catch((error: unknown) => {
        throw failed(error);
      }),
  };
}

/** Collects what a reporter prints, to be written to a file afterwards; not a terminal, so no colour by default. */
export class CapturedOutput {
  text = "";
  write(chunk: string): void {
    this.text += chunk;
  }
}
