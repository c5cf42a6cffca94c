import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequestSource, loadWorkloadSpec } from '@blis/workload';
import { describe, expect, it } from 'vitest';
import { csvRows, expectBlisRun } from './blis-run-compare.js';

// Issue 40: cohorts expanded into clients and lifecycle windows as BLIS HEAD expands them (a
// diurnal cohort, a spike cohort and a drain cohort with per-member prefixes, beside a plain
// client). The references are BLIS f90a1e3a runs (fixtures/blis-head-cohorts/README.md).

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-cohorts');
const tmp = mkdtempSync(join(tmpdir(), 'blis-cohorts-'));

describe("cohorts, against BLIS HEAD's runs", () => {
  it('diurnal + spike + drain: the same 800 requests, each simulated to the same result', async () => {
    await expectBlisRun(join(FIXTURES, 'cohorts.yaml'), [], FIXTURES, 'cohorts', join(tmp, 'cohorts'));
  });

  it('with a spike trace_rate (per-window generation): the same arrivals, clients and lengths', () => {
    const reference = csvRows(readFileSync(join(FIXTURES, 'cohorts-per-window-generated.csv'), 'utf8'));
    const source = createRequestSource(loadWorkloadSpec(join(FIXTURES, 'cohorts-per-window.yaml')));
    const ours = [];
    for (let r = source.next(); r !== undefined; r = source.next()) ours.push(r);
    expect(ours).toHaveLength(reference.length);
    // BLIS's per-window requests lose their client's prefix group (docs/workloads.md); ours keep
    // it, so the prompt here is BLIS's own tokens plus the group's prefix.
    expect(ours.map((r) => [r.arrivalUs, r.clientId, r.inputTokens - r.prefixLength, r.outputTokens])).toEqual(
      reference.map((x) => [Number(x.arrival_time_us), x.client_id, Number(x.input_tokens), Number(x.output_tokens)]),
    );
    expect(ours.some((r) => r.prefixLength > 0)).toBe(true);
  });
});
