const NONE = -1;

/** Field offsets within a block's record; see {@link BlockStore.rec}. */
export const HASH_LO = 0;
export const HASH_HI = 1;
export const REF = 2;
/** The block's position in the free ring while it is free (meaningless while held). */
export const AUX = 3;
export const BLOCK_FIELDS = 4;

const TWO_32 = 4294967296;

/**
 * The cache's blocks and their LRU free order.
 *
 * Each block is one 16-byte record (prefix hash in two halves, reference count, free-ring
 * position), so touching a block costs one cache line: with tens of thousands of blocks per
 * instance and many instances, the cache's time goes to memory, not arithmetic. Stored tokens
 * are not kept per block: every block of an owner but the last is full, so the owner's token
 * count says how full its last block is.
 *
 * The free order is a ring of block ids, oldest first, instead of a doubly linked list: taking
 * the oldest block reads the ring sequentially and never touches a neighbour's record. Each
 * entry also holds the hash its block carried when freed (a free block's hash cannot change),
 * so taking a block and evicting its hash need no read of the block's record either: at
 * scale that read, at a random place, was the single most expensive thing the cache did.
 * A free block revived by a prefix hit leaves a stale entry behind, recognised later because
 * the block no longer points back at it, and skipped; while no stale entry exists, taking a
 * block does not check. The ring is compacted when stale entries fill it.
 */
export class BlockStore {
  readonly total: number;
  /** The block records, BLOCK_FIELDS int32s per block. */
  readonly rec: Int32Array;
  private ring: Int32Array;
  private ringHash: Float64Array;
  private mask: number;
  /** Stale entries in the ring (free blocks revived since they were freed). */
  private stale = 0;
  /**
   * The hash the block returned by the last {@link popFront} carried, or -1. Read only after a
   * pop; it starts as -0, a double, because hashes are 53-bit (see `EventQueue.poppedTime` in
   * `@blis/engine`).
   */
  poppedHash = -0;
  /** Ring positions are counters taken modulo the ring size; [head, tail) holds the entries. */
  private head = 0;
  private tail = 0;

  constructor(total: number) {
    this.total = total;
    this.rec = new Int32Array(total * BLOCK_FIELDS);
    let size = 16;
    while (size < total * 2) size *= 2;
    this.ring = new Int32Array(size);
    this.ringHash = new Float64Array(size);
    this.mask = size - 1;
    // What `pushBack` of every block in id order leaves, written directly: a short evaluation
    // (100 requests on 4 instances) spent more time here, block by block, than simulating.
    const rec = this.rec;
    const ring = this.ring;
    for (let id = 0; id < total; id++) {
      rec[id * BLOCK_FIELDS + HASH_HI] = NONE;
      rec[id * BLOCK_FIELDS + AUX] = id;
      ring[id] = id;
    }
    this.ringHash.fill(NONE, 0, total);
    this.tail = total;
  }

  /** The prefix hash `id` carries, or -1. */
  hashOf(id: number): number {
    const hi = this.rec[id * BLOCK_FIELDS + HASH_HI];
    return hi < 0 ? NONE : hi * TWO_32 + (this.rec[id * BLOCK_FIELDS + HASH_LO] >>> 0);
  }

  /** Sets the hash `id` carries; -1 clears it. Hashes are integers in [0, 2^52). */
  setHash(id: number, hash: number): void {
    if (hash < 0) {
      this.rec[id * BLOCK_FIELDS + HASH_HI] = NONE;
    } else {
      this.rec[id * BLOCK_FIELDS + HASH_HI] = Math.floor(hash / TWO_32);
      this.rec[id * BLOCK_FIELDS + HASH_LO] = hash >>> 0;
    }
  }

  /** Makes free block `id` the most recently freed. */
  pushBack(id: number): void {
    if (this.tail - this.head > this.mask) this.compact();
    const pos = this.tail & this.mask;
    this.ring[pos] = id;
    this.ringHash[pos] = this.hashOf(id);
    this.rec[id * BLOCK_FIELDS + AUX] = pos;
    this.tail++;
  }

  /** Makes free block `id` the least recently freed (undoing a take). */
  pushFront(id: number): void {
    if (this.tail - this.head > this.mask) this.compact();
    this.head--;
    const pos = this.head & this.mask;
    this.ring[pos] = id;
    this.ringHash[pos] = this.hashOf(id);
    this.rec[id * BLOCK_FIELDS + AUX] = pos;
  }

  /** Free block `id` is being claimed in place (a prefix hit): its ring entry goes stale. */
  revive(id: number): void {
    this.rec[id * BLOCK_FIELDS + AUX] = NONE;
    this.stale++;
  }

  /**
   * Takes the least recently freed block. The caller knows one is free; the block is then no
   * longer free only once the caller raises its reference count.
   */
  popFront(): number {
    for (;;) {
      const pos = this.head & this.mask;
      const id = this.ring[pos];
      this.head++;
      if (this.stale === 0 || this.isLive(id, pos)) {
        this.poppedHash = this.ringHash[pos];
        return id;
      }
      this.stale--;
    }
  }

  /** True when `id` is free and this ring entry is its live one. */
  private isLive(id: number, pos: number): boolean {
    return this.rec[id * BLOCK_FIELDS + REF] === 0 && this.rec[id * BLOCK_FIELDS + AUX] === pos;
  }

  /** Calls `fn` for every free block, least recently freed first. */
  forEachFree(fn: (id: number) => void): void {
    for (let c = this.head; c < this.tail; c++) {
      const pos = c & this.mask;
      const id = this.ring[pos];
      if (this.isLive(id, pos)) fn(id);
    }
  }

  /**
   * Stale entries actually in the ring, for consistency checks: taking a block trusts the
   * ring's head whenever {@link staleEntries} is 0, so the two must agree.
   */
  countStale(): number {
    let n = 0;
    for (let c = this.head; c < this.tail; c++) {
      const pos = c & this.mask;
      if (!this.isLive(this.ring[pos], pos)) n++;
    }
    return n;
  }

  /** The stale-entry count the store keeps. */
  get staleEntries(): number {
    return this.stale;
  }

  /** Drops stale entries, keeping the live ones in order. */
  private compact(): void {
    let w = this.head;
    for (let c = this.head; c < this.tail; c++) {
      const pos = c & this.mask;
      const id = this.ring[pos];
      if (!this.isLive(id, pos)) continue;
      const to = w & this.mask;
      this.ringHash[to] = this.ringHash[pos];
      this.ring[to] = id;
      this.rec[id * BLOCK_FIELDS + AUX] = to;
      w++;
    }
    this.stale = 0;
    // The ring holds at least twice the blocks, so a full ring is at least half stale.
    this.tail = w;
  }
}
