import type { PoolType } from '@blis/policies';
import { describe, expect, it } from 'vitest';
import type { ScaleEvaluation, ScaleOutcome } from '../src/decision-observer.js';
import type { InstanceStateRecord, ScaleActionRecord, ScaleRecord, TraceRecord } from '../src/records.js';
import { estimateTokens, summarizeTrace } from '../src/summary.js';
import { analyzeTrace } from '../src/trace-analyzer.js';
import { parseTrace } from '../src/trace-reader.js';
import { TraceRecorder } from '../src/trace-recorder.js';
import { MemorySink } from '../src/trace-sink.js';

// Autoscaling records as the recorder writes them from the cluster's hooks, and the analyzer's
// and summary's reading of them. Whole autoscaled runs are the cluster's tests.

const S = 1_000_000;

function recorder(level: 'decisions' | 'full' = 'decisions', scaleCooldownUs?: number) {
  const sink = new MemorySink();
  const rec = new TraceRecorder({ level, sink, scaleCooldownUs });
  return { rec, sink, read: () => parseTrace(sink.text()).slice(1) };
}

/** An evaluation of `pool` with `routable` + `pending` replicas asking for `delta`. */
function evaluation(pool: PoolType, routable: number, pending: number, delta: number, outcome: ScaleOutcome): ScaleEvaluation {
  return {
    pool,
    policy: 'wva-saturation',
    routable,
    pending,
    draining: 0,
    avgQueueDepth: 1.5,
    avgKvUtilization: 0.25,
    waitingRequests: 3,
    requestRate: 12.5,
    signals: { supply: 10, demand: 10 + delta },
    proposed: delta,
    delta,
    outcome,
    reason: outcome === 'hold' ? 'within band' : `delta ${delta}`,
  };
}

describe('the recorder under autoscaling', () => {
  for (const level of ['decisions', 'full'] as const) {
    it(`writes evaluations, actions and lifecycle transitions at level ${level}`, () => {
      const { rec, read } = recorder(level);
      rec.onScaleEvaluation({ ...evaluation('decode', 2, 1, 1, 'scheduled'), draining: 1, proposed: 3 }, 5 * S);
      rec.onScaleAction({ pool: 'decode', before: 3, after: 4, instances: ['decode_3'], unplaced: 1 }, 6 * S);
      rec.onInstanceState(4, 'decode_3', 'loading', 6 * S);
      const scale: ScaleRecord = {
        t: 'scale',
        ts: 5 * S,
        pool: 'decode',
        policy: 'wva-saturation',
        routable: 2,
        pending: 1,
        draining: 1,
        avg_q: 1.5,
        avg_kv: 0.25,
        waiting: 3,
        rate: 12.5,
        signals: { supply: 10, demand: 11 },
        proposed: 3,
        delta: 1,
        outcome: 'scheduled',
        reason: 'delta 1',
      };
      const action: ScaleActionRecord = { t: 'scale_action', ts: 6 * S, pool: 'decode', before: 3, after: 4, ids: ['decode_3'], unplaced: 1 };
      const state: InstanceStateRecord = { t: 'instance_state', ts: 6 * S, inst: 4, id: 'decode_3', state: 'loading' };
      expect(read()).toEqual([scale, action, state]);
    });
  }

  it('copies what the cluster hands it', () => {
    const { rec, read } = recorder();
    const signals: Record<string, number> = { supply: 1 };
    const instances = ['a'];
    rec.onScaleEvaluation({ ...evaluation('monolithic', 1, 0, 0, 'hold'), signals }, 0);
    rec.onScaleAction({ pool: 'monolithic', before: 1, after: 2, instances, unplaced: 0 }, 1);
    signals.supply = 99;
    instances.push('b');
    const [s, a] = read() as [ScaleRecord, ScaleActionRecord];
    expect(s.signals).toEqual({ supply: 1 });
    expect(a.ids).toEqual(['a']);
  });

  it('writes an oscillation after the action that reverses its pool within scaleCooldownUs', () => {
    const { rec, read } = recorder('decisions', 30 * S);
    const act = (pool: PoolType, before: number, after: number, ts: number) => rec.onScaleAction({ pool, before, after, instances: [], unplaced: 0 }, ts);
    act('prefill', 2, 3, 0);
    act('decode', 3, 2, 10 * S); // another pool: no reversal
    act('prefill', 3, 2, 10 * S); // prefill reverses 10 s later: one
    act('prefill', 2, 1, 40 * S); // same direction
    act('decode', 2, 3, 41 * S); // decode reverses 31 s later: outside
    const rs = read();
    expect(rs.map((r) => r.t)).toEqual(['scale_action', 'scale_action', 'scale_action', 'anomaly', 'scale_action', 'scale_action']);
    expect(rs[3]).toEqual({ t: 'anomaly', ts: 10 * S, kind: 'scale_oscillation', inst: -1, ids: [], pool: 'prefill' });
    expect(rec.finish(50 * S).anomalies.scale_oscillation).toEqual({ count: 1, examples: [{ time_us: 10 * S, instance: -1, request_ids: [], pool: 'prefill' }] });
  });

  it('keeps the 60 s default window', () => {
    const { rec, read } = recorder();
    rec.onScaleAction({ pool: 'monolithic', before: 1, after: 2, instances: ['i1'], unplaced: 0 }, 0);
    rec.onScaleAction({ pool: 'monolithic', before: 2, after: 1, instances: ['i1'], unplaced: 0 }, 60 * S);
    rec.onScaleAction({ pool: 'monolithic', before: 1, after: 2, instances: ['i2'], unplaced: 0 }, 121 * S);
    expect(read().filter((r) => r.t === 'anomaly')).toHaveLength(1);
  });
});

