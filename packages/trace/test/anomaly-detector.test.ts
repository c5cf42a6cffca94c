import { RequestPart, SimRequest, makeRequestSpec } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { AnomalyDetector } from '../src/anomaly-detector.js';
import type { AnomalyRecord } from '../src/records.js';
import { detectTailBlowups } from '../src/tail-latency.js';

let slot = 0;
/** A request as the engine would hold it on `instance`, entered into the queue `seq`-th. */
function req(id: string, priority: number, seq: number, instance = 0): SimRequest {
  const r = new SimRequest(makeRequestSpec({ index: slot, id, arrivalUs: seq, inputTokens: 16, outputTokens: 4 }), slot++);
  r.view.priority = priority;
  r.enqueueSeq = seq;
  r.instance = instance;
  return r;
}

function detector(opts = { kvThrashWindowUs: 1000, scaleCooldownUs: 5000 }) {
  const seen: AnomalyRecord[] = [];
  return { d: new AnomalyDetector(opts, (a) => seen.push(a)), seen };
}

describe('priority inversion', () => {
  it('fires when a request starts while an earlier, more urgent one waits', () => {
    const { d, seen } = detector();
    const h = req('H', 5, 0);
    const l = req('L', 1, 1);
    d.onQueued(h, 0);
    d.onQueued(l, 0);
    d.onScheduled(l, 100, 0);
    expect(seen).toEqual([{ t: 'anomaly', ts: 100, kind: 'priority_inversion', inst: 0, ids: ['L', 'H'] }]);
    d.onScheduled(h, 200, 0);
    expect(seen).toHaveLength(1);
  });

  it('does not fire for queue order, equal priorities, later arrivals or other instances', () => {
    const { d, seen } = detector();
    const a = req('a', 1, 0);
    const b = req('b', 1, 1);
    const c = req('c', 9, 2);
    const other = req('x', 9, 0, 1);
    for (const r of [a, b, c]) d.onQueued(r, 0);
    d.onQueued(other, 1);
    d.onScheduled(c, 1, 0); // more urgent and later: jumping ahead is what priority is for
    d.onScheduled(b, 2, 0); // equal priority to a
    d.onScheduled(a, 3, 0);
    expect(seen).toEqual([]);
  });

  it('names the earliest passed-over request, including a preempted one back in the queue', () => {
    const { d, seen } = detector();
    const p = req('P', 7, 0);
    const q = req('Q', 7, 1);
    const l = req('L', 1, 2);
    d.onQueued(q, 0);
    d.onQueued(l, 0);
    d.onPreempted(p, 0); // P entered first, was running, and is waiting again
    d.onScheduled(l, 50, 0);
    expect(seen.map((s) => s.ids)).toEqual([['L', 'P']]);
  });
});

describe('head-of-line blocking', () => {
  it('fires when a request completes while a more urgent one that was ahead of it waits', () => {
    const { d, seen } = detector();
    const h = req('H', 5, 0);
    const l = req('L', 1, 1);
    d.onQueued(h, 0);
    d.onQueued(l, 0);
    d.onScheduled(l, 10, 0);
    d.onCompleted(l, 90);
    expect(seen.filter((s) => s.kind === 'hol_blocking')).toEqual([{ t: 'anomaly', ts: 90, kind: 'hol_blocking', inst: 0, ids: ['L', 'H'] }]);
  });

  it('forgets requests that leave the queue without running', () => {
    const { d, seen } = detector();
    const h = req('H', 5, 0);
    const l = req('L', 1, 1);
    d.onQueued(h, 0);
    d.onQueued(l, 0);
    d.onLeft(h);
    d.onScheduled(l, 10, 0);
    d.onCompleted(l, 90);
    expect(seen).toEqual([]);
  });
});

describe('scale oscillation', () => {
  it('counts a reversal of the group\'s applied actions within the window only', () => {
    const { d, seen } = detector();
    d.onScaleAction('monolithic', 2, 3, 0); // up
    d.onScaleAction('monolithic', 3, 3, 1000); // no change: ignored
    d.onScaleAction('monolithic', 3, 2, 4000); // down 4 ms after up: oscillation
    d.onScaleAction('monolithic', 2, 3, 20_000); // up 16 ms later: outside the 5 ms window
    d.onScaleAction('monolithic', 3, 4, 21_000); // up again: same direction
    expect(seen).toEqual([{ t: 'anomaly', ts: 4000, kind: 'scale_oscillation', inst: -1, ids: [], pool: 'monolithic' }]);
  });

  it('follows each pool on its own: a prefill scale-up then a decode scale-down is no reversal', () => {
    const { d, seen } = detector({ kvThrashWindowUs: 1000, scaleCooldownUs: 30_000_000 });
    d.onScaleAction('prefill', 2, 3, 0);
    d.onScaleAction('decode', 3, 2, 10_000_000);
    expect(seen).toEqual([]);
    // The same pool reversing within 30 s is one; the decode pool's own history is untouched.
    d.onScaleAction('prefill', 3, 2, 10_000_000);
    expect(seen.map((a) => [a.ts, a.pool])).toEqual([[10_000_000, 'prefill']]);
    d.onScaleAction('decode', 2, 3, 45_000_000); // 35 s after decode's down: outside
    expect(seen).toHaveLength(1);
  });

  it('counts a reversal at 10 s in a 30 s window, and none at 40 s', () => {
    const { d, seen } = detector({ kvThrashWindowUs: 1000, scaleCooldownUs: 30_000_000 });
    d.onScaleAction('decode', 1, 2, 0);
    d.onScaleAction('decode', 2, 1, 10_000_000);
    expect(seen).toHaveLength(1);
    d.onScaleAction('decode', 1, 0, 40_000_000); // same direction as the last one
    expect(seen).toHaveLength(1);
    const late = detector({ kvThrashWindowUs: 1000, scaleCooldownUs: 30_000_000 });
    late.d.onScaleAction('decode', 1, 2, 0);
    late.d.onScaleAction('decode', 2, 1, 40_000_000); // reversal 40 s later: outside
    expect(late.seen).toEqual([]);
    // Exactly at the window's end still counts.
    late.d.onScaleAction('decode', 1, 2, 70_000_000);
    expect(late.seen.map((a) => a.ts)).toEqual([70_000_000]);
  });
});

