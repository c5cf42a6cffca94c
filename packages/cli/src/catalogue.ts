import { knownModels } from '@blis/latency';

/** Model ids the latency catalogue knows (blackbox coefficients or a roofline config). */
export function latencyKnownModels(): string[] {
  return knownModels();
}
