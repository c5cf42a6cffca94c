import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArrayRequestSource, type RequestSpec } from '@blis/engine';
import {
  type AnomalyRecord,
  type DisaggregationRecord,
  JsonlFileSink,
  type KvTransferRecord,
  MemorySink,
  type OutcomeRecord,
  type PrefillRoutingRecord,
  type RoutingRecord,
  type TraceRecord,
  TraceRecorder,
  type TraceSink,
  analyzeTrace,
  parseTrace,
  readTraceFile,
  regretOf,
  summarizeTrace,
} from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, prepareSimulation, runPrepared } from '../src/index.js';
import { spec } from './helpers.js';

// The decision trace of P/D runs through simulate(): one disaggregation record per request, a
// prefill_routing and a kv_transfer record per disaggregated request, a route record per request
// kept local (BLIS's BC-TRACE-COMPAT for `never`), KV transfer durations from BLIS's formula, the
// summary's transfer-bound verdict, and no anomaly the monolithic run would not have.

const tmp = mkdtempSync(join(tmpdir(), 'blis-pd-trace-'));

/**
 * KV bytes of one 16-token block of llama-3.1-8b: 32 layers x 2 (K and V) x 8 KV heads x 128
 * head dim x 2 bytes (bf16) per token, at TP 1.
 */
const BYTES_PER_BLOCK = 16 * 32 * 2 * 8 * 128 * 2;
/** BLIS's transfer time: max(1, ceil(base + bytes / bandwidth)) µs, 1 GB/s = 1000 B/µs; base 0.05 ms. */
const transferUs = (blocks: number, gbps: number) => Math.max(1, Math.ceil(50 + (blocks * BYTES_PER_BLOCK) / (gbps * 1000)));

/** 1024-token prompts (64 blocks) a second apart: nothing ever queues behind another request. */
const PROMPT = 1024;
const BLOCKS = PROMPT / 16;
const N = 20;
const AMPLE = Array.from({ length: N }, (_, i) => spec(i, i * 1_000_000, PROMPT, 16));

class Tee implements TraceSink {
  constructor(private readonly sinks: TraceSink[]) {}
  write(line: string) {
    for (const s of this.sinks) s.write(line);
  }
  close() {
    for (const s of this.sinks) s.close();
  }
}

const BASE = { model: 'meta-llama/llama-3.1-8b-instruct', latencyModel: 'blackbox', totalKVBlocks: 5000, checkInvariants: true } as const;

let runs = 0;
function traced(cfg: SimulationConfigInput, specs: readonly RequestSpec[], k = 0) {
  const memory = new MemorySink();
  const path = join(tmp, `run-${runs++}.jsonl`);
  const recorder = new TraceRecorder({ level: 'decisions', counterfactualK: k, sink: new Tee([memory, new JsonlFileSink(path)]) });
  const prepared = prepareSimulation({ ...BASE, ...cfg }, { source: new ArrayRequestSource(specs), observer: recorder });
  const result: SimulationResult = runPrepared(prepared);
  const report = recorder.finish(prepared.cluster.endUs, { maxTokens: 1500 });
  return { result, recorder, report, records: parseTrace(memory.text()), path };
}

const pd = (decider: string, extra: Record<string, unknown> = {}): SimulationConfigInput => ({
  numInstances: 4,
  pd: { prefillInstances: 2, decodeInstances: 2, decider, ...extra },
});

function byKind(rs: TraceRecord[]) {
  return {
    disagg: rs.filter((r): r is DisaggregationRecord => r.t === 'disaggregation'),
    prefill: rs.filter((r): r is PrefillRoutingRecord => r.t === 'prefill_routing'),
    transfers: rs.filter((r): r is KvTransferRecord => r.t === 'kv_transfer'),
    routes: rs.filter((r): r is RoutingRecord => r.t === 'route'),
    outcomes: rs.filter((r): r is OutcomeRecord => r.t === 'outcome'),
    anomalies: rs.filter((r): r is AnomalyRecord => r.t === 'anomaly'),
  };
}

