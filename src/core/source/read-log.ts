import path from "node:path";

/**
 * What a run looked at on disk, for watch mode (whose next run is due when any of it changes) and
 * for `--output` (which must not replace any of it). Recorded where the reading happens, so a loader
 * or rule added later is covered without being told.
 */
export interface ReadLog {
  /** Files read, and paths probed for existence (a `Cargo.lock` or `Tauri.toml` that may appear later). */
  files: Set<string>;
  /** Folders listed: a file or folder appearing in one of them may change the verdict. */
  folders: Set<string>;
  /** Folders walked to any depth (capability and permission folders): anything below them counts. */
  trees: Set<string>;
}

export type ReadKind = keyof ReadLog;

export function newReadLog(): ReadLog {
  return { files: new Set(), folders: new Set(), trees: new Set() };
}

/**
 * The recordings in progress. A plain set, not an AsyncLocalStorage: on Node 20 running one turns on
 * promise hooks for the rest of the process, 3-5 % of a check's CPU (every promise pays for them).
 * Loads running at once in one process (a language server, a library user) therefore also record each
 * other's reads: a superset, which errs on the safe side for both users of a log (a watch run re-runs
 * on more changes, `--output` refuses more paths). A nested recording records into the outer one too.
 */
const recording = new Set<ReadLog>();

/** Runs `body`, recording into `log` every read made until it settles. */
export async function recordReads<T>(log: ReadLog, body: () => Promise<T>): Promise<T> {
  if (recording.has(log)) return body();
  recording.add(log);
  try {
    return await body();
  } finally {
    recording.delete(log);
  }
}

/**
 * The recording begun last of those in progress, if any: what is observed while it runs was observed
 * during every recording in progress (each began before it and has not settled), so a memo of it serves
 * them all and dies with it (see `repositoryMarkerKind`).
 */
export function newestRecording(): ReadLog | undefined {
  let newest: ReadLog | undefined;
  for (const log of recording) newest = log;
  return newest;
}

/**
 * A memo of answers read off the disk, kept for the newest recording in progress (a load's), so an
 * answer never outlives that load: a load answers from the disk as it first found it, the next load
 * asks again. Without a recording, every call asks.
 */
export function memoPerLoad<Answer>(): (key: string, ask: () => Answer) => Answer {
  const answersByRecording = new WeakMap<ReadLog, Map<string, Answer>>();
  return (key, ask) => {
    const log = newestRecording();
    if (!log) return ask();
    let answers = answersByRecording.get(log);
    if (!answers) answersByRecording.set(log, (answers = new Map<string, Answer>()));
    if (answers.has(key)) return answers.get(key) as Answer;
    const answer = ask();
    answers.set(key, answer);
    return answer;
  };
}

/** Records one read into the recordings in progress, if any. */
export function noteRead(kind: ReadKind, target: string): void {
  if (recording.size === 0) return;
  const absolute = isResolvedPosixPath(target) ? target : path.resolve(target);
  for (const log of recording) log[kind].add(absolute);
}

/** Two slashes, a `.` or `..` step, or a final slash after a name: what resolving a POSIX path removes. */
const POSIX_STEPS_TO_NORMALISE = /\/\/|\/\.\.?(?:\/|$)|[^/]\/$/;

/**
 * Whether `path.resolve(target)` is `target` itself, which the loaders' paths (absolute, normalised)
 * are: the log then keeps the caller's string, not a new equal one per file read (thousands a run, all
 * kept until the run ends). Other platforms' paths are resolved as before.
 */
export function isResolvedPosixPath(target: string): boolean {
  return path.sep === "/" && target.startsWith("/") && !POSIX_STEPS_TO_NORMALISE.test(target);
}

/** Every path in the log, files and folders alike. */
export function readPaths(log: ReadLog): string[] {
  return [...new Set([...log.files, ...log.folders, ...log.trees])];
}
