import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { mkdir, mkdtemp, open, rm, symlink, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { didYouMean, nearest } from "../../core/did-you-mean.js";
import { FatalError } from "../../core/errors.js";
import { cutValue } from "../../core/messages.js";

/**
 * One commit's files, read from git's objects (`ls-tree`, `cat-file --batch`: no checkout, nothing
 * written to the work tree or the repository) into a private temporary folder that stands for the
 * repository at that commit, so every loader reads it exactly as it reads a work tree: Cargo files,
 * configs, permission files, build.rs and sources included. Only the kinds of files caplint reads are
 * written; a file over the size limit becomes a sparse file of its size (the loader reports it as in a
 * work tree); a symbolic link is recreated only when it stays inside the repository; submodules are
 * left out. Bounded in files and bytes. The folder holds an empty `.git`, so searches for the
 * repository root (Cargo workspace, caplint.config.json) stop where they stop in the real one.
 */
export interface GitSnapshot {
  /** The folder standing for the repository root. */
  root: string;
  /** The full commit hash. */
  commit: string;
  /** Links in the commit that lead out of the repository: not recreated, never followed. */
  outsideLinks: string[];
  dispose(): Promise<void>;
}

/** Extensions and names of the files a capability run reads (capabilities, configs, Cargo, Rust and frontend sources). */
const READ_FILES =
  /(\.(json|json5|toml|lock|rs|ts|tsx|js|jsx|mjs|cjs|vue|svelte)|(^|\/)\.gitignore)$/;
/** Dependencies and build output: never an app's own files, and often large when committed. */
const SKIPPED_SEGMENT = /(^|\/)(node_modules|target|\.git)\//;
const MAX_FILES = 200_000;
/** PATH_MAX: a ref is a file under .git/refs (or a line of packed-refs written from one). */
const MAX_REF_LENGTH = 4096;
const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** The listing of a tree: one line per entry, paths included. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/** Where `cwd` is in its repository: the top folder and the path from it (POSIX, "" at the top). */
export async function gitLocation(cwd: string): Promise<{ top: string; prefix: string }> {
  const result = await git(cwd, ["rev-parse", "--show-toplevel", "--show-prefix"]);
  if (result.code !== 0) {
    const bare =
      (await git(cwd, ["rev-parse", "--is-bare-repository"])).stdout.toString("utf8").trim() ===
      "true";
    if (bare)
      throw new FatalError(
        `${cwd} is a bare git repository: it has commits but no work tree, and --base and --head read the app from where caplint runs in one; run it in a clone or a worktree (git worktree add)`,
      );
    throw new FatalError(
      `not in a git repository (${cwd}): --base and --head read commits from one`,
    );
  }
  const [top = "", prefix = ""] = result.stdout.toString("utf8").split("\n");
  return { top, prefix: prefix.replace(/\/$/, "") };
}

/** The commit `ref` names; a clear error naming the fetch to add when this clone does not have it. */
export async function resolveCommit(top: string, option: string, ref: string): Promise<string> {
  // A ref longer than a path git could store is no ref: said once, cut, without asking git (which would
  // make every later message repeat it).
  if (ref.length > MAX_REF_LENGTH)
    throw new FatalError(
      `${option} ${cutValue(ref, 80)}: not a git revision (${ref.length.toLocaleString("en")} characters; a ref name is a path, at most ${MAX_REF_LENGTH.toLocaleString("en")})`,
    );
  if (ref.startsWith("-") || ref.includes("\0"))
    throw new FatalError(`${option} ${ref}: not a git revision`);
  const resolved = await git(top, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (resolved.code === 0) return resolved.stdout.toString("utf8").trim();
  const shallow =
    (await git(top, ["rev-parse", "--is-shallow-repository"])).stdout.toString("utf8").trim() ===
    "true";
  const remotes = (await git(top, ["remote"])).stdout.toString("utf8").split("\n").filter(Boolean);
  const names = (
    await git(top, [
      "for-each-ref",
      "--format=%(refname:short)",
      "refs/heads",
      "refs/tags",
      "refs/remotes",
    ])
  ).stdout
    .toString("utf8")
    .split("\n")
    .filter(Boolean);
  const close = didYouMean(nearest(ref, names, 3));
  const where = shallow
    ? "not in this shallow clone"
    : "no such commit, branch or tag in this repository";
  // Advice that fits this repository: a fetch from a remote it has, or none when it has none.
  if (remotes.length === 0)
    throw new FatalError(
      `${option} ${ref}: ${where}, and it has no remote to fetch it from${close}`,
    );
  // An explicit refspec: a clone of one branch (`--single-branch`, `--depth`) fetches nothing into remote-tracking refs otherwise.
  const slash = ref.indexOf("/");
  const named =
    slash > 0 && remotes.includes(ref.slice(0, slash)) ? ref.slice(0, slash) : undefined;
  const remote = named ?? (remotes.includes("origin") ? "origin" : remotes[0]!);
  const fetch = named
    ? `git fetch --depth=1 ${named} +${ref.slice(slash + 1)}:refs/remotes/${ref}`
    : /^[0-9a-f]{7,64}$/i.test(ref)
      ? `git fetch --depth=1 ${remote} ${ref}`
      : `git fetch --depth=1 ${remote} +${ref}:refs/remotes/${remote}/${ref} and use --base ${remote}/${ref}`;
  const others = remotes.length > 1 ? ` (remotes: ${remotes.join(", ")})` : "";
  throw new FatalError(
    `${option} ${ref}: ${where}; fetch it first: ${fetch}${others}${shallow ? " (in GitHub Actions: actions/checkout with fetch-depth: 0)" : ""}${close}`,
  );
}

interface TreeEntry {
  mode: string;
  object: string;
  size: number;
  file: string;
}

/** The blob modes git writes (it reads older ones, such as 100664, as these); a submodule (160000) is left out. */
const BLOB_MODES = new Set(["100644", "100755", "120000"]);
/** A link's text longer than this is no path the system would follow (PATH_MAX). */
const MAX_LINK_BYTES = 4096;
/** Links followed in a row before a path counts as a loop (the kernel's limit). */
const MAX_LINK_HOPS = 40;

/**
 * Writes the files of `commit` that caplint reads into a new private folder, and nowhere else. A commit
 * is data from whoever pushed it: its tree may hold entries git itself would never check out (`..`,
 * `.git`, names written twice, a file below a link). Such a commit is refused whole, naming the entry.
 * Regular files are written first, each into a folder made here and opened so that nothing existing is
 * followed or replaced; links come last, and only those that stay inside when resolved through the
 * links of the same commit; no entry lies below a link, so no write ever passes through one. Blobs are
 * streamed from git one at a time: memory holds one file (at most `maxFileBytes`), never the commit.
 */
export async function snapshotCommit(
  top: string,
  commit: string,
  option: string,
  maxFileBytes: number,
): Promise<GitSnapshot> {
  const listing = await git(
    top,
    ["ls-tree", "-r", "-z", "--long", "--full-tree", commit],
    MAX_LISTING_BYTES,
  );
  if (listing.code !== 0)
    throw new FatalError(
      `${option}: cannot list the files of ${commit.slice(0, 12)}: ${listing.stderr.trim()}`,
    );
  const refuse = (file: string, why: string) =>
    new FatalError(
      `${option}: ${commit.slice(0, 12)} has a tree entry "${file}" that ${why}; git would not check it out, and caplint does not read it`,
    );
  const entries: TreeEntry[] = [];
  for (const record of listing.stdout.toString("utf8").split("\0")) {
    // "<mode> <type> <object> <size>\t<path>"
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode = "", type = "", object = "", size = ""] = record.slice(0, tab).split(/ +/);
    const file = record.slice(tab + 1);
    if (type === "commit") continue;
    const unsafe = unsafePath(file);
    if (unsafe !== undefined) throw refuse(file, unsafe);
    if (type !== "blob" || !BLOB_MODES.has(mode))
      throw refuse(file, `has mode ${mode} (${type}), not one git writes for a file or a link`);
    if (SKIPPED_SEGMENT.test(file)) continue;
    if (mode !== "120000" && !READ_FILES.test(file)) continue;
    entries.push({ mode, object, size: Number(size), file });
  }
  if (entries.length > MAX_FILES)
    throw new FatalError(
      `${option}: ${commit.slice(0, 12)} has ${entries.length} files caplint would read, over the ${MAX_FILES} limit`,
    );
  const links = new Map(
    entries.filter((entry) => entry.mode === "120000").map((entry) => [entry.file, entry]),
  );
  const paths = new Set<string>();
  for (const entry of entries) {
    if (paths.has(entry.file)) throw refuse(entry.file, "is written twice");
    paths.add(entry.file);
  }
  for (const entry of entries) {
    for (
      let slash = entry.file.indexOf("/");
      slash > 0;
      slash = entry.file.indexOf("/", slash + 1)
    ) {
      const above = entry.file.slice(0, slash);
      if (links.has(above)) throw refuse(entry.file, `lies below the link "${above}"`);
      if (paths.has(above)) throw refuse(entry.file, `lies below the file "${above}"`);
    }
  }

  const root = await mkdtemp(path.join(tmpdir(), "caplint-git-"));
  const snapshot: GitSnapshot = {
    root,
    commit,
    outsideLinks: [],
    dispose: () => rm(root, { recursive: true, force: true }),
  };
  try {
    await mkdir(path.join(root, ".git"));
    const oversized = entries.filter(
      (entry) => entry.mode !== "120000" && entry.size > maxFileBytes,
    );
    const wanted = entries.filter((entry) =>
      entry.mode === "120000" ? entry.size <= MAX_LINK_BYTES : entry.size <= maxFileBytes,
    );
    const total = wanted.reduce((sum, entry) => sum + entry.size, 0);
    if (total > MAX_TOTAL_BYTES)
      throw new FatalError(
        `${option}: ${commit.slice(0, 12)} has ${total} bytes of files caplint would read, over the ${MAX_TOTAL_BYTES} limit`,
      );
    const folders = new Set<string>();
    const writeFileEntry = async (entry: TreeEntry, contents: Buffer | undefined) => {
      const handle = await createInSnapshot(
        root,
        entry.file,
        entry.mode === "100755" ? 0o755 : 0o644,
        folders,
      );
      try {
        // A file over the size limit becomes a sparse file of its size: the loader refuses it by its size, as in a work tree.
        if (contents === undefined) await handle.truncate(entry.size);
        else await handle.writeFile(contents);
      } finally {
        await handle.close();
      }
    };
    for (const entry of oversized) await writeFileEntry(entry, undefined);
    const byObject = new Map<string, TreeEntry[]>();
    for (const entry of wanted)
      byObject.set(entry.object, [...(byObject.get(entry.object) ?? []), entry]);
    const linkTexts = new Map<string, string>();
    await streamBlobs(
      top,
      [...byObject.keys()],
      Math.max(maxFileBytes, MAX_LINK_BYTES),
      async (object, contents) => {
        for (const entry of byObject.get(object) ?? []) {
          if (entry.mode === "120000") linkTexts.set(entry.file, contents.toString("utf8"));
          else await writeFileEntry(entry, contents);
        }
      },
    );
    for (const entry of links.values()) {
      const text = linkTexts.get(entry.file);
      if (text === undefined || text.includes("\0") || !staysInside(entry.file, linkTexts))
        snapshot.outsideLinks.push(entry.file);
      // Where links cannot be made (Windows without the privilege), the file is left out, as a link out of the repository is.
      else
        await mkdirsInSnapshot(root, entry.file, folders)
          .then(() => symlink(text, path.join(root, ...entry.file.split("/"))))
          .catch(() => snapshot.outsideLinks.push(entry.file));
    }
    return snapshot;
  } catch (error) {
    await snapshot.dispose();
    throw error;
  }
}

/** Why a path from a tree cannot be written as it reads, or undefined when it can. */
function unsafePath(file: string): string | undefined {
  for (const segment of file.split("/")) {
    if (segment === "") return "has an empty name";
    if (segment === "." || segment === "..") return `is named "${segment}"`;
    if (segment.toLowerCase() === ".git") return "is named .git";
    if (segment.includes("\0")) return "has a NUL in its name";
    if (process.platform === "win32" && /[\\:]/.test(segment))
      return "has a backslash or colon in its name";
  }
  return undefined;
}

/**
 * Whether the link at `file` resolves inside the snapshot when every link of the commit it meets on the
 * way is followed as the system would (`z -> y/y/../..` with `y -> .` leaves it, though its text does not).
 */
function staysInside(file: string, linkTexts: ReadonlyMap<string, string>): boolean {
  const resolved: string[] = [];
  let pending = [...file.split("/").slice(0, -1), ...(linkTexts.get(file) ?? "").split("/")];
  if (linkTexts.get(file)?.startsWith("/")) return false;
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (resolved.pop() === undefined) return false;
      continue;
    }
    resolved.push(segment);
    const text = linkTexts.get(resolved.join("/"));
    if (text === undefined) continue;
    if (text.startsWith("/") || ++hops > MAX_LINK_HOPS) return false;
    resolved.pop();
    pending = [...text.split("/"), ...pending];
  }
  return true;
}

