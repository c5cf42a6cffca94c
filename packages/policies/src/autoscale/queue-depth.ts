import * as z from 'zod';
import type { AutoScalePolicy, ScaleDecision } from '../interfaces.js';
import { finiteNonNegative, finitePositive, parsePolicyParams, unitInterval } from '../params.js';
import type { AutoScaleContext } from '../views.js';
import { ceilTolerant, fixed, maxScaleDown, noRoutableReplica } from './common.js';
import { lazySchema } from '../lazy-schema.js';

export const queueDepthAutoscalerParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /** Queued requests per replica the group is sized for (default 4). */
      target_queue_depth: finitePositive().default(4),
      /** Scale down only while the mean queue per routable replica is below this (default 0.5). */
      scale_down_queue_depth: finiteNonNegative().default(0.5),
      /**
       * ... and only while the KV tokens in use fit in this share of the KV capacity left after
       * removing the largest replica (default 0.5).
       */
      scale_down_kv_utilization: unitInterval().default(0.5),
    })
    .superRefine((p, ctx) => {
      if (p.scale_down_queue_depth >= p.target_queue_depth) {
        ctx.addIssue({
          code: 'custom',
          path: ['scale_down_queue_depth'],
          message: `scale_down_queue_depth (${p.scale_down_queue_depth}) must be < target_queue_depth (${p.target_queue_depth})`,
        });
      }
    }),
);
export type QueueDepthAutoscalerParams = z.input<typeof queueDepthAutoscalerParamsSchema>;

/**
 * Sizes the group by its queue. `queued` = Σ queue depth of the routable replicas + waiting
 * requests; `desired = ceil(queued / target_queue_depth)`. If `desired > currentReplicas`
 * (pending replicas included) scale up by the difference. Otherwise scale down by one when
 * `queued / R < scale_down_queue_depth` and the batches are light: the KV tokens in use fit in
 * `scale_down_kv_utilization` of the KV capacity without the largest replica (so one replica's
 * batch can move to the others). Never below `minReplicas`. With no routable replica: +1 if
 * requests wait and nothing is pending, else hold.
 */
export function createQueueDepthAutoscaler(params: QueueDepthAutoscalerParams = {}): AutoScalePolicy {
  const p = parsePolicyParams('autoscaler', 'queue-depth', queueDepthAutoscalerParamsSchema, params);

  return {
    name: 'queue-depth',
    evaluate(ctx: AutoScaleContext): ScaleDecision {
      const R = ctx.replicas.length;
      if (R === 0) {
        const signals = { queued: 0, avgQueue: 0, desired: 0, kvInUse: 0, kvCapacityAfter: 0 };
        return noRoutableReplica(ctx, signals);
      }
      let queued = ctx.waitingRequests;
      let used = 0;
      let capacity = 0;
      let largest = 0;
      for (const r of ctx.replicas) {
        queued += r.queueDepth;
        used += r.kvTokensInUse;
        capacity += r.totalKvCapacityTokens;
        largest = Math.max(largest, r.totalKvCapacityTokens);
      }
      const avgQueue = queued / R;
      const desired = ceilTolerant(queued / p.target_queue_depth);
      // KV capacity left if the largest replica went: its batch must fit in the others.
      const capacityAfter = capacity - largest;
      const signals = { queued, avgQueue, desired, kvInUse: used, kvCapacityAfter: capacityAfter };
      const shown = `queue ${fixed(queued, 0)} (${fixed(avgQueue, 3)}/replica), desired ${desired}`;

      if (desired > ctx.currentReplicas) {
        const delta = desired - ctx.currentReplicas;
        return { delta, reason: `${shown}: +${delta}`, signals };
      }
      if (avgQueue >= p.scale_down_queue_depth) return { delta: 0, reason: `${shown}: hold`, signals };
      if (used > p.scale_down_kv_utilization * capacityAfter) {
        return {
          delta: 0,
          reason: `${shown}: KV in use ${fixed(used, 0)} > ${fixed(p.scale_down_kv_utilization, 3)} x ${fixed(capacityAfter, 0)} left without a replica: hold`,
          signals,
        };
      }
      if (maxScaleDown(ctx) === 0) {
        return { delta: 0, reason: `${shown}: at min replicas ${ctx.minReplicas}: hold`, signals };
      }
      return { delta: -1, reason: `${shown}: queue below ${fixed(p.scale_down_queue_depth, 3)}: -1`, signals };
    },
  };
}
