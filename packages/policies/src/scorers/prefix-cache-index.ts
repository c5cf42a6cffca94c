/**
 * The router's approximate picture of which KV blocks each instance holds: per instance an LRU
 * set of block hashes with a fixed capacity. Keys are instance ids (`InstanceSnapshot.index`),
 * so the picture survives instances joining or leaving the routable set.
 */
export class PrefixCacheIndex {
  readonly capacity: number;
  private readonly perInstance = new Map<number, LruSet>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`PrefixCacheIndex: capacity must be an integer > 0, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /**
   * Leading blocks of `hashes` recorded for `instanceId`, stopping at the first miss
   * (hierarchical hashes make a later hit without the earlier ones meaningless). Does not
   * refresh recency.
   */
  matchLength(hashes: ArrayLike<number>, instanceId: number): number {
    const set = this.perInstance.get(instanceId);
    if (set === undefined) return 0;
    let n = 0;
    while (n < hashes.length && set.has(hashes[n])) n++;
    return n;
  }

  /** Records `hashes` as held by `instanceId`, most recent last; evicts the LRU at capacity. */
  record(hashes: ArrayLike<number>, instanceId: number): void {
    let set = this.perInstance.get(instanceId);
    if (set === undefined) {
      set = new LruSet(this.capacity);
      this.perInstance.set(instanceId, set);
    }
    for (let i = 0; i < hashes.length; i++) set.touch(hashes[i]);
  }

  /** Number of block hashes tracked for an instance. */
  blockCount(instanceId: number): number {
    return this.perInstance.get(instanceId)?.size ?? 0;
  }
}

const NIL = -1;

/** Low 30 bits of a block hash: a small-integer Map key (much faster than a heap number). */
function keyOf(hash: number): number {
  return (hash >>> 0) & 0x3fffffff;
}

/**
 * A bounded set with least-recently-used eviction: a Map from key to slot plus an intrusive
 * doubly linked list over typed arrays. (A JS Set re-inserted on touch looks simpler, but
 * finding its oldest element walks past every deleted entry, which made routing quadratic.)
 */
class LruSet {
  private readonly slotOf = new Map<number, number>();
  private readonly keys: Float64Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private head = NIL;
  private tail = NIL;
  private used = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.prev = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(hash: number): boolean {
    const slot = this.slotOf.get(keyOf(hash));
    return slot !== undefined && this.keys[slot] === hash;
  }

  /** Inserts `hash` as most recent (or moves it there), evicting the least recent when full. */
  touch(hash: number): void {
    const key = keyOf(hash);
    const existing = this.slotOf.get(key);
    if (existing !== undefined && this.keys[existing] !== hash) {
      // A different hash shares the key: it gives way (the index is approximate by design).
      this.keys[existing] = hash;
    }
    if (existing !== undefined) {
      if (existing !== this.tail) {
        this.unlink(existing);
        this.append(existing);
      }
      return;
    }
    let slot: number;
    if (this.used < this.keys.length) {
      slot = this.used++;
    } else {
      slot = this.head;
      this.unlink(slot);
      this.slotOf.delete(keyOf(this.keys[slot]));
    }
    this.keys[slot] = hash;
    this.slotOf.set(key, slot);
    this.append(slot);
  }

  private append(slot: number): void {
    this.prev[slot] = this.tail;
    this.next[slot] = NIL;
    if (this.tail !== NIL) this.next[this.tail] = slot;
    else this.head = slot;
    this.tail = slot;
  }

  private unlink(slot: number): void {
    const p = this.prev[slot];
    const n = this.next[slot];
    if (p !== NIL) this.next[p] = n;
    else this.head = n;
    if (n !== NIL) this.prev[n] = p;
    else this.tail = p;
  }
}
