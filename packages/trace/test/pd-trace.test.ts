import { SimRequest, makeRequestSpec } from '@blis/engine';
import type { InstanceSnapshot, PoolType, RouterState } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import type { DisaggregationRecord, KvTransferRecord, OutcomeRecord, PrefillRoutingRecord, RoutingRecord, TraceRecord } from '../src/records.js';
import { estimateTokens, summarizeTrace } from '../src/summary.js';
import { analyzeTrace } from '../src/trace-analyzer.js';
import { parseTrace } from '../src/trace-reader.js';
import { TraceRecorder } from '../src/trace-recorder.js';
import { MemorySink } from '../src/trace-sink.js';

// P/D records as the recorder writes them from the cluster's hooks, and the analyzer's and
// summary's reading of them. Whole runs are in packages/cluster/test/pd-trace.test.ts (the
// trace package sits below the cluster and cannot run one).

/** A pool member: instance `index`, at `queue` waiting requests, holding `pb` prefix blocks. */
function snapshot(index: number, pool: PoolType, queue: number, pb = 0): InstanceSnapshot {
  return {
    index,
    id: `instance_${index}`,
    pool,
    queueDepth: queue,
    batchSize: 0,
    kvUtilization: 0,
    freeKVBlocks: 100,
    totalKVBlocks: 100,
    cacheHitRate: 0,
    inFlightRequests: 0,
    snapshotTimeUs: 0,
    kv: { totalBlocks: 100, usedBlocks: 0, freeBlocks: 100, blockSizeTokens: 16, cachedPrefixBlocks: () => pb },
  };
}

function poolState(instances: InstanceSnapshot[]): RouterState {
  return { nowUs: 0, instances, globalInFlight: 0, recentRate: 0, saturation: 0, tenant: (tenantId) => ({ tenantId, requests: 0, inFlight: 0, recentRate: 0 }) };
}

const request = (id: string, inputTokens: number) =>
  new SimRequest(makeRequestSpec({ index: 0, id, arrivalUs: 0, inputTokens, outputTokens: 8, blockHashes: inputTokens === 0 ? [] : [11, 12, 13, 14] }), 0);

function recorder(k = 0, level: 'decisions' | 'full' = 'decisions') {
  const sink = new MemorySink();
  const rec = new TraceRecorder({ level, counterfactualK: k, sink });
  return { rec, read: () => parseTrace(sink.text()).slice(1) };
}

describe('the recorder under P/D', () => {
  for (const level of ['decisions', 'full'] as const) {
    it(`writes the decider's answer at level ${level}`, () => {
      const { rec, read } = recorder(0, level);
      rec.onDisaggregation(request('a', 64), { disaggregate: true, reason: 'always' }, 3, 500);
      rec.onDisaggregation(request('b', 64), { disaggregate: false, reason: 'prefix-threshold: 0 uncached' }, 2, 600);
      const expected: DisaggregationRecord[] = [
        { t: 'disaggregation', ts: 500, id: 'a', disaggregate: true, reason: 'always', decode_inst: 3 },
        { t: 'disaggregation', ts: 600, id: 'b', disaggregate: false, reason: 'prefix-threshold: 0 uncached', decode_inst: 2 },
      ];
      expect(read()).toEqual(expected);
    });
  }

  it('says a request without a prompt was kept local, whatever the decider said', () => {
    const { rec, read } = recorder();
    rec.onDisaggregation(request('empty', 0), { disaggregate: true, reason: 'always' }, 2, 1);
    expect(read()).toEqual([{ t: 'disaggregation', ts: 1, id: 'empty', disaggregate: false, reason: 'always; no prompt, kept local', decode_inst: 2 }]);
  });

  it('writes prefill routing by instance index, with regret and the top K as for routing', () => {
    const { rec, read } = recorder(2);
    // A prefill pool of instances 4, 5, 6 (positions 0, 1, 2); the policy picked position 0
    // (score 3) over position 1 (score 5): regret 5 - 3 = 2.
    const state = poolState([snapshot(4, 'prefill', 1, 2), snapshot(5, 'prefill', 0), snapshot(6, 'shared', 7)]);
    rec.onPrefillRouting(request('p', 64), { instance: 0, reason: 'weighted', scores: [3, 5, 1], breakdown: { 'queue-depth': [0.5, 1, 0] } }, state, 900);
    const [r] = read() as PrefillRoutingRecord[];
    expect(r).toEqual({
      t: 'prefill_routing',
      ts: 900,
      id: 'p',
      inst: 4,
      reason: 'weighted',
      scored: 'policy',
      scores: [3, 5, 1],
      by: { 'queue-depth': [0.5, 1, 0] },
      snap: [
        { q: 1, b: 0, f: 0, kv: 0, free: 100, pb: 2, age: 900 },
        { q: 0, b: 0, f: 0, kv: 0, free: 100, pb: 0, age: 900 },
        { q: 7, b: 0, f: 0, kv: 0, free: 100, pb: 0, age: 900 },
      ],
      regret: 2,
      pool: [4, 5, 6],
      topk: [
        { i: 5, s: 5, by: { 'queue-depth': 1 } },
        { i: 4, s: 3, by: { 'queue-depth': 0.5 } },
      ],
    });
  });

  it('names the decode pool of a request kept local, and no pool for a monolithic router', () => {
    const { rec, read } = recorder(1);
    // Unscored: BLIS's load fallback -(queue + batch + in flight): -2 and 0; position 0 chosen.
    rec.onRouting(request('local', 64), { instance: 0, reason: 'round-robin' }, poolState([snapshot(2, 'decode', 2), snapshot(3, 'decode', 0)]), 10);
    rec.onRouting(request('mono', 64), { instance: 1, reason: 'round-robin' }, poolState([snapshot(0, 'monolithic', 0), snapshot(1, 'monolithic', 0)]), 20);
    const [local, mono] = read() as RoutingRecord[];
    expect(local).toMatchObject({ inst: 2, scores: [-2, 0], regret: 2, pool: [2, 3], topk: [{ i: 3, s: 0, by: {} }] });
    expect(mono).toMatchObject({ inst: 1, scores: [0, 0], regret: 0, topk: [{ i: 0, s: 0, by: {} }] });
    expect(mono).not.toHaveProperty('pool');
  });

  it('writes a completed KV transfer', () => {
    const { rec, read } = recorder();
    rec.onPdTransfer({ requestId: 'x', startUs: 1000, durationUs: 250, numKVBlocks: 7, prefillInstance: 1, decodeInstance: 3 }, 1250);
    const expected: KvTransferRecord = { t: 'kv_transfer', ts: 1250, id: 'x', start_us: 1000, dur_us: 250, blocks: 7, prefill_inst: 1, decode_inst: 3 };
    expect(read()).toEqual([expected]);
  });
});

