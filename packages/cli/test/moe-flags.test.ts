import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOE_COMM_BACKENDS } from '@blis/latency/internal';
import { describe, expect, it } from 'vitest';
import { MOE_COMM_BACKEND_CHOICES, SIMULATION_FLAGS } from '../src/flags/run-flags.js';

// Issue 38: the DP/EP flags of `blis run` and `blis replay`.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'run', '--model', 'qwen/qwen3-30b-a3b', '--hardware', 'H100', '--num-requests', '200', '--rate', '50', ...args], { cwd: ROOT, encoding: 'utf8' });

describe('--dp, --enable-expert-parallel, --moe-comm-backend', () => {
  it('offer the backends @blis/latency knows, in its order', () => {
    expect(MOE_COMM_BACKEND_CHOICES).toEqual(MOE_COMM_BACKENDS);
    expect(SIMULATION_FLAGS.find((d) => d.name === 'moe-comm-backend')?.choices).toEqual(MOE_COMM_BACKENDS);
  });

  it('--dp 1 is the run without it, byte for byte', () => {
    const plain = run();
    const dp1 = run('--dp', '1');
    expect(plain.status, plain.stderr).toBe(0);
    expect(dp1.stdout).toBe(plain.stdout);
  });

  it('each changes the result where it applies, and the startup line says the KV capacity per DP rank', () => {
    const tp2 = run('--tp', '2');
    const dp2 = run('--tp', '2', '--dp', '2');
    const a2a = run('--tp', '2', '--dp', '2', '--enable-expert-parallel', '--moe-comm-backend', 'deepep_high_throughput');
    for (const r of [tp2, dp2, a2a]) expect(r.status, r.stderr).toBe(0);
    expect(new Set([tp2.stdout, dp2.stdout, a2a.stdout]).size).toBe(3);
    expect(dp2.stderr).toMatch(/144286 KV blocks \(derived: 80 GiB × 0\.9 × TP 2 − 29\.12 weights − 8 activations − 1\.20 non-torch = 105\.68 GiB \/ 2 ranks \/ 786432 B per block, × DP 2\)/);
  });

  it('docs/cli.md lists them', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const f of ['--dp <value>', '--enable-expert-parallel`', '--moe-comm-backend <value>']) expect(doc).toContain(`| \`${f}`);
  });
});
