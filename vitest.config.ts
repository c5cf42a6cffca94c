import { defineConfig } from 'vitest/config';

// Tests import workspace packages through the `@blis/source` export condition, so a clean
// checkout runs them without building first.
//
// Two projects: `unit` (the packages' own tests: the quick tier, `pnpm test:quick`) and `e2e`
// (what starts processes or servers: the CLI's tests, the playground in Chromium, the Python
// examples, Redis-backed sweeps). `pnpm test` runs both.
const E2E_ELSEWHERE = ['packages/adapters/test/python-examples.test.ts', 'packages/adapters/test/queue/**/*.test.ts'];

export default defineConfig({
  resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['tools/test-support/fast-check-seed.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'tools/test/**/*.test.ts'],
          exclude: ['packages/cli/test/**', ...E2E_ELSEWHERE],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['packages/cli/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', ...E2E_ELSEWHERE],
          // Builds the `blis` binary once per run for the CLI tests (tools/test-support/cli-bundle.ts).
          globalSetup: ['tools/test-support/cli-bundle.ts'],
        },
      },
    ],
  },
});
