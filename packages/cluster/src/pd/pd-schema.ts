import { ENCODE_DECIDER_NAMES, type EncodeDeciderName } from '@blis/policies';
import * as z from 'zod';
import { encodeTopologyIssues } from '../encode/encode-topology.js';
import { ScorerWeightSchema } from '../scorer-weight-schema.js';

const nonNegInt = z.number().int().nonnegative();

/**
 * What one pool may change about its instances (BLIS's `--prefill-*` / `--decode-*` overrides).
 * Unset or 0 keeps the global setting. Shared pods take the decode pool's ("decode wins").
 */
export const PoolOverridesSchema = z
  .object({
    tp: z.number().int().positive().optional(),
    hardware: z.string().min(1).optional(),
    latencyModel: z.enum(['blackbox', 'roofline', 'trained-physics']).optional(),
    maxModelLen: nonNegInt.optional(),
  })
  .strict();

/**
 * Prefill/decode disaggregation (BLIS's P/D flags). Fields are optional here so validation can
 * tell a setting that was given from a default: a P/D setting without P/D instances is an error.
 * `resolvePdConfig` fills the defaults (BLIS's).
 */
export const PdConfigSchema = z
  .object({
    /** Prefill-only pods: instances [0, P). */
    prefillInstances: nonNegInt.optional(),
    /** Decode-only pods: instances [P, P+D). */
    decodeInstances: nonNegInt.optional(),
    /** Shared pods in both pools: instances [P+D, P+D+S). */
    prefillDecodeInstances: nonNegInt.optional(),
    /** `never` (default), `always`, `prefix-threshold`, or a registered custom decider. */
    decider: z.string().min(1).optional(),
    /** E/P/D: encode-only pods, instances [P+D+S, P+D+S+E); 0 (default) disables the encode stage. */
    encodeInstances: nonNegInt.optional(),
    /** E/P/D: which requests get an encode pod: `never` (default), `always`, `multimodal`. */
    encodeDecider: z.enum(ENCODE_DECIDER_NAMES).optional(),
    /** Parameters for a custom decider. */
    deciderParams: z.record(z.string(), z.unknown()).optional(),
    /** Tokens: `prefix-threshold` disaggregates when more than this many prompt tokens are not cached on the decode pod (16). */
    prefixThreshold: nonNegInt.optional(),
    /** KV transfer bandwidth, GB/s (10^9 B/s; 25). */
    transferBandwidthGBps: z.number().positive().finite().optional(),
    /** Fixed cost of one KV transfer, ms (0.05). */
    transferBaseLatencyMs: z.number().nonnegative().finite().optional(),
    /** Each transfer gets the bandwidth divided by the transfers active when it starts (false). */
    transferContention: z.boolean().optional(),
    /** Scorers of a `weighted` router for the prefill pool; unset = the main routing policy. */
    prefillRoutingScorers: z.array(ScorerWeightSchema).optional(),
    /** Scorers of a `weighted` router for the decode pool; unset = the main routing policy. */
    decodeRoutingScorers: z.array(ScorerWeightSchema).optional(),
    prefill: PoolOverridesSchema.optional(),
    decode: PoolOverridesSchema.optional(),
  })
  .strict();

export type PdConfigInput = z.input<typeof PdConfigSchema>;
export type PoolOverrides = z.output<typeof PoolOverridesSchema>;

/** The P/D settings with BLIS's defaults filled in. */
export interface ResolvedPdConfig {
  prefillInstances: number;
  decodeInstances: number;
  prefillDecodeInstances: number;
  decider: string;
  deciderParams: Record<string, unknown>;
  /** Encode-only pods (0: no encode stage). */
  encodeInstances: number;
  encodeDecider: EncodeDeciderName;
  prefixThreshold: number;
  transferBandwidthGBps: number;
  transferBaseLatencyMs: number;
  transferContention: boolean;
  prefillRoutingScorers?: z.output<typeof ScorerWeightSchema>[];
  decodeRoutingScorers?: z.output<typeof ScorerWeightSchema>[];
  prefill: PoolOverrides;
  decode: PoolOverrides;
}

