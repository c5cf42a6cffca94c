import { KeyIndex } from './key-index.js';

const NONE = -1;

/**
 * The legacy CPU tier's storage: up to `capacity` block hashes in least-recently-used order
 * (BLIS's `cpuTier`), keyed by hash, with O(1) store, touch and eviction.
 *
 * The mirror touches every hashed block of every running request on every step, in batch
 * order, so that order is almost always the order the blocks already have at the list's tail.
 * Moving each one to the tail in turn would leave the list as it was, at the cost of six
 * pointer writes per block. Touches are therefore gathered into a *run*: a stretch of the list
 * that stands for "these entries, in this order, belong at the tail". A touch of the entry that
 * physically follows the run just extends it; anything else first splices the run to the tail
 * in O(1). The order the list stands for is always exactly BLIS's; {@link settle} makes it the
 * physical order, and every operation that reads the order (eviction, {@link order}) settles first.
 */
export class CpuLru {
  readonly capacity: number;
  private readonly hashes: Float64Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private readonly slotOf: KeyIndex;
  private readonly freeSlots: Int32Array;
  private freeCount: number;
  private head = NONE;
  private tail = NONE;
  /**
   * Segments: stretches of the list a caller (the mirror: one per request) has verified to be
   * physically contiguous and in its order, so that touching all of them in that order can be
   * done in O(1). Each slot names the segment it was last verified in; any unlink inside a
   * segment (a splice boundary or an eviction between two of its slots) invalidates it. Stale
   * names can only invalidate a segment needlessly, never miss a break.
   */
  private readonly segOf: Int32Array;
  private segValid = new Uint8Array(64);
  private runHead = NONE;
  private runTail = NONE;
  /**
   * Bumped by every operation that changes the order the list stands for (a run started, a
   * store, an eviction); extending a run never does on its own, since a run starts first.
   */
  mutations = 0;
  /** Entries evicted to make room, over the tier's life. */
  evictions = 0;
  /** Told each hash evicted and when it was stored, when set (trace observers). */
  onEvict: ((hash: number, storedAt: number) => void) | undefined = undefined;
  /** The time stamped on entries stored from now on, µs. */
  clock = -0; // a double from the start (see EventQueue.poppedTime in @blis/engine)
  private readonly storedAt: Float64Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.hashes = new Float64Array(capacity).fill(NONE);
    this.prev = new Int32Array(capacity).fill(NONE);
    this.next = new Int32Array(capacity).fill(NONE);
    this.slotOf = new KeyIndex(capacity);
    this.segOf = new Int32Array(capacity).fill(NONE);
    this.storedAt = new Float64Array(capacity);
    this.freeSlots = new Int32Array(capacity);
    for (let i = 0; i < capacity; i++) this.freeSlots[i] = capacity - 1 - i;
    this.freeCount = capacity;
  }

  get size(): number {
    return this.capacity - this.freeCount;
  }

  /** The slot holding `hash`, or -1. */
  find(hash: number): number {
    return this.slotOf.get(hash);
  }

  /** The hash in `slot` (-1 for an empty slot); lets callers validate a remembered slot. */
  hashAt(slot: number): number {
    return this.hashes[slot];
  }

  /** Marks the entry in `slot` most recently used. */
  touch(slot: number): void {
    if (this.runTail !== NONE) {
      // The entry after the run is never in it: the run is a stretch of the list.
      if (this.next[this.runTail] === slot) {
        this.runTail = slot;
        return;
      }
      this.settle();
    }
    if (slot === this.tail) return;
    this.mutations++;
    this.runHead = slot;
    this.runTail = slot;
  }

  /**
   * Stores `hash` (absent) as the most recently used entry, evicting the least recently used one
   * when full. Returns its slot.
   */
  store(hash: number): number {
    this.settle();
    this.mutations++;
    if (this.freeCount === 0) this.evictHead();
    const slot = this.freeSlots[--this.freeCount];
    this.hashes[slot] = hash;
    this.segOf[slot] = NONE;
    this.storedAt[slot] = this.clock;
    this.slotOf.set(hash, slot);
    this.link(slot);
    return slot;
  }

  /**
   * Touches `hashes[from..m)` in order, storing the ones absent: the mirror of one request. `slots`
   * remembers where each hash was found last time and is updated. Returns how many were stored.
   * The common case, the next hash sitting right after the run, costs two array reads.
   */
  touchOrStoreAll(hashes: ArrayLike<number>, slots: Int32Array, from: number, m: number): number {
    const next = this.next;
    const hs = this.hashes;
    let stored = 0;
    let i = from;
    while (i < m) {
      // Fast path: extend the run while each remembered slot is right after it.
      let rt = this.runTail;
      if (rt !== NONE) {
        while (i < m) {
          const slot = slots[i];
          if (next[rt] !== slot || slot < 0 || hs[slot] !== hashes[i]) break;
          rt = slot;
          i++;
        }
        this.runTail = rt;
        if (i === m) break;
      }
      const h = hashes[i];
      let slot = slots[i];
      if (slot < 0 || hs[slot] !== h) {
        slot = this.find(h);
        if (slot === NONE) {
          slots[i++] = this.store(h);
          stored++;
          continue;
        }
        slots[i] = slot;
      }
      this.touch(slot);
      i++;
    }
    return stored;
  }

  /** True while segment `seg` (see {@link markSegment}) is still contiguous. */
  segmentValid(seg: number): boolean {
    return seg < this.segValid.length && this.segValid[seg] === 1;
  }

  /**
   * Records `slots[0..m)` (m >= 2) as segment `seg` if, once settled, they hold `hashes[0..m)`,
   * are physically contiguous in that order and belong to no other valid segment; returns
   * whether they were.
   */
  markSegment(seg: number, slots: Int32Array, hashes: ArrayLike<number>, m: number): boolean {
    this.settle();
    if (seg >= this.segValid.length) {
      const grown = new Uint8Array(Math.max(seg + 1, this.segValid.length * 2));
      grown.set(this.segValid);
      this.segValid = grown;
    }
    this.segValid[seg] = 0;
    // A slot remembered for a block may since have been evicted and reused for another hash.
    // A slot can name one valid segment only, or a break would be reported to one of them: two
    // requests with the same prompt share their blocks, so the second is refused.
    for (let i = 0; i < m; i++) {
      const slot = slots[i];
      if (this.hashes[slot] !== hashes[i] || (i > 0 && this.next[slots[i - 1]] !== slot)) return false;
      const other = this.segOf[slot];
      if (other !== NONE && other !== seg && this.segValid[other] === 1) return false;
    }
    for (let i = 0; i < m; i++) this.segOf[slots[i]] = seg;
    this.segValid[seg] = 1;
    return true;
  }

  /**
   * Touches every slot of valid segment `seg`, first to last, in O(1). Returns false, having
   * done nothing the list stands for, when the segment turned out broken (settling a pending
   * run may break it); the caller then touches slot by slot.
   */
  touchSegment(seg: number, first: number, last: number): boolean {
    const rt = this.runTail;
    if (rt !== NONE) {
      if (this.next[rt] === first) {
        this.runTail = last;
        return true;
      }
      this.settle();
      if (this.segValid[seg] !== 1) return false;
    }
    // Contiguous, at least two slots: `first` is not the tail.
    this.mutations++;
    this.runHead = first;
    this.runTail = last;
    return true;
  }

  /** Makes the physical order the order the list stands for (splices a pending run to the tail). */
  settle(): void {
    const h = this.runHead;
    const t = this.runTail;
    if (t === NONE) return;
    this.runHead = NONE;
    this.runTail = NONE;
    if (t === this.tail) return;
    // Unlink [h..t] and append it after the tail.
    const before = this.prev[h];
    const after = this.next[t];
    const seg = this.segOf;
    if (before !== NONE && seg[before] !== NONE && seg[before] === seg[h]) this.segValid[seg[h]] = 0;
    if (seg[t] !== NONE && seg[t] === seg[after]) this.segValid[seg[t]] = 0;
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    this.prev[after] = before;
    this.prev[h] = this.tail;
    this.next[this.tail] = h;
    this.next[t] = NONE;
    this.tail = t;
  }

  /** Hashes from least to most recently used (tests and diagnostics). */
  order(): number[] {
    this.settle();
    const out: number[] = [];
    for (let s = this.head; s !== NONE; s = this.next[s]) out.push(this.hashes[s]);
    return out;
  }

  /** Throws when the list, the map and the free slots disagree. */
  checkConsistency(): void {
    this.settle();
    let n = 0;
    let last = NONE;
    for (let s = this.head; s !== NONE; s = this.next[s]) {
      if (this.prev[s] !== last) throw new Error(`CPU tier: slot ${s} has a broken back link`);
      if (this.slotOf.get(this.hashes[s]) !== s) throw new Error(`CPU tier: slot ${s} is not indexed under its hash`);
      last = s;
      if (++n > this.capacity) throw new Error('CPU tier: the LRU list has a cycle');
    }
    if (last !== this.tail) throw new Error('CPU tier: tail pointer is stale');
    if (n !== this.size || this.slotOf.size !== n) throw new Error(`CPU tier: ${n} listed, ${this.size} counted, ${this.slotOf.size} indexed`);
  }

  private link(slot: number): void {
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  private evictHead(): void {
    const slot = this.head;
    const hash = this.hashes[slot];
    this.head = this.next[slot];
    if (this.head === NONE) this.tail = NONE;
    else this.prev[this.head] = NONE;
    this.slotOf.delete(this.hashes[slot]);
    this.hashes[slot] = NONE;
    if (this.segOf[slot] !== NONE) this.segValid[this.segOf[slot]] = 0;
    this.segOf[slot] = NONE;
    this.freeSlots[this.freeCount++] = slot;
    this.evictions++;
    this.onEvict?.(hash, this.storedAt[slot]);
  }
}
