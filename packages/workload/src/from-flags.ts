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
  /**
   * BLIS's `--concurrency`: this many closed-loop users instead of an arrival rate (the client
   * gets `concurrency` and `rate_fraction` 0, the spec `aggregate_rate` 0, and `num_requests` only
   * when given: the users then run until the horizon). The preset is not read, as in BLIS.
   */
  concurrency?: number;
  /** With `concurrency`: a user's pause between an answer and its next request, ms (BLIS's `--think-time-ms`). */
  thinkTimeMs?: number;
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
  return WorkloadSpecSchema.parse(flagSpecObject(f));
}

/** The WorkloadSpec object {@link specFromFlags} validates: BLIS's synthesized spec, as YAML would give it. */
export function flagSpecObject(f: FlagWorkload): Record<string, unknown> {
  const closedLoop = (f.concurrency ?? 0) > 0;
  const p = f.preset !== undefined && !closedLoop ? workloadPreset(f.preset) : undefined;
  const prefix = f.prefixTokens ?? p?.prefix_tokens ?? 0;
  const raw = {
    version: '2',
    seed: f.seed ?? 42,
    category: 'language',
    aggregate_rate: closedLoop ? 0 : (f.rate ?? 1),
    ...(closedLoop ? (f.numRequests !== undefined ? { num_requests: f.numRequests } : {}) : { num_requests: f.numRequests ?? 100 }),
    ...(f.horizonUs !== undefined ? { horizon: f.horizonUs } : {}),
    clients: [
      {
        id: 'distribution',
        rate_fraction: closedLoop ? 0 : 1,
        ...(closedLoop ? { concurrency: f.concurrency, think_time_us: (f.thinkTimeMs ?? 0) * 1000 } : {}),
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
  return raw;
}