/** Makes the folders above `file` inside `root`, one by one, each one new or made here before. */
async function mkdirsInSnapshot(root: string, file: string, folders: Set<string>): Promise<void> {
  const segments = file.split("/").slice(0, -1);
  for (let depth = 1; depth <= segments.length; depth++) {
    const folder = segments.slice(0, depth).join("/");
    if (folders.has(folder)) continue;
    await mkdir(path.join(root, ...segments.slice(0, depth)));
    folders.add(folder);
  }
}

/** A new file at `file` inside `root`: never an existing one, never through a link. */
async function createInSnapshot(
  root: string,
  file: string,
  mode: number,
  folders: Set<string>,
): Promise<FileHandle> {
  await mkdirsInSnapshot(root, file, folders);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fsConstants;
  return open(path.join(root, ...file.split("/")), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
}

/**
 * Streams blobs from one `git cat-file --batch`, handing each to `onBlob` whole before reading the
 * next (the pipe waits meanwhile), so memory holds one blob of at most `maxBytes`.
 */
async function streamBlobs(
  top: string,
  objects: string[],
  maxBytes: number,
  onBlob: (object: string, contents: Buffer) => Promise<void>,
): Promise<void> {
  if (objects.length === 0) return;
  const child = spawnGit(["-c", "core.quotePath=false", "cat-file", "--batch"], {
    cwd: top,
    env: gitEnvironment(),
  });
  let stderr = "";
  child.stderr.on(
    "data",
    (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4096)),
  );
  const exited = new Promise<number>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new FatalError("git is not installed (needed for --base and --head)")
          : error,
      ),
    );
    child.on("close", (code) => resolve(code ?? 1));
  });
  child.stdin.on("error", () => {
    // git exited before reading all its input; its exit code and the missing answers say why.
  });
  child.stdin.end(`${objects.join("\n")}\n`);
  let next = 0;
  let header = Buffer.alloc(0);
  let body: Buffer[] = [];
  let bodyBytes = 0;
  // The blob being read: its id and size, once its header line is in.
  let current: { object: string; size: number } | undefined;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let data = chunk;
      while (data.length > 0) {
        if (current === undefined) {
          const newline = data.indexOf(10);
          header = Buffer.concat([header, newline < 0 ? data : data.subarray(0, newline)]);
          if (header.length > 256)
            throw new FatalError(`git cat-file: unexpected answer for ${objects[next]}`);
          if (newline < 0) break;
          data = data.subarray(newline + 1);
          // "<object> <type> <size>"
          const [name, type, size] = header.toString("utf8").split(" ");
          const object = objects[next] ?? "";
          header = Buffer.alloc(0);
          if (
            name !== object ||
            type !== "blob" ||
            !/^\d+$/.test(size ?? "") ||
            Number(size) > maxBytes
          )
            throw new FatalError(`git cat-file: unexpected answer for ${object}`);
          current = { object, size: Number(size) };
        }
        const blob: { object: string; size: number } = current;
        // The blob's bytes and the newline after them.
        const wanted = blob.size + 1 - bodyBytes;
        const part = data.subarray(0, wanted);
        body.push(part);
        bodyBytes += part.length;
        data = data.subarray(part.length);
        if (bodyBytes === blob.size + 1) {
          await onBlob(blob.object, Buffer.concat(body).subarray(0, blob.size));
          body = [];
          bodyBytes = 0;
          current = undefined;
          next++;
        }
      }
    }
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const code = await exited;
  if (next < objects.length)
    throw new FatalError(
      `git cat-file failed${code === 0 ? "" : ` (exit ${code})`}: ${stderr.trim() || "missing objects"}`,
    );
}

interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs git with no pager, no prompts and no replacement objects; output bounded. */
function git(
  cwd: string,
  args: string[],
  maxBytes = 1024 * 1024,
  input?: string,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(["-c", "core.quotePath=false", ...args], { cwd, env: gitEnvironment() });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let overflow = false;
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        overflow = true;
        child.kill();
      } else chunks.push(chunk);
    });
    child.stderr.on(
      "data",
      (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4096)),
    );
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new FatalError("git is not installed (needed for --base and --head)")
          : error,
      ),
    );
    child.on("close", (code) => {
      if (overflow) reject(new FatalError(`git ${args[0]}: more than ${maxBytes} bytes of output`));
      else resolve({ code: code ?? 1, stdout: Buffer.concat(chunks), stderr });
    });
    child.stdin.on("error", () => {
      // git exited before reading all its input; its exit code says why.
    });
    child.stdin.end(input ?? "");
  });
}

function gitEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_PAGER: "cat",
    LC_ALL: "C",
  };
}

/**
 * git with its three streams piped, and node:child_process loaded on first use: `diff --base` is its only
 * user, and importing it at the top made every run of every command load it (and node:net and node:dgram
 * behind it) at start-up.
 */
function spawnGit(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ChildProcessWithoutNullStreams {
  return process
    .getBuiltinModule("node:child_process")
    .spawn("git", args, { ...options, stdio: "pipe" });
}
