import * as z from 'zod';
import { DEFAULT_BLOCK_SIZE_TOKENS } from '../factory-context.js';
import type { DisaggregationDecider, DisaggregationDecision } from '../interfaces.js';
import { nonNegativeInt, parsePolicyParams } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const prefixThresholdParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Prompt tokens not cached on the decode pod above which the request is split (BLIS: 16). */
    threshold: nonNegativeInt().default(16),
  }),
);
export type PrefixThresholdParams = z.input<typeof prefixThresholdParamsSchema>;

// Frozen and shared: the decider runs once per request, so it allocates nothing.
const SPLIT: DisaggregationDecision = Object.freeze({
  disaggregate: true,
  reason: 'prefix-threshold:disaggregate',
});
const LOCAL: DisaggregationDecision = Object.freeze({
  disaggregate: false,
  reason: 'prefix-threshold:local',
});
const NO_POD: DisaggregationDecision = Object.freeze({
  disaggregate: false,
  reason: 'prefix-threshold:no-decode-pod',
});

/**
 * BLIS `PrefixThresholdDecider`: disaggregate when the prompt tokens the chosen decode pod does
 * not already hold, `inputTokens - cachedBlocks * blockSizeTokens`, exceed `threshold`. A mostly
 * cached prompt is cheaper to finish locally than to prefill elsewhere and ship its KV over.
 * The cache is read through the decode pod's `kv` view, i.e. as the router last heard of it.
 */
export function createPrefixThresholdDecider(
  params: PrefixThresholdParams = {},
  blockSizeTokens: number = DEFAULT_BLOCK_SIZE_TOKENS,
): DisaggregationDecider {
  const { threshold } = parsePolicyParams(
    'decider',
    'prefix-threshold',
    prefixThresholdParamsSchema,
    params,
  );
  if (!Number.isInteger(blockSizeTokens) || blockSizeTokens <= 0) {
    throw new RangeError(
      `prefix-threshold: blockSizeTokens must be an integer > 0, got ${blockSizeTokens}`,
    );
  }
  return {
    name: 'prefix-threshold',
    decide(request: RequestView, state: RouterState, selected: number): DisaggregationDecision {
      if (request.inputTokens === 0) return LOCAL;
      const pod = Number.isInteger(selected) ? state.instances[selected] : undefined;
      if (pod === undefined) return NO_POD;
      const cachedBlocks = pod.kv.cachedPrefixBlocks(request.blockHashes);
      const nonCached = request.inputTokens - cachedBlocks * blockSizeTokens;
      return nonCached > threshold ? SPLIT : LOCAL;
    },
  };
}
