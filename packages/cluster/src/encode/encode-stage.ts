import { InvariantViolation, type SimRequest } from '@blis/engine';
import type { EncodeDecider, RoutingPolicy } from '@blis/policies';
import type { DecisionObserver } from '@blis/trace';
import type { PoolView } from '../pd/pool-view.js';

/** The detail of a rejection at the encode stage (the decision trace's drop reason is `rejected`). */
export const ENCODE_REJECTED_DETAIL = 'no routable encode pod';

/** What the cluster gives the encode stage. */
export interface EncodeSetup {
  decider: EncodeDecider;
  /** Picks the encode pod: the main routing policy (BLIS has no per-pool scorers for it). */
  routing: RoutingPolicy;
}

/** What the encode stage counts (the `pd.encode` section of the result). */
export interface EncodeStats {
  /** Requests the decider sent through the stage and that got an encode pod. */
  encoded: number;
  /** Requests the decider sent through the stage while no encode pod was routable: rejected. */
  rejections: number;
  /** Per instance, the requests it was chosen to encode. */
  chosen: number[];
}

/**
 * How a request came out of the stage: the decider did not send it through (`skipped`), an
 * encode pod was chosen (`encoded`), or it is rejected, no encode pod being routable
 * (`pool-empty`) or the routing policy refusing it (`refused`, reason in `lastReason`).
 */
export type EncodeOutcome = 'skipped' | 'encoded' | 'pool-empty' | 'refused';

/**
 * The encode stage of E/P/D disaggregation, as BLIS HEAD runs it (sim/cluster/cluster.go, its
 * "option A"): after the decode pod is chosen and the P/D decider has answered, a request the
 * encode decider picks gets an encode pod from the main routing policy over the encode pool, a
 * decision that takes no time and sends nothing there. The choice moves stateful routers (round
 * robin's counter, prefix-affinity's index), as in BLIS; no `routed` event follows, since the
 * request never reaches the pod. With no routable encode pod the request is rejected (BLIS's
 * EncodeRoutingRejections).
 */
export class EncodeStage {
  readonly stats: EncodeStats;
  /** The routing policy's reason when it refused the last request. */
  lastReason = '';

  constructor(
    readonly setup: EncodeSetup,
    readonly pool: PoolView,
    numInstances: number,
    private readonly observer: DecisionObserver | undefined,
  ) {
    this.stats = { encoded: 0, rejections: 0, chosen: new Array(numInstances).fill(0) };
  }

  /** Runs the stage for `req`, whose decode pod is `decodeInstance` (router state prepared at `now`). */
  run(req: SimRequest, decodeInstance: number, now: number): EncodeOutcome {
    if (!this.setup.decider.shouldEncode(req.view, decodeInstance)) return 'skipped';
    const pool = this.pool;
    if (pool.instances.length === 0) {
      this.stats.rejections++;
      return 'pool-empty';
    }
    const policy = this.setup.routing;
    const decision = policy.route(req.view, pool);
    if (decision.reject === true) {
      this.lastReason = decision.reason;
      return 'refused';
    }
    const pos = decision.instance;
    if (!Number.isInteger(pos) || pos < 0 || pos >= pool.instances.length)
      throw new InvariantViolation('routing', `policy ${policy.name} chose position ${pos} of an encode pool of ${pool.instances.length}`);
    this.stats.encoded++;
    const chosen = pool.members[pos];
    this.stats.chosen[chosen] = (this.stats.chosen[chosen] ?? 0) + 1;
    this.observer?.onEncodeRouting?.(req, decision, pool, now);
    return 'encoded';
  }
}
