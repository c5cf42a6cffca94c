import { ArrayRequestSource, RequestPart } from '@blis/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';
import { LLAMA, Recorder, onePlusOne, pd2Latency, req } from './pd-example-helpers.js';

// Per-pool overrides of P/D runs (pd.prefill / pd.decode settings, per-pool routing scorers,
// shared pods, instances in no pool): each changes its own pool only. Times are µs.

describe('per-pool overrides', () => {
  const workload = { kind: 'synthetic' as const, rate: 20, numRequests: 40, promptTokens: 500, outputTokens: 50 };
  const base = { numInstances: 4, seed: 7, model: LLAMA, totalKVBlocks: 5000, checkInvariants: true, workload } as const;
  const run = (decode: { tp?: number; hardware?: string }) => {
    const rec = new Recorder();
    const r = simulate({ ...base, pd: { prefillInstances: 2, decodeInstances: 2, decider: 'always', decode } }, { observer: rec });
    const prefillSteps = rec.steps.filter((s) => s.instance < 2);
    return { r, prefillSteps, decodeItl: r.instances.slice(2).map((b) => b.itl_mean_ms) };
  };
  let plain: ReturnType<typeof run>;
  beforeAll(() => {
    plain = run({});
  });

  for (const decode of [{ tp: 2 }, { hardware: 'A100-80' }]) {
    it(`pd.decode ${JSON.stringify(decode)} changes the decode pods' ITL, not the prefill pods' steps`, () => {
      const o = run(decode);
      expect(o.r.completed_requests).toBe(40);
      expect(o.prefillSteps.length).toBeGreaterThan(0);
      expect(o.prefillSteps).toEqual(plain.prefillSteps);
      for (let k = 0; k < 2; k++) expect(o.decodeItl[k]).not.toBeCloseTo(plain.decodeItl[k], 3);
      // Faster with TP 2 on H100, slower on A100.
      if (decode.tp === 2) expect(o.r.itl_mean_ms).toBeLessThan(plain.r.itl_mean_ms);
      else expect(o.r.itl_mean_ms).toBeGreaterThan(plain.r.itl_mean_ms);
      // The transfer is sized by the prefill pods' TP, which did not change.
      expect(o.r.pd!.kv_transfer_duration).toEqual(plain.r.pd!.kv_transfer_duration);
    });
  }

  it('pd.prefill.maxModelLen drops the prefill parts of longer prompts, and so their parents', () => {
    // Prompts 300, 600, 900 tokens; prefill pods refuse prompts of 500 tokens or more.
    const specs = () => new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5), req(2, 2000, 900, 5)]);
    const rec = new Recorder();
    const r = simulate(onePlusOne({ decider: 'always', prefill: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs(), observer: rec });
    expect(r.completed_requests).toBe(1);
    expect(r.dropped_unservable).toBe(2);
    expect(r.requests!.map((q) => q.request_id)).toEqual(['0']);
    expect(rec.dropped.map((d) => [d.id, d.reason])).toEqual([
      ['1', 'unservable'],
      ['2', 'unservable'],
    ]);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, transfers_initiated: 1, transfers_completed: 1, dropped_at_decode_kv: 0 });
    // Requests kept local never see the prefill pool's limit.
    const local = simulate(onePlusOne({ decider: 'never', prefill: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs() });
    expect(local.completed_requests).toBe(3);
  });

  it('pd.decode.maxModelLen drops split requests over the decode window at the reservation (BLIS skips the check)', () => {
    // Prompts 300, 600 tokens with 5 outputs; the decode pods refuse prompt + output over 500.
    const specs = () => new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5)]);
    const r = simulate(onePlusOne({ decider: 'always', decode: { maxModelLen: 500 } }), { latency: pd2Latency(), source: specs() });
    expect(r.requests!.map((q) => q.request_id)).toEqual(['0']);
    expect(r.dropped_unservable).toBe(1);
    expect(r.pd).toMatchObject({ disaggregated_requests: 1, dropped_at_decode_kv: 1, transfers_initiated: 2, transfers_completed: 2 });
  });

  it('shared pods take the decode overrides ("decode wins")', () => {
    // 1 prefill pod + 1 shared pod; never: every request is whole on the shared pod, whose
    // context window is the decode pool's 500 tokens.
    const r = simulate(
      { numInstances: 2, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, pd: { prefillInstances: 1, prefillDecodeInstances: 1, decider: 'never', prefill: { maxModelLen: 5000 }, decode: { maxModelLen: 500 } } },
      { latency: pd2Latency(), source: new ArrayRequestSource([req(0, 0, 300, 5), req(1, 1000, 600, 5)]) },
    );
    expect(r.requests!.map((q) => [q.request_id, q.handled_by])).toEqual([['0', 'instance_1']]);
    expect(r.dropped_unservable).toBe(1);
  });

  it('prefillRoutingScorers / decodeRoutingScorers: that pool routes with a weighted scorer; the other keeps the main policy', () => {
    // 2 prefill + 2 decode pods, main policy round-robin (no scores).
    const specs = () => new ArrayRequestSource(Array.from({ length: 8 }, (_, i) => req(i, i * 100_000, 200, 3)));
    const cfg = (pd: SimulationConfigInput['pd']): SimulationConfigInput => ({ numInstances: 4, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, pd: { prefillInstances: 2, decodeInstances: 2, ...pd } });

    const plainRec = new Recorder();
    simulate(cfg({ decider: 'always' }), { latency: pd2Latency(), source: specs(), observer: plainRec });
    expect(plainRec.prefillRouting.every((p) => p.decision.scores === undefined && p.poolSize === 2)).toBe(true);
    // Round-robin over the prefill pool, a policy of its own: 0, 1, 0, 1, ...
    expect(plainRec.transfers.map((t) => t.prefillInstance)).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    expect(plainRec.transfers.map((t) => t.decodeInstance)).toEqual([2, 3, 2, 3, 2, 3, 2, 3]);

    const pre = new Recorder();
    simulate(cfg({ decider: 'always', prefillRoutingScorers: [{ name: 'queue-depth', weight: 1 }] }), { latency: pd2Latency(), source: specs(), observer: pre });
    expect(pre.prefillRouting).toHaveLength(8);
    for (const p of pre.prefillRouting) {
      expect(p.poolSize).toBe(2);
      expect(p.decision.scores).toHaveLength(2);
      expect(Object.keys(p.decision.breakdown ?? {})).toEqual(['queue-depth']);
    }

    // Decode scorers: seen on the routing of requests kept local (never), whose pool is the decode pool.
    const dec = new Recorder();
    simulate(cfg({ decider: 'never', decodeRoutingScorers: [{ name: 'kv-utilization', weight: 1 }] }), { latency: pd2Latency(), source: specs(), observer: dec });
    expect(dec.routing).toHaveLength(8);
    for (const p of dec.routing) {
      expect(p.poolSize).toBe(2);
      expect(p.decision.scores).toHaveLength(2);
      expect(Object.keys(p.decision.breakdown ?? {})).toEqual(['kv-utilization']);
    }
    expect(dec.scheduled.every((s) => s.part === RequestPart.Whole && s.instance >= 2)).toBe(true);
    const decPlain = new Recorder();
    simulate(cfg({ decider: 'never' }), { latency: pd2Latency(), source: specs(), observer: decPlain });
    expect(decPlain.routing.every((p) => p.decision.scores === undefined)).toBe(true);
  });

  it('instances beyond P + D + S are in no pool and get nothing', () => {
    const r = simulate(
      { numInstances: 5, model: LLAMA, tp: 1, totalKVBlocks: 1000, checkInvariants: true, pd: { prefillInstances: 1, decodeInstances: 1, prefillDecodeInstances: 1, decider: 'always' } },
      { latency: pd2Latency(), source: new ArrayRequestSource(Array.from({ length: 12 }, (_, i) => req(i, i * 50_000, 300, 4))) },
    );
    expect(r.completed_requests).toBe(12);
    expect(r.pd!.pools).toEqual({ prefill: ['instance_0'], decode: ['instance_1'], shared: ['instance_2'], unassigned: ['instance_3', 'instance_4'] });
    expect(r.target_distribution.instance_3).toBe(0);
    expect(r.target_distribution.instance_4).toBe(0);
    expect(r.instances.slice(3).map((b) => [b.pool, b.completed_requests])).toEqual([
      ['unassigned', 0],
      ['unassigned', 0],
    ]);
  });
});
