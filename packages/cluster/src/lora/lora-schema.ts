import type { LoraSettings } from '@blis/engine';
import * as z from 'zod';
import { expectedFound } from '../kv-offload-schema.js';

// BLIS's `lora:` block (--lora-config, defaults.yaml) as library config: the same keys in
// camelCase, BLIS's defaults. Messages read "expected X, found Y" so the CLI can name the
// file's key and line.

/** BLIS's defaults.yaml `lora:` block (f90a1e3a): the coefficients of an unset key. */
export const LORA_DEFAULTS = {
  loadBaseLatencyUs: 1500,
  loadBandwidthBytesUs: 2e6,
  footprintBytesPerRank: 2e6,
  stepOverheadTiers: { '8': { k6: 0.02, k7: 1 }, '16': { k6: 0.035, k7: 1 }, '32': { k6: 0.06, k7: 1 } },
} as const;

const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const finite = (what: string, ok: (n: number) => boolean) =>
  z.number().superRefine((v, ctx) => {
    if (!Number.isFinite(v) || !ok(v)) ctx.addIssue({ code: 'custom', message: expectedFound(what, shown(v)) });
  });

/** One adapter of the registry. */
export const LoraAdapterSchema = z
  .object({
    id: z.string().min(1, expectedFound('a non-empty adapter id', '""')),
    rank: z.number().superRefine((v, ctx) => {
      if (!Number.isInteger(v) || v <= 0) ctx.addIssue({ code: 'custom', message: expectedFound('a rank that is an integer > 0', shown(v)) });
    }),
    /** The base model it attaches to; a client naming it must run that model. Unset: any. */
    baseModel: z.string().optional(),
  })
  .strict();

const TierSchema = z
  .object({
    k6: finite('k6 ≥ 0', (v) => v >= 0).default(0),
    k7: finite('k7 > 0 (it divides k6)', (v) => v > 0),
  })
  .strict();

export const LoraSchema = z
  .object({
    /** The adapter registry: id -> rank. Empty: LoRA is off whatever else is set. */
    adapters: z.array(LoraAdapterSchema).default([]),
    /** Resident adapter slots per instance (vLLM `--max-loras`); unset with adapters: 1, vLLM's default. */
    adapterCapacity: z.number().optional(),
    loadBaseLatencyUs: finite('a load base latency ≥ 0 µs', (v) => v >= 0).default(LORA_DEFAULTS.loadBaseLatencyUs),
    loadBandwidthBytesUs: finite('a load bandwidth > 0 bytes/µs', (v) => v > 0).default(LORA_DEFAULTS.loadBandwidthBytesUs),
    footprintBytesPerRank: finite('a footprint > 0 bytes per rank', (v) => v > 0).default(LORA_DEFAULTS.footprintBytesPerRank),
    /** Per-step compute overhead by the batch's largest rank: rank -> {k6, k7}. */
    stepOverheadTiers: z.record(z.string(), TierSchema).default(LORA_DEFAULTS.stepOverheadTiers),
  })
  .strict()
  .superRefine((c, ctx) => {
    const cap = c.adapterCapacity;
    if (cap !== undefined && (!Number.isInteger(cap) || cap < 0 || (cap === 0 && c.adapters.length > 0)))
      ctx.addIssue({
        code: 'custom',
        path: ['adapterCapacity'],
        message: expectedFound(c.adapters.length > 0 ? 'an integer > 0 when adapters are declared' : 'an integer ≥ 0', shown(cap)),
      });
    const seen = new Set<string>();
    c.adapters.forEach((a, i) => {
      if (seen.has(a.id)) ctx.addIssue({ code: 'custom', path: ['adapters', i, 'id'], message: expectedFound('a unique adapter id', `"${a.id}" twice`) });
      seen.add(a.id);
    });
    for (const k of Object.keys(c.stepOverheadTiers))
      if (!/^[1-9]\d*$/.test(k)) ctx.addIssue({ code: 'custom', path: ['stepOverheadTiers', k], message: expectedFound('a rank key that is an integer > 0', JSON.stringify(k)) });
    // BLIS refuses a rank whose load would overflow its clock; we refuse one past 2^53 µs likewise.
    for (const [i, a] of c.adapters.entries()) {
      const us = c.loadBaseLatencyUs + Math.ceil((c.footprintBytesPerRank * a.rank) / c.loadBandwidthBytesUs);
      if (!(us <= 1e15)) ctx.addIssue({ code: 'custom', path: ['adapters', i, 'rank'], message: expectedFound('a rank whose load takes at most 1e15 µs', `${a.rank} (${us} µs)`) });
    }
  });

export type LoraConfig = z.output<typeof LoraSchema>;
export type LoraConfigInput = z.input<typeof LoraSchema>;

/** The engine's settings of a validated `lora` block; undefined when no adapter is declared (LoRA off). */
export function loraSettings(c: LoraConfig | undefined): LoraSettings | undefined {
  if (c === undefined || c.adapters.length === 0) return undefined;
  return {
    adapters: c.adapters.map((a) => ({ id: a.id, rank: a.rank })),
    capacity: c.adapterCapacity ?? 1,
    loadBaseLatencyUs: c.loadBaseLatencyUs,
    loadBandwidthBytesUs: c.loadBandwidthBytesUs,
    footprintBytesPerRank: c.footprintBytesPerRank,
    stepOverheadTiers: Object.entries(c.stepOverheadTiers).map(([rank, t]) => ({ rank: Number(rank), k6: t.k6, k7: t.k7 })),
  };
}
