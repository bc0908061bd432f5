/**
 * The two failures that end a run with exit code 2 and a one-line message, without a stack trace:
 * bad input caplint cannot work with (an unreadable config, a missing path) and a wrong command line.
 * Both are public: library users can `instanceof` what `loadProject` and `lint` throw.
 */
export class FatalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FatalError";
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
