import { checkPdResult } from '../src/testing/pd-checks.js';
import { ViolationList } from '../src/testing/violation.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulationConfigSchema, type SimulationResult } from '../src/index.js';
import {
  InvariantCheckError,
  type LogEvent,
  type RunLog,
  assertInvariants,
  checkInvariants,
  simulateChecked,
  simulationConfigArb,
} from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// Each checker of @blis/cluster/testing catches a violation: a clean run is doctored (a result
// field, or one event of its log) and the report must name the broken invariant.

const base = { seed: 1, numInstances: 2, totalKVBlocks: 400, snapshotRefreshIntervalUs: 0, includeRequests: true, workload: { kind: 'synthetic' as const, rate: 50, numRequests: 12, promptTokens: 64, outputTokens: 8, timeoutUs: 0 } };
const clean = simulateChecked(base);
const pdRun = simulateChecked({ ...base, numInstances: 3, pd: { prefillInstances: 1, decodeInstances: 2, decider: 'always' } });

/** The result-only P/D checks on a doctored result (it is not a whole autoscaled result). */
const checkPdOnly = (r: SimulationResult) => {
  const out = new ViolationList();
  checkPdResult(r, out, false);
  return out.items.map((v) => v.invariant);
};

const doctor = (r: SimulationResult, patch: (r: SimulationResult) => void): SimulationResult => {
  const copy = structuredClone(r);
  patch(copy);
  return copy;
};
const names = (report: { violations: { invariant: string }[] }) => [...new Set(report.violations.map((v) => v.invariant))];
const withLog = (log: RunLog, edit: (events: LogEvent[]) => LogEvent[]): RunLog => ({ facts: log.facts, events: edit(structuredClone(log.events)) });

