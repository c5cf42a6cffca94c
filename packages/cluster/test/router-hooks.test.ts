import { ArrayRequestSource, type RequestSpec, type SimRequest, makeRequestSpec } from '@blis/engine';
import type { LatencyModel } from '@blis/latency';
import type { AdmissionPolicy, RequestView, RouterEvent, RouterState, RoutingDecision, RoutingPolicy } from '@blis/policies';
import { type DecisionObserver, TraceRecorder } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, type SimulationResult, type SimulationRuntime, simulate } from '../src/index.js';

// Router hooks on hand-computed runs: `reject` (counted with admission rejections), the
// `priority` hint (it outlives the priority policy's re-scoring), `onEvent` (the exact event
// sequence, and where it falls against onComplete), each with a latency model simple enough to
// follow by hand: every step takes 1000 µs, nothing else costs time.

const FLAT: LatencyModel = {
  kind: 'flat',
  stepTime: () => 1000,
  queueingTime: () => 0,
  outputTokenTime: () => 0,
  postDecodeFixedOverhead: () => 0,
};

/** 16-token prompts (one block), 2 output tokens: a prefill step then one decode step. */
function reqs(arrivals: readonly number[]): RequestSpec[] {
  return arrivals.map((arrivalUs, index) => makeRequestSpec({ index, id: `r${index}`, arrivalUs, inputTokens: 16, outputTokens: 2 }));
}

function run(arrivals: readonly number[], runtime: SimulationRuntime, extra: Partial<SimulationConfigInput> = {}): SimulationResult {
  return simulate(
    { numInstances: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, ...extra },
    { latency: FLAT, source: new ArrayRequestSource(reqs(arrivals)), ...runtime },
  );
}

/** Round-robin over the instances it sees; `decide` may turn the pick into a reject or add a hint. */
function router(decide: (req: RequestView, n: number) => Partial<RoutingDecision> = () => ({}), extra: Partial<RoutingPolicy> = {}): RoutingPolicy {
  let next = 0;
  return {
    name: 'test-router',
    route(req: RequestView, state: RouterState): RoutingDecision {
      const n = next++;
      return { instance: n % state.instances.length, reason: 'rr', ...decide(req, n) };
    },
    ...extra,
  };
}

describe('RoutingDecision.reject', () => {
  it('a router that rejects every 3rd request: 3 of 9 rejected, counted with admission rejections', () => {
    const r = run([0, 100, 200, 300, 400, 500, 600, 700, 800], { routing: router((_, n) => (n % 3 === 2 ? { reject: true, reason: 'third' } : {})) }, { numInstances: 2 });
    expect(r.injected_requests).toBe(9);
    expect(r.rejected_requests).toBe(3);
    expect(r.completed_requests).toBe(6);
    expect(r.requests!.map((q) => q.request_id).sort()).toEqual(['r0', 'r1', 'r3', 'r4', 'r6', 'r7']);
    // Only routed requests count towards an instance: 6 picks, alternating from instance 0.
    expect(r.target_distribution).toEqual({ instance_0: 3, instance_1: 3 });
  });

  it('the decision trace records the rejection with the router\'s reason', () => {
    const dropped: [string, string, string | undefined][] = [];
    const observer: DecisionObserver = { onDropped: (q: SimRequest, _now, reason, detail) => void dropped.push([q.spec.id, reason, detail]) };
    const rejectOne: AdmissionPolicy = { name: 'no-r0', admit: (q) => ({ admit: q.id !== 'r0', reason: 'no' }) };
    run([0, 100, 200], { observer, admission: rejectOne, routing: router((q) => (q.id === 'r2' ? { reject: true, reason: 'full' } : {})) });
    expect(dropped).toEqual([
      ['r0', 'rejected', undefined],
      ['r2', 'rejected', 'full'],
    ]);
  });
});

describe('the decision trace of a router rejection', () => {
  it('an outcome record, status rejected, with the router\'s reason; no route record', () => {
    const lines: string[] = [];
    const recorder = new TraceRecorder({ level: 'decisions', sink: { write: (l) => void lines.push(l), close: () => undefined } });
    run([0, 100], { observer: recorder, routing: router((q) => (q.id === 'r1' ? { reject: true, reason: 'over budget' } : {})) });
    const r1 = lines.map((l) => JSON.parse(l)).filter((x) => x.id === 'r1');
    expect(r1.map((x) => x.t)).toEqual(['admit', 'priority', 'outcome']);
    expect(r1[2]).toMatchObject({ status: 'rejected', inst: -1, reason: 'over budget' });
    expect(lines.filter((l) => l.includes('"t":"outcome"') && l.includes('"reason"'))).toHaveLength(1);
  });
});

