import { type BigIntStats, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

// Node 20 has no compile cache (`module.enableCompileCache` is 22.1+), so a start-up of the
// `blis` binary would parse and compile the same bundle every time, and compile every function
// the command then runs. This keeps V8's code cache of the bundle on disk instead, the way
// Node 22's cache does: the bundle runs as a CommonJS script compiled with `vm.Script`, and the
// cache is taken from that script when the command ends, so it holds the bytecode of every
// function the command ran, not just the top level (about 25 ms more off a 1,000-request run
// than a cache taken at compile time, which is what require-hook libraries such as
// v8-compile-cache keep).

/** Where the caches go, after Node's own variables; undefined when caching is off. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined && env.NODE_DISABLE_COMPILE_CACHE !== '') return undefined;
  return env.NODE_COMPILE_CACHE !== undefined && env.NODE_COMPILE_CACHE !== '' ? env.NODE_COMPILE_CACHE : join(tmpdir(), 'node-compile-cache');
}

/**
 * Which build of the bundle this is, from its file's identity: inode, size, modification and
 * change times (ns). V8 refuses a cache made by another V8 or under other flags, but checks only
 * the length of the source it was made from, so a rebuilt bundle must not find the old cache: a
 * rewritten file always has a new change time (which, unlike the modification time, no tool
 * can set back), so it gets a new name. Hashing the 1.3 MB text instead would cost loading
 * `node:crypto` and the hash, some 6 ms of every start-up.
 */
export function bundleIdentity(st: BigIntStats): string {
  return [st.ino, st.size, st.mtimeNs, st.ctimeNs].map((v) => v.toString(36)).join('.');
}

/** The cache file for a build of the bundle, this Node and one command (each runs, and so caches, different functions). */
export function cacheFileName(identity: string, command: string): string {
  return `blis-${identity}-${process.version}-${process.arch}-${command}.v8cache`;
}

/** The command a `blis` argument list runs (its first word), as a file-name part. */
export function commandOf(argv: readonly string[]): string {
  const first = argv.find((a) => !a.startsWith('-'));
  return first !== undefined && /^[a-z][a-z0-9-]{0,31}$/.test(first) ? first : 'none';
}

/**
 * Whether `path` may be trusted: a plain file or folder that this user owns. A cache file is
 * code, and the default folder is in the shared temporary directory.
 */
function ownedByUs(path: string, kind: 'file' | 'dir'): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined || (kind === 'file' ? !st.isFile() : !st.isDirectory())) return false;
  return typeof process.getuid !== 'function' || st.uid === process.getuid();
}

function readCache(file: string): Buffer | undefined {
  try {
    return ownedByUs(dirname(file), 'dir') && ownedByUs(file, 'file') ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** Caches kept in the folder at most: older ones (other builds, other commands) go first. */
export const MAX_CACHE_FILES = 32;

/**
 * Writes the cache under a temporary name first (another `blis` may be reading it). The folder
 * keeps the newest {@link MAX_CACHE_FILES} caches of `blis`: enough for every command of a few
 * builds side by side (two installed versions used in turn do not evict each other's), not one
 * more file per build forever.
 */
function writeCache(dir: string, name: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownedByUs(dir, 'dir')) return;
    const tmp = join(dir, `${name}.${process.pid}.tmp`);
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, join(dir, name));
    const ours = readdirSync(dir)
      .filter((f) => f.startsWith('blis-') && f.endsWith('.v8cache') && ownedByUs(join(dir, f), 'file'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of ours.slice(MAX_CACHE_FILES)) rmSync(join(dir, f), { force: true });
  } catch {
    // A cache that cannot be written costs the next start-up its speed, nothing else.
  }
}

/** What {@link runWithCodeCache} found: caching off, a cache used, none yet (one is written at exit), or one V8 refused (replaced at exit). */
export type CacheOutcome = 'off' | 'used' | 'missing' | 'rejected';

/** A bundle run through the code cache. */
export interface CachedRun {
  outcome: CacheOutcome;
  /** The bundle's `module.exports`. */
  exports: unknown;
  /**
   * Writes the cache now, when there was none or V8 refused it (once; a no-op otherwise): it
   * holds every function run so far. Never throws.
   */
  saveCache: () => void;
}

/**
 * Runs the CommonJS file `bundle` as `require` would, compiled with the code cache for
 * `command` when there is a usable one. When there was none, or V8 refused it, a new one is
 * written by `saveCache`, which by default (`saveAt: 'exit'`) runs when the process ends with
 * code 0. A worker thread, which can be ended without an exit event, saves when it has done
 * its work (`saveAt: 'call'`).
 */
export function runWithCodeCache(bundle: string, command: string, env: NodeJS.ProcessEnv = process.env, saveAt: 'exit' | 'call' = 'exit'): CachedRun {
  const dir = cacheDirectory(env);
  const name = dir !== undefined ? cacheFileName(bundleIdentity(statSync(bundle, { bigint: true })), command) : undefined;
  const source = readFileSync(bundle, 'utf8');
  const cached = dir !== undefined && name !== undefined ? readCache(join(dir, name)) : undefined;
  // The wrapper is one line, so the bundle keeps its own line numbers in stack traces.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData: cached });
  const outcome: CacheOutcome = dir === undefined ? 'off' : cached === undefined ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used';
  let pending = dir !== undefined && name !== undefined && outcome !== 'used';
  const saveCache = (): void => {
    if (!pending || dir === undefined || name === undefined) return;
    pending = false;
    try {
      writeCache(dir, name, script.createCachedData());
    } catch {
      // As writeCache: the next start-up loses its speed, nothing else.
    }
  };
  if (pending && saveAt === 'exit') {
    process.once('exit', (code) => {
      if (code === 0) saveCache();
    });
  }
  const module = { exports: {} as unknown, filename: bundle, id: bundle, loaded: false };
  const run = script.runInThisContext() as (e: unknown, r: NodeRequire, m: unknown, f: string, d: string) => void;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  module.loaded = true;
  return { outcome, exports: module.exports, saveCache };
}
