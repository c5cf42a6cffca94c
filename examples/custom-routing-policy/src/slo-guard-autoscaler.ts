/**
 * A custom autoscaler, "SLO guard": scale on the latency targets users see, not on a load figure.
 *
 * Why. The built-in autoscalers size a group by what its replicas hold (KV tokens, queues,
 * utilisation) against thresholds someone has to tune per model and GPU. What an operator
 * actually promises is a latency target. This policy reads the share of requests that met their
 * targets since the previous evaluation (`sloAttainment`, defined when the run sets targets,
 * e.g. `--slo-ttft`) and reacts to it: fast when the target is missed, slowly once it has been
 * met for a while. It is a baseline to compare the load-based built-ins against.
 *
 * The rule, per evaluation of a scaling group (R routable replicas, P pending):
 *  - No routable replica: hold while replicas are pending; +1 ("scale from zero") when requests
 *    are waiting; hold otherwise.
 *  - **Breach**: attainment below `floor` (default 0.9), or requests waiting for a replica:
 *    scale up by max(1, ceil(currentReplicas x 0.5)), unless scaling cannot help yet. Attainment
 *    lags (it is measured on requests that completed, which arrived up to an E2E earlier), and a
 *    new replica only takes requests that arrive after it is routable. So it holds when replicas
 *    are pending (the capacity already asked for has not served yet), when a scale action was
 *    applied since the previous evaluation (the attainment measured the old size), and when
 *    nothing arrived in the last second and nothing waits (the misses are of requests already
 *    placed; more replicas would serve no one). Without these holds the rule compounds: +50%
 *    at every evaluation until the backlog of late requests has drained.
 *  - **Calm**: an evaluation is calm when nothing is waiting and the attainment is at least
 *    `floor` (with no attainment, because nothing completed, only when no request is in flight:
 *    an idle group). After `calm` (default 4) consecutive calm evaluations, counted since the
 *    group's last scale action, and with fewer than 1 request queued per replica on average,
 *    scale down by 1, never below `minReplicas` (the cluster clamps too; the policy does not
 *    rely on it).
 *  - Otherwise hold.
 *
 * A run without latency targets has no attainment: the policy then scales up only on waiting
 * requests and down only when idle.
 *
 * The contract (from `@blis/policies`): `evaluate` gets aggregates only (no request), must not
 * mutate them, and returns a delta; the cluster bounds it, applies the stabilization windows and
 * the cooldown. BLIS builds one policy object per scaling group, so the calm streak kept here is
 * per group.
 */
import type {
  AutoScaleContext,
  AutoScaleFactory,
  AutoScalePolicy,
  PolicyFactoryContext,
  ScaleDecision,
} from '@blis/policies';

export const AUTOSCALER_NAME = 'slo-guard';

/** A scale-up adds this share of the current replicas (rounded up, at least 1). */
export const GROWTH = 0.5;
/** Scale down only while the mean queue per routable replica is below this. */
export const MAX_QUEUE_TO_SCALE_DOWN = 1;

/** Parameters, when the autoscaler is built through a registry or `simulate()` (or from the CLI's `--policy-param`). */
export interface SloGuardParams {
  /** Attainment below this is a breach (a number in (0, 1], default 0.9). */
  readonly floor?: number;
  /** Consecutive calm evaluations before a scale-down (integer >= 1, default 4). */
  readonly calm?: number;
}

const KNOWN = ['floor', 'calm'];

function readParams(params: Readonly<Record<string, unknown>>): Required<SloGuardParams> {
  for (const key of Object.keys(params)) {
    if (!KNOWN.includes(key)) throw new Error(`${AUTOSCALER_NAME}: unknown parameter "${key}" (known: ${KNOWN.join(', ')})`);
  }
  const floor = params.floor ?? 0.9;
  if (typeof floor !== 'number' || !(floor > 0 && floor <= 1)) {
    throw new Error(`${AUTOSCALER_NAME}: params.floor must be a number in (0, 1], found ${JSON.stringify(floor)}`);
  }
  const calm = params.calm ?? 4;
  if (typeof calm !== 'number' || !Number.isInteger(calm) || calm < 1) {
    throw new Error(`${AUTOSCALER_NAME}: params.calm must be an integer >= 1, found ${JSON.stringify(calm)}`);
  }
  return { floor, calm };
}

