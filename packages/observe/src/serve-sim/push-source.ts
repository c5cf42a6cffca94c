import type { RequestSource, RequestSpec } from '@blis/engine';

/** A request source a live driver feeds: empty (Infinity) until it pushes the next request. */
export class PushRequestSource implements RequestSource {
  private readonly queue: RequestSpec[] = [];
  private head = 0;

  push(spec: RequestSpec): void {
    this.queue.push(spec);
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
