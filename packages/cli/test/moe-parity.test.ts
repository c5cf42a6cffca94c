import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RequestRecord, simulate } from '@blis/cluster';
import { describe, expect, it } from 'vitest';
import { MOE_BASE, MOE_BASE_ARGS, MOE_PARITY_RUNS, compareMoERun } from './moe-parity-runs.js';
import { compareRun, formatComparison, isExactMatch, loadReference } from './parity-compare.js';

// Issue 38 (MoE half): data and expert parallelism of trained-physics equal BLIS HEAD's request
// for request (the runs: moe-parity-runs.ts).

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const tmp = mkdtempSync(join(tmpdir(), 'blis-moe-parity-'));
const RUNS = MOE_PARITY_RUNS;
const BASE = MOE_BASE;

describe.each(RUNS)('fidelity to BLIS HEAD, MoE run: $name', (run) => {
  const reference = loadReference(run);

  it('matches every request and the aggregate through simulate()', () => {
    const c = compareMoERun(run);
    expect(isExactMatch(c), formatComparison(c)).toBe(true);
    expect(c.total).toBe(1000);
  });

  it('matches through `blis run` with BLIS`s command line', () => {
    const resultsPath = join(tmp, `${run.name}.json`);
    const args = ['run', ...MOE_BASE_ARGS, ...run.args, '--results-path', resultsPath];
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const file = JSON.parse(readFileSync(resultsPath, 'utf8')) as { requests: RequestRecord[] };
    const c = compareRun(run.name, reference, file.requests, JSON.parse(r.stdout));
    expect(isExactMatch(c), formatComparison(c)).toBe(true);
  });
});

describe('what the parallelism changes, against BLIS HEAD', () => {
  it('the runs differ from each other: each flag moves the result', () => {
    const e2e = RUNS.map((run) => loadReference(run).result.e2e_mean_ms);
    expect(new Set(e2e).size).toBe(RUNS.length);
  });

  it('expert parallelism alone does not change a step (BLIS and vLLM: the same bytes, FLOPs and collectives)', () => {
    const on = simulate({ ...BASE, tp: 2, dp: 2, enableExpertParallel: true });
    const off = simulate({ ...BASE, tp: 2, dp: 2 });
    expect(JSON.stringify(off)).toBe(JSON.stringify(on));
  });
});
