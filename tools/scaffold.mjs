// One-off scaffold used to create the package skeletons; kept so new packages follow the same shape.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
const pkgs = {
  kvcache: { desc: 'Paged KV cache with hierarchical prefix hashing, LRU free list and transactional allocation', deps: [] },
  latency: { desc: 'Step-time models (blackbox alpha/beta, roofline) and the shipped coefficient/hardware/model catalogue', deps: [] },
  policies: { desc: 'The BLIS policy contract: read-only views, policy interfaces and the built-in policy templates', deps: [] },
  engine: { desc: 'Discrete-event kernel and the single-instance vLLM simulator', deps: ['kvcache', 'latency', 'policies'] },
  workload: { desc: 'WorkloadSpec v2, arrival processes, token distributions, sessions and trace readers/writers', deps: ['engine'] },
  trace: { desc: 'Decision traces, counterfactual regret, anomaly detection and reflection summaries', deps: ['engine', 'policies'] },
  cluster: { desc: 'Multi-instance simulation on one clock: admission, priority, routing, flow control, metrics', deps: ['engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'] },
  adapters: { desc: 'Evaluator adapters for GEPA and OpenEvolve, and parameter sweeps', deps: ['cluster', 'policies'] },
  cli: { desc: 'The blis command-line interface', deps: ['cluster', 'engine', 'latency', 'policies', 'workload', 'trace', 'adapters'] },
};
const cond = (entry) => ({
  '@blis/source': `./src/${entry}.ts`,
  import: { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
  require: { types: `./dist/${entry}.d.cts`, default: `./dist/${entry}.cjs` },
});
const pub = (entry) => ({
  import: { types: `./dist/${entry}.d.ts`, default: `./dist/${entry}.js` },
  require: { types: `./dist/${entry}.d.cts`, default: `./dist/${entry}.cjs` },
});
for (const [name, { desc, deps }] of Object.entries(pkgs)) {
  const dir = `packages/${name}`;
  mkdirSync(`${dir}/src`, { recursive: true });
  mkdirSync(`${dir}/test`, { recursive: true });
  const pj = {
    name: `@blis/${name}`,
    version: '0.1.0',
    description: desc,
    license: 'Apache-2.0',
    type: 'module',
    sideEffects: false,
    repository: { type: 'git', url: 'git+https://github.com/blis-ts/blis.git', directory: dir },
    engines: { node: '>=20.19' },
    files: ['dist', 'README.md'],
    main: './dist/index.cjs',
    module: './dist/index.js',
    types: './dist/index.d.cts',
    exports: { '.': cond('index'), './package.json': './package.json' },
    publishConfig: { access: 'public', exports: { '.': pub('index'), './package.json': './package.json' } },
    scripts: { build: 'tsup' },
    dependencies: Object.fromEntries(deps.map((d) => [`@blis/${d}`, 'workspace:*'])),
  };
  if (!existsSync(`${dir}/package.json`)) writeFileSync(`${dir}/package.json`, JSON.stringify(pj, null, 2) + '\n');
  if (!existsSync(`${dir}/tsup.config.ts`))
    writeFileSync(`${dir}/tsup.config.ts`, `import { libraryConfig } from '../../tools/tsup.base.js';\n\nexport default libraryConfig({ entry: ['src/index.ts'] });\n`);
  if (!existsSync(`${dir}/src/index.ts`)) writeFileSync(`${dir}/src/index.ts`, `export {};\n`);
  if (!existsSync(`${dir}/README.md`)) writeFileSync(`${dir}/README.md`, `# @blis/${name}\n\n${desc}.\n`);
}
