import { workloadPreset } from '@blis/latency';
import type { LoadedSpec } from './spec-load.js';
import { WorkloadSpecSchema } from './spec-schema.js';

/** `blis run`'s flag-driven workload, with BLIS's names and defaults. */
export interface FlagWorkload {
  preset?: string;
  rate?: number;
  numRequests?: number;
  promptTokens?: number;
  promptTokensStdev?: number;
  promptTokensMin?: number;
  promptTokensMax?: number;
  outputTokens?: number;
  outputTokensStdev?: number;
  outputTokensMin?: number;
  outputTokensMax?: number;
  prefixTokens?: number;
  seed?: number;
  horizonUs?: number;
  arrivalProcess?: 'poisson' | 'constant';
  /** Per-request deadline after arrival, µs; 0 = none. BLIS's `blis run` default is 300 s. */
  timeoutUs?: number;
}

/**
 * The flag-driven workload as a WorkloadSpec v2, the spec BLIS's SynthesizeFromDistribution and
 * SynthesizeFromPreset make (sim/workload/synthesis.go): one client `distribution`, gaussian
 * lengths, constant arrivals (every 1/rate s from 1/rate s on; `arrivalProcess: 'poisson'` for
 * exponential gaps instead), a prefix group `shared` when there is a prefix. Flags, presets and
 * YAML so share one generator, and the same flags and seed give BLIS's requests. A preset
 * supplies the length defaults; explicit flags override it.
 */
export function specFromFlags(f: FlagWorkload): LoadedSpec {
  const p = f.preset !== undefined ? workloadPreset(f.preset) : undefined;
  const prefix = f.prefixTokens ?? p?.prefix_tokens ?? 0;
  const raw = {
    version: '2',
    seed: f.seed ?? 42,
    category: 'language',
    aggregate_rate: f.rate ?? 1,
    num_requests: f.numRequests ?? 100,
    ...(f.horizonUs !== undefined ? { horizon: f.horizonUs } : {}),
    clients: [
      {
        id: 'distribution',
        rate_fraction: 1,
        arrival: { process: f.arrivalProcess ?? 'constant' },
        ...(f.timeoutUs !== undefined ? { timeout: f.timeoutUs } : {}),
        input_distribution: {
          type: 'gaussian',
          params: {
            mean: f.promptTokens ?? p?.prompt_tokens ?? 512,
            std_dev: f.promptTokensStdev ?? p?.prompt_tokens_stdev ?? 256,
            min: f.promptTokensMin ?? p?.prompt_tokens_min ?? 2,
            max: f.promptTokensMax ?? p?.prompt_tokens_max ?? 7000,
          },
        },
        output_distribution: {
          type: 'gaussian',
          params: {
            mean: f.outputTokens ?? p?.output_tokens ?? 512,
            std_dev: f.outputTokensStdev ?? p?.output_tokens_stdev ?? 256,
            min: f.outputTokensMin ?? p?.output_tokens_min ?? 2,
            max: f.outputTokensMax ?? p?.output_tokens_max ?? 7000,
          },
        },
        ...(prefix > 0 ? { prefix_group: 'shared', prefix_length: prefix } : {}),
      },
    ],
  };
  return WorkloadSpecSchema.parse(raw);
}
