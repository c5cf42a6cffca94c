import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { openAzureTrace, openMooncakeTrace, openTraceV2 } from '@blis/workload';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mooncakeSharedBlocks } from '../src/block-hashes.js';
import { azureTraceArb, drain, mooncakeTraceArb, traceV2Arb } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// `sharedPrefixBlocks` (which leading blocks other requests may carry) as the trace sources
// state it: every block past it must hash content no other request of the trace has. The spec
// sources are checked on whole clusters in cluster/test/shared-prefix-blocks.test.ts.

const dir = mkdtempSync(join(tmpdir(), 'blis-shared-blocks-'));
let n = 0;
const write = (ext: string, text: string): string => {
  const p = join(dir, `t-${n++}.${ext}`);
  writeFileSync(p, text);
  return p;
};

/** Blocks past each request's shared ones that another request also carries (none expected). */
function sharedOwnBlocks(reqs: readonly RequestSpec[]): string[] {
  const holders = new Map<number, Set<number>>();
  reqs.forEach((r, i) => {
    for (let k = 0; k < r.blockHashes.length; k++) {
      const h = r.blockHashes[k];
      holders.set(h, (holders.get(h) ?? new Set()).add(i));
    }
  });
  const out: string[] = [];
  reqs.forEach((r, i) => {
    for (let k = r.sharedPrefixBlocks ?? r.blockHashes.length; k < r.blockHashes.length; k++)
      if ((holders.get(r.blockHashes[k])?.size ?? 0) > 1) out.push(`request ${i} block ${k} (shared: ${r.sharedPrefixBlocks})`);
  });
  return out;
}

describe('sharedPrefixBlocks of the trace sources', () => {
  it('Azure: nothing is shared, and no block past 0 is another request’s', () => {
    fc.assert(
      fc.property(azureTraceArb(), (trace) => {
        const reqs = drain(openAzureTrace(write('csv', trace.text)));
        expect(reqs.every((r) => r.sharedPrefixBlocks === 0)).toBe(true);
        expect(sharedOwnBlocks(reqs)).toEqual([]);
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it('Mooncake: the blocks inside the listed hash ids may be shared, the rest are the row’s own', () => {
    let own = 0;
    fc.assert(
      fc.property(mooncakeTraceArb(), (trace) => {
        const reqs = drain(openMooncakeTrace(write('jsonl', trace.text)));
        for (const r of reqs) {
          expect(r.sharedPrefixBlocks).toBeTypeOf('number');
          own += r.blockHashes.length - (r.sharedPrefixBlocks as number);
        }
        expect(sharedOwnBlocks(reqs)).toEqual([]);
      }),
      { numRuns: propertyRuns(60) },
    );
    expect(own).toBeGreaterThan(0);
  });

  it('Mooncake, by hand: 16-token blocks over two listed 512-token ids', () => {
    // Blocks 0-63 lie inside ids 0 and 1 (tokens 0-1023); block 64 starts past them.
    expect(mooncakeSharedBlocks([7, 9], 2000, 16)).toBe(64);
    // A block straddling the end of the listed ids is the request's own.
    expect(mooncakeSharedBlocks([7], 600, 100)).toBe(5);
    expect(mooncakeSharedBlocks([], 600, 16)).toBe(0);
    expect(mooncakeSharedBlocks([1, 2, 3], 100, 16)).toBe(6);
  });

  it('TraceV2: request ids come from the file, so the source does not say', () => {
    fc.assert(
      fc.property(traceV2Arb(), (trace) => {
        const stem = join(dir, `v2-${n++}`);
        writeFileSync(`${stem}.yaml`, trace.header);
        writeFileSync(`${stem}.csv`, trace.text);
        expect(drain(openTraceV2(`${stem}.yaml`)).every((r) => r.sharedPrefixBlocks === undefined)).toBe(true);
      }),
      { numRuns: propertyRuns(20) },
    );
  });
});
