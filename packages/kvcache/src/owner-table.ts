/** Field offsets within an owner's record. */
const START = 0;
const LENGTH = 1;
const CAPACITY = 2;
const TOKENS = 3;
const OWNER_FIELDS = 4;
const NONE = -1;
const MIN_CLASS_SIZE = 4;
/** Set on a list entry whose block carries a prefix hash (block ids stay below it). */
const HASHED = 1 << 30;
const ID_MASK = HASHED - 1;
/** Block ids must stay below this for the list entries' {@link HASHED} mark. */
export const MAX_BLOCKS = HASHED;
/** Smallest owner pool an {@link OwnerTable} can grow from (a region's minimum size). */
export const MIN_OWNER_POOL = MIN_CLASS_SIZE;

/**
 * The ordered block ids each owner holds, and the tokens they store.
 *
 * Every owner's list is a region of one shared pool, its record (start, length, capacity,
 * tokens) a row of one typed array: reaching an owner's last block costs two reads of packed
 * memory, where an object per owner with its own array cost four dependent loads. Regions come
 * in power-of-two sizes; a freed region is kept on a free list of its size for the next owner.
 * Owners are small non-negative integers; the table grows to the largest one seen.
 *
 * Each entry also says whether its block carries a prefix hash: the cache tracks only those
 * blocks in their records, and releasing an owner's blocks must know which without reading them.
 */
export class OwnerTable {
  private meta: Int32Array;
  /** Regions of block ids; reallocated on growth, so never hold on to it across a push. */
  pool: Int32Array;
  private top = 0;
  /** Head of the free list of regions per size class (size MIN_CLASS_SIZE << class). */
  private readonly freeRegions = new Int32Array(31).fill(NONE);

  /** Room for `owners` owners and `poolSize` block ids before the first growth (both > 0). */
  constructor(owners = 64, poolSize = 1024) {
    this.meta = new Int32Array(owners * OWNER_FIELDS);
    this.pool = new Int32Array(poolSize);
  }

  has(owner: number): boolean {
    return owner * OWNER_FIELDS < this.meta.length && this.meta[owner * OWNER_FIELDS + CAPACITY] > 0;
  }

  /** Blocks `owner` holds (0 for an unknown owner). */
  length(owner: number): number {
    return owner * OWNER_FIELDS < this.meta.length ? this.meta[owner * OWNER_FIELDS + LENGTH] : 0;
  }

  /** Tokens `owner` stores (0 for an unknown owner). */
  tokens(owner: number): number {
    return owner * OWNER_FIELDS < this.meta.length ? this.meta[owner * OWNER_FIELDS + TOKENS] : 0;
  }

  /** The lowest owner that holds a record (blocks or not), or -1 when none does. O(owners). */
  firstOwner(): number {
    for (let m = 0; m < this.meta.length; m += OWNER_FIELDS) if (this.meta[m + CAPACITY] > 0) return m / OWNER_FIELDS;
    return NONE;
  }

  addTokens(owner: number, n: number): void {
    this.meta[owner * OWNER_FIELDS + TOKENS] += n;
  }

  /** The `i`-th block of a known owner. */
  blockAt(owner: number, i: number): number {
    return this.pool[this.meta[owner * OWNER_FIELDS + START] + i] & ID_MASK;
  }

  /** True when the `i`-th block of a known owner carries a prefix hash (see {@link markHashed}). */
  hashedAt(owner: number, i: number): boolean {
    return (this.pool[this.meta[owner * OWNER_FIELDS + START] + i] & HASHED) !== 0;
  }

  /** Notes that the `i`-th block of a known owner carries a prefix hash from now on. */
  markHashed(owner: number, i: number): void {
    this.pool[this.meta[owner * OWNER_FIELDS + START] + i] |= HASHED;
  }