describe('@blis/cluster/testing checkers', () => {
  it('passes clean runs, plain and P/D', () => {
    expect(clean.violations).toEqual([]);
    expect(pdRun.violations).toEqual([]);
    expect(clean.checked).toContain('INV-9');
    expect(pdRun.checked).toContain('INV-PD');
    expect(() => assertInvariants({ result: clean.result!, log: clean.log })).not.toThrow();
    // simulateChecked's run is a report: asserted as it is.
    expect(() => assertInvariants(clean)).not.toThrow();
    expect(() => assertInvariants({ ...clean, ok: false, violations: [{ invariant: 'INV-4', message: 'caught by the engine' }] })).toThrow(/INV-4: caught by the engine/);
  });

  it('INV-1: a result that loses a request', () => {
    const r = doctor(clean.result!, (x) => {
      x.completed_requests -= 1;
    });
    expect(names(checkInvariants(r))).toContain('INV-1');
    expect(() => assertInvariants(r)).toThrow(InvariantCheckError);
    expect(() => assertInvariants(r)).toThrow(/INV-1: injected 12 vs completed 11/);
  });

  it('INV-5: a per-request record whose E2E precedes its TTFT', () => {
    const r = doctor(clean.result!, (x) => {
      x.requests![0].e2e_ms = x.requests![0].ttft_ms / 2;
    });
    expect(names(checkInvariants(r))).toEqual(['INV-5']);
  });

  it('INV-2: a request scheduled twice without a preemption, and one that ends twice', () => {
    const twice = withLog(clean.log, (ev) => {
      const i = ev.findIndex((e) => e.kind === 'scheduled');
      return [...ev.slice(0, i + 1), ev[i], ...ev.slice(i + 1)];
    });
    expect(names(checkInvariants({ result: clean.result!, log: twice }))).toEqual(['INV-2']);
    const ends = withLog(clean.log, (ev) => [...ev, { ...ev.find((e) => e.kind === 'completed')!, now: 10 ** 12 }]);
    expect(checkInvariants({ result: clean.result!, log: ends }).violations[0].message).toMatch(/ended twice/);
  });

  it('INV-3: an event reported before the clock', () => {
    const log = withLog(clean.log, (ev) => {
      const i = ev.findLastIndex((e) => e.kind === 'step');
      ev[i] = { ...ev[i], now: 0 } as LogEvent;
      return ev;
    });
    expect(names(checkInvariants({ result: clean.result!, log }))).toEqual(['INV-3']);
  });

  it('INV-5: a request routed before it was admitted', () => {
    const log = withLog(clean.log, (ev) => ev.map((e) => (e.kind === 'admission' && e.request === '3' ? { ...e, now: e.now + 1 } : e)));
    expect(names(checkInvariants({ result: clean.result!, log }))).toContain('INV-5');
  });

  it('INV-7: a stale snapshot and a wrong in-flight count', () => {
    const log = withLog(clean.log, (ev) => {
      const d = ev.find((e) => e.kind === 'decision' && e.stage === 'routing');
      if (d?.kind === 'decision') d.view.instances[0] = { ...d.view.instances[0], snapshotAgeUs: 5, inFlight: 7, inFlightTruth: 1 };
      return ev;
    });
    const report = checkInvariants({ result: clean.result!, log });
    expect(names(report)).toEqual(['INV-7']);
    expect(report.violations).toHaveLength(2);
  });

  it('INV-9: a policy shown the output length', () => {
    const log = withLog(clean.log, (ev) => {
      const d = ev.find((e) => e.kind === 'decision');
      if (d?.kind === 'decision') d.view.exposedKeys = ['outputTokens'];
      return ev;
    });
    expect(checkInvariants({ result: clean.result!, log }).violations).toEqual([expect.objectContaining({ invariant: 'INV-9', request: '0' })]);
  });

  it('INV-PD-2/3/4/6: doctored P/D logs and results', () => {
    const r = pdRun.result!;
    const wrongPod = withLog(pdRun.log, (ev) => ev.map((e) => (e.kind === 'scheduled' && e.part === 'decode' ? { ...e, instance: 0 } : e)));
    expect(names(checkInvariants({ result: r, log: wrongPod }))).toContain('INV-PD-2');
    const early = withLog(pdRun.log, (ev) => ev.map((e) => (e.kind === 'pd-transfer' ? { ...e, startUs: 0 } : e)));
    expect(names(checkInvariants({ result: r, log: early }))).toContain('INV-PD-4');
    const second = withLog(pdRun.log, (ev) => {
      const t = ev.find((e) => e.kind === 'pd-transfer')!;
      return [...ev, t];
    });
    expect(names(checkInvariants({ result: r, log: second }))).toContain('INV-PD-3');
    const lost = doctor(r, (x) => {
      x.pd!.transfers_completed -= 1;
    });
    expect(names(checkInvariants(lost))).toContain('INV-PD-3');
    // An immediate drain may discard a decode part after its KV arrived (found by the autoscale
    // property): up to drained_dropped transfers may be neither delivered nor dropped at decode.
    const drainedAfterTransfer = (extra: number) =>
      doctor(r, (x) => {
        x.pd!.transfers_initiated += extra;
        x.pd!.transfers_completed += extra;
        x.autoscaling = { drained_dropped: 2 } as SimulationResult['autoscaling'];
      });
    expect(checkPdOnly(drainedAfterTransfer(2))).toEqual([]);
    expect(checkPdOnly(drainedAfterTransfer(3))).toEqual(['INV-PD-3']);
    const partRecord = doctor(r, (x) => {
      x.requests![0].request_id += '_decode';
    });
    expect(names(checkInvariants(partRecord))).toContain('INV-PD-6');
    const book = doctor(r, (x) => {
      x.pd!.local_requests += 1;
    });
    expect(names(checkInvariants({ result: book, log: pdRun.log }))).toContain('INV-PD-BOOK');
  });

  it('KV tiers: counters that do not add up, and tiers that should not be there', () => {
    const tiered = simulateChecked({ ...base, totalKVBlocks: 40, kvCpuBlocks: 200 });
    expect(tiered.violations).toEqual([]);
    const r = doctor(tiered.result!, (x) => {
      x.kv_tiers!.cpu_evictions = x.kv_tiers!.mirrored_blocks + 1;
    });
    expect(names(checkInvariants(r))).toEqual(['KV-TIER']);
    expect(names(checkInvariants(tiered.result!, { config: base }))).toEqual(['KV-TIER']);
  });

  it('autoscaler: a scale action out of bounds, a forbidden lifecycle edge, a drain counter under the wrong policy', () => {
    const config = {
      ...base,
      workload: { ...base.workload, numRequests: 40, rate: 10 },
      autoscaling: { intervalUs: 500_000, policy: 'queue-depth', minReplicas: 1, maxReplicas: 3 },
      lifecycle: { drainPolicy: 'wait' as const },
    };
    const run = simulateChecked(config);
    expect(run.violations).toEqual([]);
    const out = withLog(run.log, (ev) => [...ev, { kind: 'scale-action', now: 1, pool: 'monolithic', before: 3, after: 4 }]);
    expect(names(checkInvariants({ result: run.result!, log: out }))).toEqual(['AUTOSCALE']);
    const edge = withLog(run.log, (ev) => [...ev, { kind: 'instance-state', now: 1, instance: 0, id: 'instance_0', state: 'loading' }]);
    expect(checkInvariants({ result: run.result!, log: edge }).violations[0].message).toMatch(/not an allowed transition/);
    const drained = doctor(run.result!, (x) => {
      x.autoscaling!.drained_dropped = 2;
    });
    expect(names(checkInvariants(drained))).toContain('AUTOSCALE');
  });

  it('INV-6: simulateChecked compares repeated runs when asked', () => {
    expect(simulateChecked(base, {}, { determinism: true }).checked).toContain('INV-6');
  });

  it('generates configs the schema accepts, with every opt-in feature', () => {
    const configs = fc.sample(simulationConfigArb({ pd: 'sometimes', autoscaling: 'sometimes', kvTiers: 'sometimes' }), { numRuns: propertyRuns(60), seed: 3 });
    for (const c of configs) expect(SimulationConfigSchema.safeParse(c).success).toBe(true);
    expect(configs.some((c) => c.pd !== undefined)).toBe(true);
    expect(configs.some((c) => c.autoscaling !== undefined)).toBe(true);
    expect(configs.some((c) => (c.kvCpuBlocks ?? 0) > 0 || c.kvOffload !== undefined)).toBe(true);
  });

  it('runs every opt-in feature clean', () => {
    fc.assert(
      fc.property(simulationConfigArb({ pd: 'sometimes', autoscaling: 'sometimes', kvTiers: 'sometimes', maxRequests: 30 }), (config) => {
        expect(simulateChecked(config).violations).toEqual([]);
      }),
      { numRuns: propertyRuns(30) },
    );
  });
});
