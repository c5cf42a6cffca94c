import { InstanceSimulator } from '@blis/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, prepareSimulation, runPrepared } from '../../src/index.js';
import { InstanceState } from '../../src/autoscale/lifecycle-state.js';
import { scripted } from './helpers.js';

// Replicas that terminate give their KV memory back (caches, tiers, prefix signals): a run that
// scales up and down many times holds the caches of the replicas alive, as the memory estimate
// assumes. Retiring changes memory only: each run's result must be byte for byte the result of
// the same run with retiring switched off.

const S = 1_000_000;
const INTERVAL = 2 * S;

/** Up by 2 and down by 2 at alternate evaluations: replicas come and go all run long. */
const churn = () => scripted((ctx) => (Math.round(ctx.nowUs / INTERVAL) % 2 === 1 ? 2 : -2));

function config(drainPolicy: 'wait' | 'immediate' | 'redirect', extra: Partial<SimulationConfigInput> = {}): SimulationConfigInput {
  return {
    seed: 7,
    numInstances: 2,
    maxNumSeqs: 8,
    totalKVBlocks: 400,
    checkInvariants: true,
    includeRequests: true,
    timeseriesIntervalUs: S,
    routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 2 }, { name: 'queue-depth', weight: 1 }] },
    cacheSignalDelayUs: 50_000,
    workload: { kind: 'synthetic', rate: 30, numRequests: 600, promptTokens: 256, prefixTokens: 128, outputTokens: 48, timeoutUs: 0 },
    autoscaling: {
      intervalUs: INTERVAL,
      minReplicas: 1,
      maxReplicas: 5,
      scaleUpStabilizationWindowUs: 0,
      scaleDownStabilizationWindowUs: 0,
      cooldownUs: 0,
      scrapeDelay: { meanUs: 0, stddevUs: 0 },
    },
    lifecycle: { loadingDelay: { meanUs: 300_000, stddevUs: 0 }, drainPolicy },
    ...extra,
  };
}

interface Run {
  result: SimulationResult;
  /** Per terminated replica: its cache retired, and the blocks it still held. */
  terminated: { index: number; retired: boolean; usedBlocks: number; tiersRetired: boolean | undefined }[];
}

function run(cfg: SimulationConfigInput): Run {
  const prepared = prepareSimulation(cfg, { autoscaler: churn });
  const result = runPrepared(prepared);
  prepared.cluster.checkConservation();
  const { fleet, instances } = prepared.cluster;
  const terminated = fleet!.replicas
    .filter((r) => r.state === InstanceState.Terminated)
    .map((r) => {
      const inst = instances[r.index];
      // A retired tier refuses to be stepped: that is how it shows.
      const tiersRetired = inst.kvTiers === undefined ? undefined : throwsRetired(() => inst.kvTiers!.mirror({ count: 0, owners: [], inputTokens: [], keys: [], hashCounts: [], hashesOf: () => [] }, 0));
      return { index: r.index, retired: inst.kv.retired, usedBlocks: inst.kv.usedBlocks, tiersRetired };
    });
  return { result, terminated };
}

function throwsRetired(f: () => void): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof Error && /retired/.test(e.message)) return true;
    throw e;
  }
}

/** The same run with `retireKV` doing nothing: what every run was before terminated replicas retired. */
function runWithoutRetiring(cfg: SimulationConfigInput): SimulationResult {
  const spy = vi.spyOn(InstanceSimulator.prototype, 'retireKV').mockImplementation(() => {});
  try {
    const r = run(cfg);
    expect(r.terminated.some((t) => t.retired)).toBe(false);
    return r.result;
  } finally {
    spy.mockRestore();
  }
}

function expectChurnRetiresAll(cfg: SimulationConfigInput): Run {
  const r = run(cfg);
  expect(r.terminated.length).toBeGreaterThanOrEqual(6);
  for (const t of r.terminated) expect(t).toEqual({ index: t.index, retired: true, usedBlocks: 0, tiersRetired: t.tiersRetired === undefined ? undefined : true });
  expect(JSON.stringify(r.result)).toBe(JSON.stringify(runWithoutRetiring(cfg)));
  return r;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('terminated replicas give their KV memory back', () => {
  it('wait drain, prefix routing on a delayed cache signal, a CPU tier: every terminated replica is retired, results unchanged', () => {
    const r = expectChurnRetiresAll(config('wait', { kvCpuBlocks: 2000 }));
    expect(r.result.completed_requests).toBe(600);
    expect(r.terminated.every((t) => t.tiersRetired === true)).toBe(true);
  });

  it('immediate drain, an offload chain with a secondary tier: every terminated replica is retired, results unchanged', () => {
    const r = expectChurnRetiresAll(
      config('immediate', { kvOffload: { cpuBytesToUse: 2000 * 2_097_152, secondaryTiers: [{ type: 'fs', rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4' }] } }),
    );
    expect(r.result.autoscaling!.drained_dropped).toBeGreaterThan(0);
  });

  it('redirect drain: every terminated replica is retired, results unchanged', () => {
    const r = expectChurnRetiresAll(config('redirect'));
    expect(r.result.autoscaling!.redirected).toBeGreaterThan(0);
  });

  it('P/D with both pools scaling (wait drain): every terminated pod is retired, results unchanged', () => {
    expectChurnRetiresAll(config('wait', { numInstances: 2, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } }));
  });

  it('P/D, immediate drain with transfers in flight: each reservation goes back when its transfer ends, and every terminated pod is retired', () => {
    // Transfers of 300 ms: scale-downs find some in flight to the decode pods they drain.
    const cfg = config('immediate', { numInstances: 2, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always', transferBaseLatencyMs: 300 } });
    // With no deadlines, a reservation is given back only by a transfer that ends at a dead pod.
    const released = vi.spyOn(InstanceSimulator.prototype, 'releaseReservedKV');
    const r = run(cfg);
    expect(released.mock.calls.length).toBeGreaterThan(0);
    expect(r.terminated.length).toBeGreaterThanOrEqual(6);
    for (const t of r.terminated) expect(t, `replica ${t.index}`).toMatchObject({ retired: true, usedBlocks: 0 });
    expect(r.result.autoscaling!.drained_dropped).toBeGreaterThan(0);
  });
});
