import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SecondaryTierConfig, TransferStation } from '../../src/index.js';
import { fsTier } from './helpers.js';
import { propertyRuns } from '../../../../tools/test-support/property-runs.js';

// Random submission/drain sequences: the completion order is a deterministic total order sorted
// by (completeAt, submitTick, tier, direction, id), no server idles while work waits (BC-S2),
// and every job completes exactly once.

const tierArb: fc.Arbitrary<SecondaryTierConfig> = fc
  .record({
    nRead: fc.integer({ min: 0, max: 3 }),
    nWrite: fc.integer({ min: 0, max: 3 }),
    // Base >= 1: every service time is at least one tick, so completions drained at later ticks
    // always sort after earlier ones (a zero-time job can complete at the current tick after
    // the station has already reported others of that tick).
    base: fc.integer({ min: 1, max: 200 }),
    // Often equal, so that reads and writes of one size tie on completion time.
    readBw: fc.oneof(fc.constantFrom(1000, 5000), fc.integer({ min: 1, max: 10_000 })),
    writeBw: fc.oneof(fc.constantFrom(1000, 5000), fc.integer({ min: 1, max: 10_000 })),
    qsat: fc.integer({ min: 0, max: 5 }),
    f1: fc.constantFrom(0.25, 0.5, 1),
  })
  .filter((t) => t.nRead + t.nWrite > 0)
  .map((t) =>
    fsTier(
      'nvme_gen4',
      { nReadThreads: t.nRead, nWriteThreads: t.nWrite },
      { baseLatencyUs: t.base, readBandwidth: t.readBw, writeBandwidth: t.writeBw, saturationQueueDepth: t.qsat, singleTransferFraction: t.f1 },
    ),
  );

type Op = { t: 'submit'; tier: number; dir: number; bytes: number; dt: number } | { t: 'drain'; dt: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({
      t: fc.constant('submit' as const),
      tier: fc.nat(2),
      dir: fc.constantFrom(0, 1),
      // A few sizes recur, and many jobs share a tick, so that ties in the completion order are common.
      bytes: fc.oneof(fc.constantFrom(0, 5000, 100_000), fc.nat(1_000_000)),
      dt: fc.oneof(fc.constant(0), fc.nat(300)),
    }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('drain' as const), dt: fc.nat(2000) }) },
);

type Row = [completeAt: number, submitTick: number, tier: number, dir: number, id: number];

function run(tiers: SecondaryTierConfig[], ops: Op[], check: boolean): Row[] {
  const st = new TransferStation(tiers);
  const submitted = new Map<number, number>();
  const rows: Row[] = [];
  let now = 0;
  const drainTo = (t: number): void => {
    const n = st.drainCompleted(t);
    for (let i = 0; i < n; i++) {
      const id = st.completedJob(i);
      const at = st.completedAt(i);
      if (check && at > t) throw new Error(`job ${id} handed over at ${t}, before its completion ${at}`);
      rows.push([at, submitted.get(id) as number, st.completedTier(i), st.completedDirection(i), id]);
    }
  };
  const checkIdle = (): void => {
    if (!check) return;
    st.checkConsistency();
    for (let t = 0; t < tiers.length; t++) {
      const waiting = st.queuedJobs(t, 0) + st.queuedJobs(t, 1);
      if (st.idleServers(t) > 0 && waiting > 0) throw new Error(`BC-S2: tier ${t} idles with ${waiting} waiting`);
      const busy = st.activeJobs(t, 0) + st.activeJobs(t, 1);
      if (busy + st.idleServers(t) !== tiers[t].nReadThreads + tiers[t].nWriteThreads) throw new Error(`BC-S1: tier ${t} server count`);
    }
  };
  for (const op of ops) {
    now += op.dt;
    if (op.t === 'submit') {
      const tier = op.tier % tiers.length;
      const id = st.submit(tier, op.dir, op.bytes, now);
      submitted.set(id, now);
    } else drainTo(now);
    checkIdle();
  }
  drainTo(Number.MAX_SAFE_INTEGER);
  checkIdle();
  if (check && rows.length !== submitted.size) throw new Error(`${submitted.size} submitted, ${rows.length} completed`);
  return rows;
}

function compareRows(a: Row, b: Row): number {
  for (let i = 0; i < 5; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

describe('TransferStation properties', () => {
  it('completion order is total, deterministic and sorted by (completeAt, submitTick, tier, direction, id); BC-S2 holds throughout', () => {
    fc.assert(
      fc.property(fc.array(tierArb, { minLength: 1, maxLength: 3 }), fc.array(opArb, { maxLength: 120 }), (tiers, ops) => {
        const rows = run(tiers, ops, true);
        expect(run(tiers, ops, false)).toEqual(rows);
        for (let i = 1; i < rows.length; i++) expect(compareRows(rows[i - 1], rows[i])).toBeLessThan(0);
        expect(new Set(rows.map((r) => r[4])).size).toBe(rows.length);
      }),
      { seed: 0x5eed_0001, verbose: true, numRuns: propertyRuns(300) },
    );
  });
});
