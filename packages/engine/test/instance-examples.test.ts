import type { PriorityPolicy } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import { ArrayRequestSource, makeRequestSpec, runInstance } from '../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from './drive.js';

// Hand-computed single-instance scenarios. Every expected number below is derived in the
// comments from the rules of docs/engine-semantics.md, never read off a run.

describe('TTFT and E2E of one request on an idle instance', () => {
  it('is queueing + prefill step + alpha2, with only the summed step time truncated', () => {
    // alpha = [100, 2, 5], beta = [1000.5, 0.5, 60.7]; 101-token prompt, 4 output tokens, arrives at 1000.
    //   queueing  = trunc(100 + 2 * 101)            = 302  -> queued (and first step) at 1302
    //   prefill   = trunc(1000.5 + 0.5 * 101)       = 1051 (truncating each term would give 1050)
    //   decode    = trunc(1000.5 + 60.7)            = 1061
    //   TTFT      = 302 + 1051 + 5                  = 1358
    //   3 decode steps (the first token counts): ITL = 1061 + 5 = 1066 each
    //   E2E       = 1358 + 3 * 1066                 = 4556; last step ends at 1302 + 1051 + 3 * 1061 = 5536
    const config = instanceConfig(blackbox([100, 2, 5], [1000.5, 0.5, 60.7]));
    const spec = makeRequestSpec({ index: 0, arrivalUs: 1000, inputTokens: 101, outputTokens: 4 });
    const { outcomes, steps, instance } = drive(config, [spec]);
    const o = outcomes.get(0)!;
    expect(o.enqueuedAt).toBe(1302);
    expect(o.scheduledAt).toBe(1302);
    expect(o.schedulingDelay).toBe(302);
    expect(o.ttft).toBe(1358);
    expect(o.itlMean).toBe(1066);
    expect(o.e2e).toBe(4556);
    expect(o.completedAt).toBe(5536);
    expect(steps.map((s) => s.stepTime)).toEqual([1051, 1061, 1061, 1061]);
    expect(steps.map((s) => s.start)).toEqual([1302, 2353, 3414, 4475]);
    expect(instance.metrics.itlEntries).toEqual(new Map([[1066, 3]]));
    expect(instance.kv.usedBlocks).toBe(0);
  });

  it('completes a one-token request at the end of its prefill', () => {
    // alpha = [100, 2, 5], beta = [1000, 3, 50]: queueing 100 + 2 * 100 = 300, prefill 1000 + 300 = 1300.
    const config = instanceConfig(blackbox([100, 2, 5], [1000, 3, 50]));
    const { outcomes, steps } = drive(config, [makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 100, outputTokens: 1 })]);
    const o = outcomes.get(0)!;
    expect(o.ttft).toBe(300 + 1300 + 5);
    expect(o.e2e).toBe(o.ttft);
    expect(o.itlCount).toBe(0);
    expect(steps).toHaveLength(1);
  });
});

describe('an instance that drained its batch', () => {
  it('is idle from the start of its last step: a request queued meanwhile starts a step at once (BLIS)', () => {
    // alpha = 0, beta = [1000, 1, 10]. R0 (100 tokens, 1 output) runs 0-1100 and leaves nothing
    // behind, so no step is pending after it. R1 (50 tokens) is queued at 500 and starts a step
    // at 500, not at 1100: 500 + 1000 + 50 = 1550, TTFT 1050. The Go BLIS does the same, and the
    // reference runs depend on it (waiting for 1100 moves 17 of the 2,000 requests of azurecode2k-1).
    const config = instanceConfig(blackbox([0, 0, 0], [1000, 1, 10]));
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 100, outputTokens: 1 }),
      makeRequestSpec({ index: 1, arrivalUs: 500, inputTokens: 50, outputTokens: 1 }),
    ];
    const { steps, outcomes } = drive(config, specs);
    expect(steps.map((s) => [s.start, s.stepTime])).toEqual([
      [0, 1100],
      [500, 1050],
    ]);
    expect(outcomes.get(1)!.ttft).toBe(1050);
  });

  it('runs steps back to back while requests remain', () => {
    // Same two requests, but R0 has 3 output tokens: it is still running at 500, so R1 joins the
    // step that starts when R0's prefill ends (1100): 1000 + 50 + 10 = 1060.
    const config = instanceConfig(blackbox([0, 0, 0], [1000, 1, 10]));
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 100, outputTokens: 3 }),
      makeRequestSpec({ index: 1, arrivalUs: 500, inputTokens: 50, outputTokens: 1 }),
    ];
    const { steps, outcomes } = drive(config, specs);
    expect(steps.map((s) => [s.start, s.stepTime])).toEqual([
      [0, 1100],
      [1100, 1060],
      [2160, 1010],
    ]);
    expect(outcomes.get(1)!.ttft).toBe(1100 + 1060 - 500);
  });

  it('lets a request queued at the tick a step starts join that step', () => {
    // R1 arrives (alpha = 0: is queued) at 1100, the tick R0's second step starts; queued events
    // run before step events at equal ticks, so R1 is admitted at 1100.
    const config = instanceConfig(blackbox([0, 0, 0], [1000, 1, 10]));
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 100, outputTokens: 3 }),
      makeRequestSpec({ index: 1, arrivalUs: 1100, inputTokens: 50, outputTokens: 1 }),
    ];
    const { log, outcomes } = drive(config, specs);
    expect(log.find((e) => e.kind === 'scheduled' && e.req === 1)?.t).toBe(1100);
    expect(outcomes.get(1)!.schedulingDelay).toBe(0);
    expect(outcomes.get(1)!.ttft).toBe(1060);
  });
});

