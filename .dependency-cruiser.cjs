/** Package boundaries of DESIGN.md, enforced on every CI run. */
const leaves = ['policies', 'kvcache', 'latency'];
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'no-relative-cross-package',
      comment: 'Packages talk to each other through their published names, never through ../other-package paths.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/([^/]+)/', pathNot: ['^packages/$1/'], dependencyTypesNot: ['npm', 'npm-dev', 'npm-peer', 'npm-optional'] },
    },
    ...leaves.map((leaf) => ({
      name: `${leaf}-is-a-leaf`,
      comment: `@blis/${leaf} depends on no other @blis package.`,
      severity: 'error',
      from: { path: `^packages/${leaf}/` },
      to: { path: ['^packages/(?!' + leaf + '/)', '@blis/(?!' + leaf + ')'] },
    })),
    {
      name: 'policies-imports-only-zod',
      comment: 'Custom policies compile against @blis/policies alone; it may use zod and node built-ins only.',
      severity: 'error',
      from: { path: '^packages/policies/src' },
      to: { dependencyTypes: ['npm', 'npm-dev'], pathNot: ['node_modules/zod/', 'node_modules/\\.pnpm/zod@'] },
    },
    {
      name: 'no-src-to-test',
      severity: 'error',
      from: { path: '^packages/[^/]+/src' },
      to: { path: '^packages/[^/]+/test' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['dist', 'node_modules'] },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['@blis/source', 'import', 'require', 'node', 'default'], exportsFields: ['exports'] },
    tsPreCompilationDeps: true,
  },
};
