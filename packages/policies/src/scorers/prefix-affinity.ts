import * as z from 'zod';
import type { Scorer } from '../interfaces.js';
import { parsePolicyParams, positiveInt } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { PrefixCacheIndex } from './prefix-cache-index.js';
import { lazySchema } from '../lazy-schema.js';

/** BLIS's per-instance capacity of the router-side index: 10,000 blocks (160K tokens at 16). */
export const DEFAULT_PREFIX_INDEX_CAPACITY = 10_000;

export const prefixAffinityParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Block hashes remembered per instance (LRU). */
    lruCapacity: positiveInt().default(DEFAULT_PREFIX_INDEX_CAPACITY),
  }),
);
export type PrefixAffinityParams = z.input<typeof prefixAffinityParamsSchema>;

/**
 * Router-side prefix affinity. Score = (leading blocks of the request found in the instance's
 * index, stopping at the first miss) / (request's block count); a request with no full block
 * scores 0 everywhere. `observe` records the request's blocks for the chosen instance, so the
 * index is always current (synchronous freshness).
 */
export function createPrefixAffinityScorer(params: PrefixAffinityParams = {}): Scorer & {
  readonly index: PrefixCacheIndex;
} {
  const { lruCapacity } = parsePolicyParams(
    'scorer',
    'prefix-affinity',
    prefixAffinityParamsSchema,
    params,
  );
  const index = new PrefixCacheIndex(lruCapacity);
  return {
    name: 'prefix-affinity',
    index,
    score(request: RequestView, state: RouterState, out: Float64Array): void {
      const snaps = state.instances;
      const hashes = request.blockHashes;
      const total = hashes.length;
      for (let i = 0; i < snaps.length; i++) {
        out[i] = total === 0 ? 0 : index.matchLength(hashes, snaps[i].index) / total;
      }
    },
    observe(request: RequestView, chosen: number, state: RouterState): void {
      const snap = state.instances[chosen];
      if (snap !== undefined) index.record(request.blockHashes, snap.index);
    },
  };
}
