import type { SimulationConfigInput, SimulationResult, SimulationRuntime } from '@blis/cluster';
import { formatParamPath, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { CapacityInputError } from './capacity-input-error.js';
import { CapacityTargetSchema } from './capacity-target.js';
import type { CapacityProbe } from './capacity-report.js';

/** What a capacity search varies: the arrival rate at fixed instances, or instances at fixed rate. */
export type CapacitySearch = 'rate' | 'instances';

// Messages start with `expected`: the zod translator then uses them as they are.
const finitePositive = z.number().positive('expected a positive number').refine(Number.isFinite, 'expected a finite number');
const posInt = z.number().int('expected a positive integer').positive('expected a positive integer');

/** The search settings (everything but the base configuration and the hooks). */
export const CapacitySettingsSchema = z
  .object({
    search: z.enum(['rate', 'instances']),
    /** Every target must be met (at every seed) for a probe to pass. */
    targets: z.array(CapacityTargetSchema).min(1, 'expected at least one target'),
    /** Seeds each probe runs; default: the configuration's seed (42 when unset). */
    seeds: z
      .array(z.number().int())
      .min(1, 'expected at least one seed')
      .refine((s) => new Set(s).size === s.length, 'expected distinct seeds')
      .optional(),
    /** Rate search: stop when (failing − passing) ≤ tolerance × failing. Instances are exact. */
    tolerance: z.number().gt(0, 'expected a number in (0, 1)').lt(1, 'expected a number in (0, 1)').default(0.05),
    /** Rate bounds in the search's unit; default: the configured rate ÷ 1024 and × 1024. */
    minRate: finitePositive.optional(),
    maxRate: finitePositive.optional(),
    minInstances: posInt.default(1),
    maxInstances: posInt.default(64),
    /**
     * Share of injected requests that must complete for a run to pass (default 1: every one).
     * Latency percentiles cover completed requests only, so without it a run that drops, rejects
     * or times out its slowest requests could look fast.
     */
    minCompletion: z.number().min(0, 'expected a number in [0, 1]').max(1, 'expected a number in [0, 1]').default(1),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.minRate !== undefined && s.maxRate !== undefined && s.minRate > s.maxRate)
      ctx.addIssue({ code: 'custom', path: ['minRate'], message: `expected at most the maximum rate (${s.maxRate})` });
    if (s.minInstances > s.maxInstances) ctx.addIssue({ code: 'custom', path: ['minInstances'], message: `expected at most the maximum instances (${s.maxInstances})` });
  });

export type CapacitySettingsInput = z.input<typeof CapacitySettingsSchema>;
export type CapacitySettings = z.output<typeof CapacitySettingsSchema>;

/** The options of `findCapacity`: the base configuration and the search settings. */
export interface CapacityOptions extends CapacitySettingsInput {
  /** The run to scale; its rate (or instance count) is where the search starts. */
  config: SimulationConfigInput;
}

/** Ways to watch or replace parts of a search (tests inject `simulate`; the CLI `runtime`). */
export interface CapacityHooks {
  /** Runs one simulation; default: `simulate` of `@blis/cluster`. */
  simulate?: (config: SimulationConfigInput, runtime: SimulationRuntime | undefined) => SimulationResult | Promise<SimulationResult>;
  /**
   * A fresh runtime (custom policies) for each run: policy objects may keep state, which must
   * not leak from one run into the next.
   */
  runtime?: (config: SimulationConfigInput) => SimulationRuntime | Promise<SimulationRuntime>;
  /** Called before each run of a probe. */
  onRun?: (value: number, seed: number) => void;
  /** Called when a probe has run every seed; `unit` is the report's (`req/s`, `x`, `instances`). */
  onProbe?: (probe: CapacityProbe, unit: string) => void;
}

/** Validates the settings; every problem is reported, each at its option. */
export function parseCapacitySettings(raw: CapacitySettingsInput): CapacitySettings {
  const r = CapacitySettingsSchema.safeParse(raw);
  if (r.success) return r.data;
  throw new CapacityInputError(zodIssueTexts(r.error.issues, raw).map((t) => ({ where: formatParamPath(t.path, 'options'), expected: t.expected, found: t.found })));
}
