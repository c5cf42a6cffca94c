import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectBlisRun } from './blis-run-compare.js';

// Issue 40: closed-loop `concurrency` clients as BLIS HEAD runs them. Each virtual user holds one
// request in flight and sends the next think time after its answer completes; the simulated
// completions drive the arrivals (the cluster hands each completion back to the workload). The
// references are BLIS f90a1e3a runs (fixtures/blis-head-concurrency/README.md): the generated
// stream, every user's later requests included, and every request's simulated result.

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-concurrency');
const tmp = mkdtempSync(join(tmpdir(), 'blis-concurrency-'));

describe('concurrency users, against BLIS HEAD', () => {
  it('two concurrency clients (staggered starts, think time, a shared prefix): the same 400 requests and results', async () => {
    await expectBlisRun(join(FIXTURES, 'users.yaml'), [], FIXTURES, 'users', join(tmp, 'users'));
  });

  it('beside a rate client on 2 instances: users fill what num_requests leaves, with the same results', async () => {
    await expectBlisRun(join(FIXTURES, 'mixed.yaml'), ['--num-instances', '2'], FIXTURES, 'mixed-2', join(tmp, 'mixed'));
  });
});
