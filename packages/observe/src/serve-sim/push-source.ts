import type { RequestSource, RequestSpec } from '@blis/engine';

/**
 * A request source a live driver feeds: empty (Infinity) until it pushes the next request.
 * Requests come out in arrival order: a driver may push a request arriving before one it pushed
 * earlier (two bodies read out of order) as long as the simulation has not reached it.
 */
export class PushRequestSource implements RequestSource {
  private readonly queue: RequestSpec[] = [];
  private head = 0;

  push(spec: RequestSpec): void {
    let j = this.queue.length;
    while (j > this.head && this.queue[j - 1].arrivalUs > spec.arrivalUs) j--;
    if (j === this.queue.length) this.queue.push(spec);
    else this.queue.splice(j, 0, spec);
  }

  peekArrivalUs(): number {
    return this.head < this.queue.length ? this.queue[this.head].arrivalUs : Number.POSITIVE_INFINITY;
  }

  next(): RequestSpec | undefined {
    if (this.head >= this.queue.length) return undefined;
    const r = this.queue[this.head];
    this.queue[this.head++] = undefined as unknown as RequestSpec;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return r;
  }
}
