import { KeyIndex } from './key-index.js';

/**
 * One secondary (`fs`) tier of the offload chain: the set of block keys whose cascade write has
 * landed on it. No payload and no capacity (BLIS gives secondary tiers none). A key joins when
 * its write completes; nothing in the chain removes keys, and one tier's contents never depend
 * on another's (the cascade writes to every tier in parallel; it is not a spill chain).
 *
 * BLIS's "existence known" marking, which tells a cold fetch (one extra poll round for the
 * asynchronous existence check) from a warm one, is not per tier: it is one set over all tiers,
 * kept with the deferral episodes (see deferral.ts).
 */
export class SecondaryTier {
  private readonly holds = new KeyIndex(64);

  /** Keys held. */
  get size(): number {
    return this.holds.size;
  }

  /** Records that `key`'s block now lives on this tier. */
  store(key: number): void {
    this.holds.set(key, 0);
  }

  /** Forgets `key` (no chain operation does this; kept for tests and future eviction). */
  drop(key: number): void {
    this.holds.delete(key);
  }

  has(key: number): boolean {
    return this.holds.get(key) !== -1;
  }
}

/** Index of the first tier, in list order, that holds `key`, or -1 when none does (a genuine miss). */
export function firstHoldingTier(tiers: readonly SecondaryTier[], key: number): number {
  for (let t = 0; t < tiers.length; t++) if (tiers[t].has(key)) return t;
  return -1;
}
