import * as z from 'zod';
import type { AutoScalePolicy, ScaleDecision } from '../interfaces.js';
import { finiteNonNegative, parsePolicyParams, unitInterval } from '../params.js';
import type { AutoScaleContext, ReplicaMetrics } from '../views.js';
import { fixed, maxScaleDown, noRoutableReplica, signed } from './common.js';
import { lazySchema } from '../lazy-schema.js';

/** WVA's reference defaults, which BLIS applies when a threshold is 0 (unset). */
export const WVA_SATURATION_DEFAULTS = Object.freeze({
  kv_cache_threshold: 0.8,
  scale_up_threshold: 0.8,
  scale_down_boundary: 0.4,
  avg_input_tokens: 512,
});

const up = (v: number | undefined) => v || WVA_SATURATION_DEFAULTS.scale_up_threshold;
const down = (v: number | undefined) => v || WVA_SATURATION_DEFAULTS.scale_down_boundary;

/**
 * Parameters of `wva-saturation`, named as in BLIS's `autoscaler.analyzer` section. As in BLIS,
 * a parameter given as 0 takes its default.
 */
export const wvaSaturationParamsSchema = lazySchema(() =>
  z
    .strictObject({
      /** Usable share of each replica's KV capacity: supply = capacity x this (default 0.8). */
      kv_cache_threshold: unitInterval('a number in (0, 1], or 0 for the default 0.8').optional(),
      /** Demand / supply above which the group scales up (default 0.8). */
      scale_up_threshold: finiteNonNegative('a number > 0, or 0 for the default 0.8').optional(),
      /** Demand / supply below which the group may scale down (default 0.4). */
      scale_down_boundary: finiteNonNegative('a number > 0, or 0 for the default 0.4').optional(),
      /** KV tokens one queued (or waiting) request is assumed to need (default 512). */
      avg_input_tokens: finiteNonNegative('a number > 0, or 0 for the default 512').optional(),
    })
    .superRefine((p, ctx) => {
      const u = up(p.scale_up_threshold);
      const d = down(p.scale_down_boundary);
      if (d >= u) {
        ctx.addIssue({
          code: 'custom',
          path: ['scale_down_boundary'],
          message: `scale_down_boundary (${d}) must be < the effective scale_up_threshold (${u})`,
        });
      }
    }),
);
export type WvaSaturationParams = z.input<typeof wvaSaturationParamsSchema>;

/** One accelerator variant's aggregate (BLIS `VariantCapacity`). */
interface Variant {
  readonly gpuType: string;
  readonly tp: number;
  /** The cost of its first replica in instance order (as BLIS). */
  readonly costPerHour: number;
  supply: number;
  demand: number;
  count: number;
}

/** Cost ascending, then GPU type, then TP (BLIS `sortedByAscCost`). */
function byCostAsc(a: Variant, b: Variant): number {
  if (a.costPerHour !== b.costPerHour) return a.costPerHour < b.costPerHour ? -1 : 1;
  return tieBreak(a, b);
}

/** Cost descending, then GPU type, then TP ascending (BLIS `sortedByDescCost`). */
function byCostDesc(a: Variant, b: Variant): number {
  if (a.costPerHour !== b.costPerHour) return a.costPerHour > b.costPerHour ? -1 : 1;
  return tieBreak(a, b);
}

function tieBreak(a: Variant, b: Variant): number {
  if (a.gpuType !== b.gpuType) return a.gpuType < b.gpuType ? -1 : 1;
  return a.tp - b.tp;
}

function variantsOf(replicas: readonly ReplicaMetrics[], k: number, avgIn: number) {
  const byKey = new Map<string, Variant>();
  for (const r of replicas) {
    // A replica without KV capacity would add demand and no supply (BLIS skips it too).
    if (!(r.totalKvCapacityTokens > 0)) continue;
    const key = `${r.gpuType}\u0000${r.tp}`;
    let v = byKey.get(key);
    if (v === undefined) {
      v = { gpuType: r.gpuType, tp: r.tp, costPerHour: r.costPerHour, supply: 0, demand: 0, count: 0 };
      byKey.set(key, v);
    }
    v.supply += r.totalKvCapacityTokens * k;
    v.demand += r.kvTokensInUse + r.queueDepth * avgIn;
    v.count++;
  }
  return [...byKey.values()].sort(byCostAsc);
}

const variantName = (v: Variant) => `${v.gpuType || 'default'}/tp${v.tp}`;

