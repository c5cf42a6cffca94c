import { ArrayRequestSource, makeRequestSpec } from '@blis/engine';
import type { LatencyModel, StepBatch } from '@blis/latency';
import type { AdmissionPolicy, RouterEvent, RoutingPolicy } from '@blis/policies';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, prepareSimulation, runPrepared } from '../src/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// With a router that rejects and hints at random (and an admission policy that rejects at
// random), over random workloads, cluster settings and P/D on or off: conservation (INV-1,
// checked by the run itself with checkInvariants) holds, every rejection is counted, and every
// request the user sent gets exactly one terminal event (completed or dropped) after its
// arrival; a P/D prefill part at most one, after it was routed.

const RUNS = Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(150));

/** Steps cost a base plus per-token time, so batches, preemptions and timeouts all happen. */
const LATENCY: LatencyModel = {
  kind: 'linear',
  stepTime: (b: StepBatch) => 500 + 3 * b.prefillTokens + 40 * b.decodeCount,
  queueingTime: () => 100,
  outputTokenTime: () => 0,
  postDecodeFixedOverhead: () => 0,
};

/** A small deterministic stream from a seed fast-check picks (so the case replays). */
function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const caseArb = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  requests: fc.array(
    fc.record({ gap: fc.integer({ min: 0, max: 20_000 }), input: fc.integer({ min: 1, max: 600 }), output: fc.integer({ min: 0, max: 30 }), timeout: fc.constantFrom(0, 0, 0, 5_000, 60_000) }),
    { minLength: 1, maxLength: 40 },
  ),
  pReject: fc.constantFrom(0, 0.1, 0.5),
  pHint: fc.constantFrom(0, 0.3, 1),
  pAdmitReject: fc.constantFrom(0, 0.2),
  instances: fc.integer({ min: 2, max: 4 }),
  kvBlocks: fc.integer({ min: 8, max: 200 }),
  maxNumSeqs: fc.integer({ min: 1, max: 8 }),
  scheduler: fc.constantFrom('fcfs', 'priority-fcfs', 'reverse-priority'),
  priority: fc.constantFrom('constant', 'slo-based'),
  preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  admissionLatency: fc.constantFrom(0, 300),
  routingLatency: fc.constantFrom(0, 700),
  flow: fc.boolean(),
  pd: fc.boolean(),
});

describe('router hooks: property', () => {
  it('conservation holds and every request gets exactly one terminal event', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const rand = lcg(c.seed);
        const events: RouterEvent[] = [];
        let routerRejects = 0;
        let admissionRejects = 0;
        const routing: RoutingPolicy = {
          name: 'random',
          route(_req, state) {
            const x = rand();
            if (x < c.pReject) {
              routerRejects++;
              return { instance: -1, reason: 'random', reject: true };
            }
            const instance = Math.floor(rand() * state.instances.length);
            return rand() < c.pHint ? { instance, reason: 'hint', priority: Math.floor(rand() * 11) - 5 } : { instance, reason: 'pick' };
          },
          onEvent: (e) => void events.push(e),
        };
        const admission: AdmissionPolicy = {
          name: 'random-admit',
          admit() {
            const admit = rand() >= c.pAdmitReject;
            if (!admit) admissionRejects++;
            return { admit, reason: admit ? 'ok' : 'no' };
          },
        };
        let t = 0;
        const specs = c.requests.map((q, index) => {
          t += q.gap;
          return makeRequestSpec({ index, id: `q${index}`, arrivalUs: t, inputTokens: q.input, outputTokens: q.output, deadlineUs: q.timeout > 0 ? t + q.timeout : 0 });
        });
        const config: SimulationConfigInput = {
          numInstances: c.instances,
          totalKVBlocks: c.kvBlocks,
          maxNumSeqs: c.maxNumSeqs,
          maxNumBatchedTokens: 256,
          scheduler: { policy: c.scheduler, params: {} },
          priority: { policy: c.priority, params: {} },
          preemptionPolicy: c.preemption,
          admissionLatencyUs: c.admissionLatency,
          routingLatencyUs: c.routingLatency,
          flowControl: { enabled: c.flow },
          checkInvariants: true,
          ...(c.pd ? { model: 'meta-llama/llama-3.1-8b-instruct', tp: 1, pd: { prefillInstances: 1, decodeInstances: c.instances - 1, decider: 'always' } } : {}),
        };
        const prepared = prepareSimulation(config, { latency: LATENCY, source: new ArrayRequestSource(specs), routing, admission });
        // checkInvariants: the run checks INV-1 (and the engine's invariants) itself.
        runPrepared(prepared);
        const k = prepared.cluster.counters;
        expect(k.rejected).toBe(routerRejects + admissionRejects);
        expect(k.injected).toBe(specs.length);
        expect(k.completed + k.rejected + k.shed + k.dropped + k.timedOut + k.drainedDropped).toBe(specs.length);

        const arrived = new Set<string>();
        const routed = new Set<string>();
        const terminal = new Map<string, number>();
        let last = 0;
        for (const e of events) {
          const id = e.request.id;
          if (e.kind === 'arrival' || e.kind === 'routed') {
            // These are heard at the cluster's clock. A completion is heard when its step is
            // processed (its start) and stamped with the step's end, so it may run ahead.
            expect(e.nowUs).toBeGreaterThanOrEqual(last);
            last = e.nowUs;
            (e.kind === 'arrival' ? arrived : routed).add(id);
          } else {
            const parent = id.endsWith('_prefill') ? undefined : id;
            if (parent !== undefined) expect(arrived.has(parent)).toBe(true);
            else if (e.reason !== 'rejected') expect(routed.has(id)).toBe(true);
            terminal.set(id, (terminal.get(id) ?? 0) + 1);
          }
        }
        expect(arrived.size).toBe(specs.length);
        for (const s of specs) expect(terminal.get(s.id)).toBe(1);
        for (const [id, n] of terminal) if (id.endsWith('_prefill')) expect(n).toBe(1);
      }),
      { numRuns: RUNS },
    );
  });
});
