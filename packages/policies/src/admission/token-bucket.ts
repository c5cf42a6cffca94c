import * as z from 'zod';
import type { AdmissionDecision, AdmissionPolicy } from '../interfaces.js';
import { finitePositive, parsePolicyParams } from '../params.js';
import type { RequestView, RouterState } from '../views.js';
import { lazySchema } from '../lazy-schema.js';

export const tokenBucketParamsSchema = lazySchema(() =>
  z.strictObject({
    /** Bucket size in tokens (BLIS `--token-bucket-capacity`, default 10000). */
    capacity: finitePositive().default(10_000),
    /** Tokens added per second of simulated time (BLIS `--token-bucket-refill-rate`, default 1000). */
    refillRate: finitePositive().default(1_000),
  }),
);
export type TokenBucketParams = z.input<typeof tokenBucketParamsSchema>;

const ADMITTED: AdmissionDecision = Object.freeze({ admit: true, reason: '' });
const REJECTED: AdmissionDecision = Object.freeze({ admit: false, reason: 'insufficient tokens' });

/**
 * Rate limiting by input tokens. The bucket starts full and refills lazily: each decision first
 * adds `elapsedUs * refillRate / 1e6` tokens (capped at capacity) for the time since the last
 * refill, then admits iff the bucket holds at least the request's input-token count, which it
 * then removes. A rejected request consumes nothing.
 */
export function createTokenBucket(params: TokenBucketParams = {}): AdmissionPolicy {
  const { capacity, refillRate } = parsePolicyParams(
    'admission',
    'token-bucket',
    tokenBucketParamsSchema,
    params,
  );
  let tokens = capacity;
  let lastRefillUs = 0;
  return {
    name: 'token-bucket',
    admit(request: RequestView, state: RouterState): AdmissionDecision {
      const elapsed = state.nowUs - lastRefillUs;
      if (elapsed > 0) {
        tokens = Math.min(capacity, tokens + (elapsed * refillRate) / 1e6);
        lastRefillUs = state.nowUs;
      }
      const cost = request.inputTokens;
      if (tokens >= cost) {
        tokens -= cost;
        return ADMITTED;
      }
      return REJECTED;
    },
  };
}
