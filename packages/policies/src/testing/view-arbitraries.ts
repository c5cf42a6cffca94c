import fc from 'fast-check';
import type {
  AutoScaleContext,
  InstanceSnapshot,
  KVCacheView,
  PoolType,
  ReplicaMetrics,
  RequestView,
  RouterState,
  SchedulerContext,
  SchedulerEntry,
} from '../views.js';
import { autoScaleContext, kvView, request, routerState, type SnapshotInit, snapshot } from './builders.js';

/** SLO classes a generated request may carry: the five of WorkloadSpec v2, none, and an unknown one. */
export const TEST_SLO_CLASSES: readonly string[] = Object.freeze(['critical', 'standard', 'sheddable', 'batch', 'background', '', 'other']);

/** Block hashes are drawn from a small pool so that requests and caches overlap. */
const hashArb = fc.integer({ min: 1, max: 12 });

// Zero and small counts are where the edge cases (all equal, empty queues) live.
const countArb = (max: number) => fc.oneof(fc.constant(0), fc.nat(4), fc.nat(max));

/** Plain data for a request view (what {@link requestViewArb} builds from). */
export const requestInitArb: fc.Arbitrary<Partial<RequestView>> = fc.record({
  index: fc.nat(1000),
  blockHashes: fc.array(hashArb, { maxLength: 8 }),
  inputTokens: fc.integer({ min: 1, max: 20_000 }),
  clientId: fc.constantFrom('', 'c1'),
  sloClass: fc.constantFrom(...TEST_SLO_CLASSES),
  tenantId: fc.constantFrom('a', 'b', ''),
  sessionId: fc.constantFrom('', 's1', 's2'),
  roundIndex: fc.nat(5),
  prefixGroup: fc.constantFrom('', 'g1'),
  streaming: fc.boolean(),
  arrivalUs: fc.nat(1_000_000_000),
  priority: fc.double({ min: -10, max: 10, noNaN: true }),
  sloTargetUs: fc.oneof(fc.constant(0), fc.nat(5_000_000)),
});

/**
 * Any request view: up to 8 block hashes from a pool of 12 (so requests share prefixes with
 * each other and with generated caches), any SLO class including '' and an unknown one, three
 * tenants, sessions, priorities in [-10, 10]. No output length, as the contract demands.
 */
export const requestViewArb: fc.Arbitrary<RequestView> = requestInitArb.map((r) => request(r));

/** Any KV cache view holding up to 8 of the pooled block hashes. */
export const kvCacheViewArb: fc.Arbitrary<KVCacheView> = fc
  .record({ cached: fc.uniqueArray(hashArb, { maxLength: 8 }), totalBlocks: fc.integer({ min: 8, max: 100_000 }) })
  .map(({ cached, totalBlocks }) => kvView(cached, totalBlocks));

/** Plain data for a snapshot (what {@link instanceSnapshotArb} builds from). */
export const snapshotInitArb: fc.Arbitrary<SnapshotInit> = fc.record({
  queueDepth: countArb(300),
  batchSize: countArb(64),
  inFlightRequests: countArb(300),
  kvUtilization: fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  cacheHitRate: fc.double({ min: 0, max: 1, noNaN: true }),
  cached: fc.uniqueArray(hashArb, { maxLength: 8 }),
});

/** Any instance snapshot (at position `index`), with a KV view holding some pooled block hashes. */
export function instanceSnapshotArb(index = 0, pool?: PoolType): fc.Arbitrary<InstanceSnapshot> {
  return snapshotInitArb.map((s) => snapshot({ ...s, ...(pool !== undefined ? { pool } : {}) }, index));
}

/** Options of {@link routerStateArb}. */
export interface RouterStateArbOptions {
  /** Fewest and most instances. Defaults 1 and 8. */
  minInstances?: number;
  maxInstances?: number;
}

/**
 * Any router state: `minInstances`..`maxInstances` instance snapshots indexed by position, a
 * clock, saturation in [0, 3], and tenants `a` (some in flight) and `b` (none).
 */
