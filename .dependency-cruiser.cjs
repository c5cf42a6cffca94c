/**
 * Package boundaries of DESIGN.md, enforced on every CI run (`pnpm boundaries`).
 *
 * Workspace packages are imported by name and resolve (through the `@blis/source` condition and
 * pnpm's symlinks) to `packages/<name>/src/index.ts`; dependency-cruiser types those edges as
 * "undetermined", so the rules below match on resolved paths, not on dependency types.
 */
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');

/** What each package may import from the workspace: everything below it in DESIGN.md's graph. */
const layers = {
  kvcache: [],
  latency: ['policies'], // its file readers word schema problems through policies' zod translator
  policies: [],
  engine: ['kvcache', 'latency', 'policies'],
  workload: ['engine', 'kvcache', 'latency', 'policies'],
  trace: ['engine', 'kvcache', 'latency', 'policies'],
  cluster: ['engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'],
  adapters: ['cluster', 'engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'],
  observe: ['cluster', 'engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'],
  report: ['cluster', 'engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'],
  cli: ['adapters', 'observe', 'report', 'cluster', 'engine', 'kvcache', 'latency', 'policies', 'workload', 'trace'],
};

const packageDirs = readdirSync(join(__dirname, 'packages')).filter((d) => existsSync(join(__dirname, 'packages', d, 'package.json')));
const unknown = packageDirs.filter((d) => !(d in layers));
if (unknown.length > 0) throw new Error(`.dependency-cruiser.cjs: add ${unknown.join(', ')} to \`layers\` (DESIGN.md's package graph)`);

/** Workspace package directories whose paths do NOT match one of `allowed` (plus the package itself). */
const otherThan = (self, allowed) => {
  const ok = [self, ...allowed].join('|');
  return [`^packages/(?!(${ok})/)[^/]+/`, `^@blis/(?!(${ok})$)`];
};

const blisDeps = (pkg, fields) => {
  const pj = JSON.parse(readFileSync(join(__dirname, 'packages', pkg, 'package.json'), 'utf8'));
  const names = fields.flatMap((f) => Object.keys(pj[f] ?? {}));
  return names.filter((n) => n.startsWith('@blis/')).map((n) => n.slice('@blis/'.length));
};

/** fast-check, allowed in the ./testing entries only (a peer dependency of the packages that have one). */
const FAST_CHECK_IN_TESTING = ['(^|/)node_modules/fast-check/', '(^|/)node_modules/\\.pnpm/fast-check@'];

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'no-relative-cross-package',
      comment: 'Packages talk to each other through their published names, never through ../other-package paths.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/[^/]+/', pathNot: '^packages/$1/', dependencyTypes: ['local'] },
    },
    ...packageDirs.map((pkg) => ({
      name: `${pkg}-layering`,
      comment:
        layers[pkg].length === 0
          ? `@blis/${pkg} is a leaf: it depends on no other @blis package.`
          : `@blis/${pkg} may import only ${layers[pkg].map((d) => `@blis/${d}`).join(', ')} (DESIGN.md).`,
      severity: 'error',
      from: { path: `^packages/${pkg}/` },
      to: { path: otherThan(pkg, layers[pkg]) },
    })),
    // An import the package.json does not declare works in the workspace (pnpm links every
    // package) and breaks once published: sources need `dependencies`, tests may use devDependencies.
    ...packageDirs.map((pkg) => ({
      name: `${pkg}-src-declares-blis-deps`,
      comment: `@blis/${pkg}/src imports a @blis package missing from its package.json dependencies.`,
      severity: 'error',
      from: { path: `^packages/${pkg}/src/` },
      to: { path: otherThan(pkg, blisDeps(pkg, ['dependencies', 'peerDependencies'])) },
    })),
    ...packageDirs.map((pkg) => ({
      name: `${pkg}-test-declares-blis-deps`,
      comment: `@blis/${pkg}/test imports a @blis package missing from its package.json (dev)dependencies.`,
      severity: 'error',
      from: { path: `^packages/${pkg}/test/` },
      to: { path: otherThan(pkg, blisDeps(pkg, ['dependencies', 'peerDependencies', 'devDependencies'])) },
    })),
    {
      name: 'src-imports-declared-runtime-deps',
      comment: 'Published code may import only node built-ins and packages in its own dependencies/peerDependencies.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      // fast-check is both a peer (declared) and a dev dependency of the packages with a ./testing entry.
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'npm-dev'], pathNot: FAST_CHECK_IN_TESTING },
    },
    {
      name: 'policies-imports-only-zod',
      comment: 'Custom policies compile against @blis/policies alone; it may use zod and node built-ins only.',
      severity: 'error',
      from: { path: '^packages/policies/src/' },
      to: { pathNot: ['^packages/policies/src/', '(^|/)node_modules/zod/', '(^|/)node_modules/\\.pnpm/zod@', ...FAST_CHECK_IN_TESTING], dependencyTypesNot: ['core'] },
    },
    {
      name: 'fast-check-only-in-testing',
      comment: 'fast-check is an optional peer dependency: only the ./testing entry (src/testing/) may import it.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/', pathNot: '^packages/[^/]+/src/testing/' },
      to: { path: '(^|/)node_modules/(\\.pnpm/)?fast-check[@/]' },
    },
    {
      name: 'core-browser-safe',
      comment:
        'The core packages run in the browser (the playground): no Node built-ins. File access goes through the ' +
        "package's `#host-files` import (src/host/files.ts in Node, src/host/files.browser.ts in a browser build).",
      severity: 'error',
      from: { path: '^packages/(engine|kvcache|latency|policies|workload|cluster|trace|report)/src/', pathNot: '^packages/[^/]+/src/host/files\\.ts$' },
      to: { dependencyTypes: ['core'] },
      // Whether a browser bundle really holds no Node built-in, whatever the route (npm
      // dependencies included), is checked by `pnpm check:browser` (tools/check-browser-bundle.mjs).
    },
    {
      name: 'testing-entries-browser-safe',
      comment: 'The ./testing entries run in the playground too: no Node built-ins.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/testing/' },
      to: { dependencyTypes: ['core'] },
      // What they import in turn is checked on the build output: tools/check-packages.mjs fails
      // when a ./testing bundle imports a Node built-in (type-only imports, which this tool
      // counts, vanish there).
    },
    {
      name: 'no-src-to-test',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^packages/[^/]+/test/' },
    },
    {
      name: 'no-import-from-dist',
      comment: 'Build output is not a source of truth; import the package by name.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '(^|/)packages/[^/]+/dist/' },
    },
    {
      name: 'not-unresolvable',
      comment: 'An import that cannot be resolved is a typo or a missing dependency.',
      severity: 'error',
      from: { path: '^packages/[^/]+/(src|test)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // npm packages appear as leaves (so the rules above can see them) but are not cruised into.
    doNotFollow: { path: ['(^|/)node_modules/', '^packages/[^/]+/dist/'] },
    exclude: { path: ['^packages/[^/]+/coverage/', '^packages/[^/]+/\\.test-bin', '\\.tmp\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['@blis/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    tsPreCompilationDeps: true,
  },
};
