import { describeFound, formatParamPath, zodIssueTexts } from '@blis/policies/internal';
import type { WorkloadPreset } from '@blis/latency';
import * as z from 'zod';
import { requireReadable } from './input-files.js';
import { UsageError } from '../errors/usage-error.js';
import { type YamlFile, readYamlFile } from './yaml-file.js';
import { lazySchema } from '@blis/policies/internal';

// `--defaults-filepath FILE`: a BLIS defaults.yaml in BLIS's format, read in place of the shipped
// catalogue (which holds BLIS HEAD's) for what BLIS reads from it: each model's default GPU and
// TP, the trained-physics coefficients, the workload presets, the LoRA cost defaults and the KV
// offload device classes. Strict like BLIS's decoder: an unknown key anywhere is an error.

const finite = (what: string, ok: (v: number) => boolean) =>
  z.number(`expected ${what}`).refine((v) => Number.isFinite(v) && ok(v), `expected ${what}`);
const tokens = lazySchema(() =>
  z.number('expected a non-negative whole number of tokens').int('expected a non-negative whole number of tokens').nonnegative('expected a non-negative whole number of tokens'),
);

const PresetSchema = lazySchema(() =>
  z.strictObject({
    prefix_tokens: tokens.optional(),
    prompt_tokens: tokens.optional(),
    prompt_tokens_stdev: tokens.optional(),
    prompt_tokens_min: tokens.optional(),
    prompt_tokens_max: tokens.optional(),
    output_tokens: tokens.optional(),
    output_tokens_stdev: tokens.optional(),
    output_tokens_min: tokens.optional(),
    output_tokens_max: tokens.optional(),
  }),
);

const ModelDefaultSchema = lazySchema(() =>
  z.strictObject({
    GPU: z.string('expected a GPU name (e.g. H100)').optional(),
    tensor_parallelism: z.number('expected a non-negative integer').int('expected a non-negative integer').nonnegative('expected a non-negative integer').optional(),
    hf_repo: z.string('expected a Hugging Face repo (org/name)').optional(),
  }),
);

const coefficient = finite('a finite non-negative coefficient', (v) => v >= 0);
const TrainedPhysicsSchema = lazySchema(() =>
  z.strictObject({
    alpha_coeffs: z.array(coefficient, 'expected a list of 3 alpha coefficients').length(3, 'expected exactly 3 alpha coefficients'),
    beta_coeffs: z.array(coefficient, 'expected a list of 7 to 11 beta coefficients').min(7, 'expected 7 to 11 beta coefficients').max(11, 'expected 7 to 11 beta coefficients'),
  }),
);

const LoraDefaultsSchema = lazySchema(() =>
  z.strictObject({
    load_base_latency_us: finite('a load base latency ≥ 0 µs', (v) => v >= 0).optional(),
    load_bandwidth_bytes_us: finite('a load bandwidth > 0 bytes/µs', (v) => v > 0).optional(),
    footprint_bytes_per_rank: finite('a footprint > 0 bytes per rank', (v) => v > 0).optional(),
    step_overhead_tiers: z
      .record(z.string(), z.strictObject({ k6: finite('a finite number ≥ 0', (v) => v >= 0), k7: finite('a finite number ≥ 0', (v) => v >= 0) }))
      .superRefine((tiers, ctx) => {
        for (const k of Object.keys(tiers))
          if (!/^[1-9]\d*$/.test(k)) ctx.addIssue({ code: 'custom', path: [k], message: 'expected a rank key that is an integer > 0', params: { found: describeFound(k) } });
      })
      .optional(),
  }),
);

const positive = finite('a finite number > 0', (v) => v > 0);
const nonNegative = finite('a finite number ≥ 0', (v) => v >= 0);
const fraction = finite('a number in (0, 1]', (v) => v > 0 && v <= 1);
const depth = lazySchema(() =>
  z.number('expected an integer ≥ 1').int('expected an integer ≥ 1').positive('expected an integer ≥ 1'),
);
// Every key BLIS's KVOffloadDeviceDefaults has, so that its own files read; ours use the first three.
const DeviceSchema = lazySchema(() =>
  z.strictObject({
    read_bandwidth: positive,
    write_bandwidth: positive,
    base_latency: nonNegative,
    saturation_queue_depth: depth.optional(),
    single_transfer_fraction: fraction.optional(),
    latency_jitter_stddev: nonNegative.optional(),
    buffered_read_bandwidth: positive.optional(),
    buffered_write_bandwidth: positive.optional(),
    buffered_base_latency: nonNegative.optional(),
    buffered_saturation_queue_depth: depth.optional(),
    buffered_single_transfer_fraction: fraction.optional(),
    buffered_latency_jitter_stddev: nonNegative.optional(),
  }),
);

const SECTIONS = ['defaults', 'version', 'workloads', 'trained_physics_coefficients', 'lora', 'kv_offload_devices'] as const;
const DefaultsFileSchema = lazySchema(() =>
  z.strictObject({
    defaults: z.record(z.string(), ModelDefaultSchema.nullable()).nullable().optional(),
    version: z.union([z.string(), z.number()], 'expected a version string').optional(),
    workloads: z.record(z.string(), PresetSchema.nullable()).nullable().optional(),
    trained_physics_coefficients: TrainedPhysicsSchema.nullable().optional(),
    lora: LoraDefaultsSchema.nullable().optional(),
    kv_offload_devices: z.record(z.string(), DeviceSchema).nullable().optional(),
  }),
);

