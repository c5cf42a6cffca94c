import type { ScaleDecision } from '../interfaces.js';
import type { AutoScaleContext } from '../views.js';

/**
 * The largest scale-down that keeps the group at or above `minReplicas`:
 * `max(0, currentReplicas - minReplicas)`. Every built-in autoscaler caps its scale-down here.
 */
export function maxScaleDown(ctx: AutoScaleContext): number {
  return Math.max(ctx.currentReplicas - ctx.minReplicas, 0);
}

/**
 * The decision when the group has no routable replica, shared by every built-in autoscaler:
 * hold while replicas are pending (they will bring capacity), scale from zero (+1) when
 * requests are waiting and nothing is pending, hold otherwise. `signals` are the policy's own,
 * all zero.
 */
export function noRoutableReplica(
  ctx: AutoScaleContext,
  signals: Readonly<Record<string, number>>,
): ScaleDecision {
  if (ctx.pendingReplicas > 0) {
    return {
      delta: 0,
      reason: `no routable replica, ${ctx.pendingReplicas} pending: hold`,
      signals,
    };
  }
  if (ctx.waitingRequests > 0) {
    return {
      delta: 1,
      reason: `scale from zero: ${ctx.waitingRequests} requests waiting, no replica: +1`,
      signals,
    };
  }
  return { delta: 0, reason: 'no replica and no waiting request: hold', signals };
}

/** `n` with `digits` decimals for a reason string; never prints `-0`. */
export function fixed(n: number, digits: number): string {
  const s = n.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}

/**
 * `ceil(x)` that ignores floating-point noise just above an integer (up to 1e-9 relative), so
 * that `2.1 / 0.7` (3.0000000000000004) gives 3, as by hand.
 */
export function ceilTolerant(x: number): number {
  // `+ 0` turns the -0 that ceil gives just below 0 into 0.
  return Math.ceil(x - 1e-9 * Math.max(1, Math.abs(x))) + 0;
}

/** `+3`, `-2`, `0`: a delta as reasons print it. */
export function signed(delta: number): string {
  return delta > 0 ? `+${delta}` : String(delta);
}
