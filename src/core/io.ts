export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface MainOptions {
  argv: readonly string[];
  stdout: OutputStream;
  stderr: OutputStream;
  /** Defaults to process.cwd() in the bin. */
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Standard input (`caplint events -`, `caplint check -`); the bin passes process.stdin. */
  stdin?: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  /** Ends long-running commands (`check --watch`); the bin aborts it on Ctrl-C. */
  signal?: AbortSignal;
}
