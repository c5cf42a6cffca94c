import type { SimRequest } from '@blis/engine';

interface Tracked {
  readonly req: SimRequest;
  readonly priority: number;
  readonly dispatchedUs: number;
  readonly instance: number;
  at: number;
}

/** Evicted first: lower priority, then the later dispatch. */
function less(a: Tracked, b: Tracked): boolean {
  return a.priority !== b.priority ? a.priority < b.priority : a.dispatchedUs > b.dispatchedUs;
}

/**
 * The sheddable requests dispatched to instances and not yet finished, most evictable on top
 * (BLIS's --in-flight-eviction). A binary heap whose sift steps are BLIS's own, so that among
 * equals (same priority, same dispatch tick) the same request is evicted.
 */
export class EvictionTracker {
  private readonly h: Tracked[] = [];
  private readonly byReq = new Map<SimRequest, Tracked>();

  get length(): number {
    return this.h.length;
  }

  track(req: SimRequest, priority: number, dispatchedUs: number, instance: number): void {
    const t: Tracked = { req, priority, dispatchedUs, instance, at: this.h.length };
    this.h.push(t);
    this.byReq.set(req, t);
    this.up(this.h.length - 1);
  }

  untrack(req: SimRequest): void {
    const t = this.byReq.get(req);
    if (t === undefined) return;
    this.byReq.delete(req);
    const i = t.at;
    const n = this.h.length - 1;
    if (n !== i) {
      this.swap(i, n);
      if (!this.down(i, n)) this.up(i);
    }
    this.h.pop();
  }

  /** Removes and returns the most evictable request with its instance. */
  pop(): { req: SimRequest; instance: number } | undefined {
    if (this.h.length === 0) return undefined;
    const n = this.h.length - 1;
    this.swap(0, n);
    this.down(0, n);
    const t = this.h.pop()!;
    this.byReq.delete(t.req);
    return { req: t.req, instance: t.instance };
  }

  private swap(i: number, j: number): void {
    const h = this.h;
    const t = h[i];
    h[i] = h[j];
    h[j] = t;
    h[i].at = i;
    h[j].at = j;
  }

  private up(j: number): void {
    while (j > 0) {
      const i = (j - 1) >> 1;
      if (!less(this.h[j], this.h[i])) break;
      this.swap(i, j);
      j = i;
    }
  }

  private down(i0: number, n: number): boolean {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && less(this.h[j2], this.h[j1])) j = j2;
      if (!less(this.h[j], this.h[i])) break;
      this.swap(i, j);
      i = j;
    }
    return i > i0;
  }
}
