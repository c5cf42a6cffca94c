import type { InstanceScheduler } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InstanceConfig, type InstanceSimulator, type LoraSettings, type RequestSpec, makeRequestSpec } from '../../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from '../drive.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Random LoRA workloads on one instance with the invariant monitor on (INV-1..5, INV-8, KV
// accounting after every step): the resident set and the cold-load gate hold whatever the
// numbers. fast-check prints the seed and path of a failing case.

interface Scenario {
  config: InstanceConfig;
  specs: RequestSpec[];
}

const ADAPTERS = ['a', 'b', 'c', 'd', 'e', 'f'];
const SJF: InstanceScheduler = { name: 'sjf', compare: (a, b) => a.request.inputTokens - b.request.inputTokens };

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    capacity: fc.integer({ min: 1, max: 4 }),
    ranks: fc.array(fc.constantFrom(4, 8, 16, 32, 64), { minLength: ADAPTERS.length, maxLength: ADAPTERS.length }),
    baseLatency: fc.integer({ min: 0, max: 3000 }),
    totalKVBlocks: fc.integer({ min: 4, max: 60 }),
    maxNumSeqs: fc.integer({ min: 1, max: 6 }),
    budget: fc.integer({ min: 8, max: 300 }),
    /** Shortest prompt first: preempted requests need not be at the queue's head. */
    sjf: fc.boolean(),
    requests: fc.array(
      fc.record({
        gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4000 })),
        input: fc.integer({ min: 1, max: 120 }),
        output: fc.integer({ min: 1, max: 30 }),
        adapter: fc.integer({ min: -1, max: ADAPTERS.length - 1 }),
        timeout: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
      }),
      { minLength: 1, maxLength: 30 },
    ),
  })
  .map((c) => {
    const lora: LoraSettings = {
      adapters: ADAPTERS.map((id, i) => ({ id, rank: c.ranks[i] })),
      capacity: c.capacity,
      loadBaseLatencyUs: c.baseLatency,
      loadBandwidthBytesUs: 2e6,
      footprintBytesPerRank: 2e6,
      stepOverheadTiers: [
        { rank: 8, k6: 0.02, k7: 1 },
        { rank: 16, k6: 0.035, k7: 1 },
        { rank: 32, k6: 0.06, k7: 1 },
      ],
    };
    const config = instanceConfig(blackbox([100, 0.5, 5], [500, 2, 20]), { totalKVBlocks: c.totalKVBlocks, blockSizeTokens: 4, maxNumSeqs: c.maxNumSeqs, maxNumBatchedTokens: c.budget, lora, ...(c.sjf ? { scheduler: SJF } : {}) });
    let t = 0;
    const specs = c.requests.map((r, index) => {
      t += r.gap;
      return makeRequestSpec({
        index,
        arrivalUs: t,
        inputTokens: r.input,
        outputTokens: r.output,
        blockHashes: promptHashes(r.input, 4, 0, 0, index),
        deadlineUs: r.timeout > 0 ? t + r.timeout : 0,
        ...(r.adapter >= 0 ? { adapter: ADAPTERS[r.adapter] } : {}),
      });
    });
    return { config, specs };
  });

/** What must hold on every step: residency within capacity, running adapters resident and pinned. */
function checkStep(instance: InstanceSimulator): void {
  const lora = instance.lora!;
  expect(lora.resident.size).toBeLessThanOrEqual(lora.settings.capacity);
  const inUse = new Map<number, number>();
  for (const r of instance.running) {
    if (r.adapter < 0) continue;
    // A request never runs before its adapter is resident, and its adapter stays while it runs.
    expect(lora.isResident(r.adapter)).toBe(true);
    expect(r.adapterPinned).toBe(true);
    inUse.set(r.adapter, (inUse.get(r.adapter) ?? 0) + 1);
  }
  // Pins count the running requests; a request back in the queue holds none.
  for (const r of instance.waitQueue.toArray()) expect(r.adapterPinned).toBe(false);
  for (const [a, n] of inUse) expect(lora.resident.pins(a)).toBe(n);
}

