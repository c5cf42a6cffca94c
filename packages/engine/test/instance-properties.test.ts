import type { PriorityPolicy } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InstanceConfig, PartitionedRng, type RequestSpec, makeRequestSpec } from '../src/index.js';
import { type DriveResult, blackbox, drive, instanceConfig, promptHashes } from './drive.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Random configurations and workloads, tiny KV caches included (so preemption and unservable
// drops are common), run with the invariant monitor on. Checked: INV-1..5 and INV-8, plus the
// batch-formation rules of docs/engine-semantics.md that hold whatever the numbers.

interface Scenario {
  config: InstanceConfig;
  specs: RequestSpec[];
}

function scenarioArbitrary(opts: { kv: [number, number]; blockSizes: number[]; seqs: [number, number]; budget: [number, number]; input: [number, number]; output: [number, number] }): fc.Arbitrary<Scenario> {
  const configArb = fc.record({
    totalKVBlocks: fc.integer({ min: opts.kv[0], max: opts.kv[1] }),
    blockSizeTokens: fc.constantFrom(...opts.blockSizes),
    maxNumSeqs: fc.integer({ min: opts.seqs[0], max: opts.seqs[1] }),
    maxNumBatchedTokens: fc.integer({ min: opts.budget[0], max: opts.budget[1] }),
    longPrefillTokenThreshold: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 })),
    preemptionPolicy: fc.constantFrom('fcfs' as const, 'priority' as const),
    usePriority: fc.boolean(),
    alpha: fc.tuple(fc.double({ min: 0, max: 500, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 0, max: 40, noNaN: true })),
    beta: fc.tuple(fc.double({ min: 0, max: 2000, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true })),
  });
  const requestArb = fc.record({
    gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5000 })),
    inputTokens: fc.integer({ min: opts.input[0], max: opts.input[1] }),
    outputTokens: fc.integer({ min: opts.output[0], max: opts.output[1] }),
    /** -1: no prefix group; otherwise the group, whose shared prefix is `prefixBlocks` blocks. */
    group: fc.integer({ min: -1, max: 2 }),
    prefixBlocks: fc.integer({ min: 0, max: 6 }),
    priority: fc.integer({ min: 0, max: 3 }),
  });
  return fc.tuple(configArb, fc.array(requestArb, { minLength: 1, maxLength: 25 })).map(([c, reqs]) => {
    const prio = new Map<number, number>();
    const priority: PriorityPolicy | undefined = c.usePriority ? { name: 'by-index', priority: (r) => prio.get(r.index) ?? 0 } : undefined;
    const config = instanceConfig(blackbox(c.alpha, c.beta), {
      totalKVBlocks: c.totalKVBlocks,
      blockSizeTokens: c.blockSizeTokens,
      maxNumSeqs: c.maxNumSeqs,
      maxNumBatchedTokens: c.maxNumBatchedTokens,
      longPrefillTokenThreshold: c.longPrefillTokenThreshold,
      preemptionPolicy: c.preemptionPolicy,
      priority,
    });
    let t = 0;
    const specs = reqs.map((r, index) => {
      t += r.gap;
      prio.set(index, r.priority);
      const shared = r.group < 0 ? 0 : r.prefixBlocks;
      return makeRequestSpec({
        index,
        arrivalUs: t,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        prefixGroup: r.group < 0 ? '' : `g${r.group}`,
        blockHashes: promptHashes(r.inputTokens, c.blockSizeTokens, shared, Math.max(r.group, 0), index),
      });
    });
    return { config, specs };
  });
}

const scenarioArb = scenarioArbitrary({ kv: [1, 40], blockSizes: [1, 4, 16], seqs: [1, 6], budget: [1, 400], input: [1, 160], output: [0, 40] });
/** Caches of 2-6 blocks with prompts that fit a few at a time: preemption is the rule. */
const tinyArb = scenarioArbitrary({ kv: [2, 6], blockSizes: [4, 16], seqs: [2, 6], budget: [16, 400], input: [1, 70], output: [1, 40] }).filter(
  (s) => s.specs.length >= 6,
);

