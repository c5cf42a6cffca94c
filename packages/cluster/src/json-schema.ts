import { z } from 'zod';
import { SimulationConfigSchema, SpecWorkloadSchema, TraceSettingsSchema } from './config-schema.js';

/** Where the generated schema ships: `@blis/cluster/simulation-config.schema.json`. */
export const SIMULATION_CONFIG_JSON_SCHEMA_FILE = 'schema/simulation-config.schema.json';

/** The object schema inside `TraceSettingsSchema`'s `.default(...)`, which carries the refinement. */
const traceSettingsObject = TraceSettingsSchema.removeDefault();

/**
 * The JSON Schema (draft 2020-12) of a `SimulationConfigInput`: the configuration as
 * callers write it, so every field with a default is optional and carries its `default`.
 * Generated from `SimulationConfigSchema` with zod's `z.toJSONSchema` (`io: 'input'`);
 * the package ships the result as `simulation-config.schema.json` for editors and other tools.
 *
 * JSON Schema cannot run zod's refinements, so their rules are restated by hand: a `spec`
 * workload needs `path` or `spec` (`anyOf` of `required`), and a trace of level `none` (the
 * default) may not set `outputPath` or a `counterfactualK` above 0 (`if`/`then`). Everything
 * else, including `.strict()` objects (`additionalProperties: false`), maps one to one.
 */
export function simulationConfigJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(SimulationConfigSchema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === SpecWorkloadSchema) {
        jsonSchema.anyOf = [{ required: ['path'] }, { required: ['spec'] }];
      } else if (zodSchema === traceSettingsObject) {
        jsonSchema.if = { properties: { level: { const: 'none' } } };
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        jsonSchema.then = {
          properties: { counterfactualK: { maximum: 0 } },
          not: { required: ['outputPath'] },
        };
      }
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: 'BLIS SimulationConfig',
    description:
      'The configuration of one BLIS simulation run, as accepted by simulate() from @blis/cluster. Generated from SimulationConfigSchema; do not edit.',
    ...rest,
  };
}