// A hand-built P/D trace: 10 disaggregated requests with a 100 ms TTFT each; the first `slow` of
// them spent 60 ms in KV transfer, the others 10 ms.
const header: TraceRecord = { t: 'header', version: 1, level: 'decisions', k: 0, slo_ttft_us: 0, slo_e2e_us: 0, tail_ratio: 5, policies: {} };
const TTFT = 100_000;

function disaggregated(i: number, transferUs: number): TraceRecord[] {
  const id = `r${i}`;
  const ts = i * 1_000_000;
  return [
    { t: 'disaggregation', ts, id, disaggregate: true, reason: 'always', decode_inst: 2 + (i % 2) },
    { t: 'prefill_routing', ts, id, inst: i % 2, reason: 'rr', scored: 'load', scores: [0, 0], by: {}, snap: [], regret: 0, pool: [0, 1] },
    { t: 'kv_transfer', ts: ts + 30_000 + transferUs, id, start_us: ts + 30_000, dur_us: transferUs, blocks: 8, prefill_inst: i % 2, decode_inst: 2 + (i % 2) },
    completed(id, ts + TTFT + 50_000, 2 + (i % 2)),
  ];
}

function completed(id: string, ts: number, inst: number): OutcomeRecord {
  return { t: 'outcome', ts, id, status: 'completed', slo: '', inst, ttft_us: TTFT, e2e_us: TTFT + 50_000, out: 8, blocks: 8, hit_blocks: 0, preemptions: 0, target_us: 0, slo_met: null };
}

function trace(slow: number, extra: TraceRecord[] = []): TraceRecord[] {
  const rs: TraceRecord[] = [header];
  for (let i = 0; i < 10; i++) rs.push(...disaggregated(i, i < slow ? 60_000 : 10_000));
  return [...rs, ...extra, { t: 'end', ts: 20_000_000 }];
}

