const NONE = -1;
/**
 * A free-ring entry's hash slot for a block that carries no hash and whose record the ring does
 * not track (see {@link BlockStore.pushBackBlank}): such an entry is always live.
 */
const BLANK = -2;

/** Field offsets within a block's record; see {@link BlockStore.rec}. */
export const HASH_LO = 0;
/**
 * The high half of the block's hash plus one (0, a fresh record's value, is no hash), and
 * {@link REGISTERED_BIT}.
 */
export const HASH_HI = 1;
/** Set while the prefix index maps the block's hash to this block (see hash-index.ts). */
const REGISTERED_BIT = 1 << 30;
const HI_MASK = REGISTERED_BIT - 1;
export const REF = 2;
/** The block's position in the free ring while it is free (meaningless while held). */
export const AUX = 3;
export const BLOCK_FIELDS = 4;

const TWO_32 = 4294967296;
/**
 * Blocks with a record and ring room from the start; both double as blocks are first taken. Few,
 * so that the first doubling comes while the code that takes blocks warms up, not after it was
 * optimised without it.
 */
const INITIAL_BLOCKS = 128;

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
 *
 * Blocks never taken yet are not in the ring: they are the oldest free blocks, in id order,
 * ahead of everything the ring holds, so they are just a count (`fresh`: ids below it have
 * been taken at least once). Records and ring grow as blocks are first taken, so a cache costs
 * memory for the blocks a run reaches: a search's evaluation builds a cache per instance per
 * scenario, and allocating and filling them for every block was a tenth of its time.
 */
export class BlockStore {
  readonly total: number;
  /**
   * The block records, BLOCK_FIELDS int32s per block, for the blocks below {@link fresh}
   * (and a few more). Replaced as it grows: read it again after a {@link popFront}.
   */
  rec: Int32Array;
  private ring: Int32Array;
  private ringHash: Float64Array;
  private mask: number;
  /** Blocks taken at least once: ids [0, fresh) have records; [fresh, total) are free and fresh. */
  private fresh = 0;
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

  /** `initialBlocks`: records and ring room before the first growth (tests set it low). */
  constructor(total: number, initialBlocks = INITIAL_BLOCKS) {
    this.total = total;
    const blocks = Math.max(1, Math.min(total, initialBlocks));
    this.rec = new Int32Array(blocks * BLOCK_FIELDS);
    let size = 2;
    while (size < blocks * 2) size *= 2;
    this.ring = new Int32Array(size);
    this.ringHash = new Float64Array(size);
    this.mask = size - 1;
  }

  /** The prefix hash `id` carries, or -1 (also for a block never taken). */
  hashOf(id: number): number {
    const hi = this.rec[id * BLOCK_FIELDS + HASH_HI] & HI_MASK;
    return hi > 0 ? (hi - 1) * TWO_32 + (this.rec[id * BLOCK_FIELDS + HASH_LO] >>> 0) : NONE;
  }

  /** True while the prefix index maps the hash `id` carries to `id` (the index's truth). */
  isRegistered(id: number): boolean {
    return (this.rec[id * BLOCK_FIELDS + HASH_HI] & REGISTERED_BIT) !== 0;
  }

  /** Marks `id` (which carries a hash) as the block its hash maps to, or no longer. */
  setRegistered(id: number, registered: boolean): void {
    if (registered) this.rec[id * BLOCK_FIELDS + HASH_HI] |= REGISTERED_BIT;
    else this.rec[id * BLOCK_FIELDS + HASH_HI] &= HI_MASK;
  }

  /** Blocks with a record (every block taken at least once, and a few more): the only ones that can carry a hash. */
  get recordedBlocks(): number {
    return this.rec.length / BLOCK_FIELDS;
  }

  /**
   * The reference count of block `id` while it carries a hash; 0 for a block without one, held
   * or free (its record does not track it: see the class comment), and for one never taken.
   */
  refOf(id: number): number {
    return id < this.fresh ? this.rec[id * BLOCK_FIELDS + REF] : 0;
  }

