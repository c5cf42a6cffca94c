import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type ExpectStatic, inject } from 'vitest';

// The `blis` process as the CLI tests drive it, and the shape every bad-input case must have.

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.cjs');
export const SOURCE = join(ROOT, 'packages', 'cli', 'src', 'cli.ts');

/**
 * The `blis` these tests start: the binary built from the sources for this test run
 * (tools/test-support/cli-bundle.ts, the bundle users run), or the sources through tsx when
 * BLIS_TEST_CLI=sources. Node options before the script.
 */
export const CLI_ARGV: readonly string[] = inject('blisTestBin') ? [inject('blisTestBin')] : ['--conditions=@blis/source', '--import', 'tsx', SOURCE];

/**
 * Runs the CLI ({@link CLI_ARGV}; start-up dominates these cases, and the tests run
 * concurrently). `viaBin` goes through the `blis` bin (bin/blis.cjs, then bin/blis.js in a checkout), to show the exit code survives it.
 */
export function blis(args: readonly string[], viaBin = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = viaBin ? [BIN, ...args] : [...CLI_ARGV, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
    });
  });
}

/** A long-running `blis` (a worker, a server) and what it wrote so far. */
export interface BlisProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
}

/**
 * Starts the CLI ({@link CLI_ARGV}: one process, so that a signal, or the SIGKILL that ends a
 * hung test, reaches it); `viaBin` goes through the `blis` bin instead. The caller kills it when
 * done.
 */
export function startBlis(args: readonly string[], viaBin = false): BlisProcess {
  const argv = viaBin ? [BIN, ...args] : [...CLI_ARGV, ...args];
  const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/**
 * Its exit code, or 'still running' (and the process killed) when it has not exited within
 * `ms`: a bound on a hang, not a claim about speed.
 */
export async function exitWithin(p: BlisProcess, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => resolve('still running'), ms);
  });
  const code = await Promise.race([p.exit, hung]);
  clearTimeout(timer);
  if (code === 'still running') p.child.kill('SIGKILL');
  return code;
}

/** Exit 2, empty stdout, and exactly `lines` on stderr (a string is the text after "blis: "). */
export async function rejects(expect: ExpectStatic, args: readonly string[], ...lines: (string | RegExp)[]): Promise<void> {
  const r = await blis(args);
  expect(r.stderr).not.toMatch(/internal error/);
  expect(r.stdout).toBe('');
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.endsWith('\n')).toBe(true);
  const got = r.stderr.slice(0, -1).split('\n');
  expect(got, r.stderr).toHaveLength(lines.length);
  lines.forEach((want, i) => {
    if (typeof want === 'string') expect(got[i]).toBe(`blis: ${want}`);
    else expect(got[i]).toMatch(want);
  });
}

/** Runs `blis evaluate ...args` ({@link CLI_ARGV}) with `input` on stdin. */
export function evaluateCli(args: readonly string[], input: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI_ARGV, 'evaluate', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A request over the size limit is not read to its end: the pipe closes under the rest.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
