import { KVCacheError } from '../errors.js';
import { KeyIndex } from './key-index.js';

/** {@link CpuStagingTier.lookup}: the key is not on the tier. */
export const CPU_MISS = 0;
/** {@link CpuStagingTier.lookup}: the block is ready (reference count >= 0) and can be read. */
export const CPU_HIT = 1;
/** {@link CpuStagingTier.lookup}: the block's promotion is still in flight (reference count -1). */
export const CPU_HIT_PENDING = 2;

/** One of {@link CPU_MISS}, {@link CPU_HIT}, {@link CPU_HIT_PENDING}. */
export type CpuLookup = typeof CPU_MISS | typeof CPU_HIT | typeof CPU_HIT_PENDING;

/** Reference count of a slot that holds no block. */
const UNUSED = -2;
const NIL = -1;
/** Fields of a slot's record: reference count, LRU neighbours (older, newer). */
const REF = 0;
const PREV = 1;
const NEXT = 2;
const FIELDS = 4;

/**
 * The offload chain's CPU staging tier (reference §1.4): a fixed number of block slots, each
 * holding only a key and a reference count, which is a state rather than a tally (vLLM's
 * `BlockStatus`):
 *
 * - `-1`: a promotion from a secondary tier is writing it. Not readable, not evictable.
 * - `0`: ready and idle. Readable, evictable, and on the LRU list.
 * - `n > 0`: ready, with n cascade writes copying it down. Readable, not evictable.
 *
 * The LRU list (a doubly linked list over slot indices, each slot's count and links in one
 * 16-byte record, so that a touch reads few cache lines) holds exactly the blocks at 0, so an
 * eviction takes its head and can never take a locked block (BC-C4), and the `evictable`
 * counter, changed only when a count crosses zero, is the list's length (BC-C8).
 */
export class CpuStagingTier {
  /** Slots, i.e. blocks the tier can hold. */
  readonly capacity: number;

