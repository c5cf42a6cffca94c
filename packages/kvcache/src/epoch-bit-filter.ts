/** Smallest and largest filters, in bits. */
const MIN_BITS = 1024;
const MAX_BITS = 1 << 18;
/** Bits per member the filter grows to keep (a false positive rate of a few percent). */
const BITS_PER_MEMBER = 16;
/** Stamps restart (with one clearing) before they would overflow an int32. */
const MAX_EPOCH = 1 << 30;

/**
 * A one-hash Bloom filter over 32-bit mixes that empties in O(1): each 32-bit word carries the
 * epoch it was last written in, and a word from an earlier epoch reads as zero. It answers
 * "certainly not added this epoch" from a few KB that stay in cache, which is what lets a
 * lookup skip the work of finding out what an unchanged hash was.
 */
export class EpochBitFilter {
  /** Per word: its epoch stamp, then its bits. */
  private words: Int32Array;
  /** Words - 1. */
  private mask: number;
  private epoch = 1;
  /** Members added this epoch (with repeats): sizes the filter for the next. */
  private added = 0;

  constructor(minBits = MIN_BITS) {
    this.words = new Int32Array(0);
    this.mask = 0;
    this.allocate(minBits);
  }

  add(mix: number): void {
    const w = 2 * ((mix >>> 5) & this.mask);
    const words = this.words;
    if (words[w] !== this.epoch) {
      words[w] = this.epoch;
      words[w + 1] = 0;
    }
    words[w + 1] |= 1 << (mix & 31);
    this.added++;
  }

  /** False when `mix` was certainly not added this epoch. */
  mayHold(mix: number): boolean {
    const w = 2 * ((mix >>> 5) & this.mask);
    return this.words[w] === this.epoch && (this.words[w + 1] & (1 << (mix & 31))) !== 0;
  }

  /** Starts a new epoch, empty; a filter that the last epoch crowded is replaced by a larger one. */
  clear(): void {
    if (this.added === 0) return;
    const bits = (this.mask + 1) * 32;
    if (this.added * BITS_PER_MEMBER > bits && bits < MAX_BITS) this.allocate(Math.min(MAX_BITS, this.added * BITS_PER_MEMBER));
    else if (++this.epoch === MAX_EPOCH) {
      this.words.fill(0);
      this.epoch = 1;
    }
    this.added = 0;
  }

  private allocate(minBits: number): void {
    let words = 1;
    while (words * 32 < minBits) words *= 2;
    this.words = new Int32Array(words * 2);
    this.mask = words - 1;
    this.epoch = 1;
  }
}
