import type { SimRequest } from '@blis/engine';

/**
 * Admitted requests waiting for capacity under flow control: most urgent first (priority
 * descending, then earlier admission). A binary heap, since dispatch happens on every
 * completion and the queue can grow long under overload.
 */
export class GatewayQueue {
  private heap: SimRequest[] = [];
  private readonly seqOf = new Map<SimRequest, number>();
  private seq = 0;

  get length(): number {
    return this.heap.length;
  }

  push(r: SimRequest): void {
    this.seqOf.set(r, this.seq++);
    this.heap.push(r);
    this.up(this.heap.length - 1);
  }

  pop(): SimRequest | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      this.down(0);
    }
    this.seqOf.delete(top);
    return top;
  }

  /** Removes and returns the least urgent request (for shedding when the queue is full). */
  popLeastUrgent(): SimRequest | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    let worst = 0;
    for (let i = 1; i < h.length; i++) if (this.before(h[worst], h[i])) worst = i;
    const victim = h[worst];
    const last = h.pop()!;
    if (worst < h.length) {
      h[worst] = last;
      this.down(worst);
      this.up(worst);
    }
    this.seqOf.delete(victim);
    return victim;
  }

  /** True when `a` should be dispatched before `b`. */
  private before(a: SimRequest, b: SimRequest): boolean {
    const pa = a.view.priority;
    const pb = b.view.priority;
    if (pa !== pb) return pa > pb;
    return this.seqOf.get(a)! < this.seqOf.get(b)!;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l], h[m])) m = l;
      if (r < h.length && this.before(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
