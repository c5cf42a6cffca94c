import * as z from 'zod';
import type { AutoScalePolicy, ScaleDecision } from '../interfaces.js';
import { finiteNonNegative, finitePositive, parsePolicyParams, positiveInt } from '../params.js';
import type { AutoScaleContext } from '../views.js';
import { fixed, maxScaleDown, noRoutableReplica, signed } from './common.js';
import { lazySchema } from '../lazy-schema.js';

export const thresholdAutoscalerParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /**
       * The load signal: `kv-utilization` (mean KV utilisation of the routable replicas),
       * `queue-depth` (queued plus waiting requests per routable replica, divided by
       * `queue_threshold`) or `max` of the two (default).
       */
      metric: z
        .enum(['kv-utilization', 'queue-depth', 'max'], {
          error: 'expected "kv-utilization", "queue-depth" or "max"',
        })
        .default('max'),
      /** Scale up when the load (with pending replicas counted) is above this (default 0.8). */
      scale_up_threshold: finitePositive().default(0.8),
      /** Scale down when the load is below this (default 0.3; 0 never scales down). */
      scale_down_threshold: finiteNonNegative().default(0.3),
      /** Queue depth per replica that counts as load 1 (default 5, the saturation detector's). */
      queue_threshold: finitePositive().default(5),
      /** Replicas added or removed per action (default 1). */
      step: positiveInt().default(1),
    })
    .superRefine((p, ctx) => {
      if (p.scale_down_threshold >= p.scale_up_threshold) {
        ctx.addIssue({
          code: 'custom',
          path: ['scale_down_threshold'],
          message: `scale_down_threshold (${p.scale_down_threshold}) must be < scale_up_threshold (${p.scale_up_threshold})`,
        });
      }
    }),
);
export type ThresholdAutoscalerParams = z.input<typeof thresholdAutoscalerParamsSchema>;

/**
 * Utilisation thresholds. With R routable and P pending replicas, `kv` = mean KV utilisation
 * and `queue` = (Σ queue depth + waiting requests) / (R x `queue_threshold`); the load is `kv`,
 * `queue` or their max per `metric`. Scale up by `step` when `load x R / (R + P)` (pending
 * replicas counted as capacity) is above `scale_up_threshold`; scale down by `step`, capped at
 * `currentReplicas - minReplicas`, when `load` is below `scale_down_threshold`; otherwise hold.
 * With no routable replica: +1 if requests wait and nothing is pending, else hold.
 */
export function createThresholdAutoscaler(params: ThresholdAutoscalerParams = {}): AutoScalePolicy {
  const p = parsePolicyParams('autoscaler', 'threshold', thresholdAutoscalerParamsSchema, params);
  const upT = p.scale_up_threshold;
  const downT = p.scale_down_threshold;

  return {
    name: 'threshold',
    evaluate(ctx: AutoScaleContext): ScaleDecision {
      const R = ctx.replicas.length;
      if (R === 0) return noRoutableReplica(ctx, { load: 0, kv: 0, queue: 0, projected: 0 });
      let kvSum = 0;
      let queued = ctx.waitingRequests;
      for (const r of ctx.replicas) {
        kvSum += r.kvUtilization;
        queued += r.queueDepth;
      }
      const kv = kvSum / R;
      const queue = queued / (R * p.queue_threshold);
      const load = p.metric === 'kv-utilization' ? kv : p.metric === 'queue-depth' ? queue : Math.max(kv, queue);
      const pending = Math.max(0, ctx.pendingReplicas);
      const projected = (load * R) / (R + pending);
      const signals = { load, kv, queue, projected };
      const shown = `load ${fixed(load, 3)} (kv ${fixed(kv, 3)}, queue ${fixed(queue, 3)})`;

      if (projected > upT) {
        return { delta: p.step, reason: `${shown} > ${fixed(upT, 3)}: ${signed(p.step)}`, signals };
      }
      if (load > upT) {
        return {
          delta: 0,
          reason: `${shown} > ${fixed(upT, 3)} but ${fixed(projected, 3)} with ${pending} pending: hold`,
          signals,
        };
      }
      if (load < downT) {
        const n = Math.min(p.step, maxScaleDown(ctx));
        if (n <= 0) {
          return {
            delta: 0,
            reason: `${shown} < ${fixed(downT, 3)}, at min replicas ${ctx.minReplicas}: hold`,
            signals,
          };
        }
        return { delta: -n, reason: `${shown} < ${fixed(downT, 3)}: ${signed(-n)}`, signals };
      }
      return { delta: 0, reason: `${shown} within [${fixed(downT, 3)}, ${fixed(upT, 3)}]: hold`, signals };
    },
  };
}
