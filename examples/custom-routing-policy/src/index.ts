/**
 * A custom BLIS routing policy: "power of two choices" (P2C) with a prefix-cache tiebreak.
 *
 * Why this policy. Many production gateways do not scan every replica before each request:
 * Envoy's LEAST_REQUEST balancer and NGINX's `random two least_conn` sample two replicas at
 * random and send the request to the less loaded one. Mitzenmacher's result is that two random
 * choices already bring the maximum load close to that of a full least-loaded scan, at O(1) cost
 * per decision, and the randomness keeps a burst of requests that all see the same (possibly
 * stale) load signals from piling onto one replica. If that is what your cluster runs, this is
 * the policy to simulate before comparing it with BLIS's built-ins (`least-loaded`, `weighted`).
 *
 * The rule, per request:
 *  1. sample `choices` (default 2) distinct instances uniformly at random;
 *  2. pick the one with the lowest effective load (queued + running + in flight, the same signal
 *     BLIS's least-loaded uses);
 *  3. on a load tie, prefer the one whose KV cache already holds more of the request's leading
 *     prompt blocks (a prefix hit saves prefill work); then the lowest position.
 *
 * `choices: 1` is uniform random routing; `choices >= numInstances` is least-loaded with the
 * prefix tiebreak.
 *
 * The contract (from `@blis/policies`): never mutate the views you are given, never use
 * `Math.random` (randomness comes from `ctx.random`, a seeded stream, so runs are reproducible),
 * and return a POSITION in `state.instances`.
 */
import {
  effectiveLoad,
  type PolicyFactoryContext,
  type RandomSource,
  type RequestView,
  type RouterState,
  type RoutingDecision,
  type RoutingFactory,
  type RoutingPolicy,
} from '@blis/policies';

export const POLICY_NAME = 'power-of-two-choices';

/** Parameters, when the policy is built through a registry or `simulate()` (or from the CLI's `--policy-param`). */
export interface PowerOfTwoChoicesParams {
  /** How many distinct instances to sample per request (integer >= 1, default 2). */
  readonly choices?: number;
}

/** Validates the free-form `ctx.params`; a typo should fail loudly, not be ignored. */
function readParams(params: Readonly<Record<string, unknown>>): Required<PowerOfTwoChoicesParams> {
  for (const key of Object.keys(params)) {
    if (key !== 'choices') throw new Error(`${POLICY_NAME}: unknown parameter "${key}" (known: choices)`);
  }
  const choices = params.choices ?? 2;
  if (typeof choices !== 'number' || !Number.isInteger(choices) || choices < 1) {
    throw new Error(`${POLICY_NAME}: params.choices must be an integer >= 1, found ${JSON.stringify(choices)}`);
  }
  return { choices };
}

/** The policy factory: BLIS calls it once per run with the policy's own random stream. */
export function createPowerOfTwoChoices(ctx: PolicyFactoryContext): RoutingPolicy {
  const { choices } = readParams(ctx.params);
  const random: RandomSource = ctx.random;
  // Positions 0..n-1; a partial Fisher-Yates shuffle moves `choices` random ones to the front.
  // Reused across decisions (any permutation is a valid starting point for the shuffle).
  let positions = new Int32Array(0);

  return {
    name: POLICY_NAME,
    route(request: RequestView, state: RouterState): RoutingDecision {
      const snaps = state.instances;
      const n = snaps.length;
      if (n === 0) throw new Error(`${POLICY_NAME}: RouterState has no instances to route to`);
      if (positions.length !== n) positions = Int32Array.from({ length: n }, (_, i) => i);

      const k = Math.min(choices, n);
      let best = -1;
      let bestLoad = 0;
      let bestCached = -1; // computed lazily: only a load tie needs the prefix query
      for (let i = 0; i < k; i++) {
        const j = i + random.nextInt(n - i);
        const candidate = positions[j];
        positions[j] = positions[i];
        positions[i] = candidate;

        const load = effectiveLoad(snaps[candidate]);
        if (best < 0 || load < bestLoad) {
          best = candidate;
          bestLoad = load;
          bestCached = -1;
          continue;
        }
        if (load > bestLoad) continue;
        // Load tie: more cached leading blocks wins, then the lower position.
        if (bestCached < 0) bestCached = snaps[best].kv.cachedPrefixBlocks(request.blockHashes);
        const cached = snaps[candidate].kv.cachedPrefixBlocks(request.blockHashes);
        if (cached > bestCached || (cached === bestCached && candidate < best)) {
          best = candidate;
          bestCached = cached;
        }
      }
      return {
        instance: best,
        reason: `${POLICY_NAME} (of ${k}: load=${bestLoad}${bestCached >= 0 ? ` cached=${bestCached}` : ''})`,
      };
    },
  };
}

// The CLI (`--routing-policy ./dist/index.js`) loads the module's default export as the factory.
const factory: RoutingFactory = createPowerOfTwoChoices;
export default factory;
