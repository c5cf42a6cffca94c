import { join } from 'node:path';
import { INSTANCE_DEFAULTS, type InstanceConfig, type RequestSpec, runInstance } from '@blis/engine';
import type { LatencyModel, StepBatch } from '@blis/latency';
import { createRequestSource, openTraceV2, parseWorkloadSpec, writeTraceV2 } from '@blis/workload';
import { requestBlockHashes } from '@blis/workload/internal';
import fc from 'fast-check';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { Recording } from './recording-source.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Issue #13, rule 3: a session's next round hits the blocks its previous round's answer filled,
// not only its previous prompt's. vLLM caches every full block, generated ones included.

const LATENCY: LatencyModel = {
  kind: 'blackbox',
  stepTime: (b: StepBatch) => Math.max(1, Math.trunc(1000 + b.prefillTokens + 10 * b.decodeTokens)),
  queueingTime: () => 0,
  outputTokenTime: () => 0,
  postDecodeFixedOverhead: () => 0,
};

const instance = (totalKVBlocks: number, blockSizeTokens = 16): InstanceConfig => ({
  ...INSTANCE_DEFAULTS,
  index: 0,
  id: 'instance_0',
  latency: LATENCY,
  totalKVBlocks,
  blockSizeTokens,
  // Checks the KV cache's consistency (checkConsistency) after every step.
  checkInvariants: true,
});


function hitsByRequest(res: ReturnType<typeof runInstance>): Map<number, number> {
  const m = res.instance.metrics;
  const hits = new Map<number, number>();
  for (let i = 0; i < m.requestIndex.length; i++) hits.set(m.requestIndex.get(i), m.cacheHitBlocks.get(i));
  return hits;
}

function bySession(reqs: readonly RequestSpec[]): RequestSpec[][] {
  const s = new Map<string, RequestSpec[]>();
  for (const r of reqs) s.set(r.sessionId, [...(s.get(r.sessionId) ?? []), r]);
  return [...s.values()];
}

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });

describe('multi-turn sessions reuse the blocks their previous round generated', () => {
  it('example: 40-token turns, 30-token answers, 16-token blocks', () => {
    // Round 0: 40-token prompt (2 full blocks), 30 output tokens of which 29 are stored: 69
    // tokens, 4 full blocks. Blocks 0-1 are registered by the prefill; block 2 (prompt tokens
    // 32-39 + generated 40-47) and block 3 (generated 48-63) by decode.
    // Round 1: 40 + 30 + 40 = 110 tokens, 6 full blocks; it hits 4 (before #13: 2, the prompt's).
    // Round 2: 110 + 30 + 40 = 180 tokens; round 1 stored 139 tokens, 8 full blocks: 8 hits.
    const spec = parseWorkloadSpec({
      version: '2',
      aggregate_rate: 1,
      // One placement: the first session's round 0; the session then sends its 3 rounds.
      num_requests: 1,
      clients: [
        {
          id: 'c',
          rate_fraction: 1,
          input_distribution: constant(40),
          output_distribution: constant(30),
          reasoning: { multi_turn: { max_rounds: 3, think_time_us: 1000, context_growth: 'accumulate' } },
        },
      ],
    });
    const rec = new Recording(createRequestSource(spec));
    const res = runInstance(instance(100), rec);
    expect(rec.emitted.map((r) => [r.inputTokens, r.blockHashes.length, r.kvBlockHashes?.length])).toEqual([
      [40, 2, 4],
      [110, 6, 8],
      [180, 11, 13],
    ]);
    const hits = hitsByRequest(res);
    expect(rec.emitted.map((r) => hits.get(r.index))).toEqual([0, 4, 8]);
    // Blocks hit 12 of 2 + 6 + 11 prompt blocks and 2 + 2 + 2 decode blocks: misses are the rest.
    const kv = res.instance.kv.stats();
    expect(kv.cacheHits).toBe(12);
    expect(kv.cacheHits + kv.cacheMisses).toBe(Math.ceil(69 / 16) + Math.ceil(139 / 16) + Math.ceil(209 / 16));
  });

  it('round k+1 hits exactly the full blocks round k stored when nothing is evicted (fast-check)', () => {
    const params = { numRuns: propertyRuns(40), seed: Date.now() | 0 };
    try {
      fc.assert(
        fc.property(
          fc.record({
            seed: fc.integer({ min: 0, max: 1_000_000 }),
            blockSize: fc.constantFrom(1, 4, 16),
            sessions: fc.integer({ min: 1, max: 6 }),
            rounds: fc.integer({ min: 1, max: 4 }),
            prefix: fc.constantFrom(0, 20, 48),
            inputMax: fc.integer({ min: 1, max: 80 }),
            outputMax: fc.integer({ min: 1, max: 60 }),
          }),
          ({ seed, blockSize, sessions, rounds, prefix, inputMax, outputMax }) => {
            const spec = parseWorkloadSpec({
              version: '2',
              seed,
              aggregate_rate: 200,
              num_requests: sessions * rounds,
              clients: [
                {
                  id: 'chat',
                  rate_fraction: 1,
                  ...(prefix > 0 ? { prefix_group: 'sys', prefix_length: prefix } : {}),
                  input_distribution: { type: 'exponential', params: { mean: inputMax / 2, min: 1, max: inputMax } },
                  output_distribution: { type: 'exponential', params: { mean: outputMax / 2, min: 1, max: outputMax } },
                  reasoning: { multi_turn: { max_rounds: rounds, think_time_us: 5000, context_growth: 'accumulate' } },
                },
              ],
            });
            const rec = new Recording(createRequestSource(spec, { blockSizeTokens: blockSize }));
            // Room for every block of every request at once: nothing is ever evicted.
            const res = runInstance(instance(20_000, blockSize), rec);
            expect(res.instance.metrics.completed).toBe(rec.emitted.length);
            const hits = hitsByRequest(res);
            for (const session of bySession(rec.emitted)) {
              for (let k = 1; k < session.length; k++) {
                const prev = session[k - 1];
                const stored = prev.inputTokens + Math.max(prev.outputTokens, 1) - 1;
                expect(hits.get(session[k].index)).toBe(Math.floor(stored / blockSize));
                // The next prompt shares every hash of the previous round's KV.
                const kvPrev = prev.kvBlockHashes!;
                expect(Array.from(session[k].blockHashes).slice(0, kvPrev.length)).toEqual(Array.from(kvPrev));
              }
            }
            res.instance.kv.checkConsistency();
          },
        ),
        params,
      );
    } catch (e) {
      console.error(`session-kv-reuse: fast-check seed ${params.seed}`);
      throw e;
    }
  });

  it('keeps requests outside sessions (and context_growth: none) on prompt hashes only', () => {
    const spec = parseWorkloadSpec({
      version: '2',
      aggregate_rate: 10,
      num_requests: 6,
      clients: [
        { id: 'open', rate_fraction: 1, input_distribution: constant(40), output_distribution: constant(30) },
        {
          id: 'none',
          rate_fraction: 1,
          input_distribution: constant(40),
          output_distribution: constant(30),
          reasoning: { multi_turn: { max_rounds: 2, think_time_us: 1000, context_growth: 'none' } },
        },
      ],
    });
    const src = createRequestSource(spec);
    for (let r = src.next(); r !== undefined; r = src.next()) {
      expect(r.kvBlockHashes).toBeUndefined();
      src.onRequestDone(r, r.arrivalUs, 'completed');
    }
  });
});

