// Unit tests of the learning router: hand-computed decisions on views built with the testing kit
// (@blis/policies/testing), and the library's contract harness over generated router states.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RouterEvent } from '@blis/policies';
import { policyContext } from '@blis/policies';
import { assertPolicyContract, request, routerState, snapshots } from '@blis/policies/testing';
import { createLearningRouter, LEARNING_ROUTER_NAME } from '../src/latency-learning-router.js';

const two = () => routerState(snapshots({}, {}));
const event = (kind: RouterEvent['kind'], index: number, nowUs: number, instance?: number): RouterEvent =>
  instance === undefined ? { kind, nowUs, request: request({ index }) } : { kind, nowUs, request: request({ index }), instance };

describe(LEARNING_ROUTER_NAME, () => {
  it('tries unmeasured instances first, then goes where the expected wait is least', () => {
    const p = createLearningRouter(policyContext({ numInstances: 2 }));
    // Nothing measured: both waits are 0, the first position wins.
    assert.equal(p.route(request({ index: 0 }), two()).instance, 0);
    p.onEvent?.(event('routed', 0, 0, 0));
    assert.equal(p.route(request({ index: 1 }), two()).instance, 0);
    p.onEvent?.(event('routed', 1, 0, 0));
    // r0 completes after 1000 µs: instance 0 has learned 1000 µs per request and still holds r1,
    // so its expected wait is (1 + 1) x 1000 = 2000 µs against 0 for the unmeasured instance 1.
    p.onEvent?.(event('completed', 0, 1000, 0));
    assert.equal(p.route(request({ index: 2 }), two()).instance, 1);
    assert.deepEqual(p.metrics?.(), { rejected: 0, hinted: 0, samples: 1, mean_learned_ms: 1 });
  });

  it('learns an exponentially weighted mean (alpha 0.5: 1000 then 3000 -> 2000 µs)', () => {
    const p = createLearningRouter(policyContext({ numInstances: 1, params: { alpha: 0.5 } }));
    p.onEvent?.(event('routed', 0, 0, 0));
    p.onEvent?.(event('completed', 0, 1000, 0));
    p.onEvent?.(event('routed', 1, 1000, 0));
    p.onEvent?.(event('completed', 1, 4000, 0));
    assert.equal(p.metrics?.().mean_learned_ms, 2);
  });

  it('rejects when every instance has maxInFlight requests in flight, and a drop frees a slot', () => {
    const p = createLearningRouter(policyContext({ numInstances: 2, params: { maxInFlight: 1 } }));
    p.onEvent?.(event('routed', 0, 0, 0));
    p.onEvent?.(event('routed', 1, 0, 1));
    const d = p.route(request({ index: 2 }), two());
    assert.equal(d.reject, true);
    p.onEvent?.(event('dropped', 1, 10, 1));
    assert.equal(p.route(request({ index: 3 }), two()).instance, 1);
    assert.equal(p.metrics?.().rejected, 1);
  });

  it('hints priority 1 for prompts up to shortPromptTokens, none for longer ones', () => {
    const p = createLearningRouter(policyContext({ numInstances: 2, params: { shortPromptTokens: 100 } }));
    assert.equal(p.route(request({ inputTokens: 100 }), two()).priority, 1);
    assert.equal(p.route(request({ inputTokens: 101 }), two()).priority, undefined);
  });

  it('refuses unknown or out-of-range params', () => {
    assert.throws(() => createLearningRouter(policyContext({ params: { alfa: 0.1 } })), /unknown parameter "alfa"/);
    assert.throws(() => createLearningRouter(policyContext({ params: { alpha: 0 } })), /alpha must be a number in \(0, 1\]/);
    assert.throws(() => createLearningRouter(policyContext({ params: { maxInFlight: 1.5 } })), /maxInFlight must be an integer/);
  });

  it('keeps the policy contract over generated router states (valid index, no writes, deterministic, no output length)', () => {
    assertPolicyContract('routing', createLearningRouter, { numRuns: 100, params: { maxInFlight: 3, shortPromptTokens: 200 } });
  });
});
