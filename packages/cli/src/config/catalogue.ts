import { coefficientsFor, knownModels } from '@blis/latency';
import { modelConfigRaw } from '@blis/latency/internal';

/** Model ids the latency catalogue knows (blackbox coefficients or a roofline config). */
export function latencyKnownModels(): string[] {
  return knownModels();
}

/**
 * Whether the catalogue can simulate `model`: trained coefficients under that id, or a shipped
 * HF config found by its last path segment, as the library resolves it (so BLIS's spelling
 * `meta-llama/Llama-2-7b-hf` finds the `llama-2-7b-hf` config, as in BLIS).
 */
export function latencyResolvesModel(model: string): boolean {
  return coefficientsFor(model).length > 0 || modelConfigRaw(model) !== undefined;
}
