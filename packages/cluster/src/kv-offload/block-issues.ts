import { type YamlInput, yamlLineOf } from '@blis/workload/internal';
import { describeFound, describeZodExpected, formatParamPath, valueAtPath } from '@blis/policies/internal';
import type { core } from 'zod';
import type { KVTierConfigError } from '../kv-tier-config-error.js';
import { KVOffloadSchema, KVOffloadTierSchema } from '../kv-offload-schema.js';

// The library validates `kvOffload` in camelCase; a user wrote BLIS's snake_case keys in a YAML
// file (a --kv-offload-config file or a trace header). These helpers translate the library's
// complaints back into that file's keys and lines.

/** Where a key of an offload file is: the file, the key's line (or its nearest parent's) and the key path. */
export interface KVOffloadLocation {
  /** The file's name, as the caller gave it. */
  file: string;
  /** 1-based line of the key (or of its nearest parent the file has); absent when unknown. */
  line?: number;
  /** `kv_offload.secondary_tiers[0].type`; absent for the file as a whole. */
  field?: string;
}

/** One problem with an offload file: where, what a valid file has there, and what this one has. */
export interface KVOffloadIssue extends KVOffloadLocation {
  /** What a valid file has there: `a number > 0`. */
  expected: string;
  /** What this file has there: `0`, `nothing`, `unknown key "colour"`. */
  found: string;
}

/** A kv_offload block and the YAML text it came from, so problems can name its lines. */
export interface KVOffloadSource {
  file: string;
  yaml: YamlInput;
  /** Key path of the block in the file: `['kv_offload']`. */
  root: readonly (string | number)[];
}

/** Config keys BLIS's kv_offload YAML does not have: the library's pins for replaying a trace header. */
export const LIBRARY_ONLY_KEYS: ReadonlySet<string> = new Set(['perBlockBytes', 'saturationQueueDepth', 'singleTransferFraction', 'latencyJitterStddev']);

export const snakeCase = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (k: string): string => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const FIELD_NAMES = new RegExp(`\\b(${[...Object.keys(KVOffloadSchema.shape), ...Object.keys(KVOffloadTierSchema.shape)].join('|')})\\b`, 'g');

/** Rewrites the library's field names inside one of its messages as the file's snake_case keys. */
const snakeWords = (text: string): string => text.replace(FIELD_NAMES, snakeCase);

const userKeys = (shape: Record<string, unknown>) => Object.keys(shape).filter((k) => !LIBRARY_ONLY_KEYS.has(k)).map(snakeCase);
/** The keys BLIS's YAML accepts in the block and in one secondary tier. */
const BLOCK_KEYS: readonly string[] = userKeys(KVOffloadSchema.shape);
const TIER_KEYS: readonly string[] = userKeys(KVOffloadTierSchema.shape);

/** `file.yaml:7 kv_offload.block_size`: the file, the key's line (or its nearest parent's) and the key. */
export function locateIn(file: string, yaml: YamlInput, path: readonly (string | number)[]): KVOffloadLocation {
  return { file, line: yamlLineOf(yaml, path, false), field: formatParamPath(path, '') };
}

/** An unknown key, with the keys its mapping does accept. */
export function unknownKeyIssue(src: KVOffloadSource, path: readonly (string | number)[]): KVOffloadIssue {
  const key = String(path[path.length - 1]);
  const inTier = path.includes('secondary_tiers');
  const known = inTier ? TIER_KEYS : BLOCK_KEYS;
  return { ...locateIn(src.file, src.yaml, path), expected: `a key of BLIS's kv_offload ${inTier ? 'secondary tier' : 'block'} (${known.join(', ')})`, found: `unknown key ${describeFound(key)}` };
}

/**
 * What a zod issue about a value expected and found, in the file's words: the schema's own
 * "expected ..., found ..." as it is, anything else through the zod translator.
 */
function explain(i: core.$ZodIssue, value: unknown): { expected: string; found: string } {
  const m = /^expected (.+), found (.+)$/s.exec(i.message);
  if (m !== null) return { expected: snakeWords(m[1]), found: snakeWords(m[2]) };
  return { expected: snakeWords(describeZodExpected(i, value)), found: describeFound(value) };
}

/** Issues for `KVOffloadSchema` issues about the block at `src.root` (issue paths relative to the block). */
export function zodIssuesIn(src: KVOffloadSource, issues: readonly core.$ZodIssue[]): KVOffloadIssue[] {
  const out: KVOffloadIssue[] = [];
  for (const i of issues) {
    const rel = i.path.map((p) => (typeof p === 'string' ? snakeCase(p) : (p as number)));
    const path = [...src.root, ...rel];
    if (i.code === 'unrecognized_keys') for (const k of i.keys) out.push(unknownKeyIssue(src, [...path, snakeCase(k)]));
    else out.push({ ...locateIn(src.file, src.yaml, path), ...explain(i, valueAtPath(src.yaml.value, path)) });
  }
  return out;
}

/** The issue for a resolution error about `kvOffload...`, placed in the block's file. */
export function tierErrorIn(src: KVOffloadSource, e: KVTierConfigError): KVOffloadIssue {
  const rel = e.path.slice(1).map((p) => (typeof p === 'string' ? snakeCase(p) : p));
  return { ...locateIn(src.file, src.yaml, [...src.root, ...rel]), expected: snakeWords(e.expected), found: snakeWords(e.found) };
}
