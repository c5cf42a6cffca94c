import { type LoadedSpec, WorkloadSpecError } from '@blis/workload';
import type { LoraConfig } from './lora-schema.js';

/** What a workload's adapter references are checked against: the run's registry and model. */
export interface AdapterRegistryView {
  /** Adapter id -> the base model it declares ('' = any); empty with LoRA off. */
  readonly baseModels: ReadonlyMap<string, string>;
  readonly model: string;
}

export function adapterRegistryView(lora: LoraConfig | undefined, model: string): AdapterRegistryView {
  return { baseModels: new Map((lora?.adapters ?? []).map((a) => [a.id, a.baseModel ?? ''])), model };
}

/**
 * BLIS's reference check of a spec's clients: every adapter a client names is declared, and
 * attaches to the model the run serves when it says which. Throws a WorkloadSpecError naming
 * each client.
 */
export function checkAdapterReferences(spec: LoadedSpec, file: string, reg: AdapterRegistryView): void {
  const issues = spec.clients.flatMap((c, i) => {
    const a = c.adapter;
    if (a === undefined || a === '') return [];
    const field = `clients[${i}].adapter`;
    const base = reg.baseModels.get(a);
    if (base === undefined) {
      const known = [...reg.baseModels.keys()].sort();
      const expected = known.length === 0 ? 'no adapter (none is declared: give --lora-config with a lora.adapters registry)' : `an adapter id of the registry (${known.join(', ')})`;
      return [{ file, field, expected, found: JSON.stringify(a) }];
    }
    if (base !== '' && base !== reg.model) return [{ file, field, expected: `an adapter of the run's model ${reg.model}`, found: `"${a}", whose base_model is ${base}` }];
    return [];
  });
  if (issues.length > 0) throw new WorkloadSpecError(issues);
}