describe('chunked prefill of a 5,000-token prompt', () => {
  // alpha = [100, 2, 5] -> queueing 100 + 2 * 5000 = 10100; beta = [1000, 3, 50] -> a prefill
  // step of n tokens takes 1000 + 3n. One output token, so the request ends with its prefill.
  const latency = blackbox([100, 2, 5], [1000, 3, 50]);
  const spec = makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 5000, outputTokens: 1 });

  const cases = [
    // The 2048-token budget chunks alone: 2048 + 2048 + 904 -> 7144 + 7144 + 3712 = 18000.
    { threshold: 0, chunks: [2048, 2048, 904], ttft: 10100 + 18000 + 5 },
    // A threshold above the budget changes nothing.
    { threshold: 3000, chunks: [2048, 2048, 904], ttft: 10100 + 18000 + 5 },
    // 1000-token chunks: 5 steps of 4000.
    { threshold: 1000, chunks: [1000, 1000, 1000, 1000, 1000], ttft: 10100 + 20000 + 5 },
    // 1500-token chunks: 3 * 5500 + (1000 + 3 * 500) = 19000.
    { threshold: 1500, chunks: [1500, 1500, 1500, 500], ttft: 10100 + 19000 + 5 },
  ];
  for (const c of cases) {
    it(`takes ${c.chunks.length} steps with long-prefill-token-threshold ${c.threshold}`, () => {
      const config = instanceConfig(latency, { longPrefillTokenThreshold: c.threshold, maxNumBatchedTokens: 2048 });
      const { outcomes, steps, instance } = drive(config, [spec]);
      expect(steps.map((s) => s.prefillTokens)).toEqual(c.chunks);
      expect(steps.map((s) => s.decodeTokens)).toEqual(c.chunks.map(() => 0));
      expect(outcomes.get(0)!.ttft).toBe(c.ttft);
      expect(instance.metrics.steps).toBe(c.chunks.length);
    });
  }

  it('lets a request queued behind the prompt share the budget only in the final chunk', () => {
    // A (5000) and B (100) are queued at the same tick; A takes the whole budget twice, then
    // A's last 904 tokens and B's 100 go in one step: 1000 + 3 * 1004 = 4012.
    const config = instanceConfig(latency);
    const b = makeRequestSpec({ index: 1, arrivalUs: 0, inputTokens: 100, outputTokens: 1 });
    // B's queueing is shorter (300), so hold it back to be queued at A's tick, 10100.
    const { outcomes, steps, log } = drive(config, [spec, { ...b, arrivalUs: 9800 }]);
    expect(steps.map((s) => s.prefillNew)).toEqual([[2048], [2048], [904, 100]]);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => [e.req, e.t])).toEqual([
      [0, 10100],
      [1, 10100 + 7144 * 2],
    ]);
    expect(outcomes.get(1)!.ttft).toBe(10100 + 7144 * 2 + 4012 + 5 - 9800);
  });
});

