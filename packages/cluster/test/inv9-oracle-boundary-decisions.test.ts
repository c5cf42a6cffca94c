import type { SimRequest } from '@blis/engine';
import { type RouterState, createPolicyRegistry } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flowControlSettings } from '../src/internal.js';
import { buildCluster, hashesFor, spec } from './helpers.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// INV-9, the oracle boundary, proved behaviourally on real cluster runs: changing only the output
// lengths leaves every admission, priority, routing, scheduling and preemption decision unchanged
// up to the first request exit. inv9-oracle-boundary-inputs.test.ts proves it structurally.

const registry = createPolicyRegistry();

type Decision = [kind: string, nowUs: number, request: number, value: number | boolean];

/**
 * Records every policy decision in the order taken, with its clock, and how many decisions had
 * been taken when the first request left the system (completed, or dropped as unservable: the
 * instance, not a policy, knows the output length and drops a request whose KV footprint
 * cannot fit). Everything up to that point must be the same whatever the output lengths.
 */
class DecisionLog implements DecisionObserver {
  readonly decisions: Decision[] = [];
  firstExitAt = Number.POSITIVE_INFINITY;
  private steps = 0;
  onStep() {
    if (++this.steps > 200_000) throw new Error('no end in sight: over 200,000 steps for at most 50 requests');
  }
  onAdmission(req: SimRequest, d: { admit: boolean }, _s: RouterState, now: number) {
    this.decisions.push(['admit', now, req.view.index, d.admit]);
  }
  onPriority(req: SimRequest, score: number, now: number) {
    this.decisions.push(['priority', now, req.view.index, score]);
  }
  onRouting(req: SimRequest, d: { instance: number }, _s: RouterState, now: number) {
    this.decisions.push(['route', now, req.view.index, d.instance]);
  }
  onScheduled(req: SimRequest, now: number, instance: number) {
    this.decisions.push(['schedule', now, req.view.index, instance]);
  }
  onPreempted(req: SimRequest, now: number, instance: number) {
    this.decisions.push(['preempt', now, req.view.index, instance]);
  }
  onCompleted() {
    this.exit();
  }
  onDropped(_req: SimRequest, _now: number, reason: string) {
    if (reason === 'rejected' || reason === 'shed') return; // admission decisions, not exits
    this.exit();
  }
  private exit() {
    if (this.firstExitAt === Number.POSITIVE_INFINITY) this.firstExitAt = this.decisions.length;
  }
}

const ROUTERS = registry.names('routing');
const SCORERS = registry.names('scorer');

const clusterArb = fc.record({
  instances: fc.integer({ min: 1, max: 6 }),
  kvBlocks: fc.integer({ min: 40, max: 400 }),
  maxNumSeqs: fc.integer({ min: 1, max: 16 }),
  budget: fc.integer({ min: 64, max: 2048 }),
  routing: fc.constantFrom(...ROUTERS),
  scorers: fc.uniqueArray(fc.record({ name: fc.constantFrom(...SCORERS), weight: fc.integer({ min: 1, max: 9 }) }), { selector: (s) => s.name, minLength: 1, maxLength: SCORERS.length }),
  admission: fc.constantFrom('always-admit', 'token-bucket', 'tenant-quota', 'slo-shed', 'tier-shed', 'gaie-legacy'),
  priority: fc.constantFrom(...registry.names('priority')),
  scheduler: fc.constantFrom(...registry.names('scheduler')),
  preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
  refresh: fc.constantFrom(0, 5_000, 100_000),
  flow: fc.boolean(),
});

const burstArb = fc.array(
  fc.record({
    gap: fc.integer({ min: 0, max: 3_000 }),
    input: fc.integer({ min: 16, max: 1500 }),
    group: fc.integer({ min: 0, max: 3 }),
    shared: fc.integer({ min: 0, max: 30 }),
    cls: fc.constantFrom('critical', 'standard', 'batch', 'sheddable', ''),
    tenant: fc.constantFrom('a', 'b'),
  }),
  { minLength: 2, maxLength: 50 },
);

