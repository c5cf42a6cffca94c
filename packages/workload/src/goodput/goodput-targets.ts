import * as z from 'zod';

const ms = z.number().nonnegative();

/**
 * One SLO class's goodput thresholds in ms (BLIS's `SLODimTargets`, sim/workload/slo.go): a
 * request of the class is good when it completed with a TTFT, a mean ITL (its inter-token gaps
 * over `output_tokens - 1`, vLLM's TPOT) and an E2E within every threshold set. 0 or unset: that
 * dimension is not gated.
 */
export const SloDimTargetsSchema = z.strictObject({
  ttft_ms: ms.optional(),
  itl_ms: ms.optional(),
  e2e_ms: ms.optional(),
});

/**
 * `goodput_slo_targets` of a WorkloadSpec (and of a TraceV2 header): thresholds by SLO class.
 * A request of a client without `slo_class` counts under `default`; a class not listed is left
 * out of goodput altogether.
 */
export const GoodputSloTargetsSchema = z.record(z.string().min(1), SloDimTargetsSchema);

export type SloDimTargetsSpec = z.output<typeof SloDimTargetsSchema>;
export type GoodputSloTargetsSpec = z.output<typeof GoodputSloTargetsSchema>;

/** Resolved thresholds of one class, ms; 0 = not gated. */
export interface SloDimTargets {
  ttftMs: number;
  itlMs: number;
  e2eMs: number;
}

/** One tier's per-class thresholds, in the form a spec or trace header writes them. */
export function resolvedTargets(spec: GoodputSloTargetsSpec | undefined): Record<string, SloDimTargets> | undefined {
  if (spec === undefined) return undefined;
  const out: Record<string, SloDimTargets> = {};
  for (const [cls, t] of Object.entries(spec)) out[cls] = { ttftMs: t.ttft_ms ?? 0, itlMs: t.itl_ms ?? 0, e2eMs: t.e2e_ms ?? 0 };
  return out;
}

/** The command line's thresholds: a dimension given for a class, in ms. */
export type GoodputFlagTargets = Record<string, Partial<SloDimTargets>>;

/**
 * BLIS's `mergeGoodputTargets` (cmd/goodput.go): the classes of every tier, each dimension taken
 * from the command line when it names one, else from the trace header when positive there, else
 * from the spec; a class left with no gated dimension is dropped. Classes in name order;
 * undefined when nothing is gated.
 */
export function mergeGoodputTargets(
  cli: GoodputFlagTargets | undefined,
  header: Record<string, SloDimTargets> | undefined,
  spec: Record<string, SloDimTargets> | undefined,
): Record<string, SloDimTargets> | undefined {
  const classes = [...new Set([...Object.keys(cli ?? {}), ...Object.keys(header ?? {}), ...Object.keys(spec ?? {})])].sort();
  const out: Record<string, SloDimTargets> = {};
  for (const cls of classes) {
    const t: SloDimTargets = { ...{ ttftMs: 0, itlMs: 0, e2eMs: 0 }, ...spec?.[cls] };
    const h = header?.[cls];
    if (h !== undefined) for (const k of ['ttftMs', 'itlMs', 'e2eMs'] as const) if (h[k] > 0) t[k] = h[k];
    const c = cli?.[cls];
    if (c !== undefined) for (const k of ['ttftMs', 'itlMs', 'e2eMs'] as const) if (c[k] !== undefined) t[k] = c[k];
    if (t.ttftMs === 0 && t.itlMs === 0 && t.e2eMs === 0) continue;
    out[cls] = t;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