/** A model's default deployment in the file. */
export interface DefaultsModel {
  /** The key as the file writes it. */
  id: string;
  gpu: string | undefined;
  /** 0 or absent: none. */
  tp: number | undefined;
  hfRepo: string | undefined;
}

/** A BLIS device class of `kv_offload_devices` as the file writes it: bytes/µs and µs. */
export type DefaultsDevice = z.output<typeof DeviceSchema>;

/** A read and validated BLIS defaults.yaml. */
export interface BlisDefaultsFile {
  path: string;
  file: YamlFile;
  models: DefaultsModel[];
  workloads: Record<string, WorkloadPreset>;
  trainedPhysics: { alpha: number[]; beta: number[] } | undefined;
  /** The `lora:` keys the file sets, as the library's camelCase LoRA fields. */
  lora: Record<string, unknown>;
  devices: Record<string, DefaultsDevice>;
}

/** A preset field the file leaves out reads as Go's zero, as BLIS decodes it. */
function presetWithZeros(p: z.output<typeof PresetSchema> | null): WorkloadPreset {
  const v = p ?? {};
  return {
    prefix_tokens: v.prefix_tokens ?? 0,
    prompt_tokens: v.prompt_tokens ?? 0,
    prompt_tokens_stdev: v.prompt_tokens_stdev ?? 0,
    prompt_tokens_min: v.prompt_tokens_min ?? 0,
    prompt_tokens_max: v.prompt_tokens_max ?? 0,
    output_tokens: v.output_tokens ?? 0,
    output_tokens_stdev: v.output_tokens_stdev ?? 0,
    output_tokens_min: v.output_tokens_min ?? 0,
    output_tokens_max: v.output_tokens_max ?? 0,
  };
}

const loaded = new Map<string, BlisDefaultsFile>();

/**
 * Reads `path` as a BLIS defaults.yaml (once per process: run and its workload read the same
 * file); every problem is named by file, line and key path, before anything runs.
 */
export function loadBlisDefaults(path: string): BlisDefaultsFile {
  const seen = loaded.get(path);
  if (seen !== undefined) return seen;
  requireReadable('--defaults-filepath', path, 'BLIS defaults.yaml');
  const file = readYamlFile(path, 'BLIS defaults');
  const raw = file.value ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError([{ where: `${path}:1`, expected: `a mapping of BLIS's defaults.yaml sections (${SECTIONS.join(', ')})`, found: describeFound(raw) }]);
  const r = DefaultsFileSchema.safeParse(raw);
  if (!r.success)
    throw new UsageError(
      zodIssueTexts(r.error.issues, raw)
        .slice(0, 20)
        .map((t) => {
          const line = file.lineOf(t.path);
          const top = t.path.length === 1 && t.found.startsWith('unknown field');
          return { where: `${path}${line !== undefined ? `:${line}` : ''} ${formatParamPath(t.path, '') || '(root)'}`, expected: top ? `a section of BLIS's defaults.yaml (${SECTIONS.join(', ')})` : t.expected, found: t.found };
        }),
    );
  const d = r.data;
  const lora: Record<string, unknown> = {};
  if (d.lora) {
    if (d.lora.load_base_latency_us !== undefined) lora.loadBaseLatencyUs = d.lora.load_base_latency_us;
    if (d.lora.load_bandwidth_bytes_us !== undefined) lora.loadBandwidthBytesUs = d.lora.load_bandwidth_bytes_us;
    if (d.lora.footprint_bytes_per_rank !== undefined) lora.footprintBytesPerRank = d.lora.footprint_bytes_per_rank;
    if (d.lora.step_overhead_tiers !== undefined) lora.stepOverheadTiers = d.lora.step_overhead_tiers;
  }
  const out: BlisDefaultsFile = {
    path,
    file,
    models: Object.entries(d.defaults ?? {}).map(([id, m]) => ({ id, gpu: m?.GPU || undefined, tp: m?.tensor_parallelism || undefined, hfRepo: m?.hf_repo || undefined })),
    workloads: Object.fromEntries(Object.entries(d.workloads ?? {}).map(([name, p]) => [name, presetWithZeros(p)])),
    trainedPhysics: d.trained_physics_coefficients ? { alpha: d.trained_physics_coefficients.alpha_coeffs, beta: d.trained_physics_coefficients.beta_coeffs } : undefined,
    lora,
    devices: d.kv_offload_devices ?? {},
  };
  loaded.set(path, out);
  return out;
}

/** The file's `defaults:` entry for `model` (BLIS lower-cases --model; keys are matched the same way). */
export function defaultsModel(file: BlisDefaultsFile, model: string): DefaultsModel | undefined {
  return file.models.find((m) => m.id.toLowerCase() === model.toLowerCase());
}

/** The preset `name` of the file, or a UsageError on `flag` listing the file's presets. */
export function defaultsPreset(file: BlisDefaultsFile, name: string, flag: string): WorkloadPreset {
  if (Object.hasOwn(file.workloads, name)) return file.workloads[name];
  const known = Object.keys(file.workloads);
  throw new UsageError([{ where: flag, expected: known.length > 0 ? `a preset of ${file.path}: ${known.join(', ')}` : `a preset, but ${file.path} has no workloads: section`, found: describeFound(name) }]);
}
