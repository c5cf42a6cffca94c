// Properties of workloads: generated WorkloadSpec v2 objects and traces, read by the library.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createRequestSource, openAzureTrace, parseWorkloadSpec } from '@blis/workload';
import { azureTraceArb, drain, specArb } from '@blis/workload/testing';

describe('workload specs', () => {
  it('every generated spec validates, and yields exactly num_requests requests, in arrival order, with dense indices', () => {
    // Multi-turn sessions and cohorts are left out: as in BLIS, a session's later rounds come on
    // top of num_requests, as the simulation completes the earlier ones.
    const openLoop = specArb({ maxRequests: 60 }).filter((s) => (s.cohorts ?? []).length === 0 && !(s.clients ?? []).some((c) => c.reasoning?.multi_turn !== undefined));
    fc.assert(
      fc.property(openLoop, (input) => {
        const spec = parseWorkloadSpec(input);
        const requests = drain(createRequestSource(spec));
        assert.equal(requests.length, spec.num_requests);
        requests.forEach((r, i) => {
          assert.equal(r.index, i);
          if (i > 0) assert.ok(r.arrivalUs >= requests[i - 1].arrivalUs);
        });
      }),
      { numRuns: 50 },
    );
  });
});

describe('Azure traces', () => {
  it('a generated trace reads back row for row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'property-suite-'));
    try {
      fc.assert(
        fc.property(azureTraceArb({ maxRows: 30 }), (trace) => {
          const file = join(dir, 'trace.csv');
          writeFileSync(file, trace.text);
          const got = drain(openAzureTrace(file)).map((r) => ({ arrivalUs: r.arrivalUs, inputTokens: r.inputTokens, outputTokens: r.outputTokens }));
          assert.deepEqual(got, trace.rows);
        }),
        { numRuns: 50 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
