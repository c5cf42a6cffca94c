import { describeFound } from '@blis/policies';
import { type KVOffloadInput, KVOffloadSchema, type KVOffloadSettings } from '@blis/cluster';
import { isShippedDeviceClass, offloadBlockSizeIssue } from '@blis/cluster/internal';
import { requireReadable } from './input-files.js';
import { type KVOffloadSource, LIBRARY_ONLY_KEYS, camelCase, snakeCase, unknownKeyIssue, whereIn, zodIssuesIn } from './kv-offload-issues.js';
import { UsageError, type UsageIssue } from './usage-error.js';
import { readYamlFile } from './yaml-file.js';
import { type DefaultsDevice, tierFigures } from './defaults-file.js';

/** A validated kv_offload block: the library input, its parsed settings, and where it came from. */
export interface LoadedKVOffload extends KVOffloadSource {
  input: KVOffloadInput;
  settings: KVOffloadSettings;
}

/**
 * BLIS's snake_case keys as the library's camelCase ones. A key BLIS does not have (in any
 * spelling, camelCase included, or one of the library's own pins) is an unknown key, as under
 * BLIS's strict decoder.
 */
function toCamel(value: unknown, path: (string | number)[], src: KVOffloadSource, issues: UsageIssue[]): unknown {
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

/**
 * Validates the kv_offload block at `src.root` of `src.file` (BLIS's keys) for a GPU block size
 * of `blockSizeTokens`; returns it as library config or throws a UsageError naming each bad key
 * with its line.
 */
export function validateKVOffloadBlock(src: KVOffloadSource, blockSizeTokens: number, devices?: DeviceClasses): LoadedKVOffload {
  const issues: UsageIssue[] = [];
  let block: unknown = src.file.value;
  for (const k of src.root) block = (block as Record<string | number, unknown>)[k];
  if (block === null || typeof block !== 'object' || Array.isArray(block))
    throw new UsageError([{ where: whereIn(src.file, src.root), expected: 'a mapping of BLIS\'s kv_offload keys', found: describeFound(block) }]);
  const input = toCamel(block, [...src.root], src, issues) as KVOffloadInput;
  if (devices !== undefined) withFileDeviceClasses(src, input, devices, issues);
  return validateKVOffloadInput(src, input, blockSizeTokens, issues);
}

/**
 * Validates library config `input` that stands for the block at `src.root` (its keys are the
 * block's, camelCased), adding to `issues` found before; throws a UsageError if there are any.
 */
export function validateKVOffloadInput(src: KVOffloadSource, input: KVOffloadInput, blockSizeTokens: number, issues: UsageIssue[] = []): LoadedKVOffload {
  const r = KVOffloadSchema.safeParse(input);
  if (!r.success) issues.push(...zodIssuesIn(src, r.error.issues));
  // A block_size that is not a number already has its issue; the multiple-of check would only repeat it.
  const bs = typeof input.blockSize === 'number' ? offloadBlockSizeIssue(input.blockSize, blockSizeTokens) : undefined;
  if (bs !== undefined) issues.push(...zodIssuesIn(src, [{ code: 'custom', path: ['blockSize'], message: bs, input: input.blockSize }]));
  if (issues.length > 0 || !r.success) throw new UsageError(issues);
  return { ...src, input, settings: r.data };
}

/** The `kv_offload_devices:` of a --defaults-filepath file, and where it is. */
export interface DeviceClasses {
  path: string;
  classes: Readonly<Record<string, DefaultsDevice>>;
}

/**
 * A tier's `device_class` resolved from the defaults file instead of the shipped classes, as
 * BLIS resolves it: the class's figures for the tier's I/O regime, under any the tier sets
 * itself. A class this build ships keeps its name (for the output); another is spelt out.
 */
function withFileDeviceClasses(src: KVOffloadSource, input: KVOffloadInput, devices: DeviceClasses, issues: UsageIssue[]): void {
  const tiers = (input as { secondaryTiers?: unknown }).secondaryTiers;
  if (!Array.isArray(tiers)) return;
  tiers.forEach((t: Record<string, unknown> | null, i) => {
    if (t === null || typeof t !== 'object' || typeof t.deviceClass !== 'string') return;
    const cls = devices.classes[t.deviceClass];
    if (cls === undefined) {
      const known = Object.keys(devices.classes);
      issues.push({ where: whereIn(src.file, [...src.root, 'secondary_tiers', i, 'device_class']), expected: known.length > 0 ? `a device class of ${devices.path} kv_offload_devices (${known.join(', ')})` : `a device class, but ${devices.path} has no kv_offload_devices`, found: describeFound(t.deviceClass) });
      return;
    }
    const figures = tierFigures(cls, t.directIo !== false);
    for (const [k, v] of Object.entries(figures)) t[k] ??= v;
    if (!isShippedDeviceClass(t.deviceClass)) delete t.deviceClass;
  });
}

/** Reads a --kv-offload-config file: one top-level `kv_offload:` block, BLIS's keys, nothing else. */
export function loadKVOffloadFile(path: string, blockSizeTokens: number, devices?: DeviceClasses): LoadedKVOffload {
  requireReadable('--kv-offload-config', path, 'KV offload configuration file');
  const file = readYamlFile(path, 'KV offload configuration');
  const src: KVOffloadSource = { file, root: ['kv_offload'] };
  const top = file.value;
  if (top === null || typeof top !== 'object' || Array.isArray(top) || !Object.hasOwn(top, 'kv_offload'))
    throw new UsageError([{ where: `${path}:1`, expected: 'a top-level kv_offload: block (BLIS\'s --kv-offload-config format)', found: 'none' }]);
  const others = Object.keys(top).filter((k) => k !== 'kv_offload');
  if (others.length > 0)
    throw new UsageError(others.map((k) => ({ where: whereIn(file, [k]), expected: 'only a top-level kv_offload: block', found: `unknown key ${describeFound(k)}` })));
  return validateKVOffloadBlock(src, blockSizeTokens, devices);
}
