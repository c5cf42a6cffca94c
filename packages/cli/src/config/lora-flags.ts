import type { LoraConfigInput } from '@blis/cluster';
import { DEFAULT_SCORER_CONFIGS } from '@blis/policies';
import { LORA_KEY_FLAGS, type LoadedLoraConfig, loadLoraConfigFile, loraIssues } from '../inputs/lora-config-file.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';

const FLAG_KEYS: Readonly<Record<string, string>> = {
  loraAdapterCapacity: 'adapterCapacity',
  loraLoadBaseLatencyUs: 'loadBaseLatencyUs',
  loraLoadBandwidthBytesUs: 'loadBandwidthBytesUs',
  loraFootprintBytesPerRank: 'footprintBytesPerRank',
};

/**
 * The `lora` block of the config from --lora-config and the scalar --lora-* flags (`f`,
 * validated, camelCase): a flag wins over the file, the file over the defaults (`fileDefaults`,
 * a --defaults-filepath lora: block, else BLIS's). Undefined when
 * neither is given. Problems go to `issues`, named by flag or by the file's key and line.
 */
export function loraFields(f: Record<string, unknown>, issues: UsageIssue[], fileDefaults: Record<string, unknown> = {}): LoraConfigInput | undefined {
  let loaded: LoadedLoraConfig | undefined;
  if (typeof f.loraConfig === 'string') {
    try {
      loaded = loadLoraConfigFile(f.loraConfig);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      issues.push(...e.issues);
      return undefined;
    }
  }
  const input: Record<string, unknown> = { ...loaded?.input };
  const fromFlags = new Set<string>();
  for (const [flag, key] of Object.entries(FLAG_KEYS)) {
    if (f[flag] === undefined) continue;
    input[key] = f[flag];
    fromFlags.add(key);
  }
  if (loaded === undefined && fromFlags.size === 0) return undefined;
  // A --defaults-filepath lora: block fills what neither the file nor a flag set, as in BLIS.
  for (const [key, value] of Object.entries(fileDefaults)) if (input[key] === undefined) input[key] = value;
  const adapters = input.adapters;
  // BLIS's rule: a capacity of 0 forbids adapters; named by the flag when the flag set it.
  issues.push(...loraIssues(input as LoraConfigInput, loaded?.file, fromFlags));
  if (loaded === undefined && (adapters === undefined || (Array.isArray(adapters) && adapters.length === 0)) && f.quiet !== true)
    process.stderr.write(`blis: warning: ${[...fromFlags].map((k) => LORA_KEY_FLAGS[k]).join(', ')} without --lora-config declares no adapters: LoRA stays off\n`);
  return input as LoraConfigInput;
}

/**
 * BLIS's --lora-scorer-weight: lora-affinity at that weight appended to the weighted profile
 * (the one given, or the default one); refused when the profile already has lora-affinity.
 */
export function withLoraScorer(scorers: { name: string; weight: number }[] | undefined, weight: number | undefined, routingPolicy: string, quiet: boolean, issues: UsageIssue[]): { name: string; weight: number }[] | undefined {
  if (weight === undefined) return scorers;
  if (routingPolicy !== 'weighted') {
    if (!quiet) process.stderr.write(`blis: warning: --lora-scorer-weight has no effect when the routing policy is "${routingPolicy}" (it applies to weighted)\n`);
    return scorers;
  }
  const base = scorers ?? DEFAULT_SCORER_CONFIGS.map((s) => ({ name: s.name, weight: s.weight }));
  if (base.some((s) => s.name === 'lora-affinity')) {
    issues.push({ where: '--lora-scorer-weight', expected: 'a profile without lora-affinity (set its weight in --routing-scorers or with --lora-scorer-weight, not both)', found: 'lora-affinity already in the profile' });
    return scorers;
  }
  return [...base, { name: 'lora-affinity', weight }];
}
