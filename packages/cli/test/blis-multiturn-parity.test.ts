import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectBlisRun } from './blis-run-compare.js';

// Issue 40: closed-loop multi-turn sessions as BLIS HEAD runs them. BLIS places every round of a
// session open loop when it starts, keeps the first num_requests placements, sends only round 0
// of each session kept, and makes each later round when the previous completes, from a
// generator per session seeded in the sorted order of the session ids. The reference is BLIS
// f90a1e3a (with the patches of fixtures/blis-head-multiturn/README.md) on its own multi-turn
// regression workload: the generated stream (its --trace-output, follow-ups included) and every
// request's simulated result (its --metrics-path) must be ours.

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-multiturn');
const SPEC = join(FIXTURES, 'regression_workload_multiturn.yaml');
const tmp = mkdtempSync(join(tmpdir(), 'blis-multiturn-'));

const RUNS = [
  { name: 'instances-1', flags: [] as string[] },
  { name: 'instances-4-weighted', flags: ['--num-instances', '4', '--routing-policy', 'weighted'] },
];

describe.each(RUNS)("BLIS HEAD's multi-turn regression workload, $name", ({ name, flags }) => {
  it('generates the same requests, follow-up rounds included, and simulates each to the same result', async () => {
    await expectBlisRun(SPEC, flags, FIXTURES, name, join(tmp, name));
  });
});
