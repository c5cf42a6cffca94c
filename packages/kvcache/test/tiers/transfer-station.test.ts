import { describe, expect, it } from 'vitest';
import { TransferStation } from '../../src/index.js';
import { PER_BLOCK_BYTES, fsTier, seededNormal } from './helpers.js';

const { READ, WRITE } = TransferStation;

interface Done {
  id: number;
  tier: number;
  dir: number;
  at: number;
  tag: number;
}

function drain(st: TransferStation, now: number): Done[] {
  const n = st.drainCompleted(now);
  const out: Done[] = [];
  for (let i = 0; i < n; i++) out.push({ id: st.completedJob(i), tier: st.completedTier(i), dir: st.completedDirection(i), at: st.completedAt(i), tag: st.completedTag(i) });
  return out;
}

describe('TransferStation service times (reference §1.9 KV-3)', () => {
  it('one-block write 80 + floor(2,097,152 / 5000) = 499; four-block read 80 + floor(8,388,608 / 7000) = 1278', () => {
    const st = new TransferStation([fsTier('nvme_gen4', { nReadThreads: 1, nWriteThreads: 1 })]);
    expect(st.serviceTicks(0, WRITE, PER_BLOCK_BYTES)).toBe(499);
    expect(st.serviceTicks(0, READ, 4 * PER_BLOCK_BYTES)).toBe(1278);
  });

  it('KV-3 sequence: W1 takes the idle read server, R waits for it and completes at 1777, W3 at 998', () => {
    const st = new TransferStation([fsTier('nvme_gen4', { nReadThreads: 1, nWriteThreads: 1 })]);
    const w1 = st.submit(0, WRITE, PER_BLOCK_BYTES, 0);
    const w2 = st.submit(0, WRITE, PER_BLOCK_BYTES, 0);
    const w3 = st.submit(0, WRITE, PER_BLOCK_BYTES, 0);
    expect([w1, w2, w3]).toEqual([1, 2, 3]);
    // W1 on the read-priority server (fallback: no read waits), W2 on the write server, W3 queued.
    expect(st.activeJobs(0, WRITE)).toBe(2);
    expect(st.queuedJobs(0, WRITE)).toBe(1);
    expect(st.idleServers(0)).toBe(0);
    const r = st.submit(0, READ, 4 * PER_BLOCK_BYTES, 100);
    expect(st.queuedJobs(0, READ)).toBe(1);
    // Nothing is handed over before 499, and the two 499 completions come in id order.
    expect(drain(st, 498)).toEqual([]);
    expect(drain(st, 499).map((d) => [d.id, d.at])).toEqual([
      [w1, 499],
      [w2, 499],
    ]);
    expect(st.activeJobs(0, READ)).toBe(1);
    expect(st.activeJobs(0, WRITE)).toBe(1);
    expect(drain(st, 1000).map((d) => [d.id, d.at])).toEqual([[w3, 998]]);
    expect(drain(st, 1777).map((d) => [d.id, d.dir, d.at])).toEqual([[r, READ, 1777]]);
    st.checkConsistency();
  });

  it('a freed read-priority server prefers a waiting read over an older waiting write', () => {
    // W1 (499) on the read server, W2 (4 blocks: 80 + floor(8,388,608 / 5000) = 1757) on the
    // write server; W3 and R wait. At 499 the read server takes R (499 + 1278 = 1777), and W3
    // waits for the write server (1757 + 499 = 2256). Taking W3 first would finish it at 998.
    const st = new TransferStation([fsTier('nvme_gen4', { nReadThreads: 1, nWriteThreads: 1 })]);
    st.submit(0, WRITE, PER_BLOCK_BYTES, 0);
    st.submit(0, WRITE, 4 * PER_BLOCK_BYTES, 0);
    const w3 = st.submit(0, WRITE, PER_BLOCK_BYTES, 0);
    const r = st.submit(0, READ, 4 * PER_BLOCK_BYTES, 100);
    const done = drain(st, 10_000);
    expect(done.map((d) => [d.id, d.at])).toEqual([
      [1, 499],
      [2, 1757],
      [r, 1777],
      [w3, 2256],
    ]);
  });

  it('a write-priority server serves reads when no write waits (fallback): 80 + floor(2,097,152 / 7000) = 379', () => {
    const st = new TransferStation([fsTier('nvme_gen4', { nReadThreads: 1, nWriteThreads: 1 })]);
    st.submit(0, READ, PER_BLOCK_BYTES, 0);
    st.submit(0, READ, PER_BLOCK_BYTES, 0);
    expect(st.activeJobs(0, READ)).toBe(2);
    expect(drain(st, 379).map((d) => d.at)).toEqual([379, 379]);
  });

  it('queue-depth ramp: Qsat 4, f1 0.25, bw 7000 gives 1750, 3500, 5250, 7000', () => {
    const st = new TransferStation([fsTier('nvme_gen4', { nReadThreads: 4, nWriteThreads: 0 }, { saturationQueueDepth: 4, singleTransferFraction: 0.25 })]);
    expect([1, 2, 3, 4, 5].map((q) => st.effectiveBandwidth(0, READ, q))).toEqual([1750, 3500, 5250, 7000, 7000]);
    // Four reads of 7,000,000 bytes started together see depths 1, 2, 3, 4:
    // 80 + 4000, 80 + 2000, 80 + floor(1333.3), 80 + 1000.
    for (let i = 0; i < 4; i++) st.submit(0, READ, 7_000_000, 0);
    expect(drain(st, 5000).map((d) => [d.id, d.at])).toEqual([
      [4, 1080],
      [3, 1413],
      [2, 2080],
      [1, 4080],
    ]);
  });

  it('the ramp is off when Qsat < 2 or f1 is 1', () => {
    const a = new TransferStation([fsTier('nvme_gen4', {}, { saturationQueueDepth: 1, singleTransferFraction: 0.25 })]);
    const b = new TransferStation([fsTier('nvme_gen4', {}, { saturationQueueDepth: 4, singleTransferFraction: 1 })]);
    expect(a.effectiveBandwidth(0, READ, 1)).toBe(7000);
    expect(b.effectiveBandwidth(0, WRITE, 1)).toBe(5000);
  });

  it('caps the bandwidth part of a service time at 2^60', () => {
    const st = new TransferStation([fsTier('nvme_gen4', {}, { readBandwidth: 1e-9 })]);
    expect(st.serviceTicks(0, READ, 2 ** 52)).toBe(80 + 2 ** 60);
  });

  it('a zero-length job started at the clock is reported at the next later tick, as in BLIS', () => {
    const st = new TransferStation([fsTier('nvme_gen4', {}, { baseLatencyUs: 0 })]);
    st.submit(0, READ, 0, 5);
    expect(drain(st, 5)).toEqual([]);
    expect(drain(st, 6).map((d) => d.at)).toEqual([5]);
  });

  it('carries the tag to the completion (sata_ssd write: 150 + floor(2,097,152 / 500) = 4344)', () => {
    const st = new TransferStation([fsTier(), fsTier('sata_ssd')]);
    st.submit(1, WRITE, PER_BLOCK_BYTES, 0, 2 ** 51 + 7);
    expect(drain(st, 10_000)).toEqual([{ id: 1, tier: 1, dir: WRITE, at: 4344, tag: 2 ** 51 + 7 }]);
  });

  it('rejects invalid tiers and jobs', () => {
    expect(() => new TransferStation([])).toThrow();
    expect(() => new TransferStation([fsTier('nvme_gen4', { nReadThreads: 0, nWriteThreads: 0 })])).toThrow(/server/);
    expect(() => new TransferStation([fsTier('nvme_gen4', {}, { saturationQueueDepth: 4, singleTransferFraction: 0 })])).toThrow(/fraction/);
    expect(() => new TransferStation([fsTier('nvme_gen4', {}, { latencyJitterStddev: 0.1 })])).toThrow(/normal/);
    const st = new TransferStation([fsTier()]);
    expect(() => st.submit(1, READ, 1, 0)).toThrow(/tier/);
    expect(() => st.submit(0, 2, 1, 0)).toThrow(/direction/);
    expect(() => st.submit(0, READ, 1.5, 0)).toThrow(/bytes/);
  });
});

