import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RoutingDecision, type RoutingPolicy, createRoutingPolicy, policyContext } from '@blis/policies';
import {
  type AnomalyRecord,
  JsonlFileSink,
  MemorySink,
  type OutcomeRecord,
  type RoutingRecord,
  type TraceRecord,
  TraceRecorder,
  type TraceRecorderOptions,
  type TraceSink,
  parseTrace,
  readTraceFile,
} from '@blis/trace';
import { describe, expect, it } from 'vitest';
import type { ClusterSimulator } from '../src/cluster-simulator.js';
import { type BuildOptions, buildCluster, hashesFor, spec } from './helpers.js';

// The decision trace of real cluster runs: regret, anomaly scenarios built so that exactly one
// inversion and one head-of-line block happen, record linkage, and the JSONL round trip.

const tmp = mkdtempSync(join(tmpdir(), 'blis-trace-scenarios-'));

/** Both sinks at once: the file under test and an in-memory copy to compare it with. */
class Tee implements TraceSink {
  constructor(private readonly sinks: TraceSink[]) {}
  write(line: string) {
    for (const s of this.sinks) s.write(line);
  }
  close() {
    for (const s of this.sinks) s.close();
  }
}

function traced(specs: Parameters<typeof buildCluster>[0], o: BuildOptions, rec: Partial<TraceRecorderOptions> = {}) {
  const sink = new MemorySink();
  const recorder = new TraceRecorder({ level: 'decisions', sink, ...rec });
  const sim: ClusterSimulator = buildCluster(specs, { ...o, setup: { ...o.setup, observer: recorder } });
  sim.run();
  const report = recorder.finish(sim.endUs);
  return { sim, recorder, report, records: parseTrace(sink.text()) };
}

const routes = (rs: TraceRecord[]) => rs.filter((r): r is RoutingRecord => r.t === 'route');
const anomalies = (rs: TraceRecord[], kind: string) => rs.filter((r): r is AnomalyRecord => r.t === 'anomaly' && r.kind === kind);

/** Sustained overload on 4 instances: queues build up, so load differs between instances. */
const loaded = Array.from({ length: 240 }, (_, i) => spec(i, i * 4_000, 200 + ((i * 7919) % 1500), 20 + ((i * 104729) % 180)));

describe('counterfactual regret', () => {
  it('is 0 for every weighted decision', () => {
    const { records } = traced(loaded, { instances: 4, routing: 'weighted' }, { counterfactualK: 3 });
    const rs = routes(records);
    expect(rs).toHaveLength(240);
    for (const r of rs) {
      expect(r.scored).toBe('policy');
      expect(r.regret).toBe(0);
      expect(r.topk![0].s).toBe(r.scores[r.inst]);
      expect(Object.keys(r.by).length).toBeGreaterThan(0);
    }
  });

  it('is positive on average for round-robin under load, and never negative', () => {
    const { records, recorder } = traced(loaded, { instances: 4, routing: 'round-robin' }, { counterfactualK: 2 });
    const rs = routes(records);
    const regrets = rs.map((r) => r.regret);
    expect(Math.min(...regrets)).toBeGreaterThanOrEqual(0);
    const mean = regrets.reduce((a, b) => a + b, 0) / regrets.length;
    expect(mean).toBeGreaterThan(0);
    for (const r of rs) {
      // BLIS's fallback: minus the effective load the router saw.
      expect(r.scored).toBe('load');
      expect(r.scores).toEqual(r.snap.map((s) => -(s.q + s.b + s.f) + 0));
      expect(r.topk).toHaveLength(2);
      expect(r.regret).toBe(Math.max(...r.scores) - r.scores[r.inst]);
    }
    expect(recorder.analyzer.regretPositive).toBe(regrets.filter((x) => x > 0).length);
  });
});

describe('anomaly scenarios', () => {
  // One instance running one request at a time. A (standard) starts at once; H (critical) and
  // then L (batch) queue behind it. The reverse-priority scheduler then starts L before H: one
  // priority inversion (L over H); L completes while H still waits: one head-of-line block.
  const specs = [
    spec(0, 0, 300, 30, { id: 'A', sloClass: 'standard' }),
    spec(1, 1_000, 300, 30, { id: 'H', sloClass: 'critical' }),
    spec(2, 2_000, 300, 30, { id: 'L', sloClass: 'batch' }),
  ];
  const scenario = (scheduler: string) => traced(specs, { maxNumSeqs: 1, priority: 'slo-class', scheduler });

  it('detects exactly one priority inversion and one HOL block, with the right requests', () => {
    const { report, records } = scenario('reverse-priority');
    expect(report.anomalies.priority_inversion.count).toBe(1);
    expect(report.anomalies.priority_inversion.examples[0]).toMatchObject({ instance: 0, request_ids: ['L', 'H'] });
    expect(report.anomalies.hol_blocking.count).toBe(1);
    expect(report.anomalies.hol_blocking.examples[0]).toMatchObject({ instance: 0, request_ids: ['L', 'H'] });
    // The inversion is flagged when L starts, the HOL block when L completes.
    const outcomes = records.filter((r): r is OutcomeRecord => r.t === 'outcome');
    const lDone = outcomes.find((o) => o.id === 'L')!;
    expect(anomalies(records, 'hol_blocking')[0].ts).toBe(lDone.ts);
    expect(anomalies(records, 'priority_inversion')[0].ts).toBeLessThan(lDone.ts);
    expect(outcomes.map((o) => o.id)).toEqual(['A', 'L', 'H']);
    expect(report.anomalies.kv_thrashing.count).toBe(0);
    expect(report.anomalies.scale_oscillation.count).toBe(0);
  });

  it.each(['fcfs', 'priority-fcfs'])('finds none under %s', (scheduler) => {
    const { report } = scenario(scheduler);
    expect(report.anomalies.priority_inversion.count).toBe(0);
    expect(report.anomalies.hol_blocking.count).toBe(0);
  });

  it('finds none in a loaded fcfs run with one priority', () => {
    const { report } = traced(loaded, { instances: 2, maxNumSeqs: 4, kvBlocks: 300 });
    expect(report.anomalies.priority_inversion.count).toBe(0);
    expect(report.anomalies.hol_blocking.count).toBe(0);
  });
});