  /**
   * Sets the hash `id` (a block taken at least once) carries; -1 clears it. Hashes are integers
   * in [0, 2^52). The registered bit is the index's to change.
   */
  setHash(id: number, hash: number): void {
    const registered = this.rec[id * BLOCK_FIELDS + HASH_HI] & REGISTERED_BIT;
    if (hash < 0) {
      this.rec[id * BLOCK_FIELDS + HASH_HI] = registered;
    } else {
      this.rec[id * BLOCK_FIELDS + HASH_HI] = registered | (Math.floor(hash / TWO_32) + 1);
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

  /**
   * Makes free block `id`, which carries no hash and is tracked by no record (see the class
   * comment), the most recently freed, without touching its record.
   */
  pushBackBlank(id: number): void {
    if (this.tail - this.head > this.mask) this.compact();
    const pos = this.tail & this.mask;
    this.ring[pos] = id;
    this.ringHash[pos] = BLANK;
    this.tail++;
  }

  /**
   * Block `id` (free, just taken, its hash evicted from the index) gives its hash up: its record
   * now tracks nothing (see the class comment).
   */
  forgetHash(id: number): void {
    this.setHash(id, NONE);
    this.rec[id * BLOCK_FIELDS + AUX] = NONE;
  }

  /** Block `id`, held by one owner and carrying no hash so far, gains `hash`: its record tracks it from now on. */
  holdHashed(id: number, hash: number): void {
    this.setHash(id, hash);
    this.rec[id * BLOCK_FIELDS + REF] = 1;
  }

  /** Makes free block `id` the least recently freed (undoing a take). */
  pushFront(id: number): void {
    // Fresh blocks are older than every ring entry: they must join the ring behind this one.
    if (this.fresh < this.total) this.enterFreshBlocks();
    if (this.tail - this.head > this.mask) this.compact();
    this.head--;
    const pos = this.head & this.mask;
    this.ring[pos] = id;
    this.ringHash[pos] = this.hashOf(id);
    this.rec[id * BLOCK_FIELDS + AUX] = pos;
  }

  /** Free block `id` is being claimed in place (a prefix hit): its ring entry goes stale. */
  revive(id: number): void {
    // A fresh block is revived only by tests of the ring: the cache revives hashed blocks.
    if (id >= this.fresh) this.enterFreshBlocks();
    this.rec[id * BLOCK_FIELDS + AUX] = NONE;
    this.stale++;
  }

  /**
   * Takes the least recently freed block. The caller knows one is free; the block is then no
   * longer free only once the caller raises its reference count.
   */
  popFront(): number {
    // A fresh block goes through the ring too, so that the ring's path runs from the first take:
    // taken only once the fresh blocks ran out, it came after the callers were optimised without
    // it, and threw their optimised code away in the middle of every run that fills the cache.
    if (this.fresh < this.total) this.enterFreshBlock();
    for (;;) {
      const pos = this.head & this.mask;
      const id = this.ring[pos];
      this.head++;
      if (this.stale === 0 || this.isLive(id, pos)) {
        const hash = this.ringHash[pos];
        this.poppedHash = hash === BLANK ? NONE : hash;
        return id;
      }
      this.stale--;
    }
  }

  /** True when `id` is free and this ring entry is its live one (always, for an untracked block's entry). */
  private isLive(id: number, pos: number): boolean {
    return this.ringHash[pos] === BLANK || (this.rec[id * BLOCK_FIELDS + REF] === 0 && this.rec[id * BLOCK_FIELDS + AUX] === pos);
  }

  /** Calls `fn` for every free block, least recently freed first. */
  forEachFree(fn: (id: number) => void): void {
    for (let id = this.fresh; id < this.total; id++) fn(id);
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
      const hash = this.ringHash[pos];
      this.ringHash[to] = hash;
      this.ring[to] = id;
      if (hash !== BLANK) this.rec[id * BLOCK_FIELDS + AUX] = to;
      w++;
    }
    this.stale = 0;
    // The ring holds at least twice the blocks, so a full ring is at least half stale.
    this.tail = w;
  }

  /** Takes the oldest fresh block, growing the records (and the ring, kept at twice the blocks) to cover it. */
  private takeFresh(): number {
    const id = this.fresh++;
    if (this.fresh * BLOCK_FIELDS > this.rec.length) {
      const rec = new Int32Array(Math.min(this.total, 2 * (this.rec.length / BLOCK_FIELDS)) * BLOCK_FIELDS);
      rec.set(this.rec);
      this.rec = rec;
    }
    // Compaction relies on the ring holding at least twice the blocks that can be in it.
    if (2 * this.fresh > this.mask + 1) this.growRing();
    this.poppedHash = NONE;
    return id;
  }

  /** Puts the oldest fresh block at the ring's front, an entry no record tracks (as {@link pushBackBlank}'s). */
  private enterFreshBlock(): void {
    const id = this.takeFresh();
    if (this.tail - this.head > this.mask) this.compact();
    this.head--;
    const pos = this.head & this.mask;
    this.ring[pos] = id;
    this.ringHash[pos] = BLANK;
  }

  /** Doubles the ring, keeping its live entries in order from position 0 (the stale ones go). */
  private growRing(): void {
    const size = 2 * (this.mask + 1);
    const ring = new Int32Array(size);
    const ringHash = new Float64Array(size);
    let w = 0;
    for (let c = this.head; c < this.tail; c++) {
      const pos = c & this.mask;
      const id = this.ring[pos];
      if (!this.isLive(id, pos)) continue;
      const hash = this.ringHash[pos];
      ring[w] = id;
      ringHash[w] = hash;
      if (hash !== BLANK) this.rec[id * BLOCK_FIELDS + AUX] = w;
      w++;
    }
    this.ring = ring;
    this.ringHash = ringHash;
    this.mask = size - 1;
    this.head = 0;
    this.tail = w;
    this.stale = 0;
  }

  /** Puts every fresh block in the ring, ahead of its entries, in id order (see {@link pushFront}). */
  private enterFreshBlocks(): void {
    const first = this.fresh;
    const count = this.total - first;
    while (this.fresh < this.total) this.takeFresh();
    for (let k = count - 1; k >= 0; k--) {
      if (this.tail - this.head > this.mask) this.compact();
      this.head--;
      const pos = this.head & this.mask;
      this.ring[pos] = first + k;
      this.ringHash[pos] = NONE;
      this.rec[(first + k) * BLOCK_FIELDS + AUX] = pos;
    }
  }
}
