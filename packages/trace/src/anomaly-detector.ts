import { RequestPart, type SimRequest } from '@blis/engine';
import type { KvTransferKind } from './decision-observer.js';
import type { AnomalyRecord } from './records.js';

export interface AnomalyDetectorOptions {
  /** A block the CPU tier evicts within this many µs of storing it counts as KV thrashing. */
  kvThrashWindowUs: number;
  /**
   * An applied scale action that reverses its scaling group's previous applied action within
   * this many µs is an oscillation.
   */
  scaleCooldownUs: number;
}

/** The wait queue of one instance as the detector mirrors it. */
class WaitingSet {
  /** Requests that entered the queue through `onQueued`, in entry (= enqueueSeq) order. */
  readonly fresh = new Set<SimRequest>();
  /** Preempted requests back in the queue: out of entry order, so always scanned whole. */
  readonly requeued = new Set<SimRequest>();

  delete(req: SimRequest): void {
    if (!this.fresh.delete(req)) this.requeued.delete(req);
  }

  /**
   * The earliest-entered waiting request that entered before `req` and is more urgent than it,
   * or undefined. The fresh scan stops at the first later entry, so an in-order (fcfs) queue
   * costs O(1) per call.
   */
  earlierMoreUrgent(req: SimRequest): SimRequest | undefined {
    const seq = req.enqueueSeq;
    const prio = req.view.priority;
    let found: SimRequest | undefined;
    for (const w of this.fresh) {
      if (w.enqueueSeq >= seq) break;
      if (w.view.priority > prio) {
        found = w;
        break;
      }
    }
    for (const w of this.requeued) {
      if (w.enqueueSeq < seq && w.view.priority > prio && (found === undefined || w.enqueueSeq < found.enqueueSeq)) found = w;
    }
    return found;
  }
}

/**
 * Detects, as the simulation runs, the failure modes (seed design 000, section D.8) that need
 * live queue state: priority inversion and head-of-line blocking (per instance wait queue), KV thrashing
 * and scale oscillation. Tail-latency blowup needs the whole run and lives in tail-latency.ts.
 *
 * Under P/D the queues hold parts (`<id>_prefill`, `<id>_decode`), and the anomalies they cause
 * name the parts, while a request's completion or departure is reported with its parent. The
 * detector remembers each parent's latest queued part, so that the parent's departure removes
 * the part from its queue and its completion is judged by the decode part's queue entry.
 */
export class AnomalyDetector {
  private readonly queues: WaitingSet[] = [];
  private readonly emit: (a: AnomalyRecord) => void;
  private readonly opts: AnomalyDetectorOptions;
  /** Per scaling group (pool), the direction and time of its last applied scale action. */
  private readonly lastScale = new Map<string, { dir: number; ts: number }>();
  /** Per instance, when it last reported KV thrashing. */
  private readonly lastThrash = new Map<number, number>();
  /** P/D: the latest part each parent (by request index) put in a queue. */
  private readonly parts = new Map<number, SimRequest>();

  constructor(opts: AnomalyDetectorOptions, emit: (a: AnomalyRecord) => void) {
    this.opts = opts;
    this.emit = emit;
  }

  private queue(instance: number): WaitingSet {
    let q = this.queues[instance];
    if (q === undefined) {
      while (this.queues.length <= instance) this.queues.push(new WaitingSet());
      q = this.queues[instance];
    }
    return q;
  }

  onQueued(req: SimRequest, instance: number): void {
    this.queue(instance).fresh.add(req);
    if (req.part !== RequestPart.Whole) this.parts.set(req.spec.index, req);
  }

  /** The queue entry that stands for `req`: its latest part under P/D, else itself. */
  private entryOf(req: SimRequest): SimRequest {
    if (req.part !== RequestPart.Whole) return req;
    const part = this.parts.get(req.spec.index);
    if (part === undefined) return req;
    this.parts.delete(req.spec.index);
    return part;
  }

  onPreempted(req: SimRequest, instance: number): void {
    this.queue(instance).requeued.add(req);
  }

  /**
   * Priority inversion: `req` starts while a more urgent request that entered the same queue
   * before it still waits. Ids: the favoured request, then the one passed over.
   */
  onScheduled(req: SimRequest, now: number, instance: number): void {
    const q = this.queue(instance);
    q.delete(req);
    const h = q.earlierMoreUrgent(req);
    if (h !== undefined) this.emit({ t: 'anomaly', ts: now, kind: 'priority_inversion', inst: instance, ids: [req.spec.id, h.spec.id] });
  }

  /**
   * Head-of-line blocking: `req` completes while a more urgent request that was ahead of it in
   * the same queue is still waiting. Ids: the completed request, then the blocked one.
   */
  onCompleted(completed: SimRequest, now: number): void {
    const req = this.entryOf(completed);
    const q = this.queues[req.instance];
    if (q === undefined) return;
    const w = q.earlierMoreUrgent(req);
    if (w !== undefined) this.emit({ t: 'anomaly', ts: now, kind: 'hol_blocking', inst: req.instance, ids: [req.spec.id, w.spec.id] });
  }

  /** The request left without completing (timed out, dropped): forget it (under P/D, its part). */
  onLeft(left: SimRequest): void {
    const req = this.entryOf(left);
    if (req.instance >= 0) this.queues[req.instance]?.delete(req);
  }

  /**
   * Scale oscillation: an applied action reverses the previous applied action of the same
   * scaling group (`pool`) within the window. Groups scale independently, so under P/D a
   * prefill scale-up followed by a decode scale-down is no reversal. An action that leaves the
   * group's size unchanged has no direction and is ignored.
   */
  onScaleAction(pool: string, before: number, after: number, now: number): void {
    const dir = Math.sign(after - before);
    if (dir === 0) return;
    const last = this.lastScale.get(pool);
    if (last !== undefined && dir !== last.dir && now - last.ts <= this.opts.scaleCooldownUs) {
      this.emit({ t: 'anomaly', ts: now, kind: 'scale_oscillation', inst: -1, ids: [], pool });
    }
    this.lastScale.set(pool, { dir, ts: now });
  }

  /**
   * KV thrashing, as BLIS now defines it: for the CPU model, CPU eviction pressure (the CPU tier
   * evicted a block it had been given less than the window before); for the offload chain, a
   * promotion the evictable gate refused (its blocks are recomputed). A thrashing tier does this
   * for every block of every step, so an instance reports at most one anomaly per window.
   */
  onKvTransfer(_blockHash: number, kind: KvTransferKind, now: number, instance: number, storedAtUs?: number): void {
    const window = this.opts.kvThrashWindowUs;
    if (kind === 'cpu_evict') {
      if (storedAtUs === undefined || now - storedAtUs > window) return;
    } else if (kind !== 'promotion_refused') return;
    const last = this.lastThrash.get(instance);
    if (last !== undefined && now - last < window) return;
    this.lastThrash.set(instance, now);
    this.emit({ t: 'anomaly', ts: now, kind: 'kv_thrashing', inst: instance, ids: [] });
  }
}
