import { InferencePerfSource } from './inference-perf/inference-perf-source.js';
import { SpecRequestSource } from './request-source.js';
import type { RequestSourceOptions } from './request-source-options.js';
import type { LoadedSpec } from './spec-load.js';

/**
 * A lazy request stream for a validated spec. A spec from an `inference_perf` section is
 * generated as BLIS generates it, draw for draw (see {@link InferencePerfSource}).
 */
export function createRequestSource(spec: LoadedSpec, opts: RequestSourceOptions = {}): SpecRequestSource | InferencePerfSource {
  if (spec.inferencePerf !== undefined)
    return new InferencePerfSource(spec.inferencePerf.plan, {
      seed: opts.seed ?? spec.seed,
      blockSizeTokens: opts.blockSizeTokens ?? 16,
      horizonUs: spec.horizon,
      maxRequests: opts.maxRequests ?? spec.num_requests,
      ...(opts.timeoutUs !== undefined ? { timeoutUs: opts.timeoutUs } : {}),
    });
  return new SpecRequestSource(spec, opts);
}
