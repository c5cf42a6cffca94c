import type { WorkloadPreset } from '@blis/latency';
import type { BlisDist, BlisWorkloadSpec } from './blis-spec-document.js';

const gaussian = (mean: number, stdDev: number, min: number, max: number): BlisDist => ({ type: 'gaussian', params: { mean, std_dev: stdDev, min, max } });

/**
 * `blis convert preset`: a length preset as the one-client spec BLIS HEAD's ConvertPreset writes
 * (constant arrivals at `rate`, Gaussian lengths, a `shared` prefix group when the preset has a
 * prefix). The seed stays 0 and the SLO class empty, as BLIS leaves them.
 */
export function convertPreset(name: string, rate: number, numRequests: number, p: WorkloadPreset): BlisWorkloadSpec {
  const prefix = p.prefix_tokens ?? 0;
  return {
    version: '2',
    seed: 0,
    category: 'language',
    clients: [
      {
        id: `preset-${name}`,
        tenant_id: '',
        slo_class: '',
        rate_fraction: 1,
        arrival: { process: 'constant' },
        input_distribution: gaussian(p.prompt_tokens, p.prompt_tokens_stdev, p.prompt_tokens_min, p.prompt_tokens_max),
        output_distribution: gaussian(p.output_tokens, p.output_tokens_stdev, p.output_tokens_min, p.output_tokens_max),
        prefix_group: prefix > 0 ? 'shared' : '',
        prefix_length: prefix,
        streaming: false,
      },
    ],
    cohorts: [],
    aggregate_rate: rate,
    num_requests: numRequests,
  };
}
