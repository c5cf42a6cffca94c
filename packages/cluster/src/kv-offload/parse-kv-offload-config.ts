import { TraceKVOffloadSchema, parseYamlInput } from '@blis/workload/internal';
import { describeFound } from '@blis/policies/internal';
import { kvOffloadFromHeader } from '../kv-offload-replay.js';
import { type KVOffloadInput, KVOffloadSchema, type KVOffloadSettings, offloadBlockSizeIssue } from '../kv-offload-schema.js';
import type { KVTierConfigError } from '../kv-tier-config-error.js';
import {
  type KVOffloadIssue,
  type KVOffloadLocation,
  type KVOffloadSource,
  LIBRARY_ONLY_KEYS,
  camelCase,
  locateIn,
  snakeCase,
  tierErrorIn,
  unknownKeyIssue,
  zodIssuesIn,
} from './block-issues.js';
import { type KVOffloadDeviceClasses, withDeviceClasses } from './device-classes.js';

export type { KVOffloadIssue, KVOffloadLocation } from './block-issues.js';
export type { KVOffloadDeviceClass, KVOffloadDeviceClasses } from './device-classes.js';

/** How {@link parseKVOffloadConfig} reads a file. */
export interface KVOffloadConfigOptions {
  /** The GPU KV block size in tokens, which the offload block size must equal (default 16). */
  blockSizeTokens?: number;
  /**
   * What the text is. `kv-offload-config` (default): BLIS's --kv-offload-config file, one
   * top-level `kv_offload:` block in BLIS's snake_case keys and nothing else. `tracev2-header`: a
   * TraceV2 header, whose `kv_offload:` block records the chain the trace was simulated with
   * (every figure explicit, the per-block size pinned); the config returned replays that chain.
   */
  format?: 'kv-offload-config' | 'tracev2-header';
  /**
   * Device classes that a tier's `device_class` names instead of the shipped ones (BLIS's
   * --defaults-filepath `kv_offload_devices:`). Only with `kv-offload-config`.
   */
  deviceClasses?: KVOffloadDeviceClasses;
}

/** A validated offload file: the block as library config, and where its keys are in the file. */
export interface KVOffloadConfig {
  /** The file's name, as given. */
  file: string;
  /** The block as `SimulationConfigInput['kvOffload']`: BLIS's keys in camelCase. */
  input: KVOffloadInput;
  /** `input` validated, with the schema's defaults. */
  settings: KVOffloadSettings;
  /** Where a key of the block is: `locate(['secondary_tiers', 0])`; `locate([])` is the block itself. */
  locate(key: readonly (string | number)[]): KVOffloadLocation;
  /** A {@link KVTierConfigError} from resolving `settings` (e.g. a CPU budget under one block), at its key's line. */
  issueOf(error: KVTierConfigError): KVOffloadIssue;
}

/** The validated config, or every problem found with it. */
export type KVOffloadConfigResult = { ok: true; config: KVOffloadConfig } | { ok: false; issues: KVOffloadIssue[] };

const fail = (issues: KVOffloadIssue[]): KVOffloadConfigResult => ({ ok: false, issues });

/**
 * BLIS's snake_case keys as the library's camelCase ones. A key BLIS does not have (in any
 * spelling, camelCase included, or one of the library's own pins) is an unknown key, as under
 * BLIS's strict decoder.
 */
function toCamel(value: unknown, path: (string | number)[], src: KVOffloadSource, issues: KVOffloadIssue[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => toCamel(v, [...path, i], src, issues));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = camelCase(k);
    if (snakeCase(c) !== k || LIBRARY_ONLY_KEYS.has(c)) issues.push(unknownKeyIssue(src, [...path, k]));
    else out[c] = toCamel(v, [...path, k], src, issues);
  }
  return out;
}