  private readonly index: KeyIndex;
  private readonly keyOf: Float64Array;
  /** FIELDS int32s per slot: REF, PREV, NEXT. */
  private readonly rec: Int32Array;
  /** LRU ends: the head is the oldest idle block (the next victim). */
  private head = NIL;
  private tail = NIL;
  /** Stack of unused slots. */
  private readonly unused: Int32Array;
  private unusedTop: number;
  private usedCount = 0;
  private evictableCount = 0;
  private evictionCount = 0;
  /** Scratch: the keys of a `prepareStore` call that the tier did not hold. */
  private fresh = new Float64Array(16);

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new KVCacheError(`CPU staging capacity must be a positive integer, found ${capacity}`);
    this.capacity = capacity;
    this.index = new KeyIndex(capacity);
    this.keyOf = new Float64Array(capacity);
    this.rec = new Int32Array(capacity * FIELDS).fill(NIL);
    for (let i = 0; i < capacity; i++) this.rec[i * FIELDS + REF] = UNUSED;
    this.unused = new Int32Array(capacity);
    // Slot 0 on top, so slots fill in index order (it makes no observable difference).
    for (let i = 0; i < capacity; i++) this.unused[i] = capacity - 1 - i;
    this.unusedTop = capacity;
  }

  /** Blocks held, in any state. */
  /**
   * Bumped whenever a key's {@link lookup} answer may change (a block stored, promoted, made
   * ready or removed): a waiter whose keys were checked at this version need not check again.
   */
  version = 0;

  get used(): number {
    return this.usedCount;
  }

  /** Slots holding no block. */
  get free(): number {
    return this.capacity - this.usedCount;
  }

  /** Blocks at reference count 0: the LRU list's length, maintained in O(1). */
  get evictable(): number {
    return this.evictableCount;
  }

  /** Blocks evicted so far. */
  get evictions(): number {
    return this.evictionCount;
  }

  /** Whether `key` is absent, ready, or still being promoted. */
  lookup(key: number): CpuLookup {
    const s = this.index.get(key);
    if (s === NIL) return CPU_MISS;
    return this.rec[s * FIELDS + REF] === -1 ? CPU_HIT_PENDING : CPU_HIT;
  }

  /** The reference count of `key`'s block, or null when the tier does not hold it. */
  refCount(key: number): number | null {
    const s = this.index.get(key);
    return s === NIL ? null : this.rec[s * FIELDS + REF];
  }

  /**
   * The mirror's store: an idle block already held is moved to the LRU tail; a new key takes a
   * free slot, or the slot of the LRU head when none is free, and joins the tail at count 0.
   * Returns false, changing nothing, when the tier is full and no block is evictable.
   */
  store(key: number): boolean {
    const s = this.index.get(key);
    if (s !== NIL) {
      if (this.rec[s * FIELDS + REF] === 0) this.moveToTail(s);
      return true;
    }
    if (this.usedCount >= this.capacity && this.evict(1) === 0) return false;
    const slot = this.insert(key, 0);
    this.append(slot);
    this.evictableCount++;
    return true;
  }

  /**
   * Moves `key`'s block to the LRU tail when it is idle. Returns true when the tier holds the
   * key in any state (the mirror's "not a miss": touch, do not store).
   */
  touchIfPresent(key: number): boolean {
    const s = this.index.get(key);
    if (s === NIL) return false;
    if (this.rec[s * FIELDS + REF] === 0) this.moveToTail(s);
    return true;
  }

  /**
   * Reserves slots at count -1 for a promotion of `count` keys of `keys` from `from`, all or
   * nothing over those the tier does not hold yet (k of them): granted iff k <= free +
   * evictable (BC-C5), evicting k - free LRU blocks, which may include keys of the same run
   * that were held. Returns k, or 0 when refused or when every key is already held. The keys
   * must be distinct (hierarchical hashes of one prompt are).
   */
  prepareStore(keys: ArrayLike<number>, from = 0, count = keys.length - from): number {
    if (count > this.fresh.length) this.fresh = new Float64Array(Math.max(count, this.fresh.length * 2));
    const fresh = this.fresh;
    let k = 0;
    for (let i = from; i < from + count; i++) {
      const key = keys[i];
      if (this.index.get(key) === NIL) fresh[k++] = key;
    }
    if (k === 0 || !this.admits(k)) return 0;
    const free = this.capacity - this.usedCount;
    if (k > free) this.evict(k - free);
    for (let i = 0; i < k; i++) {
      if (this.index.get(fresh[i]) !== NIL) throw new KVCacheError(`prepareStore: key ${fresh[i]} appears twice in one run`);
      this.insert(fresh[i], -1);
    }
    return k;
  }

  /**
   * The promotion gate (BC-C5): can `k` new blocks be placed by evicting only idle ones?
   * Overridable so that a test can substitute the wrong (free-only) gate and watch it fail.
   */
  protected admits(k: number): boolean {
    return k <= this.capacity - this.usedCount + this.evictableCount;
  }

  /**
   * Ends a promotion: on success the block goes -1 → 0 and joins the LRU tail; on failure it is
   * removed. A key that is absent or not at -1 is left alone.
   */
  completeStore(key: number, ok: boolean): void {
    const s = this.index.get(key);
    if (s === NIL || this.rec[s * FIELDS + REF] !== -1) return;
    if (ok) {
      this.version++;
      this.rec[s * FIELDS + REF] = 0;
      this.append(s);
      this.evictableCount++;
    } else {
      this.remove(s);
    }
  }

  /** One more cascade writer on a ready block (leaves the LRU on 0 → 1). No-op when absent or at -1. */
  pin(key: number): void {
    const s = this.index.get(key);
    if (s === NIL || this.rec[s * FIELDS + REF] < 0) return;
    if (this.rec[s * FIELDS + REF] === 0) {
      this.unlink(s);
      this.evictableCount--;
    }
    this.rec[s * FIELDS + REF]++;
  }

  /** One cascade writer fewer (rejoins the LRU tail on 1 → 0). No-op when absent or not pinned. */
  unpin(key: number): void {
    const s = this.index.get(key);
    if (s === NIL || this.rec[s * FIELDS + REF] <= 0) return;
    if (--this.rec[s * FIELDS + REF] === 0) {
      this.append(s);
      this.evictableCount++;
    }
  }

  /** Refreshes an idle block's recency (a reload read it). No-op otherwise. */
  touchKey(key: number): void {
    const s = this.index.get(key);
    if (s !== NIL && this.rec[s * FIELDS + REF] === 0) this.moveToTail(s);
  }

  /** Evicts up to `n` blocks from the LRU head; returns how many it evicted. */
  private evict(n: number): number {
    let done = 0;
    while (done < n && this.head !== NIL) {
      const s = this.head;
      this.unlink(s);
      this.evictableCount--;
      this.remove(s);
      this.evictionCount++;
      done++;
    }
    return done;
  }

  /** Idle blocks counted by scanning every slot, O(capacity): BC-C8's reference for `evictable`. */
  scanEvictable(): number {
    let n = 0;
    for (let s = 0; s < this.capacity; s++) if (this.rec[s * FIELDS + REF] === 0) n++;
    return n;
  }

  /** Keys held with their reference counts, in slot order (tests and diagnostics). */
  entries(): [key: number, refCount: number][] {
    const out: [number, number][] = [];
    for (let s = 0; s < this.capacity; s++) if (this.rec[s * FIELDS + REF] !== UNUSED) out.push([this.keyOf[s], this.rec[s * FIELDS + REF]]);
    return out;
  }

  /** Keys on the LRU list, oldest first (tests and diagnostics). */
  lruOrder(): number[] {
    const out: number[] = [];
    for (let s = this.head; s !== NIL; s = this.rec[s * FIELDS + NEXT]) out.push(this.keyOf[s]);
    return out;
  }

  /** Throws unless `evictable` equals the scan (BC-C8), the LRU list holds exactly the idle blocks (BC-C4) and the counts agree. */
  checkConsistency(): void {
    const scan = this.scanEvictable();
    if (scan !== this.evictableCount) throw new KVCacheError(`BC-C8: evictable counter ${this.evictableCount} != scan ${scan}`);
    let onList = 0;
    let last = NIL;
    for (let s = this.head; s !== NIL; s = this.rec[s * FIELDS + NEXT]) {
      if (this.rec[s * FIELDS + REF] !== 0) throw new KVCacheError(`BC-C4: block ${this.keyOf[s]} with count ${this.rec[s * FIELDS + REF]} is on the LRU list`);
      if (this.rec[s * FIELDS + PREV] !== last) throw new KVCacheError(`LRU list broken at slot ${s}`);
      last = s;
      if (++onList > this.capacity) throw new KVCacheError('LRU list has a cycle');
    }
    if (last !== this.tail) throw new KVCacheError('LRU tail is not the last block of the list');
    if (onList !== this.evictableCount) throw new KVCacheError(`LRU list holds ${onList} blocks, evictable is ${this.evictableCount}`);
    let held = 0;
    for (let s = 0; s < this.capacity; s++) {
      if (this.rec[s * FIELDS + REF] === UNUSED) continue;
      held++;
      if (this.rec[s * FIELDS + REF] < -1) throw new KVCacheError(`slot ${s} has count ${this.rec[s * FIELDS + REF]}`);
      if (this.index.get(this.keyOf[s]) !== s) throw new KVCacheError(`index does not map ${this.keyOf[s]} to slot ${s}`);
    }
    if (held !== this.usedCount || this.index.size !== held || held + this.unusedTop !== this.capacity)
      throw new KVCacheError(`CPU tier counts disagree: held ${held}, used ${this.usedCount}, index ${this.index.size}, unused ${this.unusedTop}`);
  }

  private insert(key: number, ref: number): number {
    this.version++;
    const s = this.unused[--this.unusedTop];
    this.keyOf[s] = key;
    this.rec[s * FIELDS + REF] = ref;
    this.index.set(key, s);
    this.usedCount++;
    return s;
  }

  /** Frees slot `s`, which must be off the LRU list. */
  private remove(s: number): void {
    this.version++;
    this.index.delete(this.keyOf[s]);
    this.rec[s * FIELDS + REF] = UNUSED;
    this.unused[this.unusedTop++] = s;
    this.usedCount--;
  }

  private append(s: number): void {
    this.rec[s * FIELDS + PREV] = this.tail;
    this.rec[s * FIELDS + NEXT] = NIL;
    if (this.tail !== NIL) this.rec[this.tail * FIELDS + NEXT] = s;
    else this.head = s;
    this.tail = s;
  }

  private unlink(s: number): void {
    const p = this.rec[s * FIELDS + PREV];
    const n = this.rec[s * FIELDS + NEXT];
    if (p !== NIL) this.rec[p * FIELDS + NEXT] = n;
    else this.head = n;
    if (n !== NIL) this.rec[n * FIELDS + PREV] = p;
    else this.tail = p;
    this.rec[s * FIELDS + PREV] = NIL;
    this.rec[s * FIELDS + NEXT] = NIL;
  }

  private moveToTail(s: number): void {
    if (s === this.tail) return;
    this.unlink(s);
    this.append(s);
  }
}