/** A ratio as reasons print it: three decimals. */
const ratio = (x: number) => x.toFixed(3);

/** The autoscaler factory: BLIS calls it once per scaling group, so the closure's state is per group. */
export function createSloGuardAutoscaler(ctx: PolicyFactoryContext): AutoScalePolicy {
  const { floor, calm } = readParams(ctx.params);
  /** Consecutive calm evaluations since the group's last scale action, capped at `calm`. */
  let streak = 0;
  /** When the group's last scale action was applied, as of the previous evaluation. */
  let lastActionUs: number | undefined;

  return {
    name: AUTOSCALER_NAME,
    evaluate(c: AutoScaleContext): ScaleDecision {
      const R = c.replicas.length;
      const attainment = c.sloAttainment;
      let inFlight = 0;
      for (const r of c.replicas) inFlight += r.inFlightRequests;

      // A scale action applied since the previous evaluation starts the streak over: the
      // group has a new size, whose calm has to be seen anew.
      const actionUs = c.nowUs - c.timeSinceLastScaleUs; // -Infinity before the first action
      const scaled = lastActionUs !== undefined && actionUs !== lastActionUs;
      lastActionUs = actionUs;
      if (scaled) streak = 0;
      const isCalm = c.waitingRequests === 0 && (attainment !== null ? attainment >= floor : inFlight === 0);
      streak = isCalm ? Math.min(streak + 1, calm) : 0;

      const signals: Record<string, number> = {
        waiting: c.waitingRequests,
        pending: c.pendingReplicas,
        avgQueue: c.avgQueueDepth,
        calmStreak: streak,
      };
      if (attainment !== null) signals.attainment = attainment;

      if (R === 0) {
        if (c.pendingReplicas > 0) return { delta: 0, reason: `no replica, ${c.pendingReplicas} pending: hold`, signals };
        if (c.waitingRequests > 0) {
          return { delta: 1, reason: `scale from zero: ${c.waitingRequests} waiting, no replica: +1`, signals };
        }
        return { delta: 0, reason: 'no replica, nothing waiting: hold', signals };
      }

      const missed = attainment !== null && attainment < floor;
      if (missed || c.waitingRequests > 0) {
        const why = [
          ...(missed ? [`attainment ${ratio(attainment)} < floor ${ratio(floor)}`] : []),
          ...(c.waitingRequests > 0 ? [`${c.waitingRequests} waiting`] : []),
        ].join(', ');
        if (c.pendingReplicas > 0) return { delta: 0, reason: `${why}, ${c.pendingReplicas} pending: hold`, signals };
        if (scaled) return { delta: 0, reason: `${why}, scaled since the last evaluation: hold`, signals };
        if (c.waitingRequests === 0 && c.requestRate === 0) return { delta: 0, reason: `${why}, no arrivals: hold`, signals };
        const delta = Math.max(1, Math.ceil(c.currentReplicas * GROWTH));
        return { delta, reason: `${why}: +${delta}`, signals };
      }

      const state = `attainment ${attainment === null ? 'n/a' : ratio(attainment)}, calm ${streak}/${calm}, queue ${ratio(c.avgQueueDepth)}`;
      if (streak < calm || c.avgQueueDepth >= MAX_QUEUE_TO_SCALE_DOWN) return { delta: 0, reason: `${state}: hold`, signals };
      if (c.currentReplicas <= c.minReplicas) {
        return { delta: 0, reason: `${state}: at min replicas ${c.minReplicas}: hold`, signals };
      }
      return { delta: -1, reason: `${state}: -1`, signals };
    },
  };
}

// `--autoscaler-policy ./dist/slo-guard-autoscaler.js` loads the module's default export as the factory.
const factory: AutoScaleFactory = createSloGuardAutoscaler;
export default factory;
