/** Values per page of the integer store: consecutive steps' ITLs are close, so mostly one page. */
const PAGE_BITS = 8;
const PAGE_MASK = (1 << PAGE_BITS) - 1;
/**
 * Pages at most (2 KiB each). A run's ITLs cluster (a 100K-request run's instances each used
 * about 35 pages); values whose page would come past the cap, far-flung ones, go to the map,
 * so memory stays bounded however spread out the values are.
 */
const MAX_PAGES = 64;
/** Pages allocated together at most (16 KiB). */
const CHUNK_PAGES = 8;

/**
 * Inter-token latencies as value (µs) -> occurrences, added once per step.
 *
 * A step's ITL changes nearly every step (its batch's contexts grow), so a map keyed by it
 * costs a hash lookup, with its cache misses, per step. Integer values, the ones bulk decode
 * makes, are counted instead in pages of 256 consecutive values, the two pages used last kept at
 * hand: a step's ITL is almost always within a few µs of the one before, or of the one before a
 * step of another kind (decode only, or with a prefill chunk). Other values, and integers whose
 * page was not opened before the page cap was reached, go to a map: a value always goes to the
 * same store, since pages are never dropped. The first occurrence of each value is remembered, so {@link toMap} lists them in the
 * order a map counting them directly would.
 */
export class ItlHistogram {
  private readonly pages = new Map<number, Float64Array>();
  private lastPage = -1;
  private lastCounts: Float64Array = new Float64Array(0);
  private prevPage = -1;
  private prevCounts: Float64Array = new Float64Array(0);
  private readonly other = new Map<number, number>();
  /** Each distinct value, in order of first occurrence. */
  private readonly order: number[] = [];
  private cached: Map<number, number> | undefined;
  /** Pages not yet handed out in the current chunk (see {@link newPage}). */
  private chunk: ArrayBuffer | undefined;
  private spare = 0;

  /** Counts `count` (> 0) occurrences of `itl`. */
  add(itl: number, count: number): void {
    this.cached = undefined;
    if ((itl | 0) === itl && itl >= 0) {
      const page = itl >> PAGE_BITS;
      const counts = page === this.lastPage ? this.lastCounts : this.pageOf(page);
      if (counts !== undefined) {
        const i = itl & PAGE_MASK;
        if (counts[i] === 0) this.order.push(itl);
        counts[i] += count;
        return;
      }
    }
    const had = this.other.get(itl);
    if (had === undefined) this.order.push(itl);
    this.other.set(itl, (had ?? 0) + count);
  }

  /** The counts as a map, keys in order of first occurrence (built once per change). */
  toMap(): Map<number, number> {
    if (this.cached !== undefined) return this.cached;
    const m = new Map<number, number>();
    for (const v of this.order) {
      const page = (v | 0) === v && v >= 0 ? this.pages.get(v >> PAGE_BITS) : undefined;
      m.set(v, page !== undefined ? page[v & PAGE_MASK] : this.other.get(v)!);
    }
    this.cached = m;
    return m;
  }

  /**
   * A zeroed page, carved from a chunk of pages: each typed array past 64 bytes gets its own
   * off-heap store, which costs V8 (Node 20) about a microsecond to set up and the GC to track,
   * and a search builds a histogram per instance per run. Chunks double with the pages open
   * (1, 1, 2, 4, then 8 pages), so that at most seven pages are ever allocated unused.
   */
  private newPage(): Float64Array {
    let chunk = this.chunk;
    if (chunk === undefined || this.spare === 0) {
      this.spare = Math.min(CHUNK_PAGES, Math.max(1, this.pages.size));
      chunk = this.chunk = new ArrayBuffer(8 * (PAGE_MASK + 1) * this.spare);
    }
    this.spare--;
    return new Float64Array(chunk, 8 * (PAGE_MASK + 1) * this.spare, PAGE_MASK + 1);
  }

  /** Page `page`'s counts, opened if the cap allows; undefined when it does not exist and cannot. */
  private pageOf(page: number): Float64Array | undefined {
    let counts: Float64Array | undefined;
    if (page === this.prevPage) counts = this.prevCounts;
    else {
      counts = this.pages.get(page);
      if (counts === undefined) {
        if (this.pages.size === MAX_PAGES) return undefined;
        counts = this.newPage();
        this.pages.set(page, counts);
      }
    }
    this.prevPage = this.lastPage;
    this.prevCounts = this.lastCounts;
    this.lastPage = page;
    this.lastCounts = counts;
    return counts;
  }
}
