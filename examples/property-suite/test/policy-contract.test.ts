// The contract every policy must keep, checked by the library's harness: a valid instance
// index, finite numbers, no writes to the views, the same decisions from the same seed, and no
// peeking at a request's output length. A failure prints fast-check's seed and path to replay.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertPolicyContract, checkPolicyContract } from '@blis/policies/testing';
import type { RoutingPolicy } from '@blis/policies';
import createLeastQueue from '../src/least-queue.js';

describe('least-queue keeps the policy contract', () => {
  it('over 200 generated runs of 1 to 16 instances', () => {
    assertPolicyContract('routing', createLeastQueue, { numRuns: 200, instances: { min: 1, max: 16 } });
  });

  it('and the harness would tell if it wrote to its inputs', () => {
    const careless = (): RoutingPolicy => ({
      name: 'careless',
      route(_request, state) {
        // A "cache" kept on the snapshot: exactly what the contract forbids.
        (state.instances[0] as { inFlightRequests: number }).inFlightRequests += 1;
        return { instance: 0, reason: '' };
      },
    });
    const report = checkPolicyContract('routing', careless, { numRuns: 20, print: false });
    assert.equal(report.ok, false);
    assert.deepEqual(report.failures.map((f) => f.property), ['no-input-mutation']);
    assert.match(report.failures[0].message, /wrote state\.instances\[0\]\.inFlightRequests/);
  });
});