describe('KV pressure (6 blocks of 16 tokens)', () => {
  // alpha = 0, beta = [1000, 1, 10]: a step costs 1000 + prefill tokens + 10 per decoding request.
  // A: 44-token prompt (3 blocks, 12 tokens in the last), 10 output tokens, arrives at 0.
  // B: 40-token prompt (3 blocks, 8 in the last), 20 output tokens, arrives at 0.
  // C: 16-token prompt (1 block), 2 output tokens, arrives at 500.
  const latency = blackbox([0, 0, 0], [1000, 1, 10]);
  const specs = [
    makeRequestSpec({ index: 0, id: 'A', arrivalUs: 0, inputTokens: 44, outputTokens: 10, blockHashes: promptHashes(44, 16, 0, 0, 0) }),
    makeRequestSpec({ index: 1, id: 'B', arrivalUs: 0, inputTokens: 40, outputTokens: 20, blockHashes: promptHashes(40, 16, 0, 0, 1) }),
    makeRequestSpec({ index: 2, id: 'C', arrivalUs: 500, inputTokens: 16, outputTokens: 2, blockHashes: promptHashes(16, 16, 0, 0, 2) }),
  ];

  it('preempts the newest running request, admits nothing in that step, and readmits the victim first with its cached blocks', () => {
    const { log, steps, outcomes, instance } = drive(instanceConfig(latency, { totalKVBlocks: 6 }), specs);
    // Step 1 (t=0): A and B admitted, all 6 blocks used; 1000 + 84 = 1084.
    // Steps 2-5: both decode (1020 each). C needs a block and none is free: it waits.
    // Step 6 (t=5164): A's last block is full and there is no free block: B, the newest running
    //   request, is evicted (to the front of the queue) and A gets B's partial block. Two blocks
    //   are free and C needs one, but a step that preempted admits nobody: A alone, 1010.
    // Steps 7-10: B (head of queue) needs its 2 cached blocks + 1 new, 2 free: does not fit,
    //   and C may not pass it. A finishes its 9th decode in step 10 (ends 10214).
    // Step 11 (t=10214): B readmitted with 2 cache hits (only 8 prompt tokens recomputed, from
    //   token 0 of its prompt on), then C: 1000 + 8 + 16 = 1024.
    // Step 12: B and C decode (1020); C is done. Steps 13-30: B alone (1010 each), its 19
    // decode steps all over again.
    expect(steps.map((s) => s.start).slice(0, 14)).toEqual([0, 1084, 2104, 3124, 4144, 5164, 6174, 7184, 8194, 9204, 10214, 11238, 12258, 13268]);
    expect(steps.map((s) => s.stepTime).slice(0, 14)).toEqual([1084, 1020, 1020, 1020, 1020, 1010, 1010, 1010, 1010, 1010, 1024, 1020, 1010, 1010]);
    expect(steps).toHaveLength(30);
    expect(log.filter((e) => e.kind === 'preempted')).toEqual([{ t: 5164, kind: 'preempted', req: 1 }]);
    expect(log.filter((e) => e.kind === 'scheduled')).toEqual([
      { t: 0, kind: 'scheduled', req: 0, progress: 0, hits: 0 },
      { t: 0, kind: 'scheduled', req: 1, progress: 0, hits: 0 },
      { t: 10214, kind: 'scheduled', req: 1, progress: 32, hits: 2 },
      { t: 10214, kind: 'scheduled', req: 2, progress: 0, hits: 0 },
    ]);
    // In the preempting step C would have fitted.
    const s6 = steps[5];
    expect(s6.freeBlocks).toBe(2);
    expect(s6.queued).toBe(2);
    expect(s6.running).toBe(1);
    expect(steps[10].prefillNew).toEqual([8, 16]);

    const a = outcomes.get(0)!;
    expect(a.ttft).toBe(1084);
    expect(a.e2e).toBe(1084 + 4 * 1020 + 5 * 1010);
    expect(a.completedAt).toBe(10214);
    expect(a.preemptions).toBe(0);

    const b = outcomes.get(1)!;
    // B keeps the first token it delivered before the preemption.
    expect(b.ttft).toBe(1084);
    expect(b.preemptions).toBe(1);
    expect(b.firstScheduledAt).toBe(0);
    expect(b.schedulingDelay).toBe(10214);
    // All 19 decode steps again after the restart; E2E is the real completion time.
    expect(b.itlCount).toBe(19);
    expect(b.itlMean).toBe((1020 + 18 * 1010) / 19);
    expect(b.completedAt).toBe(12258 + 18 * 1010);
    expect(b.e2e).toBe(12258 + 18 * 1010);

    const c = outcomes.get(2)!;
    expect(c.ttft).toBe(11238 - 500);
    expect(c.e2e).toBe(11238 - 500 + 1020);
    expect(c.schedulingDelay).toBe(10214 - 500);

    const m = instance.metrics;
    expect(m.completed).toBe(3);
    expect(m.preemptions).toBe(1);
    expect(m.batchKvAllocationFailures).toBe(1);
    expect(m.steps).toBe(30);
    // Failed allocations seen by the cache: C in steps 2-5, A in step 6, B in steps 7-10.
    expect(instance.kv.stats().allocationFailures).toBe(9);
    expect(instance.kv.usedBlocks).toBe(0);
  });

  it('evicts the least urgent request instead under the priority preemption policy', () => {
    // Same workload; A scores 0 and B 5. In step 6 A's allocation fails and A itself is the least
    // urgent, so A is evicted; the loop stops there (B gets no token), nothing is admitted, and
    // the step is empty: beta0 = 1000.
    const priority: PriorityPolicy = { name: 'test', priority: (r) => (r.index === 0 ? 0 : 5) };
    const config = instanceConfig(latency, { totalKVBlocks: 6, preemptionPolicy: 'priority', priority });
    const { log, steps, outcomes } = drive(config, specs);
    const preempted = log.filter((e) => e.kind === 'preempted');
    expect(preempted[0]).toEqual({ t: 5164, kind: 'preempted', req: 0 });
    expect(preempted.every((e) => e.req === 0)).toBe(true);
    expect(steps[5]).toMatchObject({ start: 5164, stepTime: 1000, prefillTokens: 0, decodeTokens: 0 });
    // Step 7 (t=6164): B decodes; A, at the front of the queue, comes back with 2 cached blocks
    // and recomputes 12 prompt tokens: 1000 + 12 + 10.
    expect(steps[6]).toMatchObject({ start: 6164, stepTime: 1022, prefillNew: [12], decodeTokens: 1 });
    expect(log.find((e) => e.kind === 'scheduled' && e.t === 6164)).toEqual({ t: 6164, kind: 'scheduled', req: 0, progress: 32, hits: 2 });
    expect(outcomes.get(1)!.preemptions).toBe(0);
    expect(outcomes.size).toBe(3);
  });

  it('under priority preemption, still serves the requests after a victim that ran ahead of them', () => {
    // 6 blocks. A (least urgent): 17-token prompt; B: 31; C: 20; all arrive at 0 and fill the
    // cache exactly (2 blocks each). Step 1 (t=0): 1000 + 68 = 1068. Step 2 (t=1068): three
    // decodes; B's token fills its second block: 1000 + 30 = 1030. Step 3 (t=2098): B needs a
    // new block and none is free; A, ahead of B in the batch, is the victim. B and C both still
    // decode (vLLM steps its index back when the victim was already served): 1000 + 20.
    const priority: PriorityPolicy = { name: 'test', priority: (r) => (r.index === 0 ? 0 : 5) };
    const config = instanceConfig(latency, { totalKVBlocks: 6, preemptionPolicy: 'priority', priority });
    const three = [
      makeRequestSpec({ index: 0, id: 'A', arrivalUs: 0, inputTokens: 17, outputTokens: 8, blockHashes: promptHashes(17, 16, 0, 0, 10) }),
      makeRequestSpec({ index: 1, id: 'B', arrivalUs: 0, inputTokens: 31, outputTokens: 8, blockHashes: promptHashes(31, 16, 0, 0, 11) }),
      makeRequestSpec({ index: 2, id: 'C', arrivalUs: 0, inputTokens: 20, outputTokens: 8, blockHashes: promptHashes(20, 16, 0, 0, 12) }),
    ];
    const { log, steps, outcomes } = drive(config, three);
    expect(steps.slice(0, 3).map((s) => [s.start, s.stepTime, s.decodeTokens])).toEqual([
      [0, 1068, 0],
      [1068, 1030, 3],
      [2098, 1020, 2],
    ]);
    expect(log.find((e) => e.kind === 'preempted')).toEqual({ t: 2098, kind: 'preempted', req: 0 });
    expect(outcomes.size).toBe(3);
  });

  it('with room for everyone, never preempts', () => {
    const { instance, outcomes } = drive(instanceConfig(latency, { totalKVBlocks: 12 }), specs);
    expect(instance.metrics.preemptions).toBe(0);
    expect(outcomes.get(1)!.e2e).toBe(outcomes.get(1)!.ttft + 19 * outcomes.get(1)!.itlMean);
  });
});