describe('trace records', () => {
  /** Prefix groups so that routing can move a request away from the instance holding its prefix. */
  const grouped = Array.from({ length: 160 }, (_, i) => {
    const input = 256 + ((i * 131) % 512);
    return spec(i, i * 6_000, input, 10 + ((i * 17) % 60), {
      id: `req-${i}`,
      sloClass: i % 3 === 0 ? 'critical' : 'standard',
      tenantId: `t${i % 2}`,
      blockHashes: hashesFor(input, `g${i % 4}`, 12, `u${i}`),
      prefixGroup: `g${i % 4}`,
    });
  });

  it('written to a file and read back reproduce the routing decisions exactly', () => {
    const path = join(tmp, 'roundtrip.jsonl');
    const decisions: { id: string; d: RoutingDecision }[] = [];
    const inner = createRoutingPolicy('weighted', policyContext({ numInstances: 3 }));
    const spy: RoutingPolicy = {
      name: inner.name,
      route(req, state) {
        const d = inner.route(req, state);
        decisions.push({ id: req.id, d });
        return d;
      },
    };
    const mem = new MemorySink();
    const recorder = new TraceRecorder({ level: 'full', counterfactualK: 3, sink: new Tee([new JsonlFileSink(path, 256), mem]) });
    const sim = buildCluster(grouped, { instances: 3, setup: { routing: spy, observer: recorder } });
    sim.run();
    recorder.finish(sim.endUs);

    const fromFile = [...readTraceFile(path)];
    expect(fromFile).toEqual(parseTrace(mem.text()));
    const rs = routes(fromFile);
    expect(rs.map((r) => r.id)).toEqual(decisions.map((x) => x.id));
    rs.forEach((r, k) => {
      const d = decisions[k].d;
      expect(r.seq).toBe(k);
      expect(r.inst).toBe(d.instance);
      expect(r.reason).toBe(d.reason);
      expect(r.scores).toEqual(Array.from(d.scores!));
      for (const [name, v] of Object.entries(d.breakdown!)) expect(r.by[name]).toEqual(Array.from(v));
    });
    expect(fromFile[0].t).toBe('header');
    expect(fromFile[fromFile.length - 1]).toEqual({ t: 'end', ts: sim.endUs });
  });

  it('link every decision to its request outcome, and the outcome agrees with the result', () => {
    const { records, sim } = traced(grouped, { instances: 3, routing: 'round-robin' }, { sloTtftUs: 60_000 });
    const outcomes = new Map<string, OutcomeRecord>();
    for (const r of records) if (r.t === 'outcome') {
      expect(outcomes.has(r.id)).toBe(false);
      outcomes.set(r.id, r);
    }
    const byId = new Map(grouped.map((s) => [s.id, s]));
    for (const r of records) {
      if (r.t === 'admit' || r.t === 'priority' || r.t === 'route') expect(outcomes.has(r.id)).toBe(true);
      if (r.t === 'route') expect(outcomes.get(r.id)!.inst).toBe(r.inst);
    }
    const log = sim.log;
    for (let i = 0; i < log.ttftUs.length; i++) {
      const o = outcomes.get(log.ids[i])!;
      expect(o.status).toBe('completed');
      expect(o.ttft_us).toBe(log.ttftUs.get(i) + log.networkDelayUs.get(i));
      expect(o.hit_blocks).toBe(log.cacheHitBlocks.get(i));
      expect(o.blocks).toBe(byId.get(o.id)!.blockHashes.length);
      expect(o.slo_met).toBe(o.ttft_us! <= 60_000);
    }
    expect(outcomes.size).toBe(grouped.length);
  });

  it('at full level adds queue, schedule and batch records consistent with the run', () => {
    const { records, sim } = traced(loaded, { instances: 2, maxNumSeqs: 8, kvBlocks: 200 }, { level: 'full' });
    const count = (t: string) => records.filter((r) => r.t === t).length;
    const queued = count('queued');
    expect(queued).toBe(loaded.length - sim.counters.dropped);
    // Every start is a first start or a restart after a preemption.
    expect(count('scheduled')).toBe(queued + count('preempted'));
    expect(count('preempted')).toBe(sim.instances.reduce((n, i) => n + i.metrics.preemptions, 0));
    expect(count('preempted')).toBeGreaterThan(0);
    expect(count('batch')).toBe(sim.instances.reduce((n, i) => n + i.metrics.steps, 0));
  });

  it('at decisions level has no per-step records', () => {
    const { records, recorder } = traced(loaded, { instances: 2 });
    expect(recorder.onStep).toBeUndefined();
    expect(records.some((r) => r.t === 'batch' || r.t === 'queued' || r.t === 'scheduled')).toBe(false);
  });
});