describe('TraceV2 session rows', () => {
  it("hash their answers so that the session's next row hits them on replay", () => {
    const spec = parseWorkloadSpec({
      version: '2',
      aggregate_rate: 1,
      // One placement: the first session's round 0; the session then sends its 3 rounds.
      num_requests: 1,
      clients: [
        {
          id: 'c',
          rate_fraction: 1,
          input_distribution: constant(40),
          output_distribution: constant(30),
          reasoning: { multi_turn: { max_rounds: 3, think_time_us: 1_000_000, context_growth: 'accumulate' } },
        },
      ],
    });
    const stem = join(mkdtempSync(join(tmpdir(), 'blis-kvreuse-')), 'sessions');
    writeTraceV2(createRequestSource(spec), `${stem}.yaml`, `${stem}.csv`);
    const rec = new Recording(openTraceV2(`${stem}.csv`));
    const res = runInstance(instance(100), rec);
    // Same rounds as the generated example above (the rows are 1 s apart, far past completion).
    expect(rec.emitted.map((r) => r.inputTokens)).toEqual([40, 110, 180]);
    const hits = hitsByRequest(res);
    expect(rec.emitted.map((r) => hits.get(r.index))).toEqual([0, 4, 8]);
  });

  it('requestBlockHashes: a view of the prompt part, extended over all generated tokens but the last', () => {
    const p = { id: '7', inputTokens: 40, prefixGroup: '', prefixLength: 0, sessionId: 's' };
    const h = requestBlockHashes(p, 25, 16);
    // 40 + 24 = 64 stored tokens: 4 blocks; the prompt's 2 are the same numbers.
    expect(h.kvBlockHashes!.length).toBe(4);
    expect(h.blockHashes.length).toBe(2);
    expect(h.blockHashes.buffer).toBe(h.kvBlockHashes!.buffer);
    expect(Array.from(h.blockHashes)).toEqual(Array.from(h.kvBlockHashes!.subarray(0, 2)));
    expect(requestBlockHashes({ ...p, sessionId: '' }, 25, 16).kvBlockHashes).toBeUndefined();
  });
});
