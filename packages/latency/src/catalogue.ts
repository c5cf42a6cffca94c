import coefficientsJson from './data/coefficients.json';
import modelConfigsJson from './data/model-configs.json';
import modelDefaultsJson from './data/model-defaults.json';
import presetsJson from './data/workload-presets.json';
import { LatencyConfigError } from './errors.js';

/** One trained blackbox entry of BLIS's defaults.yaml. */
export interface CoefficientEntry {
  id: string;
  gpu: string;
  tp: number;
  vllmVersion: string;
  alpha: [number, number, number];
  beta: [number, number, number];
}

/** A model's default deployment (defaults.yaml `defaults:`). */
export interface ModelDefault {
  gpu: string;
  tp: number;
  vllmVersion: string;
  hfRepo: string | null;
}

/** A length preset (defaults.yaml `workloads:`), BLIS's field names. */
export interface WorkloadPreset {
  prefix_tokens?: number;
  prompt_tokens: number;
  prompt_tokens_stdev: number;
  prompt_tokens_min: number;
  prompt_tokens_max: number;
  output_tokens: number;
  output_tokens_stdev: number;
  output_tokens_min: number;
  output_tokens_max: number;
}

// The data files are ours and fixed at build time: test/catalogue-data.test.ts checks each against
// its schema (catalogue-schema.ts), so a start-up reads them as they are instead of running zod
// over them.
const coefficients = coefficientsJson as CoefficientEntry[];
const defaults = modelDefaultsJson as Record<string, ModelDefault>;
const presets = presetsJson as Record<string, WorkloadPreset>;
const configs = modelConfigsJson as Record<string, unknown>;

const lower = (s: string) => s.toLowerCase();
const basename = (s: string) => lower(s.split('/').pop() ?? s);

/** Every model id the catalogue can simulate (trained coefficients or a roofline config), sorted. */
export function knownModels(): string[] {
  const ids = new Set<string>();
  for (const c of coefficients) ids.add(lower(c.id));
  for (const id of Object.keys(defaults)) if (coefficientsFor(id).length > 0 || modelConfigRaw(id) !== undefined) ids.add(lower(id));
  const covered = new Set([...ids].map(basename));
  for (const folder of Object.keys(configs)) if (!covered.has(folder)) ids.add(folder);
  return [...ids].sort();
}

/** The model's default GPU/TP/vLLM version, if the catalogue has one. */
export function modelDefault(modelId: string): ModelDefault | undefined {
  const key = Object.keys(defaults).find((k) => lower(k) === lower(modelId));
  return key === undefined ? undefined : defaults[key];
}

/** All trained entries for a model (any GPU/TP/version). */
export function coefficientsFor(modelId: string): CoefficientEntry[] {
  return coefficients.filter((c) => lower(c.id) === lower(modelId));
}

/**
 * The trained entry for (model, GPU, TP): the model's default vLLM version when present,
 * otherwise the newest version.
 */
export function findCoefficients(modelId: string, gpu: string, tp: number, vllmVersion?: string): CoefficientEntry | undefined {
  const matches = coefficientsFor(modelId).filter((c) => lower(c.gpu) === lower(gpu) && c.tp === tp);
  if (matches.length === 0) return undefined;
  const wanted = vllmVersion ?? modelDefault(modelId)?.vllmVersion;
  if (wanted !== undefined) {
    const exact = matches.find((c) => c.vllmVersion === wanted || c.vllmVersion.endsWith(`:${wanted}`) || c.vllmVersion.endsWith(`:v${wanted}`));
    if (exact !== undefined) return exact;
    if (vllmVersion !== undefined) return undefined;
  }
  return [...matches].sort((a, b) => b.vllmVersion.localeCompare(a.vllmVersion, 'en', { numeric: true }))[0];
}

/** The shipped HF config.json for a model id (matched by folder name or its HF repo), if any. */
export function modelConfigRaw(modelId: string): unknown {
  const candidates = [basename(modelId)];
  const hf = modelDefault(modelId)?.hfRepo;
  if (hf) candidates.push(basename(hf));
  for (const c of candidates) if (configs[c] !== undefined) return configs[c];
  return undefined;
}

/** Names of the length presets (chatbot, contentgen, summarization, multidoc). */
export function workloadPresetNames(): string[] {
  return Object.keys(presets).sort();
}

/** A length preset by name, or a LatencyConfigError listing the known ones. */
export function workloadPreset(name: string): WorkloadPreset {
  const p = presets[name];
  if (p === undefined) throw new LatencyConfigError(`unknown workload preset "${name}"; known: ${workloadPresetNames().join(', ')}`);
  return { ...p };
}