/**
 * BLIS's port of llm-d WVA's V2 saturation analyzer with its `UnlimitedEngine`, in KV-token
 * units. Per replica with KV capacity: supply = capacity x `kv_cache_threshold`, demand =
 * tokens in use + queue depth x `avg_input_tokens`; summed over variants (GPU type, TP) sorted
 * by cost. Our addition: `waitingRequests x avg_input_tokens` joins the demand. Then
 * `required = D/up - (S + pending supply)`; if positive, scale up by
 * `max(1, ceil(required / per-replica supply of the cheapest variant))`. Otherwise, with two or
 * more replicas, `spare = S - D/down`, and if positive and the supply without the largest
 * replica still exceeds `D/down`, scale down the most expensive variant by
 * `clamp(floor(spare / its per-replica supply), 1, its replicas)`, capped so the group keeps
 * `minReplicas` (BLIS went to zero at idle). With no routable replica: +1 if requests wait and
 * nothing is pending (BLIS did nothing), else hold.
 */
export function createWvaSaturationAutoscaler(params: WvaSaturationParams = {}): AutoScalePolicy {
  const p = parsePolicyParams('autoscaler', 'wva-saturation', wvaSaturationParamsSchema, params);
  const k = p.kv_cache_threshold || WVA_SATURATION_DEFAULTS.kv_cache_threshold;
  const upT = up(p.scale_up_threshold);
  const downT = down(p.scale_down_boundary);
  const avgIn = p.avg_input_tokens || WVA_SATURATION_DEFAULTS.avg_input_tokens;

  return {
    name: 'wva-saturation',
    evaluate(ctx: AutoScaleContext): ScaleDecision {
      const pending = ctx.pendingKvCapacityTokens > 0 ? ctx.pendingKvCapacityTokens * k : 0;
      if (ctx.replicas.length === 0) {
        const d = ctx.waitingRequests * avgIn;
        return noRoutableReplica(ctx, signalsOf(0, d, pending, 0, 0));
      }
      const variants = variantsOf(ctx.replicas, k, avgIn);
      // Sum in variant order (deterministic float addition, as BLIS).
      let S = 0;
      let D = 0;
      let count = 0;
      for (const v of variants) {
        S += v.supply;
        D += v.demand;
        count += v.count;
      }
      D += ctx.waitingRequests * avgIn;
      const state = `supply ${fixed(S, 0)}, demand ${fixed(D, 0)}`;

      const required = D / upT - (S + pending);
      if (required > 0) {
        const signals = signalsOf(S, D, pending, required, 0);
        const cheapest = variants[0];
        if (cheapest === undefined) {
          return { delta: 0, reason: `${state}: no replica reports KV capacity: hold`, signals };
        }
        const prc = cheapest.supply / cheapest.count;
        const delta = prc > 0 ? Math.max(1, Math.ceil(required / prc)) : 1;
        return {
          delta,
          reason: `${state}, pending ${fixed(pending, 0)}: need ${fixed(required, 0)} more KV tokens: ${signed(delta)} ${variantName(cheapest)}`,
          signals,
        };
      }

      let spare = 0;
      if (count > 1) {
        const s = S - D / downT;
        if (s > 0) {
          let maxPerReplica = 0;
          for (const v of variants) maxPerReplica = Math.max(maxPerReplica, v.supply / v.count);
          if (S - maxPerReplica > D / downT) spare = s;
        }
      }
      const signals = signalsOf(S, D, pending, 0, spare);
      if (spare <= 0) {
        return { delta: 0, reason: `${state}, utilization ${fixed(util(S, D), 3)}: hold`, signals };
      }
      // The most expensive variant that has replicas (every listed variant has some).
      const victim = [...variants].sort(byCostDesc)[0]!;
      const prc = victim.supply / victim.count;
      const wanted = prc > 0 ? Math.min(Math.max(Math.floor(spare / prc), 1), victim.count) : 1;
      const room = maxScaleDown(ctx);
      const n = Math.min(wanted, room);
      const why = `${state}: spare ${fixed(spare, 0)} KV tokens`;
      if (n <= 0) {
        return { delta: 0, reason: `${why}, at min replicas ${ctx.minReplicas}: hold`, signals };
      }
      const capped = n < wanted ? ` (capped at min replicas ${ctx.minReplicas})` : '';
      return { delta: -n, reason: `${why}: ${signed(-n)} ${variantName(victim)}${capped}`, signals };
    },
  };
}

function util(S: number, D: number): number {
  return S > 0 ? D / S : 0;
}

function signalsOf(S: number, D: number, pending: number, required: number, spare: number) {
  return { supply: S, demand: D, utilization: util(S, D), pending, required, spare };
}
