import type { SimRequest } from '@blis/engine';
import { MinHeap } from '@blis/workload';

interface Waiting {
  request: SimRequest;
  /** Admission order, the tie-break between equal priorities. */
  seq: number;
}

/** True when `a` should be dispatched before `b`: higher priority, then earlier admission. */
function before(a: Waiting, b: Waiting): boolean {
  const pa = a.request.view.priority;
  const pb = b.request.view.priority;
  return pa !== pb ? pa > pb : a.seq < b.seq;
}

/**
 * Admitted requests waiting for capacity under flow control: most urgent first (priority
 * descending, then earlier admission). A binary heap, since dispatch happens on every
 * completion and the queue can grow long under overload.
 */
export class GatewayQueue {
  private readonly heap = new MinHeap<Waiting>(before);
  private seq = 0;

  get length(): number {
    return this.heap.size;
  }

  push(r: SimRequest): void {
    this.heap.push({ request: r, seq: this.seq++ });
  }

  pop(): SimRequest | undefined {
    return this.heap.pop()?.request;
  }

  /** Removes and returns the least urgent request (for shedding when the queue is full). */
  popLeastUrgent(): SimRequest | undefined {
    const h = this.heap.items;
    if (h.length === 0) return undefined;
    let worst = 0;
    for (let i = 1; i < h.length; i++) if (before(h[worst], h[i])) worst = i;
    return this.heap.removeAt(worst).request;
  }
}