describe('unservable requests', () => {
  it('drops a request whose prompt plus generated tokens can never fit in the cache', () => {
    // 5 blocks of 16 = 80 tokens. The KV footprint is the prompt plus every output token but the last.
    const latency = blackbox([10, 0, 0], [100, 1, 1]);
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 81, outputTokens: 1 }), // 81: dropped
      makeRequestSpec({ index: 1, arrivalUs: 1, inputTokens: 70, outputTokens: 11 }), // 80: fits
      makeRequestSpec({ index: 2, arrivalUs: 2, inputTokens: 70, outputTokens: 12 }), // 81: dropped
      makeRequestSpec({ index: 3, arrivalUs: 3, inputTokens: 80, outputTokens: 1 }), // 80: fits
    ];
    const { log, instance, outcomes } = drive(instanceConfig(latency, { totalKVBlocks: 5 }), specs);
    // Dropped when they would enter the wait queue, after the queueing delay.
    expect(log.filter((e) => e.kind === 'dropped')).toEqual([
      { t: 10, kind: 'dropped', req: 0 },
      { t: 12, kind: 'dropped', req: 2 },
    ]);
    expect(instance.metrics.dropped).toBe(2);
    expect(instance.metrics.completed).toBe(2);
    expect([...outcomes.keys()].sort()).toEqual([1, 3]);
    expect(instance.metrics.preemptions).toBe(0);
  });

  it('is also what runInstance reports (INV-1: injected = completed + dropped)', () => {
    const latency = blackbox([0, 0, 0], [100, 1, 1]);
    const specs = Array.from({ length: 10 }, (_, i) => makeRequestSpec({ index: i, arrivalUs: i * 10, inputTokens: 10 + i * 10, outputTokens: 5 }));
    const { instance, injected } = runInstance(instanceConfig(latency, { totalKVBlocks: 4 }), new ArrayRequestSource(specs));
    // 64 tokens of KV: footprints 14, 24, ..., 104; those above 64 (i >= 6) are dropped.
    expect(injected).toBe(10);
    expect(instance.metrics.dropped).toBe(4);
    expect(instance.metrics.completed).toBe(6);
  });
});

