/**
 * A routing policy that learns from what happens to its requests: "least expected wait".
 *
 * Why this policy. Load counts treat every instance alike, but a replica that is slower (a
 * smaller GPU, a hot prefix-cache miss pattern, noisy neighbours) drains its queue more slowly,
 * and the gateway only learns that by watching requests finish. This router keeps, per instance,
 * an exponentially weighted mean of the time from routing to completion (`onEvent`: `routed`
 * stamps the start, `completed` closes it), and sends each request where
 * `(requests it has in flight + 1) x learned time per request` is smallest: the expected wait.
 * Instances it has not heard back from yet are tried first, so every one gets measured.
 *
 * It also shows the rest of the router contract:
 *  - `reject`: when every instance already has `maxInFlight` requests of ours in flight, the
 *    request is refused at the router (counted as `rejected`), as a gateway with a per-replica
 *    concurrency limit does;
 *  - `priority`: prompts up to `shortPromptTokens` tokens get the hint `1` (others keep the
 *    priority policy's score), so under a priority scheduler short prompts overtake long ones;
 *  - `metrics()`: what it did, reported in the result's `custom_metrics`.
 *
 * Params (from `--policy-param routing.<key>=<value>` or the policy YAML's `routing.params`):
 * `alpha` (EWMA weight of the newest sample, in (0, 1], default 0.2), `maxInFlight` (integer
 * >= 1, default unbounded), `shortPromptTokens` (integer >= 0, default 0 = no hints).
 */
import type { PolicyFactoryContext, RequestView, RouterEvent, RouterState, RoutingDecision, RoutingPolicy } from '@blis/policies';

export const LEARNING_ROUTER_NAME = 'least-expected-wait';

export interface LearningRouterParams {
  readonly alpha: number;
  readonly maxInFlight: number;
  readonly shortPromptTokens: number;
}

const KNOWN = ['alpha', 'maxInFlight', 'shortPromptTokens'];

/** Validates `ctx.params`: a typo or a wrong type fails the run before it starts. */
export function readLearningParams(params: Readonly<Record<string, unknown>>): LearningRouterParams {
  for (const key of Object.keys(params))
    if (!KNOWN.includes(key)) throw new Error(`${LEARNING_ROUTER_NAME}: unknown parameter "${key}" (known: ${KNOWN.join(', ')})`);
  const alpha = params.alpha ?? 0.2;
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha <= 1)) throw new Error(`${LEARNING_ROUTER_NAME}: params.alpha must be a number in (0, 1], found ${JSON.stringify(alpha)}`);
  const maxInFlight = params.maxInFlight ?? Number.POSITIVE_INFINITY;
  if (typeof maxInFlight !== 'number' || !(maxInFlight >= 1) || (Number.isFinite(maxInFlight) && !Number.isInteger(maxInFlight)))
    throw new Error(`${LEARNING_ROUTER_NAME}: params.maxInFlight must be an integer >= 1, found ${JSON.stringify(maxInFlight)}`);
  const shortPromptTokens = params.shortPromptTokens ?? 0;
  if (typeof shortPromptTokens !== 'number' || !Number.isInteger(shortPromptTokens) || shortPromptTokens < 0)
    throw new Error(`${LEARNING_ROUTER_NAME}: params.shortPromptTokens must be an integer >= 0, found ${JSON.stringify(shortPromptTokens)}`);
  return { alpha, maxInFlight, shortPromptTokens };
}

export function createLearningRouter(ctx: PolicyFactoryContext): RoutingPolicy {
  const { alpha, maxInFlight, shortPromptTokens } = readLearningParams(ctx.params);
  // Keyed by the instance's stable index (events name instances by it; positions can change
  // when an autoscaler adds or removes replicas).
  const learnedUs = new Map<number, number>();
  const inFlight = new Map<number, number>();
  const routedAt = new Map<number, number>(); // request index -> when it was routed
  let rejected = 0;
  let hinted = 0;
  let samples = 0;

  return {
    name: LEARNING_ROUTER_NAME,
    route(request: RequestView, state: RouterState): RoutingDecision {
      const snaps = state.instances;
      let best = -1;
      let bestWait = Number.POSITIVE_INFINITY;
      for (let i = 0; i < snaps.length; i++) {
        const busy = inFlight.get(snaps[i].index) ?? 0;
        if (busy >= maxInFlight) continue;
        // Unmeasured instances cost 0, so they are tried before any measured one.
        const wait = (busy + 1) * (learnedUs.get(snaps[i].index) ?? 0);
        if (wait < bestWait) {
          best = i;
          bestWait = wait;
        }
      }
      if (best < 0) {
        rejected++;
        return { instance: 0, reason: `every instance has ${maxInFlight} in flight`, reject: true };
      }
      if (request.inputTokens <= shortPromptTokens) {
        hinted++;
        return { instance: best, reason: 'least expected wait, short prompt', priority: 1 };
      }
      return { instance: best, reason: 'least expected wait' };
    },
    onEvent(event: RouterEvent): void {
      const i = event.instance;
      if (event.kind === 'routed' && i !== undefined) {
        inFlight.set(i, (inFlight.get(i) ?? 0) + 1);
        routedAt.set(event.request.index, event.nowUs);
        return;
      }
      if ((event.kind !== 'completed' && event.kind !== 'dropped') || i === undefined) return;
      const start = routedAt.get(event.request.index);
      if (start === undefined) return;
      routedAt.delete(event.request.index);
      inFlight.set(i, (inFlight.get(i) ?? 1) - 1);
      if (event.kind !== 'completed') return;
      const took = event.nowUs - start;
      const before = learnedUs.get(i);
      learnedUs.set(i, before === undefined ? took : before + alpha * (took - before));
      samples++;
    },
    metrics() {
      let sum = 0;
      for (const v of learnedUs.values()) sum += v;
      return { rejected, hinted, samples, mean_learned_ms: learnedUs.size > 0 ? sum / learnedUs.size / 1000 : 0 };
    },
  };
}

/** The default export is the factory `blis --routing-policy ./dist/latency-learning-router.js` loads. */
export default createLearningRouter;
