import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The OpenEvolve and GEPA examples are Python (standard library only) and talk to the real CLI
// through `blis evaluate`; their unittest suites run here so that `pnpm test` (and CI) covers them.
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Tests each suite holds today: a suite that silently loses tests fails here. */
const SUITES = [
  { dir: 'examples/openevolve', minTests: 31 },
  { dir: 'examples/gepa', minTests: 20 },
];

function python(): string {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0)
    throw new Error('python3 is not on PATH: the OpenEvolve and GEPA example tests need Python 3.9 or later (standard library only)');
  return 'python3';
}

interface Run {
  status: number | null;
  output: string;
  error?: Error;
}

/** Runs one suite without blocking, so that the two suites (mostly Node start-ups) overlap. */
function unittest(dir: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(python(), ['-m', 'unittest', 'discover', '-s', dir, '-t', dir], {
      cwd: root,
      // No __pycache__ left in the examples; the CLI found relative to the example, not $BLIS_CLI.
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', BLIS_CLI: '', BLIS_EVAL_TIMEOUT_S: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 290_000,
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      output += d;
    });
    child.on('error', (error) => resolve({ status: null, output, error }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe.concurrent('python examples (python3 -m unittest against the real CLI)', () => {
  for (const { dir, minTests } of SUITES) {
    it(`${dir}: every test passes`, { timeout: 300_000 }, async () => {
      const r = await unittest(dir);
      if (r.error !== undefined || r.status !== 0)
        console.error(`python3 -m unittest discover -s ${dir} -t ${dir} failed (exit ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${r.output}`);
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(0);
      const ran = /Ran (\d+) tests?/.exec(r.output);
      expect(ran, r.output).not.toBeNull();
      expect(Number(ran?.[1])).toBeGreaterThanOrEqual(minTests);
    });
  }
});
