import * as z from 'zod';
import { type WorkloadPreset, workloadPreset, workloadPresetNames } from '@blis/latency';
import { WorkloadSpecError, parseYamlInput, readYamlText, yamlLineOf } from '@blis/workload';
import { describeFound } from '@blis/policies';
import { UsageError } from './usage-error.js';

// The `workloads:` section of a BLIS defaults.yaml, which `blis convert preset
// --defaults-filepath` reads its presets from. BLIS decodes it into Go ints; its other sections
// (models, coefficients, hardware) are BLIS's and are not read here.

const tokens = z.number().int().nonnegative();
const PresetSchema = z.strictObject({
  prefix_tokens: tokens.optional(),
  prompt_tokens: tokens.optional(),
  prompt_tokens_stdev: tokens.optional(),
  prompt_tokens_min: tokens.optional(),
  prompt_tokens_max: tokens.optional(),
  output_tokens: tokens.optional(),
  output_tokens_stdev: tokens.optional(),
  output_tokens_min: tokens.optional(),
  output_tokens_max: tokens.optional(),
});
const DefaultsSchema = z.looseObject({ workloads: z.record(z.string(), PresetSchema.nullable()).nullable().optional() });

/** A field BLIS leaves out reads as Go's zero, 0. */
function withZeros(p: z.output<typeof PresetSchema> | null): WorkloadPreset {
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

/**
 * The preset `name`: from the `workloads:` of the BLIS defaults file at `path` when given, else
 * from the shipped catalogue (BLIS HEAD's defaults.yaml presets). An unknown name lists the known.
 */
export function presetByName(name: string, path: string | undefined): WorkloadPreset {
  if (path === undefined) {
    if (!workloadPresetNames().includes(name)) throw new UsageError([{ where: '--name', expected: `a preset of the catalogue: ${workloadPresetNames().join(', ')}`, found: describeFound(name) }]);
    return workloadPreset(name);
  }
  const read = readYamlText(path, 'BLIS defaults file');
  if (!read.ok) throw new WorkloadSpecError(read.issues);
  const parsed = parseYamlInput(read.text, path);
  if (!parsed.ok) throw new WorkloadSpecError(parsed.issues);
  const raw = parsed.yaml.value;
  const r = DefaultsSchema.safeParse(raw);
  if (!r.success)
    throw new UsageError(
      r.error.issues.slice(0, 10).map((i) => {
        const at = i.path as (string | number)[];
        const line = yamlLineOf(parsed.yaml, at);
        const where = `${path}${line !== undefined ? `:${line}` : ''} ${at.join('.') || '(root)'}`;
        if (i.code === 'unrecognized_keys') return { where, expected: 'a preset field (prefix_tokens, prompt_tokens[_stdev|_min|_max], output_tokens[_stdev|_min|_max])', found: `unknown field ${i.keys.join(', ')}` };
        let value: unknown = raw;
        for (const k of at) value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[k] : undefined;
        const expected = at.length <= 1 ? 'a mapping of preset names to presets' : at.length === 2 ? 'a preset: a mapping of its token fields' : 'a non-negative whole number of tokens';
        return { where, expected, found: describeFound(value) };
      }),
    );
  const workloads = r.data.workloads ?? {};
  if (!Object.hasOwn(workloads, name)) {
    const known = Object.keys(workloads);
    throw new UsageError([{ where: '--name', expected: known.length > 0 ? `a preset of ${path}: ${known.join(', ')}` : `a preset, but ${path} has no workloads: section`, found: describeFound(name) }]);
  }
  return withZeros(workloads[name]);
}
