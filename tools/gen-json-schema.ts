/**
 * `pnpm gen:schema`: writes the JSON Schemas generated from the zod schemas: SimulationConfig
 * (packages/cluster/schema/simulation-config.schema.json, shipped as
 * `@blis/cluster/simulation-config.schema.json`) and the blis-eval/1 request and response
 * (packages/adapters/schema/eval-{request,response}.schema.json, shipped by @blis/adapters).
 * `pnpm gen:schema --check` writes nothing and exits 1 when a committed file is stale (the
 * packages' json-schema tests check the same on every test run).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIMULATION_CONFIG_JSON_SCHEMA_FILE, simulationConfigJsonSchema } from '../packages/cluster/src/json-schema.js';
import {
  EVAL_REQUEST_JSON_SCHEMA_FILE,
  EVAL_RESPONSE_JSON_SCHEMA_FILE,
  evalRequestJsonSchema,
  evalResponseJsonSchema,
} from '../packages/adapters/src/evaluate/json-schema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const targets: [string, () => Record<string, unknown>][] = [
  [join(root, 'packages/cluster', SIMULATION_CONFIG_JSON_SCHEMA_FILE), simulationConfigJsonSchema],
  [join(root, 'packages/adapters', EVAL_REQUEST_JSON_SCHEMA_FILE), evalRequestJsonSchema],
  [join(root, 'packages/adapters', EVAL_RESPONSE_JSON_SCHEMA_FILE), evalResponseJsonSchema],
];

for (const [file, generate] of targets) {
  const text = `${JSON.stringify(generate(), null, 2)}\n`;
  const shown = relative(root, file);
  if (process.argv.includes('--check')) {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (current !== text) {
      process.stderr.write(`${shown} is ${current === undefined ? 'missing' : 'stale'}: run \`pnpm gen:schema\`\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`${shown} is up to date\n`);
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${shown}\n`);
  }
}
