import type { PolicyFactoryContext } from './interfaces.js';
import { seededRandomSource } from './seeded-random.js';

/** Default KV block size, in tokens (BLIS/vLLM). */
export const DEFAULT_BLOCK_SIZE_TOKENS = 16;

/**
 * A complete {@link PolicyFactoryContext} from a partial one: 1 instance, no params, 16-token
 * blocks and a deterministic random stream seeded with 0 unless given. Convenient in tests and
 * when building policies outside a simulation; simulations pass their own `random` stream.
 */
export function policyContext(overrides: Partial<PolicyFactoryContext> = {}): PolicyFactoryContext {
  return {
    numInstances: overrides.numInstances ?? 1,
    params: overrides.params ?? {},
    random: overrides.random ?? seededRandomSource(0),
    blockSizeTokens: overrides.blockSizeTokens ?? DEFAULT_BLOCK_SIZE_TOKENS,
  };
}
