import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FatalError } from "../errors.js";

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
const READ_FILES = /(\.(json|json5|toml|lock|rs|ts|tsx|js|jsx|mjs|cjs|vue|svelte)|(^|\/)\.gitignore)$/;
/** Dependencies and build output: never an app's own files, and often large when committed. */
const SKIPPED_SEGMENT = /(^|\/)(node_modules|target|\.git)\//;
const MAX_FILES = 200_000;
const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/** The listing of a tree: one line per entry, paths included. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/** Where `cwd` is in its repository: the top folder and the path from it (POSIX, "" at the top). */
export async function gitLocation(cwd: string): Promise<{ top: string; prefix: string }> {
  const result = await git(cwd, ["rev-parse", "--show-toplevel", "--show-prefix"]);
  if (result.code !== 0) throw new FatalError(`not in a git repository (${cwd}): --base and --head read commits from one`);
  const [top = "", prefix = ""] = result.stdout.toString("utf8").split("\n");
  return { top, prefix: prefix.replace(/\/$/, "") };
}

/** The commit `ref` names; a clear error naming the fetch to add when this clone does not have it. */
export async function resolveCommit(top: string, option: string, ref: string): Promise<string> {
  if (ref.startsWith("-") || ref.includes("\0")) throw new FatalError(`${option} ${ref}: not a git revision`);
  const resolved = await git(top, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
  if (resolved.code === 0) return resolved.stdout.toString("utf8").trim();
  const shallow = (await git(top, ["rev-parse", "--is-shallow-repository"])).stdout.toString("utf8").trim() === "true";
  const remotes = (await git(top, ["remote"])).stdout.toString("utf8").split("\n").filter(Boolean);
  // An explicit refspec: a clone of one branch (`--single-branch`, `--depth`) fetches nothing into remote-tracking refs otherwise.
  const slash = ref.indexOf("/");
  const remote = slash > 0 && remotes.includes(ref.slice(0, slash)) ? ref.slice(0, slash) : undefined;
  const fetch = remote
    ? `git fetch --depth=1 ${remote} +${ref.slice(slash + 1)}:refs/remotes/${ref}`
    : /^[0-9a-f]{7,64}$/i.test(ref)
      ? `git fetch --depth=1 ${remotes[0] ?? "origin"} ${ref}`
      : `git fetch --depth=1 ${remotes[0] ?? "origin"} +${ref}:refs/remotes/${remotes[0] ?? "origin"}/${ref} and use --base ${remotes[0] ?? "origin"}/${ref}`;
  throw new FatalError(
    shallow
      ? `${option} ${ref}: not in this shallow clone; fetch it first: ${fetch} (in GitHub Actions: actions/checkout with fetch-depth: 0)`
      : `${option} ${ref}: no such commit or branch in this repository; fetch it first: ${fetch}`,
  );
}

interface TreeEntry {
  mode: string;
  object: string;
  size: number;
  file: string;
}

/** Writes the files of `commit` that caplint reads into a new private folder. */
export async function snapshotCommit(top: string, commit: string, option: string, maxFileBytes: number): Promise<GitSnapshot> {
  const listing = await git(top, ["ls-tree", "-r", "-z", "--long", "--full-tree", commit], MAX_LISTING_BYTES);
  if (listing.code !== 0) throw new FatalError(`${option}: cannot list the files of ${commit.slice(0, 12)}: ${listing.stderr.trim()}`);
  const entries: TreeEntry[] = [];
  for (const record of listing.stdout.toString("utf8").split("\0")) {
    // "<mode> <type> <object> <size>\t<path>"
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode = "", type = "", object = "", size = ""] = record.slice(0, tab).split(/ +/);
    const file = record.slice(tab + 1);
    if (type !== "blob" || SKIPPED_SEGMENT.test(file)) continue;
    if (mode !== "120000" && !READ_FILES.test(file)) continue;
    entries.push({ mode, object, size: Number(size), file });
  }
  if (entries.length > MAX_FILES)
    throw new FatalError(`${option}: ${commit.slice(0, 12)} has ${entries.length} files caplint would read, over the ${MAX_FILES} limit`);

  const root = await mkdtemp(path.join(tmpdir(), "caplint-git-"));
  const snapshot: GitSnapshot = { root, commit, outsideLinks: [], dispose: () => rm(root, { recursive: true, force: true }) };
  try {
    await mkdir(path.join(root, ".git"));
    const wanted = entries.filter((entry) => entry.mode === "120000" || entry.size <= maxFileBytes);
    const total = wanted.reduce((sum, entry) => sum + entry.size, 0);
    if (total > MAX_TOTAL_BYTES)
      throw new FatalError(`${option}: ${commit.slice(0, 12)} has ${total} bytes of files caplint would read, over the ${MAX_TOTAL_BYTES} limit`);
    const contents = await catFiles(
      top,
      wanted.map((entry) => entry.object),
    );
    for (const entry of entries) {
      const target = path.join(root, ...entry.file.split("/"));
      await mkdir(path.dirname(target), { recursive: true });
      if (entry.mode === "120000") {
        const link = contents.get(entry.object)!.toString("utf8");
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(entry.file), link));
        if (path.posix.isAbsolute(link) || resolved === ".." || resolved.startsWith("../")) snapshot.outsideLinks.push(entry.file);
        // Where links cannot be made (Windows without the privilege), the file is left out, as a link out of the repository is.
        else await symlink(link, target).catch(() => snapshot.outsideLinks.push(entry.file));
      } else if (entry.size > maxFileBytes) {
        // The loader refuses it by its size, with the same finding as in a work tree.
        await writeFile(target, "");
        await truncate(target, entry.size);
      } else {
        await writeFile(target, contents.get(entry.object)!, { mode: entry.mode === "100755" ? 0o755 : 0o644 });
      }
    }
    return snapshot;
  } catch (error) {
    await snapshot.dispose();
    throw error;
  }
}

/** The contents of blobs, by object id, through one `git cat-file --batch`. */
async function catFiles(top: string, objects: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(objects)];
  const contents = new Map<string, Buffer>();
  if (unique.length === 0) return contents;
  const result = await git(top, ["cat-file", "--batch"], MAX_TOTAL_BYTES + unique.length * 64, `${unique.join("\n")}\n`);
  if (result.code !== 0) throw new FatalError(`git cat-file failed: ${result.stderr.trim()}`);
  const out = result.stdout;
  let at = 0;
  for (const object of unique) {
    // "<object> <type> <size>\n<contents>\n"
    const headerEnd = out.indexOf(10, at);
    const [name, type, size] = out.subarray(at, headerEnd).toString("utf8").split(" ");
    if (name !== object || type !== "blob") throw new FatalError(`git cat-file: unexpected answer for ${object}`);
    const start = headerEnd + 1;
    contents.set(object, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return contents;
}

interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs git with no pager, no prompts and no replacement objects; output bounded. */
function git(cwd: string, args: string[], maxBytes = 1024 * 1024, input?: string): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_NO_REPLACE_OBJECTS: "1", GIT_PAGER: "cat", LC_ALL: "C" };
    const child = spawn("git", ["-c", "core.quotePath=false", ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
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
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4096)));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new FatalError("git is not installed (needed for --base and --head)") : error),
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
