export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /**
   * Resolves once what was written has left the process (a pipe's reader caught up): a command whose
   * output is unbounded waits for it after `write` returned false, so memory does not fill with text
   * a slow reader has not taken yet.
   */
  drained?(): Promise<void>;
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

/**
 * `io` with other output streams. Its properties are copied as they are defined, so a getter stays a
 * getter: the bin's `stdin` creates process.stdin only when a command reads it (a spread would create
 * it on every run, which costs start-up).
 */
export function withStreams(
  io: MainOptions,
  streams: Partial<Pick<MainOptions, "stdout" | "stderr">>,
): MainOptions {
  // The bin gives its streams as getters too (Node makes each when first read): replaced, not assigned.
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(io);
  for (const name of Object.keys(streams)) delete descriptors[name];
  return Object.defineProperties(
    {},
    { ...descriptors, ...Object.getOwnPropertyDescriptors(streams) },
  ) as MainOptions;
}