/**
 * A P/D run's autoscaling, through the recorder's hooks, with a 30 s oscillation window:
 * decode asks for a replica from 10 s, gets it at 22 s, and gives it back at 32 s (a reversal
 * 10 s after its scale-up); prefill asks for three at 30 s and gets two at 32 s (one unplaced).
 */
function autoscaledRun() {
  const { rec, sink } = recorder('decisions', 30 * S);
  rec.onScaleEvaluation(evaluation('decode', 2, 0, 0, 'hold'), 0);
  rec.onScaleEvaluation(evaluation('prefill', 2, 0, 0, 'hold'), 0);
  rec.onScaleEvaluation(evaluation('decode', 2, 0, 1, 'stabilizing'), 10 * S);
  rec.onScaleEvaluation(evaluation('decode', 2, 0, 1, 'scheduled'), 20 * S);
  rec.onScaleEvaluation(evaluation('prefill', 2, 0, 0, 'hold'), 20 * S);
  rec.onScaleAction({ pool: 'decode', before: 2, after: 3, instances: ['decode_2'], unplaced: 0 }, 22 * S);
  rec.onInstanceState(4, 'decode_2', 'scheduling', 22 * S);
  rec.onInstanceState(4, 'decode_2', 'loading', 25 * S);
  rec.onScaleEvaluation(evaluation('decode', 2, 1, -1, 'scheduled'), 30 * S);
  rec.onScaleEvaluation(evaluation('prefill', 2, 0, 3, 'scheduled'), 30 * S);
  rec.onScaleAction({ pool: 'decode', before: 3, after: 2, instances: ['decode_2'], unplaced: 0 }, 32 * S);
  rec.onInstanceState(4, 'decode_2', 'draining', 32 * S);
  rec.onScaleAction({ pool: 'prefill', before: 2, after: 4, instances: ['prefill_2', 'prefill_3'], unplaced: 1 }, 32 * S);
  rec.onInstanceState(4, 'decode_2', 'terminated', 33 * S);
  rec.onInstanceState(5, 'prefill_2', 'scheduling', 32 * S);
  rec.onInstanceState(5, 'prefill_2', 'active', 50 * S);
  const report = rec.finish(60 * S, { maxTokens: 2000 });
  return { report, text: sink.text() };
}

const PARAGRAPH = `## Autoscaling
- Evaluations: 7 by wva-saturation (decode 4, prefill 3); scheduled 3, stabilizing 1, hold 3.
- Actions applied: 2 up adding 3 replicas, 1 down draining 1 (decode 1 up 1 down, prefill 1 up 0 down); 1 scale-up replica unplaced; 1 oscillation (reversal of the group's previous action within the window).
- Signal to action (first evaluation asking for the direction to the applied action): scale-up first 12.0 s, mean 7.0 s, max 12.0 s over 2 actions; scale-down mean 2.0 s, max 2.0 s over 1 action.
- Replicas (routable plus pending, as the scale records state them): 4 at first, peak 6 at t=32.0 s, 6 at the end.
- Replica lifecycle transitions: scheduling 2, loading 1, active 1, draining 1, terminated 1; scheduling to active mean 18.0 s, max 18.0 s over 1 replica.`;

