// Properties of whole simulations with our router plugged in: generated cluster configs
// (@blis/cluster/testing), the simulator's invariants checked on every run, and a property of
// our own on top.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { policyContext } from '@blis/policies';
import { assertInvariants, simulateChecked, simulationConfigArb } from '@blis/cluster/testing';
import createLeastQueue from '../src/least-queue.js';

// Small clusters and workloads: each case simulates in milliseconds.
const configs = simulationConfigArb({ maxInstances: 4, maxRequests: 30 });

/** Our router, built for the config's cluster size, replacing the config's routing policy. */
const withOurRouter = (numInstances: number) => ({ routing: createLeastQueue(policyContext({ numInstances })) });

describe('least-queue in generated clusters', () => {
  it('keeps every simulator invariant (INV-1..9), in check mode, on 60 generated clusters', () => {
    fc.assert(
      fc.property(configs, (config) => {
        // simulateChecked records the run, checks the invariants that apply, and runs every
        // policy behind read-only views: a write to what the router is handed fails the case.
        const run = simulateChecked(config, withOurRouter(config.numInstances ?? 1));
        assertInvariants(run);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic, and never routes to an instance beyond the cluster', () => {
    fc.assert(
      fc.property(configs, (config) => {
        const run = simulateChecked(config, withOurRouter(config.numInstances ?? 1), { determinism: true });
        assert.deepEqual(run.violations, []);
        const targets = Object.keys(run.result?.target_distribution ?? {});
        for (const t of targets) assert.ok(Number(t.replace('instance_', '')) < (config.numInstances ?? 1), t);
      }),
      { numRuns: 30 },
    );
  });
});
