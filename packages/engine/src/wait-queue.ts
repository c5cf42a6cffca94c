import type { SimRequest } from './request.js';

/**
 * The instance wait queue: a ring-buffer deque, because preempted requests go back to the
 * front while new ones join the back, and both must be O(1).
 */
export class WaitQueue {
  private buf: (SimRequest | undefined)[];
  private head = 0;
  private n = 0;

  constructor(capacity = 64) {
    this.buf = new Array(capacity);
  }

  get length(): number {
    return this.n;
  }

  peek(): SimRequest | undefined {
    return this.n === 0 ? undefined : this.buf[this.head];
  }

  at(i: number): SimRequest {
    return this.buf[(this.head + i) % this.buf.length]!;
  }

  pushBack(r: SimRequest): void {
    if (this.n === this.buf.length) this.grow();
    this.buf[(this.head + this.n) % this.buf.length] = r;
    this.n++;
  }

  pushFront(r: SimRequest): void {
    if (this.n === this.buf.length) this.grow();
    this.head = (this.head - 1 + this.buf.length) % this.buf.length;
    this.buf[this.head] = r;
    this.n++;
  }

  popFront(): SimRequest | undefined {
    if (this.n === 0) return undefined;
    const r = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) % this.buf.length;
    this.n--;
    return r;
  }

  /** Removes a specific request (timeouts); O(n), rare. */
  remove(r: SimRequest): boolean {
    const items = this.toArray();
    const i = items.indexOf(r);
    if (i < 0) return false;
    items.splice(i, 1);
    this.reset(items);
    return true;
  }

  /** Stable in-place reorder by `compare` (only used by schedulers that define an order). */
  sort(compare: (a: SimRequest, b: SimRequest) => number): void {
    if (this.n < 2) return;
    const items = this.toArray();
    items.sort(compare);
    this.reset(items);
  }

  toArray(): SimRequest[] {
    const out: SimRequest[] = new Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.at(i);
    return out;
  }

  private reset(items: SimRequest[]): void {
    const cap = Math.max(this.buf.length, items.length);
    this.buf = new Array(cap);
    for (let i = 0; i < items.length; i++) this.buf[i] = items[i];
    this.head = 0;
    this.n = items.length;
  }

  private grow(): void {
    const items = this.toArray();
    this.buf = new Array(this.buf.length * 2);
    for (let i = 0; i < items.length; i++) this.buf[i] = items[i];
    this.head = 0;
  }
}