  /** Calls `fn` with every owner holding a record and each of its blocks, marked or not. O(owners + blocks). */
  forEachBlock(fn: (owner: number, id: number, hashed: boolean) => void): void {
    for (let m = 0; m < this.meta.length; m += OWNER_FIELDS) {
      if (this.meta[m + CAPACITY] === 0) continue;
      for (let i = 0; i < this.meta[m + LENGTH]; i++) {
        const e = this.pool[this.meta[m + START] + i];
        fn(m / OWNER_FIELDS, e & ID_MASK, (e & HASHED) !== 0);
      }
    }
  }

  /** The last block of `owner`, or -1 when it holds none. */
  last(owner: number): number {
    if (owner * OWNER_FIELDS >= this.meta.length) return NONE;
    const m = owner * OWNER_FIELDS;
    const len = this.meta[m + LENGTH];
    return len === 0 ? NONE : this.pool[this.meta[m + START] + len - 1] & ID_MASK;
  }

  /** Starts an empty list for `owner`, with room for `capacityHint` blocks. */
  open(owner: number, capacityHint: number): void {
    if (owner * OWNER_FIELDS >= this.meta.length) this.growMeta(owner);
    let size = MIN_CLASS_SIZE;
    while (size < capacityHint) size *= 2;
    const m = owner * OWNER_FIELDS;
    this.meta[m + START] = this.takeRegion(size);
    this.meta[m + LENGTH] = 0;
    this.meta[m + CAPACITY] = size;
    this.meta[m + TOKENS] = 0;
  }

  /** Forgets `owner`'s list, keeping its region for reuse. */
  close(owner: number): void {
    const m = owner * OWNER_FIELDS;
    this.giveRegion(this.meta[m + START], this.meta[m + CAPACITY]);
    this.meta[m + LENGTH] = 0;
    this.meta[m + CAPACITY] = 0;
    this.meta[m + TOKENS] = 0;
  }

  /** Appends block `id` to `owner`'s list, marked as carrying a prefix hash when `hashed`. */
  push(owner: number, id: number, hashed = false): void {
    const m = owner * OWNER_FIELDS;
    const len = this.meta[m + LENGTH];
    if (len === this.meta[m + CAPACITY]) this.growRegion(m);
    this.pool[this.meta[m + START] + len] = hashed ? id | HASHED : id;
    this.meta[m + LENGTH] = len + 1;
  }

  /** Cuts `owner`'s list back to `length` blocks storing `tokens` (a rollback). */
  truncate(owner: number, length: number, tokens: number): void {
    const m = owner * OWNER_FIELDS;
    this.meta[m + LENGTH] = length;
    this.meta[m + TOKENS] = tokens;
  }

  private growMeta(owner: number): void {
    let size = this.meta.length;
    while (size <= owner * OWNER_FIELDS) size *= 2;
    const next = new Int32Array(size);
    next.set(this.meta);
    this.meta = next;
  }

  private growRegion(m: number): void {
    const cap = this.meta[m + CAPACITY];
    const from = this.meta[m + START];
    const to = this.takeRegion(cap * 2);
    this.pool.copyWithin(to, from, from + cap);
    this.giveRegion(from, cap);
    this.meta[m + START] = to;
    this.meta[m + CAPACITY] = cap * 2;
  }

  private takeRegion(size: number): number {
    const cls = classOf(size);
    const head = this.freeRegions[cls];
    if (head !== NONE) {
      this.freeRegions[cls] = this.pool[head];
      return head;
    }
    if (this.top + size > this.pool.length) {
      let cap = this.pool.length * 2;
      while (this.top + size > cap) cap *= 2;
      const next = new Int32Array(cap);
      next.set(this.pool);
      this.pool = next;
    }
    const start = this.top;
    this.top += size;
    return start;
  }

  private giveRegion(start: number, size: number): void {
    const cls = classOf(size);
    this.pool[start] = this.freeRegions[cls];
    this.freeRegions[cls] = start;
  }
}

function classOf(size: number): number {
  return 31 - Math.clz32(size / MIN_CLASS_SIZE);
}
