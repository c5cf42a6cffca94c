import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests import workspace packages through the `@blis/source` export condition, so a clean
// checkout runs them without building first.
//
// The projects, all run by `pnpm test`: `unit`, `unit-isolated` and `unit-timing`, the packages'
// own tests (the quick tier for the edit-test loop, `pnpm test:quick`); `heavy`, the packages'
// tests that simulate many or large configurations (property suites, differential and scenario
// runs: several seconds each); `e2e`, what starts processes or servers (the CLI's tests, the
// playground in Chromium, the Python examples, Redis-backed sweeps).
const E2E_ELSEWHERE = ['packages/adapters/test/python-examples.test.ts', 'packages/adapters/test/queue/**/*.test.ts', 'packages/adapters/test/sweep-runner.test.ts'];
// Files that mock modules (vi.mock) or list the default policy registry, which other files add
// custom policies to: they run isolated, while the rest of the unit tier shares one module graph
// per worker (importing the sources once rather than once per file; found order-independent by
// runs with --sequence.shuffle).
const ISOLATED = ['packages/*/test/host-files-browser.test.ts', 'packages/policies/test/deciders.test.ts', 'packages/policies/test/registry.test.ts'];
// Tests of real-time behaviour (the live server's timers and streaming): they measure wall-clock
// gaps of a millisecond or less, which a core shared with other test files blurs. They run last,
// one file at a time, once the other projects are done (`unit-timing`, sequence.groupOrder 1).
const TIMING = ['packages/observe/test/wake-timer.test.ts', 'packages/observe/test/sleep-until.test.ts', 'packages/observe/test/serve-sim.test.ts', 'packages/observe/test/serve-sim-loop.test.ts'];
const HEAVY = [
  'packages/cluster/test/policy-config.test.ts',
  'packages/cluster/test/pd-properties.test.ts',
  'packages/cluster/test/lora.test.ts',
  'packages/cluster/test/bulk-decode-differential.test.ts',
  'packages/cluster/test/autoscale/terminated-kv.test.ts',
  'packages/cluster/test/inv9-oracle-boundary-inputs.test.ts',
  'packages/cluster/test/inv9-oracle-boundary-decisions.test.ts',
  'packages/cluster/test/kv-tiers-scenario.test.ts',
  'packages/cluster/test/option-effects.test.ts',
  'packages/cluster/test/cluster-properties.test.ts',
  'packages/engine/test/instance-properties.test.ts',
  'packages/workload/test/traces.test.ts',
  'packages/workload/test/simulated.test.ts',
  'packages/workload/test/inference-perf/stream-properties.test.ts',
  'packages/workload/test/fuzz/spec-fuzz.test.ts',
];

export default defineConfig({
  resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@blis/source', 'module', 'node', 'import', 'default'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves a core free (cores - 1: one worker on a
    // 2-core machine), which idles half of it here: unit files run in the worker itself, and an
    // e2e file mostly waits on one `blis` child at a time. `--maxWorkers` overrides.
    maxWorkers: availableParallelism(),
    setupFiles: ['tools/test-support/fast-check-seed.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          isolate: false,
          include: ['packages/*/test/**/*.test.ts', 'tools/test/**/*.test.ts'],
          exclude: ['packages/cli/test/**', ...E2E_ELSEWHERE, ...HEAVY, ...ISOLATED, ...TIMING],
        },
      },
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED } },
      { extends: true, test: { name: 'unit-timing', include: TIMING, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'heavy', include: HEAVY } },
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
