import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CACHE_FILES, bundleIdentity, cacheDirectory, cacheFileName, commandOf } from '../src/launch/code-cache.js';

// The launcher's code cache (src/launch/code-cache.ts): each case runs a small CommonJS file
// through runWithCodeCache in a fresh Node process, as the launcher (dist/cli.cjs) runs the bundle.

const CODE_CACHE = join(import.meta.dirname, '..', 'src', 'launch', 'code-cache.ts');
const work = mkdtempSync(join(tmpdir(), 'blis-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Enough functions that run (and so are compiled lazily) for the cache to matter, and the
// CommonJS surface the bundle relies on: require of a built-in, module.exports, __filename.
const PROGRAM = `const { basename } = require('node:path');
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
module.exports.answer = fib(20);
process.stdout.write(JSON.stringify({ fib: module.exports.answer, file: basename(__filename), exit: process.env.EXIT ?? '0' }) + '\\n');
process.exitCode = Number(process.env.EXIT ?? 0);
`;

function program(name: string, text = PROGRAM): string {
  const file = join(work, name);
  writeFileSync(file, text);
  return file;
}

/** Runs `file` through runWithCodeCache; stdout is the program's, stderr the outcome. */
function launch(file: string, env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; outcome: string }> {
  const runner = `import { runWithCodeCache } from ${JSON.stringify(CODE_CACHE)}; process.stderr.write(runWithCodeCache(${JSON.stringify(file)}, 'test').outcome);`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
  for (const [k, v] of Object.entries(env)) childEnv[k] = v;
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', runner], { env: childEnv, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, outcome: stderr.trim() });
    });
  });
}

const caches = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8cache')) : []);

describe('the code cache folder and names', () => {
  it('follows Node: NODE_COMPILE_CACHE picks the folder, NODE_DISABLE_COMPILE_CACHE turns it off', () => {
    expect(cacheDirectory({ NODE_COMPILE_CACHE: '/x/y' })).toBe('/x/y');
    expect(cacheDirectory({ NODE_COMPILE_CACHE: '/x/y', NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
    expect(cacheDirectory({})).toBe(join(tmpdir(), 'node-compile-cache'));
  });

  it('names a cache by the bundle file (inode, size, both times), by Node and by the command', () => {
    const file = program('identity.cjs');
    const id = bundleIdentity(statSync(file, { bigint: true }));
    const name = cacheFileName(id, 'run');
    expect(name).toBe(`blis-${id}-${process.version}-${process.arch}-run.v8cache`);
    expect(cacheFileName(id, 'replay')).not.toBe(name);
    expect(bundleIdentity(statSync(file, { bigint: true }))).toBe(id);
    // The same length written again (a rebuild): the change time moves, so the name does.
    const later = Date.now() + 20;
    while (Date.now() < later);
    writeFileSync(file, PROGRAM.replace('fib(20)', 'fib(21)'));
    expect(bundleIdentity(statSync(file, { bigint: true }))).not.toBe(id);
  });

  it('keys by the first word of the arguments, and never by a path or an odd word', () => {
    expect(commandOf(['run', '--model', 'm'])).toBe('run');
    expect(commandOf(['--version'])).toBe('none');
    expect(commandOf(['serve-sim', '--port', '0'])).toBe('serve-sim');
    expect(commandOf(['../../etc/passwd'])).toBe('none');
    expect(commandOf(['Run'])).toBe('none');
  });
});

describe('runWithCodeCache', () => {
  it('writes a cache at a clean exit, uses it next time with the same output, and replaces one V8 refuses', async () => {
    const dir = join(work, 'cycle');
    const file = program('cycle.cjs');
    const first = await launch(file, { NODE_COMPILE_CACHE: dir });
    expect(first).toMatchObject({ code: 0, outcome: 'missing' });
    expect(JSON.parse(first.stdout)).toEqual({ fib: 6765, file: 'cycle.cjs', exit: '0' });
    const [name] = caches(dir);
    expect(caches(dir)).toHaveLength(1);

    const second = await launch(file, { NODE_COMPILE_CACHE: dir });
    expect(second).toEqual({ ...first, outcome: 'used' });

    // A damaged cache (its checksum no longer matches) is refused by V8 and written anew.
    writeFileSync(join(dir, name), Buffer.alloc(2048, 7));
    expect(await launch(file, { NODE_COMPILE_CACHE: dir })).toEqual({ ...first, outcome: 'rejected' });
    expect(await launch(file, { NODE_COMPILE_CACHE: dir })).toEqual({ ...first, outcome: 'used' });
  });

  it('writes nothing for a run that fails, or with caching off', async () => {
    const failing = join(work, 'failing');
    const r = await launch(program('failing.cjs'), { NODE_COMPILE_CACHE: failing, EXIT: '2' });
    expect(r).toMatchObject({ code: 2, outcome: 'missing' });
    expect(caches(failing)).toEqual([]);

    const off = join(work, 'off');
    const r2 = await launch(program('off.cjs'), { NODE_COMPILE_CACHE: off, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r2).toMatchObject({ code: 0, outcome: 'off' });
    expect(existsSync(off)).toBe(false);
  });

  it('a rebuilt bundle of the same length gets its own cache', async () => {
    const dir = join(work, 'rebuilt');
    const file = program('rebuilt.cjs');
    await launch(file, { NODE_COMPILE_CACHE: dir });
    await new Promise((r) => setTimeout(r, 20));
    program('rebuilt.cjs', PROGRAM.replace('fib(20)', 'fib(21)'));
    const r = await launch(file, { NODE_COMPILE_CACHE: dir });
    expect(r.outcome).toBe('missing');
    expect(JSON.parse(r.stdout).fib).toBe(10946);
    expect(caches(dir)).toHaveLength(2);
  });

  it(`keeps the newest ${MAX_CACHE_FILES} caches of the folder`, async () => {
    const dir = join(work, 'crowded');
    mkdirSync(dir, { recursive: true });
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < MAX_CACHE_FILES + 5; i++) {
      const f = join(dir, `blis-${String(i).padStart(16, '0')}-v0-x64-run.v8cache`);
      writeFileSync(f, 'x');
      utimesSync(f, old + i, old + i);
    }
    writeFileSync(join(dir, 'someone-elses.v8cache'), 'x');
    await launch(program('crowded.cjs'), { NODE_COMPILE_CACHE: dir });
    const left = caches(dir).filter((f) => f.startsWith('blis-'));
    expect(left).toHaveLength(MAX_CACHE_FILES);
    expect(left).not.toContain(`blis-${'0'.padStart(16, '0')}-v0-x64-run.v8cache`);
    expect(caches(dir)).toContain('someone-elses.v8cache');
  });

  it.runIf(process.getuid?.() === 0)("ignores a cache file another user owns (it is code)", async () => {
    const dir = join(work, 'foreign');
    const file = program('foreign.cjs');
    await launch(file, { NODE_COMPILE_CACHE: dir });
    const [name] = caches(dir);
    chownSync(join(dir, name), 12345, 12345);
    expect((await launch(file, { NODE_COMPILE_CACHE: dir })).outcome).toBe('missing');
  });
});