describe('P/D trace records', () => {
  const always = traced(pd('always'), AMPLE, 2);
  const k = byKind(always.records);

  it('one disaggregation, prefill_routing and kv_transfer record per request with decider always, and no route record', () => {
    expect(always.result.completed_requests).toBe(N);
    expect(k.disagg.map((r) => r.id)).toEqual(AMPLE.map((s) => s.id));
    for (const r of k.disagg) {
      expect(r.disaggregate).toBe(true);
      expect(r.reason).toBe('always');
      expect([2, 3]).toContain(r.decode_inst);
    }
    expect(k.prefill.map((r) => r.id)).toEqual(AMPLE.map((s) => s.id));
    expect(k.transfers.map((r) => r.id).sort()).toEqual(AMPLE.map((s) => s.id).sort());
    expect(k.routes).toHaveLength(0);
    expect(k.outcomes.map((o) => o.id).sort()).toEqual(AMPLE.map((s) => s.id).sort());
  });

  it('prefill routing names prefill pods by index, with the counterfactual candidates and regret of a route record', () => {
    for (const r of k.prefill) {
      expect(r.pool).toEqual([0, 1]);
      expect([0, 1]).toContain(r.inst);
      // Round-robin has no scores: BLIS's load fallback, as for a route record.
      expect(r.scored).toBe('load');
      expect(r.scores).toEqual(r.snap.map((s) => -(s.q + s.b + s.f) + 0));
      expect(r.regret).toBe(regretOf(r.scores, r.pool.indexOf(r.inst)));
      expect(r.topk).toHaveLength(2);
      expect(r.topk!.map((c) => c.i).sort()).toEqual([0, 1]);
    }
    // Round-robin over the prefill pool alternates.
    expect(k.prefill.map((r) => r.inst)).toEqual(AMPLE.map((_, i) => i % 2));
  });

  it("each kv_transfer links the request's prefill pod to its decode pod, for BLIS's transfer time", () => {
    const prefillOf = new Map(k.prefill.map((r) => [r.id, r.inst]));
    const decodeOf = new Map(k.disagg.map((r) => [r.id, r.decode_inst]));
    const served = new Map(k.outcomes.map((o) => [o.id, o]));
    for (const t of k.transfers) {
      expect(t.prefill_inst).toBe(prefillOf.get(t.id));
      expect(t.decode_inst).toBe(decodeOf.get(t.id));
      expect(t.blocks).toBe(BLOCKS);
      expect(t.dur_us).toBe(transferUs(BLOCKS, 25));
      expect(t.start_us + t.dur_us).toBe(t.ts);
      const o = served.get(t.id)!;
      expect(o.inst).toBe(t.decode_inst);
      expect(o.ttft_us).toBeGreaterThan(t.dur_us);
    }
  });

  it('reads back from the file as written, and the file alone gives the live summary', () => {
    expect([...readTraceFile(always.path)]).toEqual(always.records);
    expect(always.report.trace_summary).toBe(summarizeTrace(analyzeTrace(readTraceFile(always.path)), { maxTokens: 1500 }));
  });

  it('with decider never: a route record per request over the decode pool, no prefill routing or transfer', () => {
    const never = byKind(traced(pd('never'), AMPLE, 2).records);
    expect(never.disagg).toHaveLength(N);
    for (const r of never.disagg) expect(r).toMatchObject({ disaggregate: false, reason: 'never' });
    expect(never.prefill).toHaveLength(0);
    expect(never.transfers).toHaveLength(0);
    expect(never.routes.map((r) => r.id)).toEqual(AMPLE.map((s) => s.id));
    const servedBy = new Map(never.outcomes.map((o) => [o.id, o.inst]));
    never.routes.forEach((r, i) => {
      expect(r.pool).toEqual([2, 3]);
      // The decode pod is the routing decision, and the instance that served the request.
      expect(r.inst).toBe(never.disagg[i].decode_inst);
      expect(r.inst).toBe(servedBy.get(r.id));
      for (const c of r.topk!) expect([2, 3]).toContain(c.i);
    });
  });

  it('with decider never, the route records are those of a monolithic run on the decode pods alone', () => {
    // A loaded workload, so that snapshots and scores differ between instances.
    const loaded = Array.from({ length: 60 }, (_, i) => spec(i, i * 5_000, 200 + ((i * 7919) % 1500), 20 + ((i * 104729) % 180)));
    const never = byKind(traced(pd('never'), loaded, 2).records).routes;
    const mono = byKind(traced({ numInstances: 2 }, loaded, 2).records).routes;
    // Decode pods are instances 2 and 3: positions 0 and 1 of the pool.
    const shifted = never.map(({ pool, ...r }) => ({ ...r, inst: r.inst - 2, topk: r.topk!.map((c) => ({ ...c, i: c.i - 2 })) }));
    expect(shifted).toEqual(mono);
  });

  it('with prefix-threshold: short prompts kept local (route records), long ones disaggregated', () => {
    // 16-token prompts have 16 uncached tokens, not more than the threshold of 16: kept local.
    const mixed = AMPLE.map((s, i) => (i % 2 === 0 ? s : spec(i, s.arrivalUs, 16, 16)));
    const m = byKind(traced(pd('prefix-threshold'), mixed).records);
    const long = mixed.filter((s) => s.inputTokens === PROMPT).map((s) => s.id);
    const short = mixed.filter((s) => s.inputTokens === 16).map((s) => s.id);
    expect(m.disagg).toHaveLength(N);
    expect(m.disagg.filter((r) => r.disaggregate).map((r) => r.id)).toEqual(long);
    expect(m.routes.map((r) => r.id)).toEqual(short);
    expect(m.prefill.map((r) => r.id)).toEqual(long);
    expect(m.transfers.map((r) => r.id).sort()).toEqual([...long].sort());
  });
});

