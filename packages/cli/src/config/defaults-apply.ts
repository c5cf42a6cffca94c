import { describeFound } from '@blis/policies/internal';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { workloadPresetNames } from '@blis/latency';
import { type BlisDefaultsFile, defaultsModel, defaultsPreset, loadBlisDefaults } from '../inputs/defaults-file.js';
import { type LengthFlagValues, lengthFlagValues } from '../flags/length-flags.js';
import { DEFAULT_MODEL } from './model-architecture.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

// Where `--defaults-filepath FILE` changes a run, as in BLIS: unset --hardware and --tp come from
// the model's `defaults:` entry, the trained-physics coefficients from the file, the model's
// config.json and the GPU table from beside the file when it has them, and `--workload` names a
// preset of the file. Without the flag the shipped catalogue (BLIS HEAD's defaults.yaml) answers.

/** The file --defaults-filepath names, read and validated; undefined without the flag. */
export function defaultsFileOf(f: Record<string, unknown>): BlisDefaultsFile | undefined {
  return typeof f.defaultsFilepath === 'string' ? loadBlisDefaults(f.defaultsFilepath) : undefined;
}

/** A flag-driven workload's preset and lengths: the file's preset spelt out as lengths, or the catalogue's by name. */
export function presetAndLengths(f: Record<string, unknown>, distributionName: boolean): { preset?: string } & LengthFlagValues {
  const lengths = lengthFlagValues(f);
  const name = f.workload as string | undefined;
  // BLIS's `blis run --workload` default: the length flags, no preset.
  if (name === undefined || (distributionName && name === 'distribution')) return lengths;
  const file = defaultsFileOf(f);
  if (file === undefined) {
    if (!workloadPresetNames().includes(name))
      throw new UsageError([{ where: '--workload', expected: `a preset of the catalogue: ${workloadPresetNames().join(', ')}${distributionName ? ', or distribution (the length flags)' : ''}`, found: describeFound(name) }]);
    return { preset: name, ...lengths };
  }
  // The preset's lengths, under any explicit length flag (as the catalogue's presets apply).
  const p = defaultsPreset(file, name, '--workload');
  return {
    ...lengths,
    promptTokens: lengths.promptTokens ?? p.prompt_tokens,
    promptTokensStdev: lengths.promptTokensStdev ?? p.prompt_tokens_stdev,
    promptTokensMin: lengths.promptTokensMin ?? p.prompt_tokens_min,
    promptTokensMax: lengths.promptTokensMax ?? p.prompt_tokens_max,
    outputTokens: lengths.outputTokens ?? p.output_tokens,
    outputTokensStdev: lengths.outputTokensStdev ?? p.output_tokens_stdev,
    outputTokensMin: lengths.outputTokensMin ?? p.output_tokens_min,
    outputTokensMax: lengths.outputTokensMax ?? p.output_tokens_max,
    prefixTokens: lengths.prefixTokens ?? p.prefix_tokens ?? 0,
  };
}

/** What the file sets in a simulation's config. */
export interface DefaultsFileFields {
  /** The flags with --hardware, --tp, --model-config and --hardware-config filled from the file where unset. */
  flags: Record<string, unknown>;
  trainedPhysicsCoefficients?: { alpha?: number[]; beta?: number[]; source: string };
  /** Where --hardware / --tp came from when the file gave them (`FILE:line defaults.<model>.GPU`), for messages. */
  from: { hardware?: string; tp?: string };
  /** The file's `lora:` keys (camelCase), under --lora-config and the --lora-* flags. */
  loraDefaults?: Record<string, unknown>;
  file?: BlisDefaultsFile;
}

/**
 * The simulation flags as the defaults file completes them (unchanged without the flag). A
 * model the file has no GPU and TP for needs --hardware and --tp, as in BLIS, unless blackbox
 * coefficients are given outright (they depend on neither).
 */
export function defaultsFileFields(f: Record<string, unknown>, issues: UsageIssue[]): DefaultsFileFields {
  let file: BlisDefaultsFile | undefined;
  try {
    file = defaultsFileOf(f);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    issues.push(...e.issues);
    return { flags: f, from: {} };
  }
  if (file === undefined) return { flags: f, from: {} };
  const model = ((f.model as string | undefined) ?? DEFAULT_MODEL).toLowerCase();
  const entry = defaultsModel(file, model);
  const flags = { ...f };
  const from: DefaultsFileFields['from'] = {};
  const at = (key: string) => {
    const path = ['defaults', entry?.id ?? model, key];
    const line = file.file.lineOf(path);
    return `${file.path}${line !== undefined ? `:${line}` : ''} ${path.join('.')}`;
  };
  if (flags.hardware === undefined && entry?.gpu !== undefined) {
    flags.hardware = entry.gpu;
    from.hardware = at('GPU');
  }
  if (flags.tp === undefined && entry?.tp !== undefined) {
    flags.tp = entry.tp;
    from.tp = at('tensor_parallelism');
  }
  const blackboxByFlags = f.latencyModel !== 'roofline' && f.latencyModel !== 'trained-physics' && Array.isArray(f.alphaCoeffs) && Array.isArray(f.betaCoeffs) && f.betaCoeffs.length === 3;
  if ((flags.hardware === undefined || flags.tp === undefined) && !blackboxByFlags) {
    const missing = [flags.hardware === undefined ? 'GPU' : '', flags.tp === undefined ? 'tensor_parallelism' : ''].filter((s) => s !== '').join(' and ');
    issues.push({
      where: `--defaults-filepath ${file.path}`,
      expected: `a defaults: entry with the GPU and tensor_parallelism of ${model} (or --hardware and --tp)`,
      found: entry === undefined ? `no entry for ${model}` : `no ${missing} in its entry`,
    });
  }
  // BLIS looks for the model's config and the GPU table beside the defaults file.
  const dir = dirname(file.path);
  if (flags.modelConfig === undefined) {
    const short = model.includes('/') ? model.slice(model.indexOf('/') + 1) : model;
    const config = join(dir, 'model_configs', short, 'config.json');
    if (!short.split('/').includes('..') && existsSync(config)) flags.modelConfig = config;
  }
  if (flags.hardwareConfig === undefined && existsSync(join(dir, 'hardware_config.json'))) flags.hardwareConfig = join(dir, 'hardware_config.json');
  return {
    flags,
    from,
    file,
    trainedPhysicsCoefficients: file.trainedPhysics !== undefined ? { ...file.trainedPhysics, source: `${file.path} trained_physics_coefficients` } : { source: `--defaults-filepath ${file.path}` },
    loraDefaults: file.lora,
  };
}