describe('RoutingDecision.priority', () => {
  it('a hint of 10 under priority-fcfs: that request runs next, ahead of earlier arrivals', () => {
    // One sequence at a time: r0 runs [0, 2000); r1..r3 wait. With constant priority 0, fcfs
    // would run r1, r2, r3; r3's hint of 10 puts it first: r3 [2000, 4000), r1, r2.
    const r = run([0, 10, 20, 30], { routing: router((q) => (q.id === 'r3' ? { priority: 10 } : {})) }, { maxNumSeqs: 1, scheduler: { policy: 'priority-fcfs', params: {} } });
    expect(r.requests!.map((q) => [q.request_id, q.e2e_ms * 1000 + Number(q.arrival_ms) * 1000])).toEqual([
      ['r0', 2000],
      ['r3', 4000],
      ['r1', 6000],
      ['r2', 8000],
    ]);
  });

  it('holds against a time-dependent priority policy, which re-scores every step', () => {
    // slo-based: older requests score higher each step, so r1 (the oldest waiting) would run
    // next; a hint of 1e9 for r3 outranks any age it could gain.
    const r = run([0, 10, 20, 30], { routing: router((q) => (q.id === 'r3' ? { priority: 1e9 } : {})) }, { maxNumSeqs: 1, scheduler: { policy: 'priority-fcfs', params: {} }, priority: { policy: 'slo-based', params: {} } });
    expect(r.requests!.map((q) => q.request_id)).toEqual(['r0', 'r3', 'r1', 'r2']);
    const plain = run([0, 10, 20, 30], { routing: router() }, { maxNumSeqs: 1, scheduler: { policy: 'priority-fcfs', params: {} }, priority: { policy: 'slo-based', params: {} } });
    expect(plain.requests!.map((q) => q.request_id)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('the trace records the hint as a priority record', () => {
    const scores: [string, number][] = [];
    const observer: DecisionObserver = { onPriority: (q: SimRequest, score) => void scores.push([q.spec.id, score]) };
    run([0, 10], { observer, routing: router((q) => (q.id === 'r1' ? { priority: 7 } : {})) });
    expect(scores).toEqual([
      ['r0', 0],
      ['r1', 0],
      ['r1', 7],
    ]);
  });

  it('a hint that is not a finite number stops the run', () => {
    expect(() => run([0], { routing: router(() => ({ priority: Number.NaN })) })).toThrow(/route\(\) for request 0 \("r0"\) at 0 µs: returned priority NaN/);
  });
});

/** `[kind, t, id, instance?, reason?]`, and onComplete calls as `['onComplete', id, instance]`. */
type Heard = (string | number)[];

function listener(log: Heard[], decide?: (req: RequestView, n: number) => Partial<RoutingDecision>): RoutingPolicy {
  return router(decide, {
    onEvent: (e: RouterEvent) => {
      const row: Heard = [e.kind, e.nowUs, e.request.id];
      if (e.instance !== undefined) row.push(e.instance);
      if (e.reason !== undefined) row.push(e.reason);
      log.push(row);
    },
    onComplete: (req, instance) => void log.push(['onComplete', req.id, instance]),
  });
}

describe('RoutingPolicy.onEvent', () => {
  it('a 3-request run on 2 instances: the exact sequence', () => {
    // r0 -> instance 0 at 0: prefill [0, 1000), decode [1000, 2000): completes at 2000.
    // r1 -> instance 1 at 100: prefill [100, 1100), decode [1100, 2100): completes at 2100.
    // r2 -> instance 0 at 200: waits for r0's step, prefill with r0's decode [1000, 2000),
    //       decode [2000, 3000): completes at 3000.
    const log: Heard[] = [];
    run([0, 100, 200], { routing: listener(log) }, { numInstances: 2 });
    expect(log).toEqual([
      ['arrival', 0, 'r0'],
      ['routed', 0, 'r0', 0],
      ['arrival', 100, 'r1'],
      ['routed', 100, 'r1', 1],
      ['arrival', 200, 'r2'],
      ['routed', 200, 'r2', 0],
      ['onComplete', 'r0', 0],
      ['completed', 2000, 'r0', 0],
      ['onComplete', 'r1', 1],
      ['completed', 2100, 'r1', 1],
      ['onComplete', 'r2', 0],
      ['completed', 3000, 'r2', 0],
    ]);
  });

  it('rejections: by admission (never routed) and by the router; the arrival comes before admission', () => {
    const log: Heard[] = [];
    const noR0: AdmissionPolicy = { name: 'no-r0', admit: (q) => ({ admit: q.id !== 'r0', reason: 'no' }) };
    run([0, 100, 200], { admission: noR0, routing: listener(log, (q) => (q.id === 'r1' ? { reject: true } : {})) }, { admissionLatencyUs: 50 });
    expect(log).toEqual([
      ['arrival', 0, 'r0'],
      ['dropped', 50, 'r0', 'rejected'],
      ['arrival', 100, 'r1'],
      ['dropped', 150, 'r1', 'rejected'],
      ['arrival', 200, 'r2'],
      ['routed', 250, 'r2', 0],
      ['onComplete', 'r2', 0],
      ['completed', 2250, 'r2', 0],
    ]);
  });

  it('a request no instance can hold: routed, then dropped as unservable on its instance', () => {
    const log: Heard[] = [];
    const specs = [makeRequestSpec({ index: 0, id: 'big', arrivalUs: 0, inputTokens: 4096, outputTokens: 2 })];
    simulate({ numInstances: 1, totalKVBlocks: 10, checkInvariants: true }, { latency: FLAT, source: new ArrayRequestSource(specs), routing: listener(log) });
    expect(log).toEqual([
      ['arrival', 0, 'big'],
      ['routed', 0, 'big', 0],
      ['onComplete', 'big', 0],
      ['dropped', 0, 'big', 0, 'unservable'],
    ]);
  });

  it('no router listens: no event objects, and the result is the same as with a listener', () => {
    const log: Heard[] = [];
    const a = run([0, 100, 200], { routing: router() }, { numInstances: 2 });
    const b = run([0, 100, 200], { routing: listener(log) }, { numInstances: 2 });
    expect(b).toEqual(a);
  });
});

describe('router hooks under P/D', () => {
  // 1 prefill pod (instance 0) + 1 decode pod (instance 1), every request split. One router
  // object serves both pools (a custom policy is shared): it routes `rN` in the decode pool
  // first, then `rN_prefill` in the prefill pool.
  const pd = (routing: RoutingPolicy, arrivals: readonly number[]) =>
    simulate(
      { numInstances: 2, model: 'meta-llama/llama-3.1-8b-instruct', tp: 1, totalKVBlocks: 1000, checkInvariants: true, includeRequests: true, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } },
      { latency: FLAT, source: new ArrayRequestSource(reqs(arrivals)), routing },
    );

  it('the decode router hears of the request the user sent, the prefill router of the prefill part', () => {
    const log: Heard[] = [];
    const r = pd(listener(log), [0]);
    expect(r.completed_requests).toBe(1);
    // Prefill [0, 1000) on instance 0 (the part has no output: done after its prompt); the
    // KV transfer of its one block takes 134 µs (the link's defaults), so the decode part runs
    // one step [1134, 2134) on instance 1.
    expect(log).toEqual([
      ['arrival', 0, 'r0'],
      ['routed', 0, 'r0', 1],
      ['routed', 0, 'r0_prefill', 0],
      ['onComplete', 'r0_prefill', 0],
      ['completed', 1000, 'r0_prefill', 0],
      ['onComplete', 'r0_decode', 1],
      ['completed', 2134, 'r0', 1],
    ]);
    expect(r.pd?.kv_transfer_duration.mean_ms).toBe(0.134);
  });

  it('a prefill router that rejects: the parent is rejected, both hear a dropped event', () => {
    const log: Heard[] = [];
    const r = pd(listener(log, (q) => (q.id === 'r1_prefill' ? { reject: true } : {})), [0, 100]);
    expect(r.injected_requests).toBe(2);
    expect(r.rejected_requests).toBe(1);
    expect(r.completed_requests).toBe(1);
    expect(r.requests!.map((q) => q.request_id)).toEqual(['r0']);
    expect(log.filter((e) => String(e[2]).startsWith('r1'))).toEqual([
      ['arrival', 100, 'r1'],
      ['routed', 100, 'r1', 1],
      ['dropped', 100, 'r1_prefill', 'rejected'],
      ['dropped', 100, 'r1', 'rejected'],
    ]);
  });

  it('a decode router that rejects: the request is never split', () => {
    const log: Heard[] = [];
    const r = pd(listener(log, (q) => (q.id === 'r0' ? { reject: true } : {})), [0]);
    expect(r.rejected_requests).toBe(1);
    expect(r.pd?.disaggregated_requests ?? 0).toBe(0);
    expect(log).toEqual([
      ['arrival', 0, 'r0'],
      ['dropped', 0, 'r0', 'rejected'],
    ]);
  });

  it('the decode router\'s hint holds for both parts', () => {
    const prios: [string, number][] = [];
    const observer: DecisionObserver = { onScheduled: (q: SimRequest) => void prios.push([q.spec.id, q.view.priority]) };
    simulate(
      { numInstances: 2, model: 'meta-llama/llama-3.1-8b-instruct', tp: 1, totalKVBlocks: 1000, checkInvariants: true, pd: { prefillInstances: 1, decodeInstances: 1, decider: 'always' } },
      { latency: FLAT, source: new ArrayRequestSource(reqs([0])), routing: router((q) => (q.id === 'r0' ? { priority: 5 } : {})), observer },
    );
    expect(prios).toEqual([
      ['r0_prefill', 5],
      ['r0_decode', 5],
    ]);
  });
});
