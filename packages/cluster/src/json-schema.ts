import * as z from 'zod';
import { DEVICE_CLASSES } from '@blis/kvcache';
import { SimulationConfigSchema, SpecWorkloadSchema, TraceSettingsSchema } from './config-schema.js';
import { KVOffloadSchema, KVOffloadTierSchema } from './kv-offload-schema.js';

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
 * default) may not set `outputPath` or a `counterfactualK` above 0 (`if`/`then`); `kvOffload`
 * excludes `kvCpuBlocks` above 0, takes one of `blockSize` and `blocksPerChunk` (the latter only
 * 1), `lru`, a `storeThreshold` of 0 or 1, and tiers of type `fs` with a known `deviceClass` or
 * all three figures. Left to zod: `blockSize` equal to `blockSizeTokens` and the ramp's
 * fraction rule. Everything else, including `.strict()` objects (`additionalProperties:
 * false`), maps one to one.
 */
export function simulationConfigJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(SimulationConfigSchema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const props = jsonSchema.properties as Record<string, Record<string, unknown>> | undefined;
      if (zodSchema === SimulationConfigSchema) {
        jsonSchema.if = { required: ['kvOffload'] };
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        jsonSchema.then = { properties: { kvCpuBlocks: { maximum: 0 } } };
      } else if (zodSchema === KVOffloadSchema && props !== undefined) {
        props.blocksPerChunk.const = 1;
        props.evictionPolicy.const = 'lru';
        Object.assign(props.storeThreshold, { minimum: 0, maximum: 1 });
        jsonSchema.not = { required: ['blockSize', 'blocksPerChunk'] };
      } else if (zodSchema === KVOffloadTierSchema && props !== undefined) {
        props.type.const = 'fs';
        props.deviceClass.enum = Object.keys(DEVICE_CLASSES);
        jsonSchema.anyOf = [{ required: ['deviceClass'] }, { required: ['readBandwidth', 'writeBandwidth', 'baseLatency'] }];
      } else if (zodSchema === SpecWorkloadSchema) {
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
