/**
 * A binary min-heap over an array, ordered by `before` (a strict order: ties must be broken by
 * the caller, e.g. with a sequence number, or equal items pop in no fixed order). The request
 * sources keep their pending arrivals in one, the cluster's gateway queue its waiting requests.
 */
export class MinHeap<T> {
  readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The least item, or undefined when empty. */
  peek(): T | undefined {
    // Not items[0] alone: a read past the end, first made when the heap empties, deoptimises.
    return this.items.length === 0 ? undefined : this.items[0];
  }

  push(item: T): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Removes and returns the least item. */
  pop(): T | undefined {
    return this.items.length === 0 ? undefined : this.removeAt(0);
  }

  /** Removes and returns the item at `index` of `items` (the last one moves there and settles). */
  removeAt(index: number): T {
    const h = this.items;
    const item = h[index];
    const last = h.pop()!;
    if (index < h.length) {
      h[index] = last;
      this.down(index);
      this.up(index);
    }
    return item;
  }

  /** Keeps only the items `keep` accepts (rebuilds the heap). */
  retain(keep: (item: T) => boolean): void {
    const kept = this.items.filter(keep);
    this.items.length = 0;
    for (const item of kept) this.push(item);
  }

  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) return;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.items;
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
