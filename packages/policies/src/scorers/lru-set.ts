const EMPTY = -1;
/** A bucket stores its key plus one, so that a fresh (zeroed) table is all vacant buckets. */
const VACANT = 0;
const NIL = -1;

/** Low 30 bits of a block hash: the identity of an entry (a small integer, cheap to hash). */
export function keyOf(hash: number): number {
  return (hash >>> 0) & 0x3fffffff;
}

/**
 * A bounded set of block hashes with least-recently-used eviction. Entries are identified by
 * `keyOf(hash)`: touching a hash whose key is already held replaces the stored hash (the index
 * is approximate by design), and `has` needs both the key and the exact hash.
 *
 * Routing looks up every instance's set on every decision and touches every block of every
 * request, and the sets are too big to stay cached between decisions, so the layout is chosen
 * for few cache misses:
 * - key -> slot is an open-addressing table over one Int32Array, key and slot side by side,
 *   with linear probing and backward-shift deletion, so no tombstones pile up. (A JS Map
 *   costs several dependent loads per lookup and grows garbage on delete.) There are always
 *   more buckets than entries, so a probe always meets an empty bucket.
 * - a slot's hash and its LRU links share one 16-byte record.
 * - slots are handed out in order and a new entry takes the evicted one's slot, so a stream of
 *   fresh blocks walks the records sequentially instead of scattering writes.
 * (A JS Set re-inserted on touch looks simpler, but finding its oldest element walks past
 * every deleted entry, which made routing quadratic.)
 */
export class LruSet {
  readonly capacity: number;
  /** Bucket b: `[2b]` is the entry's key + 1 or VACANT, `[2b + 1]` its slot. */
  private table: Int32Array;
  private mask: number;
  private shift: number;
  /** Slot s: hash at `hashes[2s]`; over the same bytes, prev/next slot at `links[4s + 2..3]`. */
  private hashes: Float64Array;
  private links: Int32Array;
  /** Slots the records have room for; they double (and the table with them) up to `capacity`. */
  private room: number;
  private head = NIL;
  private tail = NIL;
  private used = 0;
  private count = 0;