/** Checks one finished run against the invariants and the batch-formation rules. */
function checkRun({ config, specs }: Scenario, r: DriveResult): void {
  const { instance, log, steps, outcomes } = r;
  const m = instance.metrics;
  const alpha2 = config.latency.outputTokenTime();
  const capacity = config.totalKVBlocks * config.blockSizeTokens;

  // INV-1: every injected request is accounted for, and a run without a horizon drains.
  expect(r.injected).toBe(specs.length);
  expect(instance.waitQueue.length).toBe(0);
  expect(instance.running.length).toBe(0);
  expect(m.completed + m.dropped).toBe(r.injected);
  expect(outcomes.size).toBe(m.completed);
  // Exactly the requests that can never fit are dropped.
  for (const s of specs) {
    const unservable = s.inputTokens + Math.max(s.outputTokens, 1) - 1 > capacity;
    expect(outcomes.has(s.index)).toBe(!unservable);
  }
  // INV-4 at the end: everything released.
  expect(instance.kv.usedBlocks).toBe(0);
  instance.kv.checkConsistency();

  // INV-3: decisions are taken in time order (completions are stamped with the end of the step
  // that retires them, ahead of the clock).
  const decisions = log.filter((e) => e.kind !== 'completed');
  for (let i = 1; i < decisions.length; i++) expect(decisions[i].t).toBeGreaterThanOrEqual(decisions[i - 1].t);
  // Steps run back to back while work remains. Only a step that retires its whole batch with
  // nothing waiting leaves the instance idle from its start, as in BLIS: the next queued request
  // may then start a step before that one ends (docs/engine-semantics.md, "Event order").
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1];
    const prevEnd = prev.start + prev.stepTime;
    expect(steps[i].start).toBeGreaterThan(prev.start);
    if (steps[i].start < prevEnd) {
      expect(prev.queued).toBe(0);
      expect(log.filter((e) => e.kind === 'completed' && e.t === prevEnd).length).toBeGreaterThanOrEqual(prev.running);
    }
  }

  // INV-2 and the queue discipline, replayed on a model: queued joins the back, a preempted
  // request goes to the front, admission always takes the head (fcfs keeps arrival order),
  // the victim is the newest running request (fcfs) or a least urgent one (priority).
  const state = new Map<number, 'queued' | 'running' | 'done'>();
  const queue: number[] = [];
  const running: number[] = [];
  // Priorities are fixed at queueing time in these scenarios (a function of the request index).
  const prio = (i: number) => config.priority?.priority({ index: i } as never, 0) ?? 0;
  let lastPreemptTick = -1;
  for (const e of log) {
    const s = state.get(e.req);
    switch (e.kind) {
      case 'queued':
        expect(s).toBeUndefined();
        state.set(e.req, 'queued');
        queue.push(e.req);
        break;
      case 'dropped':
        expect(s).toBeUndefined();
        state.set(e.req, 'done');
        break;
      case 'scheduled':
        expect(s).toBe('queued');
        // No admissions in a step that preempted.
        expect(e.t).not.toBe(lastPreemptTick);
        expect(queue.shift()).toBe(e.req);
        running.push(e.req);
        state.set(e.req, 'running');
        // Restart from token 0: progress at admission is exactly the cached prefix.
        expect(e.progress).toBe(e.hits! * config.blockSizeTokens);
        expect(running.length).toBeLessThanOrEqual(config.maxNumSeqs);
        break;
      case 'preempted': {
        expect(s).toBe('running');
        const at = running.indexOf(e.req);
        if (config.preemptionPolicy === 'fcfs') expect(at).toBe(running.length - 1);
        else {
          // The least urgent; among equals, the newest.
          const least = Math.min(...running.map(prio));
          expect(prio(e.req)).toBe(least);
          for (let k = at + 1; k < running.length; k++) expect(prio(running[k])).toBeGreaterThan(least);
        }
        running.splice(at, 1);
        queue.unshift(e.req);
        state.set(e.req, 'queued');
        lastPreemptTick = e.t;
        break;
      }
      case 'completed':
        expect(s).toBe('running');
        running.splice(running.indexOf(e.req), 1);
        state.set(e.req, 'done');
        break;
    }
  }
  expect(queue).toEqual([]);
  expect(running).toEqual([]);
  expect(m.preemptions).toBe(log.filter((e) => e.kind === 'preempted').length);

  // Batch limits in every step.
  for (const s of steps) {
    expect(s.prefillTokens + s.decodeTokens).toBeLessThanOrEqual(config.maxNumBatchedTokens);
    expect(s.running).toBeLessThanOrEqual(config.maxNumSeqs);
    if (config.longPrefillTokenThreshold > 0) for (const n of s.prefillNew) expect(n).toBeLessThanOrEqual(config.longPrefillTokenThreshold);
    expect(s.stepTime).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(s.stepTime)).toBe(true);
  }

  // A decoding request gets a token in every step unless the phase-1 loop stops before it (a
  // self-eviction under the priority policy) or the budget runs out before it, which under fcfs
  // needs a fully cached prompt ahead of it that takes 0 tokens at admission and 1 afterwards.
  const neverSitsOut =
    config.preemptionPolicy === 'fcfs' && !log.some((e) => e.kind === 'scheduled' && e.progress === specs[e.req].inputTokens);

  // INV-5 and the metric definitions, per completed request.
  for (const o of outcomes.values()) {
    const spec = specs[o.index];
    expect(o.enqueuedAt).toBe(spec.arrivalUs + config.latency.queueingTime(spec.inputTokens));
    expect(o.arrival).toBeLessThanOrEqual(o.enqueuedAt);
    expect(o.enqueuedAt).toBeLessThanOrEqual(o.firstScheduledAt);
    expect(o.firstScheduledAt).toBeLessThanOrEqual(o.scheduledAt);
    expect(o.firstScheduledAt).toBeLessThan(o.firstTokenAt - alpha2);
    expect(o.firstTokenAt - alpha2).toBeLessThanOrEqual(o.completedAt);
    expect(o.ttft).toBe(o.firstTokenAt - spec.arrivalUs);
    // The last attempt generated every token after the first.
    expect(o.itlCount).toBe(Math.max(spec.outputTokens, 1) - 1);
    if (o.preemptions === 0) {
      // BLIS's E2E: TTFT plus the ITL entries.
      expect(o.e2e).toBeCloseTo(o.ttft + o.itlMean * Math.max(spec.outputTokens - 1, 0), 6);
      // It never exceeds the real completion time (plus alpha2 per token delivered), and equals it
      // when the request decoded in every step.
      const real = o.completedAt + alpha2 * Math.max(spec.outputTokens, 1) - spec.arrivalUs;
      expect(o.e2e).toBeLessThanOrEqual(real);
      if (neverSitsOut) expect(o.e2e).toBe(real);
    } else {
      expect(o.e2e).toBeGreaterThanOrEqual(o.completedAt - spec.arrivalUs);
    }
    expect(o.schedulingDelay).toBe(o.scheduledAt - spec.arrivalUs);
  }
}

