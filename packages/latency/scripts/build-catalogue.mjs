// Regenerates src/data/*.json from a BLIS data directory (defaults.yaml, hardware_config.json,
// model_configs/*/config.json). The JSON is committed, so the package stands alone.
// Usage: node scripts/build-catalogue.mjs <path-to-blis-data-dir>
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/build-catalogue.mjs <blis-data-dir>');
  process.exit(2);
}
const out = new URL('../src/data/', import.meta.url);
const defaults = parse(readFileSync(join(dir, 'defaults-blackbox.yaml'), 'utf8'));
const coefficients = defaults.models.map((m) => ({
  id: m.id,
  gpu: m.GPU,
  tp: m.tensor_parallelism,
  vllmVersion: m.vllm_version,
  alpha: m.alpha_coeffs,
  beta: m.beta_coeffs,
}));
const modelDefaults = Object.fromEntries(
  Object.entries(defaults.defaults).map(([id, d]) => [id, { gpu: d.GPU, tp: d.tensor_parallelism, vllmVersion: d.vllm_version, hfRepo: d.hf_repo ?? null }]),
);
writeFileSync(new URL('coefficients.json', out), `${JSON.stringify(coefficients, null, 1)}\n`);
writeFileSync(new URL('model-defaults.json', out), `${JSON.stringify(modelDefaults, null, 1)}\n`);
writeFileSync(new URL('workload-presets.json', out), `${JSON.stringify(defaults.workloads, null, 1)}\n`);
const head = parse(readFileSync(join(dir, 'defaults-head.yaml'), 'utf8')).trained_physics_coefficients;
writeFileSync(new URL('trained-physics-coefficients.json', out), `${JSON.stringify({ alpha: head.alpha_coeffs, beta: head.beta_coeffs }, null, 1)}\n`);
writeFileSync(new URL('hardware.json', out), `${JSON.stringify(JSON.parse(readFileSync(join(dir, 'hardware_config.json'), 'utf8')), null, 1)}\n`);
const configs = {};
for (const name of readdirSync(join(dir, 'model_configs')).sort()) {
  configs[name] = JSON.parse(readFileSync(join(dir, 'model_configs', name, 'config.json'), 'utf8'));
}
writeFileSync(new URL('model-configs.json', out), `${JSON.stringify(configs)}\n`);
console.log(`${coefficients.length} coefficient entries, ${Object.keys(modelDefaults).length} model defaults, ${Object.keys(configs).length} model configs`);
