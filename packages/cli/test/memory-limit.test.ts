import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MEMORY_LIMIT_ENV, memoryLimit } from '../src/commands/machine-memory.js';
import { PhaseProgress, describePhase } from '../src/output/phase-progress.js';
import { runInProcess } from './bad-input/run-in-process.js';

// The memory estimate against the machine's memory (docs/limits.md), with the machine's figure
// injected through BLIS_MEMORY_LIMIT so the test does not depend on this machine; and the
// phases a large input's loading shows on stderr, which never touch stdout.

const RUN = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '5'];
const tmp = mkdtempSync(join(tmpdir(), 'blis-memory-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const saved = { limit: process.env[MEMORY_LIMIT_ENV], progress: process.env.BLIS_PROGRESS };
afterEach(() => {
  for (const [k, v] of [[MEMORY_LIMIT_ENV, saved.limit], ['BLIS_PROGRESS', saved.progress]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('the memory estimate against the machine', () => {
  it('refuses a run larger than the machine, with the estimate and the machine\'s figure', async () => {
    process.env[MEMORY_LIMIT_ENV] = String(2 * 2 ** 30);
    const r = await runInProcess([...RUN, '--num-instances', '50', '--total-kv-blocks', '1000000']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'blis: memory estimate: expected a run that fits in 2.0 GiB (BLIS_MEMORY_LIMIT; --ignore-memory-limit runs anyway), found an estimated 2.8 GiB: KV cache 2.7 GiB (50 × 1000000 blocks), instances 3.1 MiB, 5 requests 2.0 KiB, process 128.0 MiB\n',
    );
  });

  it('runs it anyway with --ignore-memory-limit', async () => {
    process.env[MEMORY_LIMIT_ENV] = '1000';
    expect((await runInProcess([...RUN, '--quiet'])).code).toBe(2);
    const r = await runInProcess([...RUN, '--quiet', '--ignore-memory-limit']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).completed_requests).toBe(5);
  });

  it('counts per-request records when --results-path keeps them', async () => {
    // 100,000 requests: 38 MiB of results without records, 195 MiB with.
    process.env[MEMORY_LIMIT_ENV] = String(300 * 2 ** 20);
    const args = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--num-requests', '100000', '--total-kv-blocks', '1000'];
    const r = await runInProcess([...args, '--results-path', join(tmp, 'r.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^blis: memory estimate: expected a run that fits in 300\.0 MiB .* 100000 requests 195\.3 MiB, process 128\.0 MiB\n$/);
  });

  it('refuses a BLIS_MEMORY_LIMIT that is not a number of bytes', async () => {
    process.env[MEMORY_LIMIT_ENV] = '4GB';
    const r = await runInProcess(RUN);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('blis: BLIS_MEMORY_LIMIT: expected a positive whole number of bytes, found "4GB"\n');
  });

  it('is the machine\'s memory (or the container\'s limit) without the variable', () => {
    delete process.env[MEMORY_LIMIT_ENV];
    const m = memoryLimit(false);
    expect(m?.bytes).toBeGreaterThan(0);
    expect(m?.bytes).toBeLessThanOrEqual(totalmem());
    expect(memoryLimit(true)).toBeUndefined();
  });
});

describe('progress while a large input loads', () => {
  it('names a large spec before reading it, on stderr only: stdout is the same bytes', async () => {
    const client = (i: number) =>
      `  - id: "c${i}"\n    rate_fraction: 1\n    arrival:\n      process: poisson\n    input_distribution:\n      type: exponential\n      params:\n        mean: 64\n    output_distribution:\n      type: exponential\n      params:\n        mean: 16\n`;
    const parts = ['version: "2"\nseed: 42\naggregate_rate: 10\nnum_requests: 20\nclients:\n'];
    for (let i = 0; i < 4700; i++) parts.push(client(i));
    const spec = join(tmp, 'big-spec.yaml');
    writeFileSync(spec, parts.join(''));
    const args = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', spec, '--total-kv-blocks', '1000'];
    const quiet = await runInProcess(args);
    process.env.BLIS_PROGRESS = '1';
    const shown = await runInProcess(args);
    expect(shown.code).toBe(0);
    expect(shown.stderr).toMatch(/^blis: reading big-spec\.yaml \(1\.\d MB\)\nblis: generating 20 requests from 4700 clients\n/);
    expect(quiet.stderr).not.toContain('reading');
    expect(shown.stdout).toBe(quiet.stdout);
  });

  it('says how far building instances is, once a second', () => {
    process.env.BLIS_PROGRESS = '1';
    vi.useFakeTimers({ now: 0 });
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => lines.push(s) > 0) as typeof process.stderr.write;
    try {
      const p = new PhaseProgress(true);
      p.phase({ kind: 'build-instances', instances: 3000, built: 0 });
      for (let built = 1; built <= 3000; built++) {
        vi.setSystemTime(built); // 1 ms per instance: 3 s in all
        p.phase({ kind: 'build-instances', instances: 3000, built });
      }
    } finally {
      process.stderr.write = write;
      vi.useRealTimers();
    }
    expect(lines).toEqual(['blis: building 3000 instances\n', 'blis: building instances: 1000 of 3000\n', 'blis: building instances: 2000 of 3000\n']);
  });

  it('announces only steps that take long, or come late', () => {
    expect(describePhase({ kind: 'build-instances', instances: 999, built: 0 }, false)).toBeUndefined();
    expect(describePhase({ kind: 'build-instances', instances: 1000, built: 0 }, false)).toBe('building 1000 instances');
    expect(describePhase({ kind: 'build-instances', instances: 2, built: 0 }, true)).toBe('building 2 instances');
    expect(describePhase({ kind: 'generate', clients: 3, requests: undefined }, true)).toBe('generating requests from 3 clients');
    expect(describePhase({ kind: 'read-trace', path: join(tmp, 'missing.csv') }, false)).toBeUndefined();
  });
});