describe('the autoscaling summary', () => {
  it('writes the paragraph, the issues and the focus from the records', () => {
    const { report } = autoscaledRun();
    const s = report.trace_summary ?? '';
    expect(s).toContain(`\n\n${PARAGRAPH}\n\n## Key issues`);
    expect(s).toContain('on 6 instances');
    expect(s).toContain("1. AUTOSCALING (oscillation): 1 applied scale action reversed the group's previous action within the window (of 3 actions).\n   - e.g. the decode group at t=32.0 s.");
    expect(s).toContain('2. AUTOSCALING (capacity): 1 scale-up replica found no node and no node pool that could grow.');
    expect(s).toContain('- Damp the autoscaler (1 oscillation): lengthen the scale-down stabilization window or the cooldown.');
    expect(s).toContain("- Give scale-ups room (1 replica unplaced): raise the node pools' maxNodes, or lower maxReplicas to what they can hold.");
    expect(s).toContain('scale_oscillation 1');
  });

  it('reads the same from the trace file as live', () => {
    const { report, text } = autoscaledRun();
    const records = parseTrace(text);
    expect(records.filter((r) => r.t === 'scale')).toHaveLength(7);
    expect(records.filter((r) => r.t === 'scale_action')).toHaveLength(3);
    expect(records.filter((r) => r.t === 'instance_state')).toHaveLength(6);
    expect(summarizeTrace(analyzeTrace(records), { maxTokens: 2000 })).toBe(report.trace_summary);
  });

  it('stays within the token budget, and is absent from a trace without scale records', () => {
    const a = analyzeTrace(parseTrace(autoscaledRun().text));
    for (const maxTokens of [100, 200, 400]) expect(estimateTokens(summarizeTrace(a, { maxTokens }))).toBeLessThanOrEqual(maxTokens);
    const header: TraceRecord = { t: 'header', version: 1, level: 'decisions', k: 0, slo_ttft_us: 0, slo_e2e_us: 0, tail_ratio: 5, policies: {} };
    const plain = summarizeTrace(analyzeTrace([header, { t: 'end', ts: 1 }]));
    expect(plain).not.toContain('Autoscaling');
    expect(plain).not.toContain('AUTOSCALING');
  });

  it('restarts a signal when an evaluation stops asking, and skips scheduled actions never carried out', () => {
    const rs: TraceRecord[] = [];
    const scale = (ts: number, delta: number, outcome: ScaleOutcome, routable = 2): ScaleRecord => ({
      t: 'scale',
      ts,
      pool: 'monolithic',
      policy: 'threshold',
      routable,
      pending: 0,
      draining: 0,
      avg_q: 0,
      avg_kv: 0,
      waiting: 0,
      rate: 0,
      signals: {},
      proposed: delta,
      delta,
      outcome,
      reason: '',
    });
    rs.push(scale(0, 1, 'stabilizing'), scale(10 * S, 0, 'hold'), scale(20 * S, 1, 'stabilizing'), scale(30 * S, 1, 'scheduled'));
    rs.push({ t: 'scale_action', ts: 35 * S, pool: 'monolithic', before: 2, after: 3, ids: ['i2'], unplaced: 0 });
    // A scheduled scale-up whose action never came, then a scale-down and its action.
    rs.push(scale(36 * S, 1, 'scheduled', 3), scale(40 * S, -1, 'scheduled', 3));
    rs.push({ t: 'scale_action', ts: 45 * S, pool: 'monolithic', before: 3, after: 2, ids: ['i2'], unplaced: 0 });
    const s = analyzeTrace(rs).scale;
    expect(s.upReactionUs).toEqual([15 * S]);
    expect(s.downReactionUs).toEqual([5 * S]);
    expect([s.initialReplicas, s.peakReplicas, s.peakUs, s.replicas]).toEqual([2, 3, 35 * S, 2]);
  });
});
