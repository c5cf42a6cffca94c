import * as z from 'zod';
import { SATURATION_DETECTOR_NAMES } from '@blis/trace';
import { expectedFound } from '../kv-offload-schema.js';

const finite = z.number().refine(Number.isFinite, 'a finite number');
const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();
const ratio = finite.refine((v) => v > 0 && v <= 1, { message: 'a number in (0, 1]' });

/** BLIS's final window when neither `--saturation-final-window` nor a backlog-drift window is set: 30 s. */
export const DEFAULT_SATURATION_FINAL_WINDOW_US = 30_000_000;

/**
 * BLIS's `backlog_drift:` block. The streaming detector reads `windowSizeSec` alone; the other
 * knobs belong to BLIS's retired batch classifier and are validated as BLIS validates them, with
 * no effect (docs/saturation.md).
 */
export const BacklogDriftSettingsSchema = z
  .object({
    windowSizeSec: posInt.optional(),
    minWindows: posInt.optional(),
    peakRatio: finite.refine((v) => v > 0, { message: 'a finite number > 0' }).optional(),
    peakRatioBand: finite.refine((v) => v >= 0, { message: 'a finite number >= 0' }).optional(),
    confidenceCi: finite.refine((v) => v > 0 && v < 1, { message: 'a number in (0, 1)' }).optional(),
    warmupWindows: nonNegInt.optional(),
    tailWindows: nonNegInt.optional(),
    saturatedDrainRatio: ratio.optional(),
    transientDrainRatio: ratio.optional(),
  })
  .strict();

/**
 * The post-hoc saturation analysis (BLIS's `--detectors`, `--saturation-config`,
 * `--saturation-final-window`): after the run, the named detectors replay its completed
 * requests and each gives a final label, `saturation` in the result. Absent = off, no cost.
 */
export const SaturationAnalysisSchema = z
  .object({
    /**
     * Built-in detectors; run in BLIS's order (composite, threshold, backlog-drift) whatever the
     * order here. May be empty when the runtime brings its own (`SimulationRuntime.saturationDetectors`).
     */
    detectors: z.array(z.enum(SATURATION_DETECTOR_NAMES)),
    /** `threshold:` block: the mean-E2E threshold in ms (default 5000). Only with `threshold` selected. */
    threshold: z.object({ thresholdMs: finite.refine((v) => v > 0, { message: 'a finite number > 0' }).optional() }).strict().optional(),
    /** `backlog_drift:` block. Only with `backlog-drift` selected. */
    backlogDrift: BacklogDriftSettingsSchema.optional(),
    /** The final window in µs; default: `backlogDrift.windowSizeSec`, else 30 s. */
    finalWindowUs: nonNegInt.optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    // BLIS refuses tuning for a detector that is not run rather than dropping it silently.
    for (const [block, owner] of [
      ['threshold', 'threshold'],
      ['backlogDrift', 'backlog-drift'],
    ] as const)
      if (c[block] !== undefined && !c.detectors.includes(owner))
        ctx.addIssue({ code: 'custom', path: [block], message: expectedFound(`no ${block} block unless ${owner} is among the detectors`, `detectors ${c.detectors.join(',')}`) });
    const bd = c.backlogDrift;
    if (bd?.saturatedDrainRatio !== undefined || bd?.transientDrainRatio !== undefined) {
      const sat = bd.saturatedDrainRatio ?? 0.95;
      const trans = bd.transientDrainRatio ?? 0.98;
      if (sat > trans)
        ctx.addIssue({
          code: 'custom',
          path: ['backlogDrift', 'saturatedDrainRatio'],
          message: expectedFound(`saturatedDrainRatio <= transientDrainRatio (${trans})`, `${sat}`),
        });
    }
  });

export type SaturationAnalysisInput = z.input<typeof SaturationAnalysisSchema>;
export type SaturationAnalysisSettings = z.output<typeof SaturationAnalysisSchema>;

/** The final window the analysis votes over, in µs. */
export function finalWindowUsOf(s: SaturationAnalysisSettings): number {
  if (s.finalWindowUs !== undefined) return s.finalWindowUs;
  if (s.backlogDrift?.windowSizeSec !== undefined) return s.backlogDrift.windowSizeSec * 1_000_000;
  return DEFAULT_SATURATION_FINAL_WINDOW_US;
}