describe('KV thrashing', () => {
  it('counts a CPU-tier eviction of a block stored within the window, at most once per instance per window', () => {
    const { d, seen } = detector();
    d.onKvTransfer(11, 'cpu_evict', 900, 0, 0); // stored at 0, evicted 900 µs later: thrashing
    d.onKvTransfer(12, 'cpu_evict', 950, 0, 100); // the same episode on instance 0: not reported again
    d.onKvTransfer(55, 'cpu_evict', 1900, 0, 1800); // instance 0 again, a full window after its last report
    d.onKvTransfer(22, 'cpu_evict', 2500, 1, 1000); // 1500 µs after it was stored: outside the window
    d.onKvTransfer(33, 'reload', 2600, 0); // reloads are not thrashing
    d.onKvTransfer(44, 'cpu_evict', 3000, 2, 2000); // exactly at the window's edge counts
    d.onKvTransfer(66, 'promotion_refused', 3100, 3); // the offload chain recomputing
    expect(seen.map((s) => [s.inst, s.ts])).toEqual([
      [0, 900],
      [0, 1900],
      [2, 3000],
      [3, 3100],
    ]);
  });
});

describe('tail-latency blowup', () => {
  const cls = (ttft: number[]) => ({ ttftUs: ttft, ids: ttft.map((_, i) => `r${i}`) });

  it('flags a class whose p99/p50 exceeds the threshold, naming its slowest requests', () => {
    // 100 requests: 98 at 10 ms, then 95 ms and 200 ms. Nearest rank: p50 = 10 ms, p99 = the
    // 99th smallest = 95 ms, ratio 9.5.
    const ttft = [...Array.from({ length: 98 }, () => 10_000), 95_000, 200_000];
    const out = detectTailBlowups(new Map([['batch', cls(ttft)], ['critical', cls(Array.from({ length: 30 }, (_, i) => 1000 + i))]]), 5, 7);
    expect(out).toEqual([{ t: 'anomaly', ts: 7, kind: 'tail_latency_blowup', inst: -1, ids: ['r99', 'r98', 'r97'], slo: 'batch', p50_us: 10_000, p99_us: 95_000, ratio: 9.5 }]);
    expect(detectTailBlowups(new Map([['batch', cls(ttft)]]), 9.5, 7)).toEqual([]);
  });

  it('skips classes too small for a p99', () => {
    expect(detectTailBlowups(new Map([['x', cls([1, 1, 1, 1000])]]), 2, 0)).toEqual([]);
  });
});

describe('P/D parts', () => {
  // Under P/D the queues hold parts (`<id>_prefill`, `<id>_decode`) while the cluster reports a
  // request's completion or departure with its parent, which never entered a queue itself.
  function part(parent: SimRequest, kind: 'prefill' | 'decode', seq: number, instance: number): SimRequest {
    const p = new SimRequest({ ...parent.spec, id: `${parent.spec.id}_${kind}` }, slot++, kind === 'prefill' ? RequestPart.Prefill : RequestPart.Decode);
    p.view.priority = parent.view.priority;
    p.enqueueSeq = seq;
    p.instance = instance;
    return p;
  }
  /** The parent as the cluster holds it: never queued (enqueueSeq 0, no instance until it completes). */
  const parent = (id: string, priority: number) => req(id, priority, 0, -1);

  it("a parent's departure removes its queued part: no phantom inversion later", () => {
    const { d, seen } = detector();
    const h = parent('H', 5);
    const l = req('L', 1, 1);
    d.onQueued(part(h, 'prefill', 0, 0), 0);
    d.onQueued(l, 0);
    // H's prefill part times out in the queue; the cluster reports H.
    d.onLeft(h);
    d.onScheduled(l, 100, 0);
    expect(seen).toEqual([]);
  });

  it("a parent's completion is judged by its decode part's place in the decode pod's queue", () => {
    const { d, seen } = detector();
    const p = parent('P', 1);
    const w = req('W', 9, 0, 2);
    d.onQueued(w, 2);
    const dec = part(p, 'decode', 1, 2);
    d.onQueued(dec, 2);
    // The decode part runs (an inversion: W waits), and completes while W still waits.
    d.onScheduled(dec, 100, 2);
    p.instance = 2; // copied from the decode part on completion
    d.onCompleted(p, 200);
    expect(seen).toEqual([
      { t: 'anomaly', ts: 100, kind: 'priority_inversion', inst: 2, ids: ['P_decode', 'W'] },
      { t: 'anomaly', ts: 200, kind: 'hol_blocking', inst: 2, ids: ['P_decode', 'W'] },
    ]);
  });

  it('a request kept local is its own queue entry', () => {
    const { d, seen } = detector();
    const w = req('W', 9, 0, 3);
    const local = req('X', 1, 1, 3);
    d.onQueued(w, 3);
    d.onQueued(local, 3);
    d.onScheduled(local, 100, 3);
    d.onCompleted(local, 200);
    expect(seen.map((a) => [a.kind, a.ids])).toEqual([
      ['priority_inversion', ['X', 'W']],
      ['hol_blocking', ['X', 'W']],
    ]);
  });
});