export function routerStateArb(options: RouterStateArbOptions = {}): fc.Arbitrary<RouterState> {
  return fc
    .record({
      instances: fc.array(snapshotInitArb, { minLength: options.minInstances ?? 1, maxLength: options.maxInstances ?? 8 }),
      nowUs: fc.nat(1_000_000_000),
      saturation: fc.double({ min: 0, max: 3, noNaN: true }),
      globalInFlight: fc.nat(1000),
      recentRate: fc.double({ min: 0, max: 1000, noNaN: true }),
      tenantInFlight: fc.nat(20),
    })
    .map((s) =>
      routerState(
        s.instances.map((init, i) => snapshot(init, i)),
        { nowUs: s.nowUs, saturation: s.saturation, globalInFlight: s.globalInFlight, recentRate: s.recentRate, tenants: { a: { inFlight: s.tenantInFlight, requests: s.tenantInFlight }, b: {} } },
      ),
    );
}

/** Any scheduler entry: a {@link requestViewArb} request with an enqueue sequence number. */
export const schedulerEntryArb: fc.Arbitrary<SchedulerEntry> = fc.record({ request: requestViewArb, enqueueSeq: fc.nat(10_000) });

/** Any scheduler context. */
export const schedulerContextArb: fc.Arbitrary<SchedulerContext> = fc.record({
  nowUs: fc.nat(1_000_000_000),
  instanceIndex: fc.nat(7),
  queueDepth: fc.nat(300),
  batchSize: fc.nat(64),
});

/** Plain data for an autoscaler context; {@link buildAutoScaleContext} turns it into one. */
export interface AutoScaleInit {
  readonly replicas: readonly Partial<ReplicaMetrics>[];
  readonly nowUs: number;
  readonly pool: PoolType;
  readonly pendingReplicas: number;
  readonly drainingReplicas: number;
  readonly minReplicas: number;
  /** maxReplicas - minReplicas (Infinity: unbounded). */
  readonly extraMax: number;
  readonly waitingRequests: number;
  readonly requestRate: number;
  readonly sloAttainment: number | null;
  readonly timeSinceLastScaleUs: number;
}

/** Any {@link AutoScaleInit}. */
export const autoScaleInitArb: fc.Arbitrary<AutoScaleInit> = fc.record({
  replicas: fc.array(
    fc.record({
      state: fc.constantFrom('active' as const, 'warming-up' as const),
      queueDepth: countArb(200),
      batchSize: countArb(64),
      inFlightRequests: countArb(200),
      kvTokensInUse: fc.integer({ min: 0, max: 160_000 }),
      costPerHour: fc.constantFrom(0, 2.5),
    }),
    { maxLength: 8 },
  ),
  nowUs: fc.nat(1_000_000_000),
  pool: fc.constantFrom('monolithic' as const, 'prefill' as const, 'decode' as const),
  pendingReplicas: fc.nat(3),
  drainingReplicas: fc.nat(2),
  minReplicas: fc.nat(2),
  extraMax: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.nat(10)),
  waitingRequests: countArb(500),
  requestRate: fc.double({ min: 0, max: 500, noNaN: true }),
  sloAttainment: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })),
  timeSinceLastScaleUs: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.nat(600_000_000)),
});

/** An autoscaler context from {@link autoScaleInitArb}'s plain data (max >= min, history empty). */
export function buildAutoScaleContext(c: AutoScaleInit): AutoScaleContext {
  return autoScaleContext(c.replicas, {
    nowUs: c.nowUs,
    pool: c.pool,
    pendingReplicas: c.pendingReplicas,
    pendingKvCapacityTokens: c.pendingReplicas * 160_000,
    drainingReplicas: c.drainingReplicas,
    minReplicas: c.minReplicas,
    maxReplicas: Math.max(1, c.minReplicas + c.extraMax),
    waitingRequests: c.waitingRequests,
    requestRate: c.requestRate,
    sloAttainment: c.sloAttainment,
    timeSinceLastScaleUs: c.timeSinceLastScaleUs,
  });
}

/**
 * Any autoscaler context: 0-8 routable replicas (active or warming up) with load and KV use,
 * pending and draining replicas, bounds with max >= min (or unbounded), demand waiting, an SLO
 * attainment or null, and the time since the last scale action (or never).
 */
export const autoScaleContextArb: fc.Arbitrary<AutoScaleContext> = autoScaleInitArb.map(buildAutoScaleContext);
