import { modelConfigRaw } from '@blis/latency/internal';
import { type ModelArchitecture, loadModelConfig, modelDefault, parseModelConfig } from '@blis/latency';
import { SIMULATION_FLAGS } from '../flags/run-flags.js';

/** `--model`'s default. */
export const DEFAULT_MODEL = SIMULATION_FLAGS.find((d) => d.name === 'model')?.defaultText ?? 'meta-llama/llama-3.1-8b-instruct';

/** The model's config.json as the simulation reads it: --model-config when given, else the catalogue's. */
export function architectureFor(model: string, modelConfigPath: string | undefined): ModelArchitecture | undefined {
  if (modelConfigPath !== undefined) return loadModelConfig(modelConfigPath);
  const raw = modelConfigRaw(model);
  return raw === undefined ? undefined : parseModelConfig(raw, `catalogue config of ${model}`);
}

/** The TP the simulation runs at: --tp when given, else the model's catalogue default, else 1. */
export function tpFor(model: string, tp: number | undefined): number {
  return tp ?? modelDefault(model)?.tp ?? 1;
}