/** Library config `input` that stands for the block at `src.root` (its keys camelCased), checked; `issues` were found before. */
function validated(src: KVOffloadSource, input: KVOffloadInput, blockSizeTokens: number, issues: KVOffloadIssue[]): KVOffloadConfigResult {
  const r = KVOffloadSchema.safeParse(input);
  if (!r.success) issues.push(...zodIssuesIn(src, r.error.issues));
  // A block_size that is not a number already has its issue; the multiple-of check would only repeat it.
  const bs = typeof input.blockSize === 'number' ? offloadBlockSizeIssue(input.blockSize, blockSizeTokens) : undefined;
  if (bs !== undefined) issues.push(...zodIssuesIn(src, [{ code: 'custom', path: ['blockSize'], message: bs, input: input.blockSize }]));
  if (issues.length > 0 || !r.success) return fail(issues);
  const config: KVOffloadConfig = {
    file: src.file,
    input,
    settings: r.data,
    locate: (key) => locateIn(src.file, src.yaml, [...src.root, ...key]),
    issueOf: (e) => tierErrorIn(src, e),
  };
  return { ok: true, config };
}

/** BLIS's --kv-offload-config file: one top-level `kv_offload:` block, BLIS's keys, nothing else. */
function fromConfigFile(src: KVOffloadSource, blockSizeTokens: number, devices: KVOffloadDeviceClasses | undefined): KVOffloadConfigResult {
  const top = src.yaml.value;
  if (top === null || typeof top !== 'object' || Array.isArray(top) || !Object.hasOwn(top, 'kv_offload'))
    return fail([{ file: src.file, line: 1, expected: 'a top-level kv_offload: block (BLIS\'s --kv-offload-config format)', found: 'none' }]);
  const others = Object.keys(top).filter((k) => k !== 'kv_offload');
  if (others.length > 0) return fail(others.map((k) => ({ ...locateIn(src.file, src.yaml, [k]), expected: 'only a top-level kv_offload: block', found: `unknown key ${describeFound(k)}` })));
  const block = (top as Record<string, unknown>).kv_offload;
  if (block === null || typeof block !== 'object' || Array.isArray(block))
    return fail([{ ...locateIn(src.file, src.yaml, src.root), expected: 'a mapping of BLIS\'s kv_offload keys', found: describeFound(block) }]);
  const issues: KVOffloadIssue[] = [];
  const input = toCamel(block, [...src.root], src, issues) as KVOffloadInput;
  if (devices !== undefined) withDeviceClasses(src, input, devices, issues);
  return validated(src, input, blockSizeTokens, issues);
}

/** A TraceV2 header's recorded `kv_offload:` block, as the config that replays it. */
function fromTraceHeader(src: KVOffloadSource, blockSizeTokens: number): KVOffloadConfigResult {
  const top = src.yaml.value;
  const block = top !== null && typeof top === 'object' && !Array.isArray(top) ? (top as Record<string, unknown>).kv_offload : undefined;
  if (block === undefined) return fail([{ file: src.file, line: 1, expected: 'a kv_offload: block (the offload chain the trace was simulated with)', found: 'none' }]);
  const recorded = TraceKVOffloadSchema.safeParse(block);
  if (!recorded.success) return fail(zodIssuesIn(src, recorded.error.issues));
  return validated(src, kvOffloadFromHeader(recorded.data), blockSizeTokens, []);
}

/**
 * Parses and validates a KV offload file's text: BLIS's `kv_offload:` block (a CPU staging tier
 * and its secondary tiers) as the library's `kvOffload` config, for a GPU block size of
 * `options.blockSizeTokens`. Every problem found is returned, each naming `fileName`, the line
 * and the key (`kv_offload.secondary_tiers[0].read_bandwidth`) with what was expected and found.
 * Reads no file: the caller hands over the text.
 */
export function parseKVOffloadConfig(text: string, fileName: string, options: KVOffloadConfigOptions = {}): KVOffloadConfigResult {
  const parsed = parseYamlInput(text, fileName);
  if (!parsed.ok) return fail(parsed.issues);
  const src: KVOffloadSource = { file: fileName, yaml: parsed.yaml, root: ['kv_offload'] };
  const blockSizeTokens = options.blockSizeTokens ?? 16;
  if (options.format === 'tracev2-header') return fromTraceHeader(src, blockSizeTokens);
  return fromConfigFile(src, blockSizeTokens, options.deviceClasses);
}
