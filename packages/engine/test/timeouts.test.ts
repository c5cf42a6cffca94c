import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArrayRequestSource, type RequestOutcome, type RequestSpec, makeRequestSpec, runInstance } from '../src/index.js';
import { blackbox, instanceConfig, promptHashes } from './drive.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Client timeouts (RequestSpec.deadlineUs). As in BLIS, the deadline is armed when the request
// enters the wait queue; one that passed during the alpha queueing delay times out right there
// (its prompt still counts as received). Then it can time out while queued or while running.

/** An in-memory source that records how and when each request left. */
class RecordingSource extends ArrayRequestSource {
  readonly outcomes = new Map<number, { outcome: RequestOutcome; at: number }>();
  onRequestDone(spec: RequestSpec, timeUs: number, outcome: RequestOutcome): void {
    if (this.outcomes.has(spec.index)) throw new Error(`request ${spec.index} left twice`);
    this.outcomes.set(spec.index, { outcome, at: timeUs });
  }
}

// alpha0 = 1000: a request reaches the wait queue 1 ms after it arrives. Steps cost
// 1000 + prompt tokens + 10 per decoding request.
const latency = blackbox([1000, 0, 0], [1000, 1, 10]);
const req = (index: number, arrivalUs: number, inputTokens: number, outputTokens: number, deadlineUs = 0) =>
  makeRequestSpec({ index, arrivalUs, inputTokens, outputTokens, deadlineUs, blockHashes: promptHashes(inputTokens, 16, 0, 0, index) });

describe('a request times out', () => {
  it('before it is queued: at the end of its queueing delay, never scheduled', () => {
    const source = new RecordingSource([req(0, 0, 100, 5, 500)]);
    const { instance } = runInstance(instanceConfig(latency), source);
    expect(source.outcomes.get(0)).toEqual({ outcome: 'timed_out', at: 1000 });
    expect(instance.metrics).toMatchObject({ timedOut: 1, completed: 0, steps: 0, totalInputTokens: 100 });
  });

  it('while queued: at its deadline, leaving the wait queue', () => {
    // One running request at a time: R1 waits behind R0 (prefill 1000-2100, then 49 decode
    // steps of 1010 µs) and gives up at 5000.
    const source = new RecordingSource([req(0, 0, 100, 50), req(1, 0, 100, 1, 5000)]);
    const { instance } = runInstance(instanceConfig(latency, { maxNumSeqs: 1 }), source);
    expect(source.outcomes.get(1)).toEqual({ outcome: 'timed_out', at: 5000 });
    expect(source.outcomes.get(0)).toEqual({ outcome: 'completed', at: 2100 + 49 * 1010 });
    expect(instance.queueDepth).toBe(0);
  });

  it('while running: at its deadline, its KV blocks released', () => {
    const source = new RecordingSource([req(0, 0, 100, 50, 5000)]);
    const { instance } = runInstance(instanceConfig(latency), source);
    expect(source.outcomes.get(0)).toEqual({ outcome: 'timed_out', at: 5000 });
    expect(instance.metrics).toMatchObject({ timedOut: 1, completed: 0 });
    expect(instance.batchSize).toBe(0);
    expect(instance.kv.usedBlocks).toBe(0);
  });

  it("a timeout during the queueing delay does not disturb the request that reuses its slot", () => {
    // R0 used to leave its slot at 10 µs; R1 took it at 100 and was queued by R0's Queued event
    // at 1000 instead of its own at 1100 (or, alone, the run failed: "no live request in slot 0").
    const source = new RecordingSource([req(0, 0, 100, 5, 10), req(1, 100, 100, 1)]);
    const { instance } = runInstance(instanceConfig(latency), source);
    expect(source.outcomes.get(0)).toEqual({ outcome: 'timed_out', at: 1000 });
    // Queued at 1100; a 100-token prefill step of 1100 µs: done at 2200.
    expect(source.outcomes.get(1)).toEqual({ outcome: 'completed', at: 2200 });
    expect(instance.metrics.ttftUs.view()[0]).toBe(2100);
  });
});

describe('timeouts, any of them (fast-check)', () => {
  const workload = fc.array(
    fc.record({
      gap: fc.integer({ min: 0, max: 5_000 }),
      input: fc.integer({ min: 1, max: 600 }),
      output: fc.integer({ min: 0, max: 30 }),
      timeout: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60_000 })),
    }),
    { minLength: 1, maxLength: 50 },
  );
  const config = fc.record({
    kvBlocks: fc.integer({ min: 8, max: 200 }),
    maxNumSeqs: fc.integer({ min: 1, max: 8 }),
    budget: fc.integer({ min: 16, max: 1024 }),
    alpha: fc.constantFrom(0, 1000, 20_000),
    preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  });

  it('every request leaves exactly once: completed + timed out + dropped = injected', () => {
    fc.assert(
      fc.property(workload, config, (work, c) => {
        let t = 0;
        const specs = work.map((w, i) => {
          t += w.gap;
          return req(i, t, w.input, w.output, w.timeout > 0 ? t + w.timeout : 0);
        });
        const source = new RecordingSource(specs);
        const cfg = instanceConfig(blackbox([c.alpha, 0, 0], [1000, 1, 10]), {
          totalKVBlocks: c.kvBlocks,
          maxNumSeqs: c.maxNumSeqs,
          maxNumBatchedTokens: c.budget,
          preemptionPolicy: c.preemption,
        });
        const { instance, injected } = runInstance(cfg, source);
        const m = instance.metrics;
        expect(injected).toBe(specs.length);
        expect(m.completed + m.timedOut + m.dropped).toBe(specs.length);
        expect(source.outcomes.size).toBe(specs.length);
        for (const s of specs) {
          const o = source.outcomes.get(s.index)!;
          if (o.outcome === 'timed_out') {
            // Never before its deadline; late only when the deadline passed before it was queued.
            expect(o.at).toBeGreaterThanOrEqual(s.deadlineUs);
            if (o.at > s.deadlineUs) expect(o.at).toBe(s.arrivalUs + c.alpha);
          }
        }
        expect(instance.queueDepth + instance.batchSize).toBe(0);
        expect(instance.kv.usedBlocks).toBe(0);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
