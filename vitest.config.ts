import { defineConfig } from 'vitest/config';

// Tests import workspace packages through the `@blis/source` export condition, so a clean
// checkout runs them without building first.
export default defineConfig({
  resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'tools/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['tools/test-support/fast-check-seed.ts'],
    // Builds the `blis` binary once per run for the CLI tests (tools/test-support/cli-bundle.ts).
    globalSetup: ['tools/test-support/cli-bundle.ts'],
  },
});