describe('TransferStation jitter', () => {
  it('scales the service time by max(0.05, 1 + N·σ), rounded', () => {
    const draws = [0.5, -20];
    const st = new TransferStation([fsTier('nvme_gen4', {}, { latencyJitterStddev: 0.1 })], { normal: () => draws.shift() as number });
    st.submit(0, WRITE, PER_BLOCK_BYTES, 0); // round(499 · 1.05) = round(523.95) = 524
    st.submit(0, WRITE, PER_BLOCK_BYTES, 0); // factor max(0.05, 1 - 2) = 0.05: round(24.95) = 25
    expect(drain(st, 1000).map((d) => [d.id, d.at])).toEqual([
      [2, 25],
      [1, 524],
    ]);
  });

  it('σ = 0 never calls the normal source; a jittered tier draws once per submission', () => {
    let calls = 0;
    const normal = (): number => {
      calls++;
      return 0;
    };
    const st = new TransferStation([fsTier(), fsTier('nvme_gen3', {}, { latencyJitterStddev: 0.2 })], { normal });
    for (let i = 0; i < 5; i++) st.submit(0, i % 2, PER_BLOCK_BYTES, i * 10);
    drain(st, 100_000);
    expect(calls).toBe(0);
    st.submit(1, READ, PER_BLOCK_BYTES, 100_001);
    st.submit(1, WRITE, PER_BLOCK_BYTES, 100_002);
    expect(calls).toBe(2);
  });

  it('two stations fed the same seeded normal source complete identically', () => {
    const tiers = [fsTier('nvme_gen4', { nReadThreads: 2, nWriteThreads: 1 }, { latencyJitterStddev: 0.3 }), fsTier('s3', { nReadThreads: 1, nWriteThreads: 1 }, { latencyJitterStddev: 0.5 })];
    const run = (): Done[] => {
      const st = new TransferStation(tiers, { normal: seededNormal(42) });
      const out: Done[] = [];
      for (let i = 0; i < 200; i++) {
        st.submit(i % 2, (i * 7) % 3 === 0 ? READ : WRITE, PER_BLOCK_BYTES * (1 + (i % 4)), i * 50);
        if (i % 10 === 9) out.push(...drain(st, i * 50));
      }
      out.push(...drain(st, 10_000_000));
      return out;
    };
    const a = run();
    expect(a).toHaveLength(200);
    expect(run()).toEqual(a);
    // And the jitter is really there: some completion is not at a jitter-free time.
    const plain = new TransferStation(tiers.map((t) => ({ ...t, device: { ...t.device, latencyJitterStddev: 0 } })));
    const b: Done[] = [];
    for (let i = 0; i < 200; i++) plain.submit(i % 2, (i * 7) % 3 === 0 ? READ : WRITE, PER_BLOCK_BYTES * (1 + (i % 4)), i * 50);
    b.push(...drain(plain, 10_000_000));
    expect(b.map((d) => d.at)).not.toEqual(a.map((d) => d.at));
  });
});
