import type { RequestSource } from '@blis/engine';
import {
  createRequestSource,
  loadWorkloadSpec,
  openTrace,
  parseWorkloadSpec,
  specFromFlags,
} from '@blis/workload';
import type { WorkloadSource } from './config-schema.js';

export interface OpenWorkloadOptions {
  seed: number;
  blockSizeTokens: number;
  horizonUs?: number;
}

/** Turns the `workload` section of a config into a lazy request stream. */
export function openWorkload(w: WorkloadSource, opts: OpenWorkloadOptions): RequestSource {
  switch (w.kind) {
    case 'synthetic': {
      const spec = specFromFlags({ ...w, seed: opts.seed, horizonUs: opts.horizonUs });
      return createRequestSource(spec, { blockSizeTokens: opts.blockSizeTokens });
    }
    case 'spec': {
      const spec = w.path !== undefined ? loadWorkloadSpec(w.path) : parseWorkloadSpec(w.spec);
      return createRequestSource(spec, { blockSizeTokens: opts.blockSizeTokens, maxRequests: w.numRequests, seed: w.seed, timeoutUs: w.timeoutUs });
    }
    case 'trace':
      return openTrace(w.path, { format: w.dataPath !== undefined ? 'tracev2' : w.format, dataPath: w.dataPath, timeScale: w.timeScale, maxRequests: w.maxRequests, blockSizeTokens: opts.blockSizeTokens });
  }
}