type Cluster = typeof clusterArb extends fc.Arbitrary<infer T> ? T : never;
type Burst = typeof burstArb extends fc.Arbitrary<infer T> ? T : never;

function decisionsWith(cfg: Cluster, burst: Burst, outputs: readonly number[]): DecisionLog {
  let t = 0;
  const specs = burst.map((w, i) => {
    t += w.gap;
    return spec(i, t, w.input, outputs[i], {
      sloClass: w.cls,
      tenantId: w.tenant,
      sessionId: `s${w.group}`,
      prefixGroup: `g${w.group}`,
      blockHashes: hashesFor(w.input, `g${w.group}`, w.shared, `u${i}`),
    });
  });
  const log = new DecisionLog();
  const sim = buildCluster(specs, {
    instances: cfg.instances,
    kvBlocks: cfg.kvBlocks,
    maxNumSeqs: cfg.maxNumSeqs,
    budget: cfg.budget,
    routing: cfg.routing,
    routingParams: cfg.routing === 'weighted' ? { scorers: cfg.scorers } : {},
    admission: cfg.admission,
    admissionParams: cfg.admission === 'tenant-quota' ? { maxInFlight: 6 } : cfg.admission === 'token-bucket' ? { capacity: 4000, refillRate: 100_000 } : {},
    priority: cfg.priority,
    scheduler: cfg.scheduler,
    preemption: cfg.preemption,
    setup: {
      observer: log,
      snapshotRefreshIntervalUs: cfg.refresh,
      flowControl: cfg.flow ? flowControlSettings({ saturationDetector: 'utilization', queueDepthThreshold: 3 }) : undefined,
    },
  });
  sim.run();
  return log;
}

/** The decisions both runs took before either saw a request leave. */
const beforeFirstExit = (a: DecisionLog, b: DecisionLog) => {
  const n = Math.min(a.firstExitAt, b.firstExitAt, a.decisions.length, b.decisions.length);
  return [a.decisions.slice(0, n), b.decisions.slice(0, n)];
};

describe('INV-9 (b): output lengths never change a decision before the first request leaves', () => {
  it('a burst of 120 requests: every decision up to the first exit is identical', () => {
    const cfg: Cluster = {
      instances: 4,
      kvBlocks: 400,
      maxNumSeqs: 8,
      budget: 1024,
      routing: 'weighted',
      scorers: SCORERS.map((name) => ({ name, weight: 1 })),
      admission: 'slo-shed',
      priority: 'slo-class',
      scheduler: 'priority-fcfs',
      preemption: 'priority',
      refresh: 5_000,
      flow: true,
    };
    const burst: Burst = Array.from({ length: 120 }, (_, i) => ({
      gap: 50,
      input: 200 + ((i * 7919) % 1200),
      group: i % 4,
      shared: 8,
      cls: (['critical', 'standard', 'batch', 'sheddable'] as const)[i % 4],
      tenant: i % 3 === 0 ? 'b' : 'a',
    }));
    const short = decisionsWith(cfg, burst, burst.map(() => 2));
    const long = decisionsWith(cfg, burst, burst.map((_, i) => 50 + ((i * 104729) % 400)));
    const [a, b] = beforeFirstExit(short, long);
    expect(a.length).toBeGreaterThan(150); // most of the 120 admissions, priorities and routings
    expect(b).toEqual(a);
    // And afterwards they do differ: the check is not vacuous.
    expect(long.decisions).not.toEqual(short.decisions);
  });

  it('on generated clusters and output lengths', () => {
    fc.assert(
      fc.property(
        clusterArb,
        burstArb.chain((b) =>
          fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: b.length, maxLength: b.length }), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: b.length, maxLength: b.length })),
        ),
        (cfg, [burst, outA, outB]) => {
          const a = decisionsWith(cfg, burst, outA);
          const b = decisionsWith(cfg, burst, outB);
          const [da, db] = beforeFirstExit(a, b);
          expect(db).toEqual(da);
        },
      ),
      { numRuns: Number(process.env.BLIS_PROPERTY_RUNS ?? propertyRuns(200)) },
    );
  });
});