describe('P/D trace summary', () => {
  it('a fast link: transfers quoted, no transfer-bound verdict', () => {
    const { report, records } = traced(pd('always'), AMPLE);
    const s = report.trace_summary!;
    const d = transferUs(BLOCKS, 25);
    expect(s).toContain(`- Decider: ${N} requests, ${N} disaggregated, 0 kept local (always ${N}); decode pods chosen 2:${N / 2} 3:${N / 2}.`);
    expect(s).toContain(`- KV transfers: ${N}, duration mean ${(d / 1000).toFixed(2)} ms, p99 ${(d / 1000).toFixed(2)} ms; ${BLOCKS.toFixed(1)} blocks each on average.`);
    // Each TTFT holds at least the prefill's alpha queueing delay and step (>> 2 x 5.4 ms).
    expect(s).toContain('KV transfer over half the TTFT for 0 (0.0%)');
    expect(s).not.toContain('transfer-bound');
    expect(byKind(records).anomalies).toHaveLength(0);
  });

  it('a 0.5 GB/s link: every request transfer-bound, said explicitly, as the pd section counts it', () => {
    const { report, result } = traced(pd('always', { transferBandwidthGBps: 0.5 }), AMPLE);
    const s = report.trace_summary!;
    // 64 blocks of 2 MiB at 500 B/µs take 268 ms, more than the rest of a TTFT with nothing queued.
    expect(transferUs(BLOCKS, 0.5)).toBe(268_486);
    expect(s).toContain(`- transfer-bound: ${N} of ${N} disaggregated requests spent more than half their TTFT in KV transfer; consider more bandwidth, --pd-transfer-contention off, or a prefix-threshold decider.`);
    expect(s).toContain(`P/D (KV transfer): ${N} of ${N} disaggregated requests (100.0%)`);
    expect(s).toContain('raise --pd-transfer-bandwidth');
    expect(result.pd?.transfer_bound_requests).toBe(N);
  });
});

describe('anomalies under P/D', () => {
  it('an ample-capacity P/D run has none, as the monolithic run', () => {
    const mono = byKind(traced({ numInstances: 4 }, AMPLE).records).anomalies;
    const split = byKind(traced(pd('always'), AMPLE).records).anomalies;
    expect(mono).toEqual([]);
    expect(split).toEqual([]);
  });

  it('a prefill part that times out in its queue leaves the detector with it (no phantom inversion)', () => {
    // One prefill pod running one request at a time: request 0's long prompt occupies it while
    // critical request 1 (deadline 50 ms) times out in the queue, then batch request 2 starts.
    // Request 2 passed no waiting request: there is no inversion, in P/D as in a monolithic run.
    const specs = [
      spec(0, 0, 8000, 4, { sloClass: 'batch' }),
      spec(1, 1_000, 512, 4, { sloClass: 'critical', deadlineUs: 50_000 }),
      spec(2, 2_000, 512, 4, { sloClass: 'batch' }),
    ];
    const common = { maxNumSeqs: 1, priority: { policy: 'slo-class' } };
    const mono = traced({ ...common, numInstances: 1 }, specs);
    const split = traced({ ...common, numInstances: 2, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } }, specs);
    for (const run of [mono, split]) {
      expect(run.result.timed_out_requests).toBe(1);
      expect(run.result.completed_requests).toBe(2);
    }
    expect(byKind(mono.records).anomalies).toEqual([]);
    expect(byKind(split.records).anomalies).toEqual([]);
  });
});