describe('InstanceSimulator on random configurations and workloads', () => {
  it('holds INV-1..5 and INV-8 and the batch-formation rules', () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        checkRun(sc, drive(sc.config, sc.specs, 200_000));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('preempts and drops on tiny caches and still drains', () => {
    let preempting = 0;
    let dropping = 0;
    fc.assert(
      fc.property(tinyArb, (sc) => {
        const r = drive(sc.config, sc.specs, 200_000);
        checkRun(sc, r);
        if (r.instance.metrics.preemptions > 0) preempting++;
        if (r.instance.metrics.dropped > 0) dropping++;
      }),
      { numRuns: propertyRuns(150) },
    );
    // The generator really exercises both paths.
    expect(preempting).toBeGreaterThan(10);
    expect(dropping).toBeGreaterThan(10);
  });

  it('is deterministic: the same seed gives the same decisions and metrics', () => {
    // Workloads drawn from a PartitionedRng stream, as the workload package does.
    const fromSeed = (seed: number): RequestSpec[] => {
      const s = new PartitionedRng(seed).stream('workload');
      let t = 0;
      return Array.from({ length: 30 }, (_, index) => {
        t += Math.floor(s.exponential(800));
        const inputTokens = 1 + s.nextInt(150);
        const group = s.nextInt(3);
        return makeRequestSpec({
          index,
          arrivalUs: t,
          inputTokens,
          outputTokens: s.nextInt(30),
          blockHashes: promptHashes(inputTokens, 16, s.nextInt(5), group, index),
        });
      });
    };
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 30 }), (seed, kv) => {
        const config = instanceConfig(blackbox([50, 0.5, 3], [500, 2, 20]), { totalKVBlocks: kv, maxNumSeqs: 4, maxNumBatchedTokens: 128 });
        const a = drive(config, fromSeed(seed));
        const b = drive({ ...config }, fromSeed(seed));
        expect(b.log).toEqual(a.log);
        expect(b.steps).toEqual(a.steps);
        expect([...b.outcomes.entries()]).toEqual([...a.outcomes.entries()]);
        expect(b.instance.metrics.itlEntries).toEqual(a.instance.metrics.itlEntries);
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});

describe('prefix groups and KV pressure, as properties', () => {
  it('with an ample cache and budget, every later member of a group hits the whole shared prefix, even in the same step', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gap: fc.constantFrom(0, 0, 0, 1000), extra: fc.integer({ min: 0, max: 60 }), group: fc.integer({ min: 0, max: 2 }) }), {
          minLength: 2,
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 5 }),
        (reqs, prefixBlocks) => {
          const bs = 16;
          let t = 0;
          const specs = reqs.map((r, index) => {
            t += r.gap;
            const inputTokens = prefixBlocks * bs + r.extra;
            return makeRequestSpec({ index, arrivalUs: t, inputTokens, outputTokens: 3, blockHashes: promptHashes(inputTokens, bs, prefixBlocks, r.group, index) });
          });
          const config = instanceConfig(blackbox([0, 0, 0], [1000, 1, 10]), { totalKVBlocks: 10_000, maxNumBatchedTokens: 100_000, maxNumSeqs: 1000 });
          const { log, steps, instance } = drive(config, specs);
          const seen = new Set<number>();
          let expectedPrefill = 0;
          for (const e of log) {
            if (e.kind !== 'scheduled') continue;
            const g = reqs[e.req].group;
            // The shared prefix is cached as soon as one member of the group has been admitted.
            expect(e.hits).toBe(seen.has(g) ? prefixBlocks : 0);
            seen.add(g);
            expectedPrefill += specs[e.req].inputTokens - e.hits! * bs;
          }
          // Prefix hits are compute saved: the prefill tokens of all steps are the cache misses.
          expect(steps.reduce((sum, s) => sum + s.prefillTokens, 0)).toBe(expectedPrefill);
          expect(instance.metrics.preemptions).toBe(0);
        },
      ),
    );
  });

  it('under KV pressure, preempted requests restart from their cached prefix and every prompt token is recomputed otherwise', () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        const r = drive(sc.config, sc.specs, 200_000);
        checkRun(sc, r);
        // Prefill compute over the run equals, per admission, the prompt minus its cache hits,
        // minus what a preemption threw away before it was prefilled... so it is at least the
        // cache misses of the final admissions and at most all admissions' misses.
        const bs = sc.config.blockSizeTokens;
        const last = new Map<number, number>();
        let all = 0;
        for (const e of r.log) {
          if (e.kind !== 'scheduled') continue;
          const miss = sc.specs[e.req].inputTokens - e.progress!;
          last.set(e.req, miss);
          all += miss;
          expect(e.progress).toBe(e.hits! * bs);
        }
        const finalMisses = [...last.values()].reduce((a, b) => a + b, 0);
        const prefill = r.steps.reduce((sum, s) => sum + s.prefillTokens, 0);
        expect(prefill).toBeGreaterThanOrEqual(finalMisses);
        expect(prefill).toBeLessThanOrEqual(all);
        if (r.instance.metrics.preemptions === 0) expect(prefill).toBe(all);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