describe('LoRA serving on random workloads', () => {
  it('keeps residency within capacity, never evicts an adapter in use, never runs a request before its adapter loads', () => {
    let loads = 0;
    let evictions = 0;
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        const r = drive(sc.config, sc.specs, 500_000, checkStep);
        const m = r.instance.metrics;
        // INV-1 (the monitor checked INV-2..5, INV-8 and KV accounting on every event).
        expect(m.completed + m.dropped + m.timedOut).toBe(r.injected);
        const lora = r.instance.lora!;
        expect(lora.loading).toBe(-1);
        // Every pin is given back once the requests are gone.
        for (const a of lora.resident.ids()) expect(lora.resident.pins(a)).toBe(0);
        loads += lora.loads.reduce((x, y) => x + y, 0);
        evictions += lora.evictions.reduce((x, y) => x + y, 0);
      }),
      { numRuns: propertyRuns(200) },
    );
    // The generator exercises loads and evictions.
    expect(loads).toBeGreaterThan(100);
    expect(evictions).toBeGreaterThan(20);
  });

  it('changes nothing for requests without adapters (LoRA declared, never asked for)', () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        const base = sc.specs.map((s) => ({ ...s, adapter: undefined }));
        const { lora: _, ...off } = sc.config;
        const a = drive(sc.config, base, 500_000);
        const b = drive(off, base, 500_000);
        expect([...a.outcomes.values()]).toEqual([...b.outcomes.values()]);
        expect(a.steps).toEqual(b.steps);
        expect(a.instance.lora!.loads.every((n) => n === 0)).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('serialises loads: at most one in flight, each taking its computed latency', () => {
    // Two cold adapters at t=0, one slot: b's load starts only once a's requests are done.
    const lora: LoraSettings = { adapters: [{ id: 'a', rank: 8 }, { id: 'b', rank: 8 }], capacity: 1, loadBaseLatencyUs: 1000, loadBandwidthBytesUs: 2e6, footprintBytesPerRank: 2e6, stepOverheadTiers: [] };
    const config = instanceConfig(blackbox([0, 0, 0], [100, 0, 0]), { lora });
    const specs = [0, 1].map((index) => makeRequestSpec({ index, arrivalUs: 0, inputTokens: 8, outputTokens: 2, adapter: index === 0 ? 'a' : 'b' }));
    const r = drive(config, specs);
    // a: load 1000 + ceil(16e6 / 2e6) = 1008 µs, then prefill (100) and one decode step (100).
    expect(r.outcomes.get(0)!.scheduledAt).toBe(1008);
    expect(r.outcomes.get(0)!.completedAt).toBe(1208);
    // b waits behind a (head-of-line), then its own 1008 µs load after a unpins.
    expect(r.outcomes.get(1)!.scheduledAt).toBe(1208 + 1008);
    expect(Array.from(r.instance.lora!.loads)).toEqual([1, 1]);
    expect(Array.from(r.instance.lora!.evictions)).toEqual([1, 0]);
  });
});

describe('a preempted request and a full set of slots', () => {
  it('does not hold its adapter while it waits: the cold head behind it loads (vLLM), no livelock', () => {
    // One slot. C and A (adapter a) run until the cache is full and A, the newest, is preempted.
    // Shortest-prompt-first then puts B (adapter b, cold) at the head. Had A kept its pin, once C
    // completes nothing would run and B's load could never free a slot: empty steps for ever.
    const lora: LoraSettings = { adapters: [{ id: 'a', rank: 8 }, { id: 'b', rank: 8 }], capacity: 1, loadBaseLatencyUs: 1000, loadBandwidthBytesUs: 2e6, footprintBytesPerRank: 2e6, stepOverheadTiers: [] };
    const config = instanceConfig(blackbox([0, 0, 0], [100, 0, 0]), { lora, totalKVBlocks: 40, blockSizeTokens: 4, scheduler: SJF });
    const specs = [
      makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 60, outputTokens: 30, adapter: 'a', blockHashes: promptHashes(60, 4, 0, 0, 0) }),
      makeRequestSpec({ index: 1, arrivalUs: 0, inputTokens: 60, outputTokens: 30, adapter: 'a', blockHashes: promptHashes(60, 4, 0, 0, 1) }),
      makeRequestSpec({ index: 2, arrivalUs: 3150, inputTokens: 10, outputTokens: 2, adapter: 'b', blockHashes: promptHashes(10, 4, 0, 0, 2) }),
    ];
    const r = drive(config, specs, 100_000, checkStep);
    expect(r.instance.metrics.preemptions).toBeGreaterThan(0);
    expect(r.instance.metrics.completed).toBe(3);
    // a, then b (evicting a, which the preempted request no longer pins), then a again.
    expect(Array.from(r.instance.lora!.loads)).toEqual([2, 1]);
  });
});
