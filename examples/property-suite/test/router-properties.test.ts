// Properties of our own router's decisions, over generated router states and requests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { policyContext, parsePolicyBundle } from '@blis/policies';
import { policyBundleArb, request, requestViewArb, routerState, routerStateArb, snapshots } from '@blis/policies/testing';
import createLeastQueue, { load } from '../src/least-queue.js';

describe('least-queue', () => {
  it('never picks an instance busier than another one', () => {
    fc.assert(
      fc.property(routerStateArb({ maxInstances: 12 }), requestViewArb, (state, req) => {
        const policy = createLeastQueue(policyContext({ numInstances: state.instances.length }));
        const { instance } = policy.route(req, state);
        for (let i = 0; i < state.instances.length; i++) assert.ok(load(state, instance) <= load(state, i));
      }),
    );
  });

  it('on equal load, prefers the instance holding the longer prefix (hand-built example)', () => {
    const state = routerState(snapshots({ queueDepth: 1, cached: [1] }, { queueDepth: 1, cached: [1, 2, 3] }, { queueDepth: 2, cached: [1, 2, 3, 4] }));
    const policy = createLeastQueue(policyContext({ numInstances: 3 }));
    assert.equal(policy.route(request({ blockHashes: [1, 2, 3, 4] }), state).instance, 1);
  });
});

describe('policy bundles', () => {
  it('every generated --policy-config bundle validates', () => {
    fc.assert(
      fc.property(policyBundleArb(), (bundle) => {
        const r = parsePolicyBundle(bundle);
        assert.ok(r.success, JSON.stringify(r.success ? '' : r.issues));
      }),
    );
  });
});
