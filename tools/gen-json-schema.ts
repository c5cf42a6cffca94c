/**
 * `pnpm gen:schema`: writes the JSON Schema of SimulationConfig (generated from the zod schema
 * by `simulationConfigJsonSchema()`) to packages/cluster/schema/simulation-config.schema.json,
 * which @blis/cluster ships as `@blis/cluster/simulation-config.schema.json`.
 * `pnpm gen:schema --check` writes nothing and exits 1 when the committed file is stale
 * (packages/cluster/test/json-schema.test.ts checks the same on every test run).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIMULATION_CONFIG_JSON_SCHEMA_FILE, simulationConfigJsonSchema } from '../packages/cluster/src/json-schema.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'packages/cluster', SIMULATION_CONFIG_JSON_SCHEMA_FILE);
const text = `${JSON.stringify(simulationConfigJsonSchema(), null, 2)}\n`;
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
