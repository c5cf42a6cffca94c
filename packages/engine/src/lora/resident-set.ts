/**
 * An instance's resident adapters (vLLM's GPU LoRA slots): at most `capacity`, least recently
 * used first out, and never one that a request in flight pins. Adapters are registry indices.
 * A Map keeps insertion order, so re-inserting on use is the LRU order without a linked list.
 */
export class ResidentSet {
  readonly capacity: number;
  /** adapter -> pins (requests in flight using it), oldest use first. */
  private readonly slots = new Map<number, number>();

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`a resident adapter set needs at least one slot, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.slots.size;
  }

  get full(): boolean {
    return this.slots.size >= this.capacity;
  }

  has(adapter: number): boolean {
    return this.slots.has(adapter);
  }

  pins(adapter: number): number {
    return this.slots.get(adapter) ?? 0;
  }

  /** Most recently used now; nothing when not resident. */
  touch(adapter: number): void {
    const p = this.slots.get(adapter);
    if (p === undefined) return;
    this.slots.delete(adapter);
    this.slots.set(adapter, p);
  }

  /** Makes `adapter` resident (most recent). The caller has made room; false when there is none. */
  add(adapter: number): boolean {
    if (this.slots.has(adapter)) {
      this.touch(adapter);
      return true;
    }
    if (this.full) return false;
    this.slots.set(adapter, 0);
    return true;
  }

  /** Evicts the least recently used unpinned adapter; -1 when every one is pinned (or none is resident). */
  evictLRU(): number {
    for (const [a, p] of this.slots) {
      if (p === 0) {
        this.slots.delete(a);
        return a;
      }
    }
    return -1;
  }

  pin(adapter: number): boolean {
    const p = this.slots.get(adapter);
    if (p === undefined) return false;
    this.slots.set(adapter, p + 1);
    return true;
  }

  unpin(adapter: number): void {
    const p = this.slots.get(adapter);
    if (p !== undefined && p > 0) this.slots.set(adapter, p - 1);
  }

  /** Resident adapters, least recently used first. */
  ids(): number[] {
    return [...this.slots.keys()];
  }
}