describe('the P/D summary', () => {
  it('counts and times what the records say', () => {
    const a = analyzeTrace(trace(3));
    expect(a.pd.requests).toBe(10);
    expect(a.pd.disaggregated).toBe(10);
    expect(a.pd.judged).toBe(10);
    expect(a.pd.transferBound).toBe(3);
    expect(a.instanceCount).toBe(4);
    const s = summarizeTrace(a);
    expect(s).toContain('on 4 instances');
    expect(s).toContain('- Decider: 10 requests, 10 disaggregated, 0 kept local (always 10); decode pods chosen 2:5 3:5.');
    expect(s).toContain('- Prefill routing: 10 decisions; per prefill pod 0:5 1:5; regret > 0 in 0 (0.0%), mean 0.000, max 0.000.');
    // Durations 3 x 60 ms and 7 x 10 ms: mean 25 ms; p99 (nearest rank, 10th of 10) 60 ms.
    expect(s).toContain('- KV transfers: 10, duration mean 25.00 ms, p99 60.00 ms; 8.0 blocks each on average.');
    expect(s).toContain('TTFT p50 100.0 ms, p99 100.0 ms; KV transfer over half the TTFT for 3 (30.0%).');
  });

  it('calls out transfer-bound requests when more than a fifth are', () => {
    const s = summarizeTrace(analyzeTrace(trace(3)));
    expect(s).toContain(
      '- transfer-bound: 3 of 10 disaggregated requests spent more than half their TTFT in KV transfer; consider more bandwidth, --pd-transfer-contention off, or a prefix-threshold decider.',
    );
    expect(s).toContain('1. P/D (KV transfer): 3 of 10 disaggregated requests (30.0%) spent more than half their TTFT in KV transfer.');
    expect(s).toContain('e.g. r0: transfer 60.00 ms of a 100.0 ms TTFT.');
    expect(s).toContain('- Shorten KV transfers (3 of 10 disaggregated requests transfer-bound)');
  });

  it('does not at exactly a fifth, nor for a transfer of exactly half the TTFT', () => {
    const fifth = summarizeTrace(analyzeTrace(trace(2)));
    expect(fifth).toContain('KV transfer over half the TTFT for 2 (20.0%).');
    expect(fifth).not.toContain('transfer-bound');
    expect(fifth).not.toContain('KV transfer)');
    const half = trace(0).map((r) => (r.t === 'kv_transfer' && r.id === 'r0' ? { ...r, dur_us: TTFT / 2 } : r));
    expect(analyzeTrace(half).pd.transferBound).toBe(0);
  });

  it('judges only completed requests whose KV was transferred', () => {
    const timedOut: TraceRecord[] = [
      { t: 'disaggregation', ts: 1, id: 'late', disaggregate: true, reason: 'always', decode_inst: 2 },
      { t: 'kv_transfer', ts: 900_000, id: 'late', start_us: 1000, dur_us: 899_000, blocks: 8, prefill_inst: 0, decode_inst: 2 },
      { t: 'outcome', ts: 950_000, id: 'late', status: 'timed_out', slo: '', inst: 2, blocks: 8, hit_blocks: 0, preemptions: 0, target_us: 0, slo_met: null },
    ];
    const a = analyzeTrace(trace(0, timedOut));
    expect(a.pd.transfers).toBe(11);
    expect(a.pd.judged).toBe(10);
    expect(a.pd.transferBound).toBe(0);
  });

  it('reads requests kept local by the decode pool, with no imbalance against idle prefill pods', () => {
    const local = (i: number, inst: number): TraceRecord[] => {
      const id = `l${i}`;
      return [
        { t: 'disaggregation', ts: i, id, disaggregate: false, reason: 'short', decode_inst: inst },
        { t: 'route', seq: i, ts: i, id, tenant: '', slo: '', in: 16, blocks: 1, prefix: '', inst, reason: 'rr', scored: 'load', scores: [0, -1], by: {}, snap: [], regret: inst === 2 ? 0 : 1, pool: [2, 3] },
        completed(id, i + TTFT, inst),
      ];
    };
    const rs: TraceRecord[] = [header];
    for (let i = 0; i < 8; i++) rs.push(...local(i, 2 + (i % 2)));
    const a = analyzeTrace(rs);
    expect(a.routedTo).toEqual([0, 0, 4, 4]);
    expect(a.routeMembers()).toEqual([2, 3]);
    const s = summarizeTrace(a);
    expect(s).toContain('- Routing of requests kept local (decode pool): 8 decisions; per instance 2:4 3:4.');
    expect(s).toContain('- Decider: 8 requests, 0 disaggregated, 8 kept local (short 8)');
    expect(s).not.toContain('LOAD');
    expect(s).not.toContain('KV transfers');
  });

  it('stays within the token budget, and is absent from a trace without P/D records', () => {
    for (const maxTokens of [120, 250, 400]) expect(estimateTokens(summarizeTrace(analyzeTrace(trace(3)), { maxTokens }))).toBeLessThanOrEqual(maxTokens);
    const mono = summarizeTrace(analyzeTrace([header, completed('m', TTFT, 0), { t: 'end', ts: 1 }]));
    expect(mono).not.toContain('P/D');
    expect(mono).not.toContain('transfer');
  });
});
