import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SimulationConfigSchema } from '../src/config-schema.js';
import { simulate } from '../src/simulate.js';
import { SIMULATION_CONFIG_JSON_SCHEMA_FILE, simulationConfigJsonSchema } from '../src/json-schema.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const committedText = readFileSync(`${packageDir}/${SIMULATION_CONFIG_JSON_SCHEMA_FILE}`, 'utf8');
const committed = JSON.parse(committedText) as JsonSchema;

// ---------------------------------------------------------------------------------------------
// A minimal JSON Schema (2020-12) validator for exactly the keywords the generated schema uses.
// The test below fails if the schema ever uses a keyword this validator does not know, so it
// can never pass by silently ignoring a constraint.

type JsonSchema = { [keyword: string]: unknown };
const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'default']);
const ASSERTIONS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'propertyNames', 'enum', 'const',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'minItems', 'maxItems',
  'items', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Problems with `value` under `schema`, as "path: message"; empty when it is valid. */
function validate(schema: JsonSchema | boolean, value: unknown, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: not allowed`];
  const errors: string[] = [];
  const s = schema;
  const t = typeOf(value);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) return [`${path}: expected ${types.join('|')}, found ${t}`];
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(value))) errors.push(`${path}: not in enum`);
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) errors.push(`${path}: expected ${JSON.stringify(s.const)}`);
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errors.push(`${path}: < minimum ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) errors.push(`${path}: > maximum ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) errors.push(`${path}: <= exclusiveMinimum ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) errors.push(`${path}: >= exclusiveMaximum ${s.exclusiveMaximum}`);
  }
  if (typeof value === 'string' && typeof s.minLength === 'number' && value.length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
    if (s.items !== undefined) for (const [i, v] of value.entries()) errors.push(...validate(s.items as JsonSchema, v, `${path}[${i}]`));
  }
  if (t === 'object') {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const r of (s.required ?? []) as string[]) if (!(r in obj)) errors.push(`${path}: missing required ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      if (s.propertyNames !== undefined) errors.push(...validate(s.propertyNames as JsonSchema, k, `${path}[key ${k}]`));
      if (k in props) errors.push(...validate(props[k], v, `${path}.${k}`));
      else if (s.additionalProperties !== undefined) errors.push(...validate(s.additionalProperties as JsonSchema | boolean, v, `${path}.${k}`));
    }
  }
  const matches = (list: unknown) => (list as JsonSchema[]).filter((sub) => validate(sub, value, path).length === 0).length;
  if (s.oneOf !== undefined && matches(s.oneOf) !== 1) errors.push(`${path}: matches ${matches(s.oneOf)} of oneOf, expected exactly 1`);
  if (s.anyOf !== undefined && matches(s.anyOf) === 0) errors.push(`${path}: matches none of anyOf`);
  if (s.allOf !== undefined) for (const sub of s.allOf as JsonSchema[]) errors.push(...validate(sub, value, path));
  if (s.not !== undefined && validate(s.not as JsonSchema, value, path).length === 0) errors.push(`${path}: matches "not"`);
  if (s.if !== undefined) {
    const branch = validate(s.if as JsonSchema, value, path).length === 0 ? s.then : s.else;
    if (branch !== undefined) errors.push(...validate(branch as JsonSchema, value, path));
  }
  return errors;
}

function keywordsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keywordsOf(s, out);
  else if (schema !== null && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      out.add(k);
      if (k === 'properties') for (const sub of Object.values(v as object)) keywordsOf(sub, out);
      else if (!ANNOTATIONS.has(k) && k !== 'enum' && k !== 'const') keywordsOf(v, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('simulation-config.schema.json', () => {
  it('is what simulationConfigJsonSchema() generates now (run `pnpm gen:schema` after changing the zod schema)', () => {
    expect(committedText).toBe(`${JSON.stringify(simulationConfigJsonSchema(), null, 2)}\n`);
  });

  it('ships in @blis/cluster under the ./simulation-config.schema.json export', () => {
    const manifest = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8'));
    expect(manifest.files).toContain('schema');
    const target = `./${SIMULATION_CONFIG_JSON_SCHEMA_FILE}`;
    expect(manifest.exports['./simulation-config.schema.json']).toBe(target);
    expect(manifest.publishConfig.exports['./simulation-config.schema.json']).toBe(target);
  });

  it('uses only keywords the test validator understands', () => {
    const unknown = [...keywordsOf(committed)].filter((k) => !ANNOTATIONS.has(k) && !ASSERTIONS.has(k));
    expect(unknown).toEqual([]);
  });

  it('describes the input: every top-level field, none required, defaults equal to what zod fills in', () => {
    expect(committed.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(committed.additionalProperties).toBe(false);
    expect(committed.required).toBeUndefined();
    const props = committed.properties as Record<string, JsonSchema>;
    expect(Object.keys(props).sort()).toEqual(Object.keys(SimulationConfigSchema.shape).sort());
    const filled = SimulationConfigSchema.parse({}) as Record<string, unknown>;
    for (const [key, prop] of Object.entries(props)) {
      if ('default' in prop) expect(prop.default, key).toEqual(filled[key]);
    }
  });

  const valid: [string, unknown][] = [
    ['the empty config (all defaults)', {}],
    [
      'a 4-instance weighted cluster with flow control, traces and fitness',
      {
        seed: 7,
        numInstances: 4,
        model: 'meta-llama/llama-3.1-8b-instruct',
        hardware: 'H100',
        tp: 1,
        admission: { policy: 'token-bucket', params: { capacity: 5000, refillRate: 500 } },
        priority: { policy: 'slo-class' },
        routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 3, params: { lruCapacity: 5000 } }, { name: 'queue-depth', weight: 2 }] },
        scheduler: { policy: 'priority-fcfs' },
        preemptionPolicy: 'priority',
        flowControl: { enabled: true, maxGatewayQueueDepth: 100, queueDepthThreshold: 4, kvUtilizationThreshold: 0.7 },
        workload: { kind: 'synthetic', rate: 20, numRequests: 200, promptTokens: 256, arrivalProcess: 'constant' },
        trace: { level: 'decisions', outputPath: 'trace.jsonl', counterfactualK: 3 },
        fitnessWeights: { throughput: 0.5, p99_ttft: 0.5 },
        sloTtftUs: 200_000,
      },
    ],
    ['a WorkloadSpec file', { workload: { kind: 'spec', path: 'examples/workloads/servegen-language.yaml', numRequests: 50 } }],
    ['an inline WorkloadSpec', { workload: { kind: 'spec', spec: { version: '2', clients: [] } } }],
    ['a trace replay with blackbox coefficients', { alphaCoeffs: [1, 2, 3], betaCoeffs: [4, 5, 6], workload: { kind: 'trace', path: 't.jsonl', format: 'mooncake', timeScale: 0.5 } }],
    ['a legacy CPU tier', { kvCpuBlocks: 500, kvTransferBandwidth: 4, kvTransferBaseLatencyUs: 10, kvReloadRecompute: true }],
    [
      'an offload chain with a class tier and an explicit one',
      {
        kvOffload: {
          cpuBytesToUse: 17_179_869_184,
          storeThreshold: 1,
          secondaryTiers: [
            { type: 'fs', rootDir: '/nvme', directIo: true, deviceClass: 'nvme_gen4' },
            { type: 'fs', rootDir: '/nfs', directIo: false, readBandwidth: 900, writeBandwidth: 800, baseLatency: 500 },
          ],
        },
      },
    ],
  ];

  it.each(valid)('accepts %s under both zod and the JSON Schema', (_, config) => {
    expect(SimulationConfigSchema.safeParse(config).success).toBe(true);
    expect(validate(committed, config)).toEqual([]);
  });

  const invalid: [string, unknown, RegExp][] = [
    ['a misspelt field', { numInstance: 4 }, /\$\.numInstance: not allowed/],
    ['zero instances', { numInstances: 0 }, /\$\.numInstances: <= exclusiveMinimum 0/],
    ['a fractional seed', { seed: 1.5 }, /\$\.seed: expected integer/],
    ['an unknown workload kind', { workload: { kind: 'csv', path: 'x' } }, /\$\.workload: matches 0 of oneOf/],
    ['two alpha coefficients', { alphaCoeffs: [1, 2] }, /\$\.alphaCoeffs: fewer than 3 items/],
    ['a negative scorer weight', { routing: { policy: 'weighted', scorers: [{ name: 'queue-depth', weight: -1 }] } }, /weight: < minimum 0/],
    ['an unknown preemption policy', { preemptionPolicy: 'lifo' }, /\$\.preemptionPolicy: not in enum/],
    ['gpuMemoryUtilization above 1', { gpuMemoryUtilization: 1.5 }, /> maximum 1/],
    // The two zod refinements, restated in the JSON Schema by hand:
    ['a spec workload with neither path nor spec', { workload: { kind: 'spec', numRequests: 5 } }, /\$\.workload: matches 0 of oneOf/],
    ['a trace file without a trace level', { trace: { outputPath: 'trace.jsonl' } }, /\$\.trace: matches "not"/],
    ['counterfactual candidates at trace level none', { trace: { level: 'none', counterfactualK: 2 } }, /counterfactualK: > maximum 0/],
    ['a CPU tier beside an offload chain', { kvCpuBlocks: 8, kvOffload: { cpuBytesToUse: 1 << 30 } }, /\$\.kvCpuBlocks: > maximum 0/],
    ['an offload chunk of two blocks', { kvOffload: { cpuBytesToUse: 1 << 30, blocksPerChunk: 2 } }, /blocksPerChunk: expected 1/],
    ['ARC eviction', { kvOffload: { cpuBytesToUse: 1 << 30, evictionPolicy: 'arc' } }, /evictionPolicy: expected "lru"/],
    ['an object-store tier', { kvOffload: { cpuBytesToUse: 1 << 30, secondaryTiers: [{ type: 'obj', rootDir: '/x', directIo: true, deviceClass: 's3' }] } }, /type: expected "fs"/],
    ['a tier without a class or figures', { kvOffload: { cpuBytesToUse: 1 << 30, secondaryTiers: [{ type: 'fs', rootDir: '/x', directIo: true, readBandwidth: 5 }] } }, /matches none of anyOf/],
    ['an offload threshold above 1', { kvOffloadThreshold: 1.5 }, /> maximum 1/],
  ];

  it.each(invalid)('rejects %s under both zod and the JSON Schema', (_, config, why) => {
    expect(SimulationConfigSchema.safeParse(config).success).toBe(false);
    const errors = validate(committed, config);
    expect(errors.join('\n')).toMatch(why);
  });

  it('passes weighted scorer params through simulate() to the scorer factory', () => {
    const config = (lruCapacity: number) => ({
      numInstances: 2,
      routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 1, params: { lruCapacity } }] },
      workload: { kind: 'synthetic' as const, rate: 10, numRequests: 5 },
    });
    expect(() => simulate(config(0))).toThrow(/lruCapacity/);
    expect(simulate(config(8)).completed_requests).toBe(5);
  });
});
