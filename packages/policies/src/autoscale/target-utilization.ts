import * as z from 'zod';
import type { AutoScalePolicy, ScaleDecision } from '../interfaces.js';
import { finiteNonNegative, finitePositive, parsePolicyParams } from '../params.js';
import type { AutoScaleContext } from '../views.js';
import { ceilTolerant, fixed, maxScaleDown, noRoutableReplica, signed } from './common.js';
import { lazySchema } from '../lazy-schema.js';

/** `target` when not given, per metric. */
export const TARGET_UTILIZATION_DEFAULTS = Object.freeze({
  'kv-utilization': 0.7,
  'queue-depth': 4,
});

export const targetUtilizationParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /**
       * `kv-utilization` (default): per-replica KV utilisation, `target` a share in (0, 1].
       * `queue-depth`: queued requests per replica (waiting requests included), `target` a depth.
       */
      metric: z
        .enum(['kv-utilization', 'queue-depth'], {
          error: 'expected "kv-utilization" or "queue-depth"',
        })
        .default('kv-utilization'),
      /** Desired mean per replica (default 0.7 for kv-utilization, 4 for queue-depth). */
      target: finitePositive().optional(),
      /** Hold while |ratio - 1| <= this (default 0.1, as HPA). */
      tolerance: finiteNonNegative().default(0.1),
    })
    .superRefine((p, ctx) => {
      if (p.metric === 'kv-utilization' && p.target !== undefined && p.target > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['target'],
          message: `target (${p.target}) must be in (0, 1] with metric "kv-utilization"`,
        });
      }
    }),
);
export type TargetUtilizationParams = z.input<typeof targetUtilizationParamsSchema>;

/**
 * Kubernetes HPA's rule. `sum` = Σ KV utilisation of the routable replicas (or Σ queue depth
 * plus waiting requests), R routable, P pending, `currentReplicas` = R + P. `ratio` =
 * `sum / (R x target)`; when scaling up with replicas pending, HPA counts them at 0 load, so the
 * ratio becomes `sum / ((R + P) x target)` and a ratio that falls to 1 or below holds. Hold while
 * `|ratio - 1| <= tolerance`; otherwise `desired = ceil(sum / target)` and `delta = desired -
 * currentReplicas`, scale-down capped at `currentReplicas - minReplicas`. With no routable
 * replica: +1 if requests wait and nothing is pending, else hold.
 */
export function createTargetUtilizationAutoscaler(
  params: TargetUtilizationParams = {},
): AutoScalePolicy {
  const p = parsePolicyParams(
    'autoscaler',
    'target-utilization',
    targetUtilizationParamsSchema,
    params,
  );
  const target = p.target ?? TARGET_UTILIZATION_DEFAULTS[p.metric];
  const queue = p.metric === 'queue-depth';

  return {
    name: 'target-utilization',
    evaluate(ctx: AutoScaleContext): ScaleDecision {
      const R = ctx.replicas.length;
      if (R === 0) return noRoutableReplica(ctx, { utilization: 0, ratio: 0, desired: 0 });
      let sum = queue ? ctx.waitingRequests : 0;
      for (const r of ctx.replicas) sum += queue ? r.queueDepth : r.kvUtilization;
      const utilization = sum / R;
      let ratio = utilization / target;
      const pending = Math.max(0, ctx.pendingReplicas);
      const shown = `${queue ? 'queue depth' : 'kv utilization'} ${fixed(utilization, 3)} vs target ${fixed(target, 3)}`;
      const hold = (why: string, desired: number): ScaleDecision => ({
        delta: 0,
        reason: `${shown}: ${why}: hold`,
        signals: { utilization, ratio, desired },
      });

      if (ratio > 1 && pending > 0) {
        // HPA: on a scale-up, pods not yet ready count as using nothing.
        ratio = sum / ((R + pending) * target);
        if (ratio <= 1) return hold(`ratio ${fixed(ratio, 3)} with ${pending} pending`, ctx.currentReplicas);
      }
      if (Math.abs(ratio - 1) <= p.tolerance) {
        return hold(`ratio ${fixed(ratio, 3)} within tolerance ${fixed(p.tolerance, 3)}`, ctx.currentReplicas);
      }
      const desired = ceilTolerant(sum / target);
      let delta = desired - ctx.currentReplicas;
      // HPA's guard: never move against the ratio's direction.
      if ((ratio < 1 && delta > 0) || (ratio > 1 && delta < 0)) {
        return hold(`desired ${desired} against ratio ${fixed(ratio, 3)}`, desired);
      }
      if (delta < 0) delta = Math.max(delta, 0 - maxScaleDown(ctx));
      const signals = { utilization, ratio, desired };
      if (delta === 0) {
        const why = desired < ctx.currentReplicas ? `, at min replicas ${ctx.minReplicas}` : '';
        return { delta, reason: `${shown}: desired ${desired}${why}: hold`, signals };
      }
      return { delta, reason: `${shown}: desired ${desired}: ${signed(delta)}`, signals };
    },
  };
}
