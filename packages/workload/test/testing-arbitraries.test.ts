// The ./testing arbitraries, tested by use: whatever they generate, the readers accept and read
// back as the arbitraries say.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAzureTrace, openMooncakeTrace, openTraceV2, parseWorkloadSpec } from '@blis/workload';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arraySource, azureTraceArb, drain, mooncakeTraceArb, requestStreamArb, specArb, traceV2Arb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'blis-testing-'));
let n = 0;
const write = (ext: string, text: string) => {
  const path = join(dir, `t${n++}.${ext}`);
  writeFileSync(path, text);
  return path;
};
const shape = (reqs: { arrivalUs: number; inputTokens: number; outputTokens: number }[]) =>
  reqs.map((r) => ({ arrivalUs: r.arrivalUs, inputTokens: r.inputTokens, outputTokens: r.outputTokens }));

describe('@blis/workload/testing', () => {
  it('specArb: every spec validates', () => {
    fc.assert(
      fc.property(specArb({ growthNone: true, maxRequests: 20 }), (spec) => {
        expect(() => parseWorkloadSpec(spec)).not.toThrow();
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('requestStreamArb: dense indices, ordered arrivals, deadlines after arrival, prefix groups share blocks', () => {
    fc.assert(
      fc.property(requestStreamArb({ maxRequests: 30 }), (reqs) => {
        const drained = drain(arraySource(reqs));
        expect(drained).toEqual(reqs);
        reqs.forEach((r, i) => {
          expect(r.index).toBe(i);
          if (i > 0) expect(r.arrivalUs).toBeGreaterThanOrEqual(reqs[i - 1].arrivalUs);
          if (r.deadlineUs > 0) expect(r.deadlineUs).toBeGreaterThan(r.arrivalUs);
          expect(r.blockHashes.length).toBe(Math.floor(r.inputTokens / 16));
        });
        const [a, b] = reqs.filter((r) => r.prefixGroup === 'g1' && r.sessionId === '' && r.prefixLength === 256 && r.inputTokens >= 256);
        if (a !== undefined && b !== undefined) expect(a.blockHashes[0]).toBe(b.blockHashes[0]);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('azureTraceArb: openAzureTrace reads back the generated rows', () => {
    fc.assert(
      fc.property(azureTraceArb(), (trace) => {
        expect(shape(drain(openAzureTrace(write('csv', trace.text))))).toEqual(trace.rows);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('mooncakeTraceArb: openMooncakeTrace reads back the generated rows', () => {
    fc.assert(
      fc.property(mooncakeTraceArb(), (trace) => {
        expect(shape(drain(openMooncakeTrace(write('jsonl', trace.text))))).toEqual(trace.rows);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('traceV2Arb: openTraceV2 reads back the generated rows, prefixes included', () => {
    fc.assert(
      fc.property(traceV2Arb(), (trace) => {
        const stem = join(dir, `v2-${n++}`);
        writeFileSync(`${stem}.yaml`, trace.header);
        writeFileSync(`${stem}.csv`, trace.text);
        const reqs = drain(openTraceV2(`${stem}.yaml`));
        expect(shape(reqs)).toEqual(trace.rows);
        expect(reqs.map((r) => r.prefixGroup)).toEqual(trace.records.map((r) => r.prefix_group));
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});