describe('prefix groups', () => {
  const latency = blackbox([0, 0, 0], [1000, 1, 10]);

  it('hits the blocks another request of the group allocated earlier in the same step', () => {
    // Three prompts of group 0, queued at the same tick. R0: 80 tokens, the first 64 shared.
    // R1: 80 tokens, same 64-token prefix: 4 hits, 16 new tokens. R2: 40 tokens, all of it
    // prefix: 2 full blocks hit, 8 tokens new. One step: 1000 + 80 + 16 + 8 = 1104.
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 80, outputTokens: 1, blockHashes: promptHashes(80, 16, 4, 0, 0) }),
      makeRequestSpec({ index: 1, arrivalUs: 0, inputTokens: 80, outputTokens: 1, blockHashes: promptHashes(80, 16, 4, 0, 1) }),
      makeRequestSpec({ index: 2, arrivalUs: 0, inputTokens: 40, outputTokens: 1, blockHashes: promptHashes(40, 16, 4, 0, 2) }),
    ];
    const { steps, log, outcomes, instance } = drive(instanceConfig(latency), specs);
    expect(steps).toHaveLength(1);
    expect(steps[0].prefillNew).toEqual([80, 16, 8]);
    expect(steps[0].stepTime).toBe(1104);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => e.hits)).toEqual([0, 4, 2]);
    expect(outcomes.get(1)!.cacheHitBlocks).toBe(4);
    // 6 blocks reused: 4 by R1, 2 by R2.
    expect(instance.kv.stats().cacheHits).toBe(6);
  });

  it('hits only the blocks already allocated when the first prompt is prefilled in chunks', () => {
    // Threshold 32: R0 allocates only its first 2 blocks in step 1, so R1 (same 64-token prefix)
    // hits 2 blocks and prefills the next 32 tokens itself.
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 80, outputTokens: 1, blockHashes: promptHashes(80, 16, 4, 0, 0) }),
      makeRequestSpec({ index: 1, arrivalUs: 0, inputTokens: 80, outputTokens: 1, blockHashes: promptHashes(80, 16, 4, 0, 1) }),
    ];
    const { steps, log } = drive(instanceConfig(latency, { longPrefillTokenThreshold: 32 }), specs);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => e.hits)).toEqual([0, 2]);
    // R0: 32, 32, 16; R1: 32 (tokens 32-63), then 16.
    expect(steps.map((s) => s.prefillNew)).toEqual([
      [32, 32],
      [32, 16],
      [16],
    ]);
  });

  it('hits freed blocks of a finished request of the group in a later step', () => {
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 80, outputTokens: 2, blockHashes: promptHashes(80, 16, 4, 0, 0) }),
      makeRequestSpec({ index: 1, arrivalUs: 1_000_000, inputTokens: 70, outputTokens: 2, blockHashes: promptHashes(70, 16, 4, 0, 1) }),
    ];
    const { log, steps } = drive(instanceConfig(latency, { totalKVBlocks: 10 }), specs);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => [e.t, e.hits])).toEqual([
      [0, 0],
      [1_000_000, 4],
    ]);
    expect(steps.find((s) => s.start === 1_000_000)!.prefillNew).toEqual([70 - 64]);
  });
});