export const PD_DEFAULTS = Object.freeze({
  decider: 'never',
  prefixThreshold: 16,
  transferBandwidthGBps: 25,
  transferBaseLatencyMs: 0.05,
  transferContention: false,
});

/** Defaults filled in; undefined when P/D is off (no `pd`, or P + D + S = 0). */
export function resolvePdConfig(pd: z.output<typeof PdConfigSchema> | undefined): ResolvedPdConfig | undefined {
  if (pd === undefined) return undefined;
  const p = pd.prefillInstances ?? 0;
  const d = pd.decodeInstances ?? 0;
  const s = pd.prefillDecodeInstances ?? 0;
  if (p + d + s === 0) return undefined;
  const out: ResolvedPdConfig = {
    prefillInstances: p,
    decodeInstances: d,
    prefillDecodeInstances: s,
    decider: pd.decider ?? PD_DEFAULTS.decider,
    deciderParams: pd.deciderParams ?? {},
    encodeInstances: pd.encodeInstances ?? 0,
    encodeDecider: pd.encodeDecider ?? 'never',
    prefixThreshold: pd.prefixThreshold ?? PD_DEFAULTS.prefixThreshold,
    transferBandwidthGBps: pd.transferBandwidthGBps ?? PD_DEFAULTS.transferBandwidthGBps,
    transferBaseLatencyMs: pd.transferBaseLatencyMs ?? PD_DEFAULTS.transferBaseLatencyMs,
    transferContention: pd.transferContention ?? PD_DEFAULTS.transferContention,
    prefill: pd.prefill ?? {},
    decode: pd.decode ?? {},
  };
  if (pd.prefillRoutingScorers !== undefined) out.prefillRoutingScorers = pd.prefillRoutingScorers;
  if (pd.decodeRoutingScorers !== undefined) out.decodeRoutingScorers = pd.decodeRoutingScorers;
  return out;
}

/**
 * BLIS's topology rules, as issues against `pd.<field>`: a P/D layout needs both pools (or
 * shared pods), must fit in the instances, and P/D settings need P/D instances.
 */
export function pdTopologyIssues(pd: z.output<typeof PdConfigSchema>, numInstances: number): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const p = pd.prefillInstances ?? 0;
  const d = pd.decodeInstances ?? 0;
  const s = pd.prefillDecodeInstances ?? 0;
  const e = pd.encodeInstances ?? 0;
  issues.push(...encodeTopologyIssues(pd));
  if (p + d + s === 0) {
    for (const key of Object.keys(pd) as (keyof typeof pd)[]) {
      if (key === 'prefillInstances' || key === 'decodeInstances' || key === 'prefillDecodeInstances' || pd[key] === undefined) continue;
      // The encode settings have rules of their own (above).
      if (key === 'encodeInstances' || key === 'encodeDecider') continue;
      issues.push({ path: [key], message: `P/D instances (prefillInstances and decodeInstances, or prefillDecodeInstances) for ${key}, found none` });
    }
    return issues;
  }
  if (s === 0 && (p === 0 || d === 0))
    issues.push({
      path: [p === 0 ? 'prefillInstances' : 'decodeInstances'],
      message: `both prefillInstances > 0 and decodeInstances > 0 when prefillDecodeInstances is 0, found prefillInstances ${p} and decodeInstances ${d}`,
    });
  if (p + d + s + e > numInstances)
    issues.push(
      e === 0
        ? { path: ['prefillInstances'], message: `prefillInstances + decodeInstances + prefillDecodeInstances <= numInstances (${numInstances}), found ${p} + ${d} + ${s} = ${p + d + s}` }
        : { path: ['encodeInstances'], message: `prefillInstances + decodeInstances + prefillDecodeInstances + encodeInstances <= numInstances (${numInstances}), found ${p} + ${d} + ${s} + ${e} = ${p + d + s + e}` },
    );
  return issues;
}