  /**
   * `initialRoom`: slots before the first growth. A router keeps a set per instance, and a short
   * run (a search's evaluation) fills a few hundred entries of a capacity of ten thousand.
   */
  constructor(capacity: number, initialRoom = 256) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`LruSet: capacity must be an integer > 0, got ${capacity}`);
    }
    if (tableBits(capacity) === undefined) throw new RangeError(`LruSet: capacity ${capacity} is too large`);
    this.capacity = capacity;
    this.room = Math.max(1, Math.min(capacity, initialRoom));
    const bits = tableBits(this.room) as number;
    this.mask = 2 ** bits - 1;
    this.shift = 32 - bits;
    this.table = new Int32Array(2 ** (bits + 1));
    const records = new ArrayBuffer(16 * this.room);
    this.hashes = new Float64Array(records);
    this.links = new Int32Array(records);
  }

  get size(): number {
    return this.count;
  }

  has(hash: number): boolean {
    const b = this.find(keyOf(hash));
    return b !== EMPTY && this.hashes[2 * this.table[2 * b + 1]] === hash;
  }

  /** Inserts `hash` as most recent (or moves it there), evicting the least recent when full. */
  touch(hash: number): void {
    const key = keyOf(hash);
    const found = this.find(key);
    let slot: number;
    if (found !== EMPTY) {
      slot = this.table[2 * found + 1];
      // A different hash sharing the key gives way to this one.
      this.hashes[2 * slot] = hash;
      if (slot !== this.tail) {
        this.unlink(slot);
        this.append(slot);
      }
      return;
    }
    if (this.used < this.capacity) {
      if (this.used === this.room) this.grow();
      slot = this.used++;
    } else {
      slot = this.head;
      this.unlink(slot);
      const victim = this.find(keyOf(this.hashes[2 * slot]));
      if (victim === EMPTY) throw new Error('LruSet: the least recent entry is not in the table');
      this.removeBucket(victim);
      this.count--;
    }
    // Probe again rather than reuse the miss's empty bucket: the eviction's backward shift may
    // have opened a hole earlier in this key's run, and lookups stop at the first hole.
    const b = this.findEmpty(key);
    this.table[2 * b] = key + 1;
    this.table[2 * b + 1] = slot;
    this.hashes[2 * slot] = hash;
    this.append(slot);
    this.count++;
  }

  /**
   * Reads the buckets that touching `hashes` in order will need: each hash's and, if the set is
   * full, each next victim's. Every touch of a new block misses the cache twice at random (its
   * own bucket and the evicted block's), and done one after the other those misses queue up;
   * loaded here first, independently, they overlap, and the touches then run on cached lines.
   * A later touch that hits reorders the victims, which only makes a load wasted, never wrong.
   */
  preloadTouches(hashes: ArrayLike<number>): number {
    const table = this.table;
    let sink = 0;
    for (let i = 0; i < hashes.length; i++) sink ^= table[2 * this.home(keyOf(hashes[i]))];
    if (this.used === this.capacity) {
      let slot = this.head;
      for (let i = 0; i < hashes.length && slot !== NIL; i++) {
        sink ^= table[2 * this.home(keyOf(this.hashes[2 * slot]))];
        slot = this.links[4 * slot + 3];
      }
    }
    return sink;
  }

  /** Hashes from least to most recent; for tests and debugging. */
  toArray(): number[] {
    const out: number[] = [];
    for (let s = this.head; s !== NIL; s = this.links[4 * s + 3]) out.push(this.hashes[2 * s]);
    return out;
  }

  /** Fibonacci hashing: keys may be low-entropy (tests, hand-made traces), the top bits mix. */
  private home(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  /** Bucket holding `key`, or EMPTY. The probe bound is a guard; an empty bucket comes first. */
  private find(key: number): number {
    const table = this.table;
    const mask = this.mask;
    let b = this.home(key);
    for (let probes = 0; probes <= mask; probes++) {
      const k = table[2 * b];
      if (k === key + 1) return b;
      if (k === VACANT) return EMPTY;
      b = (b + 1) & mask;
    }
    return EMPTY;
  }

  /** First empty bucket from `key`'s home. One always exists; the bound makes a bug throw. */
  private findEmpty(key: number): number {
    const table = this.table;
    const mask = this.mask;
    let b = this.home(key);
    for (let probes = 0; probes <= mask; probes++) {
      if (table[2 * b] === VACANT) return b;
      b = (b + 1) & mask;
    }
    throw new Error('LruSet: no empty bucket');
  }

  /** Empties bucket `hole` and shifts later entries of its run back so no lookup stops early. */
  private removeBucket(hole: number): void {
    const table = this.table;
    const mask = this.mask;
    let b = hole;
    for (let probes = 0; probes < mask; probes++) {
      b = (b + 1) & mask;
      const k = table[2 * b];
      if (k === VACANT) break;
      // The entry may fill the hole unless its home lies cyclically in (hole, b].
      if (((b - this.home(k - 1)) & mask) < ((b - hole) & mask)) continue;
      table[2 * hole] = k;
      table[2 * hole + 1] = table[2 * b + 1];
      hole = b;
    }
    table[2 * hole] = VACANT;
  }

  /**
   * Doubles the records (up to `capacity`) and lays out a table for them. Every slot below
   * `used` holds a live entry (an evicted entry's slot is taken at once by the new one), so the
   * table is rebuilt from the records.
   */
  private grow(): void {
    this.room = Math.min(this.capacity, 2 * this.room);
    const records = new ArrayBuffer(16 * this.room);
    new Uint8Array(records).set(new Uint8Array(this.hashes.buffer));
    this.hashes = new Float64Array(records);
    this.links = new Int32Array(records);
    const bits = tableBits(this.room) as number;
    this.mask = 2 ** bits - 1;
    this.shift = 32 - bits;
    this.table = new Int32Array(2 ** (bits + 1));
    for (let slot = 0; slot < this.used; slot++) {
      const key = keyOf(this.hashes[2 * slot]);
      const b = this.findEmpty(key);
      this.table[2 * b] = key + 1;
      this.table[2 * b + 1] = slot;
    }
  }

  private append(slot: number): void {
    const links = this.links;
    links[4 * slot + 2] = this.tail;
    links[4 * slot + 3] = NIL;
    if (this.tail !== NIL) links[4 * this.tail + 3] = slot;
    else this.head = slot;
    this.tail = slot;
  }

  private unlink(slot: number): void {
    const links = this.links;
    const p = links[4 * slot + 2];
    const n = links[4 * slot + 3];
    if (p !== NIL) links[4 * p + 3] = n;
    else this.head = n;
    if (n !== NIL) links[4 * n + 2] = p;
    else this.tail = p;
  }
}

/** Table bits for `entries` (at most half full keeps misses, the common probe when routing, to a bucket or two); undefined past 2^29 entries. */
function tableBits(entries: number): number | undefined {
  let bits = 1;
  while (bits < 30 && 2 ** bits < 2 * entries) bits++;
  return 2 ** bits < 2 * entries ? undefined : bits;
}
