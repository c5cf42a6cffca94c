import { type LoraConfigInput, LoraSchema } from '@blis/cluster';
import { describeFound, describeZodExpected, formatParamPath, valueAtPath } from '@blis/policies/internal';
import type { core } from 'zod';
import { requireReadable } from './input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { type YamlFile, readYamlFile } from './yaml-file.js';

// A --lora-config file: BLIS's `lora:` block (snake_case keys) and nothing else. Read here into
// the library's camelCase input; its problems are named by file, line and key.

const FILE_KEYS: Readonly<Record<string, string>> = {
  adapter_capacity: 'adapterCapacity',
  load_base_latency_us: 'loadBaseLatencyUs',
  load_bandwidth_bytes_us: 'loadBandwidthBytesUs',
  footprint_bytes_per_rank: 'footprintBytesPerRank',
  step_overhead_tiers: 'stepOverheadTiers',
  adapters: 'adapters',
};
const ADAPTER_KEYS: Readonly<Record<string, string>> = { id: 'id', rank: 'rank', base_model: 'baseModel' };
const snakeOf = (camel: string, keys: Readonly<Record<string, string>>) => Object.keys(keys).find((k) => keys[k] === camel) ?? camel;

/** A read lora block: the library input and the file it came from. */
export interface LoadedLoraConfig {
  file: YamlFile;
  input: LoraConfigInput;
}

function where(file: YamlFile, path: readonly (string | number)[]): string {
  const line = file.lineOf(path);
  return `${file.path}${line !== undefined ? `:${line}` : ''} ${formatParamPath(path, '')}`;
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads a --lora-config file; throws a UsageError naming each unknown key with its line. */
export function loadLoraConfigFile(path: string): LoadedLoraConfig {
  requireReadable('--lora-config', path, 'LoRA configuration file');
  const file = readYamlFile(path, 'LoRA configuration');
  const top = file.value;
  if (!isMap(top) || !Object.hasOwn(top, 'lora'))
    throw new UsageError([{ where: `${path}:1`, expected: "a top-level lora: block (BLIS's --lora-config format)", found: 'none' }]);
  const issues: UsageIssue[] = [];
  for (const k of Object.keys(top)) if (k !== 'lora') issues.push({ where: where(file, [k]), expected: 'only a top-level lora: block', found: `unknown key ${describeFound(k)}` });
  const block = top.lora;
  if (!isMap(block)) throw new UsageError([...issues, { where: where(file, ['lora']), expected: "a mapping of BLIS's lora keys", found: describeFound(block) }]);
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(block)) {
    const c = FILE_KEYS[k];
    if (c === undefined) {
      issues.push({ where: where(file, ['lora', k]), expected: `a key of BLIS's lora block (${Object.keys(FILE_KEYS).join(', ')})`, found: `unknown key ${describeFound(k)}` });
      continue;
    }
    input[c] = c === 'adapters' && Array.isArray(v) ? v.map((a, i) => adapterInput(file, a, i, issues)) : v;
  }
  if (issues.length > 0) throw new UsageError(issues);
  return { file, input: input as LoraConfigInput };
}

function adapterInput(file: YamlFile, a: unknown, i: number, issues: UsageIssue[]): unknown {
  if (!isMap(a)) return a;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) {
    const c = ADAPTER_KEYS[k];
    if (c === undefined) issues.push({ where: where(file, ['lora', 'adapters', i, k]), expected: `a key of an adapter (${Object.keys(ADAPTER_KEYS).join(', ')})`, found: `unknown key ${describeFound(k)}` });
    else out[c] = v;
  }
  return out;
}

/** Flags that stand for keys of the block: a problem with a key a flag set names the flag. */
export const LORA_KEY_FLAGS: Readonly<Record<string, string>> = {
  adapterCapacity: '--lora-adapter-capacity',
  loadBaseLatencyUs: '--lora-load-base-latency-us',
  loadBandwidthBytesUs: '--lora-load-bandwidth-bytes-us',
  footprintBytesPerRank: '--lora-footprint-bytes-per-rank',
};

/**
 * Validates the merged block: problems with a key a flag set name the flag, the others the
 * file's key and line (or `--lora-config` when there is no file).
 */
export function loraIssues(input: LoraConfigInput, file: YamlFile | undefined, fromFlags: ReadonlySet<string>): UsageIssue[] {
  const r = LoraSchema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.map((i: core.$ZodIssue) => {
    const key = String(i.path[0] ?? '');
    const value = valueAtPath(input, i.path);
    const m = /^expected (.+), found (.+)$/s.exec(i.message);
    const ef = m !== null ? { expected: m[1], found: m[2] } : { expected: describeZodExpected(i, value), found: describeFound(value) };
    if (fromFlags.has(key)) return { where: LORA_KEY_FLAGS[key], ...ef };
    const filePath = ['lora', ...i.path.map((p, n) => (typeof p === 'string' ? snakeOf(p, n === 0 ? FILE_KEYS : ADAPTER_KEYS) : (p as number)))];
    return { where: file !== undefined ? where(file, filePath) : '--lora-config', ...ef };
  });
}
