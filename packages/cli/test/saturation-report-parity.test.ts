import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'vitest';

// BLIS HEAD's saturation labels and verdict traces on three runs (fixtures/blis-head-saturation):
// ours must print the same labels and write the same report, byte for byte.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE = join(ROOT, 'packages', 'cli', 'src', 'cli.ts');
const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-saturation');
const tmp = mkdtempSync(join(tmpdir(), 'blis-saturation-'));

function blis(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = ['--conditions=@blis/source', '--import', 'tsx', SOURCE, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
    });
  });
}

function fixture(name: string): string {
  const plain = join(FIXTURES, name);
  try {
    return readFileSync(plain, 'utf8');
  } catch {
    return gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
  }
}

/** BLIS's `saturation` block of its stdout metrics. */
function blisLabels(run: string): unknown {
  const text = fixture(`${run}-stdout.txt`).replace('=== Simulation Metrics ===\n', '');
  return (JSON.parse(text) as { saturation: unknown }).saturation;
}

const MODEL = ['--model', 'meta-llama/llama-3.1-8b-instruct', '--seed', '42', '--quiet'];
const TRACE = join(import.meta.dirname, 'fixtures', 'blis-parity', 'azurecode2k');
const RUNS: Record<string, string[]> = {
  under: ['--num-requests', '40', '--rate', '2', '--detectors', 'all'],
  over: ['--num-requests', '600', '--rate', '60', '--detectors', 'all', '--saturation-config', join(FIXTURES, 'over-saturation.yaml')],
  border: ['--num-requests', '600', '--rate', '12', '--detectors', 'threshold,composite', '--saturation-config', join(FIXTURES, 'border-saturation.yaml'), '--saturation-final-window', '10s'],
};

/** `blis replay` of the 2,000-request Azure code slice on 4 instances (the parity fixture's settings). */
const REPLAY = [
  ...['--trace-header', `${TRACE}.yaml`, '--trace-data', `${TRACE}.csv`, '--hardware', 'H100', '--tp', '1', '--total-kv-blocks', '7463'],
  ...['--block-size-in-tokens', '16', '--max-num-seqs', '256', '--max-num-batched-tokens', '2048', '--num-instances', '4', '--routing-policy', 'round-robin'],
  ...['--detectors', 'all', '--saturation-final-window', '1m'],
];

describe.concurrent('saturation analysis: parity with BLIS HEAD', () => {
  for (const [run, args] of [...Object.entries(RUNS).map(([k, a]) => [k, ['run', ...MODEL, ...a]] as const), ['replay4', ['replay', ...MODEL, ...REPLAY]] as const]) {
    it(`${run}: the same labels on stdout and the same verdict trace file`, async ({ expect }) => {
      const report = join(tmp, `${run}.json`);
      const r = await blis([...args, '--saturation-report', report]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).saturation).toEqual(blisLabels(run));
      // Not toBe on the whole text: a mismatch would print megabytes; the first differing line says enough.
      const ours = readFileSync(report, 'utf8').split('\n');
      const theirs = fixture(`${run}-report.json`).split('\n');
      const at = ours.findIndex((line, i) => line !== theirs[i]);
      expect(at === -1 ? null : { line: at + 1, ours: ours[at], blis: theirs[at] }).toBeNull();
      expect(ours.length).toBe(theirs.length);
    });
  }

  it('the detectors named in another order, or repeated, write the same trace (BLIS runs them in its fixed order)', async ({ expect }) => {
    const a = join(tmp, 'order-a.json');
    const b = join(tmp, 'order-b.json');
    const base = ['run', ...MODEL, '--num-requests', '40', '--rate', '2'];
    const [ra, rb] = await Promise.all([
      blis([...base, '--detectors', 'backlog-drift,composite', '--saturation-report', a]),
      blis([...base, '--detectors', ' composite , backlog-drift,composite,', '--saturation-report', b]),
    ]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(ra.stdout).toBe(rb.stdout);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('a detector module runs after the built-in ones: its label beside theirs, the built-in verdicts unchanged', async ({ expect }) => {
    const module = join(import.meta.dirname, 'fixtures', 'saturation-detectors', 'in-flight-limit.mjs');
    const report = join(tmp, 'custom.json');
    const r = await blis(['run', ...MODEL, ...RUNS.over.slice(0, 4), '--detectors', `${module},composite`, '--saturation-report', report]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).saturation).toEqual({ composite: 'OVERLOADED', 'in-flight-limit': 'OVERLOADED' });
    type Report = { final: Record<string, string>; trace: { detector: string }[] };
    const ours = JSON.parse(readFileSync(report, 'utf8')) as Report;
    const blisOver = JSON.parse(fixture('over-report.json')) as Report;
    expect(ours.trace.filter((t) => t.detector === 'composite')).toEqual(blisOver.trace.filter((t) => t.detector === 'composite'));
    // Per event: composite first, then the module.
    expect(ours.trace.slice(0, 2).map((t) => t.detector)).toEqual(['composite', 'in-flight-limit']);
  });

  it('without --detectors the result has no saturation field, and --metrics-path carries the labels after the requests', async ({ expect }) => {
    const metrics = join(tmp, 'metrics.json');
    const [off, on] = await Promise.all([
      blis(['run', ...MODEL, '--num-requests', '40', '--rate', '2']),
      blis(['run', ...MODEL, '--num-requests', '40', '--rate', '2', '--detectors', 'all', '--metrics-path', metrics]),
    ]);
    expect(off.code, off.stderr).toBe(0);
    expect('saturation' in JSON.parse(off.stdout)).toBe(false);
    const file = JSON.parse(readFileSync(metrics, 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(file);
    expect(keys.slice(-2)).toEqual(['requests', 'saturation']);
    expect(file.saturation).toEqual(blisLabels('under'));
    expect(on.code, on.stderr).toBe(0);
  });
});
